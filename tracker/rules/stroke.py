"""What happened in a stroke, read from its events once, the same way for every game.

:func:`read_stroke` turns a shot record's events into :class:`StrokeFacts` (the strike, the
cue ball's first contact, pots, balls off the table, pushes, jumps, disturbances). The rules
of each game then judge these facts; none of this judges anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tracker.records.shot import Event, EventType

#: Contacts this close before the strike (s) still count as after it (timestamps are rounded).
STRIKE_EPS_S = 1e-9


@dataclass(frozen=True)
class StrokeFacts:
    """The events of one stroke, sorted by kind.

    Attributes:
        cue: the cue ball of the stroke (the striker's ball).
        strike: the strike event, or None (a record with no stroke).
        t0: time of the strike, s (-inf when there is none).
        first: object balls the cue ball met first (all within ``simultaneous_s``).
        first_t: time of that first contact, s, or None.
        cue_contacts: the cue ball's contacts after the strike, in time order.
        potted: object balls that dropped in the stroke (within ``hanging_ball_s`` of
            stopping on a lip, C42), in order.
        cue_potted: the cue ball dropped in the stroke.
        late_drops: (ball, rest_s) for balls that dropped later than that (not part of the
            stroke: put back, R9(a)).
        lip_drops: ``lip_drop`` events (balls that fell from a lip untouched, C41).
        off: balls forced off the table (the cue ball included), in order.
        pushes, jumps, moving, disturbed: the events of those kinds.
    """

    cue: str
    strike: Event | None
    t0: float
    first: frozenset[str]
    first_t: float | None
    cue_contacts: tuple[Event, ...]
    potted: tuple[str, ...]
    cue_potted: bool
    late_drops: tuple[tuple[str, float], ...]
    lip_drops: tuple[Event, ...]
    off: tuple[str, ...]
    pushes: tuple[Event, ...]
    jumps: tuple[Event, ...]
    moving: tuple[Event, ...]
    disturbed: tuple[Event, ...]

    @property
    def cue_gone(self) -> bool:
        """The cue ball left the table (potted or forced off)."""
        return self.cue_potted or self.cue in self.off

    @property
    def objects_off(self) -> tuple[str, ...]:
        """Object balls forced off the table."""
        return tuple(b for b in self.off if b != self.cue)


def _of(events: Sequence[Event], kind: EventType) -> tuple[Event, ...]:
    return tuple(e for e in events if e.type == kind)


def cue_contacts(events: Sequence[Event], cue: str, t0: float) -> tuple[Event, ...]:
    """Contacts of ``cue`` with another ball at or after ``t0``, in time order."""
    return tuple(e for e in events if e.type == EventType.CONTACT and cue in e.balls
                 and e.t >= t0 - STRIKE_EPS_S)


def first_group(contacts: Sequence[Event], cue: str, simultaneous_s: float) -> frozenset[str]:
    """The balls the cue ball met first: every contact within ``simultaneous_s`` of the first
    (C10)."""
    if not contacts:
        return frozenset()
    t_first = contacts[0].t
    return frozenset(b for e in contacts if e.t - t_first <= simultaneous_s
                     for b in e.balls if b != cue)


def read_stroke(events: Sequence[Event], cue: str, simultaneous_s: float,
                hanging_ball_s: float) -> StrokeFacts:
    """Sort the (resolved, time-ordered) events of a stroke played with ``cue``."""
    strike = next((e for e in events if e.type == EventType.STRIKE), None)
    t0 = strike.t if strike else -math.inf
    contacts = cue_contacts(events, cue, t0)
    pots = _of(events, EventType.POT)
    in_time = [e for e in pots if e.rest_s <= hanging_ball_s]
    return StrokeFacts(
        cue=cue,
        strike=strike,
        t0=t0,
        first=first_group(contacts, cue, simultaneous_s),
        first_t=contacts[0].t if contacts else None,
        cue_contacts=contacts,
        potted=tuple(e.ball for e in in_time if e.ball != cue),
        cue_potted=any(e.ball == cue for e in in_time),
        late_drops=tuple((e.ball, e.rest_s) for e in pots if e.rest_s > hanging_ball_s),
        lip_drops=_of(events, EventType.LIP_DROP),
        off=tuple(e.ball for e in _of(events, EventType.OFF_TABLE)),
        pushes=_of(events, EventType.PUSH),
        jumps=_of(events, EventType.JUMP),
        moving=_of(events, EventType.MOVING_AT_STRIKE),
        disturbed=_of(events, EventType.DISTURBED),
    )
