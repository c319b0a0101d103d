"""Scenarios for the rules added in issue 16, named after the rule they check: R9(b) (a ball
on the lip that would have been hit), R17 four-handed snooker, aggregate scoring (S2 R2(g),
R4(c)), R16 stalemate, R8(g) a touching ball's state changing before the stroke (C40), the
2004 amateur miss rule and the "four snookers" rule (000), and the any-number-of-reds annex.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import PLAYERS, decide, rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.parse import record_from_dict, record_to_dict
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput
from tracker.rules.errors import RuleError
from tracker.rules.match import Match
from tracker.rules.registry import get_ruleset
from tracker.rules.state import Phase

SP = T.spots


def table(n_reds: int = 8, white=(889.0, 1400.0)) -> dict:
    reds = {B.red_id(i + 1): (300.0 + i * 150.0, 3000.0) for i in range(n_reds)}
    return {**reds, **{c: SP[c] for c in B.COLOURS}, "white": white}


# ------------------------------------------------------------------ S3 R9(b)
def _lip(first: str, pots: tuple[str, ...] = ()):
    pos = table()
    pos["red_08"] = (1755.0, 3545.0)  # on the lip of the top right pocket
    st = state(Phase.RED, reds=8, scores=(20, 10), positions=pos)
    after = {k: v for k, v in pos.items() if k not in (*pots, "red_08")}
    sh = shot(first=first, pots=pots, before=pos, after=after,
              extra=(Event(EventType.LIP_DROP, 0.9, ("red_08",)),))
    return st, replace(sh, operator=replace(sh.operator, lip_would_be_hit="red_08")), pos


def test_R9b_no_foul_all_balls_replaced_and_the_same_striker_plays_again():
    st, sh, pos = _lip("red_01", pots=("red_01",))
    d, n = decide(st, sh)
    assert d.replay and not d.foul and not d.miss and d.points == {"A": 0, "B": 0}
    assert d.next_striker == "A" and d.score == {"A": 20, "B": 10} and d.replace_positions == pos
    assert n.positions == pos and {"red_01", "red_08"} <= n.on_table and n.phase == Phase.RED


def test_R9b_foul_penalty_balls_replaced_usual_options_and_no_miss():
    st, sh, pos = _lip("blue")  # a clear path to a red: this would be a foul and a miss
    d, n = decide(st, sh)
    assert d.replay and d.foul and d.penalty == 5 and d.score == {"A": 20, "B": 15}
    assert not d.miss and d.options == ("play", "play_again") and d.next_striker == "B"
    assert n.positions == pos
    res, n2 = rules().apply_input(n, OperatorInput(InputKind.OPTION, choice="play_again"))
    assert res.accepted and n2.striker == 0


# R9(b) as C41 reads (000 commentary): a foul caused by the fall itself carries no penalty.
def _lip_fall(first: str | None = None, cue_into: str | None = None, on_lip: str = "red_08",
              extra: tuple[Event, ...] = ()):
    """``on_lip`` sits on the top right pocket's lip and falls at 0.4 s, before the cue ball
    (first contact at 0.5 s) gets there; the cue ball then meets ``first`` (None: nothing) and,
    with ``cue_into``, falls into that pocket at 1.2 s. The referee rules the fallen ball would
    have been hit."""
    pos = table()
    pos[on_lip] = (1755.0, 3545.0)
    st = state(Phase.RED, reds=8, scores=(20, 10), positions=pos)
    events = [Event(EventType.LIP_DROP, 0.4, (on_lip,)), *extra]
    if cue_into:
        events.append(Event(EventType.POT, 1.2, ("white",), pocket=cue_into))
    after = {k: v for k, v in pos.items() if k not in (on_lip, "white" if cue_into else "")}
    sh = shot(first=first, before=pos, after=after, extra=tuple(events))
    return st, replace(sh, operator=replace(sh.operator, lip_would_be_hit=on_lip)), pos


def _replayed_without_penalty(st, sh, pos):
    d, n = decide(st, sh)
    assert d.replay and not d.foul and d.penalty == 0 and not d.miss
    assert d.score == {"A": 20, "B": 10} and d.next_striker == "A" and d.replace_positions == pos
    assert n.positions == pos and n.striker == 0 and not n.cue_in_hand and n.pending is None
    return d


def test_R9b_C41_the_only_ball_on_fell_so_the_cue_ball_hit_nothing_no_penalty_replayed():
    st, sh, pos = _lip_fall(first=None)
    d = _replayed_without_penalty(st, sh, pos)
    assert any("no penalty" in x and "red_08" in x for x in d.notes)


def test_R9b_C41_the_cue_ball_followed_the_dropped_ball_into_its_pocket_no_penalty_replayed():
    st, sh, pos = _lip_fall(first=None, cue_into="top_right")
    _replayed_without_penalty(st, sh, pos)


def test_R9b_C41_in_off_after_a_lawful_contact_into_the_dropped_balls_pocket_no_penalty():
    st, sh, pos = _lip_fall(first="red_01", cue_into="top_right")
    _replayed_without_penalty(st, sh, pos)


def test_R9b_C41_the_dropped_balls_pocket_found_from_where_it_stood():
    st, sh, pos = _lip_fall(first=None, cue_into="top_right")
    assert all(e.pocket is None for e in sh.events if e.type == EventType.LIP_DROP)
    _replayed_without_penalty(st, sh, pos)
    st, sh, pos = _lip_fall(first=None, cue_into="baulk_left")  # another pocket: the foul stands
    d, _ = decide(st, sh)
    assert d.foul and d.penalty == 4


def test_R9b_C41_in_off_into_another_pocket_is_not_caused_by_the_fall_penalty_stands():
    st, sh, pos = _lip_fall(first="red_01", cue_into="baulk_left")
    d, n = decide(st, sh)
    assert d.replay and d.foul and d.penalty == 4 and d.score == {"A": 20, "B": 14}
    assert [f.code for f in d.fouls] == ["cue_ball_potted"] and d.next_striker == "B"
    assert n.positions == pos and not d.miss


def test_R9b_C41_a_ball_not_on_fell_so_the_miss_of_every_ball_keeps_its_penalty():
    """The black on the lip with reds on: hitting it would have been a foul too."""
    st, sh, pos = _lip_fall(first=None, on_lip="black", cue_into="top_right")
    d, _ = decide(st, sh)
    assert d.replay and d.foul and d.penalty == 4 and d.score == {"A": 20, "B": 14}
    assert {f.code for f in d.fouls} == {"no_contact", "cue_ball_potted"}


def test_R9b_C41_a_foul_not_caused_by_the_fall_keeps_its_penalty_the_other_is_excused():
    """A push stroke on the touching blue (5) with the ball on gone: the push stands."""
    st, sh, pos = _lip_fall(first=None, extra=(Event(EventType.PUSH, 0.0, ("blue",)),))
    d, n = decide(st, sh)
    assert d.replay and d.foul and [f.code for f in d.fouls] == ["push_stroke"]
    assert d.penalty == 5 and d.score == {"A": 20, "B": 15} and d.next_striker == "B"
    assert d.options == ("play", "play_again") and n.positions == pos


def test_R9b_C41_wrong_ball_first_is_not_caused_by_the_fall_penalty_stands():
    st, sh, pos = _lip_fall(first="pink")
    d, _ = decide(st, sh)
    assert d.replay and d.foul and [f.code for f in d.fouls] == ["wrong_ball_first"]
    assert d.penalty == 6 and d.score == {"A": 20, "B": 16}


def test_R9b_ruling_travels_in_the_shot_record():
    rec = {"type": "shot", "shot": 3, "events": [{"type": "strike", "t": 0, "ball": "white"}],
           "operator": {"lip_would_be_hit": "red_08"}}
    assert record_to_dict(record_from_dict(rec))["operator"] == {"lip_would_be_hit": "red_08"}


# ------------------------------------------------------------------ S3 R17 four-handed
SIDES = ("Ann & Cat", "Bob & Dan")
TEAMS = (("Ann", "Cat"), ("Bob", "Dan"))


def four_handed(best_of: int = 3, **kw) -> Match:
    m = Match()
    m.feed(FrameStart(1, SIDES, breaker="Ann", best_of=best_of, teams=TEAMS, **kw))
    return m


def test_R17a_four_players_in_rotation_scores_by_side():
    m = four_handed()
    assert m.state.order == ("Ann", "Bob", "Cat", "Dan") and m.state.player == "Ann"
    seen = []
    for k in range(1, 6):
        out = m.feed(shot(k, first="red_01"))[0]  # safeties
        seen.append((out["player"], out["next_player"]))
    assert seen == [("Ann", "Bob"), ("Bob", "Cat"), ("Cat", "Dan"), ("Dan", "Ann"), ("Ann", "Bob")]
    out = m.feed(shot(6, first="red_01", pots=("red_01",)))[0]  # Bob pots: Bob again
    assert out["striker"] == "Bob & Dan" and out["next_player"] == "Bob"
    assert out["score"] == {"Ann & Cat": 0, "Bob & Dan": 1}


def test_R17a_sides_open_alternate_frames_and_may_change_their_order():
    m = four_handed()
    m.feed(OperatorInput(InputKind.CONCEDE, player="Ann"))
    out = m.feed(FrameStart(2, SIDES, order=("Dan", "Cat", "Bob", "Ann")))[0]
    assert out["breaker"] == "Bob & Dan" and out["next_player"] == "Dan"
    assert m.state.order == ("Dan", "Cat", "Bob", "Ann")


def test_R17a_order_must_alternate_the_sides():
    m = Match()
    with pytest.raises(RuleError, match="alternate"):
        m.feed(FrameStart(1, SIDES, breaker="Ann", teams=TEAMS, order=("Ann", "Cat", "Bob", "Dan")))


def test_R17c_play_again_the_offender_plays_and_the_order_is_unchanged():
    m = four_handed()
    out = m.feed(shot(1, first="red_01", cue_pot=True))[0]  # Ann goes in-off
    assert out["next_player"] == "Bob" and out["score"]["Bob & Dan"] == 4
    res = m.feed(OperatorInput(InputKind.OPTION, choice="play_again"))[0]
    assert res["next_player"] == "Ann" and res["cue_in_hand"]
    out = m.feed(shot(2, first="red_01"))[0]
    assert out["player"] == "Ann" and out["next_player"] == "Bob"


def test_R17c_out_of_turn_the_offenders_partner_loses_a_turn():
    m = four_handed()
    m.feed(shot(1, first="red_01"))  # Ann: Bob is due
    out = m.feed(shot(2, first="red_01", striker="Dan"))[0]
    assert out["player"] == "Dan" and out["foul"] and "out_of_turn" in [f["code"] for f in out["fouls"]]
    assert out["score"] == {"Ann & Cat": 4, "Bob & Dan": 0}
    # Bob's turn is gone; side A's order is kept: Cat, not Ann again (tests/test_rules_audit2.py)
    assert out["next_player"] == "Cat"


def test_R17d_respotted_black_the_pair_chooses_and_the_order_goes_on():
    m = four_handed()
    m.state = replace(m.state, on_table=frozenset({"black"}), phase=Phase.SEQ, seq_colour="black",
                      scores=(50, 57), positions=None)
    out = m.feed(shot(1, first="black", pots=("black",)))[0]
    assert out["draw_lots"] and out["next_player"] is None
    res = m.feed(OperatorInput(InputKind.LOTS, player="Cat"))[0]
    assert res["next_player"] == "Cat" and res["next_striker"] == "Ann & Cat"
    out = m.feed(shot(2, first="black"))[0]
    assert out["player"] == "Cat" and out["next_player"] == "Dan"


# ------------------------------------------------------------------ aggregate scoring
def black_frame(m: Match, n: int, layout=("black",), **kw):
    return m.feed(FrameStart(n, PLAYERS, positions={c: SP[c] for c in layout}, **kw))


def test_aggregate_the_match_goes_to_the_greatest_total_not_the_most_frames():
    m = Match()
    black_frame(m, 1, ("blue", "pink", "black"), best_of=3, aggregate=True, breaker="A")
    for k, c in enumerate(("blue", "pink", "black"), start=1):
        m.feed(shot(k, first=c, pots=(c,)))  # A clears: 18-0
    black_frame(m, 2)
    m.feed(shot(4, first="black", pots=("black",)))  # B: 0-7
    black_frame(m, 3)
    out = m.feed(shot(5))  # A misses the black: 0-7
    assert m.frames_won == {"A": 1, "B": 2} and m.totals == {"A": 18, "B": 14}
    assert out[-1]["match_over"] and out[-1]["match_winner"] == "A"
    assert out[-1]["aggregate"] == {"A": 18, "B": 14}


def test_aggregate_level_at_the_end_of_the_last_frame_respotted_black():
    m = Match()
    black_frame(m, 1, best_of=2, aggregate=True, breaker="A")
    m.feed(shot(1, first="black", pots=("black",)))  # A 7-0
    black_frame(m, 2)
    out = m.feed(shot(2, first="black", pots=("black",)))[0]  # B 0-7: aggregate 7-7
    assert not out["frame_over"] and out["draw_lots"] and not m.match_over
    m.feed(OperatorInput(InputKind.LOTS, player="A"))
    out = m.feed(shot(3, first="black", pots=("black",)))
    assert out[-1]["match_winner"] == "A" and m.totals == {"A": 14, "B": 7}


def test_aggregate_a_frame_tied_before_the_last_ends_drawn():
    m = Match()
    black_frame(m, 1, best_of=3, aggregate=True, breaker="A")
    m.state = replace(m.state, scores=(0, 7))
    out = m.feed(shot(1, first="black", pots=("black",)))
    assert out[0]["frame_over"] and out[0]["winner"] is None
    assert out[1]["frame_end"] == 1 and out[1]["winner"] is None and not out[1]["match_over"]


def test_aggregate_is_a_match_setting_on_the_first_frame_start():
    m = Match()
    black_frame(m, 1, best_of=3)
    m.feed(shot(1, first="black", pots=("black",)))
    with pytest.raises(RuleError, match="first frame_start"):
        black_frame(m, 2, aggregate=True)
    rec = {"type": "frame_start", "frame": 1, "players": ["A", "B"], "aggregate": True,
           "teams": [["a1", "a2"], ["b1", "b2"]], "order": ["a1", "b1", "a2", "b2"]}
    assert record_to_dict(record_from_dict(rec))["aggregate"] is True


# ------------------------------------------------------------------ S3 R16 stalemate
def test_R16_stalemate_nullifies_the_scores_and_the_same_player_breaks_again():
    m = Match()
    m.feed(FrameStart(1, PLAYERS, breaker="B"))
    m.feed(shot(1, first="red_01", pots=("red_01",)))
    m.feed(shot(2, first="black"))
    res = m.feed(OperatorInput(InputKind.STALEMATE))[0]
    assert res["accepted"] and res["score"] == {"A": 0, "B": 0} and res["next_striker"] == "B"
    st = m.state
    assert st.shots == 0 and len(rules().reds(st.on_table)) == 15 and st.cue_in_hand
    assert st.positions == rules().setup_positions()


def test_R3d_iii_after_a_stalemate_the_correct_side_restarts():
    m = Match()
    m.feed(FrameStart(1, PLAYERS, breaker="A", best_of=3))
    m.feed(OperatorInput(InputKind.CONCEDE, player="A"))
    out = m.feed(FrameStart(2, PLAYERS, breaker="A"))  # B should have broken
    assert out[0]["notes"]
    m.feed(shot(1, first="red_01"))
    m.feed(shot(2, first="red_02"))
    res = m.feed(OperatorInput(InputKind.STALEMATE))[0]
    assert res["next_striker"] == "B"


# ------------------------------------------------------------------ S3 R8(g) / C40
def test_R8g_touching_state_changed_before_the_stroke_is_flagged():
    pos = table(6)
    red = pos["red_03"]
    touching = {**pos, "white": (red[0], red[1] - 52.5)}
    r = rules()
    d, st = r.decide(state(Phase.RED, reds=6, positions=pos), shot(1, first="red_01",
                                                                    before=pos, after=touching))
    assert d.touching == ("red_03",)
    apart = {**touching, "white": (red[0], red[1] - 60.0)}
    d2, _ = r.decide(st, shot(2, first="red_01", before=apart, striker="B"))
    assert any("C40" in x and "no longer touches" in x for x in d2.needs_review)


def test_R8g_a_touching_ball_called_still_counts_as_touching_at_the_stroke():
    pos = table(6)
    red = pos["red_03"]
    touching = {**pos, "white": (red[0], red[1] - 52.5)}
    r = rules()
    _, st = r.decide(state(Phase.RED, reds=6, positions=pos), shot(1, first="red_02", before=pos,
                                                                   after=touching))
    apart = {**touching, "white": (red[0], red[1] - 60.0)}
    d, _ = r.decide(replace(st, striker=0), shot(2, before=apart, after=apart))  # plays away
    assert not d.foul  # the touching red, as called, counts as hit (R8(c)(i), R8(g))
    assert any("C40" in x for x in d.needs_review)


def test_R8g_balls_put_back_when_the_change_is_seen_between_strokes():
    pos = table(6)
    red = pos["red_03"]
    touching = {**pos, "white": (red[0], red[1] - 52.5)}
    r = rules()
    _, st = r.decide(state(Phase.RED, reds=6, positions=pos), shot(1, first="red_01", before=pos,
                                                                   after=touching))
    apart = {**touching, "white": (red[0], red[1] - 60.0)}
    no_stroke = replace(shot(2, before=apart), events=())
    d, n = r.decide(st, no_stroke)
    assert not d.foul and {x.ball for x in d.respots} == {"white", "red_03"}
    assert n.positions["white"] == touching["white"] and n.striker == st.striker


# ------------------------------------------------------------------ 2004 amateur miss rule (000)
def test_amateur_2004_miss_rule_third_miss_gives_in_hand_not_the_frame():
    r = rules(amateur_miss_2004=True)
    pos = table()
    s = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    d, s = r.decide(s, shot(1, first="blue", before=pos, after=pos))
    _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    d, s = r.decide(s, shot(2, first="blue", before=pos, after=pos))
    assert d.miss_warning and any("in-hand" in x for x in d.notes)
    _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    d, s = r.decide(s, shot(3, first="blue", before=pos, after=pos))
    assert not d.frame_over and "in_hand" in d.options and "replace" not in d.options
    res, s2 = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="in_hand"))
    assert res.accepted and res.cue_in_hand and res.next_striker == "B"
    assert s2.positions["red_01"] == pos["red_01"] and s2.in_hand_area == "D"


# ------------------------------------------------------------------ "four snookers" (000 S3 R4(d)*)
def test_four_snookers_not_applied_in_the_deciding_frame_with_frames_level():
    m = Match()
    cols = {c: SP[c] for c in B.COLOURS}
    m.feed(FrameStart(1, PLAYERS, breaker="A", best_of=3, options={"four_snookers": True},
                      positions=cols))
    m.state = replace(m.state, scores=(0, 50), cue_in_hand=False,
                      positions={**cols, "white": (889.0, 1400.0)})
    out = m.feed(shot(1, first="yellow"))
    assert out[0]["frame_over"] and out[0]["end_reason"] == "four_snookers"
    m.feed(FrameStart(2, PLAYERS, options={"four_snookers": True}, positions=cols))
    m.feed(OperatorInput(InputKind.CONCEDE, player="B"))  # 1-1: frame 3 decides
    m.feed(FrameStart(3, PLAYERS, options={"four_snookers": True}, positions=cols))
    m.state = replace(m.state, scores=(0, 50), cue_in_hand=False,
                      positions={**cols, "white": (889.0, 1400.0)})
    out = m.feed(shot(2, first="yellow"))
    assert not out[0]["frame_over"]


def test_four_snookers_not_applied_with_the_cue_ball_in_hand():
    pos = {**{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    st = state(Phase.SEQ, reds=0, scores=(0, 60), positions=pos)
    d, _ = decide(st, shot(first="yellow", cue_pot=True), four_snookers=True)
    assert not d.frame_over and d.cue_in_hand


# ------------------------------------------------------------------ any-number-of-reds annex
def test_annex_rule_2_after_the_fifth_miss_no_replacement_but_the_ball_anywhere():
    r = get_ruleset("snooker-6-reds")
    reds = {B.red_id(i + 1): (300.0 + i * 200.0, 3000.0) for i in range(6)}
    pos = {**reds, **{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    s = state(Phase.RED, reds=6, scores=(20, 20), positions=pos, ruleset="snooker-6-reds")
    for k in range(1, 6):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos))
        assert d.miss_warning == (k == 4)
        if k < 5:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    assert d.options == ("play", "play_again", "ball_anywhere")
    res, s2 = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="ball_anywhere"))
    assert res.accepted and s2.cue_in_hand and s2.in_hand_area == "table"
    anywhere = {**pos, "white": (1500.0, 2500.0)}
    d6, _ = r.decide(s2, shot(6, first="red_01", before=anywhere))
    assert not d6.foul  # placed outside the D: allowed


def test_annex_rule_2_no_ball_anywhere_once_snookers_are_required():
    r = get_ruleset("snooker-6-reds")
    reds = {B.red_id(i + 1): (300.0 + i * 200.0, 3000.0) for i in range(6)}
    pos = {**reds, **{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    s = state(Phase.RED, reds=6, scores=(0, 100), positions=pos, ruleset="snooker-6-reds")
    for k in range(1, 6):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos, miss=True))
        if k < 5:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    assert d.miss and d.options == ("play", "play_again")
