"""A whole video (or any frame source) through a :class:`RefereeRun`: :func:`process_video`.

Its steps, each a function here: open the source (:func:`open_feed`), find the camera in the
best frames of the first seconds (:func:`start_run`, which also makes the run and its JSONL
files), take every frame through the run (:func:`referee_frames`; a file's frames checked by
the view monitor ahead on a thread of its own, live frames skipped to keep up), and end it
(:func:`end_run`: how the source ended, the stroke under way called, the listeners told).
What a caller may choose is one frozen :class:`ProcessOptions`.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from calibration.profile import Calibration
from calibration.startup import (
    START_SAMPLES,
    START_SAMPLES_LIVE,
    NoTableAtStart,
    StartWindow,
    better_start,
    find_start,
    pictures_ahead,
)
from calibration.table import TableGeometry
from tracker.cadence import FrameCadence, table_mask
from tracker.listeners import ProcessResult, RunListener
from tracker.live import (
    FrameFeed,
    WorkAhead,
    decode_threads,
    look_ahead_frames,
    may_rest,
    may_skip,
)
from tracker.memory import HeapTrimmer, steady_allocator
from tracker.perception.calibrate import find_colour_balls
from tracker.pipeline.profile_fit import ProfileDoesNotFit, check_profile_fits
from tracker.pipeline.referee import Correction
from tracker.pipeline.run import FrameChecks, RefereeRun
from tracker.records.shot import FrameStart, OperatorInput
from tracker.session import TableSession
from tracker.sources import (
    Frame,
    FrameSource,
    SourceEnd,
    SourceError,
    VideoFileSource,
    open_source,
)


class VideoError(RuntimeError):
    """The video cannot be processed; the message says why and what to do."""


@dataclass(frozen=True)
class ProcessOptions:
    """How :func:`process_video` referees a source (every field optional).

    Attributes:
        calibration: the camera (None: found in the first seconds, calibration/startup.py).
        players: the two players (the first breaks) unless the inputs' frame start says
            otherwise.
        table: the table's geometry when no calibration is given (None: a standard table).
        progress: show a progress bar.
        on_call: called with each decision in a referee's words (the CLI prints them).
        max_frames: stop after this many frames (None: all).
        inputs, spoken: see :class:`RefereeRun`.
        listeners: more receivers of the results (overlay, store, live server).
        detector: ``colour``, ``learned`` or ``auto`` (see :class:`RefereeRun`).
        resume: a :class:`tracker.resume.ResumePoint`: go on with a cut-off run (the video is
            seen again from its start; the calls already made are met again, not repeated).
        on_note: receives live notes (frames skipped to keep up, stream gaps).
        size, fps: of raw frames on standard input (``path`` ``-``; :func:`open_source`):
            (width, height) px and frames per second.
        gated, decode_thread: detect only where the table changed (:class:`RefereeRun`); decode
            on a thread of its own (:class:`tracker.live.FrameFeed`); both off: the work as it
            was before them (for benchmarks).
        setup: the match set-up (:class:`tracker.session_setup.MatchSetup`: players, best of,
            ruleset, handicaps, a match taken up, the next matches); None: the match log's
            frame start, else one frame as the camera sees it.
        wait: start no frame until a rack is seen, and after the last match keep watching
            for the next (:class:`tracker.session.TableSession`).
        steady_memory: fix the C allocator so pictures let go are given back to the system
            (:mod:`tracker.memory`): flat memory over a day, about 19 % more CPU at 1080p
            (docs/BENCHMARKS.md); off (the default), glibc's own, with the heap's free pages
            given back while the table is still (:class:`tracker.memory.HeapTrimmer`).
    """

    calibration: Calibration | None = None
    players: tuple[str, str] = ("A", "B")
    table: TableGeometry | None = None
    progress: bool = True
    on_call: Callable[[str], None] | None = None
    max_frames: int | None = None
    inputs: list[tuple[int, OperatorInput | FrameStart | Correction]] | None = None
    spoken: dict[int, dict[str, Any]] | None = None
    listeners: Iterable[RunListener] = ()
    detector: str = "auto"
    resume: Any = None
    on_note: Callable[[str], None] | None = None
    size: tuple[int, int] | None = None
    fps: float | None = None
    gated: bool = True
    decode_thread: bool = True
    setup: Any = None
    wait: bool = False
    steady_memory: bool = False


def process_video(path: str | Path | FrameSource, out_dir: str | Path | None,
                  options: ProcessOptions | None = None, **fields: Any) -> ProcessResult:
    """Referee a video (or any frame source); see :mod:`tracker.pipeline`.

    Args:
        path: a video file, a camera or stream (:func:`open_source`), or a frame source.
        out_dir: where the JSONL match log, decisions, scoreboard and calibration go (None:
            nowhere, only the listeners get the results).
        options: how (:class:`ProcessOptions`; None: the defaults).
        fields: any field of :class:`ProcessOptions` by name, over ``options``.

    Raises:
        VideoError: unreadable video, a calibration made for pictures of another size, no
            table in its first seconds, or (resuming) a video that no longer gives the calls
            already made (with the reason).
    """
    opts = replace(options or ProcessOptions(), **fields)
    if opts.steady_memory:  # a day's pictures given back as they are let go (tracker/memory.py)
        steady_allocator()
    source, feed = open_feed(path, opts)
    frames = iter(feed)
    try:
        first = next(frames, None)
        if first is None:
            raise VideoError(f"{source.name}: the video has no readable frame")
        run, start = start_run(source, feed, first, frames, out_dir, opts)
        window, skipped = start.frames, start.skipped
        del start  # its samples served the start; its frames are let go as they are refereed
        result = referee_frames(run, source, feed, first,
                                itertools.chain(let_go(window), frames), skipped, opts)
    finally:
        feed.stop()
        source.close()
    return result


def let_go(frames: list[Frame]) -> Iterator[Frame]:
    """``frames`` in order, each taken out of the list as it is handed on: the start window's
    frames (2 s of full-size pictures, about 140 MB at 720p) are not held all day."""
    frames.reverse()
    while frames:
        yield frames.pop()


def open_feed(path: str | Path | FrameSource, opts: ProcessOptions) -> tuple[FrameSource,
                                                                            FrameFeed]:
    """The frame source ``path`` names and a feed that decodes it ahead (a file decoded on a
    thread of its own leaves a core to detection and tracking)."""
    try:
        source = path if isinstance(path, FrameSource) else open_source(
            path, opts.size, opts.fps, decode_threads() if opts.decode_thread else None)
    except SourceError as exc:
        raise VideoError(str(exc)) from None
    return source, FrameFeed(source, threaded=opts.decode_thread or source.live)


def _game_table(opts: ProcessOptions) -> TableGeometry:
    """The table to calibrate on when no profile is given: ``opts.table`` (a standard snooker
    table when None); for a pool game (eight-ball, nine-ball) a pool table, of that size when
    given (the head string and foot spot a quarter of the length from each end, no D)."""
    from tracker.rules.pool import PoolRules, pool_table
    from tracker.rules.registry import get_ruleset

    name = opts.setup.ruleset if opts.setup is not None else "snooker"
    if isinstance(get_ruleset(name), PoolRules):
        return pool_table(opts.table)
    return opts.table or TableGeometry.standard()


def start_run(source: FrameSource, feed: FrameFeed, first: Frame, frames: Iterator[Frame],
              out_dir: str | Path | None, opts: ProcessOptions) -> tuple[RefereeRun, StartWindow]:
    """Find the camera in the first seconds (``first`` and what follows it in ``frames``),
    make the run (with its JSONL files in ``out_dir``) and begin it on the best of those
    frames. Returns the run and the start window (its frames are still to be refereed)."""
    from tracker.outputs.jsonl import JsonlOutputs

    calibration = opts.calibration
    if calibration is not None:
        try:
            calibration.check_image_size(first.image.shape[1::-1], source.name)
        except ValueError as exc:
            raise VideoError(str(exc)) from None
    table = calibration.table if calibration and not opts.table else _game_table(opts)
    try:
        # the camera from the best frames of the first seconds (calibration/startup.py)
        start = find_start(itertools.chain([first], frames), source.fps, table, calibration,
                           samples=START_SAMPLES_LIVE if source.live else START_SAMPLES,
                           ball_finder=find_colour_balls)
    except NoTableAtStart as exc:
        raise VideoError(f"{source.name}: {exc}; give --calibration PROFILE (see "
                         "`snooker-tracker calibrate`)") from None
    if calibration is not None:  # a profile of another camera would be refereed through
        try:
            check_profile_fits(calibration, start.samples, source.name)
        except ProfileDoesNotFit as exc:
            raise VideoError(str(exc)) from None
    if calibration is None and isinstance(source, VideoFileSource):
        # a poor fit (a player over the table at the start) tried again further on in the file
        start.calibration = better_start(start.calibration, pictures_ahead(source.name, source.fps),
                                         start.samples, ball_finder=find_colour_balls)
    calibration = start.calibration
    resume = opts.resume
    outs: list[RunListener] = []
    if out_dir is not None:
        outs.append(JsonlOutputs(Path(out_dir), calibration,
                                 resume.lines if resume is not None else None))
    cadence = FrameCadence.learn([f.image for f in start.frames], source.fps,
                                 table_mask(calibration))
    run = (resume.run if resume is not None else RefereeRun)(
        calibration, source.fps, opts.players, opts.inputs, opts.spoken,
        [*outs, *opts.listeners], opts.on_call, opts.detector, opts.gated, cadence)
    run.on_note = opts.on_note
    setup = opts.setup
    if setup is None and opts.wait:  # a table waiting with no match set: these players
        from tracker.session_setup import MatchSetup

        setup = MatchSetup(players=opts.players)
    run.session = TableSession(setup=setup, wait=opts.wait)
    if start.skipped:  # frames before the window that calibrated: no table in them
        run.segments.skip(0, start.skipped - 1)
        run.result.not_refereed_frames += start.skipped
    run.begin(start.frames[0].image, learn=start.samples)
    if source.live:  # frames that came while the camera was being learnt: not waited for
        run.result.startup_skipped, gaps = feed.discard_backlog()
        for f in gaps:
            run.mark_gap(f)
        if opts.on_note:  # the operator's cue: play may start
            opts.on_note(watching_note(first, run.result.startup_skipped))
    return run, start


def watching_note(first: Frame, passed: int) -> str:
    """What a live run says once it referees (the camera learnt from ``first`` on, ``passed``
    frames let go meanwhile): play before it is not refereed (docs/LIVE.md, "Start-up")."""
    took = time.monotonic() - first.arrived if first.arrived is not None else 0.0
    return (f"live: refereeing from now on (the camera was learnt in {took:.1f} s; "
            f"{passed} frames that came meanwhile were not refereed)")


def referee_frames(run: RefereeRun, source: FrameSource, feed: FrameFeed, first: Frame,
                   stream: Iterator[Frame], skipped: int, opts: ProcessOptions) -> ProcessResult:
    """Take every frame of ``stream`` through ``run`` until the source ends, the session is
    over (frame after frame, match after match: :class:`tracker.session.TableSession`) or
    ``max_frames`` is reached, then end the run (:func:`end_run`). A file's frames
    are checked by the view monitor on a thread of its own, ahead of the pipeline, as many
    as :attr:`tracker.live.FeedParams.look_ahead_bytes` hold (live frames may be skipped: the monitor
    looks at those it processes). ``skipped``: frames before the start window (for the
    progress bar)."""
    from tqdm import tqdm

    total = min(source.total or 0, opts.max_frames or 10**9) or None
    bar = tqdm(total=total, desc="process", unit="frame", disable=not opts.progress)
    bar.update(skipped)
    ahead = (WorkAhead(stream, run.look_ahead, look_ahead_frames(first.image.nbytes))
             if opts.decode_thread and not source.live else None)
    checked = iter(ahead) if ahead is not None else ((f, None, 0.0) for f in stream)
    item = next(checked, (None, None, 0.0))
    cut_off: BaseException | None = None
    stopped_early = False
    trimmer = None if opts.steady_memory else HeapTrimmer()
    try:
        stopped_early = _step_all(run, source, item, checked, bar, opts.max_frames, trimmer)
    except BaseException as exc:  # Ctrl-C or an error: the run ends, saying so
        cut_off = exc
        raise
    finally:
        bar.close()
        if ahead is not None:
            ahead.stop()
        feed.stop()
        run.result.dropped_frames += feed.dropped
        result = end_run(run, source, cut_off, stopped_early, opts.on_note)
    return result


def _step_all(run: RefereeRun, source: FrameSource,
              item: tuple[Frame | None, FrameChecks | None, float],
              checked: Iterator[tuple[Frame, FrameChecks | None, float]], bar: Any,
              max_frames: int | None, trimmer: HeapTrimmer | None = None) -> bool:
    """Step ``run`` through ``item`` (the first checked frame; None: none) and the rest of
    the checked frames (live ones skipped when :func:`tracker.live.may_skip` allows);
    ``trimmer`` is told of each frame on which no ball moves (the heap's free pages given
    back now and then);
    returns whether it stopped before the source's end (the session over: the frame over with
    nothing more to play, :attr:`RefereeRun.session_over`; or ``max_frames``)."""
    frame, checks, _ = item
    decode_s = 0.0
    while frame is not None:
        if frame.gap_s > 0:
            run.mark_gap(frame)
        lag = time.monotonic() - frame.arrived if frame.arrived is not None else 0.0
        skip, forced = may_skip(run.strokes.last_state, lag) if source.live else (False, False)
        if source.live and not skip and may_rest(run.idle, frame.index):
            run.rested(frame)
        elif skip:
            run.skipped(frame, forced)
        else:
            run.step(frame, decode_s, checks)
        if trimmer is not None and not _moving(run):
            trimmer.quiet()
        bar.update(1)
        if run.session_over or (max_frames and frame.index + 1 >= max_frames):
            return True
        t_a = time.perf_counter()
        frame, checks, _ = next(checked, (None, None, 0.0))
        decode_s = time.perf_counter() - t_a
    return False


def _moving(run: RefereeRun) -> bool:
    """Whether balls were moving on the last frame tracked (none yet: not moving)."""
    state = run.strokes.last_state
    return bool(state is not None and state.moving)


def end_run(run: RefereeRun, source: FrameSource, cut_off: BaseException | None,
            stopped_early: bool, on_note: Callable[[str], None] | None) -> ProcessResult:
    """End ``run``: how the source ended (``cut_off``: the error or Ctrl-C that stopped it;
    ``stopped_early``: the frame over or ``max_frames``), the run finished, the live counts
    said to ``on_note``."""
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

