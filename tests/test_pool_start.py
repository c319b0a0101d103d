"""A pool frame started from the camera: a rack whose back balls a low view cannot see keeps
them on the table (:func:`tracker.pipeline.settling.hidden_in_rack`)."""

from __future__ import annotations

import math

from calibration.table import TableGeometry
from tracker.pipeline.settling import hidden_in_rack
from tracker.rules.registry import get_ruleset


def test_a_rack_seen_with_balls_hidden_keeps_them_in_its_free_places() -> None:
    table = TableGeometry.pool(8)
    rules = get_ruleset("eight-ball").with_options(get_ruleset("eight-ball").options, table)
    rack = rules.setup_positions()
    # seen from the head end: the 5, the 12 and the 14 behind the rows in front; the seen
    # balls' numbers read as another layout of the same places (the 9 where the 2 goes)
    seen = {b: p for b, p in rack.items() if b not in ("5", "12", "14")}
    seen["white"] = (600.0, 500.0)
    out = hidden_in_rack(seen, get_ruleset("eight-ball"), table)
    assert set(out) == set(rules.balls.ids)
    assert {b: out[b] for b in ("5", "12", "14")} == {b: rack[b] for b in ("5", "12", "14")}
    assert all(out[b] == p for b, p in seen.items())
    moved = dict(seen, **{"9": rack["5"]})  # the 5's place taken: the 5 goes to the 9's
    out = hidden_in_rack(moved, get_ruleset("eight-ball"), table)
    assert out["5"] == rack["9"]
    places = list(out.values())
    assert all(math.dist(p, q) > table.ball_radius for i, p in enumerate(places) for q in places[:i])


def test_a_layout_after_the_break_is_left_as_seen() -> None:
    table = TableGeometry.pool(8)
    mid = {"white": (600.0, 500.0), "3": (300.0, 1500.0), "11": (900.0, 1900.0)}
    assert hidden_in_rack(mid, get_ruleset("eight-ball"), table) == mid
    assert hidden_in_rack(mid, None) == mid
