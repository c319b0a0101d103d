"""Every rule option changes a call: one test per option, flipping it on the same stroke and
seeing the decision change (it would fail if the engine ignored the option). The last tests
keep this list, ``RuleOptions`` and the options table of docs/RULES.md in step.
"""

from __future__ import annotations

import re
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest
from helpers import decide, rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import Event, EventType, InputKind, OperatorInput
from tracker.rules.options import RuleOptions
from tracker.rules.registry import get_ruleset
from tracker.rules.state import Phase

SP = T.spots


def spread(n: int, y: float = 3000.0, step: float = 150.0) -> dict:
    return {B.red_id(i + 1): (300.0 + i * step, y) for i in range(n)}


def full_table(n_reds: int = 8, white=(889.0, 1400.0)) -> dict:
    return {**spread(n_reds), **{c: SP[c] for c in B.COLOURS}, "white": white}


def test_option_free_ball_value():
    # D18: the free ball black, nominated as a red, potted with an in-off.
    st = state(Phase.RED, reds=5, free_ball=True)
    sh = shot(first="black", pots=("black",), cue_pot=True, free_ball="black")
    assert decide(st, sh)[0].penalty == 4
    assert decide(st, sh, free_ball_value="own")[0].penalty == 7


def test_option_free_ball_snooker_after_pot():
    # D19: the free ball (black) hit first knocks in a red and ends up hiding every red left.
    reds = {"red_01": (360.0, 3300.0), "red_02": (400.0, 3300.0), "red_03": (440.0, 3300.0),
            "red_04": (1500.0, 3300.0)}
    cols = {c: SP[c] for c in ("yellow", "green", "brown", "blue", "pink")}
    before = {**reds, **cols, "black": (400.0, 2900.0), "white": (400.0, 2300.0)}
    after = {k: v for k, v in {**before, "black": (400.0, 2665.0), "white": (400.0, 2600.0)}.items()
             if k != "red_04"}
    st = replace(state(Phase.RED, reds=4, free_ball=True), positions=before)
    sh = shot(first="black", pots=("red_04",), free_ball="black", before=before, after=after)
    d, _ = decide(st, sh)
    assert not d.foul and d.points["A"] == 1
    d2, _ = decide(st, sh, free_ball_snooker_after_pot=True)
    assert d2.foul and d2.fouls[0].code == "snooker_behind_free_ball"


def test_option_own_spots_first():
    # D21: black and yellow potted in a foul; the black spot is covered, the yellow spot free.
    pos = {**spread(4), **{c: SP[c] for c in B.COLOURS}, "white": (889.0, 2000.0)}
    pos["red_04"] = SP["black"]
    after = {k: v for k, v in pos.items() if k not in ("black", "yellow")}
    st = state(Phase.RED, reds=4, positions=pos)
    sh = shot(first="red_01", pots=("black", "yellow"), before=pos, after=after)
    placed = {r.ball: r for r in decide(st, sh)[0].respots}
    assert placed["yellow"].position == SP["yellow"] and placed["black"].how == "above_spot"
    placed = {r.ball: r for r in decide(st, sh, own_spots_first=False)[0].respots}
    assert placed["black"].position == SP["yellow"]  # the letter of R7(e): highest first
    assert placed["yellow"].how != "own_spot"


def test_option_hanging_ball_s():
    st = state(Phase.SEQ, reds=0, colours=("pink", "black"), scores=(20, 20))
    sh = shot(first="pink")
    sh = replace(sh, events=(*sh.events, Event(EventType.POT, 3.0, ("pink",), pocket="top_left",
                                              rest_s=3.0)))
    assert decide(st, sh)[0].points["A"] == 6
    d, n = decide(st, sh, hanging_ball_s=2.0)
    assert d.points["A"] == 0 and "pink" in n.on_table and d.respots[0].how == "put_back"


def test_option_undetermined_on_penalty():
    st = state(Phase.COLOUR_CHOICE, reds=5)
    assert decide(st, shot())[0].penalty == 7
    assert decide(st, shot(), undetermined_on_penalty=4)[0].penalty == 4


def test_option_touching_gap_mm():
    pos = {**spread(6), **{c: SP[c] for c in B.COLOURS}}
    red = pos["red_03"]
    pos["white"] = (red[0], red[1] - 52.5 - 1.0)  # a 1 mm gap
    st = state(Phase.RED, reds=6, positions=pos)
    d, _ = decide(st, shot(before=pos, after=pos))  # plays away, hits nothing
    assert d.foul and d.fouls[0].code == "no_contact"
    d2, _ = decide(st, shot(before=pos, after=pos), touching_gap_mm=1.5)
    assert not d2.foul  # the touching red counts as hit (R8(c)(i))


