"""Perception takes the game's balls from the ruleset's BallSet (issue 29): another game's
balls need no change in the detector's constraint or the tracker."""

from __future__ import annotations

import numpy as np

from calibration.table import STANDARD_TABLE as T
from tracker.perception.constraint import CAPACITY, capacity, constrained_classes
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.track import Tracker
from tracker.rules.ballset import billiards_balls, snooker_balls


def _dets(mm: list[tuple[float, float]], looks: list[str]) -> BallDetections:
    p = np.array(mm, float)
    cls = np.array([CLASSES.index(k) for k in looks])
    n = len(looks)
    return BallDetections(p.copy(), p, np.full(n, 10.0), cls, np.ones(n), np.eye(8)[cls],
                          np.full(n, 1.0))


def test_snookers_capacity_is_read_from_its_ball_set():
    assert CAPACITY == {"white": 1, "red": 15, "yellow": 1, "green": 1, "brown": 1, "blue": 1,
                        "pink": 1, "black": 1}
    assert capacity(snooker_balls(6))["red"] == 6


def test_billiards_two_whites_are_both_labelled_white_on_a_still():
    cap = capacity(billiards_balls())
    assert cap["white"] == 2 and cap["red"] == 1 and cap["yellow"] == 0
    w, r = CLASSES.index("white"), CLASSES.index("red")
    cost = np.full((3, 8), 1.0)
    cost[0, w] = cost[1, w] = 0.0
    cost[2, r] = 0.0
    assert constrained_classes(cost, cap=cap).tolist() == [w, w, r]
    # under snooker's constraint the second white is left unlabelled
    assert constrained_classes(cost).tolist().count(w) == 1


def test_the_tracker_follows_a_billiards_set_its_two_whites_together():
    tr = Tracker(T, 25.0, balls=billiards_balls())
    assert set(tr.slots) == {"white", "spot", "red"}
    at = [(500.0, 1000.0), (900.0, 2000.0), (700.0, 3000.0)]
    for f in range(3):
        st = tr.update(f, _dets(at, ["white", "white", "red"]))
    assert set(st.pos) == {"white", "spot", "red"}
    assert np.allclose(st.pos["red"], at[2])
    assert {tuple(st.pos["white"]), tuple(st.pos["spot"])} == {at[0], at[1]}
    # a snooker tracker takes one white of the two and no "spot"
    sn = Tracker(T, 25.0)
    st = sn.update(0, _dets(at, ["white", "white", "red"]))
    assert "spot" not in st.pos and "white" in st.pos
