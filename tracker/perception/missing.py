"""The missing-ball search on a still: a unique colour the candidates missed (a green ball on
a blue-green cloth differs from it in saturation more than in hue) looked for where it may
be, by the colour judge's prototypes or by the learned judge's network."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from tracker.perception.colour import feature
from tracker.perception.constraint import SURE_CONF
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.refine import fit_discs, refine, refine_share

#: The detector whose parts this works with (:class:`tracker.perception.detect.BallDetector`),
#: named, not imported: detect imports this module (no import cycle, not even for types).
BallDetector = Any


def find_missing_colour(d: BallDetector, frame: np.ndarray, det: BallDetections,
                        classes: list[int], max_cost: float) -> BallDetections:
    """Look for balls of the given classes (indices into :data:`CLASSES`) that the
    cloth-difference mask missed: a green ball on a blue-green cloth differs from it in
    saturation more than in hue. For each class, the disc of 0.6 ball radii whose pixels
    are, on average, nearest that class's prototype is a ball of it when the mean cost is
    under ``max_cost`` and it lies clear of every detection. Returns ``det`` with those
    balls added (the colour judge's search)."""
    view = d.view
    small = cv2.resize(frame, view.small, interpolation=cv2.INTER_AREA)
    feats = feature(small.reshape(-1, 3)).reshape(small.shape[0], small.shape[1], -1)
    r = view.r_px * view.scale
    k = max(3, int(1.2 * r) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).astype(np.float32)
    disc /= disc.sum()
    allowed = (view.region & (1 - d.cloth.static)).astype(bool)
    found_px, found_cls = [], []
    for c in classes:
        cost = ((feats - d.protos[c]) ** 2).sum(-1)
        mean = cv2.filter2D(cost, -1, disc, borderType=cv2.BORDER_REPLICATE)
        mean[~allowed] = np.inf
        for p in det.px * view.scale:
            cv2.circle(mean, (int(p[0]), int(p[1])), int(1.6 * r), np.inf, -1)
        y, x = np.unravel_index(np.argmin(mean), mean.shape)
        if mean[y, x] < max_cost:
            # the centre: centroid of the pixels of this colour within a radius and a half
            # (the cheapest disc leans toward the lit side)
            cx, cy = float(x), float(y)
            for _ in range(2):
                x0, y0 = max(0, int(cx - 1.5 * r)), max(0, int(cy - 1.5 * r))
                win = cost[y0:int(cy + 1.5 * r) + 1, x0:int(cx + 1.5 * r) + 1]
                yy, xx = np.mgrid[y0:y0 + win.shape[0], x0:x0 + win.shape[1]]
                m = (win < 3 * max_cost) & ((xx - cx) ** 2 + (yy - cy) ** 2 <= (1.5 * r) ** 2)
                if m.sum() < 3:
                    break
                cx, cy = float(xx[m].mean()), float(yy[m].mean())
            found_px.append((cx / view.scale, cy / view.scale))
            found_cls.append(c)
    if not found_px:
        return det
    px = np.array(found_px, float)
    # a ball hardly differing from the cloth (a green on a blue-green cloth: what this
    # search is for): its colour's centroid leans toward its lit side, so it is placed
    # by the disc of its colour (a black in a pocket's jaws is not: its disc would take
    # in the hole)
    n = len(det)
    low = refine_share(view, d.cloth.cloth_map, frame, px)[1] < d.params.refine.low_contrast_share
    px = fit_discs(view, d.cloth.cloth_map, d.protos, frame, np.concatenate([det.px, px]),
                   np.concatenate([det.cls, found_cls]).astype(int), np.r_[np.zeros(n, bool), low],
                   d.params.refine)[n:]
    probs = np.zeros((len(px), len(CLASSES)))
    probs[np.arange(len(px)), found_cls] = 1.0
    return BallDetections.merge([det, d.detections(px, np.array(found_cls), np.full(len(px), SURE_CONF),
                                                   probs, d.colour_features(frame, px))],
                                det.occupancy)


def find_missing_learned(d: BallDetector, classifier: Any, frame: np.ndarray,
                         det: BallDetections, classes: list[int]) -> BallDetections:
    """:func:`find_missing_colour` with the learned classifier: the places the candidates passed
    over as too small (a green ball on green cloth shows only its highlight as non-cloth)
    are judged by the network, at the spot and a little below it (the centre lies below
    the highlight); each missing class takes the place most likely its colour when that
    is at least ``missing_min_prob`` and it is a ball (``max_none``; :class:`tracker.perception.params.LearnedParams`),
    clear of every detection by 1.6 radii."""
    view, p = d.view, d.params.learned
    small = cv2.resize(frame, view.small, interpolation=cv2.INTER_AREA)
    fine = d.cloth.foreground(small, opened=False).mask
    n, _, stats, cents = cv2.connectedComponentsWithStats(fine, 8)
    if n <= 1:
        return det
    pts = cents[1:] / view.scale
    r = view.radius_at(pts)
    pts = np.concatenate([pts, pts + np.c_[np.zeros(len(pts)), p.highlight_drop_radii * r]])
    r = view.radius_at(pts)
    if len(det):
        clear = np.linalg.norm(pts[:, None] - det.px[None], axis=2).min(1) >= 1.6 * r
        pts, r = pts[clear], r[clear]
    ok = (view.can_hold(view.cal.ball_to_table(pts), d.params.candidates.hold_slack_radii)
          if len(pts) else np.zeros(0, bool))
    pts, r = pts[ok], r[ok]
    if not len(pts):
        return det
    p9 = classifier.classify(frame, pts, r)
    p9 = np.where((p9[:, -1] < p.max_none)[:, None], p9, 0.0)
    found, cls = [], []
    for c in classes:
        i = int(np.argmax(p9[:, c]))
        if p9[i, c] >= p.missing_min_prob and all(
                np.linalg.norm(pts[i] - q) >= 1.6 * r[i] for q in found):
            found.append(pts[i])
            cls.append(c)
    if not found:
        return det
    px = refine(view, d.cloth.cloth_map, frame, np.array(found, float))
    p9 = classifier.classify(frame, px, view.radius_at(px))
    probs = p9[:, :-1] / np.maximum(p9[:, :-1].sum(1, keepdims=True), 1e-6)
    cls = np.array(cls)
    return BallDetections.merge([det, d.detections(px, cls, probs[np.arange(len(px)), cls], probs,
                                                   d.colour_features(frame, px))], det.occupancy)
