"""Where balls may be in one frame, before any colour is judged: the foreground's blobs of one
ball's size, circles split from blobs of touching balls, motion-blur streaks, the balls the
circles leave uncovered, and the faint balls the mask misses; each centre refined on the
full-resolution frame (:func:`find_candidates`, returning :class:`Candidates`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from tracker.perception.castshadow import without_cast_shadows
from tracker.perception.cloth import Cloth, Foreground
from tracker.perception.faint import faint_balls, refine_faint
from tracker.perception.geometry import TableView
from tracker.perception.params import CandidateParams, DetectorParams
from tracker.perception.refine import refine_share

#: A blob of several balls: (x, y) its box's corner, its mask (h, w) bool in that box, and the
#: local ball radius, working-scale px.
Blob = tuple[int, int, np.ndarray, float]


@dataclass
class Candidates:
    """Where balls may be in one frame (N places).

    Attributes:
        px: (N, 2) full-resolution image centres.
        in_cluster: (N,) bool: split from a blob of touching balls.
        faint: (N,) bool: found by the faint-ball search.
        low_contrast: (N,) bool: hardly differing from the cloth (placed by their colour once
            it is judged: :func:`tracker.perception.refine.fit_discs`).
        fg: uint8 0/1 the frame's non-cloth mask, working scale.
        blobs: the blobs of several balls (not a ball's blur streak), working-scale px, which
            the learned judge searches again.
    """

    px: np.ndarray
    in_cluster: np.ndarray
    faint: np.ndarray
    low_contrast: np.ndarray
    fg: np.ndarray
    blobs: list[Blob] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.px)

    def moved(self, x0: int, y0: int, inv: int) -> Candidates:
        """These candidates of a box whose corner is (x0, y0) working-scale px in the whole
        picture (``inv`` full-resolution px per working-scale px), in the whole picture's
        pixels (``fg`` stays the box's)."""
        return Candidates(self.px + np.array([x0 * inv, y0 * inv], float), self.in_cluster,
                          self.faint, self.low_contrast, self.fg,
                          [(x + x0, y + y0, sub, r) for x, y, sub, r in self.blobs])

    def __getitem__(self, mask: np.ndarray) -> Candidates:
        return Candidates(self.px[mask], self.in_cluster[mask], self.faint[mask],
                          self.low_contrast[mask], self.fg, self.blobs)

    @staticmethod
    def merge(parts: Sequence[Candidates], fg: np.ndarray) -> Candidates:
        """The candidates of ``parts`` one after another (every part's blobs), with the
        frame's mask ``fg``."""
        if not parts:
            return Candidates(np.zeros((0, 2)), np.zeros(0, bool), np.zeros(0, bool),
                              np.zeros(0, bool), fg)
        return Candidates(np.concatenate([p.px for p in parts]),
                          np.concatenate([p.in_cluster for p in parts]),
                          np.concatenate([p.faint for p in parts]),
                          np.concatenate([p.low_contrast for p in parts]), fg,
                          [b for p in parts for b in p.blobs])


def find_candidates(view: TableView, cloth: Cloth, frame: np.ndarray, small: np.ndarray,
                    fg: Foreground, params: DetectorParams) -> Candidates:
    """Where balls may be in one BGR frame (full resolution), given its working-scale picture
    ``small`` and that picture's foreground ``fg`` (:meth:`Cloth.foreground`), less the
    cast shadows beside balls (:func:`tracker.perception.castshadow.without_cast_shadows`)."""
    fg = without_cast_shadows(view, cloth.maps(), fg, frame, params.shadows)
    blobs: list[Blob] = []
    n, lab, stats, cents = cv2.connectedComponentsWithStats(fg.mask, 8)
    on_rim = np.bincount(lab[view.rim], minlength=n)
    on_edge = np.bincount(lab[cloth.edge], minlength=n)
    r_local = view.working_radius_at(cents)
    centres: list[np.ndarray] = []
    in_cluster: list[bool] = []
    for k in range(1, n):
        found = _blob_balls(view, frame, fg, lab, stats[k], k, cents[k], float(r_local[k]),
                            on_rim[k], on_edge[k], blobs, params)
        for c, flag in found:
            centres.append(c)
            in_cluster.append(flag)
    faint = (faint_balls(view, cloth, fg, lab, stats, centres, params.faint)
             if params.faint.enabled else np.zeros((0, 2)))
    is_faint = np.array([False] * len(centres) + [True] * len(faint), bool)
    low_contrast = np.zeros(len(is_faint), bool)
    if not centres and not len(faint):
        return Candidates(np.zeros((0, 2)), np.zeros(0, bool), is_faint, low_contrast, fg.mask,
                          blobs)
    px, share = (refine_share(view, cloth.cloth_map, frame, np.array(centres) / view.scale)
                 if centres else (np.zeros((0, 2)), np.zeros(0)))
    # (a faint ball differs from the cloth too little to make the mask: low contrast)
    low_contrast[:len(px)] = share < params.refine.low_contrast_share
    low_contrast[len(px):] = True
    if len(faint):
        px = np.concatenate([px, refine_faint(view, cloth.cloth_map, frame, faint / view.scale,
                                              params.faint)])
    return Candidates(px, np.array(in_cluster + [False] * len(faint), bool), is_faint,
                      low_contrast, fg.mask, blobs)


def _blob_balls(view: TableView, frame: np.ndarray, fg: Foreground, lab: np.ndarray,
                st: np.ndarray, k: int, cent: np.ndarray, r: float, on_rim: int, on_edge: int,
                blobs: list[Blob], params: DetectorParams) -> list[tuple[np.ndarray, bool]]:
    """The balls (working-scale centre, split from a cluster?) in blob ``k`` of the labels
    ``lab`` (its stats ``st``, centroid ``cent``, local radius ``r`` working-scale px, and how
    many of its pixels lie on the region's rim and on the fixtures' edge); a blob of several
    balls is added to ``blobs``."""
    area = st[cv2.CC_STAT_AREA]
    area1 = np.pi * r * r
    if (on_rim > 3 * r and area > 1.5 * area1) or (on_edge > 3 * r and area > 4 * area1):
        # reaches in from outside the table (over the rim, or from fixtures masked
        # beside the bed, which a row of balls along a cushion also touches: only a
        # blob bigger than such a row counts): an occluder, not balls
        return []
    if area < 0.3 * area1 or min(st[cv2.CC_STAT_WIDTH], st[cv2.CC_STAT_HEIGHT]) < 0.9 * r:
        return []  # too small, or a thin line (cushion shadow, cue, chalk streak)
    if area <= 1.5 * area1:
        w_, h_ = st[cv2.CC_STAT_WIDTH], st[cv2.CC_STAT_HEIGHT]
        if max(w_, h_) <= 2.6 * r:
            return [(cent, False)]
    x, y, w_, h_ = st[:4]
    sub = (lab[y:y + h_, x:x + w_] == k)
    if fg.dark[y:y + h_, x:x + w_][sub].mean() > 0.5 and area > 4 * area1:
        return []  # a player's body or arm (dark, wide): an occluder, not balls
    if area > 24 * area1:
        return []  # bigger than the full pack with balls touching it: a player's head
        # or shoulder leaning over the table, whatever its colour
    # touching balls show two or more sharp circles; a ball smeared by motion blur
    # shows none, only a convex streak one ball wide
    circles = cluster_circles(frame, view.scale, x, y, w_, h_, sub, r / view.scale)
    split = len(circles) >= 2
    blur = None if split else blurred_ball(sub, r, area1)
    if blur is not None:
        return [(blur + np.array([x, y], float), False)]
    # blobs of several balls: the learned judge searches them too (touching balls a few px
    # across show no sharp circles); not a ball's blur streak
    blobs.append((x, y, sub, r))
    # a ball the circle transform missed beside those it found (a dim ball touching a
    # bright one): a ball-sized part of the blob they leave uncovered
    more = (uncovered_balls(sub, [c - [x, y] for c in circles], r,
                            params.candidates.uncovered_min_radii) if circles else [])
    circles += [m + np.array([x, y], float) for m in more]
    return [(c, split or bool(more)) for c in circles]


def blurred_ball(sub: np.ndarray, r: float, area1: float) -> np.ndarray | None:
    """Centre of a blob that is one moving ball smeared by motion blur (a convex streak
    one ball wide), or None."""
    area = sub.sum()
    if area > 5 * area1:
        return None
    cnts, _ = cv2.findContours(sub.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return None
    c = max(cnts, key=cv2.contourArea)
    if len(c) < 5:
        return None
    (cx, cy), (a1, a2), _ = cv2.minAreaRect(c)
    minor, major = min(a1, a2), max(a1, a2)
    hull_area = cv2.contourArea(cv2.convexHull(c))
    solidity = cv2.contourArea(c) / hull_area if hull_area > 0 else 0
    if 1.4 * r <= minor <= 2.6 * r and major > minor * 1.2 and solidity > 0.88:
        return np.array([cx, cy])
    return None


def cluster_circles(frame: np.ndarray, scale: float, x: int, y: int, w_: int, h_: int,
                    sub: np.ndarray, r: float) -> list[np.ndarray]:
    """Ball centres (downscaled px) in a blob of touching balls: circles of about radius
    ``r`` (full-resolution px) found by the gradient Hough transform on the
    full-resolution grey image, kept when their disc is mostly foreground."""
    s = scale
    m = int(r)
    X0, Y0 = max(0, int(x / s) - m), max(0, int(y / s) - m)
    X1 = min(frame.shape[1], int((x + w_) / s) + m)
    Y1 = min(frame.shape[0], int((y + h_) / s) + m)
    gray = cv2.cvtColor(frame[Y0:Y1, X0:X1], cv2.COLOR_BGR2GRAY)
    circles = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=1.6 * r, param1=80,
                               param2=max(6, int(0.6 * r)), minRadius=int(0.75 * r),
                               maxRadius=int(1.3 * r) + 1)
    out: list[np.ndarray] = []
    if circles is None:
        return out
    for cx, cy, _ in circles[0]:
        sx, sy = (cx + X0) * s - x, (cy + Y0) * s - y
        xi, yi = int(round(sx)), int(round(sy))
        rr = max(1, int(0.6 * r * s))
        win = sub[max(0, yi - rr):yi + rr + 1, max(0, xi - rr):xi + rr + 1]
        if win.size and win.mean() > 0.7:
            out.append(np.array([sx + x, sy + y]))
    return out


def uncovered_balls(sub: np.ndarray, found: list[np.ndarray], r: float,
                    min_radii: float = CandidateParams().uncovered_min_radii) -> list[np.ndarray]:
    """Centres (x, y) px in ``sub``'s frame of balls of radius ``r`` px inside the blob mask
    ``sub`` (bool (h, w)) left uncovered by the discs of radius ``r`` around the ``found``
    centres (each (2,) px, same frame): peaks of the uncovered part's distance to its edge of
    at least ``min_radii`` radii, a diameter apart."""
    left = sub.astype(np.uint8).copy()
    for cx, cy in found:
        cv2.circle(left, (int(round(cx)), int(round(cy))), int(round(r)), 0, -1)
    if not left.any():
        return []
    dist = cv2.distanceTransform(np.pad(left, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    return peaks(dist, min_radii * r, 2.0 * r)


def peaks(dist: np.ndarray, min_value: float, min_sep: float) -> list[np.ndarray]:
    """Local maxima of a distance transform, greedily separated by ``min_sep`` px."""
    k = max(3, int(min_sep) | 1)
    dil = cv2.dilate(dist, np.ones((k, k), np.uint8))
    ys, xs = np.nonzero((dist >= dil - 1e-6) & (dist >= min_value))
    order = np.argsort(-dist[ys, xs])
    chosen: list[np.ndarray] = []
    for i in order:
        p = np.array([xs[i], ys[i]], float)
        if all(np.linalg.norm(p - q) >= min_sep for q in chosen):
            chosen.append(p)
    return chosen
