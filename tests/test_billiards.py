"""English billiards (002 "The Official Rules of English Billiards", EB) and the 000 "Snooker -
1 red" variant: one scenario per rule, named after it (EB S3 R4 = Section 3 Rule 4, Scoring).

Players A (plays the white) and B (the spot white); the red starts on the Spot.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.table import STANDARD_TABLE as T
from tracker.records.parse import record_from_dict, record_to_dict
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput, Shot
from tracker.rules.match import Match
from tracker.rules.registry import get_ruleset
from tracker.rules.state import Phase

SPOT, PYRAMID, CENTRE = T.spots["black"], T.spots["pink"], T.spots["blue"]
BAULK_MIDDLE, D_RIGHT = T.spots["brown"], T.spots["yellow"]


def rules(name: str = "english-billiards", **options):
    return get_ruleset(name, options or None)


def stroke(n: int = 1, cue: str = "white", first: tuple[str, ...] | str = (), then: tuple[str, ...] = (),
           pots: tuple[str, ...] = (), in_off: bool = False, extra: tuple[Event, ...] = (),
           before: dict | None = None, after: dict | None = None, striker: str | None = None,
           fouls: tuple[str, ...] = (), lip: str | None = None) -> Shot:
    """Strike at 0; the cue ball meets ``first`` at 0.5 (together), then ``then`` at 0.7;
    pots from 1.0; the cue ball into a pocket at 1.5 when ``in_off``."""
    from tracker.records.shot import OperatorFoul, OperatorJudgement

    ev = [Event(EventType.STRIKE, 0.0, (cue,))]
    first = (first,) if isinstance(first, str) else first
    ev += [Event(EventType.CONTACT, 0.5, (cue, b)) for b in first]
    ev += [Event(EventType.CONTACT, 0.7, (cue, b)) for b in then]
    ev += [Event(EventType.POT, 1.0 + i / 10, (b,), pocket="top_left") for i, b in enumerate(pots)]
    if in_off:
        ev.append(Event(EventType.POT, 1.5, (cue,), pocket="top_right"))
    ev = sorted([*ev, *extra], key=lambda e: e.t)
    op = OperatorJudgement(fouls=tuple(OperatorFoul(c) for c in fouls), lip_would_be_hit=lip)
    return Shot(n, events=tuple(ev), positions_before=before, positions_after=after, striker=striker,
                operator=op)


def both_on(r=None, **kw):
    """A mid-game state: both whites and the red on the table, A to play, no positions."""
    r = r or rules()
    st = r.new_frame(("A", "B"))
    return replace(st, on_table=frozenset({"white", "spot", "red"}), cue_in_hand=False, shots=3,
                   positions=None, game=replace(st.game, red_spot=None), **kw)


# ------------------------------------------------------------------ start (EB S3 R2)
def test_EB_S3_R2_red_on_the_spot_and_the_breaker_in_hand():
    r = rules()
    st = r.new_frame(("A", "B"))
    assert st.on_table == {"red"} and st.positions == {"red": SPOT}
    assert st.cue_in_hand and st.game.cue_of == ("white", "spot") and st.phase == Phase.OPEN
    assert r.balls.ids == ("white", "spot", "red")
    out = Match().feed(FrameStart(1, ("A", "B"), ruleset="english-billiards"))
    assert out[0]["cue_in_hand"] and out[0]["next_player"] == "A"


def test_EB_S3_R2_opening_stroke_with_the_wrong_white_is_void():
    r = rules()
    st = r.new_frame(("A", "B"))
    d, n = r.decide(st, stroke(cue="spot", first="red"))
    assert not d.foul and d.score == {"A": 0, "B": 0} and n == st
    assert any("void" in x for x in d.notes)
    d2, _ = r.decide(both_on(r), stroke(cue="spot", first="red"))  # later: a foul
    assert d2.foul and d2.fouls[0].code == "wrong_cue_ball" and d2.penalty == 2
    assert d2.fouls[0].message == "struck the spot instead of the white"
    r3 = rules(breaker_ball="spot")  # A's ball is the spot: striking the white is the foul
    d3, _ = r3.decide(both_on(r3), stroke(cue="white", first="red"))
    assert d3.fouls[0].message == "struck the white instead of the spot"


def test_option_breaker_ball():
    st = rules().new_frame(("A", "B"))
    assert st.game.cue_of == ("white", "spot")
    st2 = rules(breaker_ball="spot").new_frame(("A", "B"))
    assert st2.game.cue_of == ("spot", "white")
    d, _ = rules(breaker_ball="spot").decide(st2, stroke(cue="spot", first="red", pots=("red",)))
    assert not d.foul and d.points["A"] == 3


# ------------------------------------------------------------------ scoring (EB S3 R4)
@pytest.mark.parametrize("kw,points,what", [
    (dict(first="red", then=("spot",)), 2, ["cannon"]),
    (dict(first="spot", pots=("spot",)), 2, ["pot white"]),
    (dict(first="spot", in_off=True), 2, ["in-off white"]),
    (dict(first="red", pots=("red",)), 3, ["pot red"]),
    (dict(first="red", in_off=True), 3, ["in-off red"]),
])
def test_EB_S3_R4_each_scoring_stroke(kw, points, what):
    d, n = rules().decide(both_on(), stroke(**kw))
    assert not d.foul and d.points == {"A": points, "B": 0} and [w for w, _ in d.scoring] == what
    assert d.next_striker == "A"  # a score continues the break (EB S3 R3)


def test_EB_S3_R4_every_hazard_and_the_cannon_of_one_stroke_count():
    # red first, then the spot white (cannon 2); both object balls potted (3 + 2); in-off 3.
    d, _ = rules().decide(both_on(), stroke(first="red", then=("spot",), pots=("red", "spot"),
                                            in_off=True))
    assert d.points["A"] == 2 + 3 + 2 + 3
    assert sorted(d.scoring) == sorted([("cannon", 2), ("pot red", 3), ("pot white", 2),
                                        ("in-off red", 3)])


@pytest.mark.parametrize("first,then,in_off_points", [
    (("red",), ("spot",), 3), (("spot",), ("red",), 2), (("red", "spot"), (), 2)])
def test_EB_S3_R4_in_off_with_a_cannon_scores_by_the_first_ball_struck(first, then, in_off_points):
    d, _ = rules().decide(both_on(), stroke(first=first, then=then, in_off=True))
    assert d.points["A"] == 2 + in_off_points


# ------------------------------------------------------------------ mode of play (EB S3 R3)
def test_EB_S3_R3_break_goes_on_from_in_hand_after_an_in_off():
    d, n = rules().decide(both_on(), stroke(first="red", in_off=True))
    assert d.next_striker == "A" and d.cue_in_hand and n.cue_in_hand and "white" not in n.on_table


def test_EB_S3_R3_turn_passes_after_no_score_and_the_next_player_plays_his_own_ball():
    r = rules()
    st = r.new_frame(("A", "B"))
    d, n = r.decide(st, stroke(first="red"))  # the opening stroke, no score
    assert not d.foul and d.next_striker == "B" and d.cue_in_hand  # B's ball is not yet on
    d2, n2 = r.decide(n, stroke(2, cue="spot", first="red", then=("white",)))
    assert d2.points["B"] == 2 and d2.striker == "B" and n2.on_table == {"white", "spot", "red"}


def test_EB_S3_R3_potted_opponents_ball_stays_off_until_his_turn():
    r = rules()
    d, n = r.decide(both_on(r), stroke(first="spot", pots=("spot",)))
    assert d.points["A"] == 2 and "spot" not in n.on_table and not d.respots
    d2, n2 = r.decide(n, stroke(2, first="red"))  # no score: B plays from in-hand
    assert d2.next_striker == "B" and d2.cue_in_hand


# ------------------------------------------------------------------ red spotting (EB S3 R8)
def test_EB_S3_R8_red_goes_on_the_spot_then_the_pyramid_then_the_centre():
    r = rules()
    st = both_on(r)
    after = {"white": (900.0, 2000.0), "spot": (500.0, 1000.0)}
    d, _ = r.decide(st, stroke(first="red", pots=("red",), after=after))
    assert d.respots[0].position == SPOT and d.respots[0].how == "spot"
    d, _ = r.decide(st, stroke(first="red", pots=("red",), after={**after, "spot": SPOT}))
    assert d.respots[0].position == PYRAMID
    d, _ = r.decide(st, stroke(first="red", pots=("red",),
                               after={"white": PYRAMID, "spot": SPOT}))
    assert d.respots[0].position == CENTRE


def test_EB_S3_R8_red_potted_twice_from_the_spot_goes_on_the_centre_spot():
    r = rules()
    st = replace(both_on(r), game=replace(both_on(r).game, red_spot="spot"))
    where = []
    for k in range(1, 7):
        d, st = r.decide(st, stroke(k, first="red", pots=("red",)))
        where.append(d.respots[0].how)
    # placed on the Spot twice, then the Centre spot once (the first pot is from the Spot the
    # red was set on at the start)
    assert where == ["spot", "centre", "spot", "spot", "centre", "spot"]
    assert st.break_points == 18


def test_EB_S3_R8_red_potted_with_another_score_starts_the_count_again():
    r = rules()
    st = replace(both_on(r), game=replace(both_on(r).game, red_spot="spot"))
    d, st = r.decide(st, stroke(1, first="red", pots=("red",)))
    d, st = r.decide(st, stroke(2, first="red", then=("spot",), pots=("red",)))  # with a cannon
    assert d.respots[0].how == "spot"
    d, st = r.decide(st, stroke(3, first="red", pots=("red",)))
    assert d.respots[0].how == "spot"  # one pot alone since the cannon


# ------------------------------------------------------------------ limits (EB S3 R9, R10)
def _hazards(r, n: int):
    st = both_on(r)
    for k in range(1, n + 1):
        d, st = r.decide(st, stroke(k, first="red", in_off=True))  # a hazard each time
    return d, st


def test_EB_S3_R10_fifteen_consecutive_hazards_then_a_foul():
    r = rules()
    d, st = _hazards(r, 15)
    assert not d.foul and st.game.hazards == 15 and st.scores == (45, 0)
    d16, n16 = r.decide(st, stroke(16, first="red", in_off=True))
    assert d16.foul and d16.fouls[0].code == "hazard_limit" and d16.penalty == 2
    assert d16.score == {"A": 45, "B": 2} and d16.next_striker == "B"
    _, ten = _hazards(r, 9)
    d10, _ = r.decide(ten, stroke(10, first="red", in_off=True))
    assert any("10 HAZARDS" in x for x in d10.notes)


def test_EB_S3_R10_a_cannon_starts_the_hazard_count_again():
    r = rules()
    _, st = _hazards(r, 15)
    d, st = r.decide(st, stroke(16, first="red", then=("spot",)))  # a cannon
    assert not d.foul and st.game.hazards == 0
    d, _ = r.decide(st, stroke(17, first="red", in_off=True))
    assert not d.foul


def test_option_hazard_limit():
    r = rules(hazard_limit=25)  # the older editions' limit
    _, st = _hazards(r, 15)
    d, _ = r.decide(st, stroke(16, first="red", in_off=True))
    assert not d.foul


def test_EB_S3_R10_non_strikers_ball_placed_after_the_fifteenth_hazard():
    r = rules()
    st = replace(both_on(r), on_table=frozenset({"white", "red"}),
                 game=replace(both_on(r).game, own_off=frozenset({"spot"})))
    for k in range(1, 16):
        d, st = r.decide(st, stroke(k, first="red", in_off=True))
    assert "spot" in st.on_table and any(x.ball == "spot" and x.position == BAULK_MIDDLE
                                         for x in d.respots)


def _cannons(r, n: int):
    st = both_on(r)
    for k in range(1, n + 1):
        d, st = r.decide(st, stroke(k, first="red", then=("spot",)))
    return d, st


def test_EB_S3_R9_seventy_five_consecutive_cannons_then_a_foul():
    r = rules()
    d, st = _cannons(r, 75)
    assert not d.foul and st.game.cannons == 75
    d76, _ = r.decide(st, stroke(76, first="red", then=("spot",)))
    assert d76.foul and d76.fouls[0].code == "cannon_limit"


def test_option_cannon_limit():
    r = rules(cannon_limit=3)
    _, st = _cannons(r, 3)
    d, _ = r.decide(st, stroke(4, first="red", then=("spot",)))
    assert d.foul and d.fouls[0].code == "cannon_limit"


# ------------------------------------------------------------------ misses and fouls
def test_EB_S3_R16_a_miss_costs_two_but_is_not_a_foul():
    d, n = rules().decide(both_on(), stroke())  # touches nothing
    assert not d.foul and d.miss and d.penalty == 2 and d.score == {"A": 0, "B": 2}
    assert d.options == () and d.next_striker == "B" and n.pending is None


def test_EB_S3_R16_a_coup_is_a_foul():
    d, n = rules().decide(both_on(), stroke(in_off=True))  # straight into a pocket
    assert d.foul and d.fouls[0].code == "coup" and d.penalty == 2
    assert d.options == ("play", "spot_balls")


def test_EB_S3_R15_two_points_at_most_and_the_next_players_two_options():
    r = rules()
    pos = {"white": (600.0, 2000.0), "spot": (1200.0, 2500.0), "red": (300.0, 3000.0)}
    st = replace(both_on(r), positions=pos)
    push = (Event(EventType.PUSH, 0.0, ("red",)),)
    d, n = r.decide(st, stroke(first="red", extra=push, fouls=("feet",), before=pos, after=pos))
    assert d.foul and len(d.fouls) == 2 and d.penalty == 2 and d.score == {"A": 0, "B": 2}
    assert d.options == ("play", "spot_balls") and d.next_striker == "B" and not d.cue_in_hand
    res, n2 = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="spot_balls"))
    assert res.accepted and res.cue_in_hand and n2.cue_in_hand
    assert n2.positions["red"] == SPOT and n2.positions["white"] == CENTRE
    assert "spot" not in n2.on_table  # B's own ball is in hand


@pytest.mark.parametrize("event,code", [
    (Event(EventType.OFF_TABLE, 1.2, ("spot",)), "forced_off"),
    (Event(EventType.JUMP, 0.3, ("spot",)), "jump_shot"),
    (Event(EventType.MOVING_AT_STRIKE, 0.0, ("spot",)), "moving_ball"),
    (Event(EventType.DISTURBED, 0.8, ("spot",)), "ball_disturbed"),
])
def test_EB_S3_R14_fouls_cost_two(event, code):
    d, _ = rules().decide(both_on(), stroke(first="red", pots=("red",), extra=(event,)))
    assert d.foul and code in [f.code for f in d.fouls] and d.penalty == 2 and d.points["A"] == 0


def test_EB_S3_R12_ball_moved_by_other_than_the_striker_is_put_back():
    pos = {"white": (600.0, 2000.0), "spot": (1200.0, 2500.0), "red": (300.0, 3000.0)}
    ev = (Event(EventType.DISTURBED, 0.8, ("spot",), by="non_striker"),)
    d, _ = rules().decide(replace(both_on(), positions=pos),
                          stroke(first="red", pots=("red",), extra=ev, before=pos, after=pos))
    assert not d.foul and d.points["A"] == 3 and any(r.how == "put_back" for r in d.respots)


# ------------------------------------------------------------------ in-hand (EB S3 R6)
def _in_hand(red=(889.0, 2500.0), spot=(1200.0, 2500.0)):
    r = rules()
    st = replace(both_on(r), on_table=frozenset({"spot", "red"}), cue_in_hand=True)
    before = {"white": (889.0, 600.0), "spot": spot, "red": red}
    return r, replace(st, positions={k: v for k, v in before.items() if k != "white"}), before


def test_EB_S3_R6_in_hand_the_cue_ball_is_placed_in_the_d():
    r, st, before = _in_hand()
    before = {**before, "white": (889.0, 800.0)}  # above the baulk line
    d, _ = r.decide(st, stroke(first="red", before=before))
    assert d.foul and d.fouls[0].code == "in_hand_outside_d"


def test_EB_S3_R6_in_hand_no_ball_in_baulk_may_be_played_directly():
    r, st, before = _in_hand(red=(700.0, 400.0))
    d, _ = r.decide(st, stroke(first="red", before=before))
    assert d.foul and d.fouls[0].code == "in_hand_ball_in_baulk"
    cushion = (Event(EventType.CUSHION, 0.3, ("white",), cushion="top"),)
    d2, _ = r.decide(st, stroke(first="red", extra=cushion, before=before))
    assert not d2.foul  # off the top cushion first: fair


def test_EB_S3_R6_in_hand_the_cue_ball_must_leave_baulk():
    r, st, before = _in_hand(red=(700.0, 400.0), spot=(1000.0, 300.0))
    after = {**before, "white": (889.0, 650.0)}
    d, _ = r.decide(st, stroke(before=before, after=after))  # dribbles, stays in baulk
    assert d.foul and d.fouls[0].code == "in_hand_not_out_of_baulk"
    up = (Event(EventType.CUSHION, 0.6, ("white",), cushion="top"),)
    d2, _ = r.decide(st, stroke(extra=up, before=before, after=after))
    assert not d2.foul and d2.miss and d2.penalty == 2  # up and back: a miss, not a foul


# ------------------------------------------------------------------ touching (EB S3 R13)
def test_EB_S3_R13_touching_ball_red_and_other_ball_spotted_striker_in_hand():
    r = rules()
    after = {"white": (600.0, 2000.0), "red": (600.0, 2052.5), "spot": (1200.0, 1500.0)}
    d, n = r.decide(both_on(r), stroke(first="red", then=("spot",), after=after))
    assert d.points["A"] == 2 and d.next_striker == "A" and d.cue_in_hand
    placed = {x.ball: x.position for x in d.respots}
    assert placed == {"red": SPOT, "spot": CENTRE} and "white" not in n.on_table


def test_000_2_10_touching_balls_spotted_only_if_both_agree():
    r = rules("snooker-1-red")
    st = replace(both_on(r), on_table=frozenset({"white", "yellow", "red"}))
    after = {"white": (600.0, 2000.0), "red": (600.0, 2052.5), "yellow": (1200.0, 1500.0)}
    d, n = r.decide(st, stroke(first="red", then=("yellow",), after=after))
    assert d.touching == ("red",) and not d.cue_in_hand and d.respots == ()
    res, n2 = r.apply_input(n, OperatorInput(InputKind.OPTION, choice="spot_balls"))
    assert res.accepted and n2.cue_in_hand and n2.positions["red"] == SPOT


# ------------------------------------------------------------------ lip (EB S3 R11)
def test_EB_S3_R11_ball_that_would_have_been_hit_replayed_with_balls_replaced():
    r = rules()
    pos = {"white": (600.0, 2000.0), "spot": (1750.0, 3540.0), "red": (300.0, 3000.0)}
    st = replace(both_on(r), positions=pos)
    drop = (Event(EventType.LIP_DROP, 0.9, ("spot",)),)
    d, n = r.decide(st, stroke(first="red", extra=drop, before=pos, lip="spot"))
    assert d.replay and not d.foul and d.next_striker == "A" and n.positions == pos
    assert d.score == {"A": 0, "B": 0}


# ------------------------------------------------------------------ end (EB S3 R5, S4)
def test_option_game_points():
    r = rules(game_points=100)
    st = replace(both_on(r), scores=(98, 40), break_points=20)
    d, n = r.decide(st, stroke(first="red", pots=("red",)))
    assert d.frame_over and d.winner == "A" and d.score == {"A": 100, "B": 40}
    assert d.break_points == 23 and n.end_reason == "points"  # the break is credited in full
    d2, _ = rules().decide(st, stroke(first="red", pots=("red",)))
    assert not d2.frame_over and d2.score["A"] == 101


def test_EB_S3_R5_time_ends_a_timed_game():
    r = rules()
    res, n = r.apply_input(replace(both_on(r), scores=(120, 90)), OperatorInput(InputKind.TIME))
    assert res.accepted and n.frame_over and res.winner == "A"
    res2, _ = r.apply_input(replace(both_on(r), scores=(90, 90)), OperatorInput(InputKind.TIME))
    assert res2.winner is None and res2.notes


def test_EB_S4_R3_forfeit_wins_by_the_target_to_nil():
    r = rules(game_points=300)
    res, n = r.apply_input(replace(both_on(r), scores=(120, 90)),
                           OperatorInput(InputKind.AWARD_FRAME, player="B"))
    assert n.scores == (0, 300) and n.winner == 1


def test_EB_S4_R6_only_the_striker_concedes():
    r = rules()
    res, _ = r.apply_input(both_on(r), OperatorInput(InputKind.CONCEDE, player="B"))
    assert not res.accepted
    res, n = r.apply_input(both_on(r), OperatorInput(InputKind.CONCEDE, player="A"))
    assert res.accepted and n.winner == 1


# ------------------------------------------------------------------ the 000 "Snooker - 1 red"
def test_000_2_11_a_miss_is_a_foul_in_snooker_1_red():
    r = rules("snooker-1-red")
    st = replace(both_on(r), on_table=frozenset({"white", "yellow", "red"}))
    assert r.balls.ids == ("white", "yellow", "red")
    d, _ = r.decide(st, stroke())
    assert d.foul and d.fouls[0].code == "no_contact" and d.options == ("play", "spot_balls")


def test_000_2_13_the_baulk_line_crossed_between_80_and_99():
    r = rules("snooker-1-red")
    pos = {"white": (600.0, 2000.0), "yellow": (1200.0, 2500.0), "red": (300.0, 3000.0)}
    st = replace(both_on(r), on_table=frozenset({"white", "yellow", "red"}), positions=pos,
                 break_points=98)
    d, _ = r.decide(st, stroke(first="red", pots=("red",), before=pos, after=pos))
    assert d.foul and d.fouls[0].code == "baulk_line_not_crossed"
    down = {**pos, "white": (600.0, 500.0)}  # the stroke ends in baulk: the line is crossed
    d2, _ = r.decide(st, stroke(first="red", pots=("red",), before=pos, after=down))
    assert not d2.foul and d2.points["A"] == 3


# ------------------------------------------------------------------ the log
def test_a_billiards_log_round_trips_and_is_refereed():
    recs = [{"type": "frame_start", "frame": 1, "players": ["A", "B"], "ruleset": "english-billiards",
             "options": {"game_points": 100}},
            {"type": "shot", "shot": 1, "events": [
                {"type": "strike", "t": 0.0, "ball": "white"},
                {"type": "contact", "t": 0.5, "balls": ["white", "red"]},
                {"type": "pot", "t": 1.0, "ball": "red", "pocket": "top_left"}]},
            {"type": "shot", "shot": 2, "events": [{"type": "strike", "t": 5.0, "ball": "white"}]},
            {"type": "shot", "shot": 3, "events": [
                {"type": "strike", "t": 9.0, "ball": "spot_white"},
                {"type": "contact", "t": 9.5, "balls": ["spot_white", "white"]},
                {"type": "contact", "t": 9.7, "balls": ["spot_white", "red"]}]}]
    m = Match()
    outs = [m.feed(record_from_dict(record_to_dict(record_from_dict(x)))) for x in recs]
    assert outs[1][0]["points"] == {"A": 3, "B": 0}
    assert outs[2][0]["miss"] and outs[2][0]["score"] == {"A": 3, "B": 2}
    assert outs[3][0]["scoring"] == [{"what": "cannon", "points": 2}]


def test_explain_a_billiards_miss_and_a_scoring_stroke():
    from tracker.rules.explain import explain

    d, n = rules().decide(both_on(), stroke(first="red", then=("spot",), pots=("red",)))
    assert "cannon 2, pot red 3" in explain(d.to_dict())
    d2, _ = rules().decide(n, stroke(2))
    assert explain(d2.to_dict()).split(": ", 1)[1].startswith("MISS, 2 to B")


def test_review_confidence_is_read_in_billiards():
    sh = stroke(first="red", then=("spot",))
    sh = replace(sh, events=tuple(replace(e, confidence=0.85) if e.type == EventType.CONTACT else e
                                  for e in sh.events))
    assert not rules().decide(both_on(), sh)[0].needs_review
    d, _ = rules(review_confidence=0.9).decide(both_on(), sh)
    assert any("not sure which ball" in x for x in d.needs_review)
