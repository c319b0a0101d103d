"""A pool miss called though the camera first took a ball passed by the cue ball as hit: the
ball seen standing where it stood is no doubt about the record, any other note still is."""

from __future__ import annotations

from dataclasses import replace

from tests.pool_shots import codes, play, pshot, rack
from tracker.words import not_hit_note


def _miss(note: str):
    """Nine-ball after a break: the cue ball sent 900 mm up the table touches nothing."""
    rules, st = rack("nine-ball")
    _, st = play(rules, st, pshot(1, first="1", pots=["2"], rails=["3", "4", "5", "6"]))
    before = {"white": (600.0, 500.0), "1": (700.0, 1500.0)}
    after = {"white": (600.0, 1400.0), "1": (700.0, 1500.0)}
    shot = replace(pshot(2, before=before, after=after), needs_review=(note,))
    dec, _ = rules.decide(st, shot)
    return dec


def test_a_ball_seen_standing_where_it_stood_leaves_the_miss_called():
    """The synthetic pool world's nine-ball seed 3, stroke 3: the cue ball passed the 1, the 1's
    detection jumped as it passed, the contact was dropped when the 1 stood where it stood:
    the miss is called (it was not, "the camera has doubts")."""
    assert codes(_miss(not_hit_note("1", "white", 1.5))) == ["no_contact"]


def test_another_doubt_still_keeps_the_miss_from_being_called():
    dec = _miss("the cue ball was not seen after the strike: check")
    assert codes(dec) == [] and any("no foul called" in n for n in dec.needs_review)
