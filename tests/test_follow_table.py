"""The referee's reds follow the table the camera sees (issue 31: one wrong call must not make
every later call wrong), with a review note; colours and the colours' sequence are left to the
rules."""

from __future__ import annotations

import copy
from dataclasses import replace

from tracker.pipeline.referee import sanitize
from tracker.pipeline.table_follow import follow_the_reds, unseen_colours
from tracker.records.shot import Event, EventType, FrameStart, Shot
from tracker.rules.match import Match
from tracker.rules.snooker import SnookerRules
from tracker.rules.state import Phase


def _match() -> Match:
    m = Match()
    m.feed(FrameStart(1, ("Ann", "Bob"), breaker="Ann"))
    return m


def test_a_red_the_camera_saw_potted_leaves_the_referees_table():
    m = _match()
    seen = {b: p for b, p in SnookerRules().setup_positions().items() if b != "red_08"}
    state, notes = follow_the_reds(m.state, seen | {"white": (700.0, 600.0)})
    assert "red_08" in m.state.on_table and "red_08" not in state.on_table
    assert len(notes) == 1 and "does not see a red" in notes[0]
    assert follow_the_reds(state, seen) == (state, [])  # they agree now


def test_a_red_wrongly_called_potted_and_then_potted_again_scores():
    """The referee had red_03 potted (a wrong call); the camera sees it on the table and the
    next stroke pots it: the pot counts (before, it was dropped as "off the table")."""
    m = _match()
    m.state = replace(m.state, on_table=m.state.on_table - {"red_03"}, cue_in_hand=False)
    layout = SnookerRules().setup_positions() | {"white": (700.0, 600.0)}
    shot = Shot(shot=1, positions_before=layout, events=(
        Event(EventType.STRIKE, 1.0, ("white",)), Event(EventType.CONTACT, 1.5, ("white", "red_03")),
        Event(EventType.POT, 2.0, ("red_03",), pocket="top_left"), Event(EventType.AT_REST, 4.0)))
    # before: the contact and the pot dropped, the red being off the referee's table
    assert [e.type.value for e in sanitize(shot, m.state.on_table).events] == ["strike", "at_rest"]
    m.state, notes = follow_the_reds(m.state, shot.positions_before)
    call = m.feed(sanitize(replace(shot, needs_review=tuple(notes)), m.state.on_table))[0]
    assert call["potted"] == ["red_03"] and not call["foul"] and call["points"]["Ann"] == 1
    assert any("sees a red on the table that the referee had potted" in n for n in call["needs_review"])


def test_colours_in_sequence_and_unknown_positions_are_left_alone():
    m = _match()
    seq = replace(m.state, phase=Phase.SEQ, on_table=frozenset({"yellow", "green"}))
    assert follow_the_reds(seq, {"red_01": (900.0, 2000.0)}) == (seq, [])
    assert follow_the_reds(m.state, None) == (m.state, [])
    # no red would be left: the end of the reds is the rules' to call
    assert follow_the_reds(m.state, {"white": (700.0, 600.0)}) == (m.state, [])


def test_a_colour_the_camera_never_found_is_not_struck_before_it_was_re_spotted():
    """TV clips under 45 degrees: the camera missed the green from the start; every stroke was
    called "struck before the green had been re-spotted". A colour not just re-spotted that the
    camera does not see is taken as where the referee had it, with a note; one the referee
    just re-spotted and the camera does not see is still that foul."""
    m = _match()
    layout = {b: p for b, p in SnookerRules().setup_positions().items() if b != "green"}
    shot = Shot(shot=1, positions_before=layout | {"white": (700.0, 600.0)}, events=(
        Event(EventType.STRIKE, 1.0, ("white",)), Event(EventType.CONTACT, 1.5, ("white", "red_03")),
        Event(EventType.AT_REST, 4.0)))
    bare = copy.deepcopy(m).feed(shot)[0]
    assert [f["code"] for f in bare["fouls"]] == ["not_respotted"]
    before, notes = unseen_colours(m.state, shot.positions_before, m.rules.spots())
    assert before["green"] == tuple(m.rules.spots()["green"]) and "does not see the green" in notes[0]
    call = m.feed(replace(shot, positions_before=before))[0]
    assert not call["foul"]
    respotted = replace(m.state, last_respots=("green",))
    assert unseen_colours(respotted, shot.positions_before, m.rules.spots()) == (shot.positions_before, [])
