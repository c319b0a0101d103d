"""Nine-ball (002 "Pool Billiards" section 2, with the General Rules and Fouls it cites).

Nine object balls 1..9 racked in a diamond, the 1 on the foot spot and the 9 in the middle
(2.2). The cue ball must first hit the lowest-numbered ball on the table (6.2); a shot that
pockets no ball must then drive a ball to a cushion (6.3). A legally pocketed ball keeps the
shooter at the table; the 9 legally pocketed on any shot, the break included, wins the rack
(2.5). The break is from behind the head string and, pocketing nothing, must drive four object
balls to a cushion (2.3). On the shot after a break with no foul the shooter may declare a
push out (``push_out`` as the shot's nomination): 6.2 and 6.3 are suspended, and the other
player chooses who shoots next (2.4). After a standard foul the opponent has the cue ball in
hand anywhere (2.7); the 9 pocketed on a foul or a push out, or driven off the table, is
spotted, no other ball (2.6). Three fouls in a row in one rack lose it; the referee warns a
player on two fouls when he comes to the table (2.8, 6.14).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from tracker.records.shot import EventType, Shot
from tracker.rules.outcome import Outcome
from tracker.rules.pool import PoolRules
from tracker.rules.pool_racks import NINE_BALL_ROWS, spot_position
from tracker.rules.pool_types import BREAK_RAIL_BALLS, SERIOUS_FOUL_COUNT, Choice, PoolStroke
from tracker.rules.state import FrameState, Position, Respot

NINE = "9"


@dataclass(frozen=True)
class NineBallRules(PoolRules):
    """Nine-ball as 002 section 2 writes it (alternate break, 2.1)."""

    name: str = "nine-ball"
    fouls_section: ClassVar[str] = "2.7"
    n_objects: ClassVar[int] = 9
    rows: ClassVar[tuple[tuple[str, ...], ...]] = NINE_BALL_ROWS

    @staticmethod
    def lowest(on_table: frozenset[str]) -> str | None:
        """The lowest-numbered ball on the table."""
        return min(on_table, key=int, default=None)

    def legal_first(self, s: PoolStroke) -> tuple[frozenset[str], str]:
        """The lowest-numbered ball on the table (6.2, on the break too)."""
        low = self.lowest(s.st.on_table)
        return frozenset({low} if low else ()), f"the {low}"

    def ball_on_label(self, st: FrameState) -> str:
        """The lowest ball on the table (``none`` once the rack is over)."""
        return "none" if st.frame_over else (self.lowest(st.on_table) or "none")

    # ------------------------------------------------------------------ the push-out choice
    def default_choice(self, st: FrameState, shot: Shot) -> str:
        """After a push out the record's striker says who was chosen to shoot (the other
        player by default)."""
        choice = st.game.choice
        assert choice is not None
        if "pass" in choice.options and shot.striker is not None \
                and st.side_of(shot.striker) == 1 - choice.side:
            return "pass"
        return super().default_choice(st, shot)

    def choose(self, st: FrameState, pick: str) -> FrameState:
        """``play``: the player who chooses shoots; ``pass``: the one who pushed out."""
        choice = st.game.choice
        assert choice is not None
        if pick not in ("play", "pass"):
            return super().choose(st, pick)
        side = choice.side if pick == "play" else 1 - choice.side
        if side == st.striker:
            turn = st.turn
        else:
            side, turn = st.pass_turn()
        return replace(st, striker=side, turn=turn, game=replace(st.game, choice=None))

    # ------------------------------------------------------------------ the call
    def _call(self, s: PoolStroke) -> tuple[Outcome, FrameState]:
        f, st, g = s.facts, s.st, s.g
        if s.is_break and not f.potted and len(rail := self.balls_to_rail(s)) < BREAK_RAIL_BALLS:
            s.fouls.append(self._foul("bad_break", f"{len(rail)}", balls=tuple(sorted(rail, key=int))))
        foul = bool(s.fouls)
        gone = set(f.potted) | set(f.objects_off)
        nine_gone = NINE in gone
        won = nine_gone and not foul and not s.push_out and NINE in f.potted
        if won and not self._nine_sure(s):
            won = False
            s.review.append("the camera is not sure the ball potted was the 9: the rack goes "
                            "on; check it (a legally pocketed 9 wins the rack, 002 2.5)")
        if won:
            s.notes.append(f"the 9 legally pocketed: {st.player} wins the rack (002 2.5)")
            return self._outcome(s, ()), self.won(replace(st, shots=st.shots + 1), st.striker,
                                                  "nine_ball")
        count = g.fouls[st.striker] + 1 if foul else 0
        fouls = (count, g.fouls[1]) if st.striker == 0 else (g.fouls[0], count)
        if count >= SERIOUS_FOUL_COUNT:
            s.notes.append(f"{st.player}'s third foul in a row: the rack is lost (002 2.8, 6.14)")
            return self._outcome(s, ()), self.won(replace(st, shots=st.shots + 1), st.opponent,
                                                  "three_fouls")
        spotted: dict[str, Position | None] = {}
        if nine_gone:
            spotted[NINE] = spot_position(self.table, self.positions_after(s, gone, {}))
            s.notes.append("the 9 is spotted on the foot spot (002 2.6)")
        keep = not foul and not s.push_out and bool(f.potted)
        choice = None
        if s.push_out and not foul:
            choice = Choice(st.opponent, ("play", "pass"), "a push out (002 2.4)")
            s.notes.append(f"push out: {st.players[st.opponent]} chooses who shoots next "
                           "(002 2.4)")
        game = replace(g, break_due=False, push_out_open=s.is_break and not foul, fouls=fouls,
                       choice=choice)
        on_table = frozenset((st.on_table - gone) | set(spotted))
        after = self.after_shot(s, keep=keep, on_table=on_table, game=game, foul=foul,
                                positions=self.positions_after(s, gone, spotted))
        if foul:
            s.notes.append(f"cue ball in hand anywhere on the table for {after.player} (002 2.7)")
        if after.game.fouls[after.striker] == SERIOUS_FOUL_COUNT - 1:
            s.notes.append(f"WARNING: {after.player} is on two fouls: a third foul in a row "
                           "loses the rack (002 6.14)")
        if game.push_out_open and not s.push_out:
            s.notes.append(f"{after.player} may play a push out (002 2.4)")
        respots = tuple(Respot(b, p, "foot_spot") for b, p in spotted.items())
        return self._outcome(s, respots, choice), after

    def _nine_sure(self, s: PoolStroke) -> bool:
        """Whether the record is sure the ball potted was the 9 (its pot's confidence at least
        ``review_confidence``): a rack ends on a 9 the camera told apart for sure."""
        return all(e.confidence >= self.options.review_confidence for e in s.shot.events
                   if e.type == EventType.POT and NINE in e.balls)

    def _outcome(self, s: PoolStroke, respots: tuple[Respot, ...],
                 choice: Choice | None = None) -> Outcome:
        return Outcome(fouls=tuple(s.fouls), potted=s.facts.potted, respots=respots,
                       options=choice.options if choice else (),
                       nominated=s.shot.nomination, notes=tuple(s.notes), review=tuple(s.review))
