"""The table's own markings in the picture, and a camera fitted to them as well as to the
cushions.

A fit to the cushion edges alone can be wrong while fitting well: one cushion's edge read at
the rail instead of the nose (a 30 px slip in a real overhead TV frame) bends the whole camera,
and the residual to those same edge points still says "2.5 mm". The markings are the table's
own truth inside the cushions:

- the colours standing on their spots (yellow, brown, green on the baulk line, blue, pink,
  black on the long centre line): a ball's image centre is the spot at the height of a ball
  centre (:func:`find_spot_balls`, with the balls found by a :data:`BallFinder` the caller
  passes in: the tracker's colour detector; the centre then moved to the centre of the
  ball's outline away from its shadow, :func:`calibration.ballcentre.true_centres`);
- the baulk line (:func:`find_baulk_line`) and the D's arc (:func:`find_d_arc`): thin bright
  lines on the bed, found as ridges across where the current camera puts them.

:func:`fit_camera` fits the camera (pose, and the focal length where it is observable) to the
cushion edges and the markings together with a robust loss; :func:`holdout` leaves each marking
out in turn and measures where the camera fitted without it puts it: an accuracy measured on
truth the fit did not use (the profile's ``accuracy``).

Every tunable is named at the top of this module, with its unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.ballcentre import RIM, true_centres
from calibration.camera import CameraModel
from calibration.finder import undistort_px
from calibration.table import TableGeometry

#: The six colours that have spots, in the order the spots are listed.
SPOT_COLOURS = ("yellow", "green", "brown", "blue", "pink", "black")
#: A ball of a spot's colour is taken as standing on it when the first camera puts it within
#: this distance of the spot, mm (the cushion-only camera can be 80 mm off).
SPOT_SEARCH_MM = 160.0
#: :func:`colour_score`: a colour counts for its end within this fraction of the table's
#: length of its spot, along the table.
END_ZONE = 0.12
#: After the joint fit, a spot ball this far from its spot (mm), and more than
#: :data:`SPOT_OUTLIER_FACTOR` times the median marking error, is taken as not on its spot.
SPOT_OUTLIER_MM = 18.0
SPOT_OUTLIER_FACTOR = 3.0
#: The baulk line and D are searched this far (mm) either side of where the camera puts them.
LINE_SEARCH_MM = 110.0
#: A ridge must stand this many grey levels above its sides to count as a painted line.
LINE_MIN_CONTRAST = 2.0
#: ... and this many times the profile's own noise (median absolute ridge response).
LINE_MIN_SNR = 4.0
#: Fewer line points than this and the line is not used (mostly hidden or not painted).
LINE_MIN_POINTS = 12
#: A line point further than this from the robust fit of its neighbours is dropped, mm.
LINE_OUTLIER_MM = 12.0
#: Weight of one spot ball in the fit, as a count of cushion-edge points (a ball is one point,
#: a cushion side some 100).
SPOT_WEIGHT = 6.0
#: Weight of one baulk-line or D point, as a count of cushion-edge points.
LINE_WEIGHT = 1.5
#: Soft-L1 scale of the robust fit, px: residuals beyond this count less and less.
ROBUST_SCALE_PX = 2.0
#: A held-out marking further than this (mm, median) from where the camera puts it, or any
#: one further than :data:`POOR_MAX_MM`, makes the calibration "poor" (a warning).
POOR_MEDIAN_MM = 10.0
POOR_MAX_MM = 30.0


@dataclass
class Markings:
    """Markings found in one picture (px are image pixels, as seen: lens distortion included).

    Attributes:
        spots: colour -> (2,) image centre of the ball standing on that colour's spot.
        baulk_line: (N, 2) points on the baulk line (bed level).
        d_arc: (M, 2) points on the D's arc (bed level).
        dropped: colours found near their spots but left out (off their spots).
    """

    spots: dict[str, np.ndarray] = field(default_factory=dict)
    baulk_line: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    d_arc: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    dropped: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[str]:
        """Names of the independent markings: ``spot:<colour>``, ``baulk_line``, ``d_arc``."""
        g = [f"spot:{c}" for c in self.spots]
        if len(self.baulk_line):
            g.append("baulk_line")
        if len(self.d_arc):
            g.append("d_arc")
        return g

    def without(self, group: str) -> Markings:
        """A copy with one group left out."""
        spots = {c: p for c, p in self.spots.items() if f"spot:{c}" != group}
        line = self.baulk_line if group != "baulk_line" else np.zeros((0, 2))
        arc = self.d_arc if group != "d_arc" else np.zeros((0, 2))
        return Markings(spots, line, arc, list(self.dropped))

    def summary(self) -> dict[str, object]:
        """JSON-able: which markings were used."""
        return {"spots": sorted(self.spots), "baulk_line_points": int(len(self.baulk_line)),
                "d_arc_points": int(len(self.d_arc)), "off_spot": sorted(self.dropped)}


# ---------------------------------------------------------------------- detection
#: Finds the balls in a picture for the calibration: ``finder(img, cam, table)`` -> (ball
#: centres (N, 2) px, their colour names). The calibration package knows nothing of the
#: tracker: the tracker passes its colour detector in (``tracker.perception.calibrate``).
BallFinder = Callable[[np.ndarray, CameraModel, TableGeometry], tuple[np.ndarray, list[str]]]


def no_balls() -> tuple[np.ndarray, list[str]]:
    """What a calibration without a ball finder sees: no balls (the baulk line and the D
    still count as markings; the colours on their spots do not)."""
    return np.zeros((0, 2)), []


def colour_score(cam: CameraModel, table: TableGeometry, px: np.ndarray, names: list[str]) -> float:
    """How well the colours stand at their own end of the table under ``cam``.

    Per spot colour (blue, in the middle, says nothing about the ends), its best ball scores
    +1 within :data:`END_ZONE` of the table's length from its spot along the table, -1 as
    near the mirrored place at the other end; yellow and green add +-0.5 for standing on the
    right side of the long centre line (yellow on the right of a player at baulk). Loose on
    purpose: a home table of unknown size, or colours in play near their spots, still say
    which end is baulk; a table turned end for end scores the opposite.
    """
    if not len(px):
        return 0.0
    mm = cam.ball_centre_to_table(px, table.ball_radius)
    zone = END_ZONE * table.length
    score = 0.0
    for c in SPOT_COLOURS:
        if c == "blue":
            continue
        sx, sy = table.spots[c]
        best = None
        for i, n in enumerate(names):
            if n != c:
                continue
            x, y = mm[i]
            v = 1.0 if abs(y - sy) < zone else (-1.0 if abs(y - (table.length - sy)) < zone else 0.0)
            if c in ("yellow", "green") and v != 0.0 and abs(x - table.centre_x) > 0.05 * table.width:
                v += 0.5 if (x - table.centre_x) * (sx - table.centre_x) > 0 else -0.5
            best = v if best is None else max(best, v)
        score += best or 0.0
    return score


def find_spot_balls(cam: CameraModel, table: TableGeometry, px: np.ndarray,
                    names: list[str]) -> dict[str, np.ndarray]:
    """For each spot colour, the ball of that colour nearest its spot under ``cam`` if within
    :data:`SPOT_SEARCH_MM`: colour -> (2,) px."""
    out: dict[str, np.ndarray] = {}
    if not len(px):
        return out
    mm = cam.ball_centre_to_table(px, table.ball_radius)
    for c in SPOT_COLOURS:
        sel = [i for i, n in enumerate(names) if n == c]
        if not sel:
            continue
        d = np.linalg.norm(mm[sel] - np.array(table.spots[c]), axis=1)
        k = int(np.argmin(d))
        # two balls of one spot colour near the spot: a misread colour; trust neither
        if d[k] <= SPOT_SEARCH_MM and (d <= SPOT_SEARCH_MM).sum() == 1:
            out[c] = px[sel[k]].astype(float)
    return out


def _ridge_points(gray: np.ndarray, cam: CameraModel, base_mm: np.ndarray, dir_mm: np.ndarray,
                  search_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """For each bed point ``base_mm`` (N, 2), the offset (mm) along ``dir_mm`` (N, 2 unit)
    within +-``search_mm`` where a thin bright line crosses, and its strength (contrast over
    noise; 0 where there is none). Offsets are sampled every half pixel. A point whose search
    would span more than the picture (a camera that sees the bed there edge-on or not at all:
    a poor candidate view) has none."""
    n = len(base_mm)
    z = np.zeros((n, 1))
    p0 = cam.project(np.hstack([base_mm, z]))
    p1 = cam.project(np.hstack([base_mm + dir_mm * 10.0, z]))
    px_per_mm = np.maximum(np.linalg.norm(p1 - p0, axis=1) / 10.0, 1e-3)
    offs = np.zeros(n)
    strength = np.zeros(n)
    longest_px = float(max(gray.shape[:2]))
    for i in range(n):
        if not np.isfinite(px_per_mm[i]) or 2.0 * search_mm * px_per_mm[i] > longest_px:
            continue  # the search would span more than the picture: no view of this point
        step = 0.5 / px_per_mm[i]
        s = np.arange(-search_mm, search_mm + step, step)
        pts = base_mm[i] + s[:, None] * dir_mm[i]
        q = cam.project(np.hstack([pts, np.zeros((len(s), 1))])).astype(np.float32)
        prof = cv2.remap(gray, q[:, 0:1], q[:, 1:2], cv2.INTER_LINEAR).ravel()
        k = max(2, int(round(2.5 / 0.5)))  # sides 2.5 px away
        if len(prof) < 4 * k:
            continue
        ridge = prof[k:-k] - 0.5 * (prof[:-2 * k] + prof[2 * k:])
        j = int(np.argmax(ridge))
        noise = float(np.median(np.abs(ridge - np.median(ridge)))) + 1e-3
        if ridge[j] < LINE_MIN_CONTRAST or ridge[j] < LINE_MIN_SNR * noise:
            continue
        frac = 0.0
        if 0 < j < len(ridge) - 1:
            y0, y1, y2 = ridge[j - 1], ridge[j], ridge[j + 1]
            den = y0 - 2 * y1 + y2
            frac = 0.5 * (y0 - y2) / den if abs(den) > 1e-9 else 0.0
        offs[i] = s[j + k] + frac * step
        strength[i] = ridge[j] / noise
    return offs, strength


def _smooth_inliers(t: np.ndarray, off: np.ndarray, deg: int) -> np.ndarray:
    """Inliers of a robust polynomial fit of ``off`` (mm) against ``t``."""
    keep = np.ones(len(t), bool)
    for _ in range(5):
        if keep.sum() < deg + 3:
            return np.zeros(len(t), bool)
        coef = np.polyfit(t[keep], off[keep], deg)
        r = np.abs(off - np.polyval(coef, t))
        new = r < max(LINE_OUTLIER_MM / 3, min(LINE_OUTLIER_MM, 3.0 * 1.4826 * np.median(r[keep])))
        if np.array_equal(new, keep):
            break
        keep = new
    return keep


def find_baulk_line(gray: np.ndarray, cam: CameraModel, table: TableGeometry,
                    avoid_px: np.ndarray | None = None, avoid_r: float = 0.0) -> np.ndarray:
    """Points (N, 2) px on the baulk line, or an empty array when it is not seen.

    ``avoid_px`` (M, 2): ball centres; samples within ``avoid_r`` px of one are skipped (the
    yellow, brown and green stand on the line)."""
    xs = np.linspace(40.0, table.width - 40.0, 70)
    base = np.stack([xs, np.full_like(xs, table.baulk_line)], 1)
    off, strength = _ridge_points(gray, cam, base, np.tile([0.0, 1.0], (len(xs), 1)), LINE_SEARCH_MM)
    ok = strength > 0
    pts_mm = base + np.stack([np.zeros_like(off), off], 1)
    if avoid_px is not None and len(avoid_px):
        px = cam.project(np.hstack([pts_mm, np.zeros((len(xs), 1))]))
        near = np.linalg.norm(px[:, None, :] - avoid_px[None], axis=2).min(1) < avoid_r
        ok &= ~near
    if ok.sum() < LINE_MIN_POINTS:
        return np.zeros((0, 2))
    inl = np.zeros(len(xs), bool)
    inl[ok] = _smooth_inliers(xs[ok], off[ok], 2)
    if inl.sum() < LINE_MIN_POINTS:
        return np.zeros((0, 2))
    return cam.project(np.hstack([pts_mm[inl], np.zeros((int(inl.sum()), 1))]))


def find_d_arc(gray: np.ndarray, cam: CameraModel, table: TableGeometry,
               avoid_px: np.ndarray | None = None, avoid_r: float = 0.0) -> np.ndarray:
    """Points (N, 2) px on the D's arc, or an empty array when it is not seen."""
    ang = np.linspace(math.pi + 0.3, 2 * math.pi - 0.3, 50)
    u = np.stack([np.cos(ang), np.sin(ang)], 1)
    centre = np.array([table.centre_x, table.baulk_line])
    base = centre + table.d_radius * u
    search = min(LINE_SEARCH_MM, 0.5 * table.d_radius)
    off, strength = _ridge_points(gray, cam, base, u, search)
    ok = strength > 0
    pts_mm = base + u * off[:, None]
    if avoid_px is not None and len(avoid_px):
        px = cam.project(np.hstack([pts_mm, np.zeros((len(ang), 1))]))
        near = np.linalg.norm(px[:, None, :] - avoid_px[None], axis=2).min(1) < avoid_r
        ok &= ~near
    if ok.sum() < LINE_MIN_POINTS:
        return np.zeros((0, 2))
    inl = np.zeros(len(ang), bool)
    inl[ok] = _smooth_inliers(ang[ok], off[ok], 2)
    if inl.sum() < LINE_MIN_POINTS:
        return np.zeros((0, 2))
    return cam.project(np.hstack([pts_mm[inl], np.zeros((int(inl.sum()), 1))]))


