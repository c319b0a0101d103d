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
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules import geometry as G
from tracker.rules.ballset import BallSet, billiards_balls
from tracker.rules.errors import RuleError
from tracker.rules.fouls import FOULS
from tracker.rules.options import RuleOptions
from tracker.rules.outcome import InputResult, Outcome, build_decision, input_result
from tracker.rules.state import Decision, Foul, FrameState, PendingFoul, Phase, Position, Respot
from tracker.rules.stroke import (
    StrokeFacts,
    check_events,
    check_positions,
    illegal_jumps,
    read_stroke,
    record_warnings,
)

#: Every foul costs this, and no more in one stroke (EB S3 R15); so does a miss (R16).
FOUL_POINTS = 2
#: Points of each scoring stroke (EB S3 R4).
CANNON, POT_RED, POT_WHITE, IN_OFF_RED, IN_OFF_WHITE = 2, 3, 2, 3, 2
#: The referee announces the count this many strokes before a limit (TEN HAZARDS, SEVENTY
#: CANNONS, EB S3 R9, R10).
ANNOUNCE_BEFORE_LIMIT = 5
#: Cushions wholly out of baulk (``TableGeometry.cushion_label``); the long cushions' baulk
#: halves run past the baulk line, so a contact there is not known to be out of baulk.
CUSHIONS_OUT_OF_BAULK = frozenset({"top", "left_top", "right_top"})
#: 000 2.13: in each hundred of a break, the cue ball must cross the baulk line between these.
CROSSING_WINDOW = (80, 99)

Handled = tuple[InputResult, FrameState]


@dataclass(frozen=True)
class BilliardsState:
    """What English billiards keeps between strokes (``FrameState.game``).

    Attributes:
        cue_of: each side's cue ball.
        hazards, cannons: consecutive hazard-only and cannon-only strokes in this break.
        red_spot: the spot the red was placed on by hand and not touched since, else None.
        red_spot_pots: consecutive pots of the red alone from the Spot or Pyramid spot in
            this break.
        own_off: cue balls off the table through their owner's own stroke (EB S3 R10).
        touching_offer: 000 2.10: the cue ball touches a ball; the balls are spotted if the
            players agree (an ``option`` input ``spot_balls``).
        crossed: 000 2.13: the cue ball crossed the baulk line in this hundred of the break.
    """

    cue_of: tuple[str, str]
    hazards: int = 0
    cannons: int = 0
    red_spot: str | None = "spot"
    red_spot_pots: int = 0
    own_off: frozenset[str] = frozenset()
    touching_offer: bool = False
    crossed: bool = False

    def reset_break(self) -> BilliardsState:
        """The counts that last one break start again."""
        return replace(self, hazards=0, cannons=0, red_spot_pots=0, crossed=False)


@dataclass
class _Stroke:
    """One billiards stroke being called (internal working record)."""

    st: FrameState
    g: BilliardsState
    shot: Shot
    cue: str
    other: str
    facts: StrokeFacts
    pre: dict[str, Position] | None
    notes: list[str]
    review: list[str]
    fouls: list[Foul] = field(default_factory=list)
    scoring: list[tuple[str, int]] = field(default_factory=list)
    miss: bool = False
    out_of_turn: bool = False


