"""Snookerpool (source 004): set-up, phases, spotting, penalties, end and tie-break."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from tracker.records.shot import Event, EventType, Shot
from tracker.rules.registry import get_ruleset
from tracker.rules.snookerpool import SOLIDS, STRIPES, stripe_spots
from tracker.rules.state import Phase


def sp_shot(n=1, first=None, pots=(), cue_pot=False, nomination=None, before=None, after=None):
    ev = [Event(EventType.STRIKE, 0.0, ("white",))]
    for b in ([first] if isinstance(first, str) else (first or [])):
        ev.append(Event(EventType.CONTACT, 0.5, ("white", b)))
    for i, b in enumerate(pots):
        ev.append(Event(EventType.POT, 1 + i / 10, (b,), pocket="top_left"))
    if cue_pot:
        ev.append(Event(EventType.POT, 2.0, ("white",), pocket="baulk_left"))
    return Shot(shot=n, events=tuple(ev), nomination=nomination, positions_before=before,
                positions_after=after)


@pytest.fixture
def rules():
    return get_ruleset("snookerpool")


def test_setup_has_every_ball_apart_and_the_stripes_on_their_spots(rules):
    pos = rules.setup_positions()
    assert set(pos) == set(SOLIDS) | set(STRIPES)
    spots = stripe_spots(rules.table)
    assert all(pos[s] == spots[s] for s in STRIPES)
    pts = list(pos.values())
    d = rules.table.ball_diameter
    assert min(math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]) >= d
    for n, expect in (("snookerpool-6-solids", 6), ("snookerpool-3-solids", 3)):
        r = get_ruleset(n)
        assert len([b for b in r.setup_positions() if b in SOLIDS]) == expect


def test_solid_then_stripe_of_choice_then_solids_again(rules):
    st = rules.new_frame(("A", "B"))
    d1, s1 = rules.decide(st, sp_shot(1, "3", ("3",)))
    assert d1.points["A"] == 1 and s1.phase == Phase.COLOUR_CHOICE and d1.ball_on == "stripe"
    d2, s2 = rules.decide(s1, sp_shot(2, "13", ("13",)))
    assert d2.points["A"] == 6 and [r.ball for r in d2.respots] == ["13"]
    assert s2.phase == Phase.RED and "13" in s2.on_table


def test_foul_after_a_solid_before_a_stripe_is_nominated_costs_eight(rules):
    st = rules.new_frame(("A", "B"))
    _, s1 = rules.decide(st, sp_shot(1, "3", ("3",)))
    d, s2 = rules.decide(s1, sp_shot(2))  # no contact, no nomination
    assert d.penalty == 8 and d.score == {"A": 1, "B": 8}
    assert s2.cue_in_hand and d.options == ("ball_in_hand",) and not d.free_ball


def test_penalty_is_highest_of_four_ball_on_and_balls_involved(rules):
    st = rules.new_frame(("A", "B"))
    d, _ = rules.decide(st, sp_shot(1, "2", ("2", "15")))  # a stripe potted with solids on
    assert d.penalty == 8 and [r.ball for r in d.respots] == ["15"]
    d2, _ = rules.decide(st, sp_shot(1, "2", cue_pot=True))
    assert d2.penalty == 4


def test_two_solids_together_are_fair_but_solid_and_stripe_are_not(rules):
    st = rules.new_frame(("A", "B"))
    assert not rules.decide(st, sp_shot(1, ["1", "2"]))[0].foul
    assert rules.decide(st, sp_shot(1, ["1", "12"]))[0].penalty == 5


def test_phase_two_plays_stripes_in_order_and_they_stay_down(rules):
    st = rules.new_frame(("A", "B"))
    st = replace(st, on_table=frozenset({"9", "10", "15"}), phase=Phase.SEQ, seq_colour="9",
                 positions=None, cue_in_hand=False)
    d, s = rules.decide(st, sp_shot(1, "9", ("9",)))
    assert d.points["A"] == 2 and "9" not in s.on_table and d.ball_on == "10"
    d2, _ = rules.decide(s, sp_shot(2, "15"))
    assert d2.penalty == 8  # wrong ball first, the 15 is worth 8


def test_last_solid_gives_one_stripe_of_choice_then_phase_two(rules):
    st = rules.new_frame(("A", "B"))
    st = replace(st, on_table=frozenset({"1", "9", "12", "15"}), positions=None, cue_in_hand=False)
    _, s1 = rules.decide(st, sp_shot(1, "1", ("1",)))
    assert s1.phase == Phase.COLOUR_CHOICE
    d2, s2 = rules.decide(s1, sp_shot(2, "12", ("12",)))
    assert d2.points["A"] == 5 and "12" in s2.on_table  # spotted: a solid was potted before
    assert s2.phase == Phase.SEQ and s2.seq_colour == "9"


def test_frame_ends_on_the_15_and_a_tie_plays_on(rules):
    st = rules.new_frame(("A", "B"))
    st = replace(st, on_table=frozenset({"15"}), phase=Phase.SEQ, seq_colour="15", scores=(30, 38),
                 positions=None, cue_in_hand=False)
    d, s = rules.decide(st, sp_shot(1, "15", ("15",)))
    assert not d.frame_over and s.phase == Phase.RESPOTTED_BLACK and s.on_table == {"15"}
    d2, s2 = rules.decide(s, sp_shot(2, "15", ("15",)))
    assert d2.frame_over and d2.winner == "A"
    st3 = replace(st, scores=(40, 38))
    d3, _ = rules.decide(st3, sp_shot(1, "15", ("15",)))
    assert d3.frame_over and d3.winner == "A"
