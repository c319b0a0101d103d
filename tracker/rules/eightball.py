"""Eight-ball (002 "Pool Billiards" section 3, with the General Rules and Fouls it cites).

Fifteen object balls racked in a triangle, the 8 in the middle (3.2). The break is from
behind the head string with no call; pocketing nothing it must drive four object balls to a
cushion, else the incoming player chooses to play on, re-rack and break, or have the breaker
break again (3.3(d)). The 8 on a legal break is no foul: the breaker chooses to have it
spotted or to break again (3.3(e)); with a scratch the opponent chooses (3.3(f)); any other
break foul gives the opponent the table as it lies or the cue ball in hand behind the head
string (3.3(g), (h)). After the break the table is open: any ball but the 8 may be hit first,
and the first called ball legally pocketed gives its group, solids 1-7 or stripes 9-15, to the
shooter (3.4). Shots are called (3.6, 1.6): the call travels as the shot's ``nomination``
(``3``, ``3@top_left``, ``safety``); a shot with no call entered takes the first ball of the
shooter's group pocketed as called (the camera cannot hear a call). The shooter stays at the
table while he legally pockets called balls (3.5). He wins by pocketing the 8, called, once
his group is cleared; he loses the rack by pocketing the 8 on a foul, before his group is
cleared or in an uncalled pocket, or by driving it off the table (3.8). After a foul the
opponent has the cue ball in hand anywhere (3.9). Eight-ball has no three-foul rule (6.14).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from tracker.records.shot import EventType, OperatorInput
from tracker.rules.outcome import InputResult, Outcome, input_result
from tracker.rules.pool import PoolRules
from tracker.rules.pool_racks import EIGHT_BALL_ROWS, spot_position
from tracker.rules.pool_types import (
    BREAK_RAIL_BALLS,
    GROUPS,
    Choice,
    PoolStroke,
    group_of,
    other_group,
)
from tracker.rules.state import FrameState, Position, Respot

EIGHT = "8"


@dataclass(frozen=True)
class EightBallRules(PoolRules):
    """Eight-ball as 002 section 3 writes it (alternate break, 3.1)."""

    name: str = "eight-ball"
    fouls_section: ClassVar[str] = "3.9"
    n_objects: ClassVar[int] = 15
    rows: ClassVar[tuple[tuple[str, ...], ...]] = EIGHT_BALL_ROWS

    # ------------------------------------------------------------------ the ball on
    @staticmethod
    def on_eight(st: FrameState, side: int) -> bool:
        """``side`` has a group and none of it is left on the table."""
        grp = st.game.groups[side]
        return grp is not None and not set(GROUPS[grp]) & st.on_table

    def legal_first(self, s: PoolStroke) -> tuple[frozenset[str], str]:
        """Any ball on the break (3.3(b)); on an open table any but the 8 (3.4); the
        shooter's group, or the 8 once it is cleared (6.2)."""
        st = s.st
        if s.is_break:
            return frozenset(st.on_table), "any ball"
        grp = st.game.groups[st.striker]
        if grp is None:
            return frozenset(st.on_table - {EIGHT}), "a solid or a stripe (the table is open)"
        if self.on_eight(st, st.striker):
            return frozenset({EIGHT}), "the 8"
        return frozenset(GROUPS[grp]) & st.on_table, f"one of the {grp}"

    def ball_on_label(self, st: FrameState) -> str:
        """``open``, ``solids``, ``stripes`` or ``8`` for the next shooter (``none`` once the
        rack is over)."""
        if st.frame_over:
            return "none"
        grp = st.game.groups[st.striker]
        if grp is None:
            return "open"
        return EIGHT if self.on_eight(st, st.striker) else grp

    def choose(self, st: FrameState, pick: str) -> FrameState:
        """``respot``: the 8 on the foot spot, the table played as it lies; ``rebreak``:
        re-racked, the player choosing breaks (3.3(e), (f))."""
        choice = st.game.choice
        assert choice is not None
        if pick == "rebreak":
            return self.rerack(st, choice.side)
        if pick != "respot":
            return super().choose(st, pick)
        spot = spot_position(self.table, st.positions)
        pos = {**st.positions, EIGHT: spot} if st.positions is not None else None
        return replace(st, on_table=st.on_table | {EIGHT}, positions=pos,
                       game=replace(st.game, choice=None))

    def _input_option(self, st: FrameState, inp: OperatorInput) -> tuple[InputResult, FrameState]:
        """Besides the break's choices: the operator sets a player's group (``solids`` /
        ``stripes``, the other player the other group) where the camera took the wrong ball as
        called (002 3.4 gives the group of the called ball legally pocketed)."""
        if inp.choice not in GROUPS:
            return super()._input_option(st, inp)
        side = st.side_of(inp.player) if inp.player else st.striker
        if side is None:
            return input_result("option", False, f"{inp.player} is not a player of this rack",
                                st), st
        mine = inp.choice
        groups = (mine, other_group(mine)) if side == 0 else (other_group(mine), mine)
        nxt = replace(st, game=replace(st.game, groups=groups))
        return input_result("option", True, f"{st.players[side]} has the {mine}, "
                            f"{st.players[1 - side]} the {other_group(mine)}", nxt), nxt

    # ------------------------------------------------------------------ the call
    def _call(self, s: PoolStroke) -> tuple[Outcome, FrameState]:
        return self._break(s) if s.is_break else self._play(s)

    def _break(self, s: PoolStroke) -> tuple[Outcome, FrameState]:
        """3.3: the break's own outcomes, in the order the rule lists them."""
        f, st = s.facts, s.st
        gone = set(f.potted) | set(f.objects_off)
        eight_down = EIGHT in f.potted
        illegal = not f.potted and len(self.balls_to_rail(s)) < BREAK_RAIL_BALLS
        spotted: dict[str, Position | None] = {}
        if EIGHT in f.objects_off or (eight_down and s.fouls and not f.cue_gone):
            spotted[EIGHT] = spot_position(self.table, self.positions_after(s, gone, {}))
            s.notes.append("the 8 is spotted on the foot spot (002 3.7)")
        keep, choice = False, None
        if eight_down and f.cue_gone:
            choice = Choice(st.opponent, ("respot", "rebreak"), "the 8 and a scratch on the break")
            s.notes.append(f"the 8 and the cue ball went down on the break: {st.players[st.opponent]} "
                           "has the 8 spotted and the cue ball in hand behind the head string, "
                           "or breaks again (002 3.3(f))")
        elif eight_down and not s.fouls:
            keep = True
            choice = Choice(st.striker, ("respot", "rebreak"), "the 8 on a legal break")
            s.notes.append(f"the 8 on a legal break, no foul: {st.player} has the 8 spotted and "
                           "plays on, or breaks again (002 3.3(e))")
        elif s.fouls or illegal:
            choice = self._break_foul_choice(s, illegal)
        else:
            keep = bool(f.potted)
            s.notes.append("a legal break: the table is open" + (
                f"; {st.player} plays on (002 3.3(c))" if keep else ""))
        game = replace(s.g, break_due=False, choice=choice)
        on_table = frozenset((st.on_table - gone) | set(spotted))
        after = self.after_shot(s, keep=keep, on_table=on_table, game=game, foul=False,
                                positions=self.positions_after(s, gone, spotted))
        if f.cue_gone or (choice and choice.options[0] == "in_hand_kitchen"):
            after = replace(after, cue_in_hand=True, in_hand_area="kitchen")
        respots = tuple(Respot(b, p, "foot_spot") for b, p in spotted.items())
        return self._outcome(s, respots, choice), after

    def _break_foul_choice(self, s: PoolStroke, illegal: bool) -> Choice:
        """3.3(d), (g), (h): the incoming player's options after an illegal break or a foul."""
        st = s.st
        base = () if not s.fouls else (("in_hand_kitchen",) if s.facts.cue_gone
                                       else ("play", "in_hand_kitchen"))
        rerack = ("rerack", "rerack_offender") if illegal else ()
        if illegal:
            s.notes.append("an illegal break: nothing pocketed and fewer than four object balls "
                           f"reached a cushion; {st.players[st.opponent]} plays the table as it "
                           "lies, or re-racks and breaks, or has the breaker break again "
                           "(002 3.3(d))")
        if s.fouls:
            s.notes.append(f"a foul on the break: {st.players[st.opponent]} "
                           + ("has the cue ball in hand behind the head string" if s.facts.cue_gone
                              else "plays the table as it lies or takes the cue ball in hand "
                              "behind the head string") + " (002 3.3(g), (h))")
        options = tuple(dict.fromkeys(("play", *rerack) if not s.fouls else (*base, *rerack)))
        return Choice(st.opponent, options, "an illegal break" if illegal else "a break foul")

    def _play(self, s: PoolStroke) -> tuple[Outcome, FrameState]:
        """3.4-3.9: groups, called balls, the 8, fouls."""
        f, st, g = s.facts, s.st, s.g
        side = st.striker
        gone = set(f.potted) | set(f.objects_off)
        self._infer_call(s)
        if EIGHT in gone:
            return self._eight_down(s)
        foul = bool(s.fouls)
        legal, _ = self.legal_first(s)
        made = not foul and not s.safety and s.called in f.potted and s.called in legal
        groups = g.groups
        if made and groups[side] is None:
            mine = group_of(s.called)  # type: ignore[arg-type]
            assert mine is not None
            groups = (mine, other_group(mine)) if side == 0 else (other_group(mine), mine)
            s.notes.append(f"{st.player} takes the {mine}; {st.players[1 - side]} the "
                           f"{other_group(mine)} (002 3.4)")
        if s.safety:
            s.notes.append("a called safety: play passes (002 3.6)")
        game = replace(g, groups=groups)
        after = self.after_shot(s, keep=made, on_table=frozenset(st.on_table - gone), game=game,
                                foul=foul, positions=self.positions_after(s, gone, {}))
        if foul:
            s.notes.append(f"cue ball in hand anywhere on the table for {after.player} (002 3.9)")
        return self._outcome(s, ()), after

    def _infer_call(self, s: PoolStroke) -> None:
        """No call entered: the first ball pocketed that the shooter could call is taken as
        called (the 8 once his group is cleared)."""
        if s.called is not None or s.safety:
            return
        legal, _ = self.legal_first(s)
        pick = next((b for b in s.facts.potted if b in legal), None)
        if pick is not None:
            s.called = pick
            s.notes.append(f"no call entered: the {pick} pocketed is taken as called (002 1.6)")

    def _eight_down(self, s: PoolStroke) -> tuple[Outcome, FrameState]:
        """3.8: the 8 pocketed or driven off after the break: the rack won or lost."""
        f, st = s.facts, s.st
        pot = next((e for e in s.shot.events if e.type == EventType.POT and e.ball == EIGHT), None)
        loss = None
        if EIGHT in f.objects_off:
            loss = "the 8 driven off the table (002 3.8(d))"
        elif s.fouls:
            loss = "the 8 pocketed on a foul (002 3.8(a))"
        elif not self.on_eight(st, st.striker):
            loss = "the 8 pocketed before the group was cleared (002 3.8(b))"
        elif s.called != EIGHT:
            loss = "the 8 pocketed without being called (002 3.8(c))"
        elif s.called_pocket and pot is not None and pot.pocket != s.called_pocket:
            loss = f"the 8 pocketed in the {pot.pocket}, not the called {s.called_pocket} (002 3.8(c))"
        done = replace(st, shots=st.shots + 1)
        if loss:
            s.notes.append(f"{st.player} loses the rack: {loss}")
            return self._outcome(s, ()), self.won(done, st.opponent, "eight_ball_lost")
        if s.called_pocket is None:
            s.review.append("the pocket of the 8 was not called: check it went where it was called "
                            "(002 3.8(c))")
        s.notes.append(f"the 8 legally pocketed: {st.player} wins the rack (002 3.5)")
        return self._outcome(s, ()), self.won(done, st.striker, "eight_ball")

    def _outcome(self, s: PoolStroke, respots: tuple[Respot, ...],
                 choice: Choice | None = None) -> Outcome:
        return Outcome(fouls=tuple(s.fouls), potted=s.facts.potted, respots=respots,
                       options=choice.options if choice else (),
                       nominated=s.shot.nomination or s.called, notes=tuple(s.notes),
                       review=tuple(s.review))

