"""Nine-ball: which ball went down, weighed against the game and the colours left on the table.

In nine-ball the player must hit the lowest-numbered ball on the table first, and most pots
are of that ball. Where the camera's colours cannot tell two balls apart (the red 3 and the
maroon 7, the green 6 and the black 8 of a dim phone video), the ball potted is named by the
likeliest naming of the whole table: every ball in play at the stroke (the potted ones and
those left on the table) takes a number, each ball's readings (the shares of its summed
identity probabilities) weigh how likely each number is for it, and the game's prior adds the
odds that the ball potted was the lowest on (no ball left on the table reads as a lower
number). A ball on the table that reads plainly as the lower number keeps the pot from being
called the lowest; a number no ball on the table reads as (the 1, potted unseen while the
view was poor) is no ball on.

:func:`potted_number` is the solver (arrays only); :class:`BallOnParams` its tunables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment


@dataclass(frozen=True)
class BallOnParams:
    """The tunables of naming a nine-ball pot by the ball on.

    Attributes:
        on_potted_share: the prior share of nine-ball pots that are of the lowest-numbered ball
            on the table (the ball the player must hit first; combinations and caroms pot
            another): the rest is shared equally among the other balls on the table. A prior of
            the game, not fitted to any clip (a clearance pots only the ball on).
        floor: a ball's reading share of a number below this counts as this (a number it never
            read as is unlikely, not impossible: the colours of a dim video mislead); also the
            share of "no numbered ball" for a track (a lamp's reflection followed as a ball)
            when the table has more tracks than numbers left.
    """

    on_potted_share: float = 0.85
    floor: float = 1e-3


def _evidence(seen: np.ndarray, floor: float) -> np.ndarray:
    """Log shares of each row's readings (rows with no reading: every number alike, 0)."""
    total = seen.sum(axis=1, keepdims=True)
    share = np.where(total > 0, seen / np.maximum(total, 1e-12), 1.0)
    return np.log(np.maximum(share, floor))


def _best(ev: np.ndarray, rows: Sequence[int], cols: Sequence[int], floor: float) -> float:
    """The best one-to-one naming of ``rows`` by ``cols`` (summed evidence); a row left
    without a number (more rows than numbers) counts ``log(floor)``."""
    if not rows:
        return 0.0
    sub = ev[np.ix_(list(rows), list(cols))] if cols else np.zeros((len(rows), 0))
    pad = np.full((len(rows), len(rows)), np.log(floor))
    full = np.hstack([sub, pad])
    r, c = linear_sum_assignment(-full)
    return float(full[r, c].sum())


def potted_number(seen: np.ndarray, numbers: Sequence[str], potted: int,
                  table: Sequence[int], free: Sequence[int],
                  params: BallOnParams = BallOnParams()) -> int:
    """The number (column of ``numbers``) the ball ``potted`` was, by the likeliest naming of
    every ball in play and the game's prior that the pot was of the lowest ball on.

    Args:
        seen: (slots, numbers) each track's identity probabilities summed over its readings.
        numbers: the numbered balls' ids (``"1"``.. in number order), one per column.
        potted: the row of the ball potted first in the stroke.
        table: the rows of the other balls in play at the stroke's end (left on the table, or
            potted in the same stroke).
        free: the columns of the numbers no ball potted before the stroke took.

    Returns:
        the column in ``free`` for the potted ball.
    """
    ev = _evidence(seen, params.floor)
    rows = [r for r in table if r != potted]
    p = params.on_potted_share
    k = max(len(rows), 1)  # the other balls the pot might have been
    on_odds, off_odds = np.log(p), np.log((1.0 - p) / k)
    best, best_c = -np.inf, free[0]
    for c in free:
        rest = [x for x in free if x != c]
        higher = [x for x in rest if int(numbers[x]) > int(numbers[c])]
        as_off = ev[potted, c] + off_odds + _best(ev, rows, rest, params.floor)
        as_on = ev[potted, c] + on_odds + _best(ev, rows, higher, params.floor)
        score = max(as_off, as_on)
        if score > best + 1e-9:
            best, best_c = score, c
    return int(best_c)
