"""Eight-ball (002 section 3 and the fouls of section 6): scenarios named after the rule
they check, on constructed shots."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from pool_shots import codes, play, pshot, rack

from tracker.records.shot import InputKind, OperatorInput
from tracker.rules.errors import RuleError
from tracker.rules.pool_types import GROUPS

FOUR_RAILS = ("2", "4", "5", "6")


@pytest.fixture
def eight():
    return rack("eight-ball")


def _open_table(rules, st):
    """A legal break pocketing the 3: A at the table, the table open."""
    return play(rules, st, pshot(1, "1", pots=("3",)))


def _groups(st, a="solids", on_table=None):
    """``st`` with A on ``a``, B on the other group, and ``on_table`` left."""
    b = "stripes" if a == "solids" else "solids"
    st = replace(st, game=replace(st.game, break_due=False, groups=(a, b)), cue_in_hand=False)
    return replace(st, on_table=frozenset(on_table)) if on_table is not None else st


def test_rack_is_a_triangle_the_eight_below_the_apex_a_solid_and_a_stripe_in_the_corners(eight):
    rules, _ = eight
    pos = rules.setup_positions()
    assert set(pos) == {str(i) for i in range(1, 16)}
    apex = min(pos.values(), key=lambda p: p[1])
    assert apex == rules.table.foot_spot
    back = sorted((p for p in pos.items() if p[1][1] == max(q[1] for q in pos.values())),
                  key=lambda kv: kv[1][0])
    corners = {back[0][0], back[-1][0]}
    assert len(corners & set(GROUPS["solids"])) == 1 and len(corners & set(GROUPS["stripes"])) == 1
    # the 8 the first ball directly below the apex: on the long string, in the third row
    rows = sorted({round(p[1], 6) for p in pos.values()})
    assert len(rows) == 5 and pos["8"][0] == apex[0] and round(pos["8"][1], 6) == rows[2]
    pts = list(pos.values())
    assert min(math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]) \
        >= rules.table.ball_diameter


def test_break_needs_no_call_nor_a_particular_ball_and_a_pot_keeps_the_table_open(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "7", pots=("12",)))
    assert not dec.foul and dec.next_striker == "A" and dec.ball_on == "open"
    assert after.game.groups == (None, None)  # a ball on the break chooses no group


def test_illegal_break_gives_the_incoming_player_three_options(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "1", rails=("2", "3")))
    assert not dec.foul and dec.options == ("play", "rerack", "rerack_offender")
    assert dec.next_striker == "B"
    res, again = rules.apply_input(after, OperatorInput(InputKind.OPTION, "rerack_offender", "B"))
    assert res.accepted and again.striker == 0 and again.game.break_due and again.game.rack == 2
    assert again.on_table == frozenset(str(i) for i in range(1, 16)) and again.cue_in_hand
    res, _ = rules.apply_input(after, OperatorInput(InputKind.OPTION, "rerack_offender", "A"))
    assert not res.accepted and "B's" in res.message
    _, on = rules.apply_input(after, OperatorInput(InputKind.OPTION, "play"))
    assert on.striker == 1 and not on.game.break_due and not on.cue_in_hand


def test_eight_on_a_legal_break_the_breaker_chooses_respot_or_rebreak(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "1", pots=("8",)))
    assert not dec.foul and not dec.frame_over and dec.options == ("respot", "rebreak")
    assert dec.next_striker == "A"
    _, spotted = rules.apply_input(after, OperatorInput(InputKind.OPTION, "respot"))
    assert "8" in spotted.on_table and spotted.striker == 0 and not spotted.game.break_due
    _, again = rules.apply_input(after, OperatorInput(InputKind.OPTION, "rebreak"))
    assert again.game.break_due and again.striker == 0


def test_eight_and_a_scratch_on_the_break_the_opponent_chooses(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "1", pots=("8",), cue_pot=True))
    assert codes(dec) == ["scratch"] and not dec.frame_over
    assert dec.options == ("respot", "rebreak") and dec.next_striker == "B"
    _, spotted = rules.apply_input(after, OperatorInput(InputKind.OPTION, "respot"))
    assert "8" in spotted.on_table and spotted.striker == 1
    assert spotted.cue_in_hand and spotted.in_hand_area == "kitchen"
    _, again = rules.apply_input(after, OperatorInput(InputKind.OPTION, "rebreak"))
    assert again.game.break_due and again.striker == 1


def test_ball_off_the_table_on_the_break_is_a_foul_the_eight_spotted(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "1", pots=("2",), off=("11", "8")))
    assert codes(dec) == ["ball_off_table", "ball_off_table"]
    assert dec.options == ("play", "in_hand_kitchen") and dec.next_striker == "B"
    assert "8" in after.on_table and "11" not in after.on_table
    _, kitchen = rules.apply_input(after, OperatorInput(InputKind.OPTION, "in_hand_kitchen"))
    assert kitchen.cue_in_hand and kitchen.in_hand_area == "kitchen"


def test_scratch_on_the_break_gives_the_cue_ball_in_hand_behind_the_head_string(eight):
    rules, st = eight
    dec, after = play(rules, st, pshot(1, "1", pots=("2",), cue_pot=True))
    assert codes(dec) == ["scratch"] and dec.options == ("in_hand_kitchen",)
    assert after.striker == 1 and after.cue_in_hand and after.in_hand_area == "kitchen"


def test_from_the_kitchen_a_ball_behind_the_head_string_must_not_be_hit_first(eight):
    rules, st = eight
    _, st = play(rules, st, pshot(1, "1", pots=("2",), cue_pot=True))
    before = {**rules.setup_positions(), "white": (600.0, 200.0), "4": (300.0, 400.0)}
    before.pop("2")
    dec, _ = play(rules, st, pshot(2, "4", rails=("4",), before=before))
    assert codes(dec) == ["bad_play_from_kitchen"]
    dec, _ = play(rules, st, pshot(2, "4", rails=("4",), before=before, cue_rail_first=True))
    assert not dec.foul and any("head string" in r for r in dec.needs_review)


def test_open_table_the_eight_may_not_be_hit_first(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    dec, _ = play(rules, st, pshot(2, "8", rails=("8",)))
    assert codes(dec) == ["wrong_ball_first"] and "open" in dec.fouls[0].message


def test_called_ball_legally_pocketed_chooses_the_group(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    dec, after = play(rules, st, pshot(2, "10", pots=("10", "5"), nomination="10@top_left"))
    assert after.game.groups == ("stripes", "solids") and dec.next_striker == "A"
    assert dec.ball_on == "stripes" and dec.nominated == "10@top_left"


def test_called_ball_missed_leaves_the_table_open_and_play_passes(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    dec, after = play(rules, st, pshot(2, "10", pots=("5",), nomination="10"))
    assert after.game.groups == (None, None) and dec.next_striker == "B"
    assert "5" not in after.on_table  # an uncalled ball stays down (3.7)


def test_no_call_entered_takes_the_ball_pocketed_as_called(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    dec, after = play(rules, st, pshot(2, "6", pots=("6",)))
    assert after.game.groups == ("solids", "stripes") and dec.next_striker == "A"
    assert any("taken as called" in n for n in dec.notes)


def test_own_group_first_else_a_foul_with_cue_ball_in_hand_anywhere(eight):
    rules, st = eight
    st = _groups(st, "solids")
    dec, after = play(rules, st, pshot(2, "12", pots=("12",)))
    assert codes(dec) == ["wrong_ball_first"] and "one of the solids" in dec.fouls[0].message
    assert dec.next_striker == "B" and after.cue_in_hand and after.in_hand_area == "table"


def test_no_rail_after_contact_is_a_foul(eight):
    rules, st = eight
    dec, _ = play(rules, _groups(st), pshot(2, "1"))
    assert codes(dec) == ["no_rail"]


def test_called_safety_passes_the_turn_with_the_ball_pocketed(eight):
    rules, st = eight
    dec, after = play(rules, _groups(st), pshot(2, "1", pots=("1",), nomination="safety"))
    assert not dec.foul and dec.next_striker == "B" and "1" not in after.on_table


def test_eight_pocketed_before_the_group_is_cleared_loses(eight):
    rules, st = eight
    dec, after = play(rules, _groups(st), pshot(2, "1", pots=("1", "8")))
    assert dec.frame_over and dec.winner == "B" and after.end_reason == "eight_ball_lost"
    assert any("3.8(b)" in n for n in dec.notes)


def test_eight_pocketed_on_the_open_table_loses(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    dec, _ = play(rules, st, pshot(2, "2", pots=("8",)))
    assert dec.frame_over and dec.winner == "B"


def test_eight_with_a_scratch_loses(eight):
    rules, st = eight
    st = _groups(st, "solids", on_table={"8", "12"})
    dec, _ = play(rules, st, pshot(2, "8", pots=("8",), cue_pot=True, nomination="8"))
    assert dec.frame_over and dec.winner == "B" and any("3.8(a)" in n for n in dec.notes)


def test_eight_in_an_uncalled_pocket_loses(eight):
    rules, st = eight
    st = _groups(st, "solids", on_table={"8", "12"})
    dec, _ = play(rules, st, pshot(2, "8", pots=(("8", "middle_left"),), nomination="8@top_left"))
    assert dec.frame_over and dec.winner == "B" and any("3.8(c)" in n for n in dec.notes)


def test_eight_driven_off_the_table_loses(eight):
    rules, st = eight
    st = _groups(st, "solids", on_table={"8", "12"})
    dec, _ = play(rules, st, pshot(2, "8", off=("8",), nomination="8@top_left"))
    assert dec.frame_over and dec.winner == "B"


def test_eight_called_and_pocketed_after_the_group_is_cleared_wins(eight):
    rules, st = eight
    st = _groups(st, "solids", on_table={"8", "12"})
    assert rules.ball_on_label(st) == "8"
    dec, after = play(rules, st, pshot(2, "8", pots=(("8", "top_left"),), nomination="8@top_left"))
    assert dec.frame_over and dec.winner == "A" and after.end_reason == "eight_ball"
    assert dec.score == {"A": 1, "B": 0}


def test_clearing_the_group_and_the_eight_in_one_shot_loses(eight):
    rules, st = eight
    st = _groups(st, "solids", on_table={"1", "8", "12"})
    dec, _ = play(rules, st, pshot(2, "1", pots=("1", "8")))
    assert dec.frame_over and dec.winner == "B"


def test_eight_ball_has_no_three_foul_rule(eight):
    rules, st = eight
    st = _groups(st)
    for n in range(2, 8):  # six fouls in a row, three each
        dec, st = play(rules, st, pshot(n, cue_pot=True, first="9" if st.striker == 0 else "1"))
    assert not dec.frame_over and all("WARNING" not in n for n in dec.notes)


def test_a_call_must_name_a_ball_on_the_table(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    with pytest.raises(RuleError, match="names no object ball on the table"):
        play(rules, st, pshot(2, "2", nomination="3"))
    with pytest.raises(RuleError, match="is not one of"):
        play(rules, st, pshot(2, "2", nomination="2@corner"))


def test_stalemate_the_original_breaker_breaks_again(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    _, st = play(rules, st, pshot(2, "2", rails=("2",)))
    res, again = rules.apply_input(st, OperatorInput(InputKind.STALEMATE))
    assert res.accepted and again.striker == 0 and again.game.break_due
    res, _ = rules.apply_input(st, OperatorInput(InputKind.CLAIM))
    assert not res.accepted and "claim" in res.message


def test_the_operator_sets_the_group_where_the_camera_took_the_wrong_ball_as_called(eight):
    rules, st = eight
    _, st = _open_table(rules, st)
    _, st = play(rules, st, pshot(2, "6", pots=("6", "12")))   # the 6 taken as called
    assert st.game.groups == ("solids", "stripes")
    res, fixed = rules.apply_input(st, OperatorInput(InputKind.OPTION, "stripes", "A"))
    assert res.accepted and fixed.game.groups == ("stripes", "solids")
    assert rules.ball_on_label(fixed) == "stripes"
