"""Automatic table finding: cloth, cushion lines, corners, orientation, lens and pose.

Steps (each a function here, each testable alone):

1. :func:`cloth_mask` - the cloth colour is learned from the image centre (hue, saturation),
   thresholded, cleaned, the largest region kept and its holes (balls) filled.
2. :func:`outer_quad` - a quadrilateral fitted to the mask outline (the cloth's outer edge:
   cushion tops).
3. :func:`cushion_lines` - for each side, the cushion-nose edge inside the outer edge: the
   strongest step parallel to the side in a band, located per sample with sub-pixel peaks and
   fitted with a robust line. Corners are the intersections of adjacent nose lines: the
   corners of the playing area at the height of the cushion nose.
4. :func:`estimate_radial` - lens distortion (k1, k2) from the straightness of the cushion edges.
5. :func:`orient` - which end is baulk: the baulk line and the D are looked for at both ends.
6. :func:`pose_from_homography` - focal length (square pixels, centred principal point) and
   pose from the nose-plane homography; a fronto-parallel view leaves the focal length
   undetermined, and a default field of view is used (ball centres sit 7 mm below the nose
   plane, so the error this leaves is about 1 mm at the table's far corners).

Raises :class:`TableNotFound` with the reason when a step fails.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.graphics import BARS, crosses_bar
from calibration.table import TableGeometry

#: Default horizontal field of view when the focal length cannot be estimated, degrees.
DEFAULT_HFOV_DEG = 60.0
#: A calibration whose cushion points (or, by hand, given points) miss the model by more than
#: this is refused, mm.
MAX_FIT_ERROR_MM = 25.0
#: The cloth's hue may differ from the median at the image centre by this much (OpenCV hue
#: units, 0-180) ...
CLOTH_HUE_TOLERANCE = 12
#: ... or, under uneven light (a projector, a lamp's colour over one half), by as much as the
#: centre's own spread of cloth hues (its CLOTH_HUE_QUANTILE and 100 - that percentiles, hues
#: within CLOTH_HUE_NEAR of the median, balls excluded) plus CLOTH_HUE_MARGIN, up to
#: CLOTH_HUE_TOLERANCE_MAX.
CLOTH_HUE_QUANTILE = 2.0
CLOTH_HUE_NEAR = 35
CLOTH_HUE_MARGIN = 6
CLOTH_HUE_TOLERANCE_MAX = 30
#: The wider tolerance is tried first when the cloth region found with the narrow one covers
#: less than this fraction of its convex hull (a table's cloth, holes filled, is convex).
CLOTH_MIN_SOLIDITY = 0.95
#: :func:`_nose_before_face`: a colour step at least this fraction of the strongest step of
#: its profile, FACE_MIN_PX to FACE_MAX_PX outward of the brightness step chosen, is the nose
#: (the cushion's inner face seen between them), px.
FACE_STEP_FRACTION = 0.3
#: ... and at least this strong (colour levels per px: above the cloth's noise).
FACE_STEP_MIN = 3.0
FACE_MIN_PX = 4.0
FACE_MAX_PX = 16.0
#: The rule is applied again from the step it found, this many times at most (a bright ring
#: or ball against the face's foot: ring, foot, nose).
FACE_MAX_HOPS = 3
#: :func:`estimate_radial`: an edge point's distance from its straight line counts up to this
#: many pixels (further: a point off the cushion, not a bent one).
RADIAL_TRUNCATE_PX = 1.0


class TableNotFound(RuntimeError):
    """The table could not be found; the message says at which step and why."""


@dataclass
class Line:
    """An image line ``n . p = c`` with unit normal ``n`` pointing into the table."""

    n: np.ndarray
    c: float

    def dist(self, p: np.ndarray) -> np.ndarray:
        """Signed distance (positive inside) of points (N, 2)."""
        return p @ self.n - self.c

    @staticmethod
    def fit(points: np.ndarray, inside: np.ndarray) -> Line:
        """Robust line through points (N, 2); the normal is turned toward ``inside``."""
        vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        n = np.array([-vy, vx], float)
        c = float(n @ np.array([x0, y0]))
        if n @ inside - c < 0:
            n, c = -n, -c
        return Line(n, c)


def intersect(a: Line, b: Line) -> np.ndarray:
    """Intersection point of two lines (2,)."""
    m = np.array([a.n, b.n])
    return np.linalg.solve(m, np.array([a.c, b.c]))


def cloth_hue_tolerance(hues: np.ndarray, median: float) -> float:
    """How far (OpenCV hue units) a pixel's hue may be from the cloth's ``median`` hue: the
    spread of the saturated ``hues`` seen at the image centre (see :data:`CLOTH_HUE_TOLERANCE`
    and the constants after it)."""
    d = np.abs(hues.astype(np.int16) - int(median))
    d = np.minimum(d, 180 - d)
    d = d[d < CLOTH_HUE_NEAR]
    if not len(d):
        return float(CLOTH_HUE_TOLERANCE)
    spread = float(np.percentile(d, 100.0 - CLOTH_HUE_QUANTILE)) + CLOTH_HUE_MARGIN
    return float(np.clip(spread, CLOTH_HUE_TOLERANCE, CLOTH_HUE_TOLERANCE_MAX))


def cloth_mask(img: np.ndarray) -> np.ndarray:
    """Boolean mask (h, w) of the cloth (bed and cushions), holes filled: the first of
    :func:`cloth_masks`.

    Raises:
        TableNotFound: when the centre of the image has no saturated colour or the region found
            covers too little of the image.
    """
    return cloth_masks(img)[0]


def cloth_masks(img: np.ndarray) -> list[np.ndarray]:
    """Boolean masks (h, w) of the cloth (bed and cushions), holes filled, the likelier first.

    The cloth's colour is learned at the image centre and matched within
    :data:`CLOTH_HUE_TOLERANCE`. Where the centre's own spread of hues is wider
    (:func:`cloth_hue_tolerance`: one half of the cloth lit another shade), the region found
    with that spread is a second mask, and the first where the narrow one is far from convex
    (less than :data:`CLOTH_MIN_SOLIDITY` of its hull): a caller tries the next when the
    table is not found in the first.

    Raises:
        TableNotFound: when the centre of the image has no saturated colour or the region found
            covers too little of the image.
    """
    h, w = img.shape[:2]
    hsv = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2HSV)
    centre = hsv[int(h * 0.3):int(h * 0.7), int(w * 0.3):int(w * 0.7)].reshape(-1, 3)
    sat = centre[:, 1] > 25
    if sat.mean() < 0.3:
        raise TableNotFound("no cloth colour at the centre of the image (is the table in view, "
                            "and lit?)")
    hue = np.median(centre[sat, 0])
    masks = [_cloth_region(hsv, hue, CLOTH_HUE_TOLERANCE, centre[sat])]
    wide = cloth_hue_tolerance(centre[sat, 0], hue)
    if wide > CLOTH_HUE_TOLERANCE:
        masks.append(_cloth_region(hsv, hue, wide, centre[sat]))
        if _solidity(masks[0]) < CLOTH_MIN_SOLIDITY:
            masks.reverse()
    masks = [m for m in masks if m.mean() >= 0.08]
    if not masks:
        raise TableNotFound("the cloth region covers less than 8% of the image")
    return [m.astype(bool) for m in masks]


def _cloth_region(hsv: np.ndarray, hue: float, tolerance: float, centre: np.ndarray) -> np.ndarray:
    """The largest region (uint8 (h, w), holes filled) of pixels within ``tolerance`` of the
    cloth's ``hue`` and as saturated and bright as the ``centre`` pixels (M, 3 HSV) allow."""
    h, w = hsv.shape[:2]
    s0 = np.median(centre[:, 1])
    v0 = np.median(centre[:, 2])
    dh = np.abs(hsv[..., 0].astype(np.int16) - int(hue))
    dh = np.minimum(dh, 180 - dh)
    mask = (dh < tolerance) & (hsv[..., 1] > 0.45 * s0) & (hsv[..., 2] > 0.3 * v0)
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    # bridge the dark shadow line under the cushion nose so the cushions stay with the bed
    k = max(7, int(round(0.008 * max(h, w))) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, 8)
    if n < 2:
        raise TableNotFound("no cloth-coloured region")
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    region = (lab == k).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled


