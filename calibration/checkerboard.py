"""Lens calibration from a printed checkerboard held in several poses (OpenCV's method).

For halls that can do it: the intrinsics and distortion it gives are more accurate than the
cushion-straightness estimate; pass them to the table calibration with ``--lens``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np


class CheckerboardError(ValueError):
    """Too few usable views; the message says how many were found."""


@dataclass(frozen=True)
class LensCalibration:
    """Intrinsics (3x3), distortion (k1, k2, p1, p2, k3), RMS reprojection error (px), views."""

    K: np.ndarray
    dist: np.ndarray
    rms_px: float
    views: int
    image_size: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        """JSON form (the ``lens`` block of a profile)."""
        return {"model": "opencv", "K": self.K.tolist(), "dist": self.dist.tolist(),
                "rms_px": self.rms_px, "views": self.views, "image_size": list(self.image_size)}


def board_points(inner: tuple[int, int], square_mm: float) -> np.ndarray:
    """3D corners (N, 3) of a board with ``inner`` = (columns, rows) inner corners."""
    cols, rows = inner
    g = np.zeros((rows * cols, 3), np.float32)
    g[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    return g


def calibrate_lens(images: Iterable[np.ndarray], inner: tuple[int, int], square_mm: float,
                   min_views: int = 5) -> LensCalibration:
    """Find the board in each image and solve for the lens.

    Raises:
        CheckerboardError: fewer than ``min_views`` images show the whole board.
    """
    obj, img_pts, size = [], [], None
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 1e-3)
    for im in images:
        gray = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY) if im.ndim == 3 else im
        size = (gray.shape[1], gray.shape[0])
        ok, corners = cv2.findChessboardCorners(gray, inner, None)
        if not ok:
            continue
        corners = cv2.cornerSubPix(gray, corners, (5, 5), (-1, -1), crit)
        obj.append(board_points(inner, square_mm))
        img_pts.append(corners)
    if len(obj) < min_views or size is None:
        raise CheckerboardError(f"the {inner[0]}x{inner[1]} board was found in {len(obj)} image(s); "
                                f"at least {min_views} views of the whole board are needed")
    rms, K, dist, _, _ = cv2.calibrateCamera(obj, img_pts, size, None, None)
    return LensCalibration(K, dist.ravel()[:5], float(rms), len(obj), size)
