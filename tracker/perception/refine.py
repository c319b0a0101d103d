"""Sub-pixel ball centres: the centroid of a ball's difference from the cloth, and, for a ball
nearly the cloth's colour, the disc of its radius most like its colour
(:class:`tracker.perception.params.RefineParams`)."""

from __future__ import annotations

import cv2
import numpy as np

from tracker.perception.colour import feature
from tracker.perception.geometry import TableView
from tracker.perception.params import RefineParams


def cloth_at(cloth_map: np.ndarray, scale: float, x: float, y: float) -> np.ndarray:
    """The cloth's Lab colour (3,) float32 under the full-resolution point (x, y) (the working
    scale's pixel there, clamped to the map): light falls off toward the far end."""
    mh, mw = cloth_map.shape[:2]
    return cloth_map[min(mh - 1, max(0, int(y * scale))),
                     min(mw - 1, max(0, int(x * scale)))].astype(np.float32)


def refine(view: TableView, cloth_map: np.ndarray, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
    """Sub-pixel centres (N, 2) of the balls near ``px`` (N, 2): see :func:`refine_share`."""
    return refine_share(view, cloth_map, frame, px)[0]


def refine_share(view: TableView, cloth_map: np.ndarray, frame: np.ndarray,
                 px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sub-pixel centres: the centroid of the non-cloth pixels within 1.15 radii, at full
    resolution, weighted (0..1) by how far from the cloth colour they are.

    Returns:
        (centres (N, 2) full-resolution px, share (N,): the weights' sum over the disc of
        1.15 radii round the last centroid, as a share of that disc's pixels; 1 where
        the disc is cut by the frame's edge or holds almost no weight (no refinement))."""
    h, w = frame.shape[:2]
    out = px.copy()
    share = np.ones(len(px))
    radii = view.radius_at(px)
    for i, (x, y) in enumerate(px):
        r = float(radii[i])
        R = int(np.ceil(1.3 * r))
        c = cloth_at(cloth_map, view.scale, x, y)
        dark, light = c[0] * 0.6, c[0] + 40
        own = (1.15 * r) ** 2
        seen: tuple[int, int, np.ndarray] | None = None  # the last patch's corner, weights
        for _ in range(2):
            x0, y0 = int(round(x)) - R, int(round(y)) - R
            x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                break
            if seen is not None and seen[0] == x0 and seen[1] == y0:
                wgt = seen[2].copy()  # the same patch again: the same colour weights
            else:
                # how far from the cloth: chroma, darker than its shadows, brighter
                # than its highlights; weights 0..1 from 12 to 32 levels (in place)
                lum, a, b = (p.astype(np.float32) for p in
                             cv2.split(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)))
                d = np.abs(a - c[1])
                d += np.abs(b - c[2])
                d += np.maximum(0, dark - lum)
                d += np.maximum(0, lum - light)
                d -= 12.0
                d /= 20.0
                wgt = np.minimum(np.maximum(d, 0), 1)
                seen = (x0, y0, wgt.copy())
            xx = np.arange(x0, x1)[None, :]
            yy = np.arange(y0, y1)[:, None]
            d_own = (xx - x) ** 2 + (yy - y) ** 2
            in_disc = d_own <= own
            wgt *= in_disc
            # in a cluster, a pixel nearer another ball's centre belongs to that ball
            for j in np.nonzero(np.abs(out[:, 0] - x) + np.abs(out[:, 1] - y) < 3 * r)[0]:
                if j != i:
                    wgt *= d_own <= (xx - out[j, 0]) ** 2 + (yy - out[j, 1]) ** 2
            s = wgt.sum()
            if s < 1:
                break
            share[i] = s / max(1, int(in_disc.sum()))
            x, y = (wgt * xx).sum() / s, (wgt * yy).sum() / s
        out[i] = (x, y)
    return out, share


def fit_discs(view: TableView, cloth_map: np.ndarray, protos: np.ndarray, frame: np.ndarray,
              px: np.ndarray, cls: np.ndarray, which: np.ndarray,
              params: RefineParams) -> np.ndarray:
    """Centres (N, 2) with those marked by ``which`` (N,) moved to the disc of their local
    radius, within ``params.disc_fit_reach_radii`` of where they were, whose pixels are most
    like their class ``cls`` (N,) (its prototype, a row of ``protos`` (8, 5)) rather than the local
    cloth: per pixel, squared feature distance to the cloth minus that to the class
    prototype, clipped to ``disc_fit_clip``; a pixel nearer another centre and more
    like that one's class belongs to that ball (a blue touching the green; not the dark
    shadow beside it, should that have been taken for a ball too). Full-resolution px,
    to a tenth of a pixel (a parabola through the best disc and its neighbours)."""
    out = px.copy()
    h, w = frame.shape[:2]
    radii = view.radius_at(px)
    mh, mw = cloth_map.shape[:2]
    for i in np.nonzero(which)[0]:
        r = float(radii[i])
        reach = params.disc_fit_reach_radii * r
        H = int(np.ceil(r + reach)) + 2
        x, y = int(round(px[i, 0])), int(round(px[i, 1]))
        if x - H < 0 or y - H < 0 or x + H >= w or y + H >= h:
            continue
        patch = frame[y - H:y + H + 1, x - H:x + H + 1]
        f = feature(patch.reshape(-1, 3)).reshape(patch.shape[0], patch.shape[1], -1)
        lab = cloth_map[min(mh - 1, int(y * view.scale)), min(mw - 1, int(x * view.scale))]
        cloth_bgr = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8).reshape(1, 1, 3),
                                 cv2.COLOR_LAB2BGR)
        cloth = feature(cloth_bgr.reshape(1, 3))[0]
        own = ((f - protos[cls[i]]) ** 2).sum(-1)
        vote = np.clip(((f - cloth) ** 2).sum(-1) - own, -params.disc_fit_clip, params.disc_fit_clip)
        vote = vote.astype(np.float32)
        yy, xx = np.mgrid[y - H:y + H + 1, x - H:x + H + 1]
        d_own = (xx - px[i, 0]) ** 2 + (yy - px[i, 1]) ** 2
        for j in np.nonzero(np.abs(px[:, 0] - px[i, 0]) + np.abs(px[:, 1] - px[i, 1]) < 4 * r)[0]:
            if j != i:  # (of the same class: every pixel nearer it)
                nearer = (xx - px[j, 0]) ** 2 + (yy - px[j, 1]) ** 2 < d_own
                if cls[j] != cls[i]:
                    nearer &= ((f - protos[cls[j]]) ** 2).sum(-1) < own
                vote[nearer] = -params.disc_fit_clip
        k = int(np.ceil(r))
        dy, dx = np.mgrid[-k:k + 1, -k:k + 1]
        disc = np.clip(r + 0.5 - np.hypot(dx, dy), 0, 1).astype(np.float32)  # anti-aliased
        score = cv2.filter2D(vote, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
        score[d_own > reach * reach] = -np.inf
        iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
        out[i] = (xx[iy, ix] + vertex(score[iy, ix - 1:ix + 2]),
                  yy[iy, ix] + vertex(score[iy - 1:iy + 2, ix]))
    return out


def vertex(three: np.ndarray) -> float:
    """Offset (px, within half a pixel) of the top of the parabola through three values
    a pixel apart, from the middle one; 0 where they are not three finite values with the
    middle one highest."""
    if len(three) != 3 or not np.isfinite(three).all():
        return 0.0
    a, b, c = (float(v) for v in three)
    den = a - 2 * b + c
    if den >= 0 or b < a or b < c:
        return 0.0
    return float(np.clip(0.5 * (a - c) / den, -0.5, 0.5))
