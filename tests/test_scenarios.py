"""Every referee scenario of RULES-DIGEST.md section 5, one test each, named after its id.

Source: shared/rules/RULES-DIGEST.md section 5 (players A striker, B opponent).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import PLAYERS, decide, rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput
from tracker.rules.match import Match
from tracker.rules.state import Phase

SP = T.spots


def spread_reds(n: int, y0: float = 3000.0) -> dict:
    """n reds in a row across the top of the table, well apart."""
    return {B.red_id(i + 1): (300.0 + i * 120.0, y0) for i in range(n)}


def colours_on_spots() -> dict:
    return {c: SP[c] for c in B.COLOURS}


def test_S01_several_reds_in_one_stroke():
    st = state(Phase.RED, reds=9, scores=(12, 20))
    d, n = decide(st, shot(first="red_01", pots=("red_01", "red_02", "red_03")))
    assert not d.foul and d.points == {"A": 3, "B": 0} and d.score == {"A": 15, "B": 20}
    assert n.phase == Phase.COLOUR_CHOICE and n.striker == 0
    assert len(rules().reds(n.on_table)) == 6
    assert d.respots == () and not d.free_ball


def test_S02_red_and_colour_together_with_red_on():
    st = state(Phase.RED, reds=9, scores=(12, 20))
    d, n = decide(st, shot(first="red_01", pots=("red_01", "blue")))
    assert d.foul and d.penalty == 5 and d.score == {"A": 12, "B": 25}
    assert [f.code for f in d.fouls] == ["pot_not_on"] and d.fouls[0].rule == "S3 R10(b)(iii)"
    assert len(rules().reds(n.on_table)) == 8 and "blue" in n.on_table
    assert [r.ball for r in d.respots] == ["blue"]
    assert d.options == ("play", "play_again") and d.next_striker == "B" and d.ball_on == "red"


def test_S04_colour_hit_first_and_potted_with_red_on():
    st = state(Phase.RED, reds=6, scores=(30, 30))
    d, n = decide(st, shot(first="black", pots=("black",)))
    assert d.penalty == 7 and d.score == {"A": 30, "B": 37}
    assert {f.code for f in d.fouls} == {"wrong_ball_first", "pot_not_on"}
    assert [r.ball for r in d.respots] == ["black"] and n.phase == Phase.RED


def test_S05_cue_ball_potted_after_a_fair_red():
    pos = {**spread_reds(6), **colours_on_spots(), "white": (889.0, 2400.0)}
    after = {k: v for k, v in pos.items() if k not in ("red_01",)}
    st = state(Phase.RED, reds=6, scores=(30, 30), positions=pos)
    d, n = decide(st, shot(first="red_01", pots=("red_01",), cue_pot=True, before=pos, after=after))
    assert d.penalty == 4 and d.score == {"A": 30, "B": 34}
    assert [f.code for f in d.fouls] == ["cue_ball_potted"]
    assert len(rules().reds(n.on_table)) == 5 and n.cue_in_hand and n.striker == 1
    assert d.ball_on == "red" and not d.free_ball  # reds are in full view from the D


def test_S06_in_off_after_potting_the_nominated_black():
    st = state(Phase.COLOUR_CHOICE, reds=5, scores=(31, 30))
    d, n = decide(st, shot(first="black", pots=("black",), cue_pot=True, nomination="black"))
    assert d.penalty == 7 and d.score == {"A": 31, "B": 37}
    assert [r.ball for r in d.respots] == ["black"] and "black" in n.on_table
    assert n.cue_in_hand and d.next_striker == "B" and d.ball_on == "red"


def test_S08_last_red_then_colour_of_choice():
    st = state(Phase.RED, reds=1, scores=(40, 30))
    d1, s1 = decide(st, shot(1, first="red_01", pots=("red_01",)))
    assert d1.score == {"A": 41, "B": 30} and s1.phase == Phase.COLOUR_CHOICE and s1.last_red_colour
    assert d1.points_remaining == 34
    d2, s2 = decide(s1, shot(2, first="blue", pots=("blue",), nomination="blue"))
    assert d2.score == {"A": 46, "B": 30} and [r.ball for r in d2.respots] == ["blue"]
    assert s2.phase == Phase.SEQ and s2.seq_colour == "yellow" and s2.striker == 0
    # variant: the blue is missed -> no foul, B on yellow
    d3, s3 = decide(s1, shot(2, first="blue", nomination="blue"))
    assert not d3.foul and d3.next_striker == "B" and d3.ball_on == "yellow"


def test_S09_wrong_colour_first_in_sequence():
    st = state(Phase.SEQ, reds=0, scores=(50, 40), colours=("green", "brown", "blue", "pink", "black"))
    d, n = decide(st, shot(first="brown"))
    assert d.penalty == 4 and d.score == {"A": 50, "B": 44}
    assert d.ball_on == "green" and d.options[:2] == ("play", "play_again")


def _fb_state(reds: int, scores=(24, 30), phase=Phase.RED, colours=B.COLOURS, seq=None):
    return state(phase, reds=reds, scores=scores, free_ball=True, colours=colours, seq=seq)


def test_S11_free_ball_potted_as_a_red():
    st = _fb_state(8)
    d, n = decide(st, shot(first="green", pots=("green",), free_ball="green"))
    assert not d.foul and d.score == {"A": 25, "B": 30}
    assert [r.ball for r in d.respots] == ["green"] and n.phase == Phase.COLOUR_CHOICE
    assert n.striker == 0 and d.free_ball_nominated == "green"


def test_S13_free_ball_nominated_red_hit_first():
    st = _fb_state(8)
    d, n = decide(st, shot(first="red_01", free_ball="green"))
    assert d.penalty == 4 and d.score == {"A": 24, "B": 34}
    assert d.fouls[0].code == "free_ball_not_hit_first"
    # asked to play again: the free ball is void
    res, s2 = rules().apply_input(n, OperatorInput(InputKind.OPTION, choice="play_again"))
    assert res.accepted and s2.striker == 0 and not s2.free_ball


def test_S14_free_ball_used_to_pot_the_ball_on():
    st = _fb_state(0, scores=(40, 45), phase=Phase.SEQ, seq="yellow")
    d, n = decide(st, shot(first="green", pots=("yellow",), free_ball="green"))
    assert not d.foul and d.score == {"A": 42, "B": 45}
    assert "yellow" not in n.on_table and "green" in n.on_table
    assert n.phase == Phase.SEQ and n.seq_colour == "green" and n.striker == 0


def test_S16_snookering_behind_the_free_ball():
    reds = {"red_01": (360.0, 3300.0), "red_02": (400.0, 3300.0), "red_03": (440.0, 3300.0),
            "red_04": (400.0, 3360.0)}
    cols = {c: SP[c] for c in ("yellow", "green", "brown", "blue", "pink")}
    before = {**reds, **cols, "black": (400.0, 2900.0), "white": (400.0, 2300.0)}
    after = {**reds, **cols, "black": (400.0, 2665.0), "white": (400.0, 2600.0)}
    st = replace(_fb_state(4, scores=(10, 10)), positions=before)
    d, n = decide(st, shot(first="black", free_ball="black", before=before, after=after))
    assert d.foul and d.penalty == 4 and d.fouls[0].code == "snooker_behind_free_ball"
    assert d.free_ball and n.free_ball and n.striker == 1  # B is snookered after a foul
    assert d.effective_snookering == ("black",)


def test_S18_one_red_with_both_edges_clear_is_no_free_ball():
    reds = {"red_01": (300.0, 2000.0), "red_02": (889.0, 3000.0), "red_03": (950.0, 3000.0)}
    cols = {c: SP[c] for c in ("yellow", "green", "brown", "blue", "pink", "black")}
    cols["pink"] = (910.0, 2700.0)  # hides red_02 and red_03 from the white
    after = {**reds, **cols, "white": (900.0, 2500.0)}
    before = {**after, "white": (1200.0, 1200.0)}
    st = state(Phase.RED, reds=3, positions=before)
    d, n = decide(st, shot(first="blue", before=before, after=after))
    assert d.foul and not d.free_ball and not n.free_ball


def test_S20_jaws_closer_than_any_blocking_ball_is_no_free_ball():
    # White in the jaws of the left middle pocket; two reds along the left cushion, the blue
    # between. The upper jaw's nose obstructs every path before the blue does (S2 R17(e)).
    reds = {"red_01": (27.0, 2400.0), "red_02": (27.0, 2500.0)}
    cols = {c: SP[c] for c in ("yellow", "green", "brown", "pink", "black")}
    after = {**reds, **cols, "blue": (27.0, 2150.0), "white": (10.0, 1784.5)}
    before = {**after, "white": (400.0, 1000.0)}
    st = state(Phase.RED, reds=2, positions=before)
    d, n = decide(st, shot(first="yellow", before=before, after=after))
    assert d.foul and not d.free_ball
    # Control: the same cue-ball line but outside the jaws is snookered by the blue.
    from tracker.rules.geometry import snooker_test
    objs = {k: v for k, v in after.items() if k != "white"}
    assert snooker_test((27.0, 1900.0), objs, ["red_01", "red_02"], T).snookered


def test_S22_nominated_colour_knocks_in_another_colour():
    st = state(Phase.COLOUR_CHOICE, reds=5, scores=(60, 20))
    d, n = decide(st, shot(first="pink", pots=("black",), nomination="pink"))
    assert d.penalty == 7 and d.score == {"A": 60, "B": 27}
    assert [r.ball for r in d.respots] == ["black"] and d.ball_on == "red"


def test_S23_no_nomination_and_no_contact_after_a_red():
    st = state(Phase.COLOUR_CHOICE, reds=5)
    d, _ = decide(st, shot())
    assert d.penalty == 7 and d.fouls[0].code == "no_contact"
    assert any("undetermined" in r for r in d.needs_review)
    d2, _ = decide(st, shot(nomination="green"))
    assert d2.penalty == 4


def test_S24_red_and_colour_hit_at_the_same_moment():
    st = state(Phase.RED, reds=6)
    d, _ = decide(st, shot(first=("red_01", "blue")))
    assert d.penalty == 5 and d.fouls[0].code == "simultaneous_hit"
    assert d.fouls[0].rule == "S3 R10(c)"


def test_S26_red_clipped_on_the_way_to_a_colour():
    st = state(Phase.COLOUR_CHOICE, reds=5)
    d, _ = decide(st, shot(first="red_01", nomination="yellow"))
    assert d.penalty == 4 and d.fouls[0].code == "wrong_ball_first"
    d7, _ = decide(st, shot(first="red_01", nomination="yellow", fouls=("deliberate_red",)))
    assert d7.penalty == 7


def test_S27_red_forced_off():
    st = state(Phase.RED, reds=6)
    d, n = decide(st, shot(first="red_01", off=("red_02",)))
    assert d.penalty == 4 and len(rules().reds(n.on_table)) == 5 and d.respots == ()


def test_S28_colour_left_resting_on_the_rail():
    st = state(Phase.RED, reds=6, scores=(0, 0))
    d, n = decide(st, shot(first="red_01", pots=("red_01",), off=("pink",)))
    assert d.penalty == 6 and d.score == {"A": 0, "B": 6}
    assert [r.ball for r in d.respots] == ["pink"] and "red_01" not in n.on_table


def _touching_layout(ball: str):
    reds = spread_reds(6)
    pos = {**reds, **colours_on_spots()}
    target = pos[ball]
    pos["white"] = (target[0], target[1] - 52.5)
    return pos


def test_S30_playing_away_from_a_touching_ball_on():
    pos = _touching_layout("red_03")
    st = state(Phase.RED, reds=6, positions=pos)
    d, n = decide(st, shot(before=pos, after=pos))
    assert not d.foul and d.next_striker == "B" and d.ball_on == "red" and not d.free_ball


def test_S31_touching_ball_moves_is_a_push():
    pos = _touching_layout("red_03")
    st = state(Phase.RED, reds=6, positions=pos)
    push = (Event(EventType.PUSH, 0.0, ("red_03",)),)
    d, _ = decide(st, shot(before=pos, extra=push))
    assert d.penalty == 4 and "push_stroke" in [f.code for f in d.fouls]
    pos_b = _touching_layout("black")
    st_b = state(Phase.RED, reds=6, positions=pos_b)
    d_b, _ = decide(st_b, shot(before=pos_b, first="red_01",
                               extra=(Event(EventType.PUSH, 0.0, ("black",)),)))
    assert d_b.penalty == 7


def test_S32_touching_a_ball_not_on_then_no_contact():
    pos = _touching_layout("blue")
    st = state(Phase.RED, reds=6, positions=pos)
    d, _ = decide(st, shot(before=pos, after=pos))
    assert d.penalty == 4 and d.fouls[0].code == "no_contact"
    assert d.notes  # the miss review is explained


def test_S34_jump_shot():
    st = state(Phase.RED, reds=6)
    jump_before = (Event(EventType.JUMP, 0.3, ("blue",)),)
    d, _ = decide(st, shot(first="red_01", extra=jump_before))
    assert d.penalty == 4 and d.fouls[0].code == "jump_shot"
    jump_after = (Event(EventType.JUMP, 0.7, ("blue",)),)
    d2, _ = decide(st, shot(first="red_01", extra=jump_after))
    assert not d2.foul


def test_S35_hanging_ball_drops_between_strokes():
    pos = {**spread_reds(6), **colours_on_spots(), "white": (889.0, 1500.0)}
    st = state(Phase.RED, reds=6, scores=(10, 10), positions=pos)
    sh = shot(before=pos)
    sh = replace(sh, events=(Event(EventType.LIP_DROP, -2.0, ("red_04",)),))
    d, n = decide(st, sh)
    assert not d.foul and d.score == {"A": 10, "B": 10} and "red_04" in n.on_table
    assert d.respots[0].how == "put_back" and d.respots[0].position == pos["red_04"]
    assert n.striker == 0


def test_S37_momentary_balance_counts():
    st = state(Phase.SEQ, reds=0, colours=("pink", "black"), scores=(20, 20))
    sh = shot(first="pink")
    sh = replace(sh, events=(*sh.events, Event(EventType.POT, 3.0, ("pink",), pocket="top_left",
                                              rest_s=1.0)))
    d, n = decide(st, sh)
    assert not d.foul and d.score["A"] == 26 and n.seq_colour == "black"
    late = replace(sh, events=(*sh.events[:-1], Event(EventType.POT, 9.0, ("pink",),
                                                      pocket="top_left", rest_s=6.0)))
    d2, n2 = decide(st, late)
    assert d2.score["A"] == 20 and "pink" in n2.on_table


def test_S38_own_spot_occupied_goes_to_the_highest_free_spot():
    pos = {**spread_reds(5), **colours_on_spots(), "white": (889.0, 1500.0)}
    pos["black"] = (500.0, 3100.0)
    pos["red_05"] = (889.0 + 40.0, SP["blue"][1])  # within 52.5 mm of the blue spot
    after = {k: v for k, v in pos.items() if k != "blue"}
    st = state(Phase.COLOUR_CHOICE, reds=5, positions=pos)
    d, _ = decide(st, shot(first="blue", pots=("blue",), nomination="blue", before=pos, after=after))
    assert d.points["A"] == 5
    assert d.respots[0].ball == "blue" and d.respots[0].position == SP["black"]


def test_S39_every_spot_occupied():
    pos = {c: SP[c] for c in ("yellow", "green", "brown", "pink")}
    pos["blue"] = (700.0, 1500.0)
    pos["black"] = (600.0, 3000.0)
    pos["red_01"] = SP["black"]  # every spot is covered
    pos["red_02"] = SP["blue"]
    pos["white"] = (1200.0, 1000.0)
    after = {k: v for k, v in pos.items() if k != "black"}
    st = state(Phase.COLOUR_CHOICE, reds=2, positions=pos)
    st = replace(st, on_table=frozenset(k for k in pos if k != "white"))
    d, _ = decide(st, shot(first="black", pots=("black",), nomination="black", before=pos, after=after))
    r = d.respots[0]
    assert r.how == "above_spot" and r.position[0] == SP["black"][0]
    assert abs(r.position[1] - (SP["black"][1] + 52.5)) < 1.0
    # no room above: reds fill the line up to the top cushion -> below the spot
    column = {B.red_id(3 + k): (SP["black"][0], SP["black"][1] + 52.6 * (k + 1)) for k in range(5)}
    after2 = {**after, **column}
    st2 = replace(st, on_table=st.on_table | set(column))
    d2, _ = decide(st2, shot(first="black", pots=("black",), nomination="black", before=pos,
                             after=after2))
    assert d2.respots[0].how == "below_spot" and d2.respots[0].position[1] < SP["black"][1]


def test_S41_tie_after_potting_the_last_black():
    st = state(Phase.SEQ, reds=0, colours=("black",), scores=(50, 57))
    d, n = decide(st, shot(first="black", pots=("black",)))
    assert d.score == {"A": 57, "B": 57} and not d.frame_over
    assert n.phase == Phase.RESPOTTED_BLACK and n.cue_in_hand and n.on_table == {"black"}
    assert any("re-spotted" in x for x in d.notes)
    res, n2 = rules().apply_input(n, OperatorInput(InputKind.LOTS, player="B"))
    assert res.accepted and n2.striker == 1
    d3, n3 = decide(n2, shot(2, first="black"))  # safety: no score, no foul, B again
    assert not d3.frame_over
    assert n3.phase == Phase.RESPOTTED_BLACK and n3.striker == 0
    d4, n4 = decide(n3, shot(3))  # A misses the black: the foul ends it
    assert d4.frame_over and d4.winner == "B" and d4.score == {"A": 57, "B": 64}
    assert n4.end_reason == "respotted_black" and not d4.miss


def test_S43_no_miss_when_only_the_black_is_left():
    pos = {"black": SP["black"], "white": (889.0, 2000.0)}
    st = state(Phase.SEQ, reds=0, colours=("black",), scores=(40, 60), positions=pos)
    d, n = decide(st, shot(before=pos, after=pos))
    assert d.penalty == 7 and not d.miss and d.frame_over and d.winner == "B"
    assert d.score == {"A": 40, "B": 67}


def _s44():
    reds = {B.red_id(i + 1): (300.0 + i * 150.0, 3000.0) for i in range(8)}
    pos = {**reds, **colours_on_spots(), "white": (889.0, 1400.0)}
    st = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    return st, pos


def test_S44_automatic_foul_and_a_miss():
    st, pos = _s44()
    d, n = decide(st, shot(first="blue", before=pos, after=pos))
    assert d.penalty == 5 and d.score == {"A": 30, "B": 35}
    assert d.miss and d.options == ("play", "play_again", "replace")
    assert d.miss_count == 1 and n.miss.full_ball
    assert d.replace_positions == pos
    res, s2 = rules().apply_input(n, OperatorInput(InputKind.OPTION, choice="replace"))
    assert res.accepted and s2.striker == 0 and s2.phase == Phase.RED and s2.replaced
    assert s2.positions["white"] == pos["white"]


def test_S46_snookers_required_no_automatic_miss():
    reds = {"red_01": (600.0, 3000.0), "red_02": (1100.0, 3000.0)}
    pos = {**reds, **colours_on_spots(), "white": (889.0, 1400.0)}
    st = state(Phase.RED, reds=2, scores=(10, 100), positions=pos)
    d, _ = decide(st, shot(before=pos, after=pos))
    assert d.penalty == 4 and d.score == {"A": 10, "B": 104} and not d.miss
    d2, _ = decide(st, shot(before=pos, after=pos, miss=True))
    assert d2.miss  # the referee judged it intentional


def test_S48_foul_before_striking_after_a_replacement():
    st, pos = _s44()
    _, n = decide(st, shot(first="blue", before=pos, after=pos))
    _, s2 = rules().apply_input(n, OperatorInput(InputKind.OPTION, choice="replace"))
    sleeve = replace(shot(2, before=pos), events=(Event(EventType.DISTURBED, 0.0, ("red_02",)),))
    d, s3 = decide(s2, sleeve)
    assert d.penalty == 4 and not d.miss and d.ball_on == "red"
    assert d.options == ("play", "play_again", "replace") and s3.miss.count == 1


def test_S49_play_again_after_an_in_off():
    st = state(Phase.RED, reds=6, striker=1, scores=(10, 10))
    d, n = decide(st, shot(first="red_01", cue_pot=True))
    assert d.penalty == 4 and d.score == {"A": 14, "B": 10}
    res, s2 = rules().apply_input(n, OperatorInput(InputKind.OPTION, choice="play_again"))
    assert s2.striker == 1 and s2.cue_in_hand and not s2.free_ball and s2.phase == Phase.RED
    d2, _ = decide(s2, shot(2, first="red_02", pots=("red_02",)))
    assert d2.score == {"A": 14, "B": 11}


def test_S51_wrong_ball_struck_with_the_cue():
    st = state(Phase.RED, reds=6)
    sh = shot(first="red_01")
    sh = replace(sh, events=(Event(EventType.STRIKE, 0.0, ("pink",)), *sh.events[1:]))
    d, _ = decide(st, sh)
    assert d.penalty == 7 and d.fouls[0].code == "wrong_cue_ball"


def test_S52_in_hand_outside_the_d():
    cx, by = T.centre_x, T.baulk_line
    white = (cx, by - T.d_radius - 10.0)  # 1 cm outside the arc
    pos = {**spread_reds(6), **colours_on_spots(), "white": white}
    st = state(Phase.RED, reds=6, positions=pos, cue_in_hand=True)
    d, _ = decide(st, shot(first="red_01", before=pos))
    assert d.penalty == 4 and d.fouls[0].code == "in_hand_outside_d"
    pos_b = {"black": SP["black"], "white": white}
    st_b = state(Phase.SEQ, reds=0, colours=("black",), positions=pos_b, cue_in_hand=True)
    d_b, _ = decide(st_b, shot(first="black", before=pos_b))
    assert d_b.penalty == 7


def test_S54_concession_when_snookers_are_not_required():
    st = state(Phase.RED, reds=10, scores=(0, 50))
    res, n = rules().apply_input(st, OperatorInput(InputKind.CONCEDE, player="A"))
    assert res.accepted and n.frame_over and n.winner == 1
    assert any("S4 R5(c)" in x for x in res.notes)


def test_S55_frame_forfeited_for_conduct():
    st = state(Phase.RED, reds=4, scores=(30, 20))
    res, n = rules().apply_input(st, OperatorInput(InputKind.AWARD_FRAME, player="B"))
    assert n.scores == (0, 20 + 59) and n.winner == 1 and n.end_reason == "forfeit"


def test_S57_wrong_player_breaks():
    m = Match()
    m.feed(FrameStart(1, PLAYERS, breaker="A", best_of=5))
    m.feed(OperatorInput(InputKind.CONCEDE, player="A"))
    out = m.feed(FrameStart(2, PLAYERS, breaker="A", best_of=5))
    assert any("should by rotation" in n for n in out[0]["notes"])
    m.feed(OperatorInput(InputKind.CONCEDE, player="A"))
    assert m.expected_breaker() == 0  # frame 3 is opened by A: A, B(A broke), A


def test_S58_striking_while_a_ball_is_still_rolling():
    st = state(Phase.RED, reds=6)
    moving = (Event(EventType.MOVING_AT_STRIKE, 0.0, ("red_02",)),)
    d, _ = decide(st, shot(first="red_01", extra=moving))
    assert d.penalty == 4 and d.fouls[0].code == "moving_ball"
    d7, _ = decide(st, shot(first="red_01", extra=(Event(EventType.MOVING_AT_STRIKE, 0.0, ("black",)),)))
    assert d7.penalty == 7


@pytest.mark.parametrize("scores,expect_miss", [((30, 30), True), ((0, 100), False)])
def test_miss_depends_on_snookers_required(scores, expect_miss):
    st, pos = _s44()
    st = replace(st, scores=scores)
    d, _ = decide(st, shot(first="blue", before=pos, after=pos))
    assert d.miss is expect_miss
