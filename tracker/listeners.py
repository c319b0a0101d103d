"""What a referee run tells the world as it goes: the listener API (a leaf module).

A :class:`tracker.pipeline.RefereeRun` hands every record of the match log with the referee's
decisions about it, every frame with what was seen (:class:`FrameView`), and the end to its
:class:`RunListener` objects; the outputs (:mod:`tracker.outputs`), the live server and the
benches are such listeners. This module imports nothing of the pipeline, so a listener can
be written without importing the run (no import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tracker.sources import Frame, SourceEnd

#: The run a listener hears from (:class:`tracker.pipeline.RefereeRun`), named here and not
#: imported, so that the listener API depends on nothing of the pipeline, not even for types.
RefereeRun = Any

if TYPE_CHECKING:
    from calibration.monitor import ViewStatus
    from tracker.perception.detect import BallDetections
    from tracker.perception.track import TableState
    from tracker.records.shot import Record, Shot


@dataclass
class StageTimes:
    """Seconds spent per stage (for the benchmark)."""

    decode: float = 0.0
    detect: float = 0.0
    track: float = 0.0
    events: float = 0.0
    referee: float = 0.0
    monitor: float = 0.0
    frames: int = 0

    def fps(self) -> dict[str, float]:
        """Frames per second of each stage and of the whole pipeline."""
        total = self.decode + self.detect + self.track + self.events + self.referee + self.monitor
        out = {k: (self.frames / v if v > 0 else float("inf"))
               for k, v in self.__dict__.items() if k != "frames"}
        out["total"] = self.frames / total if total > 0 else float("inf")
        return out


@dataclass
class ProcessResult:
    """What a processed video produced."""

    shots: list[Shot] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    score: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    not_refereed_frames: int = 0
    times: StageTimes = field(default_factory=StageTimes)
    end: SourceEnd | None = None
    #: live sources: frames skipped to keep up (:func:`tracker.live.may_skip`), of which
    #: ``forced`` while balls moved; frames that came while the run was set up (calibration);
    #: frames dropped unread (the pipeline held too many);
    #: gaps (start s, end s) where the stream was lost (not refereed)
    skipped_frames: int = 0
    startup_skipped: int = 0
    #: live frames let go unlooked at while the table was idle (no frame in play, nothing
    #: changing: :func:`tracker.live.may_rest`)
    idle_frames: int = 0
    skipped_forced: int = 0
    dropped_frames: int = 0
    gaps: list[tuple[float, float]] = field(default_factory=list)
    #: strokes called early (``on_call``, after
    #: :data:`tracker.perception.events.EARLY_CALL_S` of rest), and of them those whose call
    #: at the stroke's end (after ``SETTLE_S``) differed: said again, corrected
    early_calls: int = 0
    early_corrected: int = 0
    #: strokes called early whose end the run never saw (the video or stream ended, or
    #: --max-frames, within SETTLE_S of the early call): withdrawn, not recorded
    early_withdrawn: int = 0


@dataclass
class FrameView:
    """What the run made of one frame (for overlays and live pages).

    Attributes:
        frame: the frame itself.
        status: the view monitor's verdict (``refereed`` False: a cut, a close-up).
        detections: the balls found (None when the frame was not refereed).
        state: the 22 slots after tracking (None when not refereed).
        shot: the stroke that ended on this frame, if one did.
        decisions: what the referee said on this frame (stroke decisions, input results).
    """

    frame: Frame
    status: ViewStatus
    detections: BallDetections | None = None
    state: TableState | None = None
    shot: Shot | None = None
    decisions: list[dict[str, Any]] = field(default_factory=list)


class RunListener:
    """Receives what a :class:`RefereeRun` produces, as it happens. Override what you need;
    every method is called on the thread that processes the frames."""

    def on_record(self, run: RefereeRun, record: Record, decisions: list[dict[str, Any]]) -> None:
        """A record of the match log (frame start, operator input, stroke) and what the referee
        said about it (possibly nothing)."""

    def on_frame(self, run: RefereeRun, view: FrameView) -> None:
        """One processed frame."""

    def on_end(self, run: RefereeRun, summary: dict[str, Any]) -> None:
        """The run ended (the summary is what :meth:`RefereeRun.summary` returns)."""

    def on_amend(self, run: RefereeRun, record: Shot, decisions: list[dict[str, Any]]) -> None:
        """The last stroke was called again after a referee's correction
        (:meth:`RefereeRun.amend`): ``record`` replaces the stroke record given last to
        :meth:`on_record`, ``decisions`` (each marked ``"amended": True``) replace its calls.
        By default treated as a new record."""
        self.on_record(run, record, decisions)
