"""Every rule option changes a call: one test per option, flipping it on the same stroke and
seeing the decision change (it would fail if the engine ignored the option).

The tests after them check behaviour, not names:

- each option's flip test fails when the engine is made to ignore that option (the option
  dropped from every ruleset built while the flip test runs);
- for every option a ruleset accepts, some stroke played on that ruleset is called differently
  with the option flipped from its default (the plays of ``PLAYS``);
- every option is in the options table of docs/RULES.md.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path

import pytest
import test_billiards as eb
from helpers import rules, shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules.options import RuleOptions
from tracker.rules.registry import get_ruleset
from tracker.rules.state import Decision, FrameState, Phase

SP = T.spots

#: A stroke played on a ruleset: its decision and the next state.
Play = Callable[[object], tuple[Decision, FrameState]]

#: Each option's value away from its default, as the flip tests use it.
FLIPPED = {
    "free_ball_value": "own", "free_ball_snooker_after_pot": True, "own_spots_first": False,
    "hanging_ball_s": 2.0, "undetermined_on_penalty": 4, "touching_gap_mm": 1.5,
    "in_hand_tolerance_mm": 5.0, "simultaneous_s": 0.001, "review_confidence": 0.9,
    "operator_may_cancel_auto_miss": False, "amateur_miss_2004": True, "four_snookers": True,
    "hazard_limit": 25, "cannon_limit": 3, "game_points": 100, "breaker_ball": "spot",
}


def spread(n: int, y: float = 3000.0, step: float = 150.0) -> dict:
    return {B.red_id(i + 1): (300.0 + i * step, y) for i in range(n)}


def full_table(n_reds: int = 8, white=(889.0, 1400.0)) -> dict:
    return {**spread(n_reds), **{c: SP[c] for c in B.COLOURS}, "white": white}


# ------------------------------------------------------------------ snooker plays
def play_free_ball_value(r) -> tuple[Decision, FrameState]:
    """D18: the free ball black, nominated as a red, potted with an in-off."""
    st = state(Phase.RED, reds=5, free_ball=True)
    return r.decide(st, shot(first="black", pots=("black",), cue_pot=True, free_ball="black"))


def play_free_ball_snooker_after_pot(r) -> tuple[Decision, FrameState]:
    """D19: the free ball (black) hit first knocks in a red and ends up hiding every red left."""
    reds = {"red_01": (360.0, 3300.0), "red_02": (400.0, 3300.0), "red_03": (440.0, 3300.0),
            "red_04": (1500.0, 3300.0)}
    cols = {c: SP[c] for c in ("yellow", "green", "brown", "blue", "pink")}
    before = {**reds, **cols, "black": (400.0, 2900.0), "white": (400.0, 2300.0)}
    after = {k: v for k, v in {**before, "black": (400.0, 2665.0), "white": (400.0, 2600.0)}.items()
             if k != "red_04"}
    st = replace(state(Phase.RED, reds=4, free_ball=True), positions=before)
    return r.decide(st, shot(first="black", pots=("red_04",), free_ball="black", before=before,
                             after=after))


def play_own_spots_first(r) -> tuple[Decision, FrameState]:
    """D21: black and yellow potted in a foul; the black spot is covered, the yellow spot free."""
    pos = {**spread(4), **{c: SP[c] for c in B.COLOURS}, "white": (889.0, 2000.0)}
    pos["red_04"] = SP["black"]
    after = {k: v for k, v in pos.items() if k not in ("black", "yellow")}
    st = state(Phase.RED, reds=4, positions=pos)
    return r.decide(st, shot(first="red_01", pots=("black", "yellow"), before=pos, after=after))


def play_hanging_ball_s(r) -> tuple[Decision, FrameState]:
    """The pink falls 3 s after stopping on the lip."""
    st = state(Phase.SEQ, reds=0, colours=("pink", "black"), scores=(20, 20))
    sh = shot(first="pink")
    sh = replace(sh, events=(*sh.events, Event(EventType.POT, 3.0, ("pink",), pocket="top_left",
                                              rest_s=3.0)))
    return r.decide(st, sh)


def play_undetermined_on_penalty(r) -> tuple[Decision, FrameState]:
    """After a red, no nomination, the cue ball hits nothing: the ball on is undetermined."""
    return r.decide(state(Phase.COLOUR_CHOICE, reds=5), shot())


def play_touching_gap_mm(r) -> tuple[Decision, FrameState]:
    """The white 1 mm from a red plays away and hits nothing."""
    pos = {**spread(6), **{c: SP[c] for c in B.COLOURS}}
    red = pos["red_03"]
    pos["white"] = (red[0], red[1] - 52.5 - 1.0)
    st = state(Phase.RED, reds=6, positions=pos)
    return r.decide(st, shot(before=pos, after=pos))


def play_in_hand_tolerance_mm(r) -> tuple[Decision, FrameState]:
    """From in-hand with the cue-ball centre 3 mm outside the D."""
    white = (T.centre_x, T.baulk_line - T.d_radius - 3.0)
    pos = {**spread(6), **{c: SP[c] for c in B.COLOURS}, "white": white}
    st = state(Phase.RED, reds=6, positions=pos, cue_in_hand=True)
    return r.decide(st, shot(first="red_01", before=pos))


def play_simultaneous_s(r) -> tuple[Decision, FrameState]:
    """The cue ball meets a red, then the blue 1.5 ms later."""
    sh = shot(first="red_01")
    sh = replace(sh, events=(*sh.events, Event(EventType.CONTACT, 0.5015, ("white", "blue"))))
    return r.decide(state(Phase.RED, reds=6), sh)


def play_review_confidence(r) -> tuple[Decision, FrameState]:
    """The first contact seen with confidence 0.85."""
    sh = shot(first="red_01")
    sh = replace(sh, events=tuple(replace(e, confidence=0.85) if e.type == EventType.CONTACT
                                  else e for e in sh.events))
    return r.decide(state(Phase.RED, reds=6), sh)


def play_operator_may_cancel_auto_miss(r) -> tuple[Decision, FrameState]:
    """A clear path to a red, the blue hit first, the operator says no miss."""
    pos = full_table()
    st = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    return r.decide(st, shot(first="blue", before=pos, after=pos, miss=False))


def play_amateur_miss_2004(r) -> tuple[Decision, FrameState]:
    """Three fouls and misses in a row with a full ball on a red available."""
    pos = full_table()
    s = state(Phase.RED, reds=8, scores=(30, 30), positions=pos)
    for k in (1, 2, 3):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos))
        if k < 3:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    return d, s


def play_four_snookers(r) -> tuple[Decision, FrameState]:
    """Only colours left, B 50 ahead with 27 on the table: A needs ceil(23 / 4) = 6 snookers;
    A plays a safety."""
    pos = {**{c: SP[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    st = state(Phase.SEQ, reds=0, scores=(0, 50), positions=pos)
    return r.decide(st, shot(first="yellow", before=pos, after=pos))


def flipped(option: str):
    """The snooker ruleset with ``option`` away from its default."""
    return rules(**{option: FLIPPED[option]})


def test_option_free_ball_value():
    assert play_free_ball_value(rules())[0].penalty == 4
    assert play_free_ball_value(flipped("free_ball_value"))[0].penalty == 7


def test_option_free_ball_snooker_after_pot():
    d, _ = play_free_ball_snooker_after_pot(rules())
    assert not d.foul and d.points["A"] == 1
    d2, _ = play_free_ball_snooker_after_pot(flipped("free_ball_snooker_after_pot"))
    assert d2.foul and d2.fouls[0].code == "snooker_behind_free_ball"


def test_option_own_spots_first():
    placed = {r.ball: r for r in play_own_spots_first(rules())[0].respots}
    assert placed["yellow"].position == SP["yellow"] and placed["black"].how == "above_spot"
    placed = {r.ball: r for r in play_own_spots_first(flipped("own_spots_first"))[0].respots}
    assert placed["black"].position == SP["yellow"]  # the letter of R7(e): highest first
    assert placed["yellow"].how != "own_spot"


def test_option_hanging_ball_s():
    assert play_hanging_ball_s(rules())[0].points["A"] == 6
    d, n = play_hanging_ball_s(flipped("hanging_ball_s"))
    assert d.points["A"] == 0 and "pink" in n.on_table and d.respots[0].how == "put_back"


def test_option_undetermined_on_penalty():
    assert play_undetermined_on_penalty(rules())[0].penalty == 7
    assert play_undetermined_on_penalty(flipped("undetermined_on_penalty"))[0].penalty == 4


def test_option_touching_gap_mm():
    d, _ = play_touching_gap_mm(rules())
    assert d.foul and d.fouls[0].code == "no_contact"
    d2, _ = play_touching_gap_mm(flipped("touching_gap_mm"))
    assert not d2.foul  # the touching red counts as hit (R8(c)(i))


def test_option_in_hand_tolerance_mm():
    d, _ = play_in_hand_tolerance_mm(rules())
    assert d.foul and d.fouls[0].code == "in_hand_outside_d"
    d2, _ = play_in_hand_tolerance_mm(flipped("in_hand_tolerance_mm"))
    assert not d2.foul and any("within tolerance" in r for r in d2.needs_review)


def test_option_simultaneous_s():
    d, _ = play_simultaneous_s(rules())
    assert d.foul and d.fouls[0].code == "simultaneous_hit"  # 1.5 ms apart: simultaneous
    assert not play_simultaneous_s(flipped("simultaneous_s"))[0].foul


def test_option_review_confidence():
    d, _ = play_review_confidence(rules())
    assert not any("uncertain" in r for r in d.needs_review)
    d2, _ = play_review_confidence(flipped("review_confidence"))
    assert any("not sure which ball the cue ball hit first" in r for r in d2.needs_review)


def test_option_operator_may_cancel_auto_miss():
    assert not play_operator_may_cancel_auto_miss(rules())[0].miss
    assert play_operator_may_cancel_auto_miss(flipped("operator_may_cancel_auto_miss"))[0].miss


def test_option_amateur_miss_2004():
    d, _ = play_amateur_miss_2004(rules())
    assert d.frame_over and d.winner == "B"
    d2, s2 = play_amateur_miss_2004(flipped("amateur_miss_2004"))
    assert not d2.frame_over and d2.options == ("play", "play_again", "in_hand")
    assert s2.striker == 1


def test_option_four_snookers():
    d, _ = play_four_snookers(rules())
    assert not d.frame_over and d.next_striker == "B"
    d2, _ = play_four_snookers(flipped("four_snookers"))
    assert d2.frame_over and d2.winner == "B" and d2.end_reason == "four_snookers"


# ------------------------------------------------------------------ snookerpool plays
def _pool_state(r, phase: Phase, on: tuple[str, ...], **kw) -> FrameState:
    st = r.new_frame(("A", "B"))
    return replace(st, phase=phase, on_table=frozenset(on), cue_in_hand=kw.pop("cue_in_hand", False),
                   shots=5, **kw)


def _pool_shot(first: tuple[str, ...] = (), pots: tuple[str, ...] = (), extra=(), **kw) -> Shot:
    ev = [Event(EventType.STRIKE, 0.0, ("white",)),
          *(Event(EventType.CONTACT, 0.5, ("white", b)) for b in first),
          *(Event(EventType.POT, 1 + i / 10, (b,), pocket="top_left") for i, b in enumerate(pots)),
          *extra]
    return Shot(shot=1, events=tuple(sorted(ev, key=lambda e: e.t)), **kw)


POOL_ALL = tuple(str(i) for i in range(1, 16))


def pool_hanging(r):
    """The 14 (the stripe on) falls 3 s after stopping on the lip."""
    st = _pool_state(r, Phase.SEQ, ("14", "15"), seq_colour="14")
    return r.decide(st, _pool_shot(("14",), extra=(Event(EventType.POT, 3.0, ("14",),
                                                         pocket="top_left", rest_s=3.0),)))


def pool_simultaneous(r):
    """The cue ball meets the 1 (a solid, on), then the 9 1.5 ms later."""
    return r.decide(_pool_state(r, Phase.RED, POOL_ALL),
                    _pool_shot(("1",), extra=(Event(EventType.CONTACT, 0.5015, ("white", "9")),)))


def pool_review(r):
    """The first contact seen with confidence 0.85."""
    sh = _pool_shot(("1",))
    sh = replace(sh, events=tuple(replace(e, confidence=0.85) if e.type == EventType.CONTACT
                                  else e for e in sh.events))
    return r.decide(_pool_state(r, Phase.RED, POOL_ALL), sh)


def _pool_layout(r) -> dict:
    pos = dict(r.setup_positions())
    pos["white"] = (r.table.width / 2, r.table.length / 8)
    return pos


def pool_touching(r):
    """The white 1 mm from the 1 (a solid, on) plays away and hits nothing."""
    pos = _pool_layout(r)
    pos["1"] = (300.0, 1000.0)
    pos["white"] = (300.0, 1000.0 - r.table.ball_diameter - 1.0)
    st = _pool_state(r, Phase.RED, POOL_ALL, positions=pos)
    return r.decide(st, _pool_shot(positions_before=pos, positions_after=pos))


def pool_in_hand(r):
    """From in-hand in the kitchen with the cue-ball centre 3 mm beyond the head string."""
    pos = _pool_layout(r)
    pos["white"] = (r.table.width / 2, r.table.length / 4 + 3.0)
    st = _pool_state(r, Phase.RED, POOL_ALL, positions=pos, cue_in_hand=True,
                     in_hand_area="kitchen")
    return r.decide(st, _pool_shot(("1",), positions_before=pos))


def pool_own_spots(r):
    """The 15 and the 9 potted in a foul; the 15's spot is covered, the 9's free."""
    pos = _pool_layout(r)
    pos["1"] = r.spots()["15"]
    after = {k: v for k, v in pos.items() if k not in ("15", "9")}
    st = _pool_state(r, Phase.RED, POOL_ALL, positions=pos)
    return r.decide(st, _pool_shot(("1",), pots=("15", "9"), positions_before=pos,
                                   positions_after=after))


# ------------------------------------------------------------------ English billiards plays
def eb_hanging(r):
    """The red falls 3 s after stopping on the lip."""
    sh = eb.stroke(first="red")
    sh = replace(sh, events=(*sh.events, Event(EventType.POT, 3.0, ("red",), pocket="top_left",
                                              rest_s=3.0)))
    return r.decide(eb.both_on(r), sh)


def eb_simultaneous(r):
    """The cue ball meets the red, then the spot white 1.5 ms later, and goes in-off."""
    sh = eb.stroke(first="red", in_off=True,
                   extra=(Event(EventType.CONTACT, 0.5015, ("white", "spot")),))
    return r.decide(eb.both_on(r), sh)


def eb_review(r):
    """The first contact seen with confidence 0.85."""
    sh = eb.stroke(first="red", pots=("red",))
    sh = replace(sh, events=tuple(replace(e, confidence=0.85) if e.type == EventType.CONTACT
                                  else e for e in sh.events))
    return r.decide(eb.both_on(r), sh)


def eb_touching(r):
    """No score: the turn passes and the spot white (B's ball) comes to rest 1 mm from the red."""
    red = (900.0, 2500.0)
    after = {"white": (600.0, 1000.0), "red": red, "spot": (red[0], red[1] - 52.5 - 1.0)}
    return r.decide(eb.both_on(r), eb.stroke(after=after))


def eb_in_hand(r):
    """From in-hand with the cue-ball centre 3 mm outside the D, playing at the red up the
    table."""
    pos = {"white": (T.centre_x, T.baulk_line - T.d_radius - 3.0), "red": SP["pink"],
           "spot": (300.0, 2500.0)}
    st = replace(eb.both_on(r), cue_in_hand=True, positions=pos)
    return r.decide(st, eb.stroke(first="red", before=pos))


def eb_hazards(r):
    """A 16th hazard in a row (in-offs off the red)."""
    _, st = eb._hazards(r, 15)
    return r.decide(st, eb.stroke(16, first="red", in_off=True))


def eb_cannons(r):
    """A 4th cannon in a row."""
    _, st = eb._cannons(r, 3)
    return r.decide(st, eb.stroke(4, first="red", then=("spot",)))


def eb_game_points(r):
    """A pot red (3) at 98 points."""
    st = replace(eb.both_on(r), scores=(98, 40), break_points=20)
    return r.decide(st, eb.stroke(first="red", pots=("red",)))


def eb_breaker_ball(r):
    """The opening player strikes the white."""
    return r.decide(r.new_frame(("A", "B")), eb.stroke(cue="white", first="red", pots=("red",)))


#: Strokes played on each ruleset to see which options change a call (every option a ruleset
#: accepts must change at least one of them).
PLAYS: dict[str, tuple[Play, ...]] = {
    "snooker": (play_free_ball_value, play_free_ball_snooker_after_pot, play_own_spots_first,
                play_hanging_ball_s, play_undetermined_on_penalty, play_touching_gap_mm,
                play_in_hand_tolerance_mm, play_simultaneous_s, play_review_confidence,
                play_operator_may_cancel_auto_miss, play_amateur_miss_2004, play_four_snookers),
    "snookerpool": (pool_hanging, pool_simultaneous, pool_review, pool_touching, pool_in_hand,
                    pool_own_spots),
    "english-billiards": (eb_hanging, eb_simultaneous, eb_review, eb_touching, eb_in_hand,
                          eb_hazards, eb_cannons, eb_game_points, eb_breaker_ball),
}


# English billiards' options are flipped in tests/test_billiards.py.
BILLIARDS_OPTIONS = {"hazard_limit", "cannon_limit", "game_points", "breaker_ball"}


def _flip_test(option: str) -> Callable[[], None]:
    """The test named after ``option`` (here, or in test_billiards.py for billiards' own)."""
    module = eb if option in BILLIARDS_OPTIONS else sys.modules[__name__]
    test = getattr(module, f"test_option_{option}", None)
    assert test is not None, f"no test_option_{option}: every rule option needs a flip test"
    return test


def _ignoring(option: str):
    """``RuleOptions.from_dict`` that drops ``option``: every ruleset then keeps its default."""
    real = RuleOptions.from_dict.__func__

    def from_dict(cls, data):
        return real(cls, {k: v for k, v in (data or {}).items() if k != option} or None)

    return classmethod(from_dict)


@pytest.mark.parametrize("option", [f.name for f in fields(RuleOptions)])
def test_every_option_has_a_flip_test(option, monkeypatch):
    """The flip test passes, then fails with the engine blind to its option.

    Shown to fail on a broken build: with ``test_option_four_snookers`` reduced to its first
    half (the default call only, no flip; the old name-only version of this test passed it)
    this test said ``Failed: test_option_four_snookers still passes when the rules ignore
    four_snookers``.
    """
    test = _flip_test(option)
    test()
    monkeypatch.setattr(RuleOptions, "from_dict", _ignoring(option))
    try:
        test()
    except AssertionError:
        return
    pytest.fail(f"test_option_{option} still passes when the rules ignore {option}")


def _decision_changes(ruleset: str, option: str) -> bool:
    base, flip = get_ruleset(ruleset), get_ruleset(ruleset, {option: FLIPPED[option]})
    return any(play(base)[0] != play(flip)[0] for play in PLAYS[ruleset])


@pytest.mark.parametrize("ruleset", ["snooker", "snookerpool", "english-billiards"])
def test_every_option_a_ruleset_accepts_is_one_it_reads(ruleset):
    """Every option the ruleset accepts changes some call on that ruleset's plays; an option
    it does not accept is refused.

    Shown to fail on broken builds: with ``undetermined_on_penalty`` added to
    ``SnookerpoolRules.OPTIONS`` (accepted, never read) the test said ``snookerpool accepts
    ['undetermined_on_penalty'] but no call changes with them``; with English billiards'
    ``review_confidence`` check switched off (``if False and ...`` in ``billiards.py``
    ``_call_stroke``) it said ``english-billiards accepts ['review_confidence'] but no call
    changes with them``. The old name-only version of this test passed both.
    """
    r = get_ruleset(ruleset)
    assert {f.name for f in fields(RuleOptions)} >= r.OPTIONS
    unread = sorted(o for o in r.OPTIONS if not _decision_changes(ruleset, o))
    assert not unread, f"{ruleset} accepts {unread} but no call changes with them"
    foreign = sorted({f.name for f in fields(RuleOptions)} - r.OPTIONS)
    if foreign:
        with pytest.raises(ValueError, match="do not apply"):
            get_ruleset(ruleset, {foreign[0]: getattr(RuleOptions(), foreign[0])})


def test_every_option_is_documented():
    text = (Path(__file__).parents[1] / "docs" / "RULES.md").read_text()
    table = set(re.findall(r"^\| `([a-z_0-9]+)` \|", text, re.M))
    assert {f.name for f in fields(RuleOptions)} <= table


def test_wrong_option_type_is_a_clear_error():
    with pytest.raises(ValueError, match="wrong type"):
        get_ruleset("snooker", {"four_snookers": "yes"})
    assert get_ruleset("snooker", {"hanging_ball_s": 4}).options.hanging_ball_s == 4