def _solidity(region: np.ndarray) -> float:
    """Area of a region (uint8 mask) over the area of its convex hull (1 = convex)."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return 0.0
    cnt = max(contours, key=cv2.contourArea)
    hull = cv2.contourArea(cv2.convexHull(cnt))
    return float(cv2.contourArea(cnt) / hull) if hull > 0 else 0.0


def outer_quad(mask: np.ndarray) -> np.ndarray:
    """Four corners (4, 2) of the quadrilateral around the cloth, clockwise on screen starting
    from the corner nearest the image origin.

    The outline's convex hull is simplified; runs of nearly parallel edges are merged into
    sides; the four longest sides are the cushions (pockets only cut the corners short), and
    each is refined with a robust line fit to the outline points along its middle.
    """
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cnt = max(contours, key=cv2.contourArea)
    h, w = mask.shape
    c2 = cnt.reshape(-1, 2)
    on_border = (c2[:, 0] <= 1) | (c2[:, 1] <= 1) | (c2[:, 0] >= w - 2) | (c2[:, 1] >= h - 2)
    if on_border.mean() > 0.02:
        raise TableNotFound("the table runs off the edge of the picture: every cushion must be in "
                            "view (zoom out, or give the corners by hand: calibrate --points)")
    hull = cv2.convexHull(cnt).reshape(-1, 2).astype(float)
    peri = cv2.arcLength(hull.astype(np.float32).reshape(-1, 1, 2), True)
    poly = cv2.approxPolyDP(hull.astype(np.float32).reshape(-1, 1, 2), 0.004 * peri, True)
    poly = poly.reshape(-1, 2).astype(float)
    # sides: runs of edges with nearly the same direction
    edges = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    sides: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for e in edges:
        d = e[1] - e[0]
        ang = math.atan2(d[1], d[0])
        if sides:
            d0 = sides[-1][-1][1] - sides[-1][-1][0]
            a0 = math.atan2(d0[1], d0[0])
            if abs((ang - a0 + math.pi) % (2 * math.pi) - math.pi) < math.radians(6):
                sides[-1].append(e)
                continue
        sides.append([e])
    if len(sides) > 1:
        d_first = sides[0][0][1] - sides[0][0][0]
        d_last = sides[-1][-1][1] - sides[-1][-1][0]
        da = math.atan2(d_first[1], d_first[0]) - math.atan2(d_last[1], d_last[0])
        if abs((da + math.pi) % (2 * math.pi) - math.pi) < math.radians(6):
            sides[0] = sides[-1] + sides[0]
            sides.pop()
    runs = [(s_[0][0], s_[-1][1]) for s_ in sides]
    if len(runs) < 4:
        raise TableNotFound("the cloth outline has fewer than four sides (is the whole table in "
                            "view?)")
    longest = sorted(runs, key=lambda r: -np.linalg.norm(r[1] - r[0]))[:4]
    centre = cnt.reshape(-1, 2).mean(0)
    longest.sort(key=lambda r: math.atan2(*(((r[0] + r[1]) / 2 - centre)[::-1])))
    pts = cnt.reshape(-1, 2).astype(float)
    lines = []
    for a, b in longest:
        d = b - a
        L = np.linalg.norm(d)
        u = d / L
        n = np.array([-u[1], u[0]])
        rel = pts - a
        along, across = rel @ u, rel @ n
        sel = (np.abs(across) < 0.01 * L + 3) & (along > 0.1 * L) & (along < 0.9 * L)
        lines.append(Line.fit(pts[sel], centre) if sel.sum() >= 10 else Line.fit(np.array([a, b]), centre))
    corners = np.array([intersect(lines[i - 1], lines[i]) for i in range(4)])
    return _clockwise(corners)


def _clockwise(q: np.ndarray) -> np.ndarray:
    c = q.mean(0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # increasing angle = clockwise on screen (y down)
    start = int(np.argmin(q.sum(1)))
    return np.roll(q, -start, axis=0)


def _edge_profile(gray: np.ndarray, a: np.ndarray, b: np.ndarray, n: np.ndarray, depth: float,
                  samples: int = 120) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intensity profiles along the inward normal from points of side a->b.

    Returns (base points (S, 2), offsets (D,), profiles (S, D)).
    """
    ts = np.linspace(0.08, 0.92, samples)
    ts = ts[np.abs(ts - 0.5) > 0.06]  # away from the middle pockets
    base = a[None, :] + (b - a)[None, :] * ts[:, None]
    offs = np.arange(-4.0, depth, 0.5)
    pts = base[:, None, :] + offs[None, :, None] * n[None, None, :]
    prof = cv2.remap(gray, pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR)
    return base, offs, prof


