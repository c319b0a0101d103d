"""Re-spotting colours (S3 R7, C35) with the positions the referee should use.

Order ([interpretation] D21, option ``own_spots_first``): colours whose own spot is free go
first; the rest in descending value. With the option off, every colour in descending value. Each remaining colour goes on the highest-value free spot; if every spot is
occupied, at the nearest free point to its own spot on the line from the spot toward the top
cushion (R7(f)); failing that, on the centre line below its spot (R7(g), pink and black; used
for the others only as an edge-case fallback, D22). A placed ball never touches another (R7(h)).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from tracker.rules.state import Position, Respot

#: A spot counts as occupied if a ball on it would come closer than 2R + this, mm (S2 R18).
SPOT_CLEARANCE_MM = 0.1
#: Step when searching along the line above or below a spot, mm.
SEARCH_STEP_MM = 0.5


def _free(p: Position, occupied: Sequence[Position], two_r: float) -> bool:
    lim = two_r + SPOT_CLEARANCE_MM
    return all(math.dist(p, q) >= lim for q in occupied)


def respot_positions(
    balls: Sequence[str],
    occupied: Mapping[str, Position] | None,
    spots: Mapping[str, Position],
    spot_priority: Sequence[str],
    value: Callable[[str], int],
    ball_diameter: float,
    table_length: float,
    up_first: Callable[[str], bool] = lambda b: True,
    own_first: bool = True,
) -> list[Respot]:
    """Where each ball in ``balls`` is re-spotted.

    Args:
        balls: colours to re-spot (any order).
        occupied: ids -> centres (mm) of every ball on the table (the white only if it is on
            the table). None when positions are unknown: each ball then goes on its own spot
            with ``how = "own_spot_assumed"``.
        spots: ball -> its own spot (mm).
        spot_priority: spots from the highest value to the lowest (ball names, keys of ``spots``).
        value: ball -> value, for the descending order.
        ball_diameter: 2R, mm.
        table_length: for the upward search limit, mm.
        up_first: whether the ball searches toward the top cushion first (always in snooker).
        own_first: D21: colours whose own spot is free go there first, the rest after in
            descending value (default). False: the letter of R7(e): every colour in descending
            value, each on its own spot if free, else the highest free spot (a higher colour
            may then take a lower colour's free spot).

    Returns:
        one :class:`Respot` per ball, in placement order.
    """
    if occupied is None:
        return [Respot(b, spots[b], "own_spot_assumed") for b in balls]
    taken: list[Position] = [p for k, p in occupied.items() if k not in balls]
    out: list[Respot] = []
    own_free = [b for b in balls if _free(spots[b], taken, ball_diameter)] if own_first else []
    rest = sorted((b for b in balls if b not in own_free), key=value, reverse=True)
    for b in sorted(own_free, key=value, reverse=True):
        # Own spots are far apart, but check again in case two balls share a spot (variants).
        if _free(spots[b], taken, ball_diameter):
            taken.append(spots[b])
            out.append(Respot(b, spots[b], "own_spot"))
        else:
            rest.append(b)
    for b in rest:
        placed = Respot(b, spots[b], "own_spot") if _free(spots[b], taken, ball_diameter) else None
        for s in spot_priority if placed is None else ():
            if _free(spots[s], taken, ball_diameter):
                placed = Respot(b, spots[s], "highest_spot" if s != b else "own_spot")
                break
        if placed is None:
            placed = _along_line(b, spots[b], taken, ball_diameter, table_length, up_first(b))
        taken.append(placed.position)  # type: ignore[arg-type]
        out.append(placed)
    return out


def _along_line(
    ball: str, spot: Position, taken: Sequence[Position], two_r: float, length: float, up: bool
) -> Respot:
    r = two_r / 2.0
    x, y0 = spot
    dirs = ((1.0, "above_spot"), (-1.0, "below_spot")) if up else ((-1.0, "below_spot"), (1.0, "above_spot"))
    for sign, how in dirs:
        y = y0
        while r <= y <= length - r:
            if _free((x, y), taken, two_r):
                return Respot(ball, (x, y), how)
            y += sign * SEARCH_STEP_MM
    raise ValueError(f"no free place to re-spot the {ball} on the centre line")
