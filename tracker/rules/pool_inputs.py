"""Operator inputs of the pool games between shots: the choices the rules leave to a player
(002 2.4 after a push out, 3.3 after an eight-ball break), a concession (1.11), an award, a
stalemate (1.12, 2.9, 3.11) and who is to shoot. Mixed into :class:`tracker.rules.pool.PoolRules`.

Choices (``option`` input, ``choice``):
    ``play``: play the table as it lies (the cue ball where it stopped);
    ``in_hand_kitchen``: play with the cue ball in hand behind the head string;
    ``pass``: after a push out, the player who pushed must shoot again (2.4);
    ``rerack``: the balls re-racked, the player choosing breaks; ``rerack_offender``: re-racked,
    the player who broke illegally breaks again (3.3(d));
    ``respot``: the 8 spotted (3.3(e), (f)); ``rebreak``: re-racked and broken again (3.3(e), (f));
    ``solids`` / ``stripes`` (eight-ball, no choice pending needed): the operator sets the
    group of ``player`` (the striker by default) where the camera took the wrong ball as called.
"""

from __future__ import annotations

from dataclasses import replace

from tracker.records.shot import InputKind, OperatorInput
from tracker.rules.errors import RuleError
from tracker.rules.outcome import InputResult, input_result
from tracker.rules.state import FrameState, Phase

Handled = tuple[InputResult, FrameState]


class PoolInputRules:
    """Operator inputs for a pool game (needs ``PoolRules``' ``new_frame`` and ``choose``)."""

    name: str

    def apply_input(self, st: FrameState, inp: OperatorInput) -> Handled:
        """Apply an operator input between shots; an input that does not apply is refused
        with the reason (the state unchanged)."""
        if st.frame_over and inp.kind != InputKind.AWARD_FRAME:
            return _refuse(inp, st, "the rack is over")
        handlers = {InputKind.OPTION: self._input_option, InputKind.CONCEDE: self._input_concede,
                    InputKind.AWARD_FRAME: self._input_award,
                    InputKind.STRIKER: self._input_striker,
                    InputKind.STALEMATE: self._input_stalemate}
        if inp.kind not in handlers:
            return _refuse(inp, st, f"there is no {str(inp.kind).replace('_', ' ')} in "
                           f"{self.name.replace('-', ' ')}")
        return handlers[inp.kind](st, inp)

    def choose(self, st: FrameState, pick: str) -> FrameState:
        """The state after the pending choice ``pick`` (each game adds its own picks)."""
        choice = st.game.choice
        assert choice is not None
        cleared = replace(st, game=replace(st.game, choice=None))
        if pick == "play":
            return cleared
        if pick == "in_hand_kitchen":
            pos = {b: p for b, p in (st.positions or {}).items() if b != "white"}
            return replace(cleared, cue_in_hand=True, in_hand_area="kitchen",
                           positions=pos if st.positions is not None else None)
        if pick == "rerack":
            return self.rerack(st, choice.side)
        if pick == "rerack_offender":
            return self.rerack(st, 1 - choice.side)
        raise RuleError(f"{pick!r} is not a choice of {self.name}")  # pragma: no cover

    def rerack(self, st: FrameState, breaker: int) -> FrameState:
        """The balls racked again and ``breaker`` to break; the frame goes on (its number, the
        match around it and the order of play are kept)."""
        fresh = self.new_frame(st.players, breaker, None, st.frame)  # type: ignore[attr-defined]
        return replace(fresh, order=st.order, turn=st.turn, context=st.context, shots=st.shots,
                       game=replace(fresh.game, rack=st.game.rack + 1))

    # ------------------------------------------------------------------ the handlers
    def _input_option(self, st: FrameState, inp: OperatorInput) -> Handled:
        choice = st.game.choice
        if choice is None:
            return _refuse(inp, st, "no choice is open: option ignored")
        if inp.choice not in choice.options:
            return _refuse(inp, st, f"{inp.choice!r} is not open (open: "
                           f"{', '.join(choice.options)})")
        if inp.player and st.side_of(inp.player) != choice.side:
            return _refuse(inp, st, f"the choice is {st.players[choice.side]}'s")
        nxt = self.choose(st, inp.choice)
        return _accept(inp, nxt, f"{st.players[choice.side]} chose "
                       f"{inp.choice.replace('_', ' ')}: {nxt.player} to shoot")

    def _input_concede(self, st: FrameState, inp: OperatorInput) -> Handled:
        who = _side(st, inp, "concede") if inp.player else st.striker
        nxt = replace(st, frame_over=True, winner=1 - who, phase=Phase.OVER, end_reason="conceded",
                      scores=(1, 0) if who == 1 else (0, 1), game=replace(st.game, choice=None))
        return _accept(inp, nxt, f"{st.players[who]} concedes", (
            "002 1.11: a player who concedes loses the match; enter award_game if so",))

    def _input_award(self, st: FrameState, inp: OperatorInput) -> Handled:
        w = _side(st, inp, "award_frame")
        if st.frame_over:
            return _refuse(inp, st, "the rack is already over")
        nxt = replace(st, frame_over=True, winner=w, phase=Phase.OVER, end_reason="awarded",
                      scores=(1, 0) if w == 0 else (0, 1), game=replace(st.game, choice=None))
        return _accept(inp, nxt, f"rack awarded to {st.players[w]}")

    def _input_striker(self, st: FrameState, inp: OperatorInput) -> Handled:
        side = _side(st, inp, "striker")
        turn = st.order.index(inp.player) if inp.player in st.order else st.turn
        nxt = replace(st, striker=side, turn=turn)
        return _accept(inp, nxt, f"{nxt.player} to shoot")

    def _input_stalemate(self, st: FrameState, inp: OperatorInput) -> Handled:
        """002 2.9, 3.11: the original breaker of the rack breaks again."""
        nxt = self.rerack(st, st.breaker)
        return _accept(inp, nxt, f"stalemate: the balls are racked again and "
                       f"{st.players[st.breaker]} breaks again")


def _side(st: FrameState, inp: OperatorInput, kind: str) -> int:
    side = st.side_of(inp.player) if inp.player else None
    if side is None:
        raise RuleError(f"{kind}: {inp.player!r} is not a player of this rack")
    return side


def _refuse(inp: OperatorInput, st: FrameState, why: str) -> Handled:
    return input_result(str(inp.kind), False, why, st), st


def _accept(inp: OperatorInput, st: FrameState, msg: str, notes: tuple[str, ...] = ()
            ) -> Handled:
    return input_result(str(inp.kind), True, msg, st, notes), st

