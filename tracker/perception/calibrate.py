"""Calibration with the tracker's colour ball detector.

The calibration package knows nothing of the tracker (docs/ARCHITECTURE.md): it fits the
camera to the cushions, the baulk line, the D and the colours standing on their spots, and
takes the balls from a finder passed in (:data:`calibration.markings.BallFinder`). This module
is that finder, the colour detector with its untrained prototypes, and the calibration calls
with it bound: the tracker, its CLI and benches calibrate through here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from calibration import auto
from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.perception.detect import CLASSES, BallDetector

#: A detection counts as a ball for the calibration from this confidence (0-1) up.
MIN_CONFIDENCE = 0.6


def find_colour_balls(img: np.ndarray, cam: CameraModel, table: TableGeometry) -> tuple[np.ndarray, list[str]]:
    """Ball centres (N, 2) px and their colour names in ``img`` (BGR), by the colour ball
    detector with the camera ``cam`` (its untrained colour prototypes: nothing learned from
    this picture)."""
    det = BallDetector(Calibration(cam.image_size, table, cam))
    det.learn_cloth(img)
    d = det.detect(img)
    keep = d.conf >= MIN_CONFIDENCE
    return d.px[keep], [CLASSES[int(k)] for k in d.cls[keep]]


def calibrate_image(img: np.ndarray, table: TableGeometry, hfov_deg: float | None = None,
                    lens: tuple[np.ndarray, np.ndarray] | None = None) -> Calibration:
    """:func:`calibration.auto.calibrate_image` with :func:`find_colour_balls`."""
    return auto.calibrate_image(img, table, hfov_deg, lens, ball_finder=find_colour_balls)


def calibrate_best(frames: list[np.ndarray], table: TableGeometry, **kwargs: Any) -> Calibration:
    """:func:`calibration.auto.calibrate_best` with :func:`find_colour_balls`."""
    return auto.calibrate_best(frames, table, ball_finder=find_colour_balls, **kwargs)
