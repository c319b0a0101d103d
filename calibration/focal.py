"""Where the focal length cannot be estimated (a view too square-on): how far the balls
could be off over the plausible lenses (moved out of :mod:`calibration.auto`)."""

from __future__ import annotations

import math

import numpy as np

from calibration.camera import CameraModel
from calibration.markings import Markings, fit_camera
from calibration.table import TableGeometry

#: The range of lenses tried where the focal length cannot be estimated, degrees of
#: horizontal field of view: the spread of ball positions over it is reported.
FOCAL_RANGE_DEG = (50.0, 80.0)


def _with_focal(cam: CameraModel, table: TableGeometry, hfov_deg: float) -> CameraModel:
    """The camera with another focal length, moved along its axis so that the table's
    centre keeps its place and size in the picture (a start for a refit)."""
    w, _ = cam.image_size
    f_new = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    s = f_new / cam.K[0, 0]
    mid = np.array([table.width / 2, table.length / 2, 0.0])
    xc = cam.R @ mid + cam.t
    t_new = xc * np.array([1.0, 1.0, s]) - cam.R @ mid
    t_new[:2] = xc[:2] * s - (cam.R @ mid)[:2]
    K = cam.K.copy()
    K[0, 0] = K[1, 1] = f_new
    ratio = (f_new / cam.K[0, 0]) ** 2
    dist = cam.dist.copy()
    dist[0] *= ratio
    dist[1] *= ratio ** 2
    return CameraModel(cam.image_size, K, dist, cam.R, t_new)


def focal_spread(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                 kn: tuple[float, float], marks: Markings, side_w: list[float]) -> float:
    """Where the focal length cannot be estimated: the largest shift (mm) of a ball on the
    table when the camera is refitted with a lens of each end of :data:`FOCAL_RANGE_DEG`
    instead of the assumed one."""
    grid = np.array([[x, y, table.ball_radius] for x in np.linspace(60, table.width - 60, 6)
                     for y in np.linspace(60, table.length - 60, 10)])
    px = cam.project(grid)
    worst = 0.0
    for fov in FOCAL_RANGE_DEG:
        alt = _with_focal(cam, table, fov)
        alt = fit_camera(alt, edges, table, kn, marks, False, side_w)
        d = np.linalg.norm(alt.ball_centre_to_table(px, table.ball_radius) - grid[:, :2], axis=1)
        worst = max(worst, float(d.max()))
    return round(worst, 1)


def fov_from_focal(f: float, width: int) -> float:
    """Horizontal field of view (degrees) of focal length ``f`` px."""
    return math.degrees(2 * math.atan(width / 2.0 / f))
