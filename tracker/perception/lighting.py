"""The hall's light on the cloth, frame by frame (issue 28's session faults): a dimmer turned
down, a failing tube flickering, the bands a rolling shutter records under 50/100 Hz lights.

The detector's cloth model is learned from one picture; under half the light the whole cloth
reads as foreground, and on a dimmed overhead clip the table looked cleared, so the frame was
ended as a concession; under flickering bands a pot was lost (``bench/lights.py``).
:class:`LightMeter` compares each picture's cloth with the picture the cloth was learned from,
pixel by pixel on a grid of rows, and when the light has changed evenly along the rows (most
sampled cloth pixels of a row darker or brighter by about the same factor) gives the picture
back at the learned light, row by row. Anything else (a player over the table, balls moved, a
cut to another picture) changes some pixels of a row and not the others, and the picture is
passed on untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.profile import Calibration


@dataclass(frozen=True)
class LightParams:
    """The light meter's tunables.

    Attributes:
        rows: rows of the picture sampled (evenly spread; the columns as far apart): about
            5000 cloth pixels of a 1080p overhead view, half a millisecond a frame.
        inset_mm: the samples keep this far inside the bed (clear of the cushions' shade).
        min_level: cloth pixels darker than this (0..255, their brightest channel) in the
            learned picture are not sampled (pockets' shade, dark fittings).
        min_samples: a row with fewer samples takes its neighbours' light.
        tolerance: a light within this share of the learned one is left alone (on every
            row, and the median of the rows).
        max_spread: a row's light changed evenly when the middle half of its pixels' ratios
            (now / learned) spans at most this share of their median.
        darkest: below this share of the learned light the picture is too dark to mend
            (left untouched: the view monitor and the detector say what they see).
        changed_rows: the light changed when the median row is off by more than the
            tolerance, or at least this share of the rows is (bands); it is mended only when
            at least this share of the rows changed evenly (a player leaning over the table
            changes a few rows, unevenly: the picture is left alone).
    """

    rows: int = 64
    inset_mm: float = 80.0
    min_level: float = 40.0
    min_samples: int = 12
    tolerance: float = 0.1
    max_spread: float = 0.12
    darkest: float = 0.2
    changed_rows: float = 0.5


LIGHT = LightParams()


class LightMeter:
    """The light on the cloth of ``reference`` (BGR uint8, full size, the picture the cloth
    was learned from) seen through the camera ``calibration``; :meth:`mend` gives later
    pictures back at that light."""

    def __init__(self, calibration: Calibration, reference: np.ndarray,
                 params: LightParams = LIGHT):
        self.params = params
        h, w = reference.shape[:2]
        step = max(2, h // params.rows)
        t, m = calibration.table, params.inset_mm
        quad = np.array([[m, m], [t.width - m, m], [t.width - m, t.length - m],
                         [m, t.length - m]], float)
        bed = np.zeros((h, w), np.uint8)
        cv2.fillPoly(bed, [np.round(calibration.to_image(quad, 0.0)).astype(np.int32)], 1)
        self.gy = np.arange(step // 2, h, step)
        self.gx = np.arange(step // 2, w, step)
        level = reference[self.gy][:, self.gx].max(axis=2).astype(np.float32)
        usable = bed[self.gy][:, self.gx].astype(bool) & (level >= params.min_level)
        #: the learned light on the sampled cloth pixels (rows, columns); 0 where not sampled
        self.ref = np.where(usable, level, 0.0).astype(np.float32)
        self.usable = usable
        self.count = usable.sum(axis=1)
        self.height = h

    def gains(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per sampled row: the light now against the learned (the median of its pixels'
        ratios) and how evenly it changed (the middle half's span over the median), (rows,)
        each; NaN where a row has too few samples."""
        now = image[self.gy][:, self.gx].max(axis=2).astype(np.float32)
        ratio = np.where(self.usable, now / np.maximum(self.ref, 1.0), np.float32(1e9))
        ratio.sort(axis=1)  # the samples first, the rest (1e9) after them
        n = self.count
        ok = n >= self.params.min_samples
        rows = np.arange(len(n))

        def quantile(q: float) -> np.ndarray:
            return ratio[rows, np.clip(np.round(q * (n - 1)).astype(int), 0, None)]

        mid = quantile(0.5)
        spread = (quantile(0.75) - quantile(0.25)) / np.maximum(mid, 1e-3)
        return np.where(ok, mid, np.nan), np.where(ok, spread, np.nan)

    def mend(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """``image`` at the learned light, and the light found (share of the learned); the
        light is 1.0 when no change of the light was found (as learned, or changed unevenly:
        something over the table, another picture). ``image`` itself when the light is as
        learned, changed unevenly, or is too dark to mend (below ``darkest``)."""
        p = self.params
        if image.shape[0] != self.height or not self.usable.any():
            return image, 1.0
        gain, spread = self.gains(image)
        known = ~np.isnan(gain)
        if not known.any():
            return image, 1.0
        level = float(np.median(gain[known]))
        if abs(level - 1.0) <= p.tolerance and np.mean(np.abs(gain[known] - 1.0)
                                                       > p.tolerance) < p.changed_rows:
            return image, level  # as learned, or a few rows changed: something over the table
        even = known & (spread <= p.max_spread)
        if even.sum() < p.changed_rows * known.sum():
            return image, 1.0
        if level < p.darkest:
            return image, level
        # rows that changed unevenly (a player over the table) take their neighbours' light
        row_gain = np.interp(np.arange(self.height), self.gy[even], gain[even])
        return _scaled_rows(image, 1.0 / np.maximum(row_gain, p.darkest)), level


def _scaled_rows(image: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8) with each row times ``scale`` (rows,), rows of about the same
    scale (within 1 %) done together."""
    out = np.empty_like(image)
    start = 0
    h = len(scale)
    while start < h:
        end = start + 1
        while end < h and abs(scale[end] - scale[start]) <= 0.01 * scale[start]:
            end += 1
        cv2.convertScaleAbs(image[start:end], out[start:end], float(np.mean(scale[start:end])))
        start = end
    return out
