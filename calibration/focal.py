"""The focal length (the lens's zoom) and how far the view determines it.

- Where it cannot be estimated at all (a view too square-on): how far the balls could be off
  over the plausible lenses (:func:`focal_spread`, moved out of :mod:`calibration.auto`).
- Where it was fitted: whether the picture actually pins it down (:func:`focal_check`). A long
  lens from behind one end sees little perspective: a longer lens from further back puts the
  cushions and markings in nearly the same places, so focal length and distance trade off and
  the fit's focal length is one of a range that explain the picture about as well. The check
  refits the camera with focal lengths either side of the fitted one, finds the range whose
  misfit the picture cannot tell from the fitted camera's, and how far the cameras of that
  range put a ball apart: the distance the view leaves uncertain.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from calibration.camera import CameraModel
from calibration.markings import Markings, fit_camera, residual_rms
from calibration.table import TableGeometry

#: The range of lenses tried where the focal length cannot be estimated, degrees of
#: horizontal field of view: the spread of ball positions over it is reported.
FOCAL_RANGE_DEG = (50.0, 80.0)


@dataclass(frozen=True)
class FocalCheckParams:
    """How :func:`focal_check` decides whether the view determined the focal length.

    Attributes:
        step: the focal lengths tried are the fitted one times (1 - step) and 1 / (1 - step).
        measured_mm: the focal length counts as measured when the cameras the picture cannot
            tell apart put no ball on the table further than this from the fitted camera's
            place for it, mm (a fifth of a ball's width: below what a call turns on).
        max_share: a focal length uncertain by more than this share of itself is reported as
            that share (the refits are not trusted further out).
    """

    step: float = 0.1
    measured_mm: float = 5.0
    max_share: float = 0.5


#: The focal check's tunables.
FOCAL_CHECK = FocalCheckParams()


def _ball_grid(table: TableGeometry) -> np.ndarray:
    """(60, 3) ball centres over the bed (mm): where a lens error is measured."""
    return np.array([[x, y, table.ball_radius] for x in np.linspace(60, table.width - 60, 6)
                     for y in np.linspace(60, table.length - 60, 10)])


def focal_check(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                kn: tuple[float, float], marks: Markings, side_w: list[float],
                params: FocalCheckParams | None = None) -> dict[str, object]:
    """Whether the view determined the fitted focal length of ``cam``.

    The camera is refitted (pose only, to the same cushion edges and markings) with the focal
    length ``params.step`` shorter and longer. The misfit a wrong focal length adds grows with
    the square of its error (``rms(k)^2 = rms^2 + a (k - 1)^2``); the picture cannot tell
    apart the focal lengths whose added misfit is no larger than what the fitted camera already
    leaves (``rms^2``): those within a share ``rms / sqrt(a)`` of the fitted one. How far a
    ball moves under the refits, scaled to that share, is the distance the view leaves
    uncertain.

    Returns:
        ``measured``: whether that distance is within ``params.measured_mm``; ``fov_deg``: the
        fitted horizontal field of view; ``fov_range_deg``: [narrowest, widest] field of view
        the picture cannot tell apart; ``share``: the focal length's uncertainty as a share of
        it; ``uncertain_mm``, ``uncertain_max_mm``: how far a ball moves over that range,
        median and worst over a grid of places on the bed, mm.
    """
    return focal_check_with(cam, table,
                            lambda c: fit_camera(c, edges, table, kn, marks, False, side_w),
                            lambda c: residual_rms(c, edges, table, kn, marks, side_w), params)


def focal_check_with(cam: CameraModel, table: TableGeometry,
                     refit: Callable[[CameraModel], CameraModel],
                     rms_of: Callable[[CameraModel], float],
                     params: FocalCheckParams | None = None) -> dict[str, object]:
    """:func:`focal_check` with the evidence given as two functions: ``refit(cam)`` the camera
    refitted (pose only) from the start ``cam``, ``rms_of(cam)`` what a camera leaves of the
    evidence (px). Several frames' pooled evidence is checked this way
    (:mod:`calibration.multiframe`)."""
    p = params or FOCAL_CHECK
    w, _ = cam.image_size
    f = float(cam.K[0, 0])
    rms0 = rms_of(cam)
    grid = _ball_grid(table)
    px = cam.project(grid)
    share, moved_at = 0.0, np.zeros(len(grid))
    for k in (1.0 - p.step, 1.0 / (1.0 - p.step)):
        alt = refit(_with_focal(cam, table, fov_from_focal(f * k, w)))
        rms = rms_of(alt)
        grow = (rms ** 2 - rms0 ** 2) / math.log(k) ** 2 if np.isfinite(rms) else float("inf")
        s_k = p.max_share if grow <= 0 else min(p.max_share, rms0 / math.sqrt(grow))
        moved = np.linalg.norm(alt.ball_centre_to_table(px, table.ball_radius) - grid[:, :2], axis=1)
        share = max(share, s_k)
        moved_at = np.maximum(moved_at, moved * s_k / abs(math.log(k)))
    lo, hi = fov_from_focal(f * math.exp(share), w), fov_from_focal(f * math.exp(-share), w)
    return {"measured": bool(moved_at.max() <= p.measured_mm), "fov_deg": round(fov_from_focal(f, w), 1),
            "fov_range_deg": [round(lo, 1), round(hi, 1)], "share": round(share, 3),
            "uncertain_mm": round(float(np.median(moved_at)), 1),
            "uncertain_max_mm": round(float(moved_at.max()), 1)}


def focal_note(check: dict[str, object] | None, assumed_deg: float, spread_mm: float | None) -> str:
    """The focal length in people's words: ``check`` from :func:`focal_check` where it was
    fitted; else (None) the lens of ``assumed_deg`` was assumed and the balls may be up to
    ``spread_mm`` further off (:func:`focal_spread`)."""
    if check is None:
        return (f"view too square-on to estimate the focal length: {assumed_deg:.0f} degrees field "
                f"of view assumed (give --hfov if known); balls may be up to {spread_mm or 0.0:.0f} mm "
                f"further off for a lens of {FOCAL_RANGE_DEG[0]:.0f}-{FOCAL_RANGE_DEG[1]:.0f} degrees")
    lo, hi = check["fov_range_deg"]
    if check["measured"]:
        return (f"the lens's zoom was measured from this view: {check['fov_deg']:.1f} degrees "
                f"field of view (within {lo:.1f}-{hi:.1f})")
    return (f"the lens's zoom could not be measured exactly from this view (anything from {lo:.1f} to "
            f"{hi:.1f} degrees fits as well): ball positions are uncertain by about "
            f"{check['uncertain_mm']:.0f} mm, up to {check['uncertain_max_mm']:.0f} mm (give --hfov if "
            "the lens is known)")


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
    grid = _ball_grid(table)
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