def test_option_in_hand_tolerance_mm():
    white = (T.centre_x, T.baulk_line - T.d_radius - 3.0)  # 3 mm outside the arc
    pos = {**spread(6), **{c: SP[c] for c in B.COLOURS}, "white": white}
    st = state(Phase.RED, reds=6, positions=pos, cue_in_hand=True)
    d, _ = decide(st, shot(first="red_01", before=pos))
    assert d.foul and d.fouls[0].code == "in_hand_outside_d"
    d2, _ = decide(st, shot(first="red_01", before=pos), in_hand_tolerance_mm=5.0)
    assert not d2.foul and any("within tolerance" in r for r in d2.needs_review)


def test_option_simultaneous_s():
    st = state(Phase.RED, reds=6)
    sh = shot(first="red_01")
    sh = replace(sh, events=(*sh.events, Event(EventType.CONTACT, 0.5015, ("white", "blue"))))
    d, _ = decide(st, sh)
    assert d.foul and d.fouls[0].code == "simultaneous_hit"  # 1.5 ms apart: simultaneous
    d2, _ = decide(st, sh, simultaneous_s=0.001)
    assert not d2.foul


def test_option_review_confidence():
    st = state(Phase.RED, reds=6)
    sh = shot(first="red_01")
    ev = tuple(replace(e, confidence=0.85) if e.type == EventType.CONTACT else e for e in sh.events)
    sh = replace(sh, events=ev)
    d, _ = decide(st, sh)
    assert not any("uncertain" in r for r in d.needs_review)
    d2, _ = decide(st, sh, review_confidence=0.9)
    assert any("not sure which ball the cue ball hit first" in r for r in d2.needs_review)


def test_option_operator_may_cancel_auto_miss():
    pos = full_table()
    st = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    sh = shot(first="blue", before=pos, after=pos, miss=False)
    assert not decide(st, sh)[0].miss
    assert decide(st, sh, operator_may_cancel_auto_miss=False)[0].miss


def _three_misses(**options):
    r = rules(**options)
    pos = full_table()
    s = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    for k in (1, 2, 3):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos))
        if k < 3:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    return d, s


def test_option_amateur_miss_2004():
    d, _ = _three_misses()
    assert d.frame_over and d.winner == "B"
    d2, s2 = _three_misses(amateur_miss_2004=True)
    assert not d2.frame_over and d2.options == ("play", "play_again", "in_hand")
    assert s2.striker == 1


def test_option_four_snookers():
    # Only colours left, B 50 ahead with 27 on the table: A needs ceil(23 / 4) = 6 snookers.
    pos = {**{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    st = state(Phase.SEQ, reds=0, scores=(0, 50), positions=pos)
    sh = shot(first="yellow", before=pos, after=pos)  # a safety: A's turn ends
    d, _ = decide(st, sh)
    assert not d.frame_over and d.next_striker == "B"
    d2, _ = decide(st, sh, four_snookers=True)
    assert d2.frame_over and d2.winner == "B" and d2.end_reason == "four_snookers"


# English billiards' options are flipped in tests/test_billiards.py (test_option_hazard_limit,
# test_option_cannon_limit, test_option_game_points, test_option_breaker_ball).
BILLIARDS_OPTIONS = {"hazard_limit", "cannon_limit", "game_points", "breaker_ball"}


def test_every_option_has_a_flip_test():
    names = {f.name for f in fields(RuleOptions)}
    here = {n.removeprefix("test_option_") for n in dir(sys.modules[__name__])
            if n.startswith("test_option_")}
    assert names == here | BILLIARDS_OPTIONS
    billiards_tests = Path(__file__).with_name("test_billiards.py").read_text()
    for n in BILLIARDS_OPTIONS:
        assert f"def test_option_{n}(" in billiards_tests


def test_every_option_is_documented():
    text = (Path(__file__).parents[1] / "docs" / "RULES.md").read_text()
    table = set(re.findall(r"^\| `([a-z_0-9]+)` \|", text, re.M))
    assert {f.name for f in fields(RuleOptions)} <= table


@pytest.mark.parametrize("ruleset", ["snooker", "snookerpool", "english-billiards"])
def test_every_option_a_ruleset_accepts_is_one_it_reads(ruleset):
    r = get_ruleset(ruleset)
    assert {f.name for f in fields(RuleOptions)} >= r.OPTIONS
    foreign = sorted({f.name for f in fields(RuleOptions)} - r.OPTIONS)
    if foreign:
        with pytest.raises(ValueError, match="do not apply"):
            get_ruleset(ruleset, {foreign[0]: getattr(RuleOptions(), foreign[0])})


def test_wrong_option_type_is_a_clear_error():
    with pytest.raises(ValueError, match="wrong type"):
        get_ruleset("snooker", {"four_snookers": "yes"})
    assert get_ruleset("snooker", {"hanging_ball_s": 4}).options.hanging_ball_s == 4

