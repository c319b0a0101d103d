"""Colour features of balls: what the colour judge compares with each class's prototype, and
what the learned judge keeps for re-labelling and the missing-ball search.

A feature (5,) is a hue vector scaled by saturation (2), saturation, value and the green share;
a ball's is the median over the disc of 0.55 radii round its centre, the pixels blown out by
the lamps left out (:class:`tracker.perception.params.ColourParams`).
"""

from __future__ import annotations

import cv2
import numpy as np

from tracker.perception.params import ColourParams

#: The default colour tunables.
COLOUR = ColourParams()

# Class prototypes: typical colours (OpenCV HSV: H 0..180, S and V 0..255) from the renderer and
# broadcast stills. Learned per camera by
# :meth:`tracker.perception.detect.BallDetector.learn_colours`.
PROTO_HSV = {
    "white": (30, 20, 235),
    "red": (178, 220, 150),
    "yellow": (26, 210, 225),
    "green": (70, 200, 110),
    "brown": (12, 190, 100),
    "blue": (108, 220, 160),
    "pink": (172, 120, 230),
    "black": (100, 40, 25),
}


def feature(bgr: np.ndarray) -> np.ndarray:
    """Colour features (N, 5) of BGR pixels (N, 3): hue as a vector scaled by saturation (2),
    saturation, value, and the green share G / (R + G + B), which separates a brown from a red
    even where an over-exposed red and a bright brown have almost the same hue. Hue and green
    share fade toward neutral in pixels darker than a third of full value (a black ball
    mirrors the green cloth)."""
    px = np.ascontiguousarray(bgr, np.uint8).reshape(-1, 1, 3)
    hsv = cv2.cvtColor(px, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    h = hsv[:, 0].astype(np.float32) * (2 * np.pi / 180.0)
    s = hsv[:, 1].astype(np.float32) / 255.0
    v = hsv[:, 2].astype(np.float32) / 255.0
    f = px.reshape(-1, 3).astype(np.float32)
    g_share = f[:, 1] / np.maximum(f.sum(1), 1.0)
    # in a very dark pixel hue and shares are noise and the cloth's reflection: fade them
    lit = np.minimum(1.0, 3.0 * v)
    g_share = 1.0 / 3.0 + (g_share - 1.0 / 3.0) * lit
    return np.stack([np.cos(h) * s * lit, np.sin(h) * s * lit, s * 0.5, v * 1.2, g_share * 2.0], axis=1)


def patch_feature(pixels: np.ndarray, params: ColourParams = COLOUR) -> np.ndarray:
    """Colour features (5,) of one ball: the median :func:`feature` of its pixels (P, 3) BGR,
    those blown out by the light left out (``params.clipped_level``, ``min_unclipped_share``)."""
    pixels = pixels.reshape(-1, 3)
    top = pixels.max(axis=1)
    kept = top < params.clipped_level
    if not kept.all():
        least = max(1, int(np.ceil(params.min_unclipped_share * len(pixels))))
        if kept.sum() >= least:
            pixels = pixels[kept]
        elif least < len(pixels):
            pixels = pixels[np.argpartition(top, least - 1)[:least]]
    return np.median(feature(pixels), axis=0)


def patch_features(patches: np.ndarray, feats: np.ndarray | None = None,
                   params: ColourParams = COLOUR) -> np.ndarray:
    """:func:`patch_feature` of many patches of one size at once: features (n, 5) of patches
    (n, P, 3) BGR, the same numbers (the median of the kept pixels' features). ``feats``: the
    pixels' :func:`feature` (n, P, 5) when the caller has them."""
    n, p = patches.shape[:2]
    if feats is None:
        feats = feature(patches.reshape(-1, 3)).reshape(n, p, 5)
    top = patches.max(axis=2)
    kept = top < params.clipped_level
    if kept.all():
        return np.median(feats, axis=1)
    least = max(1, int(np.ceil(params.min_unclipped_share * p)))
    few = kept.sum(1) < least  # too few left: the least bright share instead
    if few.any() and least < p:
        darkest = np.zeros((int(few.sum()), p), bool)
        np.put_along_axis(darkest, np.argpartition(top[few], least - 1, axis=1)[:, :least], True,
                          axis=1)
        kept[few] = darkest
    elif few.any():
        kept[few] = True
    # the median of each patch's kept features: the left-out ones sorted last
    ranked = np.sort(np.where(kept[:, :, None], feats, np.inf), axis=1)
    count = kept.sum(1)
    rows = np.arange(n)
    lo, hi = ranked[rows, (count - 1) // 2], ranked[rows, count // 2]
    return (lo + hi) / np.float32(2)


def proto_features() -> np.ndarray:
    """Features (8, 5) of the stock prototypes."""
    hsv = np.array(list(PROTO_HSV.values()), np.uint8).reshape(-1, 1, 3)
    return feature(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).reshape(-1, 3))


def colour_features(frame: np.ndarray, px: np.ndarray, r_px: float,
                    params: ColourParams = COLOUR) -> np.ndarray:
    """Median colour features (N, 5) of the disc of 0.55 radii (``r_px``: the ball's radius at
    the table's centre, full-resolution px) around each centre (N, 2) of the BGR ``frame``."""
    r = max(2, int(0.55 * r_px))
    h, w = frame.shape[:2]
    feats = np.zeros((len(px), 5), np.float32)  # (0, 5) when no centre
    ci = np.round(px).astype(int).reshape(-1, 2)
    whole = (ci[:, 0] >= r) & (ci[:, 0] + r < w) & (ci[:, 1] >= r) & (ci[:, 1] + r < h)
    if whole.any():  # the square patches inside the frame, all at once
        off = np.arange(-r, r + 1)
        ys = ci[whole, 1][:, None, None] + off[None, :, None]
        xs = ci[whole, 0][:, None, None] + off[None, None, :]
        patches = frame[ys, xs].reshape(int(whole.sum()), -1, 3)  # (n, side * side, 3)
        # (patches with pixels blown out by the light: without them)
        feats[whole] = patch_features(
            patches, feature(patches.reshape(-1, 3)).reshape(len(patches), -1, 5), params)
    for i in np.nonzero(~whole)[0]:  # cut by the frame's edge
        xi, yi = ci[i]
        patch = frame[max(0, yi - r):min(h, yi + r + 1), max(0, xi - r):min(w, xi + r + 1)]
        if patch.size:
            feats[i] = patch_feature(patch, params)
    return feats


def class_cost(feats: np.ndarray, protos: np.ndarray, value_weight: float = 1.0) -> np.ndarray:
    """Squared feature distance (N, K) of each feature (N, 5) to each class prototype (K, 5),
    the lightness term scaled by ``value_weight``."""
    w = np.array([1.0, 1.0, 1.0, value_weight, 1.0], np.float32)
    return (((feats[:, None, :] - protos[None, :, :]) ** 2) * w).sum(-1)


def class_probs(feats: np.ndarray, protos: np.ndarray) -> np.ndarray:
    """Class probabilities (N, K) from the feature distances to the prototypes (K, 5)."""
    logits = -class_cost(feats, protos) / 0.01
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(1, keepdims=True)
