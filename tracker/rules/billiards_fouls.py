"""The fouls, the scoring and the limits of an English billiards stroke (EB S3 R4, R9, R10,
R14-R16; 000 2.13 the baulk crossing), mixed into :class:`tracker.rules.billiards.EnglishBilliardsRules`.
"""

from __future__ import annotations

from typing import Any

from tracker.records.shot import EventType
from tracker.rules.billiards_types import (
    CANNON,
    CROSSING_WINDOW,
    CUSHIONS_OUT_OF_BAULK,
    FOUL_POINTS,
    IN_OFF_RED,
    IN_OFF_WHITE,
    POT_RED,
    POT_WHITE,
    BilliardsState,
    BilliardsStroke,
)
from tracker.rules.fouls import FOULS
from tracker.rules.state import Foul, Position
from tracker.rules.stroke import StrokeFacts, illegal_jumps


class BilliardsFoulRules:
    """The foul-calling and scoring part of the billiards referee (needs its fields)."""

    balls: Any
    table: Any
    options: Any
    name: str
    miss_is_foul: bool
    baulk_crossing: bool
    fouls_rule: str

    def _foul(self, code: str, balls: tuple[str, ...] = (), label: str | None = None,
              text: str | None = None) -> Foul:
        kind = FOULS[code]
        rule = kind.rule if kind.digest in ("EB", "000-2.13") else self.fouls_rule
        msg = text or kind.message.format(ball=label or (balls[0] if balls else "ball"),
                                          balls=" and ".join(balls))
        return Foul(code, rule, kind.digest, msg, FOUL_POINTS, balls)

    # ------------------------------------------------------------------ fouls
    def _fouls_at_strike(self, s: BilliardsStroke) -> list[Foul]:
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

    def _fouls_in_hand(self, s: BilliardsStroke) -> list[Foul]:
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

    def _fouls_in_play(self, s: BilliardsStroke) -> list[Foul]:
        """EB S3 R14: push, jump before the first contact, a ball forced off, a ball touched."""
        f = s.facts
        out = [self._foul("push_stroke", (e.ball,)) for e in f.pushes]
        out += [self._foul("jump_shot", (e.ball,)) for e in illegal_jumps(f)]
        out += [self._foul("forced_off", (b,)) for b in f.off]
        out += [self._foul("ball_disturbed", (e.ball,)) for e in f.disturbed if e.by == "striker"]
        return out

    def _fouls_entered(self, s: BilliardsStroke) -> list[Foul]:
        return [self._foul(f.code, (f.ball,) if f.ball else ()) for f in s.shot.operator.fouls]

    def _miss_or_coup(self, s: BilliardsStroke) -> None:
        """EB S3 R16: the cue ball met no ball: a coup (into a pocket) is a foul, any other
        miss costs 2 without being a foul (000: a foul, D38)."""
        if s.facts.cue_potted:
            s.fouls.append(self._foul("coup"))
        elif self.miss_is_foul:
            s.fouls.append(self._foul("no_contact"))
        else:
            s.miss = True
            s.notes.append("MISS: the cue ball touched no ball; 2 points to the opponent (EB S3 R16)")

    def _fouls_of_limits(self, s: BilliardsStroke) -> list[Foul]:
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

    def _foul_baulk_crossing(self, s: BilliardsStroke) -> list[Foul]:
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

    def _cushions_before(self, s: BilliardsStroke, t: float | None) -> list[str]:
        return [e.cushion or "" for e in s.shot.events if e.type == EventType.CUSHION
                and s.cue in e.balls and e.t >= s.facts.t0 and (t is None or e.t < t)]

    def _left_baulk_before(self, s: BilliardsStroke) -> bool:
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

    def _stopped_in_baulk(self, s: BilliardsStroke) -> bool:
        after = s.shot.positions_after
        return not s.facts.cue_gone and after is not None and self._in_baulk(after.get(s.cue))

    def _touched_out_of_baulk(self, s: BilliardsStroke) -> bool:
        """The cue ball met a ball or a cushion out of baulk (EB S3 R6)."""
        assert s.pre is not None
        if any(not self._in_baulk(s.pre.get(b)) for e in s.facts.cue_contacts for b in e.balls
               if b != s.cue):
            return True
        return self._left_baulk_before(s)

    def _crossed_into_baulk(self, s: BilliardsStroke) -> bool:
        """000 2.13: the cue ball came to rest in baulk having been out of it."""
        if not self._stopped_in_baulk(s):
            return False
        if s.st.cue_in_hand:
            return self._touched_out_of_baulk(s)
        return s.pre is not None and not self._in_baulk(s.pre.get(s.cue))
