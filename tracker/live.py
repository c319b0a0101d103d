"""Live sources and keeping up with them.

Sources (all :class:`tracker.sources.FrameSource`, ``live`` True):

- :class:`CaptureSource`: a camera (OpenCV's index ``0``, or ``/dev/video0``) or a stream URL
  (``rtsp://``, ``http://`` ...), read by OpenCV (FFmpeg). A stream that drops or stalls
  (no frame for :data:`STALL_S`) is opened again, every :data:`RECONNECT_EVERY_S`, for up to
  :data:`GIVE_UP_S`; the frame after the gap carries ``gap_s`` (the time lost), which the
  pipeline marks as not refereed.
- :class:`RawPipeSource`: raw BGR frames of a known size on standard input, e.g.
  ``ffmpeg -re -i x.mp4 -f rawvideo -pix_fmt bgr24 - | snooker-tracker process - --size
  1920x1080 --fps 25``.

:class:`FrameFeed` reads any source on its own thread: for a file it decodes ahead (the
decoder works on one core while the pipeline works on the other); for a live source it drains
the source as frames come (no backlog builds up inside the camera, the socket or the pipe)
and stamps each frame's arrival.

Skipping (live only): the pipeline drops a frame that has waited longer than
:data:`MAX_LAG_S` when :func:`may_skip` allows it: no ball is moving and the cue ball stands
clear of every other ball (:data:`CLEAR_MM`), so that a strike and its first contact are
never skipped; while balls move it never skips, unless the wait passes :data:`HARD_LAG_S`
(counted apart: "forced"). Skips are counted and said in the log and the summary.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

import cv2
import numpy as np

from tracker import balls as B
from tracker.sources import Frame, FrameSource, SourceEnd, SourceError

#: A live frame that has waited longer than this (s) may be skipped (see :func:`may_skip`).
MAX_LAG_S = 0.2
#: ... and is skipped whatever the table shows past this (s): the pipeline cannot keep up.
HARD_LAG_S = 2.0
#: No skipping while the cue ball stands within this of another ball (mm): it may be struck.
CLEAR_MM = 150.0
#: A live stream that gives no frame for this long (s) has stalled: it is opened again.
STALL_S = 2.0
#: Seconds between attempts to open a dropped stream again.
RECONNECT_EVERY_S = 0.5
#: A stream that cannot be opened again within this (s) is lost: the run ends.
GIVE_UP_S = 10.0
#: Frames decoded ahead of the pipeline at least (files; a source of unknown frame size).
PREFETCH_FRAMES = 8
#: Decoded frames (bytes of picture) a file's pipeline may hold ready ahead of its own thread,
#: in each of its two queues (the decoder's, :class:`FrameFeed`, and the view monitor's,
#: :class:`WorkAhead`): a cheap stretch of the video (balls at rest: 0.2 ms a frame) then runs
#: on frames decoded during a dear one (a break-off, a full search: 30 ms a frame) instead of
#: waiting on the decoder, so both cores stay busy. 320 MiB: 54 frames at 1080p (BGR, 6.2 MB
#: each), 13 at 4K ...
LOOK_AHEAD_BYTES = 320 * 2**20
#: ... but never more frames than this in a queue (nor fewer than :data:`PREFETCH_FRAMES`):
#: at 1080p the two queues hold at most 96 frames, about 600 MB.
LOOK_AHEAD_MAX_FRAMES = 48
#: Cores a file's decoder thread leaves to the rest of the pipeline (the pipeline's own
#: thread, detection and tracking): the decoder gets the others, at least one thread. On two
#: cores FFmpeg's default (a thread per core) spends about an eighth more CPU per frame than
#: one thread does, and takes the core detection needs.
CORES_LEFT_BY_DECODER = 1
#: Frames held at most for a pipeline that is behind (live); older ones are dropped.
MAX_QUEUED_FRAMES = 64


def is_live_spec(spec: str) -> bool:
    """Whether ``spec`` names a camera (an index, ``/dev/video*``) or a stream URL."""
    return spec.isdigit() or spec.startswith("/dev/video") or "://" in spec


def look_ahead_frames(frame_bytes: int) -> int:
    """How many frames of ``frame_bytes`` bytes each a file's pipeline holds ready ahead of
    its own thread (:data:`LOOK_AHEAD_BYTES`, within :data:`PREFETCH_FRAMES` ..
    :data:`LOOK_AHEAD_MAX_FRAMES`)."""
    fit = LOOK_AHEAD_BYTES // max(1, int(frame_bytes))
    return int(min(LOOK_AHEAD_MAX_FRAMES, max(PREFETCH_FRAMES, fit)))


def decode_threads() -> int:
    """Decoder threads for a file decoded on a thread of its own beside the pipeline."""
    return max(1, (os.cpu_count() or 1) - CORES_LEFT_BY_DECODER)


class CaptureSource(FrameSource):
    """A camera or a network stream (see the module docstring).

    Args:
        spec: OpenCV camera index (``"0"``), ``/dev/videoN``, or a URL.
        fps: frames per second when the source does not say.
        give_up_s: how long a dropped stream is tried again before the run ends.
    """

    live = True

    def __init__(self, spec: str, fps: float | None = None, give_up_s: float = GIVE_UP_S):
        super().__init__()
        self.name = spec
        self._target: int | str = int(spec) if spec.isdigit() else spec
        self.give_up_s = give_up_s
        self.gaps: list[tuple[float, float]] = []
        self._cap = self._open()
        if self._cap is None:
            raise SourceError(f"{spec}: cannot open the camera or stream (check the address, "
                              "that it is streaming, and that this machine can reach it)")
        got = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (got if got and 1.0 <= got <= 240.0 else 25.0))

    def _open(self) -> cv2.VideoCapture | None:
        if isinstance(self._target, int):
            cap = cv2.VideoCapture(self._target)
        else:
            cap = cv2.VideoCapture(self._target, cv2.CAP_FFMPEG,
                                   [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(1000 * STALL_S),
                                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(1000 * STALL_S)])
        if not cap.isOpened():
            cap.release()
            return None
        return cap

    def frames(self) -> Iterator[Frame]:
        idx, read = 0, 0
        gap = 0.0
        last = time.monotonic()
        reason = "stopped"
        try:
            while not self._stop:
                ok, img = self._cap.read() if self._cap is not None else (False, None)
                now = time.monotonic()
                if ok and img is not None:
                    if self.size is None:
                        self.size = (img.shape[1], img.shape[0])
                    yield Frame(idx, idx / self.fps, img, gap_s=gap, arrived=now)
                    idx, read, gap, last = idx + 1, read + 1, 0.0, now
                    continue
                # dropped or stalled: open it again until it comes back or we give up
                lost_at = last
                while not self._stop and (self._cap is None or not self._cap.isOpened()
                                          or not ok):
                    if self._cap is not None:
                        self._cap.release()
                        self._cap = None
                    if time.monotonic() - lost_at > self.give_up_s:
                        reason = "lost"
                        return
                    time.sleep(RECONNECT_EVERY_S)
                    self._cap = self._open()
                    ok = self._cap is not None
                gap = time.monotonic() - lost_at
                self.gaps.append((idx / self.fps, idx / self.fps + gap))
                idx += int(round(gap * self.fps))
        finally:
            self.end = self._end(reason, read)

    def _end(self, reason: str, read: int) -> SourceEnd:
        if reason == "lost":
            return SourceEnd("lost", read, None, f"{self.name}: the stream stopped and could not "
                             f"be opened again within {self.give_up_s:.0f} s")
        return SourceEnd("stopped", read, None, f"stopped after {read} frames")

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()


class RawPipeSource(FrameSource):
    """Raw BGR frames (``size`` = (width, height), 3 bytes a pixel) from a binary stream
    (standard input by default)."""

    live = True

    def __init__(self, stream: IO[bytes] | None, size: tuple[int, int], fps: float = 25.0):
        super().__init__()
        self.stream = stream if stream is not None else sys.stdin.buffer
        self.name = "standard input" if stream is None else getattr(stream, "name", "pipe")
        self.size = size
        self.fps = float(fps)

    def frames(self) -> Iterator[Frame]:
        w, h = self.size
        n = w * h * 3
        idx, partial = 0, False
        try:
            while not self._stop:
                buf = bytearray(n)
                view, got = memoryview(buf), 0
                while got < n:
                    k = self.stream.readinto(view[got:])
                    if not k:
                        break
                    got += k
                if got < n:
                    partial = got > 0
                    break
                img = np.frombuffer(buf, np.uint8).reshape(h, w, 3)
                yield Frame(idx, idx / self.fps, img, arrived=time.monotonic())
                idx += 1
        finally:
            if self._stop:
                self.end = SourceEnd("stopped", idx, None, f"stopped after {idx} frames")
            elif partial:
                self.end = SourceEnd("truncated", idx, None, "the pipe ended inside a frame: "
                                     "check --size (and that the input is bgr24)")
            elif idx == 0:
                self.end = SourceEnd("truncated", 0, None, "no frame came on the pipe: check "
                                     "--size and that the input is raw bgr24 frames")
            else:
                self.end = SourceEnd("complete", idx, None, f"{idx} frames")


class FrameFeed:
    """Reads a source on its own thread (see the module docstring). Iterate it for frames;
    ``dropped`` counts frames a live source gave that were dropped because the pipeline held
    :data:`MAX_QUEUED_FRAMES` already."""

    _END = object()

    def __init__(self, source: FrameSource, threaded: bool = True):
        self.source = source
        self.live = source.live
        self.dropped = 0
        size = getattr(source, "size", None)
        depth = look_ahead_frames(size[0] * size[1] * 3) if size else PREFETCH_FRAMES
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
                    while self._q.qsize() > MAX_QUEUED_FRAMES:
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

    def backlog(self) -> int:
        """Frames waiting."""
        return self._q.qsize()

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
    (default :data:`PREFETCH_FRAMES`) ahead of the consumer; iterate it for ``(item, result,
    seconds of work)`` in order. The pipeline's view monitor runs so on a file's frames: its
    checks of the picture (a cut, the table's outline) need only the frame, so they take a
    core while detection takes the other. An error in ``work`` or in ``items`` is raised to
    the consumer. ``stop`` ends the thread (work already done ahead is dropped)."""

    _END = object()

    def __init__(self, items: Iterator[Any], work: Callable[[Any], Any],
                 depth: int | None = None):
        self._items, self._work = items, work
        self._q: queue.Queue = queue.Queue(maxsize=depth or PREFETCH_FRAMES)
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


def may_skip(state, lag_s: float) -> tuple[bool, bool]:
    """Whether a live frame that waited ``lag_s`` seconds may be skipped, given the last
    tracked :class:`TableState` (None: not yet). Returns (skip, forced): ``forced`` when balls
    were moving but the wait passed :data:`HARD_LAG_S`."""
    if lag_s <= MAX_LAG_S or state is None:
        return False, False
    if lag_s > HARD_LAG_S:
        return True, bool(state.moving)
    if state.moving:
        return False, False
    white = state.pos.get(B.WHITE)
    if white is not None:
        w = np.asarray(white, float)
        for b, p in state.pos.items():
            if b != B.WHITE and np.hypot(*(np.asarray(p, float) - w)) < CLEAR_MM:
                return False, False
    return True, False
