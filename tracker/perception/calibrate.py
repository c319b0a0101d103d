"""Calibration with the tracker's colour ball detector.

The calibration package knows nothing of the tracker (docs/ARCHITECTURE.md): it fits the
camera to the cushions, the baulk line, the D and the colours standing on their spots, and
takes the balls from a finder passed in (:data:`calibration.markings.BallFinder`). This module
is that finder, the colour detector with its untrained prototypes, and the calibration calls
with it bound: the tracker, its CLI and benches calibrate through here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration import auto
from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.perception.detect import CLASSES, BallDetector


@dataclass(frozen=True)
class BallFinderParams:
    """The calibration's ball finder (:func:`find_colour_balls`).

    Attributes:
        max_off_picture: balls are not looked for through a candidate camera that puts a table
            corner further than this many picture sizes (the larger side) from the picture (a
            candidate fitted to the wrong region can put the corners at infinity, behind the
            camera or far beyond).
        min_confidence: a detection counts as a ball for the calibration from this colour
            confidence (0-1) up. Not the tracker's ``TrackerConfig.min_class_conf`` (0.5) and
            not linked to it: these colours are the untrained prototypes', not colours learned
            from the camera. (No measurement behind the value is on record: it came with the
            fit to the markings, commit 872409b.)
    """

    max_off_picture: float = 4.0
    min_confidence: float = 0.6


#: The ball finder's tunables.
FINDER = BallFinderParams()


def find_colour_balls(img: np.ndarray, cam: CameraModel, table: TableGeometry) -> tuple[np.ndarray, list[str]]:
    """Ball centres (N, 2) px and their colour names in ``img`` (BGR), by the colour ball
    detector with the camera ``cam`` (its untrained colour prototypes: nothing learned from
    this picture)."""
    cal = Calibration(cam.image_size, table, cam)
    if not _table_in_sight(cal):
        return np.zeros((0, 2)), []  # a candidate camera that puts the table nowhere sane
    det = BallDetector(cal)
    det.learn_cloth(img)
    d = det.detect(img)
    keep = d.conf >= FINDER.min_confidence
    return d.px[keep], [CLASSES[int(k)] for k in d.cls[keep]]


def _table_in_sight(cal: Calibration) -> bool:
    """Whether ``cal`` images the table's corners and pockets at finite pixels within
    ``BallFinderParams.max_off_picture`` picture sizes of the picture (a calibration candidate fitted to
    the wrong region can put them at infinity, behind the camera or far beyond)."""
    t = cal.table
    pts = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
    px = cal.to_image(pts, t.ball_radius)
    w, h = cal.image_size
    lim = FINDER.max_off_picture * max(w, h)
    return bool(np.all(np.isfinite(px)) and np.all(np.abs(px) < lim))


def calibrate_image(img: np.ndarray, table: TableGeometry, hfov_deg: float | None = None,
                    lens: tuple[np.ndarray, np.ndarray] | None = None) -> Calibration:
    """:func:`calibration.auto.calibrate_image` with :func:`find_colour_balls`."""
    return auto.calibrate_image(img, table, hfov_deg, lens, ball_finder=find_colour_balls)


def calibrate_best(frames: list[np.ndarray], table: TableGeometry, **kwargs: Any) -> Calibration:
    """:func:`calibration.auto.calibrate_best` with :func:`find_colour_balls`."""
    return auto.calibrate_best(frames, table, ball_finder=find_colour_balls, **kwargs)
