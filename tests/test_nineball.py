"""Nine-ball (002 section 2 and the fouls of section 6): scenarios named after the rule
they check, on constructed shots."""

from __future__ import annotations

import math

import pytest
from pool_shots import codes, play, pshot, rack

from calibration.table import TableGeometry
from tracker.records.shot import InputKind, OperatorInput
from tracker.rules.errors import RuleError

FOUR_RAILS = ("2", "4", "5", "6")


@pytest.fixture
def nine():
    return rack("nine-ball")


def _after_legal_dry_break(rules, st):
    """A legal break that pockets nothing: B comes to the table, a push out open."""
    return play(rules, st, pshot(1, "1", rails=FOUR_RAILS))


def test_rack_is_a_diamond_with_the_one_on_the_foot_spot_and_the_nine_in_the_middle(nine):
    rules, st = nine
    pos = rules.setup_positions()
    assert pos["1"] == rules.table.foot_spot
    centre = (sum(p[0] for p in pos.values()) / 9, sum(p[1] for p in pos.values()) / 9)
    assert math.dist(pos["9"], centre) < 1e-6
    pts = list(pos.values())
    assert min(math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]) \
        >= rules.table.ball_diameter
    assert st.cue_in_hand and st.in_hand_area == "kitchen" and rules.balls.ids[0] == "white"


def test_break_pocketing_a_ball_keeps_the_breaker_at_the_table(nine):
    rules, st = nine
    dec, after = play(rules, st, pshot(1, "1", pots=("3",)))
    assert not dec.foul and dec.next_striker == "A" and "3" not in after.on_table
    assert dec.ball_on == "1"


def test_break_with_fewer_than_four_balls_to_a_cushion_is_a_foul(nine):
    rules, st = nine
    dec, after = play(rules, st, pshot(1, "1", rails=("2", "4", "5")))
    assert codes(dec) == ["bad_break"] and dec.fouls[0].rule == "002 2.3(b)"
    assert dec.next_striker == "B" and after.cue_in_hand and after.in_hand_area == "table"


def test_break_driving_four_balls_to_a_cushion_is_legal_and_opens_a_push_out(nine):
    rules, st = nine
    dec, after = _after_legal_dry_break(rules, st)
    assert not dec.foul and dec.next_striker == "B" and not after.cue_in_hand
    assert after.game.push_out_open and any("push out" in n for n in dec.notes)


def test_break_must_hit_the_one_first(nine):
    rules, st = nine
    dec, _ = play(rules, st, pshot(1, "2", pots=("3",)))
    assert codes(dec) == ["wrong_ball_first"] and dec.next_striker == "B"


def test_nine_on_the_break_wins_the_rack(nine):
    rules, st = nine
    dec, after = play(rules, st, pshot(1, "1", pots=("9",)))
    assert dec.frame_over and dec.winner == "A" and after.end_reason == "nine_ball"
    assert dec.score == {"A": 1, "B": 0}


def test_nine_on_the_break_with_a_scratch_is_spotted_and_a_foul(nine):
    rules, st = nine
    spread = {str(i): (100.0 + 120 * i, 1200.0) for i in range(1, 9)}
    dec, after = play(rules, st, pshot(1, "1", pots=("9",), cue_pot=True, after=spread))
    assert not dec.frame_over and codes(dec) == ["scratch"]
    assert [r.ball for r in dec.respots] == ["9"] and "9" in after.on_table
    assert after.positions["9"] == rules.table.foot_spot  # the foot spot was free
    _, blocked = play(rules, st, pshot(1, "1", pots=("9",), cue_pot=True))
    x, y = blocked.positions["9"]  # the rack still there: behind it on the long string
    assert x == rules.table.foot_spot[0] and y > rules.table.foot_spot[1]
    assert all(math.dist((x, y), p) >= rules.table.ball_diameter
               for b, p in blocked.positions.items() if b != "9")
    assert dec.next_striker == "B" and after.cue_in_hand and not after.game.push_out_open


def test_lowest_ball_first_else_a_foul_with_cue_ball_in_hand_anywhere(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "3", pots=("3",)))
    assert codes(dec) == ["wrong_ball_first"] and "3" not in after.on_table  # not spotted
    assert dec.next_striker == "A" and dec.cue_in_hand and after.in_hand_area == "table"


def test_no_rail_after_contact_is_a_foul(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, _ = play(rules, st, pshot(2, "1"))
    assert codes(dec) == ["no_rail"]
    dec, _ = play(rules, st, pshot(2, "1", rails=("white",)))
    assert not dec.foul and dec.next_striker == "A"


def test_scratch_and_a_ball_off_the_table_are_fouls_and_only_the_nine_is_spotted(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "1", pots=("2",), cue_pot=True, off=("4",)))
    assert codes(dec) == ["scratch", "ball_off_table"]
    assert not {"2", "4"} & after.on_table and dec.respots == ()
    dec, after = play(rules, st, pshot(2, "1", off=("9",)))
    assert codes(dec) == ["ball_off_table"] and "9" in after.on_table


def test_nine_pocketed_on_a_foul_is_spotted_and_wins_nothing(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "2", pots=("9",)))
    assert not dec.frame_over and "9" in after.on_table and dec.next_striker == "A"


def test_nine_legally_pocketed_on_a_combination_wins(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, _ = play(rules, st, pshot(2, "1", pots=("9",)))
    assert dec.frame_over and dec.winner == "B"


def test_push_out_suspends_wrong_ball_and_rail_and_the_other_player_chooses(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "5", nomination="push_out"))
    assert not dec.foul and dec.options == ("play", "pass") and dec.next_striker == "A"
    res, passed = rules.apply_input(after, OperatorInput(InputKind.OPTION, "pass", "A"))
    assert res.accepted and res.next_striker == "B" and passed.game.choice is None
    res, played = rules.apply_input(after, OperatorInput(InputKind.OPTION, "play"))
    assert res.next_striker == "A"


