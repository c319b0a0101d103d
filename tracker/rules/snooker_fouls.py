"""The fouls of a snooker stroke (S3 R10; digest C05-C19, C24, C26) as small named predicates,
mixed into the snooker referee (:class:`tracker.rules.snooker.SnookerRules`): the
preconditions at the strike, the first contact (a touching ball counts), pots, disturbed
balls, fouls the referee entered, and snookering behind a free ball; each foul with its
penalty and the referee's words.
"""

from __future__ import annotations

import math
from typing import Any

from tracker import balls as B
from tracker.records.shot import Event, Shot
from tracker.rules import geometry as G
from tracker.rules.fouls import FOULS, FoulKind, Group, penalty
from tracker.rules.geometry import object_balls
from tracker.rules.snooker_types import BallOn, SnookerStroke
from tracker.rules.state import Foul, FrameState, Position
from tracker.rules.stroke import illegal_jumps
from tracker.words import balls_words

#: A re-spotted ball further than this from its computed place is reported (C36), mm.
RESPOT_CHECK_MM = 10.0


class SnookerFoulRules:
    """The foul-calling part of the snooker referee (needs the ``SnookerRules`` fields
    and its scoring hooks)."""

    balls: Any
    table: Any
    options: Any
    last_ball: str
    free_ball_rule: bool
    jump_rule: bool
    non_striker_penalty: bool
    no_snooker_behind_nominated: bool

    def _call_fouls(self, s: SnookerStroke) -> None:
        """Every foul of the stroke (C05-C19, C24, C26), in the order they happen; then the
        points it scores if it is fair."""
        s.put_back = self._balls_put_back(s)
        for find in (self._fouls_at_strike, self._fouls_of_first_contact, self._fouls_of_pots,
                     self._fouls_of_disturbance, self._fouls_entered):
            s.fouls.extend(find(s))
        s.points = 0 if s.fouls else self._score(s)
        s.fouls.extend(self._fouls_of_final_position(s))
        if s.fouls:
            s.points = 0

    def _foul(self, s: SnookerStroke, code: str, balls: tuple[str, ...] = (), label: str | None = None,
              text: str | None = None) -> Foul:
        """One foul with its penalty (S3 R10) and the referee's words."""
        kind = FOULS[code]
        concerned = tuple(self._concern_value(b, s.ctx) for b in balls)
        pen = self._penalty_of(kind, s.ctx.v_on, concerned)
        msg = text or kind.message.format(ball=label or (balls[0] if balls else ""),
                                          balls=" and ".join(balls))
        if s.ctx.v_on is None and kind.group is not Group.D:
            s.review.append(self._undetermined_note(code))
        return Foul(code, self._rule_of(kind), kind.digest, msg, pen, balls)

    def _penalty_of(self, kind: FoulKind, v_on: int | None, concerned: tuple[int, ...]) -> int:
        """Penalty of one foul: its group's formula (R10), 7 for group D."""
        pen = penalty(kind.group, v_on, concerned, undetermined=self.options.undetermined_on_penalty)
        return 7 if kind.group is Group.D else pen

    def _rule_of(self, kind: FoulKind) -> str:
        return kind.rule

    def _undetermined_note(self, code: str) -> str:
        return (f"{code}: ball on undetermined after a red (no nomination): penalty "
                f"{self.options.undetermined_on_penalty} by R10(d)(vi); enter the nominated colour "
                "if one was declared")

    # ------------------------------------------------------------------ fouls
    def _fouls_at_strike(self, s: SnookerStroke) -> list[Foul]:
        """Preconditions at the strike: the cue ball (C07), in-hand placement (C02), balls
        still moving (C05), colours spotted (C06, C36); playing out of turn (H14)."""
        out: list[Foul] = []
        strike = s.facts.strike
        assert strike is not None
        if strike.ball != self.balls.cue:
            if s.st.shots == 0:
                s.notes.append("a ball other than the white was struck before the frame started: "
                               "position restored, no foul (000 commentary)")
            else:
                out.append(self._foul(s, "wrong_cue_ball", (strike.ball,)))
        out.extend(self._foul_in_hand_placement(s))
        out.extend(self._foul(s, "moving_ball", (e.ball,)) for e in s.facts.moving)
        self._review_respot_placement(s)
        out.extend(self._fouls_not_respotted(s))
        if s.out_of_turn and "out_of_turn" not in {f.code for f in s.shot.operator.fouls}:
            out.append(self._foul(s, "out_of_turn"))
        return out

    def _foul_in_hand_placement(self, s: SnookerStroke) -> list[Foul]:
        """C02: the cue-ball centre outside the in-hand area by more than the tolerance."""
        cue = self.balls.cue
        if not s.st.cue_in_hand or s.pre is None or cue not in s.pre:
            return []
        outside = self._outside_in_hand_area(s.st, s.pre[cue])
        if outside > self.options.in_hand_tolerance_mm:
            area = {"D": "the D", "kitchen": "the kitchen"}.get(s.st.in_hand_area, "the area")
            s.notes.append(f"cue ball centre {outside:.0f} mm outside {area}")
            text = None if s.st.in_hand_area == "D" else f"played from in-hand outside {area}"
            return [self._foul(s, "in_hand_outside_d", text=text)]
        if outside > 0:
            s.review.append(f"in-hand placement {outside:.1f} mm outside the D, within tolerance")
        return []

    def _outside_in_hand_area(self, st: FrameState, p: Position) -> float:
        """How far (mm) ``p`` lies outside the area the cue ball is in hand in."""
        if st.in_hand_area == "D":
            return self.table.d_distance_outside(p)
        if st.in_hand_area == "kitchen":
            return max(0.0, p[1] - self.table.length / 4.0)
        return 0.0

    def _review_respot_placement(self, s: SnookerStroke) -> None:
        """C36: a ball the referee placed last time, found away from its place."""
        if s.shot.positions_before is None or s.st.positions is None:
            return
        for b in s.st.last_respots:
            want, got = s.st.positions.get(b), s.shot.positions_before.get(b)
            if want and got and math.dist(want, got) > RESPOT_CHECK_MM:
                s.review.append(f"the {b} was placed {math.dist(want, got):.0f} mm from where it "
                                "should have been spotted (C36): tell the referee before the stroke")

    def _fouls_not_respotted(self, s: SnookerStroke) -> list[Foul]:
        """C06: a colour that should be on the table is missing at the strike."""
        if s.shot.positions_before is None:
            return []
        out = []
        last = s.st.last_colour_scored
        for c in self.balls.colours:
            if c in s.st.on_table and c not in s.shot.positions_before:
                s.missing.append(c)
                was_free_ball = bool(last and last[0] == c and last[3])
                out.append(self._foul(s, "free_ball_not_respotted" if was_free_ball
                                      else "not_respotted", (c,)))
        return out

    def _fouls_of_first_contact(self, s: SnookerStroke) -> list[Foul]:
        """C08-C10, C24: what the cue ball hit first; C17 push; C16 jump."""
        s.first, first_t, s.deemed = self._first_contact(s)
        out: list[Foul] = []
        if not s.first:
            out.append(self._foul(s, "no_contact"))
        elif not self._first_ok(s.first, s.ctx):
            out.append(self._first_contact_foul(s))
            out.extend(self._foul_free_ball_undeclared(s))
        out.extend(self._foul(s, "push_stroke", (e.ball,)) for e in s.facts.pushes)
        out.extend(self._foul(s, "jump_shot", (e.ball,)) for e in self._jump_shots(s, first_t))
        return out

    def _jump_shots(self, s: SnookerStroke, first_t: float | None) -> tuple[Event, ...]:
        """C16 / S2 R20: the jumps that are jump shots; the others are noted."""
        if not self.jump_rule:
            return ()
        fouls = illegal_jumps(s.facts, s.first, first_t)
        s.notes.extend(f"cue ball jumped the {e.ball} after a lawful first contact: no foul (S2 R20)"
                       for e in s.facts.jumps if e not in fouls)
        return fouls

    def _foul_free_ball_undeclared(self, s: SnookerStroke) -> list[Foul]:
        """R10(d)(v), C24 / H2: a free ball was awarded and the cue ball first hit a ball not on
        with none nominated: he failed to declare the ball he was on when snookered (7)."""
        if not (self.free_ball_rule and s.st.free_ball and s.ctx.fb is None):
            return []
        s.review.append("free ball awarded, none nominated, and a ball not on hit first: 7 for "
                        "failing to declare (R10(d)(v)); enter the free ball if one was nominated")
        return [self._foul(s, "free_ball_not_declared")]

    def _first_contact_foul(self, s: SnookerStroke) -> Foul:
        first, fb = s.first, s.ctx.fb
        if fb and fb not in first and len(first) == 1:
            return self._foul(s, "free_ball_not_hit_first", tuple(first))
        if len(first) == 1:
            return self._foul(s, "wrong_ball_first", tuple(first))
        pair = tuple(sorted(first, key=lambda b: -self._concern_value(b, s.ctx))[:2])
        return self._foul(s, "simultaneous_hit", pair)

    def _fouls_of_pots(self, s: SnookerStroke) -> list[Foul]:
        """C12 cue ball potted, C11 ball not on potted, C13 balls forced off."""
        f = s.facts
        out: list[Foul] = []
        if f.cue_potted:
            out.append(self._foul(s, "cue_ball_potted"))
        not_on = [b for b in f.potted if b not in s.ctx.on_pot]
        if not_on:
            worst = max(not_on, key=lambda b: self._concern_value(b, s.ctx))
            out.append(self._foul(s, "pot_not_on", (worst,)))
        out.extend(self._foul(s, "forced_off", (b,)) for b in f.off)
        return out

    def _fouls_of_disturbance(self, s: SnookerStroke) -> list[Foul]:
        """C15: a ball moved without a ball contact: by the striker a foul; by the non-striker
        a penalty to the striker (R2(b)(ii)); otherwise no foul."""
        out: list[Foul] = []
        for e in s.facts.disturbed:
            if e.by == "striker":
                out.append(self._foul(s, "ball_disturbed", (e.ball,)))
            elif e.by == "non_striker" and self.non_striker_penalty:
                s.nonstriker.append(self._non_striker_foul(s, e.ball))
            elif e.by == "table":
                s.notes.append(f"the {e.ball} moved by itself (table): no foul (R15(a))")
        return out

    def _non_striker_foul(self, s: SnookerStroke, ball: str) -> Foul:
        """R2(b)(ii), R14(h), S2 R5: the non-striker who touches a ball is penalised as if he
        were the striker (the penalty goes to the striker; the order of play is unchanged)."""
        k = FOULS["ball_disturbed"]
        pen = self._penalty_of(k, s.ctx.v_on, (self._concern_value(ball, s.ctx),))
        return Foul(k.code, "S3 R2(b)(ii), R14(h), R10(b)(vi)", k.digest,
                    f"the non-striker moved the {ball}", pen, (ball,))

    def _fouls_entered(self, s: SnookerStroke) -> list[Foul]:
        """Fouls the referee saw and entered (digest section 3)."""
        return [self._foul(s, f.code, (f.ball,) if f.ball else (), label=f.ball or "ball")
                for f in s.shot.operator.fouls]

    def _fouls_of_final_position(self, s: SnookerStroke) -> list[Foul]:
        """C26: snookering behind the free ball; annex rule 3: behind the nominated colour."""
        cue = self.balls.cue
        if s.fouls:
            return []
        post = self._positions_after(s)
        if post is None or cue not in post:
            return []
        fb, nominated = s.ctx.fb, s.ctx.nominated
        if fb and self.free_ball_rule and (s.points == 0 or self.options.free_ball_snooker_after_pot):
            remaining = self._on_after_pots(s) | {fb}  # a potted free ball is re-spotted
            if not remaining <= {"pink", "black"} and self._snookered_behind(s, post, fb):
                return [self._foul(s, "snooker_behind_free_ball", label=fb)]
        if self.no_snooker_behind_nominated and nominated and s.points == 0 \
                and self._snookered_behind(s, post, nominated):
            return [self._foul(s, "snooker_behind_nominated", label=nominated)]
        return []

    def _snookered_behind(self, s: SnookerStroke, post: dict[str, Position], ball: str) -> bool:
        """The incoming player is snookered on the ball on with ``ball`` an effective
        snookering ball (C26)."""
        on_after = frozenset(self._on_after_pots(s))
        phase, seq = self.start_of_turn(on_after)
        on = self.balls_on_for_turn(on_after, phase, seq)
        res = G.snooker_test(post[self.balls.cue], object_balls(post), on, self.table)
        return res.snookered and ball in res.effective

    # ------------------------------------------------------------------ first contact
    def _first_contact(self, s: SnookerStroke) -> tuple[frozenset[str], float | None, bool]:
        """The first-contact set, its time, and whether it is a deemed (touching) contact."""
        f = s.facts
        pushed = {e.ball for e in f.pushes}
        touching = self._touching(s.st, s.shot, s.pre)
        deemed = [b for b in touching if b not in pushed and (b in s.ctx.on_first
                                                              or s.shot.nomination == b)]
        if deemed:
            return frozenset({deemed[0]}), f.t0, True
        contacts = f.cue_contacts
        if contacts:
            if contacts[0].confidence < self.options.review_confidence:
                s.review.append("the camera is not sure which ball the cue ball hit first "
                                f"(confidence {contacts[0].confidence:.2f}): check the first contact")
            gap = contacts[1].t - contacts[0].t if len(contacts) > 1 else math.inf
            if gap <= 5 * self.options.simultaneous_s and len(f.first) == 1:
                hit = [next((x for x in c.balls if x != B.WHITE), c.ball) for c in contacts[:2]]
                s.review.append(f"the cue ball seemed to hit {balls_words(hit)} at the same moment "
                                f"({gap * 1000:.1f} ms apart): check which it hit first")
        return f.first, f.first_t, False

    def _first_ok(self, first: frozenset[str], ctx: BallOn) -> bool:
        if ctx.fb:
            if first == {ctx.fb}:
                return True
            return ctx.fb in first and len(first) == 2 and (first - {ctx.fb}) <= (ctx.on_first - {ctx.fb})
        if ctx.label == "red":
            return first <= ctx.on_first
        return len(first) == 1 and first <= ctx.on_first

    def _concern_value(self, ball: str, ctx: BallOn) -> int:
        if ctx.fb and ball == ctx.fb and self.options.free_ball_value == "ball_on":
            return ctx.v_on or 0
        return self.balls.value(ball)

    def _touching(self, st: FrameState, shot: Shot, pre: dict[str, Position] | None) -> tuple[str, ...]:
        """The balls the cue ball touches at the strike: as recorded, else as the referee
        examined them when the cue ball stopped (R8(g): a change before the stroke is undone by
        repositioning the balls), else from the positions at the strike."""
        if shot.touching is not None:
            return shot.touching
        cue = self.balls.cue
        if st.cue_in_hand or pre is None or cue not in pre:
            return ()
        examined = self._examined_touching(st)
        if examined is not None and shot.positions_before is not None:
            return tuple(sorted(examined))
        return G.touching_balls(pre[cue], object_balls(pre), self.table, self.options.touching_gap_mm)

    def _check_touching_change(self, s: SnookerStroke) -> None:
        """C40 / R8(g): a ball that starts or stops touching the cue ball between the end of
        the last stroke (when the referee examined it) and this strike."""
        was = self._examined_touching(s.st)
        cue = self.balls.cue
        if was is None or s.shot.positions_before is None or cue not in s.shot.positions_before:
            return
        now = set(G.touching_balls(s.shot.positions_before[cue], object_balls(s.shot.positions_before),
                                   self.table, self.options.touching_gap_mm))
        changed = sorted(now ^ was)
        if changed:
            s.review.append("touching state changed before the stroke (C40): "
                            + ", ".join(f"the {b} {'now touches' if b in now else 'no longer touches'}"
                                        " the cue ball" for b in changed)
                            + "; the referee repositions the balls (R8(g))")

    def _examined_touching(self, st: FrameState) -> set[str] | None:
        """The balls touching the cue ball when it came to rest after the last stroke."""
        cue = self.balls.cue
        if st.cue_in_hand or not st.positions or cue not in st.positions or st.shots == 0:
            return None
        return set(G.touching_balls(st.positions[cue], object_balls(st.positions), self.table,
                                    self.options.touching_gap_mm))
