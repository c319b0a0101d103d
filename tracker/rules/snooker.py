"""The standard snooker referee (WPBSA, ``shared/rules/sources/003_*.txt``) and its
reduced-reds variants (the "any number of reds" annex of 002).

``SnookerRules.decide(state, shot)`` is a pure function: it returns the decision on the
stroke and the next :class:`FrameState`, never mutating its inputs. It reads the stroke
(:mod:`tracker.rules.stroke`, :mod:`tracker.rules.snooker_record`), calls the fouls with
small named predicates (:mod:`tracker.rules.snooker_fouls`), scores and places the balls
(:mod:`tracker.rules.snooker_scoring`), and hands the outcome and the next state
(:mod:`tracker.rules.snooker_next`) to the shared builder (:mod:`tracker.rules.outcome`). The
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
from tracker.records.shot import Event, Shot
from tracker.rules import geometry as G
from tracker.rules.ballset import BallSet, snooker_balls
from tracker.rules.errors import RuleError
from tracker.rules.frame_end import FrameEndRules
from tracker.rules.geometry import object_balls
from tracker.rules.inputs import InputRules
from tracker.rules.misses import MissRules
from tracker.rules.options import RuleOptions
from tracker.rules.outcome import InputResult
from tracker.rules.snooker_fouls import SnookerFoulRules
from tracker.rules.snooker_next import SnookerNextStateRules
from tracker.rules.snooker_record import SnookerRecordRules
from tracker.rules.snooker_scoring import SnookerScoringRules
from tracker.rules.snooker_types import SnookerStroke
from tracker.rules.state import Decision, FrameState, Phase, Position
from tracker.rules.stroke import check_events, check_positions, read_stroke, record_warnings
from tracker.rules.unplayed import UnplayedRules

__all__ = ["InputResult", "RuleError", "SnookerRules", "SPOT_PRIORITY"]

#: Spots from the highest value to the lowest (R7(d)).
SPOT_PRIORITY = ("black", "pink", "blue", "brown", "green", "yellow")
#: A small gap left between the apex red and the pink when racking, mm (000 commentary: 1-5).
APEX_GAP_MM = 2.0
#: Gap between reds in the rack, mm.
RACK_GAP_MM = 0.2
#: Tolerance of the set-up check (C01), mm.
SETUP_CHECK_MM = 10.0


@dataclass(frozen=True)
class SnookerRules(SnookerRecordRules, SnookerFoulRules, SnookerScoringRules, SnookerNextStateRules,
                   UnplayedRules, MissRules, FrameEndRules, InputRules):
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
        touching = G.touching_balls(pos[cue], object_balls(pos), self.table, self.options.touching_gap_mm)
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
