"""Reading a still or a frame of a video, with errors a user can act on."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".m4v", ".webm"}


class MediaError(ValueError):
    """An image or video that cannot be read."""


def read_frame(path: str | Path, frame: int | None = None) -> np.ndarray:
    """The image at ``path``, or one frame of the video there (the middle one by default).

    Raises:
        MediaError: missing file, unreadable image, video without frames.
    """
    p = Path(path)
    if not p.exists():
        raise MediaError(f"{p}: no such file")
    if p.suffix.lower() in VIDEO_SUFFIXES:
        cap = cv2.VideoCapture(str(p))
        if not cap.isOpened():
            raise MediaError(f"{p}: cannot open the video (unsupported codec or damaged file)")
        n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        idx = frame if frame is not None else max(0, n // 2)
        cap.set(cv2.CAP_PROP_POS_FRAMES, idx)
        ok, img = cap.read()
        cap.release()
        if not ok or img is None:
            raise MediaError(f"{p}: could not read frame {idx} (the video has {n} frames)")
        return img
    img = cv2.imread(str(p), cv2.IMREAD_COLOR)
    if img is None:
        raise MediaError(f"{p}: not a readable image (PNG, JPEG...) or video ({', '.join(sorted(VIDEO_SUFFIXES))})")
    return img