def find_markings(img: np.ndarray, cam: CameraModel, table: TableGeometry,
                  balls: tuple[np.ndarray, list[str]]) -> Markings:
    """The markings where the camera ``cam`` (roughly right) expects them; ``balls``: the
    balls found in ``img`` (centres (N, 2) px, colour names; see :data:`BallFinder`)."""
    gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 0.8)
    px, names = balls
    spots = find_spot_balls(cam, table, px, names)
    if RIM.enabled and spots:
        # the detector's centre takes in the shadow below the ball: fit the outline instead
        moved = true_centres(img, cam, np.array(list(spots.values())), table.ball_radius)
        spots = dict(zip(spots, moved, strict=True))
    # a ball's apparent radius near the baulk line, px
    c = np.array([[table.centre_x, table.baulk_line, table.ball_radius]])
    r_px = float(np.linalg.norm(cam.project(c + [table.ball_radius, 0, 0]) - cam.project(c)))
    # lines are chalked white on a match table, drawn dark on some others: both are tried,
    # the polarity that finds more of the line wins
    line, arc = np.zeros((0, 2)), np.zeros((0, 2))
    for g in (gray, 255.0 - gray):
        ln = find_baulk_line(g, cam, table, px, 1.6 * r_px + 2)
        ar = find_d_arc(g, cam, table, px, 1.6 * r_px + 2)
        if len(ln) + len(ar) > len(line) + len(arc):
            line, arc = ln, ar
    return Markings(spots, line, arc)


