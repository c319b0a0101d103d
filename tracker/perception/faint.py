"""The search for balls whose colour is close to the cloth's (a green ball on a blue-green or
green cloth): the non-cloth mask misses them, a disc's mean difference from the cloth map
finds them (:class:`tracker.perception.params.FaintParams`)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.perception.cloth import Cloth, Foreground, faint_clearance
from tracker.perception.geometry import TableView
from tracker.perception.params import FaintParams
from tracker.perception.refine import cloth_at


def faint_balls(view: TableView, cloth: Cloth, fg: Foreground, labels: np.ndarray,
                stats: np.ndarray, centres: list[np.ndarray], params: FaintParams) -> np.ndarray:
    """Centres (M, 2), working-scale px, of balls the non-cloth mask misses because their
    colour is close to the cloth's (a green ball on a blue-green or green cloth: it differs
    in lightness more than in chroma, lighter where a lamp shines on it, darker in
    shade): ball-sized discs whose mean difference from the cloth map reaches ``params.score``
    (see :class:`tracker.perception.params.FaintParams`), clear of the cushions' shadowed faces, of the
    fixtures, of the balls found (``centres``, working-scale px, with their shadows) and of
    the mask's blobs bigger than two balls (``labels``, ``stats`` of ``fg.mask``: players,
    arms, cues), and of the light or dark strokes ``fg`` found."""
    if cloth.cloth_map is None:
        return np.zeros((0, 2))
    maps = cloth.maps()
    r = view.r_px * view.scale
    clear = faint_clearance(r)
    big = np.nonzero(stats[:, cv2.CC_STAT_AREA] > 2.0 * np.pi * r * r)[0]
    big = big[big > 0]
    # clear of the fixtures and of the bed's edges (made once: :meth:`Cloth.maps`), of the
    # big blobs and of the balls found
    allowed = maps.faint_allowed.copy()
    # the big blobs and the light or dark strokes, kept clear of by one dilation of both
    # (a dilation of a union is the union of the dilations)
    avoid = None
    if len(big):
        is_big = np.zeros(len(stats), np.uint8)
        is_big[big] = 1
        avoid = is_big[labels]
    strokes = fg.strokes
    if strokes is not None:
        avoid = strokes.astype(np.uint8) if avoid is None else avoid | strokes
    if avoid is not None:
        allowed &= ~cv2.dilate(avoid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                               (clear, clear))).astype(bool)
    if centres:
        near = np.zeros(fg.mask.shape, np.uint8)
        for cx, cy in centres:
            cv2.circle(near, (int(round(cx)), int(round(cy))), int(np.ceil(2.5 * r)), 1, -1)
        allowed &= ~near.astype(bool)
    if not allowed.any():
        return np.zeros((0, 2))
    lab_l, lab_a, lab_b = (p.astype(np.float32) for p in fg.lab)
    score = (np.abs(lab_l - maps.cloth_lf) / maps.light_den / params.lightness
             + (np.abs(lab_a - maps.cloth_af) + np.abs(lab_b - maps.cloth_bf)) / params.chroma)
    k = max(3, int(1.4 * r) | 1)
    # the disc mean at an allowed pixel is a weighted mean of the scores within k // 2 px
    # (the border replicated: nearer still): none of them near the score, no peak can
    # reach it (the margin covers the float rounding of the mean)
    reach = cv2.dilate(allowed.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    if score[reach].max() < params.score * (1.0 - 1e-5):
        return np.zeros((0, 2))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).astype(np.float32)
    mean = cv2.filter2D(score, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
    # local maxima of the disc mean; a ball's is a compact peak: where the mean stays
    # above half the peak (a radius around it, grown by the disc) is under three radii
    # across, where a line or a pool of light spreads further
    win = max(3, int(2 * r) | 1)
    peak = (mean >= cv2.dilate(mean, np.ones((win, win), np.uint8))) & (mean >= params.score) & allowed
    out: list[tuple[float, float]] = []
    h, w = mean.shape
    m = int(np.ceil(3 * r))
    for y, x in zip(*np.nonzero(peak), strict=True):
        if any(abs(x - a) < 2 * r and abs(y - b) < 2 * r for a, b in out):
            continue
        y0, y1, x0, x1 = max(0, y - m), min(h, y + m + 1), max(0, x - m), min(w, x + m + 1)
        half = (mean[y0:y1, x0:x1] >= 0.5 * mean[y, x]).astype(np.uint8)
        _, lab_, st, _ = cv2.connectedComponentsWithStats(half, 8)
        j = lab_[y - y0, x - x0]
        if max(st[j, 2], st[j, 3]) > 3.0 * r + k or st[j, 0] == 0 or st[j, 1] == 0 \
                or st[j, 0] + st[j, 2] == x1 - x0 or st[j, 1] + st[j, 3] == y1 - y0:
            continue  # a line, a strip or a patch of light: not a ball
        yy, xx = np.mgrid[y0:y1, x0:x1]
        wgt = np.where((xx - x) ** 2 + (yy - y) ** 2 <= r * r, mean[y0:y1, x0:x1], 0.0)
        out.append((float((wgt * xx).sum() / wgt.sum()), float((wgt * yy).sum() / wgt.sum())))
    return np.array(out, float).reshape(-1, 2)


def refine_faint(view: TableView, cloth_map: np.ndarray, frame: np.ndarray, px: np.ndarray,
                 params: FaintParams) -> np.ndarray:
    """Full-resolution centres (N, 2) of faint balls found at ``px`` (N, 2): the centroid
    of their difference from the cloth (as in :func:`faint_balls`) within 1.2 radii (the
    contact shadow around the ball is even on all sides)."""
    h, w = frame.shape[:2]
    out = px.copy()
    radii = view.radius_at(px)
    for i, (x, y) in enumerate(px):
        r = float(radii[i])
        R = int(np.ceil(1.5 * r))
        c = cloth_at(cloth_map, view.scale, x, y)
        for _ in range(2):
            x0, y0 = int(round(x)) - R, int(round(y)) - R
            x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                break
            lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
            score = (np.abs(lab[..., 0] - c[0]) / max(float(c[0]), 1.0) / params.lightness
                     + (np.abs(lab[..., 1] - c[1]) + np.abs(lab[..., 2] - c[2])) / params.chroma)
            yy, xx = np.mgrid[y0:y1, x0:x1]
            wgt = np.maximum(score - 1.0, 0.0) * (((xx - x) ** 2 + (yy - y) ** 2) <= (1.2 * r) ** 2)
            if wgt.sum() < 1e-6:
                break
            x, y = float((wgt * xx).sum() / wgt.sum()), float((wgt * yy).sum() / wgt.sum())
        out[i] = (x, y)
    return out
