"""Operator inputs between strokes (digest section 3: H4, H14-H18; C45, C47, C48, C50),
one small handler per kind, mixed into the snooker and Snookerpool referees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from tracker.records.shot import InputKind, OperatorInput
from tracker.rules.errors import RuleError
from tracker.rules.outcome import InputResult, input_result
from tracker.rules.state import FrameState, MissState, Phase

Handled = tuple[InputResult, FrameState]

#: Points of each unplayed frame when a game is forfeited under aggregate scoring (S4 R2(b)).
FRAME_MAXIMUM = 147


class InputRules:
    """Operator inputs for a snooker-like game (needs ``SnookerRules``' hooks)."""

    name: str
    miss_limit: int
    options: Any
    balls: Any
    concede_striker_only: ClassVar[bool] = True
    claim_rule: ClassVar[bool] = True
    forfeit_scoring: ClassVar[bool] = True

    def apply_input(self, st: FrameState, inp: OperatorInput) -> Handled:
        """Apply an operator input between strokes."""
        if st.frame_over and inp.kind not in (InputKind.AWARD_FRAME, InputKind.STALEMATE):
            return self._refuse(inp, st, "the frame is over")
        if st.awaiting_lots and inp.kind not in (InputKind.LOTS, InputKind.AWARD_FRAME):
            return self._refuse(inp, st, "the scores are level: lots decide who plays the "
                                f"re-spotted {self.last_ball}; enter a lots input first (R4(b))")  # type: ignore[attr-defined]
        handlers: dict[str, Callable[[FrameState, OperatorInput], Handled]] = {
            InputKind.OPTION: self._input_option, InputKind.CONCEDE: self._input_concede,
            InputKind.CLAIM: self._input_claim, InputKind.AWARD_FRAME: self._input_award,
            InputKind.LOTS: self._input_lots, InputKind.STRIKER: self._input_striker,
            InputKind.STALEMATE: self._input_stalemate,
        }
        if inp.kind not in handlers:
            raise RuleError(f"input {inp.kind} does not apply to {self.name}")
        return handlers[inp.kind](st, inp)

    @staticmethod
    def _refuse(inp: OperatorInput, st: FrameState, why: str) -> Handled:
        return input_result(str(inp.kind), False, why, st), st

    @staticmethod
    def _accept(inp: OperatorInput, st: FrameState, msg: str, notes: tuple[str, ...] = ()) -> Handled:
        return input_result(str(inp.kind), True, msg, st, notes), st

    # ------------------------------------------------------------------ after a foul (H4)
    def _input_option(self, st: FrameState, inp: OperatorInput) -> Handled:
        if st.pending is None:
            return self._refuse(inp, st, "no foul is pending: option ignored")
        if inp.choice not in st.pending.options:
            return self._refuse(inp, st, f"option {inp.choice!r} is not open "
                                f"(open: {', '.join(st.pending.options)})")
        handlers = {"play": self._opt_play, "play_again": self._opt_play_again,
                    "replace": self._opt_replace, "ball_anywhere": self._opt_in_hand,
                    "in_hand": self._opt_in_hand, "ball_in_hand": self._opt_play}
        return handlers[inp.choice](st, inp)  # type: ignore[index]

    def _opt_play(self, st: FrameState, inp: OperatorInput) -> Handled:
        # R14(c)(iii): playing on from the new position ends the miss sequence.
        nxt = replace(st, pending=None, miss=MissState())
        where = " with the cue ball in hand" if st.cue_in_hand else ""
        return self._accept(inp, nxt, f"{st.player} plays{where}"
                            + (" with a FREE BALL" if st.free_ball else ""))

    def _opt_play_again(self, st: FrameState, inp: OperatorInput) -> Handled:
        nxt = self._play_again(st)
        void = " (the free ball is void)" if st.free_ball else ""
        return self._accept(inp, nxt, f"{nxt.player} is asked to play again{void}")

    def _opt_in_hand(self, st: FrameState, inp: OperatorInput) -> Handled:
        """Annex rule 2 (``ball_anywhere``) / 2004 amateur rule (``in_hand``): the next player
        plays with the cue ball in hand, the other balls where they are."""
        area = "table" if inp.choice == "ball_anywhere" else "D"
        nxt = replace(st, pending=None, miss=MissState(), cue_in_hand=True, in_hand_area=area,
                      free_ball=False)
        words = "anywhere on the table" if area == "table" else "in the D"
        return self._accept(inp, nxt, f"{st.player} plays with the cue ball in hand {words}")

    def _play_again(self, st: FrameState) -> FrameState:
        """The offender plays the next stroke; the order of play is unchanged (R17(c))."""
        assert st.pending is not None
        return replace(st, striker=st.pending.offender, turn=st.pending.offender_turn,
                       resume=st.pending.offender_resume,
                       free_ball=False, pending=None, miss=MissState())

    def _opt_replace(self, st: FrameState, inp: OperatorInput) -> Handled:
        """C27, C33: the balls go back to the snapshot and the offender plays again from the
        original position with the ball on as before the miss."""
        assert st.pending is not None and st.pending.snapshot is not None
        snap = st.pending.snapshot
        warned = st.miss.warned or (self._limit_counts(st.miss)  # type: ignore[attr-defined]
                                    and st.miss.count >= self.miss_limit - 1)
        nxt = replace(st, striker=st.pending.offender, turn=st.pending.offender_turn,
                      resume=st.pending.offender_resume,
                      positions=self._replaced_positions(st), on_table=snap.on_table,
                      phase=snap.phase,
                      seq_colour=snap.seq_colour if snap.phase == Phase.SEQ else st.seq_colour,
                      last_red_colour=snap.last_red_colour, cue_in_hand=snap.cue_in_hand,
                      in_hand_area="D", free_ball=snap.free_ball, pending=None, replaced=True,
                      miss=replace(st.miss, warned=warned))
        if snap.phase == Phase.SEQ and snap.seq_colour not in st.on_table:
            nxt = replace(nxt, phase=st.phase, seq_colour=st.seq_colour)
        notes = ("WARNING: " + self.limit_warning().removeprefix("warning: "),) \
            if warned and self._limit_counts(st.miss) else ()  # type: ignore[attr-defined]
        return self._accept(inp, nxt, f"balls replaced; {nxt.player} plays again from the original "
                            "position", notes)

    @staticmethod
    def _replaced_positions(st: FrameState) -> dict[str, Any] | None:
        """C33, R14(f): every ball back where it was before the missed stroke, a ball potted
        in it included (R3(h) names R14(f) among the exceptions to "reds are not replaced");
        a ball the snapshot does not place stays where it lies."""
        snap = st.pending.snapshot if st.pending else None
        if snap is None or snap.positions is None:
            return None
        pos = {b: p for b, p in snap.positions.items() if b == "white" or b in snap.on_table}
        for b, p in (st.positions or {}).items():
            if b not in pos and b != "white" and b in snap.on_table:
                pos[b] = p
        return pos

    # ------------------------------------------------------------------ the end of a frame
    def _input_concede(self, st: FrameState, inp: OperatorInput) -> Handled:
        """S4 R5: only the striker concedes; flagged when snookers were not required; under
        aggregate scoring the other side gets the value of the balls left."""
        who = self._side_named(st, inp, "concede")
        if self.concede_striker_only and who != st.striker:
            return self._refuse(inp, st, "only the striker may concede, during his turn (S4 R5(a))")
        scores = list(st.scores)
        notes: tuple[str, ...] = ()
        if self.concede_striker_only and scores[1 - who] - scores[who] <= self.points_remaining(st):  # type: ignore[attr-defined]
            notes = ("conceded when snookers were not required: a conduct matter for the referee "
                     "(S4 R5(c))",)
        if st.context.aggregate:
            scores[1 - who] += self.balls_left_value(st)
            notes += ("aggregate scoring: the value of the balls left is added to the other side "
                      "(S4 R5(b))",)
        nxt = replace(st, scores=(scores[0], scores[1]), frame_over=True, winner=1 - who,
                      phase=Phase.OVER, end_reason="conceded", pending=None, awaiting_lots=False)
        return self._accept(inp, nxt, f"{st.players[who]} concedes", notes)

    @staticmethod
    def _side_named(st: FrameState, inp: OperatorInput, kind: str) -> int:
        """The side of the input's ``player`` (the striker when none is named).

        Raises:
            RuleError: the name is not a player of this frame.
        """
        if not inp.player:
            return st.striker
        side = st.side_of(inp.player)
        if side is None:
            raise RuleError(f"{kind}: {inp.player!r} is not a player of this frame "
                            f"({', '.join(st.order or st.players)})")
        return side

    def _input_claim(self, st: FrameState, inp: OperatorInput) -> Handled:
        """S2 R1(b): only the black left, aggregate scoring not in use, the striker more than
        7 ahead."""
        if not self.claim_rule:
            return self._refuse(inp, st, f"no claims in {self.name}")
        if self._side_named(st, inp, "claim") != st.striker:
            return self._refuse(inp, st, "only the striker may claim the frame (S2 R1(b))")
        if st.context.aggregate:
            return self._refuse(inp, st, "no claim under aggregate scoring (S2 R1(b))")
        lead = st.scores[st.striker] - st.scores[1 - st.striker]
        if st.on_table != frozenset({"black"}) or st.phase == Phase.RESPOTTED_BLACK or lead <= 7:
            return self._refuse(inp, st, "a claim needs only the black left and the striker more "
                                "than 7 ahead (S2 R1(b))")
        nxt = replace(st, frame_over=True, winner=st.striker, phase=Phase.OVER, end_reason="claimed",
                      pending=None)
        return self._accept(inp, nxt, f"{st.players[st.striker]} claims the frame")

    def _input_award(self, st: FrameState, inp: OperatorInput) -> Handled:
        """S4 R2(a): the frame forfeited: the offender's points cancelled, the other side gets
        8 per red and the colours (a colour wrongly off counted as if spotted)."""
        w = st.side_of(inp.player) if inp.player else None
        if w is None:
            raise RuleError(f"award_frame: {inp.player!r} is not a player of this frame")
        if st.frame_over:
            return self._refuse(inp, st, "the frame is already over")
        if not self.forfeit_scoring:
            nxt = replace(st, frame_over=True, winner=w, phase=Phase.OVER, end_reason="awarded",
                          pending=None, awaiting_lots=False)
            return self._accept(inp, nxt, f"frame awarded to {st.players[w]}")
        bonus = self.balls_left_value(st)
        scores = [0, 0]
        scores[w] = st.scores[w] + bonus
        nxt = replace(st, scores=(scores[0], scores[1]), frame_over=True, winner=w, phase=Phase.OVER,
                      end_reason="forfeit", pending=None, awaiting_lots=False)
        return self._accept(inp, nxt, f"frame awarded to {st.players[w]}: {bonus} added, the "
                            "offender's points cancelled (S4 R2)")

    def balls_left_value(self, st: FrameState) -> int:
        """S4 R2(a), R5(b): 8 per red plus the colours; while reds are left, or the colour
        after the last red is on, every colour counts (one wrongly off counts as if spotted)."""
        reds = self.reds(st.on_table)  # type: ignore[attr-defined]
        top = max(self.balls.value(c) for c in self.balls.colours)
        all_colours = bool(reds) or st.phase == Phase.COLOUR_CHOICE
        colours = [c for c in self.balls.colours if all_colours or c in st.on_table]
        return (1 + top) * len(reds) + sum(self.balls.value(c) for c in colours)

    # ------------------------------------------------------------------ who plays
    def _input_lots(self, st: FrameState, inp: OperatorInput) -> Handled:
        """R4(b)(ii), R17(d): who plays the re-spotted black (a player, or a side: its player
        next in the order)."""
        if st.phase != Phase.RESPOTTED_BLACK:
            return self._refuse(inp, st, "lots are drawn only for a re-spotted black")
        if not st.awaiting_lots:
            return self._refuse(inp, st, f"lots were already drawn: {st.player} is to play (a "
                                "striker input corrects who plays)")
        nxt = self._set_striker(st, inp, "lots")
        return self._accept(inp, nxt, f"{nxt.player} to play the re-spotted {self.last_ball} from "  # type: ignore[attr-defined]
                            "in-hand")

    def _input_striker(self, st: FrameState, inp: OperatorInput) -> Handled:
        """H14: correct who is to strike."""
        nxt = self._set_striker(st, inp, "striker")
        return self._accept(inp, nxt, f"{nxt.player} to play")

    @staticmethod
    def _set_striker(st: FrameState, inp: OperatorInput, kind: str) -> FrameState:
        side = st.side_of(inp.player) if inp.player else None
        if side is None:
            raise RuleError(f"{kind}: {inp.player!r} is not a player of this frame")
        turn = st.turn
        if st.order and inp.player in st.order:
            turn = st.order.index(inp.player)
        elif st.order:  # a side: its player next in the order
            n = len(st.order)
            turn = next((st.turn + j) % n for j in range(n)
                        if (st.breaker + (st.turn + j) % n) % 2 == side)
        return replace(st, striker=side, turn=turn, awaiting_lots=False)

    # ------------------------------------------------------------------ stalemate (C50)
    def _input_stalemate(self, st: FrameState, inp: OperatorInput) -> Handled:
        """S3 R16: the referee nullifies the scores and re-racks; the same player opens again
        (the correct one if the frame was started by the wrong player, R3(d)(iii)), with the
        same order of play."""
        if st.frame_over:
            return self._refuse(inp, st, "the frame is over")
        breaker = st.context.rotation_breaker if st.context.rotation_breaker is not None else st.breaker
        order = st.order
        if order and breaker != st.breaker:
            order = (*order[1:], order[0])
        fresh = self.new_frame(st.players, breaker, None, st.frame)  # type: ignore[attr-defined]
        nxt = replace(fresh, order=order, turn=0, context=st.context, options=st.options)
        return self._accept(inp, nxt, f"stalemate: scores nullified and the balls re-racked; "
                            f"{nxt.player} breaks again (S3 R16)")
