"""The state after a snooker stroke (C22, C23, C27), mixed into the snooker referee: the break
goes on or the turn passes after a fair stroke; after a foul, the penalty, the incoming
player's options, the free ball and the foul and a miss.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tracker.rules import geometry as G
from tracker.rules.geometry import object_balls
from tracker.rules.outcome import Outcome, build_decision
from tracker.rules.snooker_types import SnookerStroke, TableAfter
from tracker.rules.state import Decision, FrameState, MissState, PendingFoul, Phase
from tracker.rules.unplayed import merged_respots


class SnookerNextStateRules:
    """The next-state part of the snooker referee (needs the ``SnookerRules``
    fields and its foul, miss and end-of-frame hooks)."""

    balls: Any
    table: Any
    options: Any
    last_ball: str
    free_ball_rule: bool
    foul_options: tuple[str, ...]
    in_hand_after_foul: str | None

    def _after_fair(self, s: SnookerStroke, t: TableAfter) -> tuple[Decision, FrameState]:
        """A fair stroke: the break goes on if it scored, else the turn passes (C22)."""
        st, pts = s.st, s.points
        scores = list(t.scores)
        scores[st.striker] += pts
        break_points = t.break_points + pts
        common = dict(scores=(scores[0], scores[1]), on_table=t.on_table, positions=t.positions,
                      cue_in_hand=False, free_ball=False, pending=None, miss=MissState(),
                      replaced=False, shots=st.shots + 1, awaiting_lots=False,
                      last_respots=tuple(r.ball for r in t.respots))
        if pts > 0:
            phase, seq, last_red, last_colour = self._phase_after_score(s, t.on_table)
            nxt = replace(st, break_points=break_points, phase=phase, seq_colour=seq,
                          last_red_colour=last_red, last_colour_scored=last_colour, **common)
        else:
            phase, seq = self._next_turn_phase(st, t.on_table)
            striker, turn = st.pass_turn()
            nxt = replace(st, break_points=0, phase=phase, seq_colour=seq, last_red_colour=False,
                          striker=striker, turn=turn, resume=None, last_colour_scored=None,
                          **common)
        # A non-striker's foul is a foul for the end of the frame (S2 R5, R4(a)).
        nxt, end_notes, end_respots = self._end_of_frame(nxt, st, foul=bool(s.nonstriker),
                                                         scored=pts > 0)
        out = Outcome(points={st.striker: pts}, potted=s.facts.potted,
                      respots=merged_respots(t.respots, end_respots), nominated=s.ctx.nominated,
                      free_ball_nominated=s.ctx.fb, break_points=break_points,
                      notes=(*s.notes, *end_notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _phase_after_score(self, s: SnookerStroke, on_after: frozenset[str]
                           ) -> tuple[Phase, str | None, bool, tuple[str, int, int, bool] | None]:
        """C03 after a scoring stroke: (phase, colour on, colour-after-last-red, the colour
        scored that has to be re-spotted before the next stroke)."""
        st, ctx = s.st, s.ctx
        if st.phase == Phase.RED:
            return Phase.COLOUR_CHOICE, None, not self.reds(on_after), self._free_ball_scored(s, 1)
        if st.phase == Phase.COLOUR_CHOICE:
            phase, seq = self.start_of_turn(on_after)
            return phase, seq, False, (ctx.nominated, s.points, st.striker, False)  # type: ignore[return-value]
        if st.phase == Phase.SEQ:
            phase, seq = self.start_of_turn(on_after)
            alone = st.seq_colour not in s.facts.potted
            return phase, seq, False, self._free_ball_scored(s, s.points if alone else 0)
        return Phase.OVER, None, False, None  # the re-spotted black potted

    def _free_ball_scored(self, s: SnookerStroke, points: int) -> tuple[str, int, int, bool] | None:
        """A potted free ball to be re-spotted before the next stroke, with the points it
        scored (R3(g)(iv): not scored if the next stroke is played first; R10(a)(i))."""
        fb = s.ctx.fb
        return (fb, points, s.st.striker, True) if fb and fb in s.facts.potted else None

    def _after_foul(self, s: SnookerStroke, t: TableAfter) -> tuple[Decision, FrameState]:
        """A foul: penalty, the incoming player's options, free ball, foul and a miss (C27)."""
        st = s.st
        phase, seq = self._next_turn_phase(st, t.on_table)
        miss, miss_state, warn = self._miss_call(s, t, phase, seq)
        striker, turn = st.pass_turn()
        in_hand = s.facts.cue_gone or self.in_hand_after_foul is not None
        area = self.in_hand_after_foul or "D"
        nxt = replace(st, scores=t.scores, break_points=0, phase=phase, seq_colour=seq,
                      last_red_colour=False, on_table=t.on_table, positions=t.positions,
                      striker=striker, turn=turn, resume=None, cue_in_hand=in_hand, in_hand_area=area,
                      free_ball=False, pending=None, miss=miss_state, replaced=False,
                      shots=st.shots + 1, last_colour_scored=None, awaiting_lots=False,
                      last_respots=tuple(r.ball for r in t.respots))
        fb, effective = (False, ())
        if phase != Phase.OVER and not self._only_last_ball(st):  # else the frame ends or ties
            fb, effective = self._free_ball_test(nxt, s.notes)
        options = self._options_after_foul(miss)
        nxt, options = self._apply_miss_limit(nxt, s, miss, options)
        if not nxt.frame_over:
            pending = PendingFoul(st.striker, options, self._snapshot(s), fb, st.turn, st.resume)
            nxt = replace(nxt, free_ball=fb, pending=pending)
        nxt, end_notes, end_respots = self._end_of_frame(nxt, st, foul=True, scored=False)
        out = Outcome(fouls=tuple(s.fouls), penalty=t.penalty, points={1 - st.striker: t.penalty},
                      potted=s.facts.potted, respots=merged_respots(t.respots, end_respots),
                      options=() if nxt.awaiting_lots else options, miss=miss, miss_warning=warn,
                      free_ball=fb and not nxt.awaiting_lots, effective=effective,
                      replace_positions=s.pre if miss else None, nominated=s.ctx.nominated,
                      free_ball_nominated=s.ctx.fb, break_points=0,
                      notes=(*s.notes, *end_notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _options_after_foul(self, miss: bool) -> tuple[str, ...]:
        if self.in_hand_after_foul is not None:
            return self.foul_options
        return (*self.foul_options, "replace") if miss else self.foul_options

    def _free_ball_test(self, nxt: FrameState, notes: list[str]) -> tuple[bool, tuple[str, ...]]:
        """C23: is the incoming player snookered (from every place in the D when in hand)?"""
        if not self.free_ball_rule:
            return False, ()
        pos = nxt.positions
        if pos is None:
            notes.append("free ball not tested: positions unknown")
            return False, ()
        on = self.balls_on_for_turn(nxt.on_table, nxt.phase, nxt.seq_colour)
        if not on:
            return False, ()
        objs = object_balls(pos)
        if nxt.cue_in_hand:
            snk, _ = G.snookered_in_hand(objs, on, self.table)
            return snk, ()
        if self.balls.cue not in pos:
            notes.append("free ball not tested: cue ball position unknown")
            return False, ()
        res = G.snooker_test(pos[self.balls.cue], objs, on, self.table)
        return res.snookered, res.effective
