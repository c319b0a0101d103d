"""The whole chain on a video: calibration -> detection -> tracking -> events -> referee.

Three parts, kept apart so that files, cameras and streams, and every output, share one core:

- a :class:`tracker.sources.FrameSource` gives frames (a file today);
- :class:`RefereeRun` takes them one at a time (:meth:`RefereeRun.step`) and referees every
  stroke as it ends; operator inputs can arrive while it runs (:meth:`RefereeRun.submit`, safe
  from another thread: a referee console);
- :class:`RunListener` objects receive what the run produces as it happens: every record of the
  match log with the referee's decisions about it (:meth:`RunListener.on_record`), every frame
  with what was seen (:meth:`RunListener.on_frame`, for an overlay), the end. The JSONL files
  (:class:`tracker.outputs.jsonl.JsonlOutputs`) are one such listener.

``process_video`` wires them for a file: the match log (frame start and shot records, JSONL),
the decisions (JSONL) and the final scoreboard are written into the output folder as it goes,
so a crash keeps everything called so far.
"""

from __future__ import annotations

import contextlib
import copy
import queue
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.monitor import ViewMonitor, ViewSignature, ViewStatus
from calibration.profile import Calibration
from calibration.startup import (
    START_SAMPLES,
    START_SAMPLES_LIVE,
    NoTableAtStart,
    find_start,
    working_scale,
)
from calibration.table import TableGeometry
from tracker import balls as B
from tracker.cadence import FrameCadence, table_mask
from tracker.perception.calibrate import find_colour_balls
from tracker.perception.change import ChangeGatedDetector, gate_thumbnail, gate_view
from tracker.perception.detect import BallDetections, BallDetector
from tracker.perception.events import EARLY_CALL_S, SETTLE_S, CushionView, StrokeDetector
from tracker.perception.learned import make_detector
from tracker.perception.track import TableState, Tracker
from tracker.perception.unique import settle_unique_classes
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Record, Shot
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError
from tracker.sources import Frame, FrameSource, SourceEnd, SourceError, open_source
from tracker.viewcuts import ViewSegments, back_note, cut_note, end_note, observed_start_note
from tracker.words import balls_words, the_ball


class VideoError(RuntimeError):
    """The video cannot be processed; the message says why and what to do."""


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
    skipped_forced: int = 0
    dropped_frames: int = 0
    gaps: list[tuple[float, float]] = field(default_factory=list)
    #: strokes called early (``on_call``, after :data:`EARLY_CALL_S` of rest), and of them
    #: those whose call at the stroke's end (after ``SETTLE_S``) differed: said again, corrected
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


#: What the referee may say about a stroke (the fields of a :class:`Shot` the camera cannot see).
JUDGEMENT_FIELDS = ("nomination", "free_ball", "operator")


class Judgement(dict):
    """What the referee says about the coming stroke, or (with ``amend``) the last one: some of
    :data:`JUDGEMENT_FIELDS` (``operator`` an :class:`OperatorJudgement`)."""


def _merge_operator(said: Judgement, old: Any) -> Judgement:
    """A judgement whose ``operator`` part adds to ``old`` (an OperatorJudgement): a new miss
    judgement replaces the old one, fouls add up."""
    new = said.get("operator")
    if new is None or old is None:
        return said
    return Judgement({**said, "operator": replace(
        old, miss=old.miss if new.miss is None else new.miss, fouls=(*old.fouls, *new.fouls),
        not_a_stroke=old.not_a_stroke or new.not_a_stroke)})


def _sanitize(shot: Shot, on_table: frozenset[str]) -> Shot:
    """Drop what the referee's state contradicts (a ball it knows is off the table), with a
    review note, instead of stopping the match."""
    notes = list(shot.needs_review)

    def keep_pos(p: dict | None) -> dict | None:
        if p is None:
            return None
        out = {}
        for b, v in p.items():
            if b == B.WHITE or b in on_table or B.is_colour(b):
                out[b] = v
            else:
                notes.append(f"the camera saw {the_ball(b)} on the table that the referee has "
                             "off it (potted): ignored")
        return out

    events = []
    for e in shot.events:
        if any(b != B.WHITE and b not in on_table for b in e.balls):
            notes.append(f"the camera saw {balls_words(e.balls)} in a {e.type} though off the "
                         "table (potted): ignored")
            continue
        events.append(e)
    return replace(shot, events=tuple(events), positions_before=keep_pos(shot.positions_before),
                   positions_after=keep_pos(shot.positions_after), needs_review=tuple(dict.fromkeys(notes)))


