"""The working types of the snooker referee, shared by :mod:`tracker.rules.snooker` and its
mixins (:mod:`tracker.rules.misses`, :mod:`tracker.rules.unplayed`): the ball on for one
stroke, the stroke being called, and the table once the referee has placed the balls.

They live in their own module so that the mixins need not import the referee that mixes them
in (no import cycle). Positions are ball centres in table millimetres.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.records.shot import Shot
from tracker.rules.state import Foul, FrameState, Position, Respot
from tracker.rules.stroke import StrokeFacts

__all__ = ["BallOn", "SnookerStroke", "TableAfter"]


@dataclass(frozen=True)
class BallOn:
    """The ball on for one stroke (C03, C04, C24).

    Attributes:
        on_first: balls that may be hit first; ``on_pot`` balls that may be potted.
        v_on: value of the ball on (None: undetermined after a red, C04).
        nominated: the colour declared or inferred after a red.
        fb: the nominated free ball.
        label: ``red``, ``colour`` or the colour on.
    """

    on_first: frozenset[str]
    on_pot: frozenset[str]
    v_on: int | None
    nominated: str | None
    fb: str | None
    label: str


@dataclass
class SnookerStroke:
    """One stroke being called: filled in step by step by ``decide`` (the engine's inputs are
    never changed).

    Attributes:
        st: the state before the stroke (striker resolved); ``shot`` the record, its events'
            ball names resolved (a generic ``red`` is a red on the table).
        pre: positions at the strike, or None.
        ctx: the ball on; ``facts`` the stroke's events sorted by kind.
        first, deemed: the first-contact set and whether it is a touching ball (C38).
        fouls: fouls called so far; ``nonstriker``: fouls by the non-striker (R2(b)(ii)).
        missing: colours that should be on the table but are not at the strike (C06).
        put_back: balls replaced where they were (R9(a), R15).
        points: points scored by the stroke (0 in a foul).
        out_of_turn: the record names a player of the other side or the wrong partner.
    """

    st: FrameState
    shot: Shot
    pre: dict[str, Position] | None
    ctx: BallOn
    facts: StrokeFacts
    notes: list[str]
    review: list[str]
    first: frozenset[str] = frozenset()
    deemed: bool = False
    fouls: list[Foul] = field(default_factory=list)
    nonstriker: list[Foul] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    put_back: list[str] = field(default_factory=list)
    points: int = 0
    out_of_turn: bool = False


@dataclass(frozen=True)
class TableAfter:
    """The table once the stroke is over and the referee has placed the balls.

    Attributes:
        on_table: object balls on the table.
        positions: every ball at rest (mm), re-spotted ones included; None when unobserved.
        post: positions at rest before any ball was placed (for the C26 test).
        respots: what the referee placed.
        scores: the scores after this stroke's deductions and penalties.
        break_points: the break after the C06 deduction, before this stroke's points.
        penalty: the penalty incurred.
    """

    on_table: frozenset[str]
    positions: dict[str, Position] | None
    post: dict[str, Position] | None
    respots: tuple[Respot, ...]
    scores: tuple[int, int]
    break_points: int
    penalty: int