@dataclass(frozen=True)
class EnglishBilliardsRules:
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

    def _begin(self, st: FrameState, shot: Shot) -> _Stroke:
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
        return _Stroke(st, g, replace(shot, events=tuple(events)), cue, other, facts, pre, notes,
                       review, out_of_turn=out_of_turn)

    def _call_stroke(self, s: _Stroke) -> None:
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

    def _foul(self, code: str, balls: tuple[str, ...] = (), label: str | None = None,
              text: str | None = None) -> Foul:
        kind = FOULS[code]
        rule = kind.rule if kind.digest in ("EB", "000-2.13") else self.fouls_rule
        msg = text or kind.message.format(ball=label or (balls[0] if balls else "ball"),
                                          balls=" and ".join(balls))
        return Foul(code, rule, kind.digest, msg, FOUL_POINTS, balls)

    # ------------------------------------------------------------------ fouls
    def _fouls_at_strike(self, s: _Stroke) -> list[Foul]:
        """EB S3 R14: another ball struck, balls moving, the red not yet spotted."""
        out: list[Foul] = []
        strike = s.facts.strike
        assert strike is not None
        if strike.ball != s.cue:
            out.append(self._foul("wrong_cue_ball", (strike.ball,),
                                  text=f"struck the {strike.ball} instead of the {s.cue}"))
        if s.out_of_turn:
            out.append(self._foul("out_of_turn"))
        out.extend(self._foul("moving_ball", (e.ball,)) for e in s.facts.moving)
        if s.shot.positions_before is not None and "red" in s.st.on_table \
                and "red" not in s.shot.positions_before:
            out.append(self._foul("not_respotted", ("red",)))
        return out

    def _fouls_in_hand(self, s: _Stroke) -> list[Foul]:
        """EB S3 R6: from in-hand, placed in the D, played out of baulk, never directly at a
        ball in baulk."""
        if not s.st.cue_in_hand or s.pre is None:
            return []
        out: list[Foul] = []
        if s.cue in s.pre and self.table.d_distance_outside(s.pre[s.cue]) > \
                self.options.in_hand_tolerance_mm:
            out.append(self._foul("in_hand_outside_d"))
        in_baulk = sorted(b for b in s.facts.first if self._in_baulk(s.pre.get(b)))
        if in_baulk and not self._left_baulk_before(s):
            out.append(self._foul("in_hand_ball_in_baulk", (in_baulk[0],)))
        elif self._stopped_in_baulk(s) and not self._touched_out_of_baulk(s):
            out.append(self._foul("in_hand_not_out_of_baulk"))
        return out

    def _fouls_in_play(self, s: _Stroke) -> list[Foul]:
        """EB S3 R14: push, jump before the first contact, a ball forced off, a ball touched."""
        f = s.facts
        out = [self._foul("push_stroke", (e.ball,)) for e in f.pushes]
        out += [self._foul("jump_shot", (e.ball,)) for e in illegal_jumps(f)]
        out += [self._foul("forced_off", (b,)) for b in f.off]
        out += [self._foul("ball_disturbed", (e.ball,)) for e in f.disturbed if e.by == "striker"]
        return out

    def _fouls_entered(self, s: _Stroke) -> list[Foul]:
        return [self._foul(f.code, (f.ball,) if f.ball else ()) for f in s.shot.operator.fouls]

    def _miss_or_coup(self, s: _Stroke) -> None:
        """EB S3 R16: the cue ball met no ball: a coup (into a pocket) is a foul, any other
        miss costs 2 without being a foul (000: a foul, D38)."""
        if s.facts.cue_potted:
            s.fouls.append(self._foul("coup"))
        elif self.miss_is_foul:
            s.fouls.append(self._foul("no_contact"))
        else:
            s.miss = True
            s.notes.append("MISS: the cue ball touched no ball; 2 points to the opponent (EB S3 R16)")

    def _fouls_of_limits(self, s: _Stroke) -> list[Foul]:
        """EB S3 R9, R10: more consecutive hazards (cannons) than the limit."""
        hazards, cannons = self._counts_after(s.g, s.scoring)
        if hazards > self.options.hazard_limit:
            return [self._foul("hazard_limit")]
        if cannons > self.options.cannon_limit:
            return [self._foul("cannon_limit")]
        return []

    @staticmethod
    def _counts_after(g: BilliardsState, scoring: list[tuple[str, int]]) -> tuple[int, int]:
        """(hazards, cannons) in the break after a stroke that scored ``scoring``."""
        cannon = any(w == "cannon" for w, _ in scoring)
        hazard = any(w != "cannon" for w, _ in scoring)
        return (g.hazards + 1 if hazard and not cannon else 0,
                g.cannons + 1 if cannon and not hazard else 0)

    def _foul_baulk_crossing(self, s: _Stroke) -> list[Foul]:
        """000 2.13: a break leaving the 80-99 of a hundred without the cue ball having
        crossed the baulk line into baulk."""
        if not self.baulk_crossing:
            return []
        before = s.st.break_points % 100
        after = before + sum(p for _, p in s.scoring)
        if not (CROSSING_WINDOW[0] <= before <= CROSSING_WINDOW[1] < after) or s.g.crossed:
            return []
        if s.shot.positions_after is None or s.pre is None:
            s.review.append("the break passes the hundred: the baulk-line crossing (000 2.13) is not "
                            "checked without positions")
            return []
        return [] if self._crossed_into_baulk(s) else [self._foul("baulk_line_not_crossed")]

    # ------------------------------------------------------------------ scoring
    def scoring(self, f: StrokeFacts, cue: str, on_table: frozenset[str]) -> list[tuple[str, int]]:
        """EB S3 R4: the cannon, pots and in-off of a fair stroke with their points."""
        met = {b for e in f.cue_contacts for b in e.balls if b != cue}
        objects = {b for b in on_table if b != cue}
        out: list[tuple[str, int]] = []
        if len(objects) == 2 and objects <= met:
            out.append(("cannon", CANNON))
        out += [("pot red", POT_RED) if b == "red" else ("pot white", POT_WHITE) for b in f.potted]
        if f.cue_potted and f.first:
            red_first = f.first == {"red"}
            out.append(("in-off red", IN_OFF_RED) if red_first else ("in-off white", IN_OFF_WHITE))
        return out

    # ------------------------------------------------------------------ baulk geometry
    def _in_baulk(self, p: Position | None) -> bool:
        """EB S2 R14: on the baulk line or between it and the bottom cushion."""
        return p is not None and p[1] <= self.table.baulk_line

    def _cushions_before(self, s: _Stroke, t: float | None) -> list[str]:
        return [e.cushion or "" for e in s.shot.events if e.type == EventType.CUSHION
                and s.cue in e.balls and e.t >= s.facts.t0 and (t is None or e.t < t)]

    def _left_baulk_before(self, s: _Stroke) -> bool:
        """Before its first contact the cue ball met a cushion out of baulk (a cushion that
        may be either is flagged and given to the striker)."""
        cushions = self._cushions_before(s, s.facts.first_t)
        if any(c in CUSHIONS_OUT_OF_BAULK for c in cushions):
            return True
        if any(c.endswith("_baulk") for c in cushions):
            s.review.append("the cue ball met a long cushion near the baulk line before the ball in "
                            "baulk: check it was out of baulk (EB S3 R6)")
            return True
        return False

    def _stopped_in_baulk(self, s: _Stroke) -> bool:
        after = s.shot.positions_after
        return not s.facts.cue_gone and after is not None and self._in_baulk(after.get(s.cue))

    def _touched_out_of_baulk(self, s: _Stroke) -> bool:
        """The cue ball met a ball or a cushion out of baulk (EB S3 R6)."""
        assert s.pre is not None
        if any(not self._in_baulk(s.pre.get(b)) for e in s.facts.cue_contacts for b in e.balls
               if b != s.cue):
            return True
        return self._left_baulk_before(s)

    def _crossed_into_baulk(self, s: _Stroke) -> bool:
        """000 2.13: the cue ball came to rest in baulk having been out of it."""
        if not self._stopped_in_baulk(s):
            return False
        if s.st.cue_in_hand:
            return self._touched_out_of_baulk(s)
        return s.pre is not None and not self._in_baulk(s.pre.get(s.cue))

    # ------------------------------------------------------------------ after the stroke
    def _after_stroke(self, s: _Stroke) -> tuple[Decision, FrameState]:
        st = s.st
        points = sum(p for _, p in s.scoring)
        penalty = FOUL_POINTS if (s.fouls or s.miss) else 0
        scores = list(st.scores)
        scores[st.striker if points else 1 - st.striker] += points or penalty
        on_table, positions, respots, g2 = self._balls_after(s)
        g2 = self._break_counts(s, g2, points)
        continues = points > 0
        striker, turn = (st.striker, st.turn) if continues else st.pass_turn()
        nxt = replace(st, scores=(scores[0], scores[1]), on_table=on_table, positions=positions,
                      striker=striker, turn=turn, resume=None, shots=st.shots + 1, game=g2,
                      break_points=st.break_points + points if continues else 0,
                      pending=None, free_ball=False)
        nxt, extra = self._touching_ball(nxt, s)
        nxt, end_notes = self._game_end(nxt)
        options = ("play", "spot_balls") if s.fouls and not nxt.frame_over else ()
        if options:
            nxt = replace(nxt, pending=_pending(st, options))
            s.notes.append("the next player may play from where the balls are, or from in-hand "
                           "with the red on the Spot and the other white on the Centre spot "
                           "(EB S3 R15)")
        out = Outcome(fouls=tuple(s.fouls), penalty=penalty,
                      points={st.striker: points} if points else {1 - st.striker: penalty},
                      potted=s.facts.potted, respots=respots + extra, options=options, miss=s.miss,
                      break_points=0 if s.fouls else st.break_points + points,
                      scoring=tuple(s.scoring),
                      notes=(*s.notes, *end_notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _balls_after(self, s: _Stroke) -> tuple[frozenset[str], dict[str, Position] | None,
                                                 tuple[Respot, ...], BilliardsState]:
        """Which balls are on the table, where, and what the referee spotted (EB S3 R8)."""
        f, g = s.facts, s.g
        gone = set(f.potted) | set(f.off) | ({s.cue} if f.cue_gone else set())
        put_back = self._put_back(s)
        played = set() if f.cue_gone else {s.cue}  # a cue ball played from in-hand is in play
        on = (set(s.st.on_table) - gone) | set(put_back) | played
        post = None
        if s.shot.positions_after is not None:
            post = {k: v for k, v in s.shot.positions_after.items() if k not in gone}
        respots = tuple(Respot(b, s.pre.get(b) if s.pre else None, "put_back") for b in put_back)
        own_off = (g.own_off | ({s.cue} if f.cue_gone else set())) - ({s.other} if s.other in gone else set())
        g2 = replace(g, own_off=frozenset(own_off), touching_offer=False,
                     red_spot=g.red_spot if self._red_untouched(s) else None)
        if "red" in gone:
            spot, g2 = self._spot_red(s, g2, post)
            respots += (spot,)
            on.add("red")
            post = {**post, "red": spot.position} if post is not None and spot.position else post
        if post is not None:
            post.update({r.ball: r.position for r in respots if r.position})
        return frozenset(on), post, respots, g2

    def _put_back(self, s: _Stroke) -> list[str]:
        """EB S3 R11, R12: a ball that dropped late or fell untouched, or was moved by anyone
        but the striker, goes back where it was."""
        out = [b for b, _ in s.facts.late_drops] + [e.ball for e in s.facts.lip_drops]
        out += [e.ball for e in s.facts.early if e.type == EventType.POT]
        out += [e.ball for e in s.facts.disturbed if e.by != "striker"]
        for b in out:
            s.notes.append(f"the {b} is put back where it was (EB S3 R11, R12)")
        return list(dict.fromkeys(out))

    def _red_untouched(self, s: _Stroke) -> bool:
        """EB S3 R8: a ball touched by another is no longer on its spot."""
        return not any("red" in e.balls for e in s.shot.events
                       if e.type in (EventType.CONTACT, EventType.DISTURBED, EventType.PUSH))

    def _spot_red(self, s: _Stroke, g: BilliardsState, post: dict[str, Position] | None
                  ) -> tuple[Respot, BilliardsState]:
        """EB S3 R8: the Spot, then the Pyramid, then the Centre spot; after two pots of the
        red alone from the Spot or Pyramid in a break, the Centre spot first."""
        alone = not s.fouls and s.scoring == [("pot red", POT_RED)]
        from_spot = s.g.red_spot in ("spot", "pyramid")
        count = s.g.red_spot_pots + 1 if alone and from_spot else 0
        order = ("centre", "pyramid", "spot") if count >= 2 else ("spot", "pyramid", "centre")
        if count >= 2:
            s.notes.append("the red was potted twice running from the Spot: it goes on the Centre "
                           "spot (EB S3 R8)")
        elif alone and from_spot:
            s.notes.append("1 pot of the red from the Spot in this break (EB S3 R8)")
        where = self._free_spot(order, post, "red")
        count = 0 if count >= 2 else count
        return (Respot("red", self.spots()[where], where),
                replace(g, red_spot=where, red_spot_pots=count))

    def _free_spot(self, order: tuple[str, ...], post: Mapping[str, Position] | None,
                   ball: str) -> str:
        """The first spot of ``order`` no ball would touch (EB S2 R19); the last if none is."""
        if post is None:
            return order[0]
        others = [p for b, p in post.items() if b != ball]
        clear = self.table.ball_diameter + 0.1
        for name in order:
            if all(math.dist(self.spots()[name], p) >= clear for p in others):
                return name
        return order[-1]

    def _break_counts(self, s: _Stroke, g: BilliardsState, points: int) -> BilliardsState:
        """Hazard and cannon counts (EB S3 R9, R10), announced before the limit; the baulk
        crossing (000 2.13)."""
        if not points:
            return replace(g.reset_break(), red_spot_pots=0)
        hazards, cannons = self._counts_after(s.g, s.scoring)
        if hazards == self.options.hazard_limit - ANNOUNCE_BEFORE_LIMIT:
            s.notes.append(f"{hazards} HAZARDS (EB S3 R10)")
        if cannons == self.options.cannon_limit - ANNOUNCE_BEFORE_LIMIT:
            s.notes.append(f"{cannons} CANNONS (EB S3 R9)")
        crossed = g.crossed or (self.baulk_crossing and self._crossed_into_baulk(s)
                                and CROSSING_WINDOW[0] <= s.st.break_points % 100)
        if self.baulk_crossing and (s.st.break_points + points) // 100 > s.st.break_points // 100:
            crossed = False
        return replace(g, hazards=hazards, cannons=cannons, crossed=crossed)

    def _touching_ball(self, nxt: FrameState, s: _Stroke) -> tuple[FrameState, tuple[Respot, ...]]:
        """EB S3 R13: the next striker's ball at rest touching a ball: the red on the Spot,
        the other white on the Centre spot, the striker in hand; and the non-striker's own
        ball back on the table after the hazard limit (EB S3 R10)."""
        nxt, extra = self._after_hazard_limit(nxt, s)
        g = nxt.game
        cue = g.cue_of[nxt.striker]
        nxt = replace(nxt, cue_in_hand=cue not in nxt.on_table)
        touching = self._touching(nxt.positions, cue)
        if not touching or nxt.cue_in_hand:
            return nxt, extra
        if self.touching_by_agreement:
            return replace(nxt, game=replace(g, touching_offer=True)), extra
        s.notes.append(f"TOUCHING BALL ({', '.join(touching)}): the red goes on the Spot, the other "
                       "ball on the Centre spot, and the striker plays from in-hand (EB S3 R13)")
        placed, spotted = self._spot_both(nxt, cue, other_always=False)
        return placed, extra + spotted

    def _spot_both(self, st: FrameState, cue: str, other_always: bool
                   ) -> tuple[FrameState, tuple[Respot, ...]]:
        """The red on the Spot and the other white on the Centre spot (for a touching ball
        only if it is on the table), the striker's ball in hand (EB S3 R13, R15)."""
        other = next(b for b in self.balls.cue_balls if b != cue)
        pos = {b: p for b, p in (st.positions or {}).items() if b not in (cue, "red", other)}
        respots = [Respot("red", self.spots()["spot"], "spot")]
        if other in st.on_table or other_always:
            respots.append(Respot(other, self.spots()["centre"], "centre"))
        pos.update({r.ball: r.position for r in respots if r.position})
        on = (st.on_table - {cue}) | {r.ball for r in respots}
        g = replace(st.game, red_spot="spot", touching_offer=False)
        return (replace(st, on_table=on, positions=pos, cue_in_hand=True, game=g),
                tuple(respots))

    def _after_hazard_limit(self, nxt: FrameState, s: _Stroke) -> tuple[FrameState, tuple[Respot, ...]]:
        g = nxt.game
        if not (s.scoring and g.hazards == self.options.hazard_limit and s.other in g.own_off
                and s.other not in nxt.on_table):
            return nxt, ()
        where = self._free_spot(("baulk_middle", "d_right"), nxt.positions, s.other)
        r = Respot(s.other, self.spots()[where], where)
        pos = {**(nxt.positions or {}), s.other: r.position}
        s.notes.append(f"after the {self.options.hazard_limit}th hazard the {s.other}, off the table "
                       "since its owner's stroke, is placed on the table (EB S3 R10)")
        return replace(nxt, on_table=nxt.on_table | {s.other}, positions=pos,
                       game=replace(g, own_off=g.own_off - {s.other})), (r,)

    def _touching(self, positions: Mapping[str, Position] | None, cue: str) -> tuple[str, ...]:
        if not positions or cue not in positions:
            return ()
        others = {b: p for b, p in positions.items() if b != cue}
        return G.touching_balls(positions[cue], others, self.table, self.options.touching_gap_mm)

    def _game_end(self, nxt: FrameState) -> tuple[FrameState, list[str]]:
        """EB S3 R5(d): the first to reach the target wins; only the points needed count."""
        target = self.options.game_points
        if target is None or max(nxt.scores) < target:
            return nxt, []
        w = 0 if nxt.scores[0] >= target else 1
        scores = list(nxt.scores)
        scores[w] = target
        over = replace(nxt, scores=(scores[0], scores[1]), frame_over=True, winner=w,
                       phase=Phase.OVER, end_reason="points", pending=None)
        return over, [f"{nxt.players[w]} reaches {target}: game (only the points needed count; the "
                      "break is credited in full, EB S3 R5(d))"]

    # ------------------------------------------------------------------ other records
    def _unchanged(self, s: _Stroke) -> tuple[Decision, FrameState]:
        out = Outcome(notes=tuple(s.notes), review=tuple(s.review))
        return build_decision(self, s.st, s.shot.shot, out, s.st), s.st

    def _before_stroke(self, s: _Stroke) -> tuple[Decision, FrameState]:
        """No strike: a ball touched by the striker is a foul (his turn ends, EB S3 R15);
        anything else moved is put back (R11, R12)."""
        touched = [e.ball for e in s.facts.disturbed if e.by == "striker"]
        s.fouls = [self._foul("ball_disturbed", (b,)) for b in touched] + self._fouls_entered(s)
        if not s.fouls:
            s.notes.append("no stroke was made")
            respots = tuple(Respot(b, s.pre.get(b) if s.pre else None, "put_back")
                            for b in self._put_back(s))
            out = Outcome(respots=respots, notes=tuple(s.notes), review=tuple(s.review))
            return build_decision(self, s.st, s.shot.shot, out, s.st), s.st
        return self._after_stroke(s)

    def _replay(self, s: _Stroke) -> tuple[Decision, FrameState]:
        """EB S3 R11(b): a ball that fell from the lip would have been hit: every ball back;
        no foul: the same striker again; a foul: the penalty and the usual options."""
        st = s.st
        s.notes.append(f"the {s.shot.operator.lip_would_be_hit} would have been hit: all balls are "
                       "replaced (EB S3 R11)")
        base = replace(st, positions=s.pre if s.pre is not None else st.positions,
                       shots=st.shots + 1, pending=None)
        if not s.fouls:
            out = Outcome(replay=True, replace_positions=s.pre, notes=tuple(s.notes),
                          review=tuple(s.review))
            return build_decision(self, st, s.shot.shot, out, base), base
        scores = list(st.scores)
        scores[1 - st.striker] += FOUL_POINTS
        striker, turn = st.pass_turn()
        options = ("play", "spot_balls")
        nxt = replace(base, scores=(scores[0], scores[1]), striker=striker, turn=turn, resume=None,
                      break_points=0, game=st.game.reset_break(), pending=_pending(st, options),
                      cue_in_hand=st.game.cue_of[striker] not in st.on_table)
        out = Outcome(fouls=tuple(s.fouls), penalty=FOUL_POINTS, points={1 - st.striker: FOUL_POINTS},
                      options=options, replay=True, replace_positions=s.pre, break_points=0,
                      notes=tuple(s.notes), review=tuple(s.review))
        return build_decision(self, st, s.shot.shot, out, nxt), nxt

    def _resolve_striker(self, st: FrameState, shot: Shot, review: list[str]) -> tuple[FrameState, bool]:
        """Who plays: the expected striker, or a player out of turn (True: a foul, EB S3 R14)."""
        name = shot.striker
        if name is None or name in (st.players[st.striker], st.player):
            return st, False
        side = st.side_of(name)
        if side is None:
            raise RuleError(f"shot {shot.shot}: striker {name!r} is not a player of this game")
        review.append(f"{name} played but {st.player} was due: playing out of turn, a foul (EB S3 "
                      "R14); check the record's striker")
        turn = st.order.index(name) if name in st.order else st.turn
        return st.played_out_of_turn(side, turn), True

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


def _pending(st: FrameState, options: tuple[str, ...]) -> PendingFoul:
    return PendingFoul(st.striker, options, None, False, st.turn, st.resume)
