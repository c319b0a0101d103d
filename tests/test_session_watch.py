"""The between-frames watcher (tracker.session_watch) on constructed detections: a full rack,
a 6-red rack, partial racks, an empty table, people in the way, balls knocked about."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.rules.registry import get_ruleset
from tracker.session_watch import RackParams, RackWatcher

TABLE = TableGeometry.standard()


def dets(balls: dict[str, tuple[float, float]]) -> BallDetections:
    """Detections of ``balls`` (id -> mm); a red id ``red_..`` is seen as a red."""
    names = ["red" if b.startswith("red") else b for b in balls]
    n = len(names)
    mm = np.array(list(balls.values()), float).reshape(-1, 2)
    return BallDetections(mm.copy(), mm, np.full(n, 10.0),
                          np.array([CLASSES.index(c) for c in names], int), np.ones(n))


def watcher(ruleset: str = "snooker", **params) -> tuple[RackWatcher, dict]:
    rules = get_ruleset(ruleset)
    rack = rules.setup_positions()
    return RackWatcher(TABLE, rack, rules.balls, RackParams(**params)), rack


def stand(w: RackWatcher, balls: dict, t0: float, seconds: float, fps: float = 5.0) -> bool:
    """Show ``balls`` from ``t0`` for ``seconds``; whether a rack was confirmed."""
    out = False
    for k in range(int(seconds * fps)):
        out = w.update(t0 + k / fps, dets(balls)) or out
    return out


def test_a_full_rack_with_the_cue_ball_in_hand_starts_a_frame_after_it_stands():
    w, rack = watcher(stable_s=3.0, dropout_s=1.0)
    assert w.look(dets(rack)).phase == "rack"
    assert not stand(w, rack, 0.0, 2.0)  # not yet: it must stand 3 s
    assert stand(w, rack, 2.0, 1.6)
    assert w.phase == "rack"


def test_the_cue_ball_in_the_d_is_still_a_rack_but_not_on_the_baulk_side_outside_it():
    w, rack = watcher()
    assert w.look(dets({**rack, "white": (TABLE.centre_x + 100, TABLE.baulk_line - 50)})).phase \
        == "rack"
    assert w.look(dets({**rack, "white": (200.0, 300.0)})).phase != "rack"


def test_six_reds_rack_is_not_searched_for_fifteen():
    w6, rack6 = watcher("snooker-6-reds")
    assert w6.n_reds == 6 and w6.look(dets(rack6)).phase == "rack"
    w15, _ = watcher()
    assert w15.look(dets(rack6)).phase == "racking"  # six reds are no 15-red rack


@pytest.mark.parametrize("drop", [
    ["pink"],                                      # a colour missing
    ["red_01", "red_02"],                          # two reds missing
])
def test_partial_racks_are_not_racks(drop):
    w, rack = watcher()
    look = w.look(dets({b: p for b, p in rack.items() if b not in drop}))
    assert look.phase == "racking"
    assert not stand(w, {b: p for b, p in rack.items() if b not in drop}, 0.0, 10.0)


def test_a_colour_off_its_spot_is_not_a_rack():
    w, rack = watcher()
    moved = {**rack, "blue": (rack["blue"][0] + 300, rack["blue"][1])}
    assert w.look(dets(moved)).phase == "racking"


def test_one_red_hidden_in_the_pack_is_allowed():
    w, rack = watcher()
    assert w.look(dets({b: p for b, p in rack.items() if b != "red_15"})).phase == "rack"


def test_an_empty_table_and_balls_knocked_about_start_nothing():
    w, _ = watcher()
    assert not w.update(0.0, BallDetections.empty()) and w.phase == "empty"
    rng = np.random.default_rng(3)
    scattered = {f"red_{i:02d}": (float(rng.uniform(60, 1700)), float(rng.uniform(60, 3500)))
                 for i in range(1, 9)}
    scattered.update({"white": (900.0, 1000.0), "black": (300.0, 3000.0)})
    assert not stand(w, scattered, 0.0, 20.0)
    assert w.phase == "balls"


def test_people_in_the_way_briefly_do_not_restart_the_count_but_long_ones_do():
    w, rack = watcher(stable_s=3.0, dropout_s=1.0)
    leaning = {b: p for b, p in rack.items() if not b.startswith("red")}  # the pack covered
    assert not stand(w, rack, 0.0, 2.0)
    assert not w.update(2.0, dets(leaning))    # 0.2 s covered: the count goes on
    assert stand(w, rack, 2.2, 1.0)            # 3 s from the first look
    w.reset()
    assert not stand(w, rack, 10.0, 2.0)
    assert not stand(w, leaning, 12.0, 2.0)    # 2 s covered: the count starts again
    assert not stand(w, rack, 14.0, 2.8)
    assert stand(w, rack, 16.8, 0.4)


def test_the_rack_counts_as_broken_only_when_most_reds_left_the_triangle():
    w, rack = watcher()
    nudged = {**rack, "red_01": (400.0, 2000.0), "white": (900.0, 500.0)}
    stand(w, nudged, 0.0, 1.0)
    assert not w.broken                        # a soft break-off: the pack stands
    spread = {b: ((p[0] + 300) % 1700, (p[1] - 900)) if b.startswith("red") else p
              for b, p in rack.items()}
    w.update(2.0, dets(spread))
    assert w.broken
    w.reset()
    assert not w.broken


def test_the_default_rack_stands_long_enough_before_a_quick_break_off():
    """The defaults confirm a rack within a second: a break-off two seconds after the last
    colour is put on its spot (the synthetic match's pace) comes after the frame started."""
    w, rack = watcher()
    assert stand(w, rack, 0.0, 1.2, fps=25.0)
