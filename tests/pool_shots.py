"""Builders for the pool rule tests: a pool shot's events in a few words."""

from __future__ import annotations

from tracker.records.shot import Event, EventType, OperatorFoul, OperatorJudgement, Shot
from tracker.rules.registry import get_ruleset

PLAYERS = ("A", "B")


def pshot(n=1, first=None, pots=(), cue_pot=False, rails=(), off=(), nomination=None,
          striker=None, before=None, after=None, fouls=(), cue_rail_first=False):
    """A pool shot: the strike, the cue ball's first contact (a ball, or a list met together),
    cushions (``rails``: balls reaching a cushion after the contact), pots (a ball, or
    (ball, pocket)), a scratch, balls off the table, the call (``nomination``), operator fouls."""
    ev = [Event(EventType.STRIKE, 0.0, ("white",))]
    if cue_rail_first:
        ev.append(Event(EventType.CUSHION, 0.1, ("white",)))
    for b in ([first] if isinstance(first, str) else (first or [])):
        ev.append(Event(EventType.CONTACT, 0.2, ("white", b)))
    for i, b in enumerate(rails):
        ev.append(Event(EventType.CUSHION, 0.4 + i / 100, (b,)))
    for i, p in enumerate(pots):
        ball, pocket = (p, "top_left") if isinstance(p, str) else p
        ev.append(Event(EventType.POT, 0.6 + i / 100, (ball,), pocket=pocket))
    if cue_pot:
        ev.append(Event(EventType.POT, 0.9, ("white",), pocket="baulk_left"))
    for i, b in enumerate(off):
        ev.append(Event(EventType.OFF_TABLE, 0.95 + i / 100, (b,)))
    op = OperatorJudgement(fouls=tuple(OperatorFoul(c) for c in fouls))
    return Shot(shot=n, events=tuple(ev), nomination=nomination, striker=striker,
                positions_before=before, positions_after=after, operator=op)


def rack(name, breaker=0):
    """The ruleset ``name`` and a fresh rack of it."""
    rules = get_ruleset(name)
    return rules, rules.new_frame(PLAYERS, breaker)


def play(rules, st, *shots):
    """Decide ``shots`` in turn; returns (the last decision, the state after)."""
    dec = None
    for sh in shots:
        dec, st = rules.decide(st, sh)
    return dec, st


def codes(dec):
    """The foul codes of a decision."""
    return [f.code for f in dec.fouls]