def test_push_out_pocketing_the_nine_spots_it_and_keeps_nobody_at_the_table(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "5", pots=("9", "4"), nomination="push_out"))
    assert not dec.frame_over and "9" in after.on_table and "4" not in after.on_table
    assert dec.next_striker == "A"


def test_push_out_with_a_scratch_is_a_foul(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    dec, after = play(rules, st, pshot(2, "5", cue_pot=True, nomination="push_out"))
    assert codes(dec) == ["scratch"] and dec.options == () and after.cue_in_hand


def test_push_out_only_on_the_shot_after_the_break(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    _, st = play(rules, st, pshot(2, "1", rails=("1",)))  # B plays: A is at the table
    dec, _ = play(rules, st, pshot(3, "5", nomination="push_out"))
    assert codes(dec) == ["wrong_ball_first", "no_rail"]
    assert any("push out" in r for r in dec.needs_review)


def test_no_push_out_after_a_foul_on_the_break(nine):
    rules, st = nine
    _, st = play(rules, st, pshot(1, "1", rails=("2",)))
    assert not st.game.push_out_open


def test_after_a_push_out_the_next_record_s_striker_says_who_was_chosen(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)
    _, st = play(rules, st, pshot(2, "5", nomination="push_out"))
    dec, _ = play(rules, st, pshot(3, "1", pots=("1",), striker="B"))
    assert not dec.foul and dec.striker == "B" and any("pass" in n for n in dec.notes)


def test_three_successive_fouls_lose_the_rack_with_a_warning_after_the_second(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)   # B to play
    d1, st = play(rules, st, pshot(2, "3", rails=("3",)))       # B foul 1
    d2, st = play(rules, st, pshot(3, "1", rails=("1",)))      # A legal
    d3, st = play(rules, st, pshot(4, cue_pot=True, first="1"))  # B foul 2
    assert st.game.fouls == (0, 2) and not any("WARNING" in n for n in d3.notes)
    d4, st = play(rules, st, pshot(5, "1", rails=("1",)))        # A legal: B comes back
    assert any("WARNING: B is on two fouls" in n for n in d4.notes)
    d5, st = play(rules, st, pshot(6, "4", rails=("4",)))        # B foul 3
    assert d5.frame_over and d5.winner == "A" and st.end_reason == "three_fouls"


def test_a_legal_shot_between_fouls_resets_the_count(nine):
    rules, st = nine
    _, st = _after_legal_dry_break(rules, st)   # B
    _, st = play(rules, st, pshot(2, "3", rails=("3",)))   # B foul
    _, st = play(rules, st, pshot(3, "1", rails=("1",)))   # A
    _, st = play(rules, st, pshot(4, "1", rails=("1",)))   # B legal
    assert st.game.fouls == (0, 0)


def test_cue_ball_placed_past_the_head_string_on_the_break_is_a_foul(nine):
    rules, st = nine
    before = {**rules.setup_positions(), "white": (635.0, 900.0)}
    dec, _ = play(rules, st, pshot(1, "1", pots=("3",), before=before))
    assert codes(dec) == ["bad_placement"]
    before["white"] = (635.0, 300.0)
    dec, _ = play(rules, st, pshot(1, "1", pots=("3",), before=before))
    assert not dec.foul


def test_fouls_the_operator_enters_are_called(nine):
    rules, st = nine
    dec, _ = play(rules, st, pshot(1, "1", pots=("3",), fouls=("double_hit",)))
    assert codes(dec) == ["double_hit"] and dec.fouls[0].rule == "002 2.7, 6.7"
    with pytest.raises(RuleError, match="not a pool foul"):
        play(rules, st, pshot(1, "1", fouls=("in_hand_outside_d",)))


def test_a_ball_of_another_game_is_refused_in_one_line(nine):
    rules, st = nine
    with pytest.raises(RuleError, match="not a ball of nine-ball"):
        play(rules, st, pshot(1, "red_01"))
    _, st = play(rules, st, pshot(1, "1", pots=("3",)))
    with pytest.raises(RuleError, match="the 3, which is not on the table"):
        play(rules, st, pshot(2, "3"))


def test_pool_tables_of_seven_eight_and_nine_feet():
    for feet, length in ((9, 2540.0), (8, 2336.8), (7, 1981.2)):
        t = TableGeometry.pool(feet)
        assert t.length == length and t.width == length / 2 and t.ball_diameter == 57.15
        assert t.head_string == length / 4 and t.foot_spot == (t.width / 2, 3 * length / 4)
        assert t.d_radius == 0 and len(t.diamonds()) == 18
        assert t.pockets["top_left"].mouth_width == 115.9
    with pytest.raises(ValueError, match="7, 8 or 9 ft"):
        TableGeometry.pool(12)


def test_a_layout_taken_up_mid_rack_is_no_break_but_a_rack_seen_is(nine):
    """A video starting mid-rack: its first shot is no break (the break's rules would
    judge it); the rack seen end for end (the camera turned) is still a rack to break."""
    rules, _ = nine
    racked = rules.setup_positions()
    assert rules.new_frame(("A", "B"), positions=racked).game.break_due
    turned = {b: (x, rules.table.length - y) for b, (x, y) in racked.items()}
    assert rules.new_frame(("A", "B"), positions=turned).game.break_due
    spread = {"white": (600.0, 500.0), "1": (300.0, 900.0), "4": (900.0, 1800.0),
              "9": (700.0, 2200.0)}
    st = rules.new_frame(("A", "B"), positions=spread)
    assert not st.game.break_due and not st.cue_in_hand
