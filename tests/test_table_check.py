"""The pool referee's state follows what the table shows (tracker/pipeline/table_follow.py):
one wrong call no longer hands every later call to the wrong player."""

from __future__ import annotations

from dataclasses import replace

from tests.pool_shots import pshot, rack
from tracker.pipeline.table_follow import TableCheckParams, follow_pool_table


def _groups_chosen():
    """Eight-ball after A broke and pots the 3: A solids, B stripes; B to shoot."""
    rules, st = rack("eight-ball")
    st = replace(st, game=replace(st.game, break_due=False, groups=("solids", "stripes")),
                 striker=1)
    return rules, st


def test_the_called_ball_of_the_other_group_says_who_is_at_the_table():
    """B is due (stripes), but the shooter calls the 3 (a solid): A is at the table; calling
    the 12 leaves B there; an open table says nothing."""
    rules, st = _groups_chosen()
    after, notes = follow_pool_table(st, pshot(2, nomination="3@top_left"))
    assert after.player == "A" and notes and "A calls the 3" in notes[0]
    assert follow_pool_table(st, pshot(2, nomination="12")) == (st, [])
    open_table = replace(st, game=replace(st.game, groups=(None, None)))
    assert follow_pool_table(open_table, pshot(2, nomination="3")) == (open_table, [])
    off = TableCheckParams(striker_by_call=False)
    assert follow_pool_table(st, pshot(2, nomination="3"), off) == (st, [])


def test_a_ball_called_potted_but_seen_on_the_table_is_put_back():
    """The referee has the 7 potted; at the next stroke's start the camera sees it at rest on
    the table: it is back on the referee's table, with a note."""
    rules, st = _groups_chosen()
    st = replace(st, on_table=st.on_table - {"7"})
    seen = {"white": (600.0, 400.0), "7": (300.0, 900.0), "12": (700.0, 1500.0)}
    after, notes = follow_pool_table(st, pshot(2, nomination="12", before=seen))
    assert "7" in after.on_table and any("the 7 on the table" in n for n in notes)
    _, dec = None, rules.decide(after, pshot(2, first="7", nomination="12", before=seen))
    assert dec[0].fouls  # the 7 is a ball on the table again: hit first, a foul (not refused)


def test_snooker_is_left_alone():
    rules, st = rack("snooker")
    st2 = replace(st, on_table=st.on_table - {"red_01"})
    assert follow_pool_table(st2, pshot(1, before={"red_01": (500.0, 2000.0)})) == (st2, [])


def test_the_referee_follows_the_called_ball_before_calling_the_stroke():
    """Through the referee (tracker/pipeline/referee.py): A breaks, pots the 3 and then the 4
    (groups: A solids). The camera misses that A's third stroke potted the 5 (so the referee
    has B at the table); the fourth stroke's shooter calls the 6, a solid: A shoots it, and the
    call's next striker follows from A, with a note."""
    from calibration.table import TableGeometry
    from tracker.perception.events import StrokeDetector
    from tracker.pipeline.referee import Referee
    from tracker.records.shot import FrameStart

    ref = Referee(StrokeDetector(TableGeometry.pool(8), 25.0), players=("A", "B"))
    ref._feed(FrameStart(1, ("A", "B"), breaker="A", ruleset="eight-ball"))
    ref._referee(pshot(1, first="1", pots=["3"], rails=["1", "2", "9", "10"]))
    ref._referee(pshot(2, first="4", pots=["4"], nomination="4"))
    ref._referee(pshot(3, first="5", rails=["5"], nomination="5"))  # the 5's pot not seen
    assert ref.match.state.player == "B"
    _, calls = ref._referee(pshot(4, first="6", pots=["6"], nomination="6"))
    call = next(c for c in calls if c.get("shot") == 4)
    assert not call["foul"] and call["next_striker"] == "A"
    assert any("A calls the 6" in n for n in call["needs_review"])


def test_a_pot_seen_back_on_the_table_calls_the_last_stroke_again():
    """Nine-ball: A's break is read as potting the 5 (a ball lost in the crowd), so A would
    play on. At the next stroke's start the camera sees the 5 at rest on the table: the break
    is called again without the pot (B to play, a correction marked on the call), and the
    next stroke is B's."""
    from calibration.table import TableGeometry
    from tracker.perception.events import StrokeDetector
    from tracker.pipeline.referee import Referee
    from tracker.records.shot import FrameStart

    ref = Referee(StrokeDetector(TableGeometry.pool(8), 25.0), players=("A", "B"))
    ref._feed(FrameStart(1, ("A", "B"), breaker="A", ruleset="nine-ball"))
    ref._referee(pshot(1, first="1", pots=["5"], rails=["1", "2", "3", "4"]))
    assert ref.match.state.player == "A"
    seen = {"white": (600.0, 500.0), "1": (700.0, 1500.0), "5": (300.0, 900.0)}
    _, calls = ref._referee(pshot(2, first="1", rails=["1"], before=seen))
    first = next(c for c in ref.result.decisions if c.get("shot") == 1)
    assert first["potted"] == [] and first["next_striker"] == "B"
    assert "the 5 still on the table" in first["correction"]["change"]
    second = next(c for c in calls if c.get("shot") == 2)
    assert second["striker"] == "B" and not second["foul"]


def test_a_contact_named_after_its_ball_was_potted_is_dropped_not_the_record():
    """Eight-ball side seed 4, stroke 4: the 4 is potted, then another ball's track, which
    took the 4's name, is seen touching the 13; the rules refuse such a record whole ("met
    after it left the table"). The referee's hand-off (``sanitize``, its
    ``consistent_events``, for every game) drops the contact with a note and the stroke is
    called."""
    from tracker.pipeline.referee import sanitize
    from tracker.records.shot import Event, EventType

    rules, st = _groups_chosen()
    shot = pshot(2, first="12", pots=["12"], nomination="12")
    shot = replace(shot, events=(*shot.events, Event(EventType.CONTACT, 1.5, ("12", "13"))))
    kept = sanitize(shot, frozenset(st.on_table))
    assert [e.balls for e in kept.events if e.type == EventType.CONTACT] == [("white", "12")]
    assert any("left the table" in n or "been potted" in n for n in kept.needs_review)
    dec, _ = rules.decide(st, kept)
    assert dec.potted == ("12",) and not dec.fouls
