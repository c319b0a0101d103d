"""The end of a frame (S3 R4, S2 R1; digest C43, C44) as small predicates, mixed into the
snooker and Snookerpool referees: the last ball potted or fouled, the tie and the re-spotted
black (or the 15), aggregate scoring, and the "four snookers" variant (000 S3 R4(d)*).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from tracker.records.shot import Shot
from tracker.rules.state import FrameState, MissState, Phase, Position, Respot

#: The "four snookers" rule awards the frame at this many snookers required (000).
FOUR_SNOOKERS = 4


def decide_winner(st: FrameState) -> int | None:
    """The side with the higher score, or None when the scores are level."""
    if st.scores[0] == st.scores[1]:
        return None
    return 0 if st.scores[0] > st.scores[1] else 1


def aggregate_leader(st: FrameState) -> int | None:
    """The side ahead on the match aggregate (earlier frames plus this one), None if level."""
    a, b = st.context.carried
    total = (a + st.scores[0], b + st.scores[1])
    return None if total[0] == total[1] else (0 if total[0] > total[1] else 1)


def aggregate_level(st: FrameState) -> bool:
    """The match aggregate (earlier frames plus this one) is level."""
    return aggregate_leader(st) is None


class FrameEndRules:
    """The end-of-frame part of a snooker-like referee (needs ``SnookerRules``' hooks)."""

    last_ball: str
    options: Any
    end_reasons: ClassVar[tuple[str, str]] = ("last_black", "respotted_black")
    tie_note: ClassVar[str] = ("scores level: the black is re-spotted; lots decide who plays from "
                               "in-hand (R4(b))")
    tie_area: ClassVar[str] = "D"

    def _end_of_frame(self, nxt: FrameState, before: FrameState, foul: bool, scored: bool
                      ) -> tuple[FrameState, list[str], tuple[Respot, ...]]:
        """C43, C44: only the last ball left and a score or foul, or no balls left. Returns
        the state, what the referee says and the ball he spots for a tie-break."""
        if nxt.frame_over:
            return nxt, [], ()
        if before.phase == Phase.RESPOTTED_BLACK and (foul or scored):
            return self._frame_won(nxt, self.end_reasons[1])
        last_only = before.on_table == frozenset({self.last_ball})
        if not ((last_only and (foul or scored)) or not nxt.on_table):
            return self._four_snookers(nxt, before)
        if self._tie_break_needed(nxt):
            return self._respotted_black(nxt)
        return self._frame_won(nxt, self.end_reasons[0])

    def _frame_won(self, nxt: FrameState, reason: str
                   ) -> tuple[FrameState, list[str], tuple[Respot, ...]]:
        winner = decide_winner(nxt)
        notes = [] if winner is not None else [
            "scores level with aggregate scoring: the frame ends drawn and its points count to the "
            "aggregate (R4(a)(ii))"]
        if reason == self.end_reasons[1] and nxt.context.aggregate:
            # R4(c): the re-spotted black settles the level aggregate; who wins it wins.
            winner = aggregate_leader(nxt)
            notes = [f"{nxt.players[winner]} wins the re-spotted black: the aggregate is no longer "
                     "level (R4(c))"] if winner is not None else []
        over = replace(nxt, frame_over=True, winner=winner, phase=Phase.OVER, end_reason=reason,
                       pending=None, free_ball=False)
        return over, notes, ()

    def _tie_break_needed(self, nxt: FrameState) -> bool:
        """R4(a), (c): level scores without aggregate scoring, or a level aggregate at the end
        of the last frame."""
        if not nxt.context.aggregate:
            return nxt.scores[0] == nxt.scores[1]
        return nxt.context.last_frame and aggregate_level(nxt)

    def _respotted_black(self, nxt: FrameState) -> tuple[FrameState, list[str], tuple[Respot, ...]]:
        """R4(b): the last ball spotted, the next player in hand, lots decide who plays."""
        spot = self.spots()[self.last_ball]  # type: ignore[attr-defined]
        st = replace(nxt, on_table=frozenset({self.last_ball}), phase=Phase.RESPOTTED_BLACK,
                     seq_colour=None, positions={self.last_ball: spot}, cue_in_hand=True,
                     in_hand_area=self.tie_area, free_ball=False, pending=None, break_points=0,
                     miss=MissState(), replaced=False, awaiting_lots=True,
                     last_respots=(self.last_ball,), last_colour_scored=None)
        return st, [self.tie_note], (Respot(self.last_ball, spot, "own_spot"),)

    def _four_snookers(self, nxt: FrameState, before: FrameState
                       ) -> tuple[FrameState, list[str], tuple[Respot, ...]]:
        """000 S3 R4(d)* (option ``four_snookers``): at the end of a turn with only colours
        and the cue ball on the table (not in hand), a player who needs four snookers or more
        loses the frame; not in the last frame when the frames are level."""
        if not self._four_snookers_applies(nxt, before):
            return nxt, [], ()
        for i in (0, 1):
            if self.snookers_to_tie(nxt, i) >= FOUR_SNOOKERS:
                over = replace(nxt, frame_over=True, winner=1 - i, phase=Phase.OVER,
                               end_reason="four_snookers", pending=None, free_ball=False)
                return over, [f"{nxt.players[i]} needs {self.snookers_to_tie(nxt, i)} snookers at the "
                              "end of the turn: the frame is awarded to "
                              f"{nxt.players[1 - i]} (four-snookers rule, 000 S3 R4(d)*)"], ()
        return nxt, [], ()

    def _four_snookers_applies(self, nxt: FrameState, before: FrameState) -> bool:
        ctx = nxt.context
        return (bool(self.options.four_snookers) and nxt.striker != before.striker
                and nxt.phase == Phase.SEQ and not nxt.cue_in_hand
                and not (ctx.last_frame and ctx.frames_level))

    def snookers_to_tie(self, st: FrameState, i: int) -> int:
        """Snookers player ``i`` needs to draw level (then the re-spotted black): n =
        ceil((D - R) / p), p = max(4, value of the ball on); 0 when D <= R ([interpretation]
        of "4 snookers required", 000)."""
        deficit = st.scores[1 - i] - st.scores[i]
        rem = self.points_remaining(st)  # type: ignore[attr-defined]
        if deficit <= rem:
            return 0
        p = max(4, self._lowest_on_value(st))  # type: ignore[attr-defined]
        return math.ceil((deficit - rem) / p)

    def _lots_from_record(self, st: FrameState, shot: Shot, review: list[str]) -> FrameState:
        """A stroke on the re-spotted black with no ``lots`` input: the record's striker is
        taken as the winner's choice; without one, the player due by the rotation plays."""
        name = shot.striker
        side = st.side_of(name) if name else None
        if side is None:
            review.append("no lots input for the re-spotted black: called as "
                          f"{st.player} (enter who won the draw)")
            return replace(st, awaiting_lots=False)
        turn = st.order.index(name) if name in st.order else st.turn
        return replace(st, awaiting_lots=False, striker=side, turn=turn)

    def spots(self) -> Mapping[str, Position]:  # pragma: no cover - provided by the game
        raise NotImplementedError
