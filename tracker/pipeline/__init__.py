"""The whole chain on a video: calibration -> detection -> tracking -> events -> referee.

Three parts, kept apart so that files, cameras and streams, and every output, share one core:

- a :class:`tracker.sources.FrameSource` gives frames (a file, a camera, a stream, a pipe);
- :class:`RefereeRun` takes them one at a time (:meth:`RefereeRun.step`) and referees every
  stroke as it ends; operator inputs can arrive while it runs (:meth:`RefereeRun.submit`, safe
  from another thread: a referee console);
- :class:`tracker.listeners.RunListener` objects receive what the run produces as it happens:
  every record of the match log with the referee's decisions about it
  (:meth:`RunListener.on_record`), every frame with what was seen
  (:meth:`RunListener.on_frame`, for an overlay), the end. The JSONL files
  (:class:`tracker.outputs.jsonl.JsonlOutputs`) are one such listener.

Modules: :mod:`~tracker.pipeline.run` (the frames side: :class:`RefereeRun`),
:mod:`~tracker.pipeline.referee` (the records side: :class:`Referee`, judgements, the early
call, inputs from a match log), :mod:`~tracker.pipeline.process` (:func:`process_video` and its
:class:`ProcessOptions`); the listener API is the leaf module :mod:`tracker.listeners`.

``process_video`` wires them for a file: the match log (frame start and shot records, JSONL),
the decisions (JSONL) and the final scoreboard are written into the output folder as it goes,
so a crash keeps everything called so far.
"""

from tracker.listeners import FrameView, ProcessResult, RunListener, StageTimes
from tracker.pipeline.process import ProcessOptions, VideoError, cut_off_end, process_video
from tracker.pipeline.referee import (
    JUDGEMENT_FIELDS,
    Judgement,
    Referee,
    inputs_from_log,
    spoken_from_log,
)
from tracker.pipeline.run import FrameChecks, RefereeRun

__all__ = [
    "JUDGEMENT_FIELDS",
    "FrameChecks",
    "FrameView",
    "Judgement",
    "ProcessOptions",
    "ProcessResult",
    "Referee",
    "RefereeRun",
    "RunListener",
    "StageTimes",
    "VideoError",
    "cut_off_end",
    "inputs_from_log",
    "process_video",
    "spoken_from_log",
]
