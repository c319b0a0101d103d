"""The pool referee's state made to follow what the table shows, before a stroke is called.

One wrong call early in a rack (a pot given to the wrong ball, a foul where there was none)
hands every later call to the wrong player or leaves the referee's table unlike the real one:
each later call is then wrong though seen right. Before each stroke, where the state says one
thing and the table plainly another, the state follows the table, with a note for review:

- a ball the referee has off the table (called potted) that the camera sees at rest on it at
  the stroke's start is put back on the table (it was not potted, or was potted under another
  ball's name); when the last stroke's call potted it, that stroke is called again without
  the pot (:func:`unpotted`; the referee's correction, as an operator's would be);
- eight-ball, groups chosen: the ball the shooter calls belongs to the other player's group
  (a player calls his own group's balls, 002 3.6): that player is at the table.

Snooker is left as it is (its colours are re-spotted, and its referee says who plays).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tracker import balls as B
from tracker.records.shot import EventType, Shot
from tracker.rules.pool_types import PoolState, group_of
from tracker.rules.state import FrameState
from tracker.words import balls_words


@dataclass(frozen=True)
class TableCheckParams:
    """Which disagreements the state follows the table on.

    Attributes:
        balls_back: a ball called potted, seen at rest on the table at a stroke's start, is
            put back on the referee's table.
        striker_by_call: eight-ball: the shooter's called ball names the player at the table.
    """

    balls_back: bool = True
    striker_by_call: bool = True


def follow_table(st: FrameState | None, shot: Shot,
                 params: TableCheckParams = TableCheckParams()) -> tuple[FrameState | None, list[str]]:
    """The state ``st`` as the table at the start of ``shot`` shows it (a pool rack only; any
    other state comes back unchanged), and the review notes saying what was changed."""
    if st is None or not isinstance(st.game, PoolState) or st.frame_over:
        return st, []
    notes: list[str] = []
    if params.balls_back:
        st = _balls_back(st, shot, notes)
    if params.striker_by_call:
        st = _striker_by_call(st, shot, notes)
    return st, notes


def unpotted(last: Shot, shot: Shot, st: FrameState | None,
             params: TableCheckParams = TableCheckParams()) -> Shot | None:
    """The last stroke's record ``last`` without its pots of balls that the camera sees at
    rest on the table at the start of the next stroke ``shot`` (the state ``st`` has them off
    the table since ``last`` was called): to be called again, so that the striker and the
    balls on follow too. None when no such pot (or not a pool rack)."""
    if (not params.balls_back or st is None or not isinstance(st.game, PoolState)
            or st.frame_over):
        return None
    back = _seen(shot) - set(st.on_table)
    wrong = {e.ball for e in last.events if e.type == EventType.POT} & back
    if not wrong:
        return None
    note = (f"{balls_words(sorted(wrong, key=int))} on the table at the next stroke's start "
            "(seen there, or called by the shooter): not potted; the stroke called again "
            "without that pot; check")
    return replace(last, events=tuple(e for e in last.events
                                      if not (e.type == EventType.POT and e.ball in wrong)),
                   needs_review=(*last.needs_review, note))


def _seen(shot: Shot) -> set[str]:
    """The object balls on the table at the start of ``shot``: seen at rest there, and the
    ball its shooter calls (no one calls a ball that was potted)."""
    seen = {b for b in (shot.positions_before or {}) if b != B.WHITE and b.isdigit()}
    called = (shot.nomination or "").split("@")[0].strip()
    return seen | ({called} if called.isdigit() else set())


def _balls_back(st: FrameState, shot: Shot, notes: list[str]) -> FrameState:
    """Object balls seen at rest at the stroke's start that the referee has off the table."""
    back = _seen(shot) - set(st.on_table)
    if not back:
        return st
    notes.append(f"{balls_words(sorted(back, key=int))} on the table (seen there, or called "
                 "by the shooter), called potted before: the referee's table follows; check "
                 "the earlier call")
    return replace(st, on_table=frozenset(st.on_table | back))


def _striker_by_call(st: FrameState, shot: Shot, notes: list[str]) -> FrameState:
    """Eight-ball with groups chosen: the player whose group holds the called ball shoots."""
    groups = st.game.groups
    called = (shot.nomination or "").split("@")[0].strip()
    group = group_of(called) if called.isdigit() else None
    if group is None or None in groups or groups[st.striker] == group:
        return st
    side = groups.index(group)
    name = st.players[side]
    notes.append(f"{name} calls the {called}, of {name}'s group ({group}), so {name} is at the "
                 f"table, not {st.player}: the referee follows; check the earlier call")
    turn = st.order.index(name) if name in st.order else st.turn
    return replace(st, striker=side, turn=turn)
