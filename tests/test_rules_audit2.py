"""A second independent audit of the referee: scenarios written from the rule texts (WPBSA
``shared/rules/sources/003``, cited S2/S3/S4 Rn with the digest's contents-list numbering;
``RULES-DIGEST.md`` Cxx/Dxx; Snookerpool 004; English billiards 002, EB), each with the ruling a
referee would give. The first part holds the scenarios on which the engine disagreed (each
failed before its fix); the second the ones it already called right, kept as checks.

Players A (striker) and B; scores "A-B".
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import decide, rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import (
    Event,
    EventType,
    FrameStart,
    InputKind,
    OperatorFoul,
    OperatorInput,
    OperatorJudgement,
    Shot,
)
from tracker.rules.errors import RuleError
from tracker.rules.match import Match
from tracker.rules.state import Phase

SP = T.spots
COLOURS = {c: SP[c] for c in B.COLOURS}


def _ev(t: float, kind: str, *balls: str, **kw) -> Event:
    return Event(EventType(kind), t, balls, **kw)


def _option(r, st, choice: str):
    return r.apply_input(st, OperatorInput(InputKind.OPTION, choice=choice))


def black_only(scores, **kw):
    return state(Phase.SEQ, reds=0, colours=("black",), scores=scores, **kw)


# ================================================================== disagreements, fixed
# ------------------------------------------------------------------ R14(b)(ii), R14(e)
def _one_red_layout(blocked: bool) -> dict:
    """One red up the table; the white below it, the blue in line between them when
    ``blocked`` (no straight path to any part of the red), else on its spot."""
    blue = (744.5, 2500.0) if blocked else SP["blue"]
    return {"red_01": (600.0, 3000.0), **COLOURS, "blue": blue, "white": (889.0, 2000.0)}


def test_R14bii_points_equal_difference_but_the_referee_judges_the_miss_intentional():
    # One red: 8 + 27 = 35 on the table, A 10-45 B: the difference equals the points available.
    # R14(b)(ii) excuses the automatic miss only "and the referee is satisfied that the miss
    # was not intentional": a clear path and the referee's "miss" is a foul and a miss.
    pos = _one_red_layout(blocked=False)
    st = state(Phase.RED, reds=1, scores=(10, 45), positions=pos)
    d, _ = decide(st, shot(before=pos, after=pos, miss=True))
    assert d.foul and d.penalty == 4 and d.miss
    assert d.options == ("play", "play_again", "replace")
    d2, _ = decide(st, shot(before=pos, after=pos))  # no judgement: the exception applies
    assert d2.foul and not d2.miss and "replace" not in d2.options


def test_R14e_points_equal_difference_no_discretionary_miss():
    # No clear path: a miss would be the referee's discretion (R14(e)), which the equal-points
    # clause forbids, whatever the referee judged. (Already right: the pair of the test above.)
    pos = _one_red_layout(blocked=True)
    st = state(Phase.RED, reds=1, scores=(10, 45), positions=pos)
    d, _ = decide(st, shot(first="blue", before=pos, after=pos, miss=True))
    assert d.foul and not d.miss and "replace" not in d.options


def test_R14_C28_free_ball_nominated_and_a_red_hit_first_is_a_foul_but_not_a_miss():
    # A snookered on the only red by the green takes the green as a free ball, then the cue
    # ball meets the red first (off a cushion): a foul (R12(b)(i)), 4 to B. The red is a ball
    # on (R12(d); digest C09: "RED -> reds, plus the nominated free ball"), so the striker did
    # not fail to hit a ball on first (S2 R21, C28): no miss, no replacement (digest S13).
    pos = {"white": (300.0, 1500.0), "green": (300.0, 2000.0), "red_01": (300.0, 2500.0),
           **{c: SP[c] for c in ("yellow", "brown", "blue", "pink", "black")}}
    st = state(Phase.RED, reds=1, positions=pos, free_ball=True, scores=(20, 20))
    d, _ = decide(st, shot(first="red_01", free_ball="green", before=pos, after=pos))
    assert d.foul and d.fouls[0].code == "free_ball_not_hit_first" and d.penalty == 4
    assert not d.miss and d.options == ("play", "play_again")
    # a ball not on hit first is a failure: with the clear path to the green, a miss
    d2, _ = decide(st, shot(first="blue", free_ball="green", before=pos, after=pos))
    assert d2.foul and d2.miss and "replace" in d2.options


# ------------------------------------------------------------------ records in the wrong order
def test_events_out_of_time_order_are_an_error_not_a_call():
    # The white meets red_01 at 0.5 s and the black at 0.8 s, listed the other way round: read
    # in list order this was a simultaneous hit (7); it must be refused, never miscalled.
    events = (_ev(0.0, "strike", "white"), _ev(0.8, "contact", "white", "black"),
              _ev(0.5, "contact", "white", "red_01"))
    with pytest.raises(RuleError, match="time order"):
        rules().decide(state(Phase.RED, reds=3), Shot(1, events=events))
    with pytest.raises(RuleError, match="time order"):
        b = rules("english-billiards")
        st = replace(b.new_frame(("A", "B")), on_table=frozenset({"white", "spot", "red"}),
                     cue_in_hand=False, shots=3, positions=None)
        b.decide(st, Shot(1, events=(_ev(0.0, "strike", "white"), _ev(0.8, "contact", "white", "spot"),
                                     _ev(0.5, "contact", "white", "red"))))


@pytest.mark.parametrize("events,words", [
    ((_ev(0.0, "strike"), _ev(0.5, "contact", "white", "red_01")), "strike"),
    ((_ev(0.0, "strike", "white"), _ev(0.5, "contact", "white", "white")), "itself"),
    ((_ev(0.0, "strike", "white"), _ev(0.5, "contact", "white", "red_01"),
      _ev(1.0, "pot", "white", pocket="top_left"), _ev(1.2, "off_table", "white")), "twice"),
    ((_ev(0.0, "strike", "white"), _ev(0.5, "contact", "white", "red_01"),
      _ev(1.0, "pot", "white", pocket="top_left"), _ev(1.2, "pot", "white", pocket="top_right")),
     "twice"),
    ((_ev(0.0, "strike", "white"), _ev(0.5, "contact", "white", "red_01"),
      _ev(1.0, "pot", "red_01", pocket="top_left"), _ev(1.5, "contact", "white", "red_01")),
     "after it left the table"),
])
def test_impossible_records_are_an_error(events, words):
    """A strike naming no ball (was a traceback), a ball meeting itself, the cue ball leaving
    the table twice, a ball met after it was potted: one clear error each."""
    with pytest.raises(RuleError, match=words):
        rules().decide(state(Phase.RED, reds=3), Shot(1, events=events))


def test_positions_off_the_table_are_an_error():
    # The white "at" x = 5000 mm (a table is 1778 mm wide): called before as a ball placed
    # outside the D; it is a wrong unit or calibration, not a stroke.
    sh = shot(first="red_01", before={"white": (5000.0, 1.0), "red_01": (500.0, 3000.0)})
    with pytest.raises(RuleError, match="off the 1778 x 3569 mm table"):
        rules().decide(state(Phase.RED, reds=3, cue_in_hand=True), sh)


# ------------------------------------------------------------------ R4(a): the frame is over
def test_R4a_frame_ended_by_a_foul_on_the_last_black_spots_nothing():
    # A 70-40 pots the black and goes in-off: 7 to B, the frame is over (A 70-47). Nothing is
    # re-spotted: there is no next stroke.
    d, _ = decide(black_only((70, 40)), shot(first="black", pots=("black",), cue_pot=True))
    assert d.frame_over and d.winner == "A" and d.score == {"A": 70, "B": 47}
    assert d.respots == ()


def test_R4a_a_non_strikers_foul_with_only_the_black_left_ends_the_frame():
    # Only the black, 40-40. A plays safe; B (not striking) touches the black during the
    # stroke: he is penalised as if he were the striker (S2 R5, R2(b)(ii)), 7 to A. With only
    # the black left "the first score or foul ends the frame": A wins 47-40.
    d, n = decide(black_only((40, 40)),
                  shot(first="black", extra=(_ev(0.7, "disturbed", "black", by="non_striker"),)))
    assert d.score == {"A": 47, "B": 40} and d.frame_over and d.winner == "A"
    assert n.end_reason == "last_black"
    # between strokes, the same
    d2, _ = decide(black_only((40, 40)),
                   Shot(1, events=(_ev(1.0, "disturbed", "black", by="non_striker"),)))
    assert d2.score == {"A": 47, "B": 40} and d2.frame_over and d2.winner == "A"


def test_R4b_a_non_strikers_foul_on_the_respotted_black_ends_the_frame():
    r = rules()
    _, n = decide(black_only((50, 57)), shot(first="black", pots=("black",)))
    _, n = r.apply_input(n, OperatorInput(InputKind.LOTS, player="A"))
    d, n2 = r.decide(n, shot(2, first="black",
                             extra=(_ev(0.7, "disturbed", "black", by="non_striker"),)))
    assert d.frame_over and d.winner == "A" and d.score == {"A": 64, "B": 57}
    assert n2.end_reason == "respotted_black"


def test_R4c_aggregate_respotted_black_is_won_by_who_wins_the_aggregate():
    # Aggregate over two frames. Frame 1: A pots the only ball, the black (7-0). Frame 2: B
    # pots it (0-7): aggregate 7-7 at the end of the last frame -> re-spotted black (R4(c)).
    # A wins the draw and pots it: frame 7-7 but A wins the re-spotted black and the match.
    m = Match()
    m.feed(FrameStart(1, ("A", "B"), best_of=2, aggregate=True, positions={"black": SP["black"]}))
    m.feed(shot(1, first="black", pots=("black",)))
    m.feed(FrameStart(2, ("A", "B"), positions={"black": SP["black"]}))
    out = m.feed(shot(1, first="black", pots=("black",)))[0]
    assert out["draw_lots"] and not out["frame_over"] and out["score"] == {"A": 0, "B": 7}
    m.feed(OperatorInput(InputKind.LOTS, player="A"))
    out, end = m.feed(shot(2, first="black", pots=("black",)))
    assert out["frame_over"] and out["winner"] == "A" and out["end_reason"] == "respotted_black"
    assert not any("drawn" in x for x in out["notes"])
    assert end["aggregate"] == {"A": 14, "B": 7} and end["match_winner"] == "A"
    assert end["winner"] == "A"


# ------------------------------------------------------------------ R14(f), R3(h): replacement
def test_R14f_replacement_puts_back_a_red_potted_in_the_missed_stroke():
    # A misses the reds (clear path) and hits the blue, which knocks red_03 in: foul and a miss.
    # B asks for the balls to be replaced: the original position, the red included (R3(h)
    # lists R14(f) among the exceptions to "reds are not replaced"). What the decision
    # proposes in replace_positions is what the replacement does.
    reds = {"red_01": (500.0, 3100.0), "red_02": (1300.0, 3100.0), "red_03": (889.0, 3350.0)}
    pre = {**reds, **COLOURS, "white": (889.0, 1000.0)}
    post = {k: v for k, v in pre.items() if k != "red_03"} | {"white": (600.0, 2200.0)}
    r = rules()
    d, n = decide(state(Phase.RED, reds=3, positions=pre, scores=(20, 20)),
                  shot(first="blue", pots=("red_03",), before=pre, after=post))
    assert d.miss and "red_03" in d.replace_positions
    res, n2 = _option(r, n, "replace")
    assert res.accepted and "red_03" in n2.on_table and n2.positions == pre
    assert len(r.reds(n2.on_table)) == 3 and n2.striker == 0 and n2.phase == Phase.RED


def test_R14a_i_replacement_after_the_last_red_was_potted_in_the_missed_stroke():
    # The missed stroke kisses the last red in: the foul leaves yellow on, but the replacement
    # restores the original position, where the ball on is "any red" (R14(a)(i)) -- the red
    # must be back on the table for A to play it.
    pre = {"red_01": (889.0, 3350.0), **COLOURS, "white": (600.0, 1000.0)}
    post = {k: v for k, v in pre.items() if k != "red_01"} | {"white": (600.0, 2200.0)}
    r = rules()
    d, n = decide(state(Phase.RED, reds=1, positions=pre, scores=(20, 20)),
                  shot(first="blue", pots=("red_01",), before=pre, after=post))
    assert d.miss and d.ball_on == "yellow"
    _, n2 = _option(r, n, "replace")
    assert n2.phase == Phase.RED and "red_01" in n2.on_table
    d2, _ = r.decide(n2, shot(2, first="red_01", pots=("red_01",), before=pre, after=post))
    assert not d2.foul and d2.points["A"] == 1 and d2.ball_on == "colour"


# ------------------------------------------------------------------ Snookerpool (004)
def _pool_state(**kw):
    r = rules("snookerpool")
    return r, replace(r.new_frame(("A", "B")), **{"shots": 3, "cue_in_hand": False,
                                                   "positions": None, **kw})


@pytest.mark.parametrize("code", ["measure", "ball_off_table_used", "no_declaration"])
def test_004_penalty_values_every_foul_is_four_the_ball_on_or_the_balls_involved(code):
    # 004: "All fouls award ... four points, the value of the ball 'on', or the highest value of
    # all balls involved in the foul, whichever is highest" -- there is no 7-point group in
    # Snookerpool. A solid on, nothing else involved: 4.
    r, st = _pool_state()
    d, _ = r.decide(st, shot(first="1", fouls=(code,)))
    assert d.foul and d.penalty == 4


def test_004_striking_another_ball_costs_its_value_not_eight():
    r, st = _pool_state()
    sh = Shot(1, events=(_ev(0.0, "strike", "9"), _ev(0.5, "contact", "9", "1")))
    d, _ = r.decide(st, sh)  # the 9 (2) struck with a solid on: max(4, 1, 2) = 4
    assert d.foul and d.penalty == 4
    sh15 = Shot(1, events=(_ev(0.0, "strike", "15"), _ev(0.5, "contact", "15", "1")))
    assert r.decide(st, sh15)[0].penalty == 8  # the 15 involved


def test_004_the_tip_touching_the_cue_ball_in_hand_is_a_foul():
    # 004 Fouls: balls in hand "may be touched by anything except the tip of the cue"
    # (digest D39). In snooker the same touch is no stroke (S3 R5(b)); in Snookerpool it is a
    # foul: 4 (a solid on), the next player has the ball in hand anywhere.
    r, st = _pool_state(cue_in_hand=True, in_hand_area="table")
    sh = Shot(1, events=(_ev(0.0, "strike", "white"),),
              operator=OperatorJudgement(not_a_stroke=True))
    d, n = r.decide(st, sh)
    assert d.foul and d.penalty == 4 and d.score == {"A": 0, "B": 4}
    assert d.next_striker == "B" and d.cue_in_hand and n.in_hand_area == "table"
    snooker_st = state(Phase.RED, reds=15, cue_in_hand=True)
    d2, _ = decide(snooker_st, sh)
    assert not d2.foul and d2.next_striker == "A"  # S3 R5(b): not in play, no foul


# ------------------------------------------------------------------ R17(c) out of turn
SIDES = ("Ann & Cat", "Bob & Dan")
TEAMS = (("Ann", "Cat"), ("Bob", "Dan"))


def _four(n_shots: int = 1) -> Match:
    m = Match()
    m.feed(FrameStart(1, SIDES, breaker="Ann", teams=TEAMS, best_of=3))
    for k in range(1, n_shots + 1):
        m.feed(shot(k, first="red_01"))  # safeties: Ann, Bob, Cat, ...
    return m


def test_R17c_out_of_turn_only_the_offenders_partner_loses_a_turn():
    # Order Ann, Bob, Cat, Dan. Ann plays; Bob is due but his partner Dan plays: a foul for
    # playing out of turn (4 to Ann & Cat). The order of play is kept (R17(a)): Dan's stroke
    # took Bob's turn, so Bob loses it, and side A goes on with Cat -- not Ann again.
    m = _four(1)
    out = m.feed(shot(2, first="red_01", striker="Dan"))[0]
    assert out["player"] == "Dan" and "out_of_turn" in [f["code"] for f in out["fouls"]]
    assert out["next_player"] == "Cat"
    out = m.feed(shot(3, first="red_01"))[0]
    assert out["player"] == "Cat" and out["next_player"] == "Dan"
    out = m.feed(shot(4, first="red_01"))[0]
    assert out["player"] == "Dan" and out["next_player"] == "Ann"  # then Ann, Bob, ...


def test_R17c_out_of_turn_and_asked_to_play_again_the_partner_still_loses_a_turn():
    m = _four(1)
    m.feed(shot(2, first="red_01", striker="Dan"))
    res = m.feed(OperatorInput(InputKind.OPTION, choice="play_again"))[0]
    assert res["next_player"] == "Dan"
    out = m.feed(shot(3, first="red_01"))[0]
    assert out["player"] == "Dan" and out["next_player"] == "Cat"


def test_R17c_a_player_of_the_side_not_due_plays_then_the_player_due_plays():
    # Bob is due and Cat (side A, who did not just play) strikes: her foul is outside the order;
    # then the player who was due, Bob, plays and the order goes on from him.
    m = _four(1)
    out = m.feed(shot(2, first="red_01", striker="Cat"))[0]
    assert out["player"] == "Cat" and out["foul"] and out["next_player"] == "Bob"
    out = m.feed(shot(3, first="red_01"))[0]
    assert out["player"] == "Bob" and out["next_player"] == "Cat"


# ================================================================== scenarios already right
def test_R4b_foul_on_the_last_black_that_levels_the_scores_respots_the_black():
    d, n = decide(black_only((40, 33)), shot(first="black", pots=("black",), cue_pot=True))
    assert d.score == {"A": 40, "B": 40} and d.draw_lots and d.cue_in_hand
    assert [(r.ball, r.position) for r in d.respots] == [("black", SP["black"])]
    assert d.next_striker is None and d.options == () and not d.frame_over


def test_R4b_respotted_black_placed_outside_the_d_is_a_foul_that_ends_it():
    r = rules()
    _, n = decide(black_only((50, 57)), shot(first="black", pots=("black",)))
    _, n = r.apply_input(n, OperatorInput(InputKind.LOTS, player="B"))
    before = {"black": SP["black"], "white": (889.0, 900.0)}  # above the baulk line
    d, _ = r.decide(n, shot(2, first="black", pots=("black",), before=before))
    assert d.foul and d.penalty == 7 and d.frame_over and d.winner == "A"
    assert d.score == {"A": 64, "B": 57} and not d.miss


def test_R4a_pink_and_black_potted_together_with_pink_on():
    st = state(Phase.SEQ, reds=0, colours=("pink", "black"), scores=(40, 50))
    d, n = decide(st, shot(first="pink", pots=("pink", "black")))
    assert d.penalty == 7 and d.score == {"A": 40, "B": 57} and not d.frame_over
    assert {r.ball for r in d.respots} == {"pink", "black"} and n.seq_colour == "pink"


@pytest.mark.parametrize("scores,kind,player,ok", [
    ((60, 40), InputKind.CLAIM, None, True),
    ((47, 40), InputKind.CLAIM, None, False),       # 7 ahead: not more than 7
    ((40, 60), InputKind.CLAIM, "B", False),        # B is not the striker
    ((40, 60), InputKind.CONCEDE, "B", False),      # only the striker concedes
    ((40, 60), InputKind.CONCEDE, None, True),
])
def test_S2_R1b_S4_R5a_claim_and_concession(scores, kind, player, ok):
    res, n = rules().apply_input(black_only(scores), OperatorInput(kind, player=player))
    assert res.accepted is ok and n.frame_over is ok


def test_S2_R1b_no_claim_with_pink_and_black_left():
    st = state(Phase.SEQ, reds=0, colours=("pink", "black"), scores=(60, 40))
    res, _ = rules().apply_input(st, OperatorInput(InputKind.CLAIM))
    assert not res.accepted


def test_R12c_free_ball_in_the_colours_potted_alone_scores_the_ball_on():
    st = state(Phase.SEQ, reds=0, scores=(40, 45), free_ball=True)
    d, n = decide(st, shot(first="pink", pots=("pink",), free_ball="pink"))
    assert d.points == {"A": 2, "B": 0} and [r.ball for r in d.respots] == ["pink"]
    assert n.seq_colour == "yellow" and n.striker == 0


def test_R12e_free_ball_and_ball_on_potted_in_the_colours_score_the_ball_on_once():
    st = state(Phase.SEQ, reds=0, scores=(40, 45), free_ball=True)
    d, n = decide(st, shot(first="pink", pots=("pink", "yellow"), free_ball="pink"))
    assert d.points == {"A": 2, "B": 0} and "yellow" not in n.on_table and n.seq_colour == "green"


def test_R12e_free_ball_and_a_red_potted_each_score():
    st = state(Phase.RED, reds=5, scores=(40, 45), free_ball=True)
    d, n = decide(st, shot(first="blue", pots=("blue", "red_01"), free_ball="blue"))
    assert d.points == {"A": 2, "B": 0} and n.phase == Phase.COLOUR_CHOICE
    assert [r.ball for r in d.respots] == ["blue"]


def test_R6_free_ball_with_a_ball_on_simultaneously_is_fair_with_a_ball_not_on_is_not():
    st = state(Phase.RED, reds=5, free_ball=True)
    d, _ = decide(st, shot(first=("blue", "red_02"), pots=("red_02",), free_ball="blue"))
    assert not d.foul and d.points["A"] == 1
    st2 = state(Phase.SEQ, reds=0, free_ball=True)  # yellow on, green the free ball (2)
    d2, _ = decide(st2, shot(first=("green", "blue"), free_ball="green"))
    assert d2.foul and d2.fouls[0].code == "simultaneous_hit" and d2.penalty == 5


def test_R12bi_free_ball_nominated_and_the_ball_on_hit_first_is_a_foul():
    st = state(Phase.SEQ, reds=0, free_ball=True)
    d, _ = decide(st, shot(first="yellow", pots=("yellow",), free_ball="green"))
    assert d.foul and d.penalty == 4 and "yellow" in {r.ball for r in d.respots}


def test_R14_miss_in_the_colours_and_its_replacement():
    pos = {**COLOURS, "white": (889.0, 400.0)}
    st = state(Phase.SEQ, reds=0, scores=(20, 20), positions=pos)
    d, n = decide(st, shot(first="green", before=pos, after=pos | {"white": (600.0, 900.0)}))
    assert d.foul and d.penalty == 4 and d.miss and d.options == ("play", "play_again", "replace")
    res, n2 = _option(rules(), n, "replace")
    assert n2.positions["white"] == (889.0, 400.0) and n2.seq_colour == "yellow" and n2.striker == 0


def test_R14_three_failures_from_a_full_ball_position_award_the_frame():
    r = rules()
    reds = {f"red_0{i}": (500.0 + i * 100, 3100.0) for i in range(1, 6)}
    pos = {**reds, **COLOURS, "white": (889.0, 1000.0)}
    after = pos | {"white": (900.0, 2000.0)}
    st = state(Phase.RED, reds=5, scores=(20, 20), positions=pos)
    d, n = decide(st, shot(before=pos, after=after))
    assert d.miss and d.miss_count == 1 and not d.miss_warning
    _, n = _option(r, n, "replace")
    d, n = r.decide(n, shot(2, before=pos, after=after))
    assert d.miss and d.miss_count == 2 and d.miss_warning
    _, n = _option(r, n, "replace")
    d, n = r.decide(n, shot(3, first="blue", before=pos, after=after))
    assert d.frame_over and d.winner == "B" and n.end_reason == "three_failures"
    assert d.score == {"A": 20, "B": 33}


def test_R14a_iii_replacement_after_a_miss_on_the_colour_after_a_red():
    reds = {f"red_0{i}": (500.0 + i * 100, 3100.0) for i in range(1, 6)}
    pos = {**reds, **COLOURS, "white": (889.0, 1000.0)}
    st = state(Phase.COLOUR_CHOICE, reds=5, positions=pos)
    d, n = decide(st, shot(before=pos, after=pos))  # no colour named, nothing hit
    assert d.penalty == 7 and d.miss and d.ball_on == "red"
    _, n2 = _option(rules(), n, "replace")
    assert n2.phase == Phase.COLOUR_CHOICE and n2.striker == 0


def test_R14d_foul_before_striking_after_a_replacement_from_in_hand():
    r = rules()
    reds = {f"red_0{i}": (500.0 + i * 100, 3100.0) for i in range(1, 6)}
    st = state(Phase.RED, reds=5, scores=(20, 20), positions={**reds, **COLOURS}, cue_in_hand=True)
    pre = {**reds, **COLOURS, "white": (1000.0, 600.0)}
    _, n = decide(st, shot(before=pre, after=pre | {"white": (300.0, 1500.0)}))
    res, n2 = _option(r, n, "replace")
    assert res.cue_in_hand and n2.cue_in_hand
    d, _ = r.decide(n2, Shot(2, events=(_ev(1.0, "disturbed", "red_01"),)))
    assert d.foul and not d.miss and d.options == ("play", "play_again", "replace")
    assert d.ball_on == "red" and d.cue_in_hand


def test_R8c_touching_a_red_play_away_onto_a_colour_is_no_foul_potting_it_is():
    reds = {f"red_0{i}": (500.0 + i * 100, 3100.0) for i in range(1, 6)}
    white = (600.0, 3100.0 - 52.5 - 0.2)  # touching red_01
    pos = {**reds, **COLOURS, "white": white}
    st = state(Phase.RED, reds=5, positions=pos)
    d, _ = decide(st, shot(first="black", before=pos, after=pos))
    assert not d.foul
    d2, _ = decide(st, shot(first="black", pots=("black",), before=pos,
                            after={k: v for k, v in pos.items() if k != "black"}))
    assert d2.foul and d2.penalty == 7 and [r.ball for r in d2.respots] == ["black"]


def test_R8d_touching_a_ball_not_on_moved_is_a_push_at_its_value():
    pos = {"red_01": (500.0, 3100.0), **COLOURS, "white": (889.0, 1784.5 - 52.5 - 0.2)}
    st = state(Phase.RED, reds=1, positions=pos)
    d, _ = decide(st, shot(first="red_01", before=pos, after=pos,
                           extra=(_ev(0.0, "push", "blue"),)))
    assert d.foul and d.fouls[0].code == "push_stroke" and d.penalty == 5


def test_R7_all_spots_taken_the_colour_goes_above_its_spot_nearest_to_it():
    reds = {"red_01": (919.0, 1784.5), "red_02": (300.0, 3000.0), "red_03": (400.0, 3000.0),
            "red_04": (500.0, 3000.0)}
    pos = {**reds, **COLOURS, "white": (300.0, 1000.0)}
    st = state(Phase.COLOUR_CHOICE, reds=4, positions=pos)
    after = {k: v for k, v in pos.items() if k != "blue"}
    d, _ = decide(st, shot(first="blue", pots=("blue",), before=pos, after=after))
    (r,) = d.respots
    assert r.ball == "blue" and r.how == "above_spot" and r.position == (889.0, 1828.0)


def test_R7e_D21_own_spot_free_first_then_the_highest_spot():
    # Pink and black potted in a foul; a red sits 10 mm from the black spot, every other spot is
    # taken by its colour: the pink on its own spot, the black above its own (R7(f)).
    pos = {"red_01": (899.0, 3245.0), "red_02": (300.0, 3000.0), **COLOURS, "white": (889.0, 1300.0)}
    st = state(Phase.RED, reds=2, positions=pos)
    after = {k: v for k, v in pos.items() if k not in ("pink", "black")}
    d, _ = decide(st, shot(first="red_02", pots=("pink", "black"), before=pos, after=after))
    assert [(r.ball, r.how) for r in d.respots] == [("pink", "own_spot"), ("black", "above_spot")]
    assert d.respots[1].position == (889.0, 3297.0) and d.penalty == 7


def test_R3giv_colour_not_respotted_deducted_and_penalised():
    p0 = {"red_01": (500.0, 3100.0), "red_02": (700.0, 3100.0), **COLOURS, "white": (889.0, 2000.0)}
    st = state(Phase.RED, reds=2, scores=(10, 10), positions=p0)
    p1 = {k: v for k, v in p0.items() if k != "red_01"}
    _, n = decide(st, shot(first="red_01", pots=("red_01",), before=p0, after=p1))
    p2 = {k: v for k, v in p1.items() if k != "blue"}
    d, n = rules().decide(n, shot(2, first="blue", pots=("blue",), before=p1, after=p2))
    assert d.score == {"A": 16, "B": 10}
    d, _ = rules().decide(n, shot(3, first="red_02", pots=("red_02",), before=p2,
                                  after={k: v for k, v in p2.items() if k != "red_02"}))
    assert d.foul and d.penalty == 5 and d.score == {"A": 11, "B": 15}


@pytest.mark.parametrize("events,code,pen", [
    ((_ev(0.3, "jump", "blue"),), "jump_shot", 4),                      # over a ball first
    ((_ev(0.7, "jump", "red_01"),), "jump_shot", 4),                    # landed beyond it
    ((_ev(0.0, "moving_at_strike", "black"),), "moving_ball", 7),
])
def test_R10_fouls_of_the_stroke(events, code, pen):
    d, _ = decide(state(Phase.RED, reds=3), shot(first="red_01", extra=events))
    assert d.foul and d.fouls[0].code == code and d.penalty == pen


def test_S2_R20a_c_jumps_that_are_not_jump_shots():
    after_first = _ev(0.7, "jump", "blue")
    off_cushion = (_ev(0.6, "cushion", "white"), _ev(0.7, "jump", "red_01"))
    for extra in ((after_first,), off_cushion):
        d, _ = decide(state(Phase.RED, reds=3), shot(first="red_01", extra=extra))
        assert not d.foul


def test_R11g_several_fouls_the_highest_penalty():
    d, _ = decide(state(Phase.RED, reds=3), shot(first="blue", pots=("black",), cue_pot=True))
    assert {f.code for f in d.fouls} == {"wrong_ball_first", "cue_ball_potted", "pot_not_on"}
    assert d.penalty == 7 and d.cue_in_hand


def test_S3_R17c_play_again_order_unchanged_four_handed():
    m = Match()
    m.feed(FrameStart(1, ("SA", "SB"), teams=(("A1", "A2"), ("B1", "B2")),
                      order=("A1", "B1", "A2", "B2")))
    out = m.feed(shot(1, first="blue"))[0]
    assert out["foul"] and out["next_player"] == "B1"
    m.feed(OperatorInput(InputKind.OPTION, choice="play_again"))
    out = m.feed(shot(2, first="red_01"))[0]
    assert out["player"] == "A1" and out["next_player"] == "B1"


def test_EB_S3_R4_every_score_of_one_stroke():
    b = rules("english-billiards")
    st = replace(b.new_frame(("A", "B")), on_table=frozenset({"white", "spot", "red"}),
                 cue_in_hand=False, shots=3, positions=None)
    ev = (_ev(0.0, "strike", "white"), _ev(0.5, "contact", "white", "red"),
          _ev(0.7, "contact", "white", "spot"), _ev(1.0, "pot", "red", pocket="top_left"),
          _ev(1.1, "pot", "spot", pocket="top_right"), _ev(1.5, "pot", "white", pocket="baulk_left"))
    d, n = b.decide(st, Shot(1, events=ev))
    assert d.points == {"A": 10, "B": 0} and n.striker == 0 and n.cue_in_hand
    assert sorted(w for w, _ in d.scoring) == ["cannon", "in-off red", "pot red", "pot white"]


def test_EB_S3_R15_R16_foul_two_with_options_miss_two_without():
    b = rules("english-billiards")
    st = replace(b.new_frame(("A", "B")), on_table=frozenset({"white", "spot", "red"}),
                 cue_in_hand=False, shots=3, positions=None)
    miss, _ = b.decide(st, Shot(1, events=(_ev(0.0, "strike", "white"),)))
    assert miss.miss and not miss.foul and miss.points == {"A": 0, "B": 2} and miss.options == ()
    ops = OperatorJudgement(fouls=(OperatorFoul("push"), OperatorFoul("feet")))
    foul, _ = b.decide(st, Shot(1, events=(_ev(0.0, "strike", "white"),
                                           _ev(0.5, "contact", "white", "red")), operator=ops))
    assert foul.foul and foul.penalty == 2 and foul.options == ("play", "spot_balls")
