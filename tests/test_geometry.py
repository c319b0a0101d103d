"""Table geometry and the referee's geometry queries (snookered, clear path, full ball)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point

from calibration.table import STANDARD_TABLE as T
from calibration.table import TableGeometry
from tracker.rules.geometry import (
    clear_path_to_any_part,
    full_ball_available,
    snooker_test,
)
from tracker.rules.respot import respot_positions
from tracker.rules.snooker import SPOT_PRIORITY


def test_spots_match_the_wpbsa_figures():
    # Source: RULES-DIGEST.md table "[derived] Coordinates in mm" (S1 R1).
    expect = {"brown": (889, 737), "yellow": (1181, 737), "green": (597, 737),
              "blue": (889, 1784.5), "pink": (889, 2676.75), "black": (889, 3245)}
    for c, xy in expect.items():
        assert np.allclose(T.spots[c], xy)


def test_d_positions_are_inside_the_d_and_reach_its_boundary():
    pts = T.d_positions(8.0)
    assert all(T.in_d(p, tol=1e-6) for p in pts)
    r = np.hypot(pts[:, 0] - T.centre_x, pts[:, 1] - T.baulk_line)
    assert r.max() > T.d_radius - 0.01 and np.any(np.isclose(pts[:, 1], T.baulk_line))
    assert not T.in_d((T.centre_x, T.baulk_line + 5)) and T.d_distance_outside(
        (T.centre_x, T.baulk_line - T.d_radius - 10)) == 10


def test_pockets_and_cushions():
    assert len(T.pockets) == 6
    assert T.pockets["baulk_left"].mouth_width == 86.0
    # the cushions never cover the bed away from the pockets
    assert not T.cushions.contains(Point(889, 1784.5))
    assert T.cushions.distance(Point(T.ball_radius, 1000)) < 1.0 + T.ball_radius
    assert T.pocket_at((-10, -10)) == "baulk_left" and T.pocket_at((889, 1000)) is None


def test_other_table_sizes_scale_the_markings():
    t = TableGeometry.of_size(1881, 943, 52.3)
    assert math.isclose(t.baulk_line, 737 * 1881 / 3569)
    assert math.isclose(t.spots["black"][1], 1881 - 324 * 1881 / 3569)


def test_clear_both_edges_is_not_snookered():
    res = snooker_test((889, 1000), {"red_01": (889, 2000)}, ["red_01"], T)
    assert not res.snookered and res.clear_balls == ("red_01",)


def test_half_ball_obstruction_is_snookered_but_has_a_clear_path_to_part_of_it():
    objs = {"red_01": (889, 2000), "blue": (889 + 40, 1500)}
    res = snooker_test((889, 1000), objs, ["red_01"], T)
    assert res.snookered and res.effective == ("blue",)
    assert clear_path_to_any_part((889, 1000), objs, ["red_01"], T) == "red_01"
    assert not full_ball_available((889, 1000), objs, ["red_01"], T)


def test_full_obstruction_has_no_clear_path():
    objs = {"red_01": (889, 2000), "blue": (889, 1500)}
    assert clear_path_to_any_part((889, 1000), objs, ["red_01"], T) is None


def test_effective_snookering_ball_is_the_nearest_and_none_for_different_blockers():
    # two balls on the line: the nearer one is effective
    objs = {"red_01": (889, 2500), "blue": (889, 1500), "pink": (889, 2000)}
    assert snooker_test((889, 1000), objs, ["red_01"], T).effective == ("blue",)
    # two reds hidden by different colours: no effective snookering ball (R17(c))
    objs = {"red_01": (600, 2500), "red_02": (1200, 2500), "blue": (673, 1750),
            "pink": (1124, 1750)}
    res = snooker_test((889, 1000), objs, ["red_01", "red_02"], T)
    assert res.snookered and res.effective == ()
    # equidistant blockers are all effective
    objs = {"red_01": (889, 2500), "blue": (889 - 27, 1500), "pink": (889 + 27, 1500)}
    res = snooker_test((889, 1000), objs, ["red_01"], T)
    assert res.snookered and set(res.effective) == {"blue", "pink"}


def test_other_balls_on_never_obstruct():
    objs = {"red_01": (889, 2500), "red_02": (889, 1500)}
    assert not snooker_test((889, 1000), objs, ["red_01", "red_02"], T).snookered


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(30, 1748), st.floats(30, 3539)), min_size=0, max_size=12),
       st.sets(st.sampled_from(SPOT_PRIORITY), min_size=1, max_size=3))
def test_respotted_balls_never_touch_another_ball(others, balls):
    occupied = {f"red_{i + 1:02d}": p for i, p in enumerate(others)}
    out = respot_positions(sorted(balls), occupied, T.spots, SPOT_PRIORITY,
                           lambda b: SPOT_PRIORITY[::-1].index(b), T.ball_diameter, T.length)
    placed = [r.position for r in out]
    for p in placed:
        # others may overlap each other (random), but never a placed ball
        assert all(math.dist(p, q) >= T.ball_diameter for q in others)
    for i, p in enumerate(placed):
        assert all(math.dist(p, q) >= T.ball_diameter for q in placed[i + 1:])
