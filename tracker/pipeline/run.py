"""The frames side of a run: one frame in, what was seen and called out (see
:mod:`tracker.pipeline`).

:meth:`RefereeRun.step` takes a frame through named steps: the operator's inputs made
meanwhile (:meth:`Referee.take_inputs`), the view monitor
(:class:`calibration.monitor.ViewMonitor`: is this the table?), the balls (:meth:`RefereeRun.detect`: the change-gated detector, one of
each colour settled), the tracker (:class:`tracker.perception.track.Tracker`: the 22 slots),
the stroke detector (:class:`tracker.perception.events.StrokeDetector`: a stroke's record when
it ends) and the referee (:class:`tracker.pipeline.referee.Referee`: its calls), then the
listeners (:meth:`tracker.listeners.RunListener.on_frame`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from calibration.monitor import ViewMonitor, ViewSignature, ViewStatus
from calibration.profile import Calibration
from calibration.startup import working_scale
from tracker.cadence import FrameCadence, table_mask
from tracker.listeners import FrameView, ProcessResult, RunListener
from tracker.perception.calibrate import find_colour_balls
from tracker.perception.change import ChangeGatedDetector, gate_thumbnail, gate_view
from tracker.perception.constraint import capacity
from tracker.perception.cushions import CushionView
from tracker.perception.detect import BallDetections
from tracker.perception.events import SETTLE_S, StrokeDetector
from tracker.perception.geometry_review import review_geometry
from tracker.perception.learned import make_detector, prepared_detector
from tracker.perception.lighting import LightMeter
from tracker.perception.pool_identity import PoolIdentity, is_pool, load_pool_classifier, seen_balls
from tracker.perception.pool_track import PoolTracker
from tracker.perception.reread import reread_run
from tracker.perception.track import TableState, Tracker
from tracker.pipeline.referee import Correction, Referee
from tracker.pipeline.settling import observed_start, pool_settled, settled
from tracker.pipeline.summary import scoreboard_line
from tracker.records.shot import FrameStart, OperatorInput, Shot
from tracker.rules.match import Match
from tracker.rules.registry import Ruleset, get_ruleset
from tracker.session import TableSession, rerack_inputs
from tracker.sources import Frame, SourceEnd
from tracker.viewcuts import ViewSegments, back_note, cut_note, end_note, observed_start_note


@dataclass
class FrameChecks:
    """What :meth:`RefereeRun.look_ahead` works out for one frame ahead of the pipeline.

    Attributes:
        status: the view monitor's verdict.
        thumb: the change gate's thumbnail of the frame (BGR, half the working scale), or
            None (no gate).
        seconds: wall-clock seconds the work took (on its own thread).
        window: the part of the thumbnail made (:func:`tracker.perception.change.thumb_window`).
        image: the frame's picture given back at the learned light (the lights dimmed or
            flickering: :class:`tracker.perception.lighting.LightMeter`), or None (the
            picture as it came).
    """

    status: ViewStatus
    thumb: np.ndarray | None
    seconds: float
    window: tuple[int, int, int, int] | None = None
    image: np.ndarray | None = None


class RefereeRun(Referee):
    """Referees one table's frames as they come (see :mod:`tracker.pipeline`).

    Args:
        calibration: the camera.
        fps: frames per second of the source.
        players: the two players (the first breaks) unless the inputs' frame start says otherwise.
        inputs: operator inputs known in advance (from a match log) as (n, input): applied just
            before the n-th stroke the camera sees; a ``FrameStart`` among them is the frame's start;
            a :class:`~tracker.pipeline.referee.Correction` of stroke n, just after it is called.
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
                 inputs: list[tuple[int, OperatorInput | FrameStart | Correction]] | None = None,
                 spoken: dict[int, dict[str, Any]] | None = None,
                 listeners: Iterable[RunListener] = (),
                 on_call: Callable[[str], None] | None = None, detector: str = "auto",
                 gated: bool = True, cadence: FrameCadence | None = None):
        self.calibration = calibration
        self.cadence = cadence if cadence is not None and cadence.period else None
        self.source_fps = fps
        fps = self.cadence.picture_fps if self.cadence else fps
        self.fps = fps
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
        self.tracker: Tracker | PoolTracker = Tracker(calibration.table, fps)
        #: a pool game's ball naming (None for snooker and billiards)
        self.identity: PoolIdentity | None = None
        # a centre is known to about a pixel (table millimetres per pixel at the table's centre)
        strokes = StrokeDetector(calibration.table, fps, position_error_mm=max(
            1.5, calibration.table.ball_radius / self.detector.r_px),
            cushion_view=CushionView.from_calibration(calibration))
        self.monitor = ViewMonitor(calibration, check_every=max(1, int(self.source_fps // 2)),
                                   ball_finder=find_colour_balls, fps=self.source_fps)
        #: the stretches of frames refereed and not (cuts away from the table)
        self.segments = ViewSegments()
        self._last_view: FrameView | None = None
        self._idle = False  # :attr:`idle`, as the last frame looked at left it
        #: the table's session: the match set-up, the between-frames watcher, the phase
        #: (:class:`tracker.session.TableSession`; set it before :meth:`begin`)
        self.session = TableSession()
        #: the light on the cloth the detector learned (made by :meth:`begin`)
        self.lights: LightMeter | None = None
        self._games: dict[str, Ruleset] = {}
        #: a rack was just seen made: the change gate settles on it at the next picture
        #: (:meth:`detect`, :meth:`ChangeGatedDetector.settle`)
        self._new_rack = False
        super().__init__(strokes, players, inputs, spoken, listeners, on_call)

    # --- starting -------------------------------------------------------------------------
    def begin(self, first: np.ndarray, learn: list[np.ndarray] | None = None
              ) -> FrameStart | None:
        """Learn this camera from its first picture and start the frame (the match log's frame
        start, else the set-up's first frame (:attr:`session`) or a plain frame, from the
        standard rack or the layout seen when the video starts mid-frame). Returns the frame
        start, or None when no frame starts yet: the session waits for a rack (asked to, or
        the picture shows an empty or covered table).

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
        self.lights = LightMeter(self.calibration, first)
        # this camera's colours, anchored on the spots, from that picture too: frames of the
        # first seconds hold a hand placing the cue ball or a struck one blurred, and colours
        # learned from them lose the blurred white of a hard break-off (overhead sample: the
        # break-off missed); on the twelve broadcast clips one picture does as well
        self.detector.learn_colours([first])
        start = self._logged_start()
        self._observed = start is None
        setup = self.session.setup
        if start is None:
            rules = self._game(setup.ruleset if setup is not None else "snooker")
            if is_pool(rules.balls):  # the pool balls named from the first picture on
                self._fresh_perception(rules)
            start = observed_start(self.detector, self.tracker, first, self.players,
                                    len(rules.balls.reds), self.identity, rules)
            if start.positions and getattr(rules, "rack_seen", None) is not None \
                    and rules.rack_seen(start.positions):  # a pool rack: every ball, a break
                start = replace(start, positions=None)
            if self.session.wait or _bare(start):  # no frame yet: watch for a rack
                self.session.phase = "waiting"
                return None
            if setup is not None:
                start = replace(setup.first_frame(), positions=start.positions)
        self.start = start
        observed = self._observed and start.positions is not None
        self._start_frame(start, [self._observed_note(start.positions)] if observed else [])
        self._inputs_due(1)
        return start

    def _observed_note(self, positions: dict[str, tuple[float, float]]) -> str:
        """What the log says of a frame started from the table as seen."""
        if self.identity is None:
            return observed_start_note(positions, self.calibration.table.spots,
                                       1.5 * self.calibration.table.ball_radius)
        balls = sorted((b for b in positions if b.isdigit()), key=int)
        rules = self._coming_game()
        racked = hasattr(rules, "racked") and rules.racked(positions)
        return (f"the table as seen at the start: {'a rack to break' if racked else 'mid-rack'}; "
                f"balls {', '.join(balls) or 'none'}"
                f"{'' if 'white' in positions else '; the cue ball not seen'}; the numbers are "
                "read from the balls' colours: check the first calls")

    def _logged_start(self) -> FrameStart | None:
        """The match log's next frame start (taken from the inputs), if any."""
        for _n, inp in self.inputs:
            if isinstance(inp, FrameStart):
                self.inputs = [x for x in self.inputs if x[1] is not inp]
                return replace(inp, players=self.players if self.players != ("A", "B")
                               else inp.players)
        return None

    # --- the session: frame after frame ----------------------------------------------------
    def _game(self, name: str) -> Ruleset:
        """The rules of the game ``name`` (kept: asked for on every picture between frames)."""
        if name not in self._games:
            self._games[name] = get_ruleset(name)
        return self._games[name]

    @property
    def in_frame(self) -> bool:
        """A frame is in play."""
        return self.match.state is not None and not self.match.state.frame_over

    @property
    def idle(self) -> bool:
        """No frame is in play and the last picture looked at showed nothing changing on the
        table (the change gate found it still): live pictures may be let go
        (:func:`tracker.live.may_rest`)."""
        return self._idle

    @property
    def session_over(self) -> bool:
        """The frame is over and the session has nothing more to watch for (the match over,
        no next match, not waiting for racks)."""
        return self.frame_over and not self.session.goes_on(self.match)

    def _start_frame(self, start: FrameStart, notes: list[str]) -> list[dict[str, Any]]:
        """Feed the frame's start to the referee and ready the perception for its game: the
        ball set (how many reds the detector and the tracker look for), the touching gap of
        its rule options, the tracker and the stroke detector fresh (seeded with the layout
        the frame starts from, when given)."""
        calls = self._feed(start, notes)
        rules = self.match.rules
        assert rules is not None
        self._fresh_perception(rules)
        if start.positions:
            self.tracker.seed(start.positions)
        self.session.phase = "playing"
        self.session.watch(rules, self.calibration.table).reset()
        return calls

    def _fresh_perception(self, rules: Ruleset) -> None:
        """A new tracker and stroke detector for a frame of ``rules`` (stroke numbers go on
        through the run: the operator's inputs and judgements are tied to them)."""
        balls = rules.balls
        if is_pool(balls):
            if self.identity is None:
                # the colours unless the learned classifier is asked for: on the development
                # clips the colours named more balls right (docs/ACCURACY.md, "Pool through
                # process": pot counts 3 of 3 against 1 of 3)
                learned = load_pool_classifier() if self.detector_kind == "learned" else None
                self.identity = PoolIdentity(learned)
                if self.on_note:
                    self.on_note(f"the pool balls are named by {self.identity.source}")
            self.detector.capacity = capacity(seen_balls(balls))
            self.tracker = PoolTracker(self.calibration.table, self.fps, balls=balls,
                                       lowest_first=rules.name == "nine-ball")
        else:
            self.identity = None
            self.detector.capacity = capacity(balls)
            self.tracker = Tracker(self.calibration.table, self.fps, balls=balls)
        old = self.strokes
        gap = getattr(getattr(rules, "options", None), "touching_gap_mm", old.touching_gap_mm)
        self.strokes = StrokeDetector(self.calibration.table, self.fps,
                                      position_error_mm=old.position_error_mm,
                                      touching_gap_mm=gap, cushion_view=old.cushion_view,
                                      params=old.params)
        self.strokes.n_shots = old.n_shots
        self._early = None

    def _coming_game(self) -> Ruleset:
        """The game of the frame the table is being racked for."""
        setup, match = self.session.setup, self.match
        if match.match_over and setup is not None and setup.next_match() is not None:
            return self._game(setup.next_match().ruleset)  # type: ignore[union-attr]
        if match.rules is not None:
            return self._game(match.rules.name)
        return self._game(setup.ruleset if setup is not None else "snooker")

    def _between_frames(self, view: FrameView, checks: FrameChecks | None, t_c: float) -> None:
        """No frame in play: the balls seen only to watch for the next rack, which starts the
        next frame (:meth:`_next_frame`)."""
        if self.match.state is not None and not self.session.goes_on(self.match):
            return
        view.detections = self.detect(view.frame.image, checks)
        self.result.times.detect += time.perf_counter() - t_c
        watcher = self.session.watch(self._coming_game(), self.calibration.table)
        if watcher.update(view.frame.t, view.detections):
            view.decisions += self._next_frame(view.frame.t)
        elif self.match.state is not None:
            self.session.phase = "match over" if self.match.match_over else "between frames"

    def _next_frame(self, t: float) -> list[dict[str, Any]]:
        """The rack stands at ``t`` s: the next frame starts (a new match when the last one is
        over), or, with nothing to play, the table waits."""
        start, new_match = self.session.next_start(self.match, self._logged_start())
        if start is None:
            self.session.phase = "waiting"
            return []
        if new_match:
            self.match = Match()
            self._before_last = None
        self._new_rack = True
        return self._start_frame(start, [f"the balls were seen racked at {t:.1f} s: frame "
                                         f"{start.frame} starts"])

    def _watch_mid_frame(self, view: FrameView) -> None:
        """While every ball rests in a frame under way, a re-rack (after the frame's own rack
        was broken) or the table seen cleared means the frame ended without a stroke ending
        it: :func:`rerack_inputs`, then (re-racked) the next frame on that rack."""
        st = self.match.state
        if view.detections is None or st is None or st.frame_over or self.strokes.under_way:
            return
        watcher = self.session.watch(self.match.rules, self.calibration.table)  # type: ignore[arg-type]
        t = view.frame.t
        racked = watcher.update(t, view.detections) and watcher.broken
        cleared = not racked and watcher.cleared(t)
        if st.shots < 1 or not (racked or cleared):
            return
        for inp in rerack_inputs(self.match, t, cleared):
            view.decisions += self._feed(inp, [inp.note])
        if cleared:
            if self.frame_over:
                self.session.phase = "match over" if self.match.match_over else "between frames"
            return
        if self.frame_over:
            view.decisions += self._next_frame(view.frame.t)
        else:  # re-racked in the same frame (a stalemate): the perception starts again
            self._start_again()

    def _start_again(self) -> None:
        """The same frame goes on from a new rack (a stalemate re-rack): perception afresh."""
        rules = self.match.rules
        assert rules is not None
        self._new_rack = True
        self._fresh_perception(rules)
        self.session.watch(rules, self.calibration.table).reset()


    def look_ahead(self, frame: Frame) -> FrameChecks:
        """What needs only the frame itself, worked out ahead of :meth:`step` on a thread of
        its own (:class:`tracker.live.WorkAhead`): the view monitor's verdict and the change
        gate's thumbnail (at the size the current detector's gate uses; a gate of another
        size makes its own)."""
        t0 = time.perf_counter()
        image, dark = self._mended(frame.image)
        status = _too_dark(frame) if dark else self.monitor.update(frame.index, image)
        thumb, window = None, None
        if self.gated:
            detector = self.detector
            if self._gate_view is None or self._gate_view[0] is not detector:
                self._gate_view = (detector, *gate_view(detector))
            _, size, _, window = self._gate_view
            thumb = gate_thumbnail(image, size, window)
        return FrameChecks(status, thumb, time.perf_counter() - t0, window,
                           None if image is frame.image else image)

    def _mended(self, image: np.ndarray) -> tuple[np.ndarray, bool]:
        """``image`` at the light the cloth was learned under (itself when the light is as
        learned: :meth:`tracker.perception.lighting.LightMeter.mend`), and whether it is too
        dark to referee (the lights nearly off)."""
        lights = self.lights
        if lights is None:
            return image, False
        mended, level = lights.mend(image)
        return mended, level < lights.params.darkest

    def step(self, frame: Frame, decode_s: float = 0.0,
             checks: FrameChecks | None = None) -> FrameView:
        """Process one frame: monitor, detect, track, stroke events, referee.

        Args:
            decode_s: seconds it took to get this frame (for the stage timings).
            checks: this frame's :meth:`look_ahead`, when it was worked out ahead on a
                thread of its own; None: the monitor looks at the frame now.
        """
        self.result.times.decode += decode_s
        dark = False
        if checks is not None and checks.image is not None:
            frame = replace(frame, image=checks.image)  # the lights failing: mended
        elif checks is None:
            image, dark = self._mended(frame.image)
            frame = replace(frame, image=image)
        decisions = self.take_inputs()
        status, t_c = self._view_status(frame, checks, dark)
        view = FrameView(frame, status, decisions=decisions)
        changed, picture = self._follow_view(frame, status)
        if not status.refereed:
            self.result.not_refereed_frames += 1
            if changed and self.in_frame:  # the picture left the table: a stroke under way
                view.shot, outs = self._end_stroke(cut_note(frame.t))  # is called as seen
                view.decisions += outs
            if self.session.watcher is not None:
                self.session.watcher.unseen(frame.t)
        elif picture is None and self._last_view is not None:
            # the picture repeats the last one (a raised frame rate): nothing new to see
            view.detections, view.state = self._last_view.detections, self._last_view.state
        elif self.in_frame:
            self._see(view, frame.index if picture is None else picture, checks, t_c)
            self._watch_mid_frame(view)
        else:
            self._between_frames(view, checks, t_c)
        self.result.times.frames += 1
        self.result.frames = max(self.result.frames, frame.index + 1)
        if view.state is not None:
            self._last_view = view
        self._idle = (status.refereed and not self.in_frame and view.detections is not None
                      and self.gate is not None and self.gate.last_kind == "still")
        for li in self.listeners:
            li.on_frame(self, view)
        return view

    def _view_status(self, frame: Frame, checks: FrameChecks | None,
                     dark: bool = False) -> tuple[ViewStatus, float]:
        """The view monitor's verdict on ``frame`` (worked out ahead in ``checks``, else now;
        ``dark``: too dark to referee, not shown to the monitor), and the clock
        (``time.perf_counter``) when it was had."""
        t_b = time.perf_counter()
        status = (checks.status if checks is not None else _too_dark(frame) if dark
                  else self.monitor.update(frame.index, frame.image))
        t_c = time.perf_counter()
        self.result.times.monitor += checks.seconds if checks is not None else t_c - t_b
        return status, t_c

    def _follow_view(self, frame: Frame, status: ViewStatus) -> tuple[bool, int | None]:
        """Follow the view: the stretches refereed and not, the note for the next stroke when
        the picture comes back to the table, a new view adopted, the picture clock. Returns
        whether the view changed (to or from the table) on this frame, and the frame's
        picture number (the frame's index; None: a repeat of the last picture)."""
        changed = self.segments.add(frame.index, status.refereed)
        picture: int | None = frame.index
        if status.refereed:
            if changed and self.segments.runs[-2][0] > 0:  # back after a cut: the next stroke is told
                away = self.segments.away(self.source_fps)[-1]
                self.strokes.note_for_next_stroke(back_note(*away))
            if status.state == "recalibrated":
                old = self.calibration
                self._adopt_view(frame.image, status.calibration or self.monitor.cal)
                if status.same_picture:  # a better fit of the same view: no ball moved
                    reread_run(self.tracker, self.strokes, old, self.calibration)
            if self.cadence is not None:
                picture = self.cadence.tick(frame.image, frame.index)
        return changed, picture

    def _see(self, view: FrameView, picture: int, checks: FrameChecks | None,
             t_c: float) -> None:
        """Detect, track and referee a refereed frame into ``view`` (``picture``: its number on
        the picture clock; ``t_c``: when the monitor was done, for the stage timings)."""
        times = self.result.times
        view.detections = self.detect(view.frame.image, checks)
        t_d = time.perf_counter()
        times.detect += t_d - t_c
        view.state = self.tracker.update(picture, view.detections)
        t_e = time.perf_counter()
        times.track += t_e - t_d
        view.shot, outs = self.after_tracking(view.state)
        view.decisions += outs
        if self.gate is not None and self.gate.settling and self.strokes.under_way:
            self.gate.settled()  # the rack is broken: its settling is over

    def _end_stroke(self, note: str) -> tuple[Shot | None, list[dict[str, Any]]]:
        """Call the stroke under way, if any, on what was seen (``note`` for review)."""
        shot = self.strokes.end_now(note)
        if shot is not None and isinstance(self.tracker, PoolTracker):
            shot = self.tracker.named_pots(shot)  # named as a stroke that ended at rest is
        return (None, []) if shot is None else self._referee(self._reviewed(shot))

    def _reviewed(self, shot: Shot) -> Shot:
        """A stroke's record as the referee takes it: the geometry checked and, for pool, each
        contact no surer than the naming of its balls (:meth:`PoolTracker.surely_named`)."""
        shot = review_geometry(shot, self.calibration)
        return self.tracker.surely_named(shot) if isinstance(self.tracker, PoolTracker) else shot

    def _adopt_view(self, image: np.ndarray, cal: Calibration) -> None:
        """The monitor calibrated a new view ``cal`` (the camera moved, or another camera
        shows the whole table): detect with it from this frame on. Positions stay in table
        millimetres, so the tracks go on."""
        self.calibration = cal
        cap = self.detector.capacity
        self.detector = prepared_detector(cal, image, self.detector_kind, working_scale(cal))
        self.lights = LightMeter(cal, image)
        self.detector.capacity = cap
        self.strokes.cushion_view = CushionView.from_calibration(cal)
        if self.cadence is not None:
            self.cadence.mask = table_mask(cal)

    def after_tracking(self, state: TableState) -> tuple[Shot | None, list[dict[str, Any]]]:
        """The stroke events of one tracked frame and, when a stroke ends on it, its call
        (or, while every ball rests, the early call: :meth:`Referee.early_call`). Returns the stroke
        that ended (None) and the decisions made."""
        times = self.result.times
        t_e = time.perf_counter()
        was = self.strokes.under_way
        shot = self.strokes.update(state)
        if isinstance(self.tracker, PoolTracker):  # pots named; those of no stroke undone
            shot = self.tracker.after_strokes(shot, was or self.strokes.under_way)
        t_f = time.perf_counter()
        times.events += t_f - t_e
        outs: list[dict[str, Any]] = []
        if shot is not None:
            shot, outs = self._referee(self._reviewed(shot))
        else:
            self.early_call(state)
        times.referee += time.perf_counter() - t_f
        return shot, outs

    def detect(self, image: np.ndarray, checks: FrameChecks | None = None) -> BallDetections:
        """Balls in one frame: searched again only where the table changed
        (:class:`ChangeGatedDetector`; ``checks``: the frame's :meth:`look_ahead`, whose
        thumbnail it takes when made for it) unless ``gated`` is off; one white and one of
        each colour (contests settled by the game's constraint:
        :mod:`tracker.perception.unique`)."""
        if not self.gated:
            det = self.detector.detect(image)
        else:
            if self.gate is None or self.gate.det is not self.detector:
                self.gate = ChangeGatedDetector(self.detector, self.fps)
            if self._new_rack:  # a new frame: nothing the gate saw of the last one stands
                self.gate.settle()
                self._new_rack = False
            det = (self.gate.detect(image) if checks is None
                   else self.gate.detect(image, checks.thumb, checks.window))
        if self.identity is not None:  # pool: the cue ball and the object balls, named
            return pool_settled(self.detector, self.identity, image, det, self.tracker)
        return settled(self.detector, det)

    def skipped(self, frame: Frame, forced: bool) -> None:
        """A live frame skipped to keep up (not processed)."""
        self.result.skipped_frames += 1
        self.result.skipped_forced += forced
        self.result.frames = max(self.result.frames, frame.index + 1)
        if forced and self.on_note:
            self.on_note(f"live: behind by more than the hard limit at {frame.t:.1f} s: a frame "
                         "was skipped while balls were moving")

    def rested(self, frame: Frame) -> None:
        """A live frame let go unlooked at while the table was idle (:attr:`idle`)."""
        self.result.idle_frames += 1
        self.result.frames = max(self.result.frames, frame.index + 1)

    def mark_gap(self, frame: Frame) -> None:
        """The stream was lost for ``frame.gap_s`` before this frame: not refereed, noted for
        the stroke under way or the next one."""
        t0, t1 = frame.t - frame.gap_s, frame.t
        self.result.gaps.append((t0, t1))
        self.result.not_refereed_frames += int(round(frame.gap_s * self.fps))
        note = (f"the camera's stream was lost from {t0:.1f} s to {t1:.1f} s: that time was "
                "not refereed")
        self.strokes.note_for_review(note)
        if self.on_note:
            self.on_note("live: " + note)

    # --- the end --------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The scoreboard line: score, strokes, frames, how the source ended
        (:func:`tracker.pipeline.summary.scoreboard_line`)."""
        return scoreboard_line(self)

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


def _bare(start: FrameStart) -> bool:
    """The first picture shows no frame: an empty or covered table (fewer than two balls)."""
    return start.positions is not None and len(start.positions) < 2


def _too_dark(frame: Frame) -> ViewStatus:
    """The verdict on a picture too dark to referee (the lights nearly off): not refereed,
    and not shown to the view monitor, which would try to calibrate a new view from it; the
    frame carries on when the light is back, as after a knocked camera."""
    return ViewStatus(frame.index, "lost", 0.0)
