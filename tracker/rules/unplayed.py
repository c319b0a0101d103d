"""Records whose stroke does not stand, for the snooker-like referees (mixed into
``SnookerRules``): not a stroke (H20), a record with no strike (a foul before the stroke,
R11(a), C31; balls moved between strokes, R9(a), R15; a touching ball's state changed, R8(g)),
and the stroke replayed with every ball put back after the referee's ruling on a ball that fell
from the lip (R9(b)).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tracker.records.shot import Event, EventType, Shot
from tracker.rules import geometry as G
from tracker.rules.errors import RuleError
from tracker.rules.fouls import FOULS
from tracker.rules.outcome import Outcome, build_decision
from tracker.rules.snooker_types import SnookerStroke
from tracker.rules.state import Decision, Foul, FrameState, MissState, PendingFoul, Position, Respot


def merged_respots(respots: tuple[Respot, ...], later: tuple[Respot, ...]) -> tuple[Respot, ...]:
    """``respots`` with the balls placed again in ``later`` (the tie-break black) replaced."""
    again = {r.ball for r in later}
    return tuple(r for r in respots if r.ball not in again) + later


class UnplayedRules:
    """The part of the snooker referee for strokes that do not stand (needs ``SnookerRules``)."""

    balls: Any
    table: Any
    options: Any
    foul_options: tuple[str, ...]
    in_hand_after_foul: str | None
    non_striker_penalty: bool

    # ------------------------------------------------------------------ records with no stroke
    def _unchanged(self, st: FrameState, shot: Shot, respots: tuple[Respot, ...], notes: list[str],
                   review: list[str], positions: dict[str, Position] | None = None
                   ) -> tuple[Decision, FrameState]:
        """A record that changes nothing but where some balls are (not a stroke, H20; balls
        put back between strokes)."""
        nxt = st if positions is None else replace(st, positions=positions)
        out = Outcome(respots=respots, notes=tuple(notes), review=tuple(review))
        return build_decision(self, st, shot.shot, out, nxt), nxt

    def _before_stroke(self, s: SnookerStroke) -> tuple[Decision, FrameState]:
        """A record with no strike: a foul before the stroke (R11(a), C31), or balls that
        moved between strokes (C41, R15, C40)."""
        fouls = self._fouls_before_stroke(s)
        put_back = [e.ball for e in s.shot.events
                    if e.type in (EventType.LIP_DROP, EventType.DISTURBED, EventType.POT)
                    and not (e.type == EventType.DISTURBED and e.by == "striker")]
        s.notes.extend(f"the {b} moved between strokes: put back (R9(a), R14(h), R15)"
                       for b in put_back)
        respots = self._respot([], None, put_back, s.pre)
        nonstriker = [self._non_striker_foul(s, e.ball) for e in s.facts.disturbed
                      if e.by == "non_striker" and self.non_striker_penalty]
        if nonstriker and not fouls:
            return self._non_striker_foul_between_strokes(s, nonstriker, respots)
        if nonstriker:  # both: the non-striker's penalty first, then the striker's foul
            s.st = self._with_non_striker_penalty(s, nonstriker)
        if not fouls:
            s.notes.append("no stroke was made")
            return self._put_back_between_strokes(s, respots)
        return self._foul_before_stroke(s, fouls, respots)

    def _with_non_striker_penalty(self, s: SnookerStroke, fouls: list[Foul]) -> FrameState:
        """The striker's score with the non-striker's penalty (R2(b)(ii), R14(h))."""
        pen = max(f.penalty for f in fouls)
        scores = list(s.st.scores)
        scores[s.st.striker] += pen
        s.notes.append(f"non-striker's foul: {fouls[0].message}; {pen} to the striker, order of "
                       "play unchanged (R14(h))")
        return replace(s.st, scores=(scores[0], scores[1]))

    def _non_striker_foul_between_strokes(self, s: SnookerStroke, fouls: list[Foul],
                                          respots: tuple[Respot, ...]) -> tuple[Decision, FrameState]:
        """The non-striker touched a ball between strokes: the penalty goes to the striker,
        who stays at the table with what he had (options, free ball); the ball is put back."""
        st = s.st
        nxt = self._with_non_striker_penalty(s, fouls)
        nxt, end_notes, end_respots = self._end_of_frame(nxt, st, foul=True, scored=False)
        pen = max(f.penalty for f in fouls)
        out = Outcome(fouls=tuple(fouls), penalty=pen, points={st.striker: pen},
                      respots=merged_respots(respots, end_respots),
                      options=st.pending.options if st.pending else (), free_ball=st.free_ball,
                      nominated=s.ctx.nominated, notes=(*s.notes, *end_notes),
                      review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _put_back_between_strokes(self, s: SnookerStroke, respots: tuple[Respot, ...]
                                  ) -> tuple[Decision, FrameState]:
        """C40 / R8(g): a ball that started or stopped touching the cue ball before the stroke
        is put back, with the cue ball, where the referee examined them."""
        st = s.st
        moved = self._touching_changed_balls(s)
        if not moved or st.positions is None:
            return self._unchanged(st, s.shot, respots, s.notes, s.review)
        extra = tuple(Respot(b, st.positions.get(b), "put_back") for b in moved)
        positions = dict(s.shot.positions_before or st.positions)
        positions.update({r.ball: r.position for r in extra if r.position})
        s.notes.append("the touching state changed before the stroke: the balls are put back "
                       "where the referee examined them (R8(g))")
        return self._unchanged(st, s.shot, respots + extra, s.notes, s.review, positions)

    def _touching_changed_balls(self, s: SnookerStroke) -> list[str]:
        was = self._examined_touching(s.st)
        cue = self.balls.cue
        before = s.shot.positions_before
        if was is None or before is None or cue not in before:
            return []
        now = set(G.touching_balls(before[cue], G.object_balls(before), self.table,
                                   self.options.touching_gap_mm))
        changed = sorted(now ^ was)
        return [cue, *changed] if changed else []

    def _fouls_before_stroke(self, s: SnookerStroke) -> list[Foul]:
        """The striker's fouls in a record whose stroke was not made: a ball he moved, the
        fouls the referee entered, the tip on the ball in hand (Snookerpool)."""
        out = []
        if s.shot.operator.not_a_stroke:
            tip = FOULS["tip_on_ball_in_hand"]
            out.append(Foul(tip.code, tip.rule, tip.digest, tip.message,
                            self._penalty_of(tip, s.ctx.v_on, ())))
        k = FOULS["foul_before_stroke"]
        for e in s.shot.events:
            if e.type == EventType.DISTURBED and e.by == "striker":
                pen = self._penalty_of(k, s.ctx.v_on, (self.balls.value(e.ball),))
                out.append(Foul(k.code, self._rule_of(k), k.digest, k.message.format(ball=e.ball),
                                pen, (e.ball,)))
        for f in s.shot.operator.fouls:
            k = FOULS[f.code]
            pen = self._penalty_of(k, s.ctx.v_on, (self.balls.value(f.ball),) if f.ball else ())
            out.append(Foul(k.code, self._rule_of(k), k.digest,
                            k.message.format(ball=f.ball or "ball", balls=f.ball or ""), pen,
                            (f.ball,) if f.ball else ()))
        return out

    def _foul_before_stroke(self, s: SnookerStroke, fouls: list[Foul], respots: tuple[Respot, ...]
                            ) -> tuple[Decision, FrameState]:
        """R11(a): the turn ends at once; after a replacement no miss, the ball on and the
        warnings stay (R14(d), C31)."""
        st = s.st
        if s.ctx.v_on is None:
            s.review.append("foul before a colour was nominated: 7 (R10(d)(vi))")
        pen = max(f.penalty for f in fouls)
        scores = list(st.scores)
        scores[1 - st.striker] += pen
        if st.replaced:
            phase, seq = st.phase, st.seq_colour
            s.notes.append("foul before striking after a replacement: no miss, the ball on stays as "
                           "before; warnings stay in force (R14(d))")
            options, miss_state = (*self.foul_options, "replace"), st.miss
        else:
            phase, seq = self.start_of_turn(st.on_table)
            options, miss_state = self.foul_options, MissState()
        striker, turn = st.pass_turn()
        nxt = replace(st, scores=(scores[0], scores[1]), break_points=0, phase=phase, seq_colour=seq,
                      last_red_colour=st.last_red_colour if st.replaced else False, striker=striker,
                      turn=turn, resume=None, free_ball=False, miss=miss_state, replaced=False,
                      last_colour_scored=None)
        nxt = self._cue_ball_after_foul_before_stroke(s, nxt)
        fb, eff = self._free_ball_test(nxt, s.notes)
        nxt = replace(nxt, free_ball=fb, pending=PendingFoul(st.striker, options, self._snapshot(s),
                                                             fb, st.turn, st.resume))
        nxt, end_notes, end_respots = self._end_of_frame(nxt, st, foul=True, scored=False)
        out = Outcome(fouls=tuple(fouls), penalty=pen, points={1 - st.striker: pen},
                      respots=merged_respots(respots, end_respots),
                      options=() if nxt.awaiting_lots else options,
                      free_ball=fb and not nxt.awaiting_lots, effective=eff,
                      nominated=s.ctx.nominated, free_ball_nominated=s.ctx.fb, break_points=0,
                      notes=(*s.notes, *end_notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _cue_ball_after_foul_before_stroke(self, s: SnookerStroke, nxt: FrameState) -> FrameState:
        """S2 R9(b)(ii): a cue ball in hand stays in hand after a foul before the stroke unless
        it had been placed on the table (the record's ``positions_before`` has it): then it is
        in play where it lies (C02, 000 commentary). After a Snookerpool foul: in hand
        anywhere."""
        if self.in_hand_after_foul is not None:
            return replace(nxt, cue_in_hand=True, in_hand_area=self.in_hand_after_foul)
        before = s.shot.positions_before
        if not (s.st.cue_in_hand and before and self.balls.cue in before):
            return nxt
        s.notes.append("the cue ball had been placed on the table: it is in play where it lies "
                       "(S2 R9(b)(ii))")
        return replace(nxt, cue_in_hand=False, positions=dict(before))

    # ------------------------------------------------------------------ R9(b)
    def _replay_lip_ruling(self, s: SnookerStroke) -> tuple[Decision, FrameState]:
        """R9(b): the referee rules that a ball which fell from the lip would have been hit by
        a ball in the stroke. Every ball goes back where it was; with no foul the same striker
        plays again, with a foul the penalty stands and the next player has the usual options
        (no miss: the stroke is void). A foul the fall itself caused carries no penalty (000
        commentary, digest C41): see :meth:`_fouls_caused_by_the_fall`."""
        st, ball = s.st, s.shot.operator.lip_would_be_hit
        assert ball is not None
        if not self._lip_drop_recorded(s, ball):
            s.review.append(f"the referee ruled on the {ball}, but no lip_drop of it is recorded")
        s.notes.append(f"the {ball} fell from the lip and would have been hit: all balls are "
                       "replaced (R9(b))")
        positions = dict(s.pre) if s.pre is not None else st.positions
        base = replace(st, positions=positions, pending=None, shots=st.shots + 1,
                       last_respots=(), awaiting_lots=False)
        excused = self._fouls_caused_by_the_fall(s, ball)
        if excused:
            s.fouls = [f for f in s.fouls if f not in excused]
            s.notes.extend(f"{f.message}: caused by the {ball} falling from the lip, so no penalty "
                           "(R9(b), 000 commentary)" for f in excused)
        if not s.fouls:
            s.notes.append(f"no foul: {st.player} plays again, the same stroke or another "
                           "(R9(b)(i))")
            out = Outcome(replay=True, replace_positions=s.pre, nominated=s.ctx.nominated,
                          free_ball_nominated=s.ctx.fb, notes=tuple(s.notes), review=tuple(s.review))
            return build_decision(self, st, s.shot.shot, out, base), base
        return self._replayed_foul(s, base)

    def _fouls_caused_by_the_fall(self, s: SnookerStroke, ball: str) -> list[Foul]:
        """The fouls the fall itself caused (000 commentary on R9(b)): they carry no penalty.

        With the ruled ball gone, the cue ball (1) hit no ball at all, the ruled ball being a
        ball on (``no_contact``: it would have hit it first, lawfully), or (2) followed the
        dropped ball into its pocket after the drop (``cue_ball_potted``), having hit a ball
        first or the ruled ball being on. Any other foul, or one of these when the ruled ball was
        not on (the cue ball would have fouled it anyway), keeps its penalty.
        """
        drops = [e for e in s.facts.lip_drops if self._names_ball(ball, e.ball)]
        if not drops:
            return []
        was_on = any(e.ball in s.ctx.on_first for e in drops)
        followed = bool(was_on or s.first) and self._followed_into(s, drops)
        return [f for f in s.fouls
                if (f.code == "no_contact" and was_on) or (f.code == "cue_ball_potted" and followed)]

    def _followed_into(self, s: SnookerStroke, drops: list[Event]) -> bool:
        """The cue ball fell, after a dropped ball, into the pocket that ball fell into. A drop
        whose pocket is neither recorded nor found from its position counts as the same pocket
        (sent for review)."""
        cue_pot = next((e for e in s.shot.events
                        if e.type == EventType.POT and e.ball == self.balls.cue), None)
        if cue_pot is None:
            return False
        for e in drops:
            if e.t > cue_pot.t:
                continue
            pocket = self._drop_pocket(s, e)
            if pocket is None or cue_pot.pocket is None:
                s.review.append(f"the pocket the {e.ball} fell into, or the cue ball's, is not "
                                "recorded: the cue ball is taken to have followed it in (R9(b)); "
                                "check it")
                return True
            if pocket == cue_pot.pocket:
                return True
        return False

    def _drop_pocket(self, s: SnookerStroke, drop: Event) -> str | None:
        """The pocket a ball fell into from the lip: the event's, else the pocket nearest the
        ball's place at the strike (mm), else None."""
        if drop.pocket is not None:
            return drop.pocket
        at = (s.pre or {}).get(drop.ball)
        if at is None:
            return None
        return min(self.table.pockets.values(),
                   key=lambda p: (p.fall[0] - at[0]) ** 2 + (p.fall[1] - at[1]) ** 2).name

    def _names_ball(self, ruled: str, ball: str) -> bool:
        """``ruled`` (the ruling's ball, maybe the generic ``red``) names ``ball``."""
        return ball == ruled or (ruled == self.balls.generic_red and self.balls.is_red(ball))

    def _lip_drop_recorded(self, s: SnookerStroke, ball: str) -> bool:
        """The stroke records ``ball`` falling from a lip (a generic ``red``: any red).

        Raises:
            RuleError: the ruling names a ball that is not on the table.
        """
        generic = ball == self.balls.generic_red
        if not generic and ball not in s.st.on_table:
            raise RuleError(f"shot {s.shot.shot}: operator.lip_would_be_hit names the {ball}, which "
                            "is not on the table")
        return any(e.type == EventType.LIP_DROP and self._names_ball(ball, e.ball)
                   for e in s.shot.events)

    def _replayed_foul(self, s: SnookerStroke, base: FrameState) -> tuple[Decision, FrameState]:
        """R9(b)(ii): the penalty, the balls replaced, the usual options after a foul."""
        st = s.st
        pen = self._penalty(s)
        scores = list(st.scores)
        scores[1 - st.striker] += pen
        striker, turn = st.pass_turn()
        phase, seq = self._next_turn_phase(st, st.on_table)
        nxt = replace(base, scores=(scores[0], scores[1]), break_points=0, striker=striker, turn=turn,
                      resume=None,
                      phase=phase, seq_colour=seq, last_red_colour=False, free_ball=False,
                      miss=MissState(), replaced=False, last_colour_scored=None,
                      cue_in_hand=st.cue_in_hand or self.in_hand_after_foul is not None)
        fb, eff = self._free_ball_test(nxt, s.notes)
        options = self.foul_options
        nxt = replace(nxt, free_ball=fb,
                      pending=PendingFoul(st.striker, options, None, fb, st.turn, st.resume))
        s.notes.append("foul in the stroke: the penalty stands, no miss (R9(b)(ii))")
        out = Outcome(fouls=tuple(s.fouls), penalty=pen, points={1 - st.striker: pen}, options=options,
                      free_ball=fb, effective=eff, replace_positions=s.pre, replay=True,
                      nominated=s.ctx.nominated, free_ball_nominated=s.ctx.fb, break_points=0,
                      notes=tuple(s.notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt
