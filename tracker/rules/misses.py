"""Foul and a miss (S3 R14; digest C28-C32) as small predicates, mixed into the snooker
referee. The limit on repeated misses has three readings: the frame awarded after a third
failure (003, R14(c)(ii)); the 2004 amateur rule (000: the next player may also play from
in-hand); and the any-number-of-reds annex (002: at most five, then the cue ball anywhere).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tracker.rules import geometry as G
from tracker.rules.snooker_types import SnookerStroke, TableAfter
from tracker.rules.state import FrameState, MissState, Phase

#: First-contact failures that can make a miss (C28).
FAILURE_CODES = frozenset({"no_contact", "wrong_ball_first", "free_ball_not_hit_first",
                           "simultaneous_hit"})


class MissRules:
    """The foul-and-a-miss part of the snooker referee (needs the ``SnookerRules`` fields)."""

    miss_rule: bool
    miss_limit: int
    after_limit: str
    last_ball: str
    options: Any
    table: Any
    balls: Any

    def _miss_call(self, s: SnookerStroke, t: TableAfter, phase: Phase, seq: str | None
                   ) -> tuple[bool, MissState, bool]:
        """(foul and a miss?, the miss sequence after it, warning given?)."""
        if not self.miss_rule or not self._is_failure(s):
            return False, MissState(), False
        if self._only_last_ball(s.st):
            s.notes.append("no miss can be called when only the black is left (R14)")
            return False, MissState(), False
        after = replace(s.st, on_table=t.on_table, phase=phase, seq_colour=seq, scores=t.scores)
        if not self._is_miss(s, after):
            return False, MissState(), False
        return self._miss_sequence(s)

    def _is_failure(self, s: SnookerStroke) -> bool:
        """C28: the striker failed to hit a ball on first (a touching ball on is a hit). A red
        (the ball on) hit before the nominated free ball is a foul (R12(b)(i)) but no failure
        to hit a ball on (R12(d), C09)."""
        codes = {f.code for f in s.fouls} & FAILURE_CODES
        if codes == {"free_ball_not_hit_first"} and s.first <= s.ctx.on_first:
            return False
        return bool(codes) and not s.deemed

    def _only_last_ball(self, st: FrameState) -> bool:
        return st.on_table == frozenset({self.last_ball}) or st.phase == Phase.RESPOTTED_BLACK

    def _is_miss(self, s: SnookerStroke, after: FrameState) -> bool:
        """R14(b), (c)(i), (e): the automatic miss, the sequence from a replaced position,
        the referee's judgement; with the reason in the notes."""
        judged = s.shot.operator.miss
        if s.st.replaced and s.st.miss.count > 0 and s.st.miss.full_ball:
            s.notes.append("failure again from the replaced position after a full-ball miss: foul "
                           "and a miss regardless of the score (R14(c))")
            return True
        clear = self._clear_path(s)
        if self._points_equal_difference(s.st, after):
            return self._miss_with_points_equal(s, bool(clear), judged)
        snookers = self._snookers_needed(s.st) or self._snookers_needed(after)
        if clear and not snookers:
            s.notes.append(f"clear path to the {clear}: foul and a miss (R14(b))")
            if judged is False and self.options.operator_may_cancel_auto_miss:
                s.notes.append("the referee judged it not a miss (S5 R1(a))")
                return False
            return True
        if judged:
            s.notes.append("foul and a miss by the referee's judgement (S2 R21)")
            return True
        s.notes.append(self._no_miss_reason(clear, snookers))
        return False

    @staticmethod
    def _miss_with_points_equal(s: SnookerStroke, clear: bool, judged: bool | None) -> bool:
        """R14(b)(ii), (e): the points available equal the difference. With a clear path the
        automatic miss is excused only if the referee is satisfied it was not intentional (his
        ``miss: true`` says he is not); without one a discretionary miss is not allowed."""
        if clear and judged:
            s.notes.append("points available equal the difference, but the referee judges the "
                           "miss intentional: foul and a miss (R14(b)(ii))")
            return True
        s.notes.append("no miss: the points available equal the points difference "
                       "(R14(b)(ii), (e))")
        return False

    @staticmethod
    def _no_miss_reason(clear: str | None, snookers: bool) -> str:
        if clear is None and not snookers:
            return "no clear path to a ball on: miss is the referee's judgement (H5); none called"
        if snookers:
            return "snookers required: a miss only if the referee judges it intentional (R14(b)(i))"
        return "miss not tested: positions unknown; the referee judges (H5)"

    def _points_equal_difference(self, before: FrameState, after: FrameState) -> bool:
        """R14(b)(ii): before or after the stroke, the points available equal the difference."""
        return any(abs(x.scores[0] - x.scores[1]) == self.points_remaining(x)  # type: ignore[attr-defined]
                   for x in (before, after))

    def _snookers_needed(self, st: FrameState) -> bool:
        """Some player is more points behind than are left on the table (R14(b)(i))."""
        rem = self.points_remaining(st)  # type: ignore[attr-defined]
        return any(st.scores[1 - i] - st.scores[i] > rem for i in (0, 1))

    def _clear_path(self, s: SnookerStroke) -> str | None | bool:
        """C29: a ball that is or could be on reachable in a straight line (None: it is not;
        False: positions unknown)."""
        cue = self.balls.cue
        if s.pre is None or cue not in s.pre:
            return False
        objects = {k: v for k, v in s.pre.items() if k != cue}
        return G.clear_path_to_any_part(s.pre[cue], objects, self._could_be_on(s), self.table)

    def _could_be_on(self, s: SnookerStroke) -> list[str]:
        if s.st.phase == Phase.COLOUR_CHOICE:
            return self.colours_on(s.st.on_table)  # type: ignore[attr-defined]
        return sorted(s.ctx.on_first)

    def _miss_sequence(self, s: SnookerStroke) -> tuple[bool, MissState, bool]:
        """C30: count the misses from the same (replaced) position; warn before the limit."""
        st, cue = s.st, self.balls.cue
        full = False
        if s.pre is not None and cue in s.pre:
            objects = {k: v for k, v in s.pre.items() if k != cue}
            full = G.full_ball_available(s.pre[cue], objects, self._could_be_on(s), self.table)
        count = 1
        if st.replaced and st.miss.count > 0:
            count, full = st.miss.count + 1, st.miss.full_ball
        state = MissState(count, full, st.miss.warned)
        warn = self._limit_counts(state) and count == self.miss_limit - 1
        if warn:
            s.notes.append(self.limit_warning())
        return True, replace(state, warned=st.miss.warned or warn), warn

    def _limit_counts(self, miss: MissState) -> bool:
        """Whether this miss sequence runs toward the limit: full-ball contact was available
        (R14(c)); in the any-number-of-reds annex every consecutive miss counts."""
        return miss.full_ball or self.after_limit == "ball_anywhere"

    def limit_warning(self) -> str:
        """What the referee warns the offender before the last failure allowed."""
        if self.after_limit == "ball_anywhere":
            return ("warning: should a foul and a miss be called again, the next player may also "
                    "place the cue ball anywhere (any-number-of-reds annex rule 2)")
        if self.options.amateur_miss_2004:
            return ("warning: if a replacement is requested, after a further foul and a miss the "
                    "next player may also play from in-hand (2004 amateur rule)")
        return ("warning: if a replacement is requested, a further failure will award the frame "
                "to the opponent (R14(c)(i))")

    def _apply_miss_limit(self, nxt: FrameState, s: SnookerStroke, miss: bool,
                          options: tuple[str, ...]) -> tuple[FrameState, tuple[str, ...]]:
        """The last failure allowed: the frame awarded (R14(c)(ii)), or the next player's
        extra option (2004 amateur rule: in-hand; annex: the cue ball anywhere)."""
        if not (miss and self._limit_counts(nxt.miss) and nxt.miss.count >= self.miss_limit):
            return nxt, options
        opp = 1 - s.st.striker
        if self.after_limit == "ball_anywhere":
            s.notes.append(f"{self.miss_limit}th foul and a miss: the non-offender may also place "
                           "the cue ball anywhere on the table (any-number-of-reds annex rule 2)")
            anywhere = () if self._snookers_needed(nxt) else ("ball_anywhere",)
            return nxt, ("play", "play_again", *anywhere)
        if self.options.amateur_miss_2004:
            s.notes.append("third foul and a miss: the next player may have the offender play from "
                           "where the cue ball stopped, play from there himself, or play from "
                           "in-hand with the other balls where they are (2004 amateur rule)")
            return nxt, ("play", "play_again", "in_hand")
        s.notes.append(f"third failure to hit the ball on with a full ball available: the frame is "
                       f"awarded to {s.st.players[opp]} (R14(c)(ii))")
        over = replace(nxt, frame_over=True, winner=opp, phase=Phase.OVER,
                       end_reason="three_failures", pending=None)
        return over, ()
