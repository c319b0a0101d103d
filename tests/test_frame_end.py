"""Every way a frame ends (S2 R1, S3 R4, R14(c), S4 R2, R5), written from 003, and
``cue_in_hand`` wherever the next stroke is played from the D.

Players A (striker) and B; scores "A-B".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import PLAYERS, decide, rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput
from tracker.rules.match import Match
from tracker.rules.state import MatchContext, Phase

SP = T.spots
BLACK_ONLY = dict(reds=0, colours=("black",))


def black_state(scores, **kw):
    return state(Phase.SEQ, scores=scores, **BLACK_ONLY, **kw)


# ------------------------------------------------------------------ the last black (R4(a))
def test_R4a_pot_of_the_last_black_ends_the_frame():
    d, n = decide(black_state((50, 40)), shot(first="black", pots=("black",)))
    assert d.frame_over and d.winner == "A" and d.score == {"A": 57, "B": 40}
    assert d.end_reason == "last_black" and d.next_striker is None and not d.cue_in_hand
    assert d.options == () and not d.draw_lots


def test_R4a_foul_on_the_last_black_that_changes_the_lead_ends_the_frame():
    d, n = decide(black_state((50, 47)), shot())  # misses the black: 7 away
    assert d.foul and d.frame_over and d.winner == "B" and d.score == {"A": 50, "B": 54}
    assert d.options == () and d.next_striker is None and not d.free_ball and not d.miss


def test_R4a_foul_on_the_last_black_that_leaves_the_lead_still_ends_the_frame():
    d, _ = decide(black_state((70, 40)), shot(cue_pot=True, first="black"))
    assert d.frame_over and d.winner == "A" and d.score == {"A": 70, "B": 47}
    assert not d.cue_in_hand and d.options == ()


# ------------------------------------------------------------------ tie: re-spotted black (R4(b))
def _check_respotted_black(d, n):
    assert not d.frame_over and d.draw_lots and d.next_striker is None and d.options == ()
    assert d.cue_in_hand and d.ball_on == "black" and not d.free_ball
    assert [(r.ball, r.position) for r in d.respots if r.ball == "black"] == [("black", SP["black"])]
    assert n.phase == Phase.RESPOTTED_BLACK and n.positions == {"black": SP["black"]}
    assert any("lots" in x for x in d.notes)


def test_R4b_pot_of_the_last_black_that_ties_gives_a_respotted_black():
    d, n = decide(black_state((50, 57)), shot(first="black", pots=("black",)))
    assert d.score == {"A": 57, "B": 57}
    _check_respotted_black(d, n)


def test_R4b_foul_on_the_last_black_that_ties_gives_a_respotted_black_and_lots():
    r = rules()
    d, n = decide(black_state((47, 40)), shot())  # A misses the black: 7 to B, 47-47
    assert d.foul and d.penalty == 7 and d.score == {"A": 47, "B": 47} and not d.miss
    _check_respotted_black(d, n)
    play, _ = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="play"))
    assert not play.accepted and "lots" in play.message
    res, n2 = r.apply_input(n, OperatorInput(InputKind.LOTS, player="A"))
    assert res.accepted and res.next_striker == "A" and res.cue_in_hand and not res.draw_lots
    d3, n3 = r.decide(n2, shot(2, first="black", pots=("black",)))
    assert d3.frame_over and d3.winner == "A" and d3.score == {"A": 54, "B": 47}
    assert n3.end_reason == "respotted_black"


def test_R4b_foul_with_the_black_potted_that_ties_spots_the_black_once():
    d, n = decide(black_state((47, 40)), shot(first="black", pots=("black",), cue_pot=True))
    assert [r.ball for r in d.respots] == ["black"]  # re-spotted once, on its spot
    _check_respotted_black(d, n)


def test_R4b_respotted_black_next_score_or_foul_ends_and_a_safety_does_not():
    r = rules()
    _, n = decide(black_state((50, 57)), shot(first="black", pots=("black",)))
    _, n = r.apply_input(n, OperatorInput(InputKind.LOTS, player="B"))
    d, n2 = r.decide(n, shot(2, first="black"))  # B plays safe from the D
    assert not d.frame_over and d.next_striker == "A" and not d.cue_in_hand
    d2, _ = r.decide(n2, shot(3, first="black", cue_pot=True))
    assert d2.frame_over and d2.winner == "B" and d2.score == {"A": 57, "B": 64}


def test_R4b_a_stroke_without_lots_is_refereed_and_flagged():
    _, n = decide(black_state((50, 57)), shot(first="black", pots=("black",)))
    d, _ = rules().decide(n, shot(2, first="black", striker="B"))
    assert d.striker == "B"  # the record says who won the draw
    d2, _ = rules().decide(n, shot(2, first="black"))
    assert any("no lots input" in x for x in d2.needs_review)


# ------------------------------------------------------------------ aggregate scoring (R4(c))
def test_R4c_with_aggregate_scoring_a_tied_frame_is_not_replayed():
    st = replace(black_state((50, 57)), context=MatchContext(aggregate=True, last_frame=False))
    d, n = decide(st, shot(first="black", pots=("black",)))
    assert d.frame_over and d.winner is None and not d.draw_lots and n.end_reason == "last_black"


def test_R4c_level_aggregate_at_the_end_of_the_last_frame_gives_a_respotted_black():
    ctx = MatchContext(aggregate=True, last_frame=True, carried=(100, 93))
    st = replace(black_state((50, 50)), context=ctx)  # the frame: A wins 57-50, aggregate 157-143
    d, _ = decide(st, shot(first="black", pots=("black",)))
    assert d.frame_over and d.winner == "A"
    st2 = replace(black_state((43, 57)), context=ctx)  # the aggregate: 143+7 = 150 = 93+57
    d2, n2 = decide(st2, shot(first="black", pots=("black",)))
    assert not d2.frame_over and d2.draw_lots and n2.phase == Phase.RESPOTTED_BLACK


def test_S2_R1b_no_claim_under_aggregate_scoring():
    st = replace(black_state((60, 50)), context=MatchContext(aggregate=True))
    res, n = rules().apply_input(st, OperatorInput(InputKind.CLAIM))
    assert not res.accepted and not n.frame_over


# ------------------------------------------------------------------ claim, concession (S2 R1, S4 R5)
def test_S2_R1b_claim_with_only_the_black_and_more_than_seven_ahead():
    res, n = rules().apply_input(black_state((60, 50)), OperatorInput(InputKind.CLAIM))
    assert res.accepted and n.frame_over and res.winner == "A" and n.end_reason == "claimed"
    res7, _ = rules().apply_input(black_state((57, 50)), OperatorInput(InputKind.CLAIM))
    assert not res7.accepted


def test_S4_R5_concession_by_the_striker_ends_the_frame():
    res, n = rules().apply_input(state(Phase.RED, reds=3, scores=(10, 70)),
                                 OperatorInput(InputKind.CONCEDE, player="A"))
    assert res.accepted and n.frame_over and res.winner == "B" and not res.notes  # snookers needed
    refused, _ = rules().apply_input(state(Phase.RED, reds=3), OperatorInput(InputKind.CONCEDE,
                                                                              player="B"))
    assert not refused.accepted


def test_S4_R5b_concession_under_aggregate_scoring_adds_the_balls_left():
    st = replace(state(Phase.RED, reds=3, scores=(10, 70)), context=MatchContext(aggregate=True))
    _, n = rules().apply_input(st, OperatorInput(InputKind.CONCEDE, player="A"))
    assert n.scores == (10, 70 + 3 * 8 + 27)


# ------------------------------------------------------------------ three failures (R14(c)(ii))
def test_R14c_third_failure_with_a_full_ball_awards_the_frame():
    r = rules()
    pos = {**{B.red_id(i + 1): (300.0 + i * 150.0, 3000.0) for i in range(8)},
           **{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    s = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    for k in (1, 2, 3):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos))
        if k < 3:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    assert d.frame_over and d.winner == "B" and s.end_reason == "three_failures"
    assert d.next_striker is None and d.options == () and not d.cue_in_hand


# ------------------------------------------------------------------ forfeit (S4 R2)
def test_S4_R2a_frame_forfeited():
    res, n = rules().apply_input(state(Phase.RED, reds=2, scores=(40, 12)),
                                 OperatorInput(InputKind.AWARD_FRAME, player="B"))
    assert n.frame_over and res.winner == "B" and n.scores == (0, 12 + 16 + 27)


def test_S4_R2b_game_forfeited_with_frames_and_with_aggregate_scoring():
    m = Match()
    m.feed(FrameStart(1, PLAYERS, breaker="A", best_of=5))
    out = m.feed(OperatorInput(InputKind.AWARD_GAME, player="B"))
    assert m.match_over and m.match_winner() == "B" and m.frames_won["B"] == 3
    assert out[-1]["match_winner"] == "B"
    agg = Match()
    agg.feed(FrameStart(1, PLAYERS, breaker="A", best_of=3, aggregate=True))
    agg.feed(OperatorInput(InputKind.AWARD_GAME, player="B"))
    assert agg.totals["B"] == 147 * 2 + 15 * 8 + 27 and agg.match_winner() == "B"


# ------------------------------------------------------------------ cue_in_hand on every path
def test_cue_in_hand_after_the_cue_ball_is_potted_or_forced_off():
    st = state(Phase.RED, reds=6)
    assert decide(st, shot(first="red_01", cue_pot=True))[0].cue_in_hand
    assert decide(st, shot(first="red_01", off=("white",)))[0].cue_in_hand
    assert not decide(st, shot(first="red_01", pots=("red_01",)))[0].cue_in_hand
    assert not decide(st, shot(first="blue"))[0].cue_in_hand


def test_cue_in_hand_at_the_start_of_a_frame_and_after_a_stalemate():
    m = Match()
    start = m.feed(FrameStart(1, PLAYERS, breaker="A"))[0]
    assert start["cue_in_hand"] and start["next_player"] == "A"
    m.feed(shot(1, first="red_01"))
    out = m.feed(OperatorInput(InputKind.STALEMATE))[0]
    assert out["accepted"] and out["cue_in_hand"] and out["next_striker"] == "A"


def test_cue_in_hand_after_play_again_and_replace():
    r = rules()
    _, n = decide(state(Phase.RED, reds=6), shot(first="red_01", cue_pot=True))
    res, _ = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="play_again"))
    assert res.cue_in_hand and res.next_striker == "A"
    res, _ = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="play"))
    assert res.cue_in_hand and res.next_striker == "B"
    # replacement after a miss played from in-hand: the cue ball goes back to the D
    pos = {**{B.red_id(i + 1): (300.0 + i * 150.0, 3000.0) for i in range(8)},
           **{c: SP[c] for c in B.COLOURS}, "white": (700.0, 700.0)}
    st = state(Phase.RED, reds=8, scores=(30, 30), positions=pos, cue_in_hand=True)
    after = {**pos, "white": (889.0, 2000.0)}
    d, n = decide(st, shot(first="blue", before=pos, after=after))
    assert d.miss and not d.cue_in_hand
    res, s2 = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="replace"))
    assert res.cue_in_hand and s2.cue_in_hand and res.next_striker == "A"


@pytest.mark.parametrize("ruleset", ["snookerpool"])
def test_snookerpool_tie_on_the_15_is_decided_by_a_lag_from_the_kitchen(ruleset):
    r = rules(ruleset)
    st = replace(r.new_frame(PLAYERS), on_table=frozenset({"15"}), phase=Phase.SEQ,
                 seq_colour="15", scores=(30, 38), positions=None, cue_in_hand=False)
    from tracker.records.shot import Shot
    ev = (Event(EventType.STRIKE, 0.0, ("white",)), Event(EventType.CONTACT, 0.5, ("white", "15")),
          Event(EventType.POT, 1.0, ("15",), pocket="top_left"))
    d, n = r.decide(st, Shot(1, events=ev))
    assert d.draw_lots and d.next_striker is None and d.cue_in_hand and n.in_hand_area == "kitchen"
    assert [x.ball for x in d.respots] == ["15"]


def test_explain_says_lots_are_drawn_and_names_no_striker():
    from tracker.rules.explain import explain

    d, _ = decide(black_state((47, 40)), shot())
    text = explain(d.to_dict())
    assert "Lots are drawn" in text and "None to play" not in text
