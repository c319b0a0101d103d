"""The standard snooker referee (WPBSA, ``shared/rules/sources/003_*.txt``) and its
reduced-reds variants (the "any number of reds" annex of 002).

``SnookerRules.decide(state, shot)`` is a pure function: it returns the decision on the
stroke and the next :class:`FrameState`, never mutating its inputs. It reads the stroke
(:mod:`tracker.rules.stroke`), calls the fouls with small named predicates, scores, places
the balls, and hands the outcome to the shared builder (:mod:`tracker.rules.outcome`). The
foul-and-a-miss rules are in :mod:`tracker.rules.misses`, the end of the frame in
:mod:`tracker.rules.frame_end`, the operator inputs in :mod:`tracker.rules.inputs`, records
whose stroke does not stand in :mod:`tracker.rules.unplayed`.
Rule ids in comments (Cxx, Hxx, Dxx, Sxx) refer to ``shared/rules/RULES-DIGEST.md``.

What is and is not implemented is listed in ``docs/RULES.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import ClassVar

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker import balls as B
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules import geometry as G
from tracker.rules.ballset import BallSet, snooker_balls
from tracker.rules.errors import RuleError
from tracker.rules.fouls import FOULS, FoulKind, Group, penalty
from tracker.rules.frame_end import FrameEndRules
from tracker.rules.inputs import InputRules
from tracker.rules.misses import MissRules
from tracker.rules.options import RuleOptions
from tracker.rules.outcome import InputResult, Outcome, build_decision
from tracker.rules.respot import respot_positions
from tracker.rules.snooker_types import BallOn, SnookerStroke, TableAfter
from tracker.rules.state import (
    Decision,
    Foul,
    FrameState,
    MissState,
    PendingFoul,
    Phase,
    Position,
    Respot,
    Snapshot,
)
from tracker.rules.stroke import (
    check_events,
    check_positions,
    cue_contacts,
    first_group,
    illegal_jumps,
    read_stroke,
    record_warnings,
)
from tracker.rules.unplayed import UnplayedRules, merged_respots
from tracker.words import balls_words

__all__ = ["InputResult", "RuleError", "SnookerRules", "SPOT_PRIORITY"]

#: Spots from the highest value to the lowest (R7(d)).
SPOT_PRIORITY = ("black", "pink", "blue", "brown", "green", "yellow")
#: A small gap left between the apex red and the pink when racking, mm (000 commentary: 1-5).
APEX_GAP_MM = 2.0
#: Gap between reds in the rack, mm.
RACK_GAP_MM = 0.2
#: A re-spotted ball further than this from its computed place is reported (C36), mm.
RESPOT_CHECK_MM = 10.0
#: Tolerance of the set-up check (C01), mm.
SETUP_CHECK_MM = 10.0
#: Who may move a ball without penalty: it is put back (R15).
PUT_BACK_BY = ("referee", "outside", "house_equipment")


@dataclass(frozen=True)
class SnookerRules(UnplayedRules, MissRules, FrameEndRules, InputRules):
    """Standard snooker (``n_reds=15``) or a reduced-reds game.

    Attributes:
        name: registry name.
        n_reds: reds in the rack.
        miss_limit: failures from a full-ball position before the limit applies (3, R14(c));
            5 in the any-number-of-reds annex.
        after_limit: ``award_frame`` (standard) or ``ball_anywhere`` (annex rule 2).
        no_snooker_behind_nominated: annex rule 3.
        table: geometry.
        options: rule readings and thresholds.
    """

    name: str = "snooker"
    n_reds: int = 15
    miss_limit: int = 3
    after_limit: str = "award_frame"
    no_snooker_behind_nominated: bool = False
    table: TableGeometry = STANDARD_TABLE
    options: RuleOptions = field(default_factory=RuleOptions)

    #: The rules of the game that Snookerpool switches off or words differently.
    free_ball_rule: ClassVar[bool] = True
    miss_rule: ClassVar[bool] = True
    jump_rule: ClassVar[bool] = True
    non_striker_penalty: ClassVar[bool] = True
    deduct_unspotted: ClassVar[bool] = True
    foul_options: ClassVar[tuple[str, ...]] = ("play", "play_again")
    in_hand_after_foul: ClassVar[str | None] = None
    break_area: ClassVar[str] = "D"
    #: The tip touching the cue ball in hand is a foul (Snookerpool), not "no stroke" (R5(b)).
    tip_on_ball_in_hand_foul: ClassVar[bool] = False
    last_ball: ClassVar[str] = "black"
    phase_labels: ClassVar[dict[Phase, str]] = {Phase.RED: "red", Phase.COLOUR_CHOICE: "colour"}
    #: Options (``RuleOptions`` names) this game reads; setting another one is an error.
    OPTIONS: ClassVar[frozenset[str]] = frozenset(
        ["free_ball_value", "free_ball_snooker_after_pot", "own_spots_first", "hanging_ball_s",
         "undetermined_on_penalty", "touching_gap_mm", "in_hand_tolerance_mm", "simultaneous_s",
         "review_confidence", "operator_may_cancel_auto_miss", "amateur_miss_2004",
         "four_snookers"])

    # ------------------------------------------------------------------ set-up
    def with_options(self, options: RuleOptions, table: TableGeometry | None = None) -> SnookerRules:
        """The same game with other options or another table."""
        return replace(self, options=options, table=table or self.table)

    @cached_property
    def balls(self) -> BallSet:
        """The balls of this game (ids, values, groups, looks)."""
        return snooker_balls(self.n_reds)

    def ball_ids(self) -> tuple[str, ...]:
        """All ball ids of this game."""
        return self.balls.ids

    def spots(self) -> Mapping[str, Position]:
        """Each colour's own spot, mm."""
        return self.table.spots

    def spot_priority(self) -> tuple[str, ...]:
        """Spots from the highest value to the lowest (R7(d))."""
        return SPOT_PRIORITY

    def setup_positions(self) -> dict[str, Position]:
        """The standard rack (S3 R2): colours on their spots, reds in a triangle whose apex
        is on the centre line just above the pink, base parallel to the top cushion. The
        white is in hand, so it is not included."""
        t = self.table
        pos: dict[str, Position] = {c: t.spots[c] for c in B.COLOURS}
        d = t.ball_diameter + RACK_GAP_MM
        row_gap = d * math.sin(math.radians(60))
        apex_y = t.spots["pink"][1] + t.ball_diameter + APEX_GAP_MM
        i = 0
        row = 0
        while i < self.n_reds:
            for j in range(row + 1):
                if i >= self.n_reds:
                    break
                x = t.centre_x + (j - row / 2.0) * d
                pos[B.red_id(i + 1)] = (x, apex_y + row * row_gap)
                i += 1
            row += 1
        return pos

    def new_frame(
        self,
        players: tuple[str, str],
        breaker: int = 0,
        positions: Mapping[str, Position] | None = None,
        frame: int = 1,
    ) -> FrameState:
        """The state at the start of a frame: every ball on, the breaker in hand on a red."""
        pos = dict(positions) if positions is not None else self.setup_positions()
        cue = self.balls.cue
        on = frozenset(b for b in pos if b != cue)
        if positions is None:
            on = frozenset(b for b in self.ball_ids() if b != cue)
        phase, seq = self.start_of_turn(on)
        return FrameState(
            ruleset=self.name,
            players=players,
            scores=(0, 0),
            striker=breaker,
            breaker=breaker,
            on_table=on,
            phase=phase,
            seq_colour=seq,
            cue_in_hand=cue not in pos,
            positions=pos,
            options=self.options.to_dict(),
            frame=frame,
            in_hand_area=self.break_area,
        )

    def setup_check(self, positions: Mapping[str, Position]) -> list[str]:
        """C01: warnings about the rack before the opening stroke (no penalty).

        Checks every colour is on its spot, the reds are all there and form a tight triangle
        whose apex is on the centre line close to, but not touching, the pink.
        """
        out: list[str] = []
        t = self.table
        for c in B.COLOURS:
            if c not in positions:
                out.append(f"set-up: the {c} is missing")
            elif math.dist(positions[c], t.spots[c]) > SETUP_CHECK_MM:
                out.append(f"set-up: the {c} is {math.dist(positions[c], t.spots[c]):.0f} mm off "
                           "its spot")
        reds = [positions[b] for b in positions if B.is_red(b)]
        if len(reds) != self.n_reds:
            out.append(f"set-up: {len(reds)} reds on the table, {self.n_reds} expected")
        if reds:
            apex = min(reds, key=lambda p: p[1])
            if abs(apex[0] - t.centre_x) > SETUP_CHECK_MM:
                out.append("set-up: the apex red is off the centre line")
            if "pink" in positions:
                gap = math.dist(apex, positions["pink"]) - t.ball_diameter
                if gap < 0.2:
                    out.append("set-up: the apex red touches the pink")
                elif gap > SETUP_CHECK_MM:
                    out.append(f"set-up: the apex red is {gap:.0f} mm from the pink")
        return out

    # ------------------------------------------------------------------ queries
    def reds(self, on_table: frozenset[str]) -> list[str]:
        """Reds (solids) on the table, sorted."""
        return sorted(b for b in on_table if self.balls.is_red(b))

    def colours_on(self, on_table: frozenset[str]) -> list[str]:
        """Colours (stripes) on the table, lowest value first."""
        return [c for c in self.balls.colours if c in on_table]

    def points_remaining(self, st: FrameState) -> int:
        """Points available to be scored (C46): each red with the highest colour after it,
        the colours on the table, the colour after a red when one is on; the re-spotted
        black's (the 15's) own value in the tie-break."""
        top = max(self.balls.value(c) for c in self.balls.colours)
        colours = sum(self.balls.value(c) for c in self.colours_on(st.on_table))
        red_value = len(self.reds(st.on_table)) * (1 + top)
        if st.phase == Phase.RED:
            return red_value + colours
        if st.phase == Phase.COLOUR_CHOICE:
            return red_value + colours + top
        if st.phase == Phase.SEQ and st.seq_colour:
            low = self.balls.value(st.seq_colour)
            return sum(self.balls.value(c) for c in self.colours_on(st.on_table)
                       if self.balls.value(c) >= low)
        if st.phase == Phase.RESPOTTED_BLACK:
            return self.balls.value(self.last_ball)
        return 0

    def snookers_required(self, st: FrameState) -> dict[str, int]:
        """Snookers each player needs to win (0 when not needed): n = ceil((D - R + 1) / p),
        p = max(4, value of the lowest ball on) (C46, a derived estimate)."""
        rem = self.points_remaining(st)
        p = max(4, self._lowest_on_value(st))
        out = {}
        for i, name in enumerate(st.players):
            deficit = st.scores[1 - i] - st.scores[i]
            out[name] = max(0, math.ceil((deficit - rem + 1) / p)) if deficit >= rem else 0
        return out

    def _lowest_on_value(self, st: FrameState) -> int:
        if self.reds(st.on_table):
            return 1
        return self.balls.value(st.seq_colour or self.last_ball)

    def ball_on_label(self, st: FrameState) -> str:
        """The ball on in words: ``red``, ``colour``, a colour name, ``black`` or ``none``
        (``solid``, ``stripe``, a number in Snookerpool)."""
        if st.phase in self.phase_labels:
            return self.phase_labels[st.phase]
        if st.phase == Phase.SEQ:
            return st.seq_colour or "none"
        if st.phase == Phase.RESPOTTED_BLACK:
            return self.last_ball
        return "none"

    def start_of_turn(self, on_table: frozenset[str]) -> tuple[Phase, str | None]:
        """Ball on at the start of a turn (C03)."""
        if self.reds(on_table):
            return Phase.RED, None
        low = next(iter(self.colours_on(on_table)), None)
        return (Phase.SEQ, low) if low else (Phase.OVER, None)

    def _next_turn_phase(self, st: FrameState, on_after: frozenset[str]) -> tuple[Phase, str | None]:
        if st.phase == Phase.RESPOTTED_BLACK:
            return Phase.RESPOTTED_BLACK, None
        return self.start_of_turn(on_after)

    def balls_on_for_turn(self, on_table: frozenset[str], phase: Phase, seq: str | None) -> list[str]:
        """The balls on for the snookered test at the start of a turn."""
        if phase == Phase.RED:
            return self.reds(on_table)
        if phase == Phase.RESPOTTED_BLACK:
            return [self.last_ball]
        return [seq] if seq else []

    def touching_call(self, st: FrameState) -> tuple[tuple[str, ...], str | None]:
        """C37: the balls the cue ball rests against, and what the referee says about them."""
        pos, cue = st.positions, self.balls.cue
        if st.frame_over or not pos or cue not in pos or st.cue_in_hand:
            return (), None
        touching = G.touching_balls(pos[cue], _objects(pos), self.table, self.options.touching_gap_mm)
        if not touching:
            return (), None
        named = [b for b in touching if b in self._could_be_on_next(st)]
        if not named:  # R8(d): the referee answers only if asked
            return touching, (f"the cue ball touches the {' and '.join(touching)}, not on: play "
                              "away without moving it and hit a ball on first (R8(d))")
        declare = "; DECLARE the colour" if st.phase == Phase.COLOUR_CHOICE else ""
        return touching, "TOUCHING BALL: " + ", ".join(named) + declare

    def _could_be_on_next(self, st: FrameState) -> set[str]:
        """R8(a): the balls that are, or could be, on for the next stroke (every ball with a
        free ball to nominate; every colour after a red)."""
        if st.free_ball:
            return set(st.on_table)
        if st.phase == Phase.COLOUR_CHOICE:
            return set(self.colours_on(st.on_table))
        return set(self.balls_on_for_turn(st.on_table, st.phase, st.seq_colour))

    # ------------------------------------------------------------------ the stroke
    def decide(self, st: FrameState, shot: Shot) -> tuple[Decision, FrameState]:
        """Call one stroke.

        Raises:
            RuleError: the record is impossible in this state (a ball that is not on the
                table potted, the frame already over, ...).
        """
        if st.frame_over:
            raise RuleError(f"shot {shot.shot}: the frame is already over; start a new frame first")
        notes: list[str] = []
        review: list[str] = list(shot.needs_review)
        st, out_of_turn = self._resolve_striker(st, shot, notes, review)
        check_events(shot.events, shot.shot, self.balls.generic_red)
        check_positions(shot, self.table.length, self.table.width)
        events = self._resolve_events(st, shot)
        tip_foul = shot.operator.not_a_stroke and st.cue_in_hand and self.tip_on_ball_in_hand_foul
        if shot.operator.not_a_stroke and not tip_foul:
            notes.append("not a stroke (H20): the tip touched the cue ball while placing it")
            return self._unchanged(st, shot, (), notes, review)
        s = self._begin(st, shot, events, notes, review)
        s.out_of_turn = out_of_turn
        if s.facts.strike is None or tip_foul:
            return self._before_stroke(s)
        self._call_fouls(s)
        if shot.operator.lip_would_be_hit:
            return self._replay_lip_ruling(s)
        table = self._table_after(s)
        if s.fouls:
            return self._after_foul(s, table)
        return self._after_fair(s, table)

    def _begin(self, st: FrameState, shot: Shot, events: list[Event], notes: list[str],
               review: list[str]) -> SnookerStroke:
        """Read the stroke and work out the ball on."""
        pre = self._positions_before(st, shot)
        ctx = self._context(st, shot, events, pre, notes, review)
        facts = read_stroke(events, self.balls.cue, self.options.simultaneous_s,
                            self.options.hanging_ball_s)
        review.extend(record_warnings(facts))
        s = SnookerStroke(st, replace(shot, events=tuple(events)), pre, ctx, facts, notes, review)
        self._check_touching_change(s)
        return s

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
        res = G.snooker_test(post[self.balls.cue], _objects(post), on, self.table)
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
        return G.touching_balls(pre[cue], _objects(pre), self.table, self.options.touching_gap_mm)

    def _check_touching_change(self, s: SnookerStroke) -> None:
        """C40 / R8(g): a ball that starts or stops touching the cue ball between the end of
        the last stroke (when the referee examined it) and this strike."""
        was = self._examined_touching(s.st)
        cue = self.balls.cue
        if was is None or s.shot.positions_before is None or cue not in s.shot.positions_before:
            return
        now = set(G.touching_balls(s.shot.positions_before[cue], _objects(s.shot.positions_before),
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
        return set(G.touching_balls(st.positions[cue], _objects(st.positions), self.table,
                                    self.options.touching_gap_mm))

    # ------------------------------------------------------------------ scoring, placing balls
    def _score(self, s: SnookerStroke) -> int:
        """C21, C25: points of a fair stroke."""
        st, ctx, potted = s.st, s.ctx, s.facts.potted
        if st.phase == Phase.RED:
            return sum(1 for b in potted if self.balls.is_red(b) or b == ctx.fb)
        if st.phase == Phase.COLOUR_CHOICE:
            return self.balls.value(ctx.nominated) if ctx.nominated in potted else 0  # type: ignore[arg-type]
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else self.last_ball
            if c in potted or (ctx.fb and ctx.fb in potted):
                return self.balls.value(c)  # type: ignore[arg-type]
        return 0

    def _on_after_pots(self, s: SnookerStroke) -> set[str]:
        return set(s.st.on_table) - set(s.facts.potted) - set(s.facts.objects_off)

    def _positions_after(self, s: SnookerStroke) -> dict[str, Position] | None:
        """Positions at rest, without the balls that left the table."""
        if s.shot.positions_after is None:
            return None
        f = s.facts
        gone = set(f.potted) | set(f.off) | ({self.balls.cue} if f.cue_gone else set())
        return {k: v for k, v in s.shot.positions_after.items() if k not in gone}

    def _balls_put_back(self, s: SnookerStroke) -> list[str]:
        """R9(a), R15: balls that dropped late, fell from a lip or were moved by someone other
        than the players, put back where they were (in event order)."""
        out: list[str] = []
        late = dict(s.facts.late_drops)
        for e in s.facts.early:
            if e.type == EventType.POT:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} dropped before the strike: not part of the stroke, "
                               "put back (R9(a))")
                s.review.append(f"a pot of the {e.ball} is recorded before the strike: check the "
                                "record's times")
        for e in s.shot.events:
            if e.type == EventType.POT and e.t < s.facts.t0:
                continue  # dropped before the strike: above
            if e.type == EventType.POT and e.ball in late and e.rest_s == late[e.ball]:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} fell {e.rest_s:.1f} s after stopping on the lip: "
                               "not part of the stroke, put back (R9(a))")
            elif e.type == EventType.POT and e.rest_s > 0 and e.ball != self.balls.cue:
                s.notes.append(f"the {e.ball} balanced on the lip and fell: it counts (R9(c))")
            elif e.type == EventType.LIP_DROP:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} fell from the lip untouched: put back, no penalty (R9(a))")
                if e.t > s.facts.t0:
                    s.review.append(f"the {e.ball} fell from the lip during the stroke: check whether "
                                    "a moving ball would have hit it (R9(b))")
            elif e.type == EventType.DISTURBED and e.by in PUT_BACK_BY:
                out.append(e.ball)
                s.notes.append(f"the {e.ball} was moved by the {e.by}: repositioned, no penalty (R15)")
            elif e.type == EventType.DISTURBED and e.by == "non_striker":
                out.append(e.ball)
                s.notes.append(f"the {e.ball} was moved by the non-striker: repositioned (R14(h), R15)")
        return out

    def _balls_to_spot(self, s: SnookerStroke) -> list[str]:
        """C34: colours potted in a foul or while they are re-spotted, colours forced off,
        colours missing at the strike."""
        foul = bool(s.fouls)
        out = [b for b in s.facts.potted
               if self.balls.is_colour(b) and (foul or self._respot_after_fair_pot(s, b))]
        out += [b for b in s.facts.off if self.balls.is_colour(b)]
        out += [c for c in s.missing if c not in out]
        return out

    def _respot_after_fair_pot(self, s: SnookerStroke, ball: str) -> bool:
        if s.ctx.fb and ball == s.ctx.fb:
            return True  # a potted free ball is always spotted (R12(c),(e))
        return s.st.phase == Phase.COLOUR_CHOICE  # colour after a red, the last red included

    def _respot(self, to_spot: list[str], post: dict[str, Position] | None, put_back: list[str],
                pre: dict[str, Position] | None) -> tuple[Respot, ...]:
        """Where the referee puts each ball back (R9, R15) or re-spots it (C35)."""
        out = [Respot(b, pre.get(b) if pre else None, "put_back") for b in put_back]
        if to_spot:
            occupied = None
            if post is not None:
                occupied = {k: v for k, v in post.items() if k not in to_spot}
                occupied.update({r.ball: r.position for r in out if r.position})
            out.extend(respot_positions(to_spot, occupied, self.spots(), self.spot_priority(),
                                        self.balls.value, self.table.ball_diameter,
                                        self.table.length, own_first=self.options.own_spots_first))
        return tuple(out)

    def _table_after(self, s: SnookerStroke) -> TableAfter:
        """The balls, positions and scores once the stroke is over (before the turn passes)."""
        post = self._positions_after(s)
        respots = self._respot(self._balls_to_spot(s), post, s.put_back, s.pre)
        on_after = self._on_after_pots(s) | {r.ball for r in respots} | set(s.put_back)
        scores, break_points = self._deduct_unspotted(s)
        pen = self._penalty(s)
        for f in s.nonstriker:
            scores[s.st.striker] += f.penalty
            s.notes.append(f"non-striker's foul: {f.message}; {f.penalty} to the striker, "
                           "order of play unchanged (R2(b)(ii))")
        if s.fouls:
            scores[1 - s.st.striker] += pen
        return TableAfter(frozenset(on_after), _apply_respots(post, respots), post, respots,
                      (scores[0], scores[1]), break_points, pen)

    def _deduct_unspotted(self, s: SnookerStroke) -> tuple[list[int], int]:
        """C06: the colour scored last stroke and not re-spotted when this one was played
        does not score (R3(g)(iv))."""
        scores, break_points = list(s.st.scores), s.st.break_points
        last = s.st.last_colour_scored
        if self.deduct_unspotted and last and last[0] in s.missing and last[2] == s.st.striker:
            scores[last[2]] -= last[1]
            break_points = max(0, break_points - last[1])
            s.notes.append(f"the {last[0]} potted last stroke does not score (R3(g)(iv))")
        return scores, break_points

    def _penalty(self, s: SnookerStroke) -> int:
        """The penalty incurred (C19); D18's ``own`` reading for a potted free ball."""
        pen = max((f.penalty for f in s.fouls), default=0)
        fb = s.ctx.fb
        if s.fouls and fb and fb in s.facts.potted and self.options.free_ball_value == "own":
            pen = min(7, max(pen, self.balls.value(fb)))
            s.notes.append(f"the potted free ball counts at its own value ({self.balls.value(fb)}) "
                           "(option free_ball_value=own, D18)")
        return pen

    def _snapshot(self, s: SnookerStroke) -> Snapshot:
        st = s.st
        return Snapshot(s.pre, st.on_table, st.phase, st.seq_colour, st.last_red_colour,
                        st.cue_in_hand, st.free_ball)

    # ------------------------------------------------------------------ next state
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
        objs = _objects(pos)
        if nxt.cue_in_hand:
            snk, _ = G.snookered_in_hand(objs, on, self.table)
            return snk, ()
        if self.balls.cue not in pos:
            notes.append("free ball not tested: cue ball position unknown")
            return False, ()
        res = G.snooker_test(pos[self.balls.cue], objs, on, self.table)
        return res.snookered, res.effective

    # ------------------------------------------------------------------ reading the record
    def _resolve_striker(self, st: FrameState, shot: Shot, notes: list[str],
                         review: list[str]) -> tuple[FrameState, bool]:
        """Who plays: the expected striker, a play-again request inferred, the lots winner
        named by the record, or a player out of turn (H14: he is the striker for the foul he
        commits, S2 R5)."""
        if st.awaiting_lots:
            st = self._lots_from_record(st, shot, review)
        name = shot.striker
        if name is None or name in (st.players[st.striker], st.player):
            return st, False
        side = st.side_of(name)
        if side is None:
            raise RuleError(f"shot {shot.shot}: striker {name!r} is not a player of this "
                            f"frame ({', '.join(st.order or st.players)})")
        if st.pending and side == st.pending.offender and "play_again" in st.pending.options \
                and (not st.order or st.order[st.pending.offender_turn] == name or name in st.players):
            notes.append(f"{name} plays again: play-again request inferred (no option input)")
            return self._play_again(st), False
        review.append(f"{name} played but {st.player} was due: playing out of turn (R10(a)(iv), "
                      "S2 R5, S3 R17(c)); check the record's striker")
        named = self._set_striker(st, OperatorInput(InputKind.STRIKER, player=name), "striker")
        return st.played_out_of_turn(named.striker, named.turn), True

    def _resolve_events(self, st: FrameState, shot: Shot) -> list[Event]:
        """Check every ball named exists and is on the table; map generic ``red`` ids."""
        out: list[Event] = []
        free_reds = self.reds(st.on_table)
        used: set[str] = set()
        left: set[str] = set()
        for e in shot.events:
            names = [self._resolve_ball(st, shot, e, b, free_reds, used) for b in e.balls]
            if e.type in (EventType.POT, EventType.OFF_TABLE) and names[0] != self.balls.cue:
                if names[0] in left:
                    raise RuleError(f"shot {shot.shot}: the {names[0]} leaves the table twice")
                left.add(names[0])
            out.append(replace(e, balls=tuple(names)))
        return out

    def _resolve_ball(self, st: FrameState, shot: Shot, e: Event, b: str, free_reds: list[str],
                      used: set[str]) -> str:
        b = self.balls.aliases.get(b, b)
        if not self.balls.is_valid(b):
            raise RuleError(f"shot {shot.shot}: {b!r} is not a ball of {self.name}")
        if b == self.balls.generic_red:
            if not free_reds:
                raise RuleError(f"shot {shot.shot}: a {e.type} event names a red but no red is on "
                                "the table")
            if e.type not in (EventType.POT, EventType.OFF_TABLE):
                return free_reds[0]
            cand = [r for r in free_reds if r not in used]
            if not cand:
                raise RuleError(f"shot {shot.shot}: more reds leave the table than are on it")
            used.add(cand[0])
            return cand[0]
        if b not in self.balls.cue_balls and b not in st.on_table:
            raise RuleError(f"shot {shot.shot}: a {e.type} event names the {b}, which is not on "
                            "the table")
        return b

    def _positions_before(self, st: FrameState, shot: Shot) -> dict[str, Position] | None:
        cue = self.balls.cue
        if shot.positions_before is not None:
            for b in shot.positions_before:
                if b != cue and b not in st.on_table and not self.balls.is_colour(b):
                    raise RuleError(f"shot {shot.shot}: positions_before has the {b}, which is not "
                                    "on the table")
            return dict(shot.positions_before)
        return dict(st.positions) if st.positions is not None and cue in st.positions else None

    def _context(self, st: FrameState, shot: Shot, events: list[Event],
                 pre: dict[str, Position] | None, notes: list[str], review: list[str]) -> BallOn:
        """The ball on (C03, C04) and the free ball (C24) for this stroke."""
        fb = self._free_ball_nominated(st, shot, notes, review)
        extra = frozenset({fb}) if fb else frozenset()
        if st.phase == Phase.RED:
            on = frozenset(self.reds(st.on_table)) | extra
            return BallOn(on, on, 1, None, fb, "red")
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else self.last_ball
            assert c is not None
            on = frozenset({c}) | extra
            return BallOn(on, on, self.balls.value(c), None, fb, c)
        nominated = self._nomination(st, shot, events, pre, notes)
        if nominated is None:
            return BallOn(frozenset(), frozenset(), None, None, None, "colour")
        one = frozenset({nominated})
        return BallOn(one, one, self.balls.value(nominated), nominated, None, nominated)

    def _free_ball_nominated(self, st: FrameState, shot: Shot, notes: list[str],
                             review: list[str]) -> str | None:
        if shot.free_ball:
            if not st.free_ball:
                review.append(f"a free ball ({shot.free_ball}) was nominated but none was awarded: "
                              "ignored")
                return None
            if shot.free_ball not in st.on_table:
                raise RuleError(f"shot {shot.shot}: the free ball {shot.free_ball} is not on the table")
            if shot.free_ball in self.balls_on_for_turn(st.on_table, st.phase, st.seq_colour):
                review.append(f"the free ball nominated, the {shot.free_ball}, is a ball on: played "
                              "as the ball on (S2 R13: a free ball is another ball nominated as on)")
                return None
            return shot.free_ball
        if st.free_ball:
            notes.append("free ball available, none nominated: playing the ball on")
        return None

    def _nomination(self, st: FrameState, shot: Shot, events: list[Event],
                    pre: dict[str, Position] | None, notes: list[str]) -> str | None:
        """COLOUR_CHOICE: declared, touching-declared (H3) or inferred from the first contact
        (H1)."""
        nominated = shot.nomination
        if nominated is not None:
            if not self.balls.is_colour(nominated) or nominated not in st.on_table:
                raise RuleError(f"shot {shot.shot}: nominated {nominated!r} is not a colour on "
                                "the table")
            return nominated
        touching = [b for b in self._touching(st, shot, pre) if self.balls.is_colour(b)]
        if len(touching) == 1:
            notes.append(f"touching colour {touching[0]} taken as declared (H3 default)")
            return touching[0]
        strike_t = next((e.t for e in events if e.type == EventType.STRIKE), -math.inf)
        group = first_group(cue_contacts(events, self.balls.cue, strike_t), self.balls.cue,
                            self.options.simultaneous_s)
        if len(group) == 1 and self.balls.is_colour(next(iter(group))):
            nominated = next(iter(group))
            notes.append(self._inferred_note(nominated))
            return nominated
        return None

    def _inferred_note(self, ball: str) -> str:
        return f"nomination inferred from the first contact: {ball} (H1 default)"


def _objects(pos: Mapping[str, Position]) -> dict[str, Position]:
    return {k: v for k, v in pos.items() if k != B.WHITE}


def _apply_respots(post: dict[str, Position] | None,
                   respots: tuple[Respot, ...]) -> dict[str, Position] | None:
    if post is None:
        return None
    out = dict(post)
    for r in respots:
        if r.position is not None:
            out[r.ball] = r.position
    return out
