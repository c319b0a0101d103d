"""Broadcast graphics over the table: a score bar laid over the near cushion (issue 31).

A TV picture carries a score bar: a flat, opaque rectangle with straight horizontal edges,
usually in the lower part of the picture. Behind one end with a long lens the near cushion
lies low in the picture and the bar can cover it; the cloth's outline then runs along the
bar's top edge and the cushion search takes that edge for the cushion (50-230 mm off on the
synthetic ``tv-zoom`` stills). :func:`find_bars` finds such rectangles; :func:`cover_bars`
lays the bar into the cloth mask where cloth runs under it, so that the outline passes under
it, and says which of the outline's sides the bar hides (:func:`hidden_sides`): their
cushion edge is not read where the bar is, and a side hidden along most of its length is
left out of the fit (the other three sides and the markings hold the camera).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class BarParams:
    """What counts as a score bar.

    Attributes:
        search_from: the bar is looked for below this fraction of the picture's height.
        step: a horizontal edge's least brightness step (0-255, the largest over the colour
            channels, across two pixel rows).
        min_width: the least length of a bar's straight edge, fraction of the picture width.
        max_gap_px: gaps (px) along an edge row that still count as one edge (letters touching
            the bar's edge, a panel boundary).
        height: (least, most) height of a bar, fractions of the picture's height.
        min_overlap: the top and bottom edges overlap by at least this share of the shorter.
        flat_share, flat_columns: a bar is flat colour between its edges (:func:`_flat`).
        cloth_share: the bar hides the cloth where cloth lies just above its top edge along at
            least this share of the bar's width ...
        not_cloth: ... and no more than this share of the band itself, in those columns, is
            cloth (a cushion's top between its nose and the rail is cloth; a bar is not).
        hidden_share: a side of the outline whose cushion-edge search crosses a bar on at least
            this share of its samples is hidden, and left out of the fit.
    """

    search_from: float = 0.5
    step: float = 10.0
    min_width: float = 0.25
    max_gap_px: int = 6
    height: tuple[float, float] = (0.03, 0.12)
    min_overlap: float = 0.6
    flat_share: float = 0.8
    flat_columns: float = 0.5
    cloth_share: float = 0.2
    not_cloth: float = 0.1
    hidden_share: float = 0.5


BARS = BarParams()


def _edge_rows(img: np.ndarray, p: BarParams) -> list[tuple[int, int, int]]:
    """Rows (y, x0, x1) holding a straight horizontal edge at least ``p.min_width`` long, one
    per run of neighbouring rows (the longest)."""
    h, w = img.shape[:2]
    im = img.astype(np.int16)
    dv = np.abs(im[2:] - im[:-2]).max(axis=2)  # dv[y - 1]: the step across row y
    rows: list[tuple[int, int, int]] = []
    for y in range(max(1, int(h * p.search_from)), h - 1):
        idx = np.flatnonzero(dv[y - 1] > p.step)
        if len(idx) < p.min_width * w:
            continue
        runs = np.split(idx, np.flatnonzero(np.diff(idx) > p.max_gap_px) + 1)
        r = max(runs, key=lambda r: r[-1] - r[0])
        if r[-1] - r[0] < p.min_width * w:
            continue
        row = (y, int(r[0]), int(r[-1]))
        if rows and y - rows[-1][0] <= 2:
            if row[2] - row[1] > rows[-1][2] - rows[-1][1]:
                rows[-1] = row
            continue
        rows.append(row)
    return rows


def _flat(img: np.ndarray, x0: int, y0: int, x1: int, y1: int, p: BarParams) -> bool:
    """Whether the band between the edges is flat colour: in at least ``p.flat_columns`` of
    its columns, ``p.flat_share`` of the rows inside carry no vertical step (the letters on
    a bar break up to about 40 % of its columns; cloth, balls and a lit rail break most)."""
    band = cv2.blur(img[y0 + 2:y1 - 1, x0:x1 + 1], (3, 3)).astype(np.int16)
    if len(band) < 3:
        return False
    still = (np.abs(np.diff(band, axis=0)).max(axis=2) <= p.step / 2).mean(axis=0)
    return float((still >= p.flat_share).mean()) >= p.flat_columns


def find_bars(img: np.ndarray, p: BarParams = BARS) -> list[tuple[int, int, int, int]]:
    """Score bars in a BGR picture: boxes (x0, y0, x1, y1) px, y0 the top edge's row and y1 the
    bottom's; none where no band of flat colour between two long straight horizontal edges
    lies in the lower part of the picture."""
    h = img.shape[0]
    rows = _edge_rows(img, p)
    bars: list[tuple[int, int, int, int]] = []
    for i, (ya, a0, a1) in enumerate(rows):
        for yb, b0, b1 in rows[i + 1:]:
            if not p.height[0] * h <= yb - ya <= p.height[1] * h:
                continue
            overlap = min(a1, b1) - max(a0, b0)
            if overlap < p.min_overlap * min(a1 - a0, b1 - b0):
                continue
            x0, x1 = min(a0, b0), max(a1, b1)
            if _flat(img, x0, ya, x1, yb, p):
                bars.append((x0, ya, x1, yb))
    return bars


def cover_bars(img: np.ndarray, mask: np.ndarray, p: BarParams = BARS
               ) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """The cloth mask (bool (h, w)) with each score bar that hides cloth laid into it, in
    the columns where cloth lies just above the bar (so that the outline passes under the
    bar, not along its edge), and those bars' boxes (x0, y0, x1, y1)."""
    out = mask.copy()
    hiding = []
    for x0, y0, x1, y1 in find_bars(img, p):
        above = mask[max(0, y0 - 3), x0:x1 + 1]
        if above.mean() < p.cloth_share:
            continue
        cols = np.flatnonzero(above) + x0
        if mask[y0 + 2:y1 - 1, cols].mean() > p.not_cloth:
            continue
        out[y0 - 3:y1 + 2, cols] = True
        hiding.append((x0, y0, x1, y1))
    return out, hiding


def crosses_bar(base: np.ndarray, tip: np.ndarray, bars: list[tuple[int, int, int, int]],
                margin: float = 2.0) -> np.ndarray:
    """Whether each search segment from ``base`` to ``tip`` ((S, 2) px each) passes through a
    bar's box (grown by ``margin`` px): bool (S,)."""
    out = np.zeros(len(base), bool)
    for x0, y0, x1, y1 in bars:
        for t in np.linspace(0.0, 1.0, 9):
            q = base + (tip - base) * t
            out |= ((q[:, 0] >= x0 - margin) & (q[:, 0] <= x1 + margin)
                    & (q[:, 1] >= y0 - margin) & (q[:, 1] <= y1 + margin))
    return out
