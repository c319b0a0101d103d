"""Cast shadows beside balls: taken out of a frame's foreground before balls are looked for.

A lamp off to one side casts each ball's shadow on the cloth beside it, away from the lamp:
a patch of the cloth's own colour, darker (its Lab chroma a shrunken copy of the cloth's,
maybe greyer), with no specular highlight. Left in the foreground it joins its ball into a
blob two balls long, which the candidate search splits into the ball and a second "ball"
that reads as a dark green (or, once colours are learned from it, as the cue ball), or
centres a green ball on its shadow.

A real ball of the cloth's colour (the green on a green cloth, whose body is darkened cloth
too) shows the lamps' highlight; a black ball is darker than any cast shadow. So, in each
blob of the foreground no bigger than a few balls that holds something other than
cast-shadow pixels (a ball beside them) or a highlight, the cast-shadow pixels farther than
``keep_radii`` from every highlight are no longer foreground (:func:`without_cast_shadows`),
when they lie beside the rest (a dark pool ball round its lighter number does not). A blob
that is all shadow-coloured with no highlight (a black or green ball the lamps do not catch)
is left as it is. Tunables: :class:`tracker.perception.params.CastShadowParams`.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tracker.perception.cloth import ClothMaps, Foreground
from tracker.perception.geometry import TableView
from tracker.perception.params import CastShadowParams


def shadow_coloured(lab: tuple[np.ndarray, np.ndarray, np.ndarray],
                    cloth: tuple[np.ndarray, np.ndarray, np.ndarray],
                    params: CastShadowParams) -> np.ndarray:
    """Bool, the shape of the arrays: pixels coloured as the cloth in a cast shadow.
    ``lab``: the pixels' Lab channels (8-bit levels); ``cloth``: the cloth's there (any
    arrays of one shape, e.g. a picture's or its foreground pixels').

    Such a pixel is darker than the cloth (lightness between ``min_light`` and ``max_light``
    of the cloth's) and its chroma (a, b less the neutral 128) lies on the line from neutral
    to the cloth's chroma, on the cloth's side, within ``max_off_line`` plus
    ``off_line_share`` of its own chroma (a shadow keeps the cloth's hue, its colour
    shrunken by the darkening and the lamps' grey)."""
    light, a, b = (np.asarray(c, np.float32) for c in lab)
    cl, ca, cb = (np.asarray(c, np.float32) for c in cloth)
    ratio = light / np.maximum(cl, 1.0)
    ca, cb = ca - 128.0, cb - 128.0
    pa, pb = a - 128.0, b - 128.0
    c2 = np.maximum(ca * ca + cb * cb, 1.0)
    lam = (pa * ca + pb * cb) / c2
    off = np.abs(pa * cb - pb * ca) / np.sqrt(c2)  # distance from the cloth's chroma line
    chroma = np.hypot(pa, pb)
    return ((ratio >= params.min_light) & (ratio <= params.max_light) & (lam >= 0.0)
            & (lam <= params.max_chroma_share)
            & (off <= params.max_off_line + params.off_line_share * chroma))


def highlights(frame: np.ndarray, box: tuple[int, int, int, int], cloth_l: float, r: float,
               params: CastShadowParams) -> np.ndarray:
    """Specular highlights (K, 2) full-resolution px inside ``box`` (x0, y0, x1, y1,
    full-resolution px) of the BGR ``frame``: local maxima of lightness at least
    ``highlight_over`` (8-bit Lab) above the cloth's ``cloth_l`` and compact (every point of
    a ring of ``highlight_ring_radii`` round it no lighter than halfway from the cloth to
    the peak: a chalk line or a bright ball's body is not), at least ``highlight_sep_radii``
    of the ball radius ``r`` (full-resolution px) apart, brightest first."""
    h, w = frame.shape[:2]
    ring = params.highlight_ring_radii * r
    m = int(np.ceil(ring)) + 1
    x0, y0, x1, y1 = max(0, box[0] - m), max(0, box[1] - m), min(w, box[2] + m), min(h, box[3] + m)
    patch = frame[y0:y1, x0:x1]
    if patch.size == 0:
        return np.zeros((0, 2))
    light = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[:, :, 0].astype(np.float32)
    k = max(3, int(params.highlight_sep_radii * r) | 1)
    top = cv2.dilate(light, np.ones((k, k), np.uint8))
    ys, xs = np.nonzero((light >= top) & (light >= cloth_l + params.highlight_over))
    inside = (xs + x0 >= box[0]) & (xs + x0 < box[2]) & (ys + y0 >= box[1]) & (ys + y0 < box[3])
    ys, xs = ys[inside], xs[inside]
    if not len(ys):
        return np.zeros((0, 2))
    ang = np.linspace(0.0, 2 * np.pi, 8, endpoint=False)
    rx = np.clip(np.round(xs[:, None] + ring * np.cos(ang)).astype(int), 0, light.shape[1] - 1)
    ry = np.clip(np.round(ys[:, None] + ring * np.sin(ang)).astype(int), 0, light.shape[0] - 1)
    peak = light[ys, xs]
    compact = (light[ry, rx] <= ((peak + cloth_l) / 2.0)[:, None]).all(1)
    ys, xs, peak = ys[compact], xs[compact], peak[compact]
    chosen: list[np.ndarray] = []
    for i in np.argsort(-peak):
        p = np.array([xs[i] + x0, ys[i] + y0], float)
        if all(np.linalg.norm(p - q) >= params.highlight_sep_radii * r for q in chosen):
            chosen.append(p)
    return np.array(chosen).reshape(-1, 2)


def without_cast_shadows(view: TableView, maps: ClothMaps, fg: Foreground, frame: np.ndarray,
                         params: CastShadowParams) -> Foreground:
    """``fg`` with the cast shadows beside balls taken out of its mask (see the module's
    docstring); ``frame``: the full-resolution BGR picture ``fg`` was made from (its
    working-scale picture is ``fg.small``)."""
    if not params.enabled:
        return fg
    mask = fg.mask.astype(bool)
    ys, xs = np.nonzero(mask)
    if not len(ys):
        return fg
    cloth = (maps.cloth_lf, maps.cloth_af, maps.cloth_bf)
    on = shadow_coloured(tuple(c[ys, xs] for c in fg.lab), tuple(c[ys, xs] for c in cloth), params)
    if not on.any():
        return fg
    shade = np.zeros_like(mask)
    shade[ys[on], xs[on]] = True
    n, lab, stats, cents = cv2.connectedComponentsWithStats(fg.mask, connectivity=8)
    shaded = np.bincount(lab[ys[on], xs[on]], minlength=n)
    other = np.bincount(lab[ys[~on], xs[~on]], minlength=n)
    # where each blob's shadow-coloured and other pixels lie (their centroids, working px)
    sx = np.bincount(lab[ys[on], xs[on]], xs[on], minlength=n) / np.maximum(shaded, 1)
    sy = np.bincount(lab[ys[on], xs[on]], ys[on], minlength=n) / np.maximum(shaded, 1)
    ox = np.bincount(lab[ys[~on], xs[~on]], xs[~on], minlength=n) / np.maximum(other, 1)
    oy = np.bincount(lab[ys[~on], xs[~on]], ys[~on], minlength=n) / np.maximum(other, 1)
    s = view.scale
    r_small = view.working_radius_at(cents)
    drop = np.zeros_like(mask)
    add = np.zeros_like(mask)
    for k in np.nonzero(shaded)[0]:
        r = float(r_small[k])
        area = np.pi * r * r
        if k == 0 or shaded[k] < params.min_area_share * area or \
                stats[k, cv2.CC_STAT_AREA] > params.max_blob_balls * area:
            continue  # a ball's own dark rim; a player, a pack
        if other[k] and np.hypot(sx[k] - ox[k], sy[k] - oy[k]) < params.beside_radii * r:
            continue  # a dark ball round its light marks (a pool 8), not a shadow beside one
        x, y, w, h = stats[k, :4]
        inv = 1.0 / s
        # the blob's box, widened by the reach of a highlight (a ball the foreground misses,
        # as near the cloth's colour as a green on a green cloth, casts a shadow that is)
        m = int(np.ceil(params.keep_radii * r))
        box = (int((x - m) * inv), int((y - m) * inv), int(np.ceil((x + w + m) * inv)),
               int(np.ceil((y + h + m) * inv)))
        cy, cx = int(cents[k][1]), int(cents[k][0])
        cl = float(maps.cloth_lf[min(cy, maps.cloth_lf.shape[0] - 1), min(cx, maps.cloth_lf.shape[1] - 1)])
        lit = highlights(frame, box, cl, r * inv, params) * s
        if not other[k] and not len(lit):
            continue  # all shadow-coloured, unlit: a dark ball the lamps miss, left alone
        sub = (lab[y:y + h, x:x + w] == k) & shade[y:y + h, x:x + w]
        if len(lit):
            (x0, y0, x1, y1), near = _near(lit, (x - m, y - m, x + w + m, y + h + m),
                                           params.keep_radii * r, mask.shape)
            sub &= ~near[y - y0:y - y0 + h, x - x0:x - x0 + w]
            # a highlight off the foreground is a ball the cloth test leaves out (a green on
            # a green cloth): the ball round it is foreground where it is the cloth's colour
            ij = np.clip(lit.astype(int), 0, [mask.shape[1] - 1, mask.shape[0] - 1])
            unseen = lit[~mask[ij[:, 1], ij[:, 0]]]
            if len(unseen):
                (x0, y0, x1, y1), ball = _near(unseen, (x0, y0, x1, y1), params.keep_radii * r,
                                               mask.shape)
                add[y0:y1, x0:x1] |= ball & shadow_coloured(
                    tuple(c[y0:y1, x0:x1] for c in fg.lab), tuple(c[y0:y1, x0:x1] for c in cloth),
                    params)
        drop[y:y + h, x:x + w] |= sub
    if not drop.any():
        return fg
    return replace(fg, mask=((mask & ~drop) | (add & maps.allowed.astype(bool))).astype(np.uint8))


def _near(points: np.ndarray, box: tuple[int, int, int, int], radius: float,
          shape: tuple[int, ...]) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """The box (x0, y0, x1, y1) working-scale px cut to the picture ``shape``, and the bool
    mask over it of the pixels within ``radius`` px of any of ``points`` (K, 2)."""
    x0, y0 = max(0, box[0]), max(0, box[1])
    x1, y1 = min(shape[1], box[2]), min(shape[0], box[3])
    yy, xx = np.mgrid[y0:y1, x0:x1]
    out = np.zeros(yy.shape, bool)
    for px, py in points:
        out |= (xx - px) ** 2 + (yy - py) ** 2 <= radius * radius
    return (x0, y0, x1, y1), out
