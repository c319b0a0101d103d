"""Keeping up with frame sources (the sources themselves: :mod:`tracker.sources`).

:class:`FrameFeed` reads any source on its own thread: for a file it decodes ahead (the
decoder works on one core while the pipeline works on the other); for a live source it drains
the source as frames come (no backlog builds up inside the camera, the socket or the pipe)
and stamps each frame's arrival.

Skipping (live only): the pipeline drops a frame that has waited longer than
``FeedParams.max_lag_s`` when :func:`may_skip` allows it: no ball is moving and the cue ball
stands clear of every other ball (``clear_mm``), so that a strike and its first contact are
never skipped; while balls move it never skips, unless the wait passes ``hard_lag_s``
(counted apart: "forced"). Skips are counted and said in the log and the summary.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker import balls as B
from tracker.sources import Frame, FrameSource


@dataclass(frozen=True)
class FeedParams:
    """Reading ahead and keeping up (:class:`FrameFeed`, :class:`WorkAhead`, :func:`may_skip`).

    Attributes:
        max_lag_s: a live frame that has waited longer than this (s) may be skipped (see
            :func:`may_skip`) ...
        hard_lag_s: ... and is skipped whatever the table shows past this (s): the pipeline
            cannot keep up.
        clear_mm: no skipping while the cue ball stands within this of another ball (mm): it
            may be struck.
        prefetch_frames: frames decoded ahead of the pipeline at least (files; a source of
            unknown frame size), and the view monitor's lead (:class:`WorkAhead`).
        look_ahead_bytes: decoded frames (bytes of picture) a file's pipeline may hold ready
            ahead of its own thread, in each of its two queues (the decoder's,
            :class:`FrameFeed`, and the view monitor's, :class:`WorkAhead`): a cheap stretch of
            the video (balls at rest: 0.2 ms a frame) then runs on frames decoded during a
            dear one (a break-off, a full search: 30 ms a frame) instead of waiting on the
            decoder, so both cores stay busy. But the pictures waiting are most of what a run's
            resident memory swings by from one second to the next (issue 28's soak: 320 MiB
            and 48 frames a queue swung it between about 225 and 570 MB at 720p), so the
            queues are kept short: 64 MiB, 10 frames at 1080p (BGR, 6.2 MB each), the
            ``prefetch_frames`` floor at 4K ...
        look_ahead_max_frames: ... but never more frames than this in a queue (nor fewer than
            ``prefetch_frames``): at 720p (2.8 MB a picture) the two queues hold at most 32
            frames, about 88 MB; at 1080p 20, about 124 MB.
        cores_left_by_decoder: cores a file's decoder thread leaves to the rest of the
            pipeline (the pipeline's own thread, detection and tracking): the decoder gets the
            others, at least one thread. On two cores FFmpeg's default (a thread per core)
            spends about an eighth more CPU per frame than one thread does, and takes the core
            detection needs.
        max_queued_frames: frames held at most for a pipeline that is behind (live); older
            ones are dropped.
        idle_stride: a live table that is idle (no frame in play, and its last picture
            showed nothing changed: :func:`may_rest`) looks at one picture in this many; the
            others are read and let go unlooked at, so an idle table costs little more than
            reading its stream. Anything changing on the table (the change gate's verdict)
            brings back every picture from the next one looked at. 1: every picture.
    """

    max_lag_s: float = 0.2
    hard_lag_s: float = 2.0
    clear_mm: float = 150.0
    prefetch_frames: int = 8
    look_ahead_bytes: int = 64 * 2**20
    look_ahead_max_frames: int = 16
    cores_left_by_decoder: int = 1
    max_queued_frames: int = 64
    idle_stride: int = 5


#: How frames are read ahead and live frames kept up with.
FEED = FeedParams()


def look_ahead_frames(frame_bytes: int) -> int:
    """How many frames of ``frame_bytes`` bytes each a file's pipeline holds ready ahead of
    its own thread (``FeedParams.look_ahead_bytes``, within ``prefetch_frames`` ..
    ``look_ahead_max_frames``)."""
    fit = FEED.look_ahead_bytes // max(1, int(frame_bytes))
    return int(min(FEED.look_ahead_max_frames, max(FEED.prefetch_frames, fit)))


def decode_threads() -> int:
    """Decoder threads for a file decoded on a thread of its own beside the pipeline."""
    return max(1, (os.cpu_count() or 1) - FEED.cores_left_by_decoder)


class FrameFeed:
    """Reads a source on its own thread (see the module docstring). Iterate it for frames;
    ``dropped`` counts frames a live source gave that were dropped because the pipeline held
    ``FeedParams.max_queued_frames`` already."""

    _END = object()

    def __init__(self, source: FrameSource, threaded: bool = True):
        self.source = source
        self.live = source.live
        self.dropped = 0
        size = getattr(source, "size", None)
        depth = look_ahead_frames(size[0] * size[1] * 3) if size else FEED.prefetch_frames
        self._q: queue.Queue = queue.Queue(maxsize=0 if self.live else depth)
        self._error: BaseException | None = None
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._frames: Iterator[Frame] | None = None
        if threaded:
            self._thread = threading.Thread(target=self._read, name="frame-feed", daemon=True)
            self._thread.start()
        else:  # read on the caller's thread (benchmarks: the work as it was before)
            self._frames = iter(source)

    def _read(self) -> None:
        frames = iter(self.source)
        try:
            for f in frames:
                if self._halt.is_set():
                    break
                if self.live:
                    self._q.put(f)
                    while self._q.qsize() > FEED.max_queued_frames:
                        try:
                            self._q.get_nowait()
                            self.dropped += 1
                        except queue.Empty:
                            break
                else:
                    while not self._halt.is_set():
                        try:
                            self._q.put(f, timeout=0.1)
                            break
                        except queue.Full:
                            continue
        except BaseException as exc:  # handed to the consumer
            self._error = exc
        finally:
            if self.source.end is None:
                frames.close()
            self._q.put(self._END)

    def __iter__(self) -> Iterator[Frame]:
        if self._frames is not None:
            yield from self._frames
            return
        while True:
            item = self._q.get()
            if item is self._END:
                if self._error is not None:
                    raise self._error
                return
            yield item

    def discard_backlog(self) -> tuple[int, list[Frame]]:
        """Drop the frames waiting (a live source's frames that came while the run was being
        set up: calibration, learning the cloth), those dropped meanwhile counted in.
        Returns how many, and those of them that came after a gap in the stream."""
        n, self.dropped = self.dropped, 0
        gaps: list[Frame] = []
        while True:
            try:
                item = self._q.get_nowait()
            except queue.Empty:
                return n, gaps
            if item is self._END:
                self._q.put(item)
                return n, gaps
            n += 1
            if item.gap_s > 0:
                gaps.append(item)

    def stop(self) -> None:
        """Stop reading (the source stops after the frame in hand)."""
        self.source.stop()
        self._halt.set()
        if self._thread is None:
            if self._frames is not None and self.source.end is None:
                self._frames.close()
            return
        while True:  # unblock the reader
            try:
                self._q.get_nowait()
            except queue.Empty:
                break
        self._thread.join(timeout=5.0)


class WorkAhead:
    """Runs ``work`` on each item of ``items`` on a thread of its own, up to ``depth`` items
    (default ``FeedParams.prefetch_frames``) ahead of the consumer; iterate it for ``(item, result,
    seconds of work)`` in order. The pipeline's view monitor runs so on a file's frames: its
    checks of the picture (a cut, the table's outline) need only the frame, so they take a
    core while detection takes the other. An error in ``work`` or in ``items`` is raised to
    the consumer. ``stop`` ends the thread (work already done ahead is dropped)."""

    _END = object()

    def __init__(self, items: Iterator[Any], work: Callable[[Any], Any],
                 depth: int | None = None):
        self._items, self._work = items, work
        self._q: queue.Queue = queue.Queue(maxsize=depth or FEED.prefetch_frames)
        self._error: BaseException | None = None
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._run, name="work-ahead", daemon=True)
        self._thread.start()

    def _put(self, entry: Any) -> None:
        while not self._halt.is_set():
            try:
                self._q.put(entry, timeout=0.1)
                return
            except queue.Full:
                continue

    def _run(self) -> None:
        try:
            for item in self._items:
                if self._halt.is_set():
                    break
                t0 = time.perf_counter()
                result = self._work(item)
                self._put((item, result, time.perf_counter() - t0))
        except BaseException as exc:  # handed to the consumer
            self._error = exc
        finally:
            self._put(self._END)

    def __iter__(self) -> Iterator[tuple[Any, Any, float]]:
        while True:
            entry = self._q.get()
            if entry is self._END:
                if self._error is not None:
                    raise self._error
                return
            yield entry

    def stop(self) -> None:
        """Stop working ahead (the item in hand is finished first)."""
        self._halt.set()
        while True:  # unblock the worker
            try:
                self._q.get_nowait()
            except queue.Empty:
                break
        self._thread.join(timeout=5.0)


def may_rest(idle: bool, index: int) -> bool:
    """Whether live frame ``index`` may be let go unlooked at because the table is ``idle``
    (:attr:`FeedParams.idle_stride`; :attr:`tracker.pipeline.RefereeRun.idle`): no frame is in
    play, so no call can depend on it."""
    return idle and FEED.idle_stride > 1 and index % FEED.idle_stride != 0


def may_skip(state, lag_s: float) -> tuple[bool, bool]:
    """Whether a live frame that waited ``lag_s`` seconds may be skipped, given the last
    tracked :class:`TableState` (None: not yet). Returns (skip, forced): ``forced`` when balls
    were moving but the wait passed ``FeedParams.hard_lag_s``."""
    if lag_s <= FEED.max_lag_s or state is None:
        return False, False
    if lag_s > FEED.hard_lag_s:
        return True, bool(state.moving)
    if state.moving:
        return False, False
    white = state.pos.get(B.WHITE)
    if white is not None:
        w = np.asarray(white, float)
        for b, p in state.pos.items():
            if b != B.WHITE and np.hypot(*(np.asarray(p, float) - w)) < FEED.clear_mm:
                return False, False
    return True, False