def _reject_outliers(pts: np.ndarray, a: np.ndarray, u: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Keep the points that lie on a gently curved edge (a quadratic across the side, which a
    distorting lens makes of a straight cushion): balls against the cushion, pocket fittings
    and chalk marks are dropped by an iterated median-absolute-deviation test."""
    if len(pts) < 6:
        return pts
    t = (pts - a) @ u
    y = (pts - a) @ n
    keep = np.ones(len(pts), bool)
    for _ in range(4):
        coef = np.polyfit(t[keep], y[keep], 2)
        r = y - np.polyval(coef, t)
        mad = np.median(np.abs(r[keep] - np.median(r[keep])))
        new = np.abs(r) < 3.0 * 1.4826 * mad + 0.4
        if new.sum() < 6 or np.array_equal(new, keep):
            break
        keep = new
    return pts[keep]


def _nose_before_face(gc: np.ndarray, offs: np.ndarray, beyond: np.ndarray, j: int) -> int:
    """The nose step, given the step ``j`` chosen on brightness along one inward profile.

    A camera above the table sees the inner face of a cushion below its nose: a band between
    the nose (where the cushion top ends) and the face's foot on the bed. Where the face is
    about as bright as the top but of another shade (light from a projector or a lamp of
    another colour), the brightness step at the foot is the strongest and the nose shows only
    in colour; where a bright object touches the face's foot (a ball, a projected ring), the
    foot's step outdoes the nose's. So: a colour step (``gc``, the colour gradient's magnitude
    along the profile) at least :data:`FACE_STEP_FRACTION` as strong as the step at ``j`` (and
    :data:`FACE_STEP_MIN`), a local peak, lying outward of ``j`` by
    :data:`FACE_MIN_PX` to :data:`FACE_MAX_PX` pixels, is the nose (the outermost such step),
    and the rule is applied again from there (:data:`FACE_MAX_HOPS`); else ``j`` stays.
    Indices are into ``offs`` (px along the inward normal, 0.5 px apart);
    ``beyond`` are the indices inside the outer edge.
    """
    for _ in range(FACE_MAX_HOPS):
        need = max(FACE_STEP_FRACTION * gc[j], FACE_STEP_MIN)
        outer = [k for k in beyond if 0 < k < j and FACE_MIN_PX <= offs[j] - offs[k] <= FACE_MAX_PX
                 and gc[k] >= need and gc[k] >= gc[k - 1] and gc[k] > gc[k + 1]]
        if not outer:
            break
        j = int(outer[0])
    return j


def cushion_lines(img: np.ndarray, quad: np.ndarray, nose_fraction: float = 0.05,
                  mask: np.ndarray | None = None, bars: list[tuple[int, int, int, int]] | None = None,
                  hidden: list[bool] | None = None) -> tuple[list[Line], list[np.ndarray]]:
    """The four cushion-nose lines inside the outer quad, and the edge points found on each.

    ``nose_fraction`` bounds the search: the nose lies within this fraction of the table's
    long side (in pixels) inside the outer edge. ``bars``: score bars' boxes (x0, y0, x1, y1)
    px (:mod:`calibration.graphics`): no edge is read where the search crosses one; a side
    so hidden along most of its length (``BARS.hidden_share``) gets the outline's own side
    as its line and points, and True in ``hidden`` (a list the caller passes, filled with
    one flag per side): a fit must leave it out.
    """

    gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.2)
    colour = cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.2)
    centre = quad.mean(0)
    long_px = max(np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4))
    depth = max(8.0, nose_fraction * long_px)
    lines, edge_pts = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        u = (b - a) / np.linalg.norm(b - a)
        n = np.array([-u[1], u[0]])
        if n @ (centre - a) < 0:
            n = -n
        base, offs, prof = _edge_profile(gray, a, b, n, depth)
        covered = crosses_bar(base + n * offs[0], base + n * offs[-1], bars or [])
        if hidden is not None:
            hidden.append(bool(covered.mean() >= BARS.hidden_share))
            if hidden[-1]:
                lines.append(Line.fit(base, centre))
                edge_pts.append(base)
                continue
        grad = np.abs(np.gradient(prof, axis=1))
        _, _, cprof = _edge_profile(colour, a, b, n, depth)
        gc = np.linalg.norm(np.gradient(cprof, axis=1), axis=2)
        inside = None
        if mask is not None:
            _, _, inside = _edge_profile(mask.astype(np.float32), a, b, n, depth)
        pts = []
        for s_ in range(len(base)):
            if covered[s_]:
                continue
            g = grad[s_]
            # the outer edge (rail to cloth): where the cloth mask starts along the profile,
            # else the strongest step near the quad line ...
            if inside is not None and np.any(inside[s_] > 0.5):
                j_out = int(np.argmax(inside[s_] > 0.5))
            else:
                near = np.nonzero(offs < 0.45 * depth)[0]
                j_out = near[int(np.argmax(g[near]))]
            # ... the nose edge is the strongest step inside it, preferring a step down into
            # the shadow under the nose (bright cushion top, dark face)
            beyond = np.nonzero(offs > offs[j_out] + 3.0)[0]
            if len(beyond) < 3:
                continue
            sg = np.gradient(prof[s_])
            down = beyond[sg[beyond] < 0]
            if len(down) and g[down].max() >= 0.5 * g[beyond].max():
                j = down[int(np.argmax(g[down]))]
            else:
                j = beyond[int(np.argmax(g[beyond]))]
            j = _nose_before_face(gc[s_], offs, beyond, j)
            if 0 < j < len(offs) - 1:
                y0, y1, y2 = g[j - 1], g[j], g[j + 1]
                den = y0 - 2 * y1 + y2
                frac = 0.5 * (y0 - y2) / den if abs(den) > 1e-9 else 0.0
            else:
                frac = 0.0
            pts.append(base[s_] + n * (offs[j] + frac * 0.5))
        if len(pts) < 8:
            raise TableNotFound("no cushion edge found along one side of the table")
        pts_arr = _reject_outliers(np.array(pts), a, u, n)
        if len(pts_arr) < 8:
            raise TableNotFound("too few clean cushion-edge points along one side")
        line = Line.fit(pts_arr, centre)
        lines.append(line)
        edge_pts.append(pts_arr)
    return lines, edge_pts


def undistort_px(p: np.ndarray, k: float | tuple[float, float], size: tuple[int, int]) -> np.ndarray:
    """Undo radial distortion on pixel points (N, 2).

    ``k`` = (k1n, k2n) (or k1n alone) normalised by f0 = image width with the principal point at
    the image centre: the exact inverse of ``q_d = q_u (1 + k1n r^2 + k2n r^4)`` by fixed-point
    iteration."""
    k1n, k2n = (k, 0.0) if np.isscalar(k) else k
    w, h = size
    c = np.array([w / 2.0, h / 2.0])
    qd = (np.asarray(p, float) - c) / w
    qu = qd.copy()
    for _ in range(12):
        r2 = (qu * qu).sum(1, keepdims=True)
        qu = qd / (1 + k1n * r2 + k2n * r2 * r2)
    return qu * w + c


def estimate_radial(edge_pts: list[np.ndarray], size: tuple[int, int]) -> tuple[float, float]:
    """Radial distortion (k1n, k2n) (normalised by f0 = image width) that makes the cushion
    edges straightest: least squares of the straight-line residuals, each truncated at
    :data:`RADIAL_TRUNCATE_PX` (a few edge points on a ball or a ring against the cushion
    would otherwise bend the lens to fit them: one fixed camera read k1 from -0.04 to 0.21
    frame by frame)."""

    def cost(k: tuple[float, float]) -> float:
        tot = 0.0
        for p in edge_pts:
            if len(p) < 3:
                continue
            und = undistort_px(p, k, size)
            line = Line.fit(und, und.mean(0) + 1)
            tot += float(np.minimum(line.dist(und) ** 2, RADIAL_TRUNCATE_PX ** 2).mean())
        return tot

    best = min(((k1, 0.0) for k1 in np.linspace(-0.4, 0.4, 81)), key=cost)
    for s1, s2 in ((0.01, 0.1), (0.003, 0.03), (0.001, 0.01), (0.0003, 0.003)):
        grid = [(best[0] + i * s1, best[1] + j * s2) for i in range(-4, 5) for j in range(-4, 5)]
        best = min(grid, key=cost)
    return float(best[0]), float(best[1])


def pose_from_homography(H: np.ndarray, size: tuple[int, int], plane_z: float,
                         hfov_fallback: float = DEFAULT_HFOV_DEG) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Intrinsics and pose from a homography of the plane z = ``plane_z`` (table mm -> px).

    Returns (K, R, t, focal_estimated).
    """
    w, h = size
    cx, cy = w / 2.0, h / 2.0
    T = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
    Hc = T @ H
    h1, h2 = Hc[:, 0], Hc[:, 1]
    # omega = diag(1/f^2, 1/f^2, 1): two constraints in 1/f^2
    a1 = h1[0] * h2[0] + h1[1] * h2[1]
    b1 = h1[2] * h2[2]
    a2 = h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2
    b2 = h1[2] ** 2 - h2[2] ** 2
    A = np.array([a1, a2])
    B = -np.array([b1, b2])
    est = None
    denom = float(A @ A)
    if denom > 0:
        inv_f2 = float(A @ B) / denom
        if inv_f2 > 0:
            f = 1.0 / math.sqrt(inv_f2)
            if 0.3 * w < f < 6 * w:
                est = f
    def decompose(f: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        K = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
        M = np.linalg.inv(K) @ H
        lam = 1.0 / np.linalg.norm(M[:, 0])
        r1, r2, tp = M[:, 0] * lam, M[:, 1] * lam, M[:, 2] * lam
        if tp[2] < 0:
            r1, r2, tp = -r1, -r2, -tp
        U, _, Vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        R = U @ Vt
        if np.linalg.det(R) < 0:
            R = -R
        return K, R, tp - R[:, 2] * plane_z

    # the focal length is only observable in an oblique view: accept the estimate when the
    # optical axis is tilted by more than 12 degrees from the table's normal
    focal_ok = False
    if est is not None:
        K, R, t = decompose(est)
        tilt = math.degrees(math.acos(min(1.0, abs(float(R[2, 2])))))
        focal_ok = tilt > 12.0
    if not focal_ok:
        K, R, t = decompose((w / 2.0) / math.tan(math.radians(hfov_fallback) / 2.0))
    return K, R, t, focal_ok


def _line_score(gray: np.ndarray, cam: CameraModel, pts_mm: np.ndarray, offset_mm: float,
                robust: bool = True) -> float:
    """Contrast of a painted line: intensity on the points against points ``offset_mm`` beside.

    ``robust`` (square-on views): each point looks within +-4 mm across the line for its
    strongest contrast; a painted line contrasts with the same sign all along, so the median
    over the points ignores rings, balls and chalk that cross the predicted line in a few
    places. Otherwise (oblique views) the median absolute contrast at the predicted place
    (balls crossing the line, such as the rack, are a minority of the points).
    """
    n = len(pts_mm)
    z = np.zeros((n, 1))

    def sample(p_mm: np.ndarray) -> np.ndarray:
        p = cam.project(np.hstack([p_mm, z]))
        return cv2.remap(gray, p[:, 0:1].astype(np.float32), p[:, 1:2].astype(np.float32),
                         cv2.INTER_LINEAR).ravel()

    if not robust:
        # oblique views: the bed-level prediction can be some 30 mm off at the far end before
        # the focal length is refined, and the far line is faint: look across a wider band
        # and take the strongest contrast, whatever its sign
        best_abs = np.zeros(n)
        for d in np.arange(-30.0, 30.1, 3.0):
            shift = np.array([0.0, d])
            c = sample(pts_mm + shift) - 0.5 * (sample(pts_mm + shift + [0, offset_mm])
                                                + sample(pts_mm + shift - [0, offset_mm]))
            best_abs = np.maximum(best_abs, np.abs(c))
        return float(np.median(best_abs))
    best = np.zeros(n)
    for d in (-4.0, -2.0, 0.0, 2.0, 4.0):
        shift = np.array([0.0, d])
        c = sample(pts_mm + shift) - 0.5 * (sample(pts_mm + shift + [0, offset_mm])
                                            + sample(pts_mm + shift - [0, offset_mm]))
        best = np.where(np.abs(c) > np.abs(best), c, best)
    return float(abs(np.median(best)))


def baulk_evidence(gray: np.ndarray, cam: CameraModel, table: TableGeometry,
                   robust: bool = True) -> float:
    """How strongly the baulk line and the D show where this calibration puts them."""
    xs = np.linspace(60, table.width - 60, 80)
    line = np.stack([xs, np.full_like(xs, table.baulk_line)], 1)
    ang = np.linspace(math.pi + 0.2, 2 * math.pi - 0.2, 60)
    arc = np.stack([table.centre_x + table.d_radius * np.cos(ang),
                    table.baulk_line + table.d_radius * np.sin(ang)], 1)
    return _line_score(gray, cam, line, 12.0, robust) + _line_score(gray, cam, arc, 12.0, robust)