# ---------------------------------------------------------------------- the fit
def _faces(table: TableGeometry) -> np.ndarray:
    """Two 3-D points on each cushion-nose line (4, 2, 3): left, right, baulk, top."""
    z, w, length = table.cushion_height, table.width, table.length
    return np.array([[[0, 0, z], [0, length, z]], [[w, 0, z], [w, length, z]],
                     [[0, 0, z], [w, 0, z]], [[0, length, z], [w, length, z]]], float)


def assign_faces(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry) -> list[int]:
    """The cushion face (index into :func:`_faces`) each edge-point set lies on under ``cam``."""
    faces = [(0, 0.0), (0, table.width), (1, 0.0), (1, table.length)]
    out = []
    for e in edges:
        on = cam.image_to_plane(e, table.cushion_height)
        out.append(int(np.argmin([np.median(np.abs(on[:, ax] - v)) for ax, v in faces])))
    return out


@dataclass(frozen=True)
class FitTargets:
    """What :func:`fit_camera` fits: undistorted image points (px) and where they belong on
    the table (mm, z up), with their residual weights.

    Attributes:
        und: (N, 2) cushion-edge points; ``face``: (N,) the cushion face of each (index into
            :func:`_faces`); ``ew``: (N,) the square root of each point's side weight.
        spot_px, spot_w3: (S, 2) spot-ball centres and (S, 3) their spots at ball height.
        line_px, line_w3: (L, 2) baulk-line points and (2, 3) the line's ends.
        arc_px, arc_w3: (A, 2) D points and (121, 3) the D's arc as a polyline.
    """

    und: np.ndarray
    face: np.ndarray
    ew: np.ndarray
    spot_px: np.ndarray
    spot_w3: np.ndarray
    line_px: np.ndarray
    line_w3: np.ndarray
    arc_px: np.ndarray
    arc_w3: np.ndarray

    @property
    def n_res(self) -> int:
        """The number of residuals (each spot gives two)."""
        return len(self.und) + 2 * len(self.spot_px) + len(self.line_px) + len(self.arc_px)

    def keep_edges(self, keep: np.ndarray) -> FitTargets:
        """A copy with only the cushion-edge points where ``keep`` (N,) bool is true."""
        return FitTargets(self.und[keep], self.face[keep], self.ew[keep], self.spot_px, self.spot_w3,
                          self.line_px, self.line_w3, self.arc_px, self.arc_w3)


