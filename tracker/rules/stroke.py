"""What happened in a stroke, read from its events once, the same way for every game.

:func:`read_stroke` turns a shot record's events into :class:`StrokeFacts` (the strike, the
cue ball's first contact, pots, balls off the table, pushes, jumps, disturbances). The rules
of each game then judge these facts; none of this judges anything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tracker.records.shot import Event, EventType, Shot
from tracker.rules.errors import RuleError

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
        cue_cushions: the cue ball's cushion contacts after the strike.
        early: pots and ball contacts recorded before the strike (not part of the stroke).
        strikes: every strike event (more than one: two strokes in one record, or a double
            hit).
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
    cue_cushions: tuple[Event, ...] = ()
    early: tuple[Event, ...] = ()
    strikes: tuple[Event, ...] = ()

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


#: Event kinds that name no ball.
_NO_BALL = frozenset({EventType.AT_REST})
#: Event kinds by which a ball leaves the table.
_LEAVES = frozenset({EventType.POT, EventType.OFF_TABLE})


def check_events(events: Sequence[Event], shot: int, generic: str | None = None) -> None:
    """Refuse a record that cannot describe a stroke, rather than call it: events out of time
    order, an event that names no ball, a ball meeting itself, a ball that leaves the table
    twice, a ball met after it left the table (within the stroke). ``generic``: a name that
    stands for any ball of a group (``red``), exempt from the last two checks.

    Raises:
        RuleError: naming the shot and what is wrong.
    """
    gone: dict[str, float] = {}
    t0 = next((e.t for e in events if e.type == EventType.STRIKE), -math.inf)
    for prev, e in zip((None, *events), events, strict=False):
        if prev is not None and e.t < prev.t - STRIKE_EPS_S:
            raise RuleError(f"shot {shot}: events are not in time order ({e.type} at {e.t:g} s "
                            f"after {prev.type} at {prev.t:g} s); sort them by time")
        if e.type not in _NO_BALL and not e.balls:
            raise RuleError(f"shot {shot}: a {e.type} event names no ball; add its \"ball\"")
        if e.type == EventType.CONTACT and len(set(e.balls)) < len(e.balls):
            raise RuleError(f"shot {shot}: a contact of the {e.balls[0]} with itself")
        met = [b for b in e.balls if b in gone and b != generic] \
            if e.type == EventType.CONTACT else []
        if met:
            raise RuleError(f"shot {shot}: the {met[0]} is met at {e.t:g} s, after it left the "
                            "table")
        if e.type in _LEAVES and e.t >= t0 - STRIKE_EPS_S and e.ball != generic:
            if e.ball in gone:
                raise RuleError(f"shot {shot}: the {e.ball} leaves the table twice")
            gone[e.ball] = e.t


#: A position further than this outside the cushion faces is no place on the table, mm (beyond
#: any rail; a ball left on the rail is an ``off_table`` event, not a position).
OFF_TABLE_MARGIN_MM = 300.0


def check_positions(shot: Shot, length: float, width: float) -> None:
    """Refuse positions that lie off the table altogether (a wrong unit or calibration).

    Raises:
        RuleError: naming the shot, the ball and where it was put.
    """
    m = OFF_TABLE_MARGIN_MM
    for name, pos in (("positions_before", shot.positions_before),
                      ("positions_after", shot.positions_after)):
        for ball, (x, y) in (pos or {}).items():
            if not (-m <= x <= width + m and -m <= y <= length + m):
                raise RuleError(f"shot {shot.shot}: {name} puts the {ball} at ({x:g}, {y:g}) mm, "
                                f"off the {width:g} x {length:g} mm table: positions are table "
                                "millimetres (docs/SHOT-RECORD.md)")


def read_stroke(events: Sequence[Event], cue: str, simultaneous_s: float,
                hanging_ball_s: float) -> StrokeFacts:
    """Sort the (resolved, time-ordered) events of a stroke played with ``cue``."""
    strike = next((e for e in events if e.type == EventType.STRIKE), None)
    t0 = strike.t if strike else -math.inf
    contacts = cue_contacts(events, cue, t0)
    early = tuple(e for e in events if e.type in (EventType.POT, EventType.CONTACT)
                  and e.t < t0 - STRIKE_EPS_S)
    pots = tuple(e for e in _of(events, EventType.POT) if e not in early)
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
        cue_cushions=tuple(e for e in _of(events, EventType.CUSHION) if cue in e.balls
                           and e.t >= t0 - STRIKE_EPS_S),
        early=early,
        strikes=_of(events, EventType.STRIKE),
    )


def illegal_jumps(f: StrokeFacts, first: frozenset[str] | None = None,
                  first_t: float | None = None) -> tuple[Event, ...]:
    """The jumps that make a jump shot (S2 R20; billiards EB S2 R20): over any ball before
    the first contact, or over the ball first hit (it landed beyond it) unless the cue ball met
    a cushion or another ball in between (R20(c)). A jump over another ball after the first
    contact is not one (R20(a)). ``first``/``first_t``: the first contact when it is not the
    recorded one (a touching ball deemed hit at the strike); default the recorded one."""
    if first is None:
        first, first_t = f.first, f.first_t
    if first_t is None:
        return f.jumps
    return tuple(e for e in f.jumps if e.t <= first_t
                 or (e.ball in first and not _rebounded_between(f, first_t, e.t)))


def _rebounded_between(f: StrokeFacts, t_a: float, t_b: float) -> bool:
    """The cue ball met a cushion or another ball after ``t_a`` and before ``t_b``."""
    return any(t_a < e.t < t_b for e in (*f.cue_cushions, *f.cue_contacts))


def record_warnings(f: StrokeFacts) -> list[str]:
    """What in a stroke's record the referee should check: a second strike (a double hit,
    S3 R10(a)(ii), or two strokes in one record), ball contacts recorded before the strike
    (ignored: not part of the stroke)."""
    out = []
    if len(f.strikes) > 1:
        times = ", ".join(f"{e.t:g} s" for e in f.strikes)
        out.append(f"{len(f.strikes)} strikes in one record ({times}): a double hit (enter the "
                   "operator foul double_hit) or two strokes (split the record); called as one "
                   "stroke from the first")
    out.extend(f"contact of the {' and '.join(e.balls)} at {e.t:g} s, before the strike: ignored"
               for e in f.early if e.type == EventType.CONTACT)
    return out
