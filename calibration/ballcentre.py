"""A ball's true image centre for the geometry: the centre of its outline on the side away from
its shadow.

The colour detector's centre is the centroid of everything that differs from the cloth round a
ball. Seen obliquely (a TV camera behind an end), that takes in the ball's dark underside and
its shadow on the cloth, which the picture shows below the ball: the centroid sits below the
projected centre of the sphere (a median 1.5 px on the real broadcast stills labelled by eye,
8-10 mm along the table at the far end). The outline of the ball on the other side (its top
and flanks) is the sphere's own edge, untouched by the shadow. :func:`rim_centre` finds that
edge along rays from the rough centre, away from the direction in which the picture shows
"down" at the ball, and fits a circle to it (centre and radius free): the circle's centre is the
sphere's projected centre (for a ball of a few pixels the outline is a circle to well under a
pixel).

:func:`true_centres` does this for balls on a table seen by a camera (the calibration's spot
balls): it works out each ball's apparent radius and the picture's "down" there from the camera.
A fit that does not hold (too few edge points, a radius or a shift out of bounds) keeps the
rough centre.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel


@dataclass(frozen=True)
class RimParams:
    """The outline fit of :func:`rim_centre`.

    Attributes:
        enabled: whether the calibration moves its spot balls to their outline's centre
            (:func:`calibration.markings.find_markings`); off, it takes the detector's centres.
        half_arc_deg: the rays cover this many degrees either side of "up" (away from the
            shadow): 100 takes the top and both flanks. (The real development stills gave the
            centres within 0.13 px of 100's for 110, 0.33 px for 70: a narrower arc leaves
            the flanks out.)
        rays: how many rays over that arc.
        step_px: sampling step along a ray, px.
        reach: rays run out to this many apparent radii.
        inside: the ball's own level is the lower quartile of the difference from the cloth
            between these fractions of the apparent radius from the rough centre (its body,
            not its highlight).
        outside_from: the cloth's level is the median beyond this many apparent radii.
        cloth_ring: the cloth's colour is the median over this ring (radii), on the side away
            from the shadow.
        min_contrast: a ray counts only where the ball stands this far (Lab units) from the
            cloth.
        min_share: at least this share of the rays must find the edge.
        radius_range: the fitted radius must lie within these fractions of the apparent one.
        max_shift: the centre may move at most this many apparent radii from the rough one.
        passes: how many times the rays are cast, each from the last fitted centre.
        max_residual: edge points further than this many apparent radii from the first circle
            (a neighbour's edge, a mark on the cloth) are left out and the circle fitted again.
        overhead_share: where "down" at the ball is shorter on screen than this many radii (a
            camera looking down on it, the shadow hidden under the ball), the whole outline is
            fitted.
    """

    enabled: bool = True
    half_arc_deg: float = 100.0
    rays: int = 25
    step_px: float = 0.1
    reach: float = 2.2
    inside: tuple[float, float] = (0.2, 0.9)
    outside_from: float = 1.6
    cloth_ring: tuple[float, float] = (1.8, 2.6)
    min_contrast: float = 3.0
    min_share: float = 0.6
    radius_range: tuple[float, float] = (0.6, 1.3)
    max_shift: float = 0.6
    overhead_share: float = 0.2
    passes: int = 2
    max_residual: float = 0.15


#: The outline fit's tunables.
RIM = RimParams()


def _crop_lab(img: np.ndarray, c: np.ndarray, half: int) -> tuple[np.ndarray, np.ndarray]:
    """The Lab (float32, L 0-100) crop of ``img`` (BGR uint8) round ``c`` (2,) px reaching
    ``half`` px either side, and the crop's top-left corner (2,) px (clamped to the picture)."""
    h, w = img.shape[:2]
    x0, y0 = max(0, int(c[0]) - half), max(0, int(c[1]) - half)
    x1, y1 = min(w, int(c[0]) + half + 2), min(h, int(c[1]) + half + 2)
    crop = img[y0:y1, x0:x1].astype(np.float32) / 255.0
    return cv2.cvtColor(crop, cv2.COLOR_BGR2Lab), np.array([x0, y0], float)


def _sample(lab: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Bilinear samples (..., 3) of ``lab`` at crop coordinates ``xs``, ``ys``."""
    return cv2.remap(lab, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _edge_points(lab: np.ndarray, c: np.ndarray, r: float, up_angle: float, half_arc: float,
                 p: RimParams) -> np.ndarray:
    """Points (M, 2) crop px of the ball's outline: along rays from ``c`` spread ``half_arc``
    degrees either side of ``up_angle`` (radians), where the difference from the cloth, coming
    in from the cloth, first rises half way to the ball's body level."""
    angs = up_angle + np.radians(np.linspace(-half_arc, half_arc, p.rays))
    ring_a = up_angle + np.radians(np.linspace(-90.0, 90.0, 19))
    ring_s = np.linspace(p.cloth_ring[0] * r, p.cloth_ring[1] * r, 5)
    ring = _sample(lab, c[0] + np.outer(np.cos(ring_a), ring_s), c[1] + np.outer(np.sin(ring_a), ring_s))
    cloth = np.median(ring.reshape(-1, 3), axis=0)
    s = np.arange(0.0, p.reach * r, p.step_px)
    prof = _sample(lab, c[0] + np.outer(np.cos(angs), s), c[1] + np.outer(np.sin(angs), s))
    diff = np.linalg.norm(prof - cloth, axis=2)
    ins = (s >= p.inside[0] * r) & (s <= p.inside[1] * r)
    far = s >= p.outside_from * r
    pts = []
    for a, d in zip(angs, diff, strict=True):
        # the ball's body, not its highlight: the lower quartile inside the outline
        inside, outside = float(np.percentile(d[ins], 25)), float(np.median(d[far]))
        if inside - outside < p.min_contrast:
            continue
        level = 0.5 * (inside + outside)
        # from the cloth inward: the outline is where the difference first rises to half way
        above = np.nonzero(~far & (s >= 0.4 * r) & (d >= level))[0]
        if not len(above):
            continue
        j = int(above[-1])
        if j + 1 >= len(s):
            continue
        t = s[j] + (d[j] - level) / max(d[j] - d[j + 1], 1e-9) * p.step_px
        pts.append(c + t * np.array([np.cos(a), np.sin(a)]))
    return np.array(pts).reshape(-1, 2)


def _fit_circle(pts: np.ndarray, c0: np.ndarray, r0: float) -> tuple[np.ndarray, float]:
    """Least-squares circle (centre (2,), radius) through ``pts`` (M, 2), from (c0, r0)."""
    c, r = c0.astype(float).copy(), float(r0)
    for _ in range(20):
        v = pts - c
        n = np.maximum(np.linalg.norm(v, axis=1), 1e-9)
        jac = np.column_stack([-v / n[:, None], -np.ones(len(n))])
        step = np.linalg.lstsq(jac, -(n - r), rcond=None)[0]
        c, r = c + step[:2], r + float(step[2])
        if np.abs(step).max() < 1e-4:
            break
    return c, r


def rim_centre(img: np.ndarray, c: np.ndarray, r: float, down: np.ndarray,
               params: RimParams = RIM) -> np.ndarray:
    """The centre (2,) px of the ball whose rough centre is ``c`` (2,) px in ``img`` (BGR
    uint8): the circle fitted to its outline on the side away from ``down``.

    Args:
        img: the picture.
        c: the rough centre (the detector's), px.
        r: the ball's apparent radius there, px.
        down: (2,) px, the picture's direction of "down" (toward the bed) at the ball; its
            length against ``r`` says how obliquely the ball is seen.
        params: the fit's tunables.

    Returns:
        the outline's centre, or ``c`` where the fit does not hold.
    """
    c = np.asarray(c, float)
    down = np.asarray(down, float)
    if r < 2.0 or not np.all(np.isfinite(c)):
        return c
    lab, corner = _crop_lab(img, c, int(np.ceil(params.cloth_ring[1] * r + params.max_shift * r)) + 2)
    n = float(np.linalg.norm(down))
    half = params.half_arc_deg if n >= params.overhead_share * r else 180.0
    up_angle = float(np.arctan2(-down[1], -down[0])) if n > 0 else -np.pi / 2
    start = c - corner
    centre = start
    for _ in range(params.passes):
        # each pass casts its rays from the last centre: a rough centre far off the ball's
        # middle sees the outline at a slant
        pts = _edge_points(lab, centre, r, up_angle, half, params)
        if len(pts) < params.min_share * params.rays:
            return c
        centre, radius = _fit_circle(pts, centre, r)
        keep = np.abs(np.linalg.norm(pts - centre, axis=1) - radius) <= params.max_residual * r
        if keep.sum() >= params.min_share * params.rays and not keep.all():
            centre, radius = _fit_circle(pts[keep], centre, radius)
        lo, hi = params.radius_range
        if not (lo * r <= radius <= hi * r) or np.linalg.norm(centre - start) > params.max_shift * r:
            return c
    return centre + corner


def true_centres(img: np.ndarray, cam: CameraModel, px: np.ndarray, ball_radius: float,
                 params: RimParams = RIM) -> np.ndarray:
    """:func:`rim_centre` for balls on the table at rough image centres ``px`` (N, 2) under the
    camera ``cam`` (roughly right): each ball's apparent radius and the picture's "down" come
    from the camera at the ball's place on the plane of ball centres (``ball_radius`` mm up).
    Returns (N, 2) px."""
    px = np.asarray(px, float).reshape(-1, 2)
    if not len(px):
        return px.copy()
    xy = cam.ball_centre_to_table(px, ball_radius)
    centre3 = np.column_stack([xy, np.full(len(xy), ball_radius)])
    at = cam.project(centre3)
    side = cam.project(centre3 + [ball_radius, 0.0, 0.0]) - at
    side2 = cam.project(centre3 + [0.0, ball_radius, 0.0]) - at
    radii = np.maximum(np.linalg.norm(side, axis=1), np.linalg.norm(side2, axis=1))
    down = cam.project(centre3 - [0.0, 0.0, ball_radius]) - at
    return np.array([rim_centre(img, p, float(r), d, params) for p, r, d in zip(px, radii, down, strict=True)])