def fit_targets(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                 kn: tuple[float, float], marks: Markings,
                 side_weights: list[float] | None) -> FitTargets:
    """The cushion edges (sides of fewer than 3 points or weight 0 left out) and the markings,
    undistorted with ``kn``, with their places on the table."""
    size = cam.image_size
    face_of = assign_faces(cam, edges, table)
    sw = side_weights or [1.0] * len(edges)
    e_pts, e_face, e_w = [], [], []
    for e, k, wt in zip(edges, face_of, sw, strict=True):
        if len(e) < 3 or wt <= 0:
            continue
        e_pts.append(undistort_px(e, kn, size))
        e_face.append(np.full(len(e), k))
        e_w.append(np.full(len(e), math.sqrt(wt)))
    und = np.concatenate(e_pts) if e_pts else np.zeros((0, 2))
    face = np.concatenate(e_face) if e_face else np.zeros(0, int)
    ew = np.concatenate(e_w) if e_w else np.zeros(0)
    colours = list(marks.spots)
    spot_px = undistort_px(np.array([marks.spots[c] for c in colours]), kn, size) if colours else np.zeros((0, 2))
    spot_xy = np.array([table.spots[c] for c in colours], float).reshape(-1, 2)
    spot_w3 = np.column_stack([spot_xy, np.full(len(spot_xy), table.ball_radius)])
    line_px = undistort_px(marks.baulk_line, kn, size) if len(marks.baulk_line) else np.zeros((0, 2))
    line_w3 = np.array([[0, table.baulk_line, 0], [table.width, table.baulk_line, 0]], float)
    arc_px = undistort_px(marks.d_arc, kn, size) if len(marks.d_arc) else np.zeros((0, 2))
    ang = np.linspace(math.pi, 2 * math.pi, 121)
    arc_w3 = np.stack([table.centre_x + table.d_radius * np.cos(ang),
                       table.baulk_line + table.d_radius * np.sin(ang), np.zeros_like(ang)], 1)
    return FitTargets(und, face, ew, spot_px, spot_w3, line_px, line_w3, arc_px, arc_w3)


