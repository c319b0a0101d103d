"""A moving cue ball that reads as another ball while partly hidden is carried on by the
detection where it heads that no object ball explains (:meth:`PoolTracker._cue_going_on`)."""

from __future__ import annotations

import numpy as np

from tests.test_pool_naming import TABLE, _frame
from tracker.perception.pool_track import PoolTracker
from tracker.rules.ballset import pool_balls

THREE, NINE = (900.0, 600.0), (700.0, 1900.0)


def _run(side_mm: float) -> tuple[dict, set]:
    """The cue ball rolls from (300, 1600) toward the bottom cushion, 15 mm a picture; from
    (300, 1060) on it reads as the 11 and its detection is ``side_mm`` to the side (a player's
    leg hides half of it); the 3 and the 9 stand still. Returns the last layout and the
    balls moving then."""
    tr = PoolTracker(TABLE, 30.0, balls=pool_balls(9), lowest_first=True)
    start = np.array([300.0, 1600.0])
    st = None
    for k in range(30):
        st = tr.update(k, tr.settle_cue(_frame([("cue", tuple(start)), ("3", THREE), ("9", NINE)])))
    for k in range(1, 60):
        p = start + np.array([0.0, -15.0 * k])
        balls = [("cue", tuple(p))] if p[1] > 1060 else [("11", tuple(p + [side_mm, 0.0]))]
        st = tr.update(30 + k, tr.settle_cue(_frame([*balls, ("3", THREE), ("9", NINE)])))
    return st.pos, st.moving


def test_a_cue_ball_reading_as_another_ball_where_it_heads_is_still_the_cue_ball() -> None:
    """Read as the 11 60 mm to the side of its path (2.1 radii off its line), the rolling cue ball is followed on as the cue ball: no object ball appears."""
    pos, moving = _run(-60.0)
    assert abs(pos["white"][1] - (1600.0 - 15.0 * 59)) < 20.0
    assert set(pos) == {"white", "3", "9"} and moving == {"white"}


def test_a_ball_well_off_the_cue_balls_line_is_not_taken_for_it() -> None:
    """A detection 150 mm to the side (5.2 radii off its line) is another
    ball: the cue ball is held where it was lost."""
    pos, _ = _run(-150.0)
    assert abs(pos["white"][1] - 1060.0) < 40.0
    assert len(pos) == 4
