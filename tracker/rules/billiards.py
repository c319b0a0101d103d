"""English billiards (002 "The Official Rules of English Billiards", cited EB) and the 000
"Snooker - 1 red" variant played with snooker balls (white, yellow, red), on the same engine:
the stroke read by :mod:`tracker.rules.stroke`, the decision built by
:mod:`tracker.rules.outcome`.

Three balls: each side's cue ball (the plain white and the spot white; white and yellow in
the 000 set) and the red. A fair stroke scores every cannon (2: the cue ball meets both
object balls), pot (red 3, white 2) and in-off (off the red 3, off the white 2; off the first
ball met, 2 when both were met together) it makes (EB S3 R4). Consecutive hazards (scoring
strokes without a cannon) are limited to 15 and cannons without a hazard to 75 (EB S3 R9,
R10). The red goes back on the Spot (then the Pyramid, then the Centre spot); potted twice
running from the Spot or Pyramid alone in a break, it goes on the Centre spot (EB S3 R8).
A miss (the cue ball meets no ball) costs 2 but is not a foul unless it is a coup (EB S3
R16); every foul costs 2 and lets the next player also play from in-hand with the red on the
Spot and the other white on the Centre spot (EB S3 R15). Breaks continue from in-hand after
an in-off, and from in-hand with the balls spotted when the cue ball stops touching a ball
(EB S3 R13). The game ends at a points target or when the referee calls TIME (EB S3 R5).

This module holds the set-up, ``decide``, reading the record and the operator inputs; the
fouls, scoring and limits are in :mod:`tracker.rules.billiards_fouls`, the state after the
stroke in :mod:`tracker.rules.billiards_after`, the types they share in
:mod:`tracker.rules.billiards_types`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules.ballset import BallSet, billiards_balls
from tracker.rules.billiards_after import BilliardsAfterRules
from tracker.rules.billiards_fouls import BilliardsFoulRules
from tracker.rules.billiards_types import BilliardsState, BilliardsStroke
from tracker.rules.errors import RuleError
from tracker.rules.options import RuleOptions
from tracker.rules.outcome import InputResult, input_result
from tracker.rules.state import Decision, FrameState, Phase, Position
from tracker.rules.stroke import check_events, check_positions, read_stroke, record_warnings

Handled = tuple[InputResult, FrameState]


@dataclass(frozen=True)
class EnglishBilliardsRules(BilliardsFoulRules, BilliardsAfterRules):
    """English billiards (002), or the 000 "Snooker - 1 red" variant.

    Attributes:
        name: registry name.
        second_ball: the other side's cue ball: ``spot`` (the spot white) or ``yellow``.
        miss_is_foul: 000 (D38): a miss of both balls is a 2-point foul with the foul options.
        touching_by_agreement: 000 2.10 (D37): the touching-ball spotting only if both agree.
        baulk_crossing: 000 2.13: between 80 and 99 of each hundred of a break the cue ball
            must cross the baulk line and stop in baulk.
        fouls_rule: the rule that lists the fouls (cited for the fouls shared with snooker).
        table, options: geometry and rule options.
    """

    name: str = "english-billiards"
    second_ball: str = "spot"
    miss_is_foul: bool = False
    touching_by_agreement: bool = False
    baulk_crossing: bool = False
    fouls_rule: str = "EB S3 R14"
    table: TableGeometry = STANDARD_TABLE
    options: RuleOptions = field(default_factory=RuleOptions)

    OPTIONS: ClassVar[frozenset[str]] = frozenset(
        ["hanging_ball_s", "touching_gap_mm", "in_hand_tolerance_mm", "simultaneous_s",
         "review_confidence", "hazard_limit", "cannon_limit", "game_points", "breaker_ball"])

    def with_options(self, options: RuleOptions, table: TableGeometry | None = None
                     ) -> EnglishBilliardsRules:
        """The same game with other options or another table."""
        return replace(self, options=options, table=table or self.table)

    @cached_property
    def balls(self) -> BallSet:
        """The three balls."""
        return billiards_balls(self.second_ball)

    def spots(self) -> dict[str, Position]:
        """The billiards spots (EB S1): the Spot, Pyramid, Centre, Middle of the Baulk-line,
        and the right-hand corner of the D."""
        s = self.table.spots
        return {"spot": s["black"], "pyramid": s["pink"], "centre": s["blue"],
                "baulk_middle": s["brown"], "d_right": s["yellow"]}

    def setup_positions(self) -> dict[str, Position]:
        """The red on the Spot; both cue balls in hand (EB S3 R2)."""
        return {"red": self.spots()["spot"]}

    def new_frame(self, players: tuple[str, str], breaker: int = 0,
                  positions: Mapping[str, Position] | None = None, frame: int = 1) -> FrameState:
        """A game: the red on the Spot, the breaker in hand with his ball (the white, or the
        ``breaker_ball`` option), the other ball in hand too (EB S3 R2; 000 2.3.3)."""
        pos = dict(positions) if positions is not None else self.setup_positions()
        first = self.options.breaker_ball if self.options.breaker_ball in self.balls.cue_balls \
            else self.balls.cue
        second = next(b for b in self.balls.cue_balls if b != first)
        cue_of = (first, second) if breaker == 0 else (second, first)
        game = BilliardsState(cue_of=cue_of, red_spot="spot" if positions is None else None)
        return FrameState(ruleset=self.name, players=players, scores=(0, 0), striker=breaker,
                          breaker=breaker, on_table=frozenset(pos), phase=Phase.OPEN,
                          cue_in_hand=cue_of[breaker] not in pos, positions=pos,
                          options=self.options.to_dict(), frame=frame, game=game)

    # ------------------------------------------------------------------ queries
    def ball_on_label(self, st: FrameState) -> str:
        """No ball on in billiards: ``any`` (``none`` once the game is over)."""
        return "none" if st.frame_over else "any"

    def points_remaining(self, st: FrameState) -> int:
        """Billiards has no points on the table; the points still needed for the target."""
        target = self.options.game_points
        return 0 if target is None else max(0, target - max(st.scores))

    def snookers_required(self, st: FrameState) -> dict[str, int]:
        """Not a billiards notion: none."""
        return {}

    def touching_call(self, st: FrameState) -> tuple[tuple[str, ...], str | None]:
        """The ball touching the next striker's ball when the players must agree (000)."""
        if not st.game.touching_offer:
            return (), None
        cue = st.game.cue_of[st.striker]
        touching = self._touching(st.positions, cue)
        return touching, ("TOUCHING BALL: the red may be spotted, the other ball put on the "
                          "centre spot and the striker play from in-hand if both players agree "
                          "(option spot_balls; 000 2.10)")

    # ------------------------------------------------------------------ the stroke
    def decide(self, st: FrameState, shot: Shot) -> tuple[Decision, FrameState]:
        """Call one stroke of English billiards.

        Raises:
            RuleError: the record is impossible (a ball of another game, the game over...).
        """
        if st.frame_over:
            raise RuleError(f"shot {shot.shot}: the game is over; start a new one first")
        s = self._begin(st, shot)
        if shot.operator.not_a_stroke:
            s.notes.append("not a stroke: the tip touched the cue ball while placing it (EB S3 R6)")
            return self._unchanged(s)
        if s.facts.strike is None:
            return self._before_stroke(s)
        if st.shots == 0 and s.facts.strike.ball == s.other:
            s.notes.append(f"the opening stroke was played with the {s.other}: void; the game "
                           f"starts again with the {s.cue} (EB S3 R2)")
            return self._unchanged(s)
        self._call_stroke(s)
        if shot.operator.lip_would_be_hit:
            return self._replay(s)
        return self._after_stroke(s)

    def _begin(self, st: FrameState, shot: Shot) -> BilliardsStroke:
        check_events(shot.events, shot.shot)
        check_positions(shot, self.table.length, self.table.width)
        notes: list[str] = []
        review = list(shot.needs_review)
        st, out_of_turn = self._resolve_striker(st, shot, review)
        struck = next((self.balls.aliases.get(e.balls[0], e.balls[0]) for e in shot.events
                       if e.type == EventType.STRIKE and e.balls), None)
        events = [self._resolve(st, shot, e, struck) for e in shot.events]
        shot = replace(shot, positions_before=self._named(shot.positions_before, shot),
                       positions_after=self._named(shot.positions_after, shot))
        g: BilliardsState = st.game
        cue = g.cue_of[st.striker]
        other = g.cue_of[1 - st.striker]
        facts = read_stroke(events, cue, self.options.simultaneous_s, self.options.hanging_ball_s)
        review.extend(record_warnings(facts))
        pre = dict(shot.positions_before) if shot.positions_before is not None else (
            dict(st.positions) if st.positions is not None and cue in st.positions else None)
        return BilliardsStroke(st, g, replace(shot, events=tuple(events)), cue, other, facts, pre, notes,
                       review, out_of_turn=out_of_turn)

    def _call_stroke(self, s: BilliardsStroke) -> None:
        """Fouls, then (if none) the scoring and the limits, then the miss."""
        contacts = s.facts.cue_contacts
        if contacts and contacts[0].confidence < self.options.review_confidence:
            s.review.append("the camera is not sure which ball the cue ball hit first "
                            f"(confidence {contacts[0].confidence:.2f}): check the first contact")
        for find in (self._fouls_at_strike, self._fouls_in_hand, self._fouls_in_play,
                     self._fouls_entered):
            s.fouls.extend(find(s))
        if not s.facts.cue_contacts and s.facts.strike.ball == s.cue:  # type: ignore[union-attr]
            self._miss_or_coup(s)
        if not s.fouls:
            s.scoring = self.scoring(s.facts, s.cue, s.st.on_table)
            s.fouls.extend(self._fouls_of_limits(s))
            s.fouls.extend(self._foul_baulk_crossing(s))
        if s.fouls:
            s.scoring, s.miss = [], False

    def _resolve_striker(self, st: FrameState, shot: Shot, review: list[str]
                         ) -> tuple[FrameState, bool]:
        """The expected striker, or a player out of turn (True: a foul, EB S3 R14)."""
        try:
            return st.with_recorded_striker(shot.striker, shot.shot, review, "game", "EB S3 R14")
        except ValueError as exc:
            raise RuleError(str(exc)) from None

    def _named(self, pos: Mapping[str, Position] | None, shot: Shot) -> dict[str, Position] | None:
        """Positions with the ball names of this set (``spot_white`` -> ``spot``), checked."""
        if pos is None:
            return None
        out = {self.balls.aliases.get(k, k): v for k, v in pos.items()}
        bad = sorted(b for b in out if b not in self.balls.ids)
        if bad:
            raise RuleError(f"shot {shot.shot}: {', '.join(bad)} not a ball of {self.name} "
                            f"({', '.join(self.balls.ids)})")
        return out

    def _resolve(self, st: FrameState, shot: Shot, e: Event, struck: str | None) -> Event:
        """Check each ball of an event: of this set, on the table unless it is the ball struck
        (it may come from in-hand)."""
        names = []
        for b in e.balls:
            b = self.balls.aliases.get(b, b)
            if not self.balls.is_valid(b):
                raise RuleError(f"shot {shot.shot}: {b!r} is not a ball of {self.name} "
                                f"({', '.join(self.balls.ids)})")
            if b not in (struck, st.game.cue_of[st.striker]) and b not in st.on_table:
                raise RuleError(f"shot {shot.shot}: a {e.type} event names the {b}, which is not on "
                                "the table")
            names.append(b)
        return replace(e, balls=tuple(names))

    # ------------------------------------------------------------------ inputs
    def apply_input(self, st: FrameState, inp: OperatorInput) -> Handled:
        """The choice after a foul (EB S3 R15), concession (S4 R6), award (S4 R2, R3),
        TIME (S3 R5), who strikes."""
        if st.frame_over and inp.kind != InputKind.AWARD_FRAME:
            return input_result(str(inp.kind), False, "the game is over", st), st
        handlers = {InputKind.OPTION: self._input_option, InputKind.CONCEDE: self._input_concede,
                    InputKind.AWARD_FRAME: self._input_award, InputKind.TIME: self._input_time,
                    InputKind.STRIKER: self._input_striker}
        if inp.kind not in handlers:
            return input_result(str(inp.kind), False, f"no {inp.kind} in English billiards", st), st
        return handlers[inp.kind](st, inp)

    def _input_option(self, st: FrameState, inp: OperatorInput) -> Handled:
        open_ = st.pending.options if st.pending else (("play", "spot_balls")
                                                       if st.game.touching_offer else ())
        if inp.choice not in open_:
            why = f"option {inp.choice!r} is not open" + (f" (open: {', '.join(open_)})" if open_ else "")
            return input_result("option", False, why, st), st
        if inp.choice == "play":
            nxt = replace(st, pending=None, game=replace(st.game, touching_offer=False))
            return input_result("option", True, f"{st.player} plays from where the balls are", nxt), nxt
        cue = st.game.cue_of[st.striker]
        nxt, _ = self._spot_both(replace(st, pending=None), cue, other_always=st.pending is not None)
        return input_result("option", True, f"{st.player} plays from in-hand; the red on the Spot, "
                            "the other white on the Centre spot", nxt), nxt

    def _input_concede(self, st: FrameState, inp: OperatorInput) -> Handled:
        who = st.side_of(inp.player) if inp.player else st.striker
        if who != st.striker:
            return input_result("concede", False, "only the striker may concede (EB S4 R6)", st), st
        nxt = replace(st, frame_over=True, winner=1 - st.striker, phase=Phase.OVER,
                      end_reason="conceded", pending=None)
        return input_result("concede", True, f"{st.players[who]} concedes", nxt), nxt

    def _input_award(self, st: FrameState, inp: OperatorInput) -> Handled:
        """EB S4 R3: the offender forfeits his points; the other wins by the target to nil."""
        w = st.side_of(inp.player) if inp.player else None
        if w is None:
            raise RuleError(f"award_frame: {inp.player!r} is not a player of this game")
        if st.frame_over:
            return input_result("award_frame", False, "the game is already over", st), st
        scores = [0, 0]
        scores[w] = self.options.game_points or st.scores[w]
        nxt = replace(st, scores=(scores[0], scores[1]), frame_over=True, winner=w,
                      phase=Phase.OVER, end_reason="forfeit", pending=None)
        return input_result("award_frame", True, f"game awarded to {st.players[w]}; the offender's "
                            "points are forfeited (EB S4 R3)", nxt), nxt

    def _input_time(self, st: FrameState, inp: OperatorInput) -> Handled:
        """EB S3 R5(a),(b): TIME: the higher score wins; level scores go to the event's own
        tie-break (R5(c))."""
        w = None if st.scores[0] == st.scores[1] else (0 if st.scores[0] > st.scores[1] else 1)
        nxt = replace(st, frame_over=True, winner=w, phase=Phase.OVER, end_reason="time",
                      pending=None)
        notes = () if w is not None else ("scores level at TIME: the event's own tie-break "
                                          "decides (EB S3 R5(c))",)
        return input_result("time", True, "TIME", nxt, notes), nxt

    def _input_striker(self, st: FrameState, inp: OperatorInput) -> Handled:
        side = st.side_of(inp.player) if inp.player else None
        if side is None:
            raise RuleError(f"striker: {inp.player!r} is not a player of this game")
        turn = st.order.index(inp.player) if inp.player in st.order else st.turn
        cue = st.game.cue_of[side]
        nxt = replace(st, striker=side, turn=turn, cue_in_hand=cue not in st.on_table)
        return input_result("striker", True, f"{nxt.player} to play", nxt), nxt