def _unpack(x: np.ndarray, cam: CameraModel, fit_focal: bool
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(K, R, t) from the parameter vector: Rodrigues rotation (3), translation (3, mm) and,
    when ``fit_focal``, the log focal length (px); else ``cam``'s focal length."""
    w, h = cam.image_size
    f = math.exp(x[6]) if fit_focal else cam.K[0, 0]
    K = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
    return K, cv2.Rodrigues(x[:3])[0], x[3:6]


def _project(K: np.ndarray, R: np.ndarray, t: np.ndarray, p3: np.ndarray) -> np.ndarray | None:
    """(N, 3) table points (mm) to (N, 2) undistorted pixels; None if any is behind or within
    1 mm of the camera."""
    c = p3 @ R.T + t
    if (c[:, 2] <= 1.0).any():
        return None
    return (c[:, :2] / c[:, 2:3]) @ K[:2, :2].T + K[:2, 2]


def _line_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signed distance (px) of each point ``p`` from the line through ``a`` and ``b``."""
    d = b - a
    n = np.stack([-d[..., 1], d[..., 0]], -1) / (np.linalg.norm(d, axis=-1, keepdims=True) + 1e-12)
    return ((p - a) * n).sum(-1)


def edge_offsets_px(cam: CameraModel, targets: FitTargets, table: TableGeometry) -> np.ndarray:
    """Signed distance (N,) px of each cushion-edge point of ``targets`` (undistorted) from
    its cushion-nose line under ``cam`` (inf where a table corner is behind the camera)."""
    pr = _project(cam.K, cam.R, cam.t, _faces(table).reshape(-1, 3))
    if pr is None:
        return np.full(len(targets.und), np.inf)
    a, b = pr[0::2], pr[1::2]
    return _line_dist(targets.und, a[targets.face], b[targets.face])


def _arc_residuals(arc_px: np.ndarray, pr: np.ndarray) -> np.ndarray:
    """Signed distance (px) of each D point from the projected arc polyline ``pr`` (dense
    enough to be smooth), weighted as a line."""
    seg_a, seg_b = pr[:-1], pr[1:]
    d = seg_b - seg_a
    tt = np.clip((((arc_px[:, None, :] - seg_a[None]) * d[None]).sum(-1)
                  / ((d * d).sum(-1)[None] + 1e-12)), 0, 1)
    near = seg_a[None] + tt[..., None] * d[None]
    dist = np.linalg.norm(arc_px[:, None, :] - near, axis=2)
    k = dist.argmin(1)
    sgn = np.sign(_line_dist(arc_px, seg_a[k], seg_b[k]))
    return dist[np.arange(len(arc_px)), k] * sgn * math.sqrt(LINE_WEIGHT)


def _residuals(x: np.ndarray, cam: CameraModel, fit_focal: bool, faces: np.ndarray,
               d: FitTargets) -> np.ndarray:
    """The fit's residuals (px, weighted) at parameters ``x``; all 1e4 when a point falls
    behind the camera."""
    K, R, t = _unpack(x, cam, fit_focal)
    parts = []
    if len(d.und):
        pr = _project(K, R, t, faces.reshape(-1, 3))
        if pr is None:
            return np.full(d.n_res, 1e4)
        a, b = pr[0::2], pr[1::2]
        parts.append(_line_dist(d.und, a[d.face], b[d.face]) * d.ew)
    if len(d.spot_px):
        pr = _project(K, R, t, d.spot_w3)
        if pr is None:
            return np.full(d.n_res, 1e4)
        parts.append(((pr - d.spot_px) * math.sqrt(SPOT_WEIGHT)).ravel())
    if len(d.line_px):
        pr = _project(K, R, t, d.line_w3)
        if pr is None:
            return np.full(d.n_res, 1e4)
        parts.append(_line_dist(d.line_px, pr[0], pr[1]) * math.sqrt(LINE_WEIGHT))
    if len(d.arc_px):
        pr = _project(K, R, t, d.arc_w3)
        if pr is None:
            return np.full(d.n_res, 1e4)
        parts.append(_arc_residuals(d.arc_px, pr))
    return np.concatenate(parts)


def fit_camera(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
               kn: tuple[float, float], marks: Markings, fit_focal: bool,
               side_weights: list[float] | None = None) -> CameraModel:
    """The camera that puts the cushion edges on the cushion-nose lines and the markings on
    the table's markings best (robust least squares over pose, and the focal length when
    ``fit_focal``; lens distortion ``kn`` as estimated).

    Args:
        cam: the starting camera (roughly right).
        edges: cushion-edge points, one (N, 2) px array per side.
        table: the table.
        kn: radial distortion normalised by the image width (see :func:`undistort_px`).
        marks: the markings to fit (may be empty: then this is a cushion-only fit).
        fit_focal: fit the focal length too.
        side_weights: a weight per edge side (1 = normal; 0 leaves the side out).

    Returns:
        the fitted camera, or ``cam`` when the fit fails or degenerates.
    """
    return fit_to_targets(cam, fit_targets(cam, edges, table, kn, marks, side_weights), table, kn,
                          fit_focal)


def fit_to_targets(cam: CameraModel, targets: FitTargets, table: TableGeometry,
                   kn: tuple[float, float], fit_focal: bool) -> CameraModel:
    """:func:`fit_camera` on targets already gathered (:func:`fit_targets`, or several
    frames' pooled by :func:`pool_targets`); ``cam`` when the fit fails or degenerates."""
    from scipy.optimize import least_squares

    w, h = cam.image_size
    faces = _faces(table)
    if targets.n_res < 8:
        return cam
    x0 = np.concatenate([cv2.Rodrigues(cam.R)[0].ravel(), cam.t])
    if fit_focal:
        x0 = np.concatenate([x0, [math.log(cam.K[0, 0])]])
    try:
        res = least_squares(_residuals, x0, loss="soft_l1", f_scale=ROBUST_SCALE_PX,
                            x_scale="jac", max_nfev=300, args=(cam, fit_focal, faces, targets))
    except (ValueError, np.linalg.LinAlgError):
        return cam
    if not np.isfinite(res.cost):
        return cam
    K, R, t = _unpack(res.x, cam, fit_focal)
    ratio = (K[0, 0] / w) ** 2
    out = CameraModel((w, h), K, np.array([kn[0] * ratio, kn[1] * ratio ** 2, 0, 0, 0]), R, t)
    z = table.cushion_height
    if out.centre[2] - z < 0.3 * (cam.centre[2] - z):
        return cam  # slid toward the table's plane: a degenerate fit
    return out


def pool_targets(parts: list[FitTargets]) -> FitTargets:
    """Several frames' targets (of one fixed camera) as one: their points side by side."""
    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(p, name) for p in parts])

    first = parts[0]
    return FitTargets(cat("und"), cat("face").astype(int), cat("ew"), cat("spot_px"), cat("spot_w3"),
                       cat("line_px"), first.line_w3, cat("arc_px"), first.arc_w3)