@dataclass
class _EarlyCall:
    """A stroke's call said early (:meth:`RefereeRun._early_call`).

    Attributes:
        shot: the stroke's number.
        said: the lines said (the latest, when corrected).
        rest_since: the start (s) of the rest it was said in.
        moved: balls moved again since (the wait was said).
        corrected: said again, corrected.
    """

    shot: int
    said: list[str]
    rest_since: float
    moved: bool = False
    corrected: bool = False


@dataclass
class FrameChecks:
    """What :meth:`RefereeRun.look_ahead` works out for one frame ahead of the pipeline.

    Attributes:
        status: the view monitor's verdict.
        thumb: the change gate's thumbnail of the frame (BGR, half the working scale), or
            None (no gate).
        seconds: wall-clock seconds the work took (on its own thread).
        window: the part of the thumbnail made (:func:`tracker.perception.change.thumb_window`).
    """

    status: ViewStatus
    thumb: np.ndarray | None
    seconds: float
    window: tuple[int, int, int, int] | None = None


class RefereeRun:
    """Referees one table's frames as they come (see the module docstring).

    Args:
        calibration: the camera.
        fps: frames per second of the source.
        players: the two players (the first breaks) unless the inputs' frame start says otherwise.
        inputs: operator inputs known in advance (from a match log) as (n, input): applied just
            before the n-th stroke the camera sees; a ``FrameStart`` among them is the frame's start.
        spoken: per stroke number, what the camera cannot see: ``nomination``, ``free_ball``,
            ``operator`` (judgements), merged into that stroke's record.
        listeners: receive the records, frames and the end as they happen.
        on_call: called with each decision in a referee's words (the CLI prints them).
        detector: ``colour``, ``learned`` or ``auto`` (:func:`tracker.perception.learned.resolve`).
        gated: detect only where the table changed (:mod:`tracker.perception.change`; the
            learned detector searches the whole frame whenever anything changed).
        cadence: repeated frames of the source (:class:`tracker.cadence.FrameCadence`): the
            tracker then runs on the picture clock, repeats skipped.
    """

    def __init__(self, calibration: Calibration, fps: float, players: tuple[str, str] = ("A", "B"),
                 inputs: list[tuple[int, OperatorInput | FrameStart]] | None = None,
                 spoken: dict[int, dict[str, Any]] | None = None,
                 listeners: Iterable[RunListener] = (),
                 on_call: Callable[[str], None] | None = None, detector: str = "auto",
                 gated: bool = True, cadence: FrameCadence | None = None):
        self.calibration = calibration
        self.cadence = cadence if cadence is not None and cadence.period else None
        self.source_fps = fps
        fps = self.cadence.picture_fps if self.cadence else fps
        self.fps = fps
        self.players = players
        self.inputs = list(inputs or [])
        self.spoken = dict(spoken or {})
        self.listeners = list(listeners)
        self.on_call = on_call
        #: receives live notes (skips, gaps) for the log
        self.on_note: Callable[[str], None] | None = None
        self.detector_kind = detector
        self.detector = make_detector(calibration, detector, working_scale(calibration))
        #: search only where the table changed (:mod:`tracker.perception.change`); False: every
        #: frame whole (the reference the gated detector is checked against)
        self.gated = gated
        self.gate: ChangeGatedDetector | None = None
        #: (detector, :func:`gate_view` of it) for :meth:`look_ahead`'s thumbnails
        self._gate_view: tuple | None = None
        self.tracker = Tracker(calibration.table, fps)
        # a centre is known to about a pixel (table millimetres per pixel at the table's centre)
        self.strokes = StrokeDetector(calibration.table, fps, position_error_mm=max(
            1.5, calibration.table.ball_radius / self.detector.r_px),
            cushion_view=CushionView.from_calibration(calibration))
        self.monitor = ViewMonitor(calibration, check_every=max(1, int(self.source_fps // 2)),
                                   ball_finder=find_colour_balls)
        #: the stretches of frames refereed and not (cuts away from the table)
        self.segments = ViewSegments()
        self._last_view: FrameView | None = None
        self.match = Match()
        self.result = ProcessResult()
        self.start: FrameStart | None = None
        self._live_inputs: queue.Queue[OperatorInput | tuple[str, Judgement, Any]] = queue.Queue()
        #: the console's judgements for the coming stroke, merged into it (over ``spoken``)
        self.said_next = Judgement()
        #: the referee before the last stroke was fed, and the records fed since (for amend)
        self._before_last: tuple[Match, list[Record]] | None = None
        self._inputs_done: set[int] = set()
        #: the early call said for the stroke under way
        self._early: _EarlyCall | None = None

    # --- starting -------------------------------------------------------------------------
    def begin(self, first: np.ndarray, learn: list[np.ndarray] | None = None) -> FrameStart:
        """Learn this camera from its first picture and start the frame (the standard rack, or
        the layout seen when the video starts mid-frame).

        Args:
            learn: more frames of this view (the first seconds): the view monitor's
                reference (what the view looks like). The cloth and the colours are learned
                from the first picture of the view alone.
        """
        if learn:
            self.monitor.signature = ViewSignature.build(self.calibration, learn)
            learn = [f for f in learn if self.monitor.signature.same_view(f)[0]]
            if learn and not self.monitor.signature.same_view(first)[0]:
                first = learn[0]  # the video opens on something else (a cut in the window)
        # the cloth from the first picture alone: frames of the first seconds would make a
        # ball resting in a pocket's jaws all that while part of the pocket (real clip 11)
        self.detector.learn_cloth(first)
        # this camera's colours, anchored on the spots, from that picture too: frames of the
        # first seconds hold a hand placing the cue ball or a struck one blurred, and colours
        # learned from them lose the blurred white of a hard break-off (overhead sample: the
        # break-off missed); on the twelve broadcast clips one picture does as well
        self.detector.learn_colours([first])
        start = None
        for _n, inp in self.inputs:
            if isinstance(inp, FrameStart):
                start = replace(inp, players=self.players if self.players != ("A", "B") else inp.players)
                self.inputs = [x for x in self.inputs if x[1] is not inp]
                break
        self._observed = start is None
        if start is None:
            start = _observed_start(self.detector, self.tracker, first, self.players)
        if start.positions:
            self.tracker.seed(start.positions)
        self.start = start
        observed = self._observed and start.positions is not None
        self._feed(start, [observed_start_note(start.positions, self.calibration.table.spots,
                                               1.5 * self.calibration.table.ball_radius)]
                   if observed else [])
        self._inputs_due(1)
        return start

    def _inputs_due(self, n: int) -> list[dict[str, Any]]:
        """Apply the known inputs due before stroke ``n`` not applied yet (as soon as the
        stroke before it is called: a replacement is then known while the referee replaces)."""
        outs: list[dict[str, Any]] = []
        for i, (due, inp) in enumerate(self.inputs):
            if due == n and isinstance(inp, OperatorInput) and i not in self._inputs_done:
                self._inputs_done.add(i)
                outs += self._apply_input(inp)
        return outs

    # --- the loop -------------------------------------------------------------------------
    def submit(self, inp: OperatorInput) -> None:
        """An operator input made while the run goes on (a console); applied before the next
        frame is processed. Safe to call from another thread."""
        self._live_inputs.put(inp)

    def judge(self, said: Judgement, amend: bool = False,
              done: Callable[[dict[str, Any]], None] | None = None) -> None:
        """The referee's judgement (nomination, free ball, miss, fouls the camera cannot see):
        for the coming stroke (merged into its record when it ends; a later judgement of the
        same field replaces it), or with ``amend`` for the last stroke, called again at once
        (:meth:`amend`). Taken before the next frame; ``done`` gets the outcome
        (``{"accepted": bool, "message": str}``). Safe to call from another thread."""
        self._live_inputs.put(("amend" if amend else "next", Judgement(said), done))

    def look_ahead(self, frame: Frame) -> FrameChecks:
        """What needs only the frame itself, worked out ahead of :meth:`step` on a thread of
        its own (:class:`tracker.live.WorkAhead`): the view monitor's verdict and the change
        gate's thumbnail (at the size the current detector's gate uses; a gate of another
        size makes its own)."""
        t0 = time.perf_counter()
        status = self.monitor.update(frame.index, frame.image)
        thumb, window = None, None
        if self.gated:
            detector = self.detector
            if self._gate_view is None or self._gate_view[0] is not detector:
                self._gate_view = (detector, *gate_view(detector))
            _, size, _, window = self._gate_view
            thumb = gate_thumbnail(frame.image, size, window)
        return FrameChecks(status, thumb, time.perf_counter() - t0, window)

    def step(self, frame: Frame, decode_s: float = 0.0,
             checks: FrameChecks | None = None) -> FrameView:
        """Process one frame: monitor, detect, track, stroke events, referee.

        Args:
            decode_s: seconds it took to get this frame (for the stage timings).
            checks: this frame's :meth:`look_ahead`, when it was worked out ahead on a
                thread of its own; None: the monitor looks at the frame now.
        """
        times = self.result.times
        times.decode += decode_s
        decisions: list[dict[str, Any]] = []
        while not self._live_inputs.empty():
            item = self._live_inputs.get_nowait()
            decisions += (self._apply_judgement(*item) if isinstance(item, tuple)
                          else self._apply_input(item))
        t_b = time.perf_counter()
        status = checks.status if checks is not None else self.monitor.update(frame.index,
                                                                              frame.image)
        t_c = time.perf_counter()
        times.monitor += checks.seconds if checks is not None else t_c - t_b
        view = FrameView(frame, status, decisions=decisions)
        changed = self.segments.add(frame.index, status.refereed)
        picture = frame.index
        if status.refereed:
            if changed and self.segments.runs[-2][0] > 0:  # back after a cut: the next stroke is told
                self.strokes.pending_review.append(back_note(*self.segments.away(self.source_fps)[-1]))
            if status.state == "recalibrated":
                self._adopt_view(frame.image, status.calibration or self.monitor.cal)
            if self.cadence is not None:
                picture = self.cadence.tick(frame.image, frame.index)
        if not status.refereed:
            self.result.not_refereed_frames += 1
            if changed:  # the picture left the table: a stroke under way is called as seen
                view.shot, outs = self._end_stroke(cut_note(frame.t))
                view.decisions += outs
        elif picture is None and self._last_view is not None:
            # the picture repeats the last one (a raised frame rate): nothing new to see
            view.detections, view.state = self._last_view.detections, self._last_view.state
        else:
            view.detections = self._detect(frame.image, checks)
            t_d = time.perf_counter()
            times.detect += t_d - t_c
            view.state = self.tracker.update(frame.index if picture is None else picture,
                                             view.detections)
            t_e = time.perf_counter()
            times.track += t_e - t_d
            view.shot, outs = self.after_tracking(view.state)
            view.decisions += outs
        times.frames += 1
        self.result.frames = max(self.result.frames, frame.index + 1)
        if view.state is not None:
            self._last_view = view
        for li in self.listeners:
            li.on_frame(self, view)
        return view

    def _end_stroke(self, note: str) -> tuple[Shot | None, list[dict[str, Any]]]:
        """Call the stroke under way, if any, on what was seen (``note`` for review)."""
        shot = self.strokes.end_now(note)
        return (None, []) if shot is None else self._referee(shot)

    def _adopt_view(self, image: np.ndarray, cal: Calibration) -> None:
        """The monitor calibrated a new view ``cal`` (the camera moved, or another camera
        shows the whole table): detect with it from this frame on. Positions stay in table
        millimetres, so the tracks go on."""
        self.calibration = cal
        self.detector = make_detector(cal, self.detector_kind, working_scale(cal))
        self.detector.learn_cloth(image)
        self.detector.learn_colours([image])
        self.strokes.cushion_view = CushionView.from_calibration(cal)
        if self.cadence is not None:
            self.cadence.mask = table_mask(cal)

    def after_tracking(self, state: TableState) -> tuple[Shot | None, list[dict[str, Any]]]:
        """The stroke events of one tracked frame and, when a stroke ends on it, its call
        (or, while every ball rests, the early call: :meth:`_early_call`). Returns the stroke
        that ended (None) and the decisions made."""
        times = self.result.times
        t_e = time.perf_counter()
        shot = self.strokes.update(state)
        t_f = time.perf_counter()
        times.events += t_f - t_e
        outs: list[dict[str, Any]] = []
        if shot is not None:
            shot, outs = self._referee(shot)
        else:
            self._early_call(state)
        times.referee += time.perf_counter() - t_f
        return shot, outs

    def _detect(self, image: np.ndarray, checks: FrameChecks | None = None) -> BallDetections:
        """Balls in one frame: searched again only where the table changed
        (:class:`ChangeGatedDetector`; ``checks``: the frame's :meth:`look_ahead`, whose
        thumbnail it takes when made for it) unless ``gated`` is off; one white and one of
        each colour (contests settled by the game's constraint:
        :mod:`tracker.perception.unique`)."""
        if not self.gated:
            return _settled(self.detector, self.detector.detect(image))
        if self.gate is None or self.gate.det is not self.detector:
            self.gate = ChangeGatedDetector(self.detector, self.fps)
        if checks is None:
            return _settled(self.detector, self.gate.detect(image))
        return _settled(self.detector, self.gate.detect(image, checks.thumb, checks.window))

    def skipped(self, frame: Frame, forced: bool) -> None:
        """A live frame skipped to keep up (not processed)."""
        self.result.skipped_frames += 1
        self.result.skipped_forced += forced
        self.result.frames = max(self.result.frames, frame.index + 1)
        if forced and self.on_note:
            self.on_note(f"live: behind by more than the hard limit at {frame.t:.1f} s: a frame "
                         "was skipped while balls were moving")

    def mark_gap(self, frame: Frame) -> None:
        """The stream was lost for ``frame.gap_s`` before this frame: not refereed, noted for
        the stroke under way or the next one."""
        t0, t1 = frame.t - frame.gap_s, frame.t
        self.result.gaps.append((t0, t1))
        self.result.not_refereed_frames += int(round(frame.gap_s * self.fps))
        note = (f"the camera's stream was lost from {t0:.1f} s to {t1:.1f} s: that time was "
                "not refereed")
        if self.strokes.stroke is not None:
            self.strokes.stroke.review.append(note)
        else:
            self.strokes.pending_review.append(note)
        if self.on_note:
            self.on_note("live: " + note)

    @property
    def frame_over(self) -> bool:
        """Whether the frame has ended (nothing more to referee)."""
        return bool(self.match.state and self.match.state.frame_over)

    def _referee(self, shot: Shot) -> tuple[Shot, list[dict[str, Any]]]:
        """Apply the inputs due before this stroke, then call it."""
        outs = self._inputs_due(shot.shot)
        if shot.shot in self.spoken:
            shot = replace(shot, **self.spoken[shot.shot])
        if self.said_next:
            shot = replace(shot, **self.said_next)
            self.said_next = Judgement()
        shot = _sanitize(shot, self.match.state.on_table)
        self._before_last = (copy.deepcopy(self.match), [])
        calls = self._call(shot)
        self.result.shots.append(shot)
        self._emit(shot, calls)
        return shot, outs + calls + self._inputs_due(shot.shot + 1)

    def _early_call(self, st: TableState) -> None:
        """Say the stroke's call as soon as every ball has rested :data:`EARLY_CALL_S`: the
        calls of the record it would have if it ended now, made on a copy of the referee
        (nothing is recorded; the stroke's end, after ``SETTLE_S``, makes the call that counts
        and says it again only if it differs). Said once per rest; if balls move again, a
        line says the call waits, and the next rest's call is said only if it differs."""
        early, on_call = self._early, self.on_call
        if on_call is None or self.strokes.stroke is None:
            return
        if early is not None and self.strokes.stirring(st) and not early.moved:
            early.moved = True
            on_call(f"WAIT: balls are moving again after the call of shot {early.shot}: it "
                    "stands only if they stop as it said")
            return
        rest = self.strokes.resting_for(st.t)
        if rest is None or rest < EARLY_CALL_S:
            return
        since = self.strokes.stroke.quiet_since
        if early is not None and early.rest_since == since:
            return
        shot = self.strokes.preview(st)
        said = [explain(c) for c in self._calls_on_copy(shot)]
        if early is None:
            self.result.early_calls += 1
            self._early = early = _EarlyCall(shot.shot, said, since)
            for line in said:
                on_call(line)
            return
        early.rest_since, early.moved = since, False
        if said != early.said:
            self._correct(early, said)

    def _correct(self, early: _EarlyCall, said: list[str]) -> None:
        """Say a stroke's call again, corrected (counted once per stroke)."""
        self.result.early_corrected += int(not early.corrected)
        early.corrected, early.said = True, said
        if self.on_call:
            for line in said:
                self.on_call("CORRECTED: " + line)

    def _calls_on_copy(self, shot: Shot) -> list[dict[str, Any]]:
        """What :meth:`_referee` would decide for ``shot``, on a copy of the referee (the
        inputs due, what was said for it, the record cleaned as there)."""
        match = copy.deepcopy(self.match)
        for i, (due, inp) in enumerate(self.inputs):
            if due == shot.shot and isinstance(inp, OperatorInput) and i not in self._inputs_done:
                with contextlib.suppress(RuleError):  # refused: it changes nothing
                    match.feed(inp)
        if shot.shot in self.spoken:
            shot = replace(shot, **self.spoken[shot.shot])
        if self.said_next:
            shot = replace(shot, **self.said_next)
        shot = _sanitize(shot, match.state.on_table)
        try:
            return match.feed(shot)
        except RuleError as exc:
            return [{"shot": shot.shot, "error": str(exc), "needs_review": True}]

    def _call(self, shot: Shot) -> list[dict[str, Any]]:
        try:
            return self.match.feed(shot)
        except RuleError as exc:
            return [{"shot": shot.shot, "error": str(exc), "needs_review": True}]

    def amend(self, said: Judgement) -> tuple[bool, str, list[dict[str, Any]]]:
        """Call the last stroke again with the referee's judgement (a miss called or
        cancelled, a foul the camera could not see, a nomination): allowed until an input or
        a stroke follows it. Returns (accepted, message, the new calls). Run on the processing
        thread (:meth:`judge` with ``amend`` from another)."""
        if self._before_last is None or not self.result.shots:
            return False, "no stroke to correct yet", []
        match, since = self._before_last
        if since:
            return False, ("the last stroke's call can no longer be corrected: an input was made "
                           "after it"), []
        shot = replace(self.result.shots[-1], **said)
        self.match = copy.deepcopy(match)
        calls = [{**c, "amended": True} for c in self._call(shot)]
        self.result.shots[-1] = shot
        self.result.decisions += calls
        for li in self.listeners:
            li.on_amend(self, shot, calls)
        if self.on_call:
            for c in calls:
                self.on_call("CORRECTED: " + explain(c))
        return True, f"stroke {shot.shot} called again", calls

    def _apply_judgement(self, when: str, said: Judgement,
                         done: Callable[[dict[str, Any]], None] | None) -> list[dict[str, Any]]:
        bad = [k for k in said if k not in JUDGEMENT_FIELDS]
        if bad:
            ok, msg, calls = False, f"not a judgement: {', '.join(bad)}", []
        elif when == "amend":
            last = self.result.shots[-1].operator if self.result.shots else None
            ok, msg, calls = self.amend(_merge_operator(said, last))
        else:
            self.said_next.update(_merge_operator(said, self.said_next.get("operator")))
            ok, msg, calls = True, "noted for the coming stroke", []
        if done is not None:
            done({"accepted": ok, "message": msg, "calls": calls})
        return calls

    def _apply_input(self, inp: OperatorInput) -> list[dict[str, Any]]:
        if inp.kind == InputKind.OPTION and inp.choice == "replace":
            self.strokes.referee_replacing()  # his hands will move balls
        return self._feed(inp)

    def _feed(self, rec: Record, notes: list[str] | None = None) -> list[dict[str, Any]]:
        if self._before_last is not None:
            self._before_last[1].append(rec)
        try:
            calls = self.match.feed(rec)
        except RuleError as exc:
            if isinstance(rec, FrameStart):
                raise
            calls = [{"input": getattr(rec, "kind", "?"), "accepted": False, "message": str(exc),
                      "notes": []}]
        if notes and calls:
            calls[0]["notes"] = [*calls[0].get("notes", []), *notes]
        self._emit(rec, calls)
        return calls

    def _emit(self, rec: Record, calls: list[dict[str, Any]]) -> None:
        self.result.decisions += calls
        for li in self.listeners:
            li.on_record(self, rec, calls)
        said = [explain(c) for c in calls]
        early, self._early = (self._early, None) if isinstance(rec, Shot) else (None, self._early)
        if early is not None and early.shot == rec.shot:
            if said != early.said:
                self._correct(early, said)
            return  # said already, early (and corrected if it had to be)
        if self.on_call:
            for line in said:
                self.on_call(line)

    # --- the end --------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The scoreboard line: score, strokes, frames, how the source ended."""
        st = self.match.state
        self.result.score = dict(zip(st.players, st.scores, strict=True)) if st else {}
        board: dict[str, Any] = {
            "scoreboard": True, "score": self.result.score, "frame_over": self.frame_over,
            "shots": len(self.result.shots), "frames": self.result.frames,
            "not_refereed_frames": self.result.not_refereed_frames}
        away = self.segments.away(self.source_fps)
        if away:
            board["not_refereed"] = [list(a) for a in away]
        res = self.result
        if res.skipped_frames or res.dropped_frames or res.gaps:
            board["live"] = {"skipped_frames": res.skipped_frames,
                             "startup_skipped": res.startup_skipped,
                             "skipped_while_moving": res.skipped_forced,
                             "dropped_frames": res.dropped_frames,
                             "gaps_s": [[round(a, 2), round(b, 2)] for a, b in res.gaps]}
        end = self.result.end
        if end is not None:
            board["video_end"] = end.reason
            if not end.clean:
                board["warning"] = end.message
        return board

    def finish(self, end: SourceEnd | None) -> ProcessResult:
        """End the run: call a stroke still under way on what was seen, tell the listeners,
        return the result. A stroke called early whose end never came (nor a call on what was
        seen) is withdrawn (said, not recorded)."""
        if end is not None and self._last_view is not None and self.segments.runs \
                and self.segments.runs[-1][2]:
            self._end_stroke(end_note(self._last_view.frame.t))
        early, self._early = self._early, None
        if early is not None:
            self.result.early_withdrawn += 1
            if self.on_call:
                self.on_call(f"WITHDRAWN: the call of shot {early.shot} is not recorded: the "
                             "video ended before the stroke did (every ball at rest "
                             f"{SETTLE_S} s)")
        self.result.end = end
        board = self.summary()
        for li in self.listeners:
            li.on_end(self, board)
        return self.result


def process_video(path: str | Path | FrameSource, out_dir: str | Path | None,
                  calibration: Calibration | None = None,
                  players: tuple[str, str] = ("A", "B"), table: TableGeometry | None = None,
                  progress: bool = True, on_call: Callable[[str], None] | None = None,
                  max_frames: int | None = None,
                  inputs: list[tuple[int, OperatorInput | FrameStart]] | None = None,
                  spoken: dict[int, dict[str, Any]] | None = None,
                  listeners: Iterable[RunListener] = (), detector: str = "auto",
                  resume: Any = None, on_note: Callable[[str], None] | None = None,
                  size: tuple[int, int] | None = None, fps: float | None = None,
                  gated: bool = True, decode_thread: bool = True) -> ProcessResult:
    """Referee a video (or any frame source); see the module docstring.

    Args:
        out_dir: where the JSONL match log, decisions, scoreboard and calibration go (None:
            nowhere, only the listeners get the results).
        max_frames: stop after this many frames.
        inputs, spoken: see :class:`RefereeRun`.
        listeners: more receivers of the results (overlay, store, live server).
        detector: ``colour``, ``learned`` or ``auto`` (see :class:`RefereeRun`).
        resume: a :class:`tracker.resume.ResumePoint`: go on with a cut-off run (the video is
            seen again from its start; the calls already made are met again, not repeated).
        on_note: receives live notes (frames skipped to keep up, stream gaps).
        size, fps: of raw frames on standard input (``path`` ``-``; :func:`open_source`).
        gated, decode_thread: detect only where the table changed (:class:`RefereeRun`); decode
            on a thread of its own (:class:`tracker.live.FrameFeed`); both off: the work as it
            was before them (for benchmarks).

    Raises:
        VideoError: unreadable video, a calibration made for pictures of another size, no
            table in its first seconds, or (resuming) a video that no longer gives the calls
            already made (with the reason).
    """
    import itertools

    from tqdm import tqdm

    from tracker.live import FrameFeed, WorkAhead, decode_threads, look_ahead_frames, may_skip
    from tracker.outputs.jsonl import JsonlOutputs

    try:
        # a file decoded on a thread of its own leaves a core to detection and tracking
        source = path if isinstance(path, FrameSource) else open_source(
            path, size, fps, decode_threads() if decode_thread else None)
    except SourceError as exc:
        raise VideoError(str(exc)) from None
    feed = FrameFeed(source, threaded=decode_thread or source.live)  # decodes ahead
    frames = iter(feed)
    try:
        first = next(frames, None)
        if first is None:
            raise VideoError(f"{source.name}: the video has no readable frame")
        if calibration is not None:
            try:
                calibration.check_image_size(first.image.shape[1::-1], source.name)
            except ValueError as exc:
                raise VideoError(str(exc)) from None
        table = table or (calibration.table if calibration else TableGeometry.standard())
        try:
            # the camera from the best frames of the first seconds (calibration/startup.py)
            start = find_start(itertools.chain([first], frames), source.fps, table, calibration,
                               samples=START_SAMPLES_LIVE if source.live else START_SAMPLES,
                               ball_finder=find_colour_balls)
        except NoTableAtStart as exc:
            raise VideoError(f"{source.name}: {exc}; give --calibration PROFILE (see "
                             "`snooker-tracker calibrate`)") from None
        calibration = start.calibration
        outs: list[RunListener] = []
        if out_dir is not None:
            outs.append(JsonlOutputs(Path(out_dir), calibration,
                                     resume.lines if resume is not None else None))
        cadence = FrameCadence.learn([f.image for f in start.frames], source.fps,
                                     table_mask(calibration))
        run = (resume.run if resume is not None else RefereeRun)(
            calibration, source.fps, players, inputs, spoken, [*outs, *listeners], on_call,
            detector, gated, cadence)
        run.on_note = on_note
        if start.skipped:  # frames before the window that calibrated: no table in them
            run.segments.skip(0, start.skipped - 1)
            run.result.not_refereed_frames += start.skipped
        run.begin(start.frames[0].image, learn=start.samples)
        if source.live:  # frames that came while the camera was being learnt: not waited for
            run.result.startup_skipped, gaps = feed.discard_backlog()
            for f in gaps:
                run.mark_gap(f)
        total = min(source.total or 0, max_frames or 10**9) or None
        bar = tqdm(total=total, desc="process", unit="frame", disable=not progress)
        bar.update(start.skipped)
        stream = itertools.chain(start.frames, frames)
        # a file's frames are checked by the view monitor on a thread of its own, ahead of
        # the pipeline (live frames may be skipped: the monitor looks at those it processes),
        # as many as :data:`tracker.live.LOOK_AHEAD_BYTES` hold
        ahead = (WorkAhead(stream, run.look_ahead, look_ahead_frames(first.image.nbytes))
                 if decode_thread and not source.live else None)
        checked = iter(ahead) if ahead is not None else ((f, None, 0.0) for f in stream)
        frame, checks, _ = next(checked, (None, None, 0.0))
        decode_s = 0.0
        cut_off: BaseException | None = None
        stopped_early = False
        try:
            while frame is not None:
                if frame.gap_s > 0:
                    run.mark_gap(frame)
                lag = time.monotonic() - frame.arrived if frame.arrived is not None else 0.0
                skip, forced = may_skip(run.strokes.prev, lag) if source.live else (False, False)
                if skip:
                    run.skipped(frame, forced)
                else:
                    run.step(frame, decode_s, checks)
                bar.update(1)
                if run.frame_over or (max_frames and frame.index + 1 >= max_frames):
                    stopped_early = True
                    break
                t_a = time.perf_counter()
                frame, checks, _ = next(checked, (None, None, 0.0))
                decode_s = time.perf_counter() - t_a
        except BaseException as exc:  # Ctrl-C or an error: the run ends, saying so
            cut_off = exc
            raise
        finally:
            bar.close()
            if ahead is not None:
                ahead.stop()
            feed.stop()
            run.result.dropped_frames += feed.dropped
            end = source.end if cut_off is None else cut_off_end(cut_off, run.result.frames,
                                                                 source.total)
            if stopped_early and (end is None or end.reason == "complete"):
                # the feed may have read to the end already: the run still stopped early
                n = run.result.frames
                end = SourceEnd("stopped", n, source.total, f"stopped after {n} frames")
            result = run.finish(end)
            if on_note and (result.skipped_frames or result.dropped_frames):
                on_note(f"live: {result.skipped_frames} frames skipped to keep up "
                        f"({result.skipped_forced} while balls were moving), "
                        f"{result.dropped_frames} dropped unread, {result.startup_skipped} "
                        "passed while the camera was being learnt")
    finally:
        feed.stop()
        source.close()
    return result


def cut_off_end(exc: BaseException, frames_read: int, total: int | None) -> SourceEnd:
    """How a run stopped by Ctrl-C (``interrupted``) or an error (``failed``) ended."""
    if isinstance(exc, KeyboardInterrupt):
        return SourceEnd("interrupted", frames_read, total,
                         f"interrupted (Ctrl-C or a stop signal) after {frames_read} video "
                         "frames: the calls so far are kept: process --resume goes on")
    return SourceEnd("failed", frames_read, total,
                     f"stopped by an error after {frames_read} video frames "
                     f"({type(exc).__name__}): the calls so far are kept")


def inputs_from_log(path: str | Path) -> list[tuple[int, OperatorInput | FrameStart]]:
    """Operator inputs of a match log (JSONL), each tied to the stroke that follows it; a
    frame_start line (players, breaker, the layout when the video starts mid-frame) too."""
    from tracker.records.parse import read_log

    out: list[tuple[int, OperatorInput | FrameStart]] = []
    n_shots = 0
    for _, rec in read_log(path):
        if isinstance(rec, Shot):
            n_shots += 1
        elif isinstance(rec, (OperatorInput, FrameStart)):
            out.append((n_shots + 1, rec))
    return out


def spoken_from_log(path: str | Path) -> dict[int, dict[str, Any]]:
    """What the referee heard or judged per stroke in a match log (nomination, free-ball
    nomination, operator judgements), by stroke number: merged into the camera's records."""
    from tracker.records.parse import read_log

    out: dict[int, dict[str, Any]] = {}
    n_shots = 0
    for _, rec in read_log(path):
        if isinstance(rec, Shot):
            n_shots += 1
            said = {k: v for k, v in (("nomination", rec.nomination), ("free_ball", rec.free_ball))
                    if v is not None}
            if rec.operator.miss is not None or rec.operator.fouls or rec.operator.not_a_stroke:
                said["operator"] = rec.operator
            if said:
                out[n_shots] = said
    return out


def _settled(detector: BallDetector, det: BallDetections) -> BallDetections:
    """``det`` with one white and one of each colour (contests settled by the game's
    constraint: :mod:`tracker.perception.unique`)."""
    return settle_unique_classes(det, detector.class_cost(det))


def _observed_start(detector: BallDetector, tracker: Tracker, first, players) -> FrameStart:
    """The frame start as the camera sees it: the standard rack (white in hand) when the
    table shows one, else the observed layout (the video starts mid-frame)."""
    st = tracker.update(0, _settled(detector, detector.detect(first)))
    tracker.reset()
    n_red = sum(1 for b in st.pos if B.is_red(b))
    colours = sum(1 for b in st.pos if B.is_colour(b))
    if n_red >= 15 and colours == 6 and B.WHITE not in st.pos:
        return FrameStart(1, players, breaker=players[0])
    return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))
