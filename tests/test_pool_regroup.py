"""A pool ball whose track was lost, every object-ball slot used, is taken up where it stands
unexplained (tracker/perception/regroup.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

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



def _sleeve_potted(stroke_seen: bool):
    """Nine-ball, the 1-8 at rest and a player's sleeve followed as the ninth object ball
    (every slot used); the sleeve goes into the top-left pocket with no stroke under way
    (``stroke_seen`` False: the run tells the tracker so) and its "pot" is confirmed; then the
    9, hidden until now, is seen standing unexplained. Returns the last state and the pots
    the tracker saw."""
    tr = PoolTracker(TABLE, 30.0, balls=pool_balls(9), lowest_first=True)
    still = [("cue", CUE)] + [(str(n), (200.0 + 110.0 * n, 700.0)) for n in range(1, 9)]
    mouth = np.array(TABLE.pockets["top_left"].mouth_centre)
    start = mouth + np.array([400.0, -400.0])
    k, st, pots = 0, None, []

    def step(extra):
        nonlocal k, st
        st = tr.update(k, tr.settle_cue(_frame([*still, *extra])))
        pots.extend(st.pots)
        tr.after_strokes(None, stroke_seen)
        k += 1

    for _ in range(20):
        step([("none", tuple(start))])
    for s in np.linspace(0.1, 0.85, 10):  # the sleeve, followed, into the pocket's mouth
        step([("none", tuple(start + (mouth - start) * s))])
    for _ in range(30):  # gone: its "pot" confirmed
        step([])
    for _ in range(30):
        step([("9", NINE)])
    return st, pots


def test_a_slot_gone_with_no_stroke_takes_up_a_ball_standing_unexplained():
    """A track's pot no stroke took is a ball lost, not potted: its slot follows the ball
    standing unexplained; held potted (a stroke under way took it), nothing follows it."""
    def at_nine(stroke_seen):
        st, pots = _sleeve_potted(stroke_seen)
        assert [k for _, k, _ in pots] == ["top_left"]  # the sleeve's "pot"
        return [b for b, p in st.pos.items() if abs(p[0] - NINE[0]) + abs(p[1] - NINE[1]) < 5.0]

    assert len(at_nine(stroke_seen=False)) == 1
    assert at_nine(stroke_seen=True) == []
