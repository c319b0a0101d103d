"""A pool ball whose track was lost, every object-ball slot used, is taken up where it stands
unexplained (tracker/perception/regroup.py)."""

from __future__ import annotations

from dataclasses import replace

from tests.test_pool_naming import TABLE, _frame
from tracker.perception.pool_track import PoolTracker, PoolTrackParams
from tracker.rules.ballset import pool_balls

CUE, THREE, NINE = (600.0, 400.0), (900.0, 600.0), (700.0, 1900.0)
MOVED = (300.0, 1400.0)


def _run(regroup_frames: int) -> dict:
    """Every object slot taken (the 3, the 9 and passing "balls" a player's sleeves made, gone
    again at rest where last seen); then the 3, hidden, rolls 900 mm to ``MOVED`` and is seen
    standing there. Returns the last state's positions."""
    tr = PoolTracker(TABLE, 30.0, balls=pool_balls(9), lowest_first=True,
                     params=replace(PoolTrackParams(), regroup_frames=regroup_frames))
    n = len(tr.slots_ids)
    sleeves = [("none", (1100.0, 300.0 + 150.0 * i)) for i in range(n - 2)]
    still = [("cue", CUE), ("9", NINE)]
    k = 0
    for _ in range(20):
        tr.update(k, tr.settle_cue(_frame([*still, ("3", THREE), *sleeves])))
        k += 1
    for _ in range(20):
        tr.update(k, tr.settle_cue(_frame([*still, ("3", THREE)])))
        k += 1
    for _ in range(20):  # hidden while it rolls
        tr.update(k, tr.settle_cue(_frame(still)))
        k += 1
    st = None
    for _ in range(40):
        st = tr.update(k, tr.settle_cue(_frame([*still, ("3", MOVED)])))
        k += 1
    return st


def test_a_lost_ball_seen_standing_elsewhere_is_taken_up_there():
    st = _run(10)
    here = [b for b, p in st.pos.items() if abs(p[0] - MOVED[0]) + abs(p[1] - MOVED[1]) < 5.0]
    assert here == ["3"] and "3" in st.visible
    assert abs(st.pos["9"][1] - NINE[1]) < 5.0  # the others stay where they are
    # without it the ball there is followed by nothing
    st = _run(0)
    assert not [b for b, p in st.pos.items() if abs(p[0] - MOVED[0]) + abs(p[1] - MOVED[1]) < 5.0]

