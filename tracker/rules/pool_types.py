"""The working types of the pool referees (eight-ball, nine-ball; 002 "Pool Billiards"):
what a rack keeps between shots (:class:`PoolState`, in ``FrameState.game``), the choice
left to a player (:class:`Choice`), the shot being called (:class:`PoolStroke`) and the
catalogue of pool fouls (002 section 6) with the referee's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.records.shot import Shot
from tracker.rules.state import Foul, FrameState, Position
from tracker.rules.stroke import StrokeFacts

#: Eight-ball's two groups by name (002 3 intro: one through seven, nine through fifteen).
GROUPS: dict[str, tuple[str, ...]] = {
    "solids": tuple(str(i) for i in range(1, 8)),
    "stripes": tuple(str(i) for i in range(9, 16)),
}
#: Nine-ball: object balls on the break that must reach a cushion when none is pocketed
#: (002 2.3(b)); eight-ball's illegal break uses the same figure (3.3(d)).
BREAK_RAIL_BALLS = 4
#: The fouls in a row (without a legal shot between) that lose a nine-ball rack (002 6.14).
SERIOUS_FOUL_COUNT = 3
#: The nomination that calls a safety (002 1.6, 3.6) and the one that declares a push out
#: (002 2.4).
SAFETY, PUSH_OUT = "safety", "push_out"


@dataclass(frozen=True)
class Choice:
    """A decision the rules leave to a player before the next shot (002 2.4, 3.3).

    Attributes:
        side: the player (side index) who chooses.
        options: the choices open (``option`` input ``choice`` values).
        why: what led to it, in people's words.
    """

    side: int
    options: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class PoolState:
    """What a pool rack keeps between shots (``FrameState.game``).

    Attributes:
        break_due: the next shot is the break (at the start, after a re-rack).
        push_out_open: nine-ball: the next shot is the second of the rack after a break with
            no foul, so a push out may be declared (002 2.4).
        groups: eight-ball: each side's group (``solids`` / ``stripes``), None while the
            table is open (002 3.4).
        fouls: each side's fouls in a row without a legal shot between (002 6.14).
        choice: a choice pending before the next shot, or None.
        rack: the rack number within the frame (a re-rack starts the next).
    """

    break_due: bool = True
    push_out_open: bool = False
    groups: tuple[str | None, str | None] = (None, None)
    fouls: tuple[int, int] = (0, 0)
    choice: Choice | None = None
    rack: int = 1


@dataclass
class PoolStroke:
    """One pool shot being called (internal working record)."""

    st: FrameState
    g: PoolState
    shot: Shot
    facts: StrokeFacts
    pre: dict[str, Position] | None
    notes: list[str]
    review: list[str]
    fouls: list[Foul] = field(default_factory=list)
    called: str | None = None
    called_pocket: str | None = None
    safety: bool = False
    push_out: bool = False
    is_break: bool = False


#: code -> (002 general rule, what the referee says). ``{ball}``, ``{on}`` are filled in.
FOULS: dict[str, tuple[str, str]] = {
    "scratch": ("6.1", "scratch: the cue ball went into a pocket"),
    "cue_off_table": ("6.1", "the cue ball left the table"),
    "wrong_ball_first": ("6.2", "the cue ball hit the {ball} first; it had to hit {on} first"),
    "no_contact": ("6.3", "the cue ball hit no object ball"),
    "no_rail": ("6.3", "no ball was pocketed and no ball reached a cushion after the contact"),
    "bad_break": ("2.3(b)", "a break that pocketed nothing must drive four object balls to a "
                  "cushion; {ball} did"),
    "no_foot_on_floor": ("6.4", "no foot on the floor when the cue ball was struck"),
    "ball_off_table": ("6.5", "the {ball} left the table"),
    "touched_ball": ("6.6", "the {ball} was touched or moved other than by the play"),
    "double_hit": ("6.7", "the cue ball was struck twice, or pushed into a close ball"),
    "push_shot": ("6.8", "a push shot: the tip stayed on the cue ball too long"),
    "moving_ball": ("6.9", "struck while the {ball} was still moving"),
    "bad_placement": ("6.10", "the cue ball in hand was played from on or past the head string"),
    "bad_play_from_kitchen": ("6.11", "from in hand behind the head string, the cue ball hit the "
                              "{ball}, also behind the head string, without crossing it first"),
    "cue_on_table": ("6.12", "the cue was left on the table to line up the shot"),
    "out_of_turn": ("6.13", "played out of turn"),
    "slow_play": ("6.15", "slow play: over the time allowed for the shot"),
    "template": ("6.16", "the ball rack template on the rail was touched by a ball"),
}
#: Fouls only the operator can enter (the camera does not see them).
OPERATOR_FOULS = frozenset({"no_foot_on_floor", "touched_ball", "double_hit", "push_shot",
                            "moving_ball", "cue_on_table", "out_of_turn", "slow_play", "template"})


def pool_foul(code: str, section: str, ball: str | None = None, on: str = "",
              balls: tuple[str, ...] = ()) -> Foul:
    """The foul ``code`` of :data:`FOULS`, cited under the game's list of standard fouls
    (``section``: ``2.7`` nine-ball, ``3.9`` eight-ball). No points: a pool foul gives the
    opponent the cue ball in hand."""
    general, words = FOULS[code]
    rule = f"002 {general}" if general.startswith("2.") else f"002 {section}, {general}"
    message = words.format(ball=ball or "ball", on=on or "the ball on")
    return Foul(code=code, rule=rule, digest="", message=message, penalty=0,
                balls=balls if code == "bad_break" else (balls or ((ball,) if ball else ())))


def group_of(ball: str) -> str | None:
    """Eight-ball: ``solids`` or ``stripes`` for a ball of a group, None for the 8."""
    return next((g for g, members in GROUPS.items() if ball in members), None)


def other_group(group: str) -> str:
    """The group that is not ``group``."""
    return "stripes" if group == "solids" else "solids"
