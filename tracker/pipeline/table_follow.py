"""The referee's state follows the table the camera sees, before a stroke is called (issues
31 and 33: one wrong call must not make every later call wrong).

The referee's state (:class:`tracker.rules.state.FrameState`) learns which balls left the
table only from the stroke records.

**Snooker.** When one of them was lost (a record refused, a pot dropped as
inconsistent) or wrong, the state and the table part: a red the referee still has on the
table that the camera saw potted, or a red the referee has potted that the camera sees standing
at the strike. Reds are never put back by the referee, so the camera's record at the next
strike says which reds are on the table: the state follows it, and the stroke's record says so
for review (:func:`follow_the_reds`). Colours are re-spotted (the rules decide where, and call
it a foul when one just re-spotted is missing), and the ball-on sequence of the colours is the
referee's: neither is changed here; but a colour the camera does not see that was not just
re-spotted is taken as where the referee last had it, with a note (:func:`unseen_colours`),
not called "struck before it was re-spotted".

A stroke the camera did not find leaves the referee's turn behind: the next stroke it finds is
called for the player who played the lost one. Where the camera's record at a strike shows the
cue ball far from where the referee last had it at rest, other balls moved too, and no ball the
referee has on the table gone (nothing potted), a stroke was played unseen and missed its pot:
the turn passed, and the state follows, with a note (:func:`turn_passed`).

**Pool.** One wrong call early in a rack (a pot given to the wrong ball, a foul where there was none)
hands every later call to the wrong player or leaves the referee's table unlike the real one:
each later call is then wrong though seen right. Before each stroke, where the state says one
thing and the table plainly another, the state follows the table, with a note for review:

- a ball the referee has off the table (called potted) that the camera sees at rest on it at
  the stroke's start is put back on the table (it was not potted, or was potted under another
  ball's name); when the last stroke's call potted it, that stroke is called again without
  the pot (:func:`unpotted`; the referee's correction, as an operator's would be);
- eight-ball, groups chosen: the ball the shooter calls belongs to the other player's group
  (a player calls his own group's balls, 002 3.6): that player is at the table
  (:func:`follow_pool_table`, :class:`TableCheckParams`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

from tracker import balls as B
from tracker.records.shot import EventType, Shot
from tracker.rules.pool_types import PoolState, group_of
from tracker.rules.state import FrameState, Phase
from tracker.words import balls_words

#: The cue ball seen at a strike at least this far (mm) from where the referee last had it at
#: rest, with another ball moved at least :data:`UNSEEN_OTHER_MM`, was moved by a stroke the
#: camera did not find (a hand placing it moves nothing else; a re-measured picture moves balls
#: a few mm).
UNSEEN_STROKE_MM = 200.0
#: ... the least another ball must have moved, mm.
UNSEEN_OTHER_MM = 60.0


def unseen_colours(state: FrameState, positions: dict | None,
                   spots: Mapping[str, tuple[float, float]]) -> tuple[dict | None, list[str]]:
    """``positions`` (the camera's record at the strike, ball id -> mm) with the colours the
    referee has on the table that the camera does not see there, and that the referee did
    not just put back (``state.last_respots``: those, missing, were not re-spotted, a foul),
    at the referee's last place for them or their spot (``spots``); and a review note. A
    colour the camera never found (under the player, beside dark fittings at the far end) is
    no colour "struck before it was re-spotted": the referee called that at every stroke of a
    clip whose green the camera missed from the start (issue 31, TV clips under 45 degrees)."""
    if positions is None:
        return positions, []
    missing = [c for c in B.COLOURS if c in state.on_table and c not in positions
               and c not in state.last_respots and c in spots]
    if not missing:
        return positions, []
    known = state.positions or {}
    filled = dict(positions) | {c: tuple(known.get(c, spots[c])) for c in missing}
    return filled, [f"the camera does not see {balls_words(missing)}: taken as where the referee "
                    "last had it; check"]


def follow_the_reds(state: FrameState, positions: dict | None) -> tuple[FrameState, list[str]]:
    """``state`` with its reds on the table those of ``positions`` (ball id -> mm: the
    camera's record at the strike), and the review notes saying what changed; ``state``
    itself (no notes) when they agree, when positions are not known, when the reds are done
    (the colours in sequence), or when no red would be left (the end of the reds is the
    rules' to call); snooker's reds only (ids ``red_NN``)."""
    if (positions is None or state.phase not in (Phase.RED, Phase.COLOUR_CHOICE)
            or not state.ruleset.startswith("snooker")):
        return state, []
    referee = {b for b in state.on_table if b.startswith("red_")}
    camera = {b for b in positions if b.startswith("red_")}
    back, gone = sorted(camera - referee), sorted(referee - camera)
    if not (back or gone) or not camera or not referee:
        return state, []
    notes = []
    if gone:
        notes.append(f"the camera does not see {balls_words(gone)} that the referee still had on "
                     "the table (its pot was not called): taken as off the table; check the "
                     "earlier call")
    if back:
        notes.append(f"the camera sees {balls_words(back)} on the table that the referee had "
                     "potted: taken as on the table; check the earlier call")
    return replace(state, on_table=(state.on_table - set(gone)) | set(back)), notes


def turn_passed(state: FrameState, positions: dict | None) -> tuple[FrameState, list[str]]:
    """``state`` with the turn passed to the other player when ``positions`` (the camera's
    record at the strike, ball id -> mm) shows a stroke the camera did not find, played since
    the last call and potting nothing (:data:`UNSEEN_STROKE_MM`, :data:`UNSEEN_OTHER_MM`, every
    ball the referee has on the table still seen), and a review note; ``state`` itself (no note)
    otherwise, and whenever the cue ball is in hand, a foul's options are open, or four play;
    snooker only (in pool the cue ball is in hand anywhere after every foul, so a cue ball placed
    by hand after a foul the camera missed would pass the turn back: the synthetic nine-ball
    side seed 5, stroke 3)."""
    if (positions is None or not state.positions or state.cue_in_hand or state.pending is not None
            or state.order or state.shots < 1 or state.phase == Phase.OVER
            or not state.ruleset.startswith("snooker")):
        return state, []
    was, now = state.positions.get(B.WHITE), positions.get(B.WHITE)
    if was is None or now is None or math.dist(was, now) < UNSEEN_STROKE_MM:
        return state, []
    if any(b not in positions for b in state.on_table):
        return state, []  # a ball gone: a pot may have kept the turn
    moved = [b for b in state.on_table if b in state.positions
             and math.dist(state.positions[b], positions[b]) >= UNSEEN_OTHER_MM]
    if not moved:
        return state, []
    reds = any(b.startswith("red_") for b in state.on_table)
    nxt = replace(state, striker=1 - state.striker, break_points=0, free_ball=False,
                  last_red_colour=False, phase=Phase.RED if reds else state.phase)
    return nxt, [f"the cue ball and {balls_words(moved)} moved since the last call: a stroke the "
                 f"camera did not find, nothing potted; {state.players[nxt.striker]} is taken "
                 "to be at the table; check"]


# ---------------------------------------------------------------- pool

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


def follow_pool_table(st: FrameState | None, shot: Shot,
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
