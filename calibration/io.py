"""Reading a still or a frame of a video, with errors a user can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".m4v", ".webm"}
#: Still pictures OpenCV reads (a file with one of these is never taken for a video).
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm"}


class MediaError(ValueError):
    """An image or video that cannot be read."""


def check_file(p: Path, what: str = "an image or a video") -> None:
    """Refuse a path that is not a non-empty file (MediaError saying so)."""
    if not p.exists():
        raise MediaError(f"{p}: no such file; give {what}")
    if p.is_dir():
        raise MediaError(f"{p} is a folder; give {what} file")
    if p.stat().st_size == 0:
        raise MediaError(f"{p}: the file is empty; give {what}")


def read_frame(path: str | Path, frame: int | None = None) -> np.ndarray:
    """The image at ``path``, or one frame of the video there (the middle one by default).

    Raises:
        MediaError: missing or empty file, a folder, unreadable image, video without frames,
            a frame number the video does not have.
    """
    p = Path(path)
    check_file(p)
    if frame is not None and frame < 0:
        raise MediaError(f"--frame {frame}: frame numbers start at 0")
    if p.suffix.lower() not in IMAGE_SUFFIXES:
        cap = cv2.VideoCapture(str(p))
        if cap.isOpened():
            n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
            if n > 0 and frame is not None and frame >= n:
                cap.release()
                raise MediaError(f"{p}: the video has {n} frames (0 to {n - 1}); --frame "
                                 f"{frame} is past its end")
            idx = frame if frame is not None else max(0, n // 2)
            cap.set(cv2.CAP_PROP_POS_FRAMES, idx)
            ok, img = cap.read()
            cap.release()
            if ok and img is not None:
                return img
            if p.suffix.lower() in VIDEO_SUFFIXES:
                raise MediaError(f"{p}: could not read frame {idx} (the video has {max(n, 0)} "
                                 "frames: damaged or cut short?); try another --frame")
        elif p.suffix.lower() in VIDEO_SUFFIXES:
            raise MediaError(f"{p}: cannot open the video (unsupported codec or damaged file)")
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise MediaError(f"{p}: not a readable image (PNG, JPEG...) or video "
                         f"({', '.join(sorted(VIDEO_SUFFIXES))})")
    if frame:
        raise MediaError(f"{p} is a still picture: --frame {frame} is only for videos")
    return img


def check_video_file(path: str | Path) -> Path:
    """Refuse what cannot be a video before a decoder sees it: a missing or empty file, a
    folder, a still picture (MediaError saying what to give instead)."""
    p = Path(path)
    check_file(p, "a video")
    if p.suffix.lower() in IMAGE_SUFFIXES or _is_still_picture(p):
        raise MediaError(f"{p} is a still picture, not a video; give a video file (a still "
                         "calibrates: snooker-tracker calibrate IMAGE --out PROFILE)")
    return p


def _is_still_picture(p: Path) -> bool:
    """Whether the file starts like a PNG, JPEG, BMP, GIF, TIFF or WebP picture."""
    with p.open("rb") as fh:
        head = fh.read(12)
    return (head.startswith((b"\x89PNG", b"\xff\xd8\xff", b"BM", b"GIF8", b"II*\x00", b"MM\x00*"))
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP"))
