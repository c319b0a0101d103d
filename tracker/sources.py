"""Where frames come from: video files here; cameras, streams and pipes in :mod:`tracker.live`.

A :class:`FrameSource` yields :class:`Frame` objects (index, time in seconds from the start,
BGR image) and says afterwards why it stopped (:attr:`FrameSource.end`): the pipeline never
needs to know whether it reads a file or a live camera, and the summary can say plainly that a
video ended early.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.io import MediaError, check_video_file

log = logging.getLogger(__name__)


class SourceError(RuntimeError):
    """The source cannot be opened or read; the message says why and what to do."""


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
    fps: float = 25.0
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


#: Frames per second assumed for a file that does not say (a warning is logged).
DEFAULT_FPS = 25.0

#: A file whose header promises more frames than it gives is called truncated only when it
#: falls short by more than this many frames (headers of some encoders count a frame or two
#: that no decoder delivers).
TRUNCATION_SLACK_FRAMES = 2


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
            raise SourceError(f"{p}: cannot open the video (unsupported codec or damaged file)")
        fps = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and 1.0 <= fps <= 1000.0 else DEFAULT_FPS
        if self.fps != fps:
            log.warning("%s does not give a usable frame rate (%s): %g frames per second "
                        "assumed, so times may be off", p, fps, DEFAULT_FPS)
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
        if self.total and read < self.total - TRUNCATION_SLACK_FRAMES:
            return SourceEnd("truncated", read, self.total,
                             f"the video ended early: {read} of {self.total} frames could be "
                             "read (the file is damaged or cut short); calls after that are missing")
        return SourceEnd("complete", read, self.total, f"{read} frames")

    def close(self) -> None:
        self._cap.release()


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
    from tracker import live

    text = str(spec)
    if text == "-":
        if size is None:
            raise SourceError("raw frames on standard input need --size WxH (and --fps)")
        return live.RawPipeSource(None, size, fps or 25.0)
    if live.is_live_spec(text):
        return live.CaptureSource(text, fps=fps)
    return VideoFileSource(spec, decode_threads)