def residual_rms(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                 kn: tuple[float, float], marks: Markings,
                 side_weights: list[float] | None = None) -> float:
    """The root mean square (px, weighted as in :func:`fit_camera`) of what ``cam`` leaves
    of the cushion edges and the markings: how well it explains the picture."""
    return targets_rms(cam, fit_targets(cam, edges, table, kn, marks, side_weights), table)


def targets_rms(cam: CameraModel, targets: FitTargets, table: TableGeometry) -> float:
    """:func:`residual_rms` on targets already gathered."""
    if targets.n_res == 0:
        return float("nan")
    x = np.concatenate([cv2.Rodrigues(cam.R)[0].ravel(), cam.t])
    res = _residuals(x, cam, False, _faces(table), targets)
    return float(np.sqrt(np.mean(res ** 2)))


# ---------------------------------------------------------------------- errors
def marking_errors(cam: CameraModel, table: TableGeometry, marks: Markings) -> dict[str, float]:
    """Each marking's error under ``cam``, mm: a spot ball's distance from its spot (its
    found centre, the centre of its outline, taken at a ball's centre height); the median
    distance of the baulk-line points from the baulk line; of the D points from the arc."""
    out: dict[str, float] = {}
    for c, p in marks.spots.items():
        spot = np.array(table.spots[c], float)
        m = cam.image_to_plane(p[None], table.ball_radius)[0]
        out[f"spot:{c}"] = float(np.linalg.norm(m - spot))
    if len(marks.baulk_line):
        m = cam.image_to_plane(marks.baulk_line, 0.0)
        out["baulk_line"] = float(np.median(np.abs(m[:, 1] - table.baulk_line)))
    if len(marks.d_arc):
        m = cam.image_to_plane(marks.d_arc, 0.0)
        r = np.hypot(m[:, 0] - table.centre_x, m[:, 1] - table.baulk_line)
        out["d_arc"] = float(np.median(np.abs(r - table.d_radius)))
    return out


def holdout(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
            kn: tuple[float, float], marks: Markings, fit_focal: bool,
            side_weights: list[float] | None = None) -> dict[str, float]:
    """Leave-one-out: for each marking, the camera fitted without it (cushions and the other
    markings), and that marking's error under it (mm). The markings are independent of one
    another (a ball on its spot, a painted line): what this measures is how far a point the
    fit did not see lands from the table's truth."""
    out: dict[str, float] = {}
    for g in marks.groups:
        cam_g = fit_camera(cam, edges, table, kn, marks.without(g), fit_focal, side_weights)
        out[g] = marking_errors(cam_g, table, marks)[g]
    return out
