"""A wrong-ball-first foul called though the camera is unsure of the contact it saw, when the
ball the cue ball had to hit first was plainly not hit (``PoolRules._none_hit``)."""

from __future__ import annotations

from dataclasses import replace

from tests.pool_shots import codes, play, pshot, rack


def _wrong_ball(one_after: tuple[float, float], confidence: float = 0.64,
                one_before: tuple[float, float] = (700.0, 1500.0)):
    """Nine-ball after a break: the cue ball meets the 3 (its contact at ``confidence``) and
    the 3 is potted; the 1, the ball on, stood at ``one_before`` and ends at ``one_after``."""
    rules, st = rack("nine-ball")
    _, st = play(rules, st, pshot(1, first="1", pots=["2"], rails=["3", "4", "5", "6"]))
    before = {"white": (600.0, 500.0), "1": one_before, "3": (300.0, 900.0)}
    after = {"white": (500.0, 1000.0), "1": one_after}
    shot = pshot(2, first="3", pots=["3"], rails=["white"], before=before, after=after)
    events = tuple(replace(e, confidence=confidence) if e.type.value == "contact" else e
                   for e in shot.events)
    dec, _ = rules.decide(st, replace(shot, events=events))
    return dec


def test_an_unsure_contact_with_the_ball_on_untouched_is_a_foul():
    """The synthetic pool world's nine-ball side seed 2, stroke 2: the cue ball seen 24 mm short
    of touching the 3 (confidence 0.64), the 1 untouched far away: wrong ball first (it was
    "no foul", and the next two calls went to the wrong player), with a note to check."""
    dec = _wrong_ball(one_after=(700.0, 1500.0))
    assert codes(dec) == ["wrong_ball_first"]
    assert any("touched by nothing" in n for n in dec.needs_review)


def test_an_unsure_contact_with_the_ball_on_moved_calls_no_foul():
    """The 1 ended 40 mm from where it stood (the cue ball may have met it first, unseen): the
    unsure contact calls no foul, as before."""
    dec = _wrong_ball(one_after=(700.0, 1540.0))
    assert codes(dec) == [] and any("no foul called" in n for n in dec.needs_review)


def test_an_unsure_contact_with_the_ball_on_against_a_cushion_calls_no_foul():
    """The 1 frozen against the side cushion (a ball hit there may hardly move): no foul."""
    dec = _wrong_ball(one_after=(30.0, 1500.0), one_before=(30.0, 1500.0))
    assert codes(dec) == []


def test_a_sure_contact_is_a_foul_either_way():
    assert codes(_wrong_ball(one_after=(700.0, 1540.0), confidence=1.0)) == ["wrong_ball_first"]
