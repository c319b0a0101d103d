"""Where frames come from: every frame source (video files, cameras, streams, pipes).

A :class:`FrameSource` yields :class:`Frame` objects (index, time in seconds from the start,
BGR image) and says afterwards why it stopped (:attr:`FrameSource.end`): the pipeline never
needs to know whether it reads a file or a live camera, and the summary can say plainly that a
video ended early.

- :class:`VideoFileSource`: a video file, decoded by OpenCV (FFmpeg).
- :class:`CaptureSource`: a camera (OpenCV's index ``0``, or ``/dev/video0``) or a stream URL
  (``rtsp://``, ``http://`` ...), read by OpenCV (FFmpeg). A stream that drops or stalls
  (no frame for ``SourceParams.stall_s``) is opened again, every ``reconnect_every_s``, for up
  to ``give_up_s``; the frame after the gap carries ``gap_s`` (the time lost), which the
  pipeline marks as not refereed.
- :class:`RawPipeSource`: raw BGR frames of a known size on standard input, e.g.
  ``ffmpeg -re -i x.mp4 -f rawvideo -pix_fmt bgr24 - | snooker-tracker process - --size
  1920x1080 --fps 25``.

:class:`tracker.live.FrameFeed` reads any of them on a thread of its own.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import cv2
import numpy as np

from calibration.io import MediaError, check_video_file

log = logging.getLogger(__name__)


class SourceError(RuntimeError):
    """The source cannot be opened or read; the message says why and what to do."""


@dataclass(frozen=True)
class SourceParams:
    """How frames are read from a source.

    Attributes:
        default_fps: frames per second assumed for a source that does not say (a file, with a
            warning; a camera or stream; raw frames on a pipe given no ``--fps``).
        file_fps_range: a file's own frame rate is believed within this range (frames per
            second, both ends included); outside it, ``default_fps`` is assumed.
        camera_fps_range: likewise a camera's or a stream's.
        truncation_slack_frames: a file whose header promises more frames than it gives is
            called truncated only when it falls short by more than this many frames (headers
            of some encoders count a frame or two that no decoder delivers).
        stall_s: a live stream that gives no frame for this long (s) has stalled: it is opened
            again (also the time allowed to open it and to read a frame).
        reconnect_every_s: seconds between attempts to open a dropped stream again.
        give_up_s: a stream that cannot be opened again within this (s) is lost: the run ends
            (a :class:`CaptureSource` may be given its own).
    """

    default_fps: float = 25.0
    file_fps_range: tuple[float, float] = (1.0, 1000.0)
    camera_fps_range: tuple[float, float] = (1.0, 240.0)
    truncation_slack_frames: int = 2
    stall_s: float = 2.0
    reconnect_every_s: float = 0.5
    give_up_s: float = 10.0


#: How frames are read (read when a source is made or reads, so a test may put others here).
SOURCES = SourceParams()


@dataclass(frozen=True)
class Frame:
    """One picture of the table.

    Attributes:
        index: frame number from the start of the source (0-based; gaps where frames were
            skipped or lost).
        t: seconds from the start of the source.
        image: BGR uint8, shape (H, W, 3).
        gap_s: seconds of the source lost just before this frame (a live stream that dropped
            and was reconnected); 0 when none.
        arrived: ``time.monotonic()`` when the frame arrived (live sources), else None.
    """

    index: int
    t: float
    image: np.ndarray
    gap_s: float = 0.0
    arrived: float | None = None


@dataclass(frozen=True)
class SourceEnd:
    """Why a source stopped giving frames.

    Attributes:
        reason: ``complete`` (all of it was read), ``truncated`` (a file ended before the
            frame count its header gives: damaged or cut short), ``stopped`` (the caller
            stopped early, e.g. ``--max-frames``), ``lost`` (a live stream dropped for good).
        frames_read: frames delivered.
        frames_expected: what the header promised (files), else None.
        message: one line for a person.
    """

    reason: str
    frames_read: int
    frames_expected: int | None = None
    message: str = ""

    @property
    def clean(self) -> bool:
        """Whether nothing was lost (complete, or stopped on purpose)."""
        return self.reason in ("complete", "stopped")


class FrameSource:
    """Base of every frame source: iterate it for frames, then read :attr:`end`.

    Attributes:
        name: what a person calls it (a path, a device, a URL).
        fps: frames per second (nominal for live sources).
        size: (width, height) px, known after the first frame at the latest.
        total: frames expected (None for live sources).
        live: whether frames arrive in real time (a camera or stream), i.e. whether the
            consumer must keep up.
    """

    name: str = "?"
    fps: float = SOURCES.default_fps
    size: tuple[int, int] | None = None
    total: int | None = None
    live: bool = False

    def __init__(self) -> None:
        self.end: SourceEnd | None = None
        self._stop = False

    def frames(self) -> Iterator[Frame]:
        """Yield frames until the source ends or :meth:`stop` is called."""
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def stop(self) -> None:
        """Ask the source to stop after the frame in hand."""
        self._stop = True

    def close(self) -> None:
        """Release what the source holds (file handles, devices)."""


class VideoFileSource(FrameSource):
    """Frames of a video file, decoded by OpenCV (FFmpeg)."""

    def __init__(self, path: str | Path, decode_threads: int | None = None):
        """``decode_threads``: the decoder's own threads (None: OpenCV's choice, all cores)."""
        super().__init__()
        p = Path(path)
        self.name = str(p)
        try:
            check_video_file(p)
        except MediaError as exc:
            raise SourceError(str(exc)) from None
        params = [] if decode_threads is None else [cv2.CAP_PROP_N_THREADS, int(decode_threads)]
        self._cap = cv2.VideoCapture(str(p), cv2.CAP_ANY, params)
        if params and not self._cap.isOpened():  # a backend that does not take the thread count
            self._cap = cv2.VideoCapture(str(p))
        if not self._cap.isOpened():
            raise SourceError(f"{p}: cannot open the video (unsupported codec, no picture in it, "
                              "or a damaged file); give a video with pictures (an H.264 MP4 "
                              "plays: ffmpeg -i IN -c:v libx264 OUT.mp4)")
        fps = self._cap.get(cv2.CAP_PROP_FPS)
        low, high = SOURCES.file_fps_range
        self.fps = float(fps) if fps and low <= fps <= high else SOURCES.default_fps
        if self.fps != fps:
            log.warning("%s does not give a usable frame rate (%s): %g frames per second "
                        "assumed, so times may be off", p, fps, SOURCES.default_fps)
        n = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.total = n if n > 0 else None
        w = int(self._cap.get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
        h = int(self._cap.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        self.size = (w, h) if w > 0 and h > 0 else None

    def frames(self) -> Iterator[Frame]:
        idx = 0
        try:
            while not self._stop:
                ok, img = self._cap.read()
                if not ok or img is None:
                    break
                if self.size is None:
                    self.size = (img.shape[1], img.shape[0])
                yield Frame(idx, idx / self.fps, img)
                idx += 1
        finally:
            self.end = self._end(idx)

    def _end(self, read: int) -> SourceEnd:
        if self._stop:
            return SourceEnd("stopped", read, self.total, f"stopped after {read} frames")
        if read == 0:
            return SourceEnd("truncated", 0, self.total, f"{self.name}: no readable frame")
        if self.total and read < self.total - SOURCES.truncation_slack_frames:
            return SourceEnd("truncated", read, self.total,
                             f"the video ended early: {read} of {self.total} frames could be "
                             "read (the file is damaged or cut short); calls after that are missing")
        return SourceEnd("complete", read, self.total, f"{read} frames")

    def close(self) -> None:
        self._cap.release()


def is_live_spec(spec: str) -> bool:
    """Whether ``spec`` names a camera (an index, ``/dev/video*``) or a stream URL."""
    return spec.isdigit() or spec.startswith("/dev/video") or "://" in spec

class CaptureSource(FrameSource):
    """A camera or a network stream (see the module docstring).

    Args:
        spec: OpenCV camera index (``"0"``), ``/dev/videoN``, or a URL.
        fps: frames per second when the source does not say (``SourceParams.default_fps``
            when not given).
        give_up_s: how long a dropped stream is tried again before the run ends
            (``SourceParams.give_up_s`` when not given).
    """

    live = True

    def __init__(self, spec: str, fps: float | None = None, give_up_s: float | None = None):
        super().__init__()
        self.name = spec
        self._target: int | str = int(spec) if spec.isdigit() else spec
        self.give_up_s = SOURCES.give_up_s if give_up_s is None else give_up_s
        self.gaps: list[tuple[float, float]] = []
        self._cap = self._open()
        if self._cap is None:
            raise SourceError(f"{spec}: cannot open the camera or stream (check the address, "
                              "that it is streaming, and that this machine can reach it)")
        got = self._cap.get(cv2.CAP_PROP_FPS)
        low, high = SOURCES.camera_fps_range
        self.fps = float(fps or (got if got and low <= got <= high else SOURCES.default_fps))

    def _open(self) -> cv2.VideoCapture | None:
        if isinstance(self._target, int):
            cap = cv2.VideoCapture(self._target)
        else:
            cap = cv2.VideoCapture(self._target, cv2.CAP_FFMPEG,
                                   [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(1000 * SOURCES.stall_s),
                                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(1000 * SOURCES.stall_s)])
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
                    time.sleep(SOURCES.reconnect_every_s)
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
    (standard input by default), ``fps`` frames a second (``SourceParams.default_fps`` when not
    given)."""

    live = True

    def __init__(self, stream: IO[bytes] | None, size: tuple[int, int], fps: float | None = None):
        super().__init__()
        self.stream = stream if stream is not None else sys.stdin.buffer
        self.name = "standard input" if stream is None else getattr(stream, "name", "pipe")
        self.size = size
        self.fps = float(SOURCES.default_fps if fps is None else fps)

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

def open_source(spec: str | Path, size: tuple[int, int] | None = None,
                fps: float | None = None, decode_threads: int | None = None) -> FrameSource:
    """The frame source a user means by ``spec``: ``-`` (raw BGR frames on standard input,
    ``size`` and ``fps`` needed), a camera (a number: OpenCV's index, or ``/dev/videoN``), a
    stream URL (``rtsp://``, ``http://`` ...), else a video file path. See
    :mod:`tracker.live` for the live ones. ``decode_threads``: a file's decoder threads
    (None: OpenCV's choice).

    Raises:
        SourceError: it cannot be opened (the message says why and what to do).
    """
    text = str(spec)
    if text == "-":
        if size is None:
            raise SourceError("raw frames on standard input need --size WxH (and --fps)")
        return RawPipeSource(None, size, fps or SOURCES.default_fps)
    if is_live_spec(text):
        return CaptureSource(text, fps=fps)
    return VideoFileSource(spec, decode_threads)
