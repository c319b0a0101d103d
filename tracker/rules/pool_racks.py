"""Where the pool balls go: the eight-ball triangle, the nine-ball diamond (002 2.2, 3.2) and
a spotted ball's place on the long string (002 1.4). Table millimetres, the head rail at
``y = 0`` (``calibration.table``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calibration.table import TableGeometry
from tracker.rules.state import Position

#: Gap left between racked balls, mm ("as tightly as possible": a hair, so none overlap).
RACK_GAP_MM = 0.1
#: Step along the long string when looking for a free place to spot a ball, mm.
SPOT_STEP_MM = 1.0

#: Eight-ball triangle, row by row from the apex (foot spot) to the foot rail: the 8 the
#: first ball directly below the apex, a solid (7) and a stripe (15) on the back corners; the
#: rest in no purposeful pattern (002 3.2).
EIGHT_BALL_ROWS: tuple[tuple[str, ...], ...] = (
    ("1",), ("9", "2"), ("10", "8", "3"), ("11", "4", "12", "5"), ("7", "13", "6", "14", "15"))
#: Nine-ball diamond, row by row from the apex (foot spot): the 1 at the apex, the 9 in the
#: middle (002 2.2).
NINE_BALL_ROWS: tuple[tuple[str, ...], ...] = (
    ("1",), ("2", "3"), ("4", "9", "5"), ("6", "7"), ("8",))


def rack_positions(table: TableGeometry, rows: tuple[tuple[str, ...], ...]) -> dict[str, Position]:
    """Ball id -> centre (mm) for balls racked in ``rows`` (apex row first, on the foot spot;
    each next row one ball-spacing nearer the foot rail, centred on the long string)."""
    d = table.ball_diameter + RACK_GAP_MM
    dy = d * math.sin(math.radians(60))
    fx, fy = table.foot_spot
    out: dict[str, Position] = {}
    for r, row in enumerate(rows):
        for j, ball in enumerate(row):
            out[ball] = (fx + (j - (len(row) - 1) / 2) * d, fy + r * dy)
    return out


def spot_position(table: TableGeometry, positions: Mapping[str, Position] | None) -> Position:
    """Where a spotted ball goes (002 1.4): on the long string as close as possible to the foot
    spot, between it and the foot rail, clear of every ball (``positions``, mm); if that line is
    blocked, as close as possible above the foot spot. The foot spot when the balls' places
    are not known."""
    fx, fy = table.foot_spot
    if not positions:
        return (fx, fy)
    d = table.ball_diameter
    # A little clearance from the cue ball is also fine for object balls (1.4).
    clear = d + RACK_GAP_MM

    def free(y: float) -> bool:
        return all(math.dist((fx, y), p) >= clear for p in positions.values())

    top = table.length - table.ball_radius
    n_below = int((top - fy) / SPOT_STEP_MM)
    for k in range(n_below + 1):
        if free(fy + k * SPOT_STEP_MM):
            return (fx, fy + k * SPOT_STEP_MM)
    for k in range(1, int((fy - table.ball_radius) / SPOT_STEP_MM) + 1):
        if free(fy - k * SPOT_STEP_MM):
            return (fx, fy - k * SPOT_STEP_MM)
    return (fx, fy)
