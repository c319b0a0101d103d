"""Reading a snooker stroke's record (mixed into the snooker referee): who plays (H14, a
play-again request inferred), which balls the events name (a generic ``red`` mapped to a red
on the table), the positions at the strike, the ball on (C03, C04), the free ball nominated
(C24) and the colour nominated after a red (H1, H3).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules.errors import RuleError
from tracker.rules.snooker_types import BallOn
from tracker.rules.state import FrameState, Phase, Position
from tracker.rules.stroke import cue_contacts, first_group


class SnookerRecordRules:
    """The record-reading part of the snooker referee (needs the ``SnookerRules``
    fields)."""

    balls: Any
    table: Any
    options: Any
    last_ball: str
    name: str

    def _resolve_striker(self, st: FrameState, shot: Shot, notes: list[str],
                         review: list[str]) -> tuple[FrameState, bool]:
        """Who plays: the expected striker, a play-again request inferred, the lots winner
        named by the record, or a player out of turn (H14: he is the striker for the foul he
        commits, S2 R5)."""
        if st.awaiting_lots:
            st = self._lots_from_record(st, shot, review)
        name = shot.striker
        if name is None or name in (st.players[st.striker], st.player):
            return st, False
        side = st.side_of(name)
        if side is None:
            raise RuleError(f"shot {shot.shot}: striker {name!r} is not a player of this "
                            f"frame ({', '.join(st.order or st.players)})")
        if st.pending and side == st.pending.offender and "play_again" in st.pending.options \
                and (not st.order or st.order[st.pending.offender_turn] == name or name in st.players):
            notes.append(f"{name} plays again: play-again request inferred (no option input)")
            return self._play_again(st), False
        review.append(f"{name} played but {st.player} was due: playing out of turn (R10(a)(iv), "
                      "S2 R5, S3 R17(c)); check the record's striker")
        named = self._set_striker(st, OperatorInput(InputKind.STRIKER, player=name), "striker")
        return st.played_out_of_turn(named.striker, named.turn), True

    def _resolve_events(self, st: FrameState, shot: Shot) -> list[Event]:
        """Check every ball named exists and is on the table; map generic ``red`` ids."""
        out: list[Event] = []
        free_reds = self.reds(st.on_table)
        used: set[str] = set()
        left: set[str] = set()
        for e in shot.events:
            names = [self._resolve_ball(st, shot, e, b, free_reds, used) for b in e.balls]
            if e.type in (EventType.POT, EventType.OFF_TABLE) and names[0] != self.balls.cue:
                if names[0] in left:
                    raise RuleError(f"shot {shot.shot}: the {names[0]} leaves the table twice")
                left.add(names[0])
            out.append(replace(e, balls=tuple(names)))
        return out

    def _resolve_ball(self, st: FrameState, shot: Shot, e: Event, b: str, free_reds: list[str],
                      used: set[str]) -> str:
        b = self.balls.aliases.get(b, b)
        if not self.balls.is_valid(b):
            raise RuleError(f"shot {shot.shot}: {b!r} is not a ball of {self.name}")
        if b == self.balls.generic_red:
            if not free_reds:
                raise RuleError(f"shot {shot.shot}: a {e.type} event names a red but no red is on "
                                "the table")
            if e.type not in (EventType.POT, EventType.OFF_TABLE):
                return free_reds[0]
            cand = [r for r in free_reds if r not in used]
            if not cand:
                raise RuleError(f"shot {shot.shot}: more reds leave the table than are on it")
            used.add(cand[0])
            return cand[0]
        if b not in self.balls.cue_balls and b not in st.on_table:
            raise RuleError(f"shot {shot.shot}: a {e.type} event names the {b}, which is not on "
                            "the table")
        return b

    def _positions_before(self, st: FrameState, shot: Shot) -> dict[str, Position] | None:
        cue = self.balls.cue
        if shot.positions_before is not None:
            for b in shot.positions_before:
                if b != cue and b not in st.on_table and not self.balls.is_colour(b):
                    raise RuleError(f"shot {shot.shot}: positions_before has the {b}, which is not "
                                    "on the table")
            return dict(shot.positions_before)
        return dict(st.positions) if st.positions is not None and cue in st.positions else None

    def _context(self, st: FrameState, shot: Shot, events: list[Event],
                 pre: dict[str, Position] | None, notes: list[str], review: list[str]) -> BallOn:
        """The ball on (C03, C04) and the free ball (C24) for this stroke."""
        fb = self._free_ball_nominated(st, shot, notes, review)
        extra = frozenset({fb}) if fb else frozenset()
        if st.phase == Phase.RED:
            on = frozenset(self.reds(st.on_table)) | extra
            return BallOn(on, on, 1, None, fb, "red")
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else self.last_ball
            assert c is not None
            on = frozenset({c}) | extra
            return BallOn(on, on, self.balls.value(c), None, fb, c)
        nominated = self._nomination(st, shot, events, pre, notes)
        if nominated is None:
            return BallOn(frozenset(), frozenset(), None, None, None, "colour")
        one = frozenset({nominated})
        return BallOn(one, one, self.balls.value(nominated), nominated, None, nominated)

    def _free_ball_nominated(self, st: FrameState, shot: Shot, notes: list[str],
                             review: list[str]) -> str | None:
        if shot.free_ball:
            if not st.free_ball:
                review.append(f"a free ball ({shot.free_ball}) was nominated but none was awarded: "
                              "ignored")
                return None
            if shot.free_ball not in st.on_table:
                raise RuleError(f"shot {shot.shot}: the free ball {shot.free_ball} is not on the table")
            if shot.free_ball in self.balls_on_for_turn(st.on_table, st.phase, st.seq_colour):
                review.append(f"the free ball nominated, the {shot.free_ball}, is a ball on: played "
                              "as the ball on (S2 R13: a free ball is another ball nominated as on)")
                return None
            return shot.free_ball
        if st.free_ball:
            notes.append("free ball available, none nominated: playing the ball on")
        return None

    def _nomination(self, st: FrameState, shot: Shot, events: list[Event],
                    pre: dict[str, Position] | None, notes: list[str]) -> str | None:
        """COLOUR_CHOICE: declared, touching-declared (H3) or inferred from the first contact
        (H1)."""
        nominated = shot.nomination
        if nominated is not None:
            if not self.balls.is_colour(nominated) or nominated not in st.on_table:
                raise RuleError(f"shot {shot.shot}: nominated {nominated!r} is not a colour on "
                                "the table")
            return nominated
        touching = [b for b in self._touching(st, shot, pre) if self.balls.is_colour(b)]
        if len(touching) == 1:
            notes.append(f"touching colour {touching[0]} taken as declared (H3 default)")
            return touching[0]
        strike_t = next((e.t for e in events if e.type == EventType.STRIKE), -math.inf)
        group = first_group(cue_contacts(events, self.balls.cue, strike_t), self.balls.cue,
                            self.options.simultaneous_s)
        if len(group) == 1 and self.balls.is_colour(next(iter(group))):
            nominated = next(iter(group))
            notes.append(self._inferred_note(nominated))
            return nominated
        return None

    def _inferred_note(self, ball: str) -> str:
        return f"nomination inferred from the first contact: {ball} (H1 default)"
