"""The standard snooker referee (WPBSA, ``shared/rules/sources/003_*.txt``) and its
reduced-reds variants (the "any number of reds" annex of 002).

``SnookerRules.decide(state, shot)`` is a pure function: it returns the decision on the
stroke and the next :class:`FrameState`, never mutating its inputs. Rule ids in comments
(Cxx, Hxx, Dxx, Sxx) refer to ``shared/rules/RULES-DIGEST.md``.

What is and is not implemented is listed in ``docs/RULES.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker import balls as B
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules import geometry as G
from tracker.rules.fouls import FOULS, Group, penalty
from tracker.rules.options import RuleOptions
from tracker.rules.respot import respot_positions
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
from tracker.words import balls_words

#: Spots from the highest value to the lowest (R7(d)).
SPOT_PRIORITY = ("black", "pink", "blue", "brown", "green", "yellow")
#: Colours left -> points available in SEQ (C46).
_COLOUR_SUM = {c: sum(B.VALUES[x] for x in B.COLOURS[i:]) for i, c in enumerate(B.COLOURS)}
#: First-contact failures that can make a miss (C28).
_FAILURE_CODES = {"no_contact", "wrong_ball_first", "free_ball_not_hit_first", "simultaneous_hit"}
#: A small gap left between the apex red and the pink when racking, mm (000 commentary: 1-5).
APEX_GAP_MM = 2.0
#: Gap between reds in the rack, mm.
RACK_GAP_MM = 0.2
#: A re-spotted ball further than this from its computed place is reported (C36), mm.
RESPOT_CHECK_MM = 10.0
#: Tolerance of the set-up check (C01), mm.
SETUP_CHECK_MM = 10.0


class RuleError(ValueError):
    """A shot or input the referee cannot accept (impossible record); says what is wrong."""


@dataclass(frozen=True)
class InputResult:
    """The outcome of an operator input between strokes."""

    input: str
    accepted: bool
    message: str
    score: dict[str, int]
    next_striker: str | None
    frame_over: bool = False
    winner: str | None = None
    end_reason: str | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {
            "input": self.input,
            "accepted": self.accepted,
            "message": self.message,
            "score": dict(self.score),
            "next_striker": self.next_striker,
            "frame_over": self.frame_over,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class _Ctx:
    """Working values of one stroke (internal)."""

    on_first: frozenset[str]
    on_pot: frozenset[str]
    v_on: int | None
    nominated: str | None
    fb: str | None
    label: str


@dataclass(frozen=True)
class SnookerRules:
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

    # ------------------------------------------------------------------ set-up
    def with_options(self, options: RuleOptions, table: TableGeometry | None = None) -> SnookerRules:
        """The same game with other options or another table."""
        return replace(self, options=options, table=table or self.table)

    def ball_ids(self) -> tuple[str, ...]:
        """All ball ids of this game."""
        return (B.WHITE, *B.red_ids(self.n_reds), *B.COLOURS)

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
        on = frozenset(b for b in pos if b != B.WHITE)
        if positions is None:
            on = frozenset(b for b in self.ball_ids() if b != B.WHITE)
        return FrameState(
            ruleset=self.name,
            players=players,
            scores=(0, 0),
            striker=breaker,
            breaker=breaker,
            on_table=on,
            phase=Phase.RED if any(B.is_red(b) for b in on) else Phase.SEQ,
            seq_colour=None if any(B.is_red(b) for b in on) else _lowest_colour(on),
            cue_in_hand=B.WHITE not in pos,
            positions=pos,
            options=self.options.to_dict(),
            frame=frame,
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
        """Reds on the table, sorted."""
        return sorted(b for b in on_table if B.is_red(b))

    def points_remaining(self, st: FrameState) -> int:
        """Points available to be scored (C46); the re-spotted black's 7 is excluded."""
        r = len(self.reds(st.on_table))
        if st.phase == Phase.RED:
            return 8 * r + 27
        if st.phase == Phase.COLOUR_CHOICE:
            return 8 * r + 27 + 7
        if st.phase == Phase.SEQ and st.seq_colour:
            return _COLOUR_SUM[st.seq_colour]
        if st.phase == Phase.RESPOTTED_BLACK:
            return 7
        return 0

    def snookers_required(self, st: FrameState) -> dict[str, int]:
        """Snookers each player needs to win (0 when not needed): n = ceil((D - R + 1) / p),
        p = max(4, value of the lowest ball on) (C46, a derived estimate)."""
        rem = self.points_remaining(st)
        lowest = 1 if self.reds(st.on_table) else B.VALUES.get(st.seq_colour or "black", 7)
        p = max(4, lowest)
        out = {}
        for i, name in enumerate(st.players):
            deficit = st.scores[1 - i] - st.scores[i]
            out[name] = max(0, math.ceil((deficit - rem + 1) / p)) if deficit >= rem else 0
        return out

    def ball_on_label(self, st: FrameState) -> str:
        """The ball on in words: ``red``, ``colour``, a colour name, ``black`` or ``none``."""
        if st.phase == Phase.RED:
            return "red"
        if st.phase == Phase.COLOUR_CHOICE:
            return "colour"
        if st.phase == Phase.SEQ:
            return st.seq_colour or "none"
        if st.phase == Phase.RESPOTTED_BLACK:
            return "black"
        return "none"

    def start_of_turn(self, on_table: frozenset[str]) -> tuple[Phase, str | None]:
        """Ball on at the start of a turn (C03)."""
        if any(B.is_red(b) for b in on_table):
            return Phase.RED, None
        low = _lowest_colour(on_table)
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
            return ["black"]
        return [seq] if seq else []

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
        opt = self.options
        st = self._resolve_striker(st, shot, notes, review)
        striker, opp = st.striker, 1 - st.striker
        events = self._resolve_events(st, shot)

        if shot.operator.not_a_stroke:
            notes.append("not a stroke (H20): the tip touched the cue ball while placing it")
            dec = self._decision(st, shot, st, (), 0, {}, False, (), (), notes, review, potted=())
            return dec, st

        pre = self._positions_before(st, shot)
        ctx = self._context(st, shot, events, pre, notes, review)
        fouls: list[Foul] = []

        def add(code: str, balls: tuple[str, ...] = (), v_on: int | None = ctx.v_on,
                fmt: dict[str, str] | None = None) -> None:
            kind = FOULS[code]
            concerned = tuple(self._concern_value(b, ctx) for b in balls)
            pen = penalty(kind.group, v_on, concerned, undetermined=opt.undetermined_on_penalty)
            if kind.group is Group.D:
                pen = 7
            text = kind.message.format(
                ball=(fmt or {}).get("ball", balls[0] if balls else ""),
                balls=" and ".join(balls),
            )
            if v_on is None and kind.group is not Group.D:
                review.append(
                    f"{code}: ball on undetermined after a red (no nomination): penalty 7 by "
                    "R10(d)(vi); enter the nominated colour if one was declared"
                )
            fouls.append(Foul(code, kind.rule, kind.digest, text, pen, balls))

        # --- preconditions at the strike (C02, C05, C06, C07)
        strike = next((e for e in events if e.type == EventType.STRIKE), None)
        if strike is None:
            return self._before_stroke(st, shot, events, ctx, pre, notes, review)
        t0 = strike.t if strike else (events[0].t if events else 0.0)
        if strike and strike.ball != B.WHITE:
            if st.shots == 0:
                notes.append("a ball other than the white was struck before the frame started: "
                             "position restored, no foul (000 commentary)")
            else:
                add("wrong_cue_ball", (strike.ball,))
        if st.cue_in_hand and pre is not None and B.WHITE in pre:
            out = self.table.d_distance_outside(pre[B.WHITE])
            if out > opt.in_hand_tolerance_mm:
                add("in_hand_outside_d")
                notes.append(f"cue ball centre {out:.0f} mm outside the D")
            elif out > 0:
                review.append(f"in-hand placement {out:.1f} mm outside the D, within tolerance")
        for e in events:
            if e.type == EventType.MOVING_AT_STRIKE:
                add("moving_ball", (e.ball,))
        if shot.positions_before is not None and st.positions is not None:
            for b in st.last_respots:
                want, got = st.positions.get(b), shot.positions_before.get(b)
                if want and got and math.dist(want, got) > RESPOT_CHECK_MM:
                    review.append(f"the {b} was placed {math.dist(want, got):.0f} mm from where it "
                                  "should have been spotted (C36): tell the referee before the stroke")
        missing_spotted: list[str] = []
        if shot.positions_before is not None:
            for c in B.COLOURS:
                if c in st.on_table and c not in shot.positions_before:
                    missing_spotted.append(c)
                    was_fb = bool(st.last_colour_scored and st.last_colour_scored[0] == c
                                  and st.last_colour_scored[3])
                    add("free_ball_not_respotted" if was_fb else "not_respotted", (c,))

        # --- first contact (C08, C09, C10, C24, C38)
        first, first_t, deemed = self._first_contact(st, shot, events, ctx, pre, review)
        pushed = [e.ball for e in events if e.type == EventType.PUSH]
        if not first:
            add("no_contact")
        elif not self._first_ok(first, ctx):
            if ctx.fb and ctx.fb not in first and len(first) == 1:
                add("free_ball_not_hit_first", tuple(first))
            elif len(first) == 1:
                add("wrong_ball_first", tuple(first))
            else:
                pair = tuple(sorted(first, key=lambda b: -self._concern_value(b, ctx))[:2])
                add("simultaneous_hit", pair)
        for b in pushed:
            add("push_stroke", (b,))
        for e in events:
            if e.type == EventType.JUMP:
                if first_t is None or e.t <= first_t:
                    add("jump_shot", (e.ball,))
                else:
                    notes.append(f"cue ball jumped the {e.ball} after a lawful first contact: no foul")

        # --- pots, balls off the table (C11-C14, C41, C42)
        potted: list[str] = []
        put_back: list[str] = []
        cue_potted = False
        for e in events:
            if e.type == EventType.POT:
                if e.rest_s > opt.hanging_ball_s:
                    put_back.append(e.ball)
                    notes.append(f"the {e.ball} fell {e.rest_s:.1f} s after stopping on the lip: "
                                 "not part of the stroke, put back (R9(a))")
                elif e.ball == B.WHITE:
                    cue_potted = True
                else:
                    potted.append(e.ball)
                    if e.rest_s > 0:
                        notes.append(f"the {e.ball} balanced on the lip and fell: it counts (R9(c))")
            elif e.type == EventType.LIP_DROP:
                put_back.append(e.ball)
                notes.append(f"the {e.ball} fell from the lip untouched: put back, no penalty (R9(a))")
                if e.t > t0:
                    review.append(f"the {e.ball} fell from the lip during the stroke: check whether "
                                  "a moving ball would have hit it (R9(b))")
        if cue_potted:
            add("cue_ball_potted")
        not_on_pots = [b for b in potted if b not in ctx.on_pot]
        if not_on_pots:
            worst = max(not_on_pots, key=lambda b: self._concern_value(b, ctx))
            add("pot_not_on", (worst,))
        off = [e.ball for e in events if e.type == EventType.OFF_TABLE]
        cue_off = B.WHITE in off
        for b in off:
            add("forced_off", (b,))
        disturbed_nonstriker: list[Foul] = []
        for e in events:
            if e.type != EventType.DISTURBED:
                continue
            if e.by == "striker":
                add("ball_disturbed", (e.ball,))
            elif e.by == "non_striker":
                k = FOULS["ball_disturbed"]
                pen = penalty(k.group, ctx.v_on, (self._concern_value(e.ball, ctx),))
                disturbed_nonstriker.append(Foul("ball_disturbed", k.rule, k.digest,
                                                 "the non-striker moved the " + e.ball, pen, (e.ball,)))
            elif e.by in ("referee", "outside", "house_equipment"):
                put_back.append(e.ball)
                notes.append(f"the {e.ball} was moved by the {e.by}: repositioned, no penalty (R15)")
            else:
                notes.append(f"the {e.ball} moved by itself (table): no foul (R15(a))")
        for f in shot.operator.fouls:
            add(f.code, (f.ball,) if f.ball else (), fmt={"ball": f.ball or "ball"})

        # --- legal pots and scoring
        foul = bool(fouls)
        on_after = set(st.on_table) - set(potted) - {b for b in off if b != B.WHITE}
        reds_after = [b for b in on_after if B.is_red(b)]
        points_scored = 0
        if not foul:
            points_scored = self._score(st, ctx, potted)

        # --- free-ball and nominated-colour snooker fouls on the final position (C26)
        post = self._positions_after(shot, potted, off, cue_potted or B.WHITE in off)
        if (not foul and ctx.fb and post is not None and B.WHITE in post
                and (points_scored == 0 or opt.free_ball_snooker_after_pot)):
            others = {b for b in on_after if b != ctx.fb}
            if not others <= {"pink", "black"}:
                phase_n, seq_n = self.start_of_turn(frozenset(on_after))
                on_n = self.balls_on_for_turn(frozenset(on_after), phase_n, seq_n)
                res = G.snooker_test(post[B.WHITE], _objects(post), on_n, self.table)
                if res.snookered and ctx.fb in res.effective:
                    add("snooker_behind_free_ball", (), fmt={"ball": ctx.fb})
        if (not fouls and self.no_snooker_behind_nominated and ctx.nominated
                and points_scored == 0 and post is not None and B.WHITE in post):
            phase_n, seq_n = self.start_of_turn(frozenset(on_after))
            on_n = self.balls_on_for_turn(frozenset(on_after), phase_n, seq_n)
            res = G.snooker_test(post[B.WHITE], _objects(post), on_n, self.table)
            if res.snookered and ctx.nominated in res.effective:
                add("snooker_behind_nominated", (), fmt={"ball": ctx.nominated})
        foul = bool(fouls)
        if foul:
            points_scored = 0

        # --- re-spots (C34, C35)
        to_spot: list[str] = []
        for b in potted:
            if B.is_colour(b) and (foul or self._respot_after_fair_pot(st, ctx, b)):
                to_spot.append(b)
        for b in off:
            if B.is_colour(b):
                to_spot.append(b)
        for c in missing_spotted:
            if c not in to_spot:
                to_spot.append(c)
        respots = self._respot(to_spot, post, put_back, pre)
        for r in respots:
            on_after.add(r.ball)
        for b in put_back:
            on_after.add(b)
        on_after_f = frozenset(on_after)
        positions_next = _apply_respots(post, respots)

        # --- C06 deduction of a colour scored last stroke and not yet re-spotted
        scores = list(st.scores)
        break_points = st.break_points
        if missing_spotted and st.last_colour_scored and st.last_colour_scored[0] in missing_spotted \
                and st.last_colour_scored[2] == striker:
            _, pts, who, _ = st.last_colour_scored
            scores[who] -= pts
            break_points = max(0, break_points - pts)
            notes.append(f"the {st.last_colour_scored[0]} potted last stroke does not score (R3(g)(iv))")

        # --- penalty, miss, next state
        pen = max((f.penalty for f in fouls), default=0)
        if foul and ctx.fb and ctx.fb in potted and opt.free_ball_value == "own":
            pen = min(7, max(pen, B.value(ctx.fb)))
            notes.append(f"the potted free ball counts at its own value ({B.value(ctx.fb)}) "
                         "(option free_ball_value=own, D18)")
        for f in disturbed_nonstriker:
            scores[striker] += f.penalty
            notes.append(f"non-striker's foul: {f.message}; {f.penalty} to the striker, "
                         "order of play unchanged (R2(b)(ii))")
        snapshot = Snapshot(pre, st.on_table, st.phase, st.seq_colour, st.last_red_colour,
                            st.cue_in_hand, st.free_ball)
        if foul:
            scores[opp] += pen
            return self._after_foul(st, shot, ctx, fouls, pen, scores, potted, cue_potted or cue_off,
                                    on_after_f, positions_next, respots, snapshot, first, deemed,
                                    pre, notes, review)
        return self._after_fair(st, shot, ctx, points_scored, scores, break_points, potted,
                                on_after_f, positions_next, respots, notes, review, reds_after)

    # ------------------------------------------------------------------ helpers: setup
    def _resolve_striker(self, st: FrameState, shot: Shot, notes: list[str],
                         review: list[str]) -> FrameState:
        if shot.striker is None or shot.striker == st.players[st.striker]:
            return st
        if shot.striker not in st.players:
            raise RuleError(f"shot {shot.shot}: striker {shot.striker!r} is not a player of this "
                            f"frame ({', '.join(st.players)})")
        if st.pending and st.players.index(shot.striker) == st.pending.offender \
                and "play_again" in st.pending.options:
            notes.append(f"{shot.striker} plays again: play-again request inferred (no option input)")
            return self._play_again(st)
        review.append(f"the record names {shot.striker} as striker but {st.players[st.striker]} "
                      "was expected; called as the expected striker")
        return st

    def _resolve_events(self, st: FrameState, shot: Shot) -> list[Event]:
        """Check every ball named exists and is on the table; map generic ``red`` ids."""
        out: list[Event] = []
        free_reds = self.reds(st.on_table)
        used: set[str] = set()
        left: set[str] = set()
        for e in shot.events:
            names = []
            for b in e.balls:
                if not B.valid_ball(b, self.n_reds):
                    raise RuleError(f"shot {shot.shot}: {b!r} is not a ball of {self.name}")
                if b == B.GENERIC_RED:
                    if not free_reds:
                        raise RuleError(f"shot {shot.shot}: a {e.type} event names a red but no "
                                        "red is on the table")
                    if e.type in (EventType.POT, EventType.OFF_TABLE):
                        cand = [r for r in free_reds if r not in used]
                        if not cand:
                            raise RuleError(f"shot {shot.shot}: more reds leave the table than "
                                            "are on it")
                        b = cand[0]
                        used.add(b)
                    else:
                        b = free_reds[0]
                elif b != B.WHITE and b not in st.on_table:
                    raise RuleError(f"shot {shot.shot}: a {e.type} event names the {b}, which is "
                                    "not on the table")
                names.append(b)
            if e.type in (EventType.POT, EventType.OFF_TABLE) and names[0] != B.WHITE:
                if names[0] in left:
                    raise RuleError(f"shot {shot.shot}: the {names[0]} leaves the table twice")
                left.add(names[0])
            out.append(replace(e, balls=tuple(names)))
        return out

    def _positions_before(self, st: FrameState, shot: Shot) -> dict[str, Position] | None:
        if shot.positions_before is not None:
            for b in shot.positions_before:
                if b != B.WHITE and b not in st.on_table and not B.is_colour(b):
                    raise RuleError(f"shot {shot.shot}: positions_before has the {b}, which is not "
                                    "on the table")
            return dict(shot.positions_before)
        return dict(st.positions) if st.positions is not None and B.WHITE in st.positions else None

    def _context(self, st: FrameState, shot: Shot, events: list[Event],
                 pre: dict[str, Position] | None, notes: list[str], review: list[str]) -> _Ctx:
        reds = frozenset(self.reds(st.on_table))
        fb = None
        if shot.free_ball:
            if not st.free_ball:
                review.append(f"a free ball ({shot.free_ball}) was nominated but none was awarded: "
                              "ignored")
            elif shot.free_ball not in st.on_table:
                raise RuleError(f"shot {shot.shot}: the free ball {shot.free_ball} is not on the table")
            else:
                fb = shot.free_ball
        elif st.free_ball:
            notes.append("free ball available, none nominated: playing the ball on")
        if st.phase == Phase.RED:
            on = reds
            return _Ctx(on | ({fb} if fb else set()), on | ({fb} if fb else set()), 1, None, fb, "red")
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else "black"
            assert c is not None
            extra = {fb} if fb else set()
            return _Ctx(frozenset({c} | extra), frozenset({c} | extra), B.VALUES[c], None, fb, c)
        # COLOUR_CHOICE: declared, touching-declared (H3) or inferred from the first contact (H1)
        nominated = shot.nomination
        if nominated is not None and (not B.is_colour(nominated) or nominated not in st.on_table):
            raise RuleError(f"shot {shot.shot}: nominated {nominated!r} is not a colour on the table")
        if nominated is None:
            touching = self._touching(st, shot, pre)
            tcol = [b for b in touching if B.is_colour(b)]
            if len(tcol) == 1:
                nominated = tcol[0]
                notes.append(f"touching colour {nominated} taken as declared (H3 default)")
        if nominated is None:
            strike_t = next((e.t for e in events if e.type == EventType.STRIKE), -math.inf)
            group = self._first_group(events, strike_t)
            if len(group) == 1 and B.is_colour(next(iter(group))):
                nominated = next(iter(group))
                notes.append(f"nomination inferred from the first contact: {nominated} (H1 default)")
        if nominated is None:
            return _Ctx(frozenset(), frozenset(), None, None, None, "colour")
        return _Ctx(frozenset({nominated}), frozenset({nominated}), B.VALUES[nominated], nominated,
                    None, nominated)

    def _touching(self, st: FrameState, shot: Shot, pre: dict[str, Position] | None) -> tuple[str, ...]:
        if shot.touching is not None:
            return shot.touching
        if st.cue_in_hand or pre is None or B.WHITE not in pre:
            return ()
        return G.touching_balls(pre[B.WHITE], _objects(pre), self.table, self.options.touching_gap_mm)

    def _first_group(self, events: list[Event], t0: float) -> set[str]:
        contacts = [e for e in events if e.type == EventType.CONTACT and B.WHITE in e.balls
                    and e.t >= t0 - 1e-9]
        if not contacts:
            return set()
        t_first = contacts[0].t
        group = set()
        for e in contacts:
            if e.t - t_first <= self.options.simultaneous_s:
                group.update(b for b in e.balls if b != B.WHITE)
        return group

    def _first_contact(self, st: FrameState, shot: Shot, events: list[Event], ctx: _Ctx,
                       pre: dict[str, Position] | None, review: list[str]
                       ) -> tuple[set[str], float | None, bool]:
        """The first-contact set, its time, and whether it is a deemed (touching) contact."""
        strike_t = next((e.t for e in events if e.type == EventType.STRIKE), -math.inf)
        pushed = {e.ball for e in events if e.type == EventType.PUSH}
        touching = self._touching(st, shot, pre)
        deemed = [b for b in touching if b not in pushed and (b in ctx.on_first or
                  (shot.nomination == b))]
        if deemed:
            return {deemed[0]}, strike_t, True
        group = self._first_group(events, strike_t)
        contacts = [e for e in events if e.type == EventType.CONTACT and B.WHITE in e.balls
                    and e.t >= strike_t - 1e-9]
        if contacts:
            if contacts[0].confidence < self.options.review_confidence:
                review.append("the camera is not sure which ball the cue ball hit first "
                              f"(confidence {contacts[0].confidence:.2f}): check the first contact")
            if len(contacts) > 1 and contacts[1].t - contacts[0].t <= 5 * self.options.simultaneous_s \
                    and len(group) == 1:
                hit = [next((x for x in c.balls if x != B.WHITE), c.ball) for c in contacts[:2]]
                review.append(f"the cue ball seemed to hit {balls_words(hit)} at the "
                              f"same moment ({(contacts[1].t - contacts[0].t) * 1000:.1f} ms apart): "
                              "check which it hit first")
        return group, (contacts[0].t if contacts else None), False

    def _first_ok(self, first: set[str], ctx: _Ctx) -> bool:
        if ctx.fb:
            if first == {ctx.fb}:
                return True
            return ctx.fb in first and len(first) == 2 and (first - {ctx.fb}) <= (ctx.on_first - {ctx.fb})
        if ctx.label == "red":
            return first <= ctx.on_first
        return len(first) == 1 and first <= ctx.on_first

    def _concern_value(self, ball: str, ctx: _Ctx) -> int:
        if ctx.fb and ball == ctx.fb and self.options.free_ball_value == "ball_on":
            return ctx.v_on or 0
        return B.value(ball)

    # ------------------------------------------------------------------ helpers: scoring
    def _score(self, st: FrameState, ctx: _Ctx, potted: list[str]) -> int:
        if st.phase == Phase.RED:
            return sum(1 for b in potted if B.is_red(b) or b == ctx.fb)
        if st.phase == Phase.COLOUR_CHOICE:
            return B.VALUES[ctx.nominated] if ctx.nominated in potted else 0  # type: ignore[index]
        if st.phase in (Phase.SEQ, Phase.RESPOTTED_BLACK):
            c = st.seq_colour if st.phase == Phase.SEQ else "black"
            if c in potted or (ctx.fb and ctx.fb in potted):
                return B.VALUES[c]  # type: ignore[index]
        return 0

    def _respot_after_fair_pot(self, st: FrameState, ctx: _Ctx, ball: str) -> bool:
        if ctx.fb and ball == ctx.fb:
            return True  # a potted free ball is always spotted (R12(c),(e))
        return st.phase == Phase.COLOUR_CHOICE  # colour after a red, the last red included

    def _respot(self, to_spot: list[str], post: dict[str, Position] | None, put_back: list[str],
                pre: dict[str, Position] | None) -> tuple[Respot, ...]:
        out: list[Respot] = []
        for b in put_back:
            pos = pre.get(b) if pre else None
            out.append(Respot(b, pos, "put_back"))
        if to_spot:
            occupied = None
            if post is not None:
                occupied = {k: v for k, v in post.items() if k not in to_spot}
                for r in out:
                    if r.position:
                        occupied[r.ball] = r.position
            out.extend(respot_positions(to_spot, occupied, self.table.spots, SPOT_PRIORITY, B.value,
                                        self.table.ball_diameter, self.table.length))
        return tuple(out)

    def _positions_after(self, shot: Shot, potted: list[str], off: list[str],
                         cue_gone: bool) -> dict[str, Position] | None:
        if shot.positions_after is None:
            return None
        gone = set(potted) | set(off) | ({B.WHITE} if cue_gone else set())
        return {k: v for k, v in shot.positions_after.items() if k not in gone}

    # ------------------------------------------------------------------ helpers: next state
    def _after_fair(self, st: FrameState, shot: Shot, ctx: _Ctx, pts: int, scores: list[int],
                    break_points: int, potted: list[str], on_after: frozenset[str],
                    positions: dict[str, Position] | None, respots: tuple[Respot, ...],
                    notes: list[str], review: list[str], reds_after: list[str]) -> tuple[Decision, FrameState]:
        striker = st.striker
        last_colour = None
        if pts > 0:
            scores[striker] += pts
            break_points += pts
            if st.phase == Phase.RED:
                phase, seq, last_red = Phase.COLOUR_CHOICE, None, not reds_after
            elif st.phase == Phase.COLOUR_CHOICE:
                phase, seq = self.start_of_turn(on_after)
                last_red = False
                last_colour = (ctx.nominated, pts, striker, False)
            elif st.phase == Phase.SEQ:
                phase, seq = self.start_of_turn(on_after)
                last_red = False
                if ctx.fb and ctx.fb in potted:
                    last_colour = (ctx.fb, 0, striker, True)
            else:  # re-spotted black potted
                phase, seq, last_red = Phase.OVER, None, False
            nxt = replace(st, scores=tuple(scores), break_points=break_points, phase=phase,
                          seq_colour=seq, last_red_colour=last_red, on_table=on_after,
                          positions=positions, cue_in_hand=False, free_ball=False, pending=None,
                          miss=MissState(), replaced=False, shots=st.shots + 1,
                          last_colour_scored=last_colour,
                          last_respots=tuple(r.ball for r in respots))
        else:
            phase, seq = self._next_turn_phase(st, on_after)
            nxt = replace(st, scores=tuple(scores), break_points=0, phase=phase, seq_colour=seq,
                          last_red_colour=False, on_table=on_after, positions=positions,
                          striker=1 - striker, cue_in_hand=False, free_ball=False, pending=None,
                          miss=MissState(), replaced=False, shots=st.shots + 1,
                          last_colour_scored=None, last_respots=tuple(r.ball for r in respots))
        nxt, end_notes = self._check_end(nxt, st, foul=False, scored=pts > 0)
        notes.extend(end_notes)
        dec = self._decision(st, shot, nxt, (), 0, {st.players[striker]: pts}, False, (),
                             respots, notes, review, potted=tuple(potted), ctx=ctx,
                             break_points=break_points)
        return dec, nxt

    def _after_foul(self, st: FrameState, shot: Shot, ctx: _Ctx, fouls: list[Foul], pen: int,
                    scores: list[int], potted: list[str], cue_gone: bool, on_after: frozenset[str],
                    positions: dict[str, Position] | None, respots: tuple[Respot, ...],
                    snapshot: Snapshot, first: set[str], deemed: bool,
                    pre: dict[str, Position] | None, notes: list[str],
                    review: list[str]) -> tuple[Decision, FrameState]:
        striker, opp = st.striker, 1 - st.striker
        phase, seq = self._next_turn_phase(st, on_after)
        miss, miss_state, warn = self._miss(st, shot, ctx, fouls, pen, scores, on_after, phase, seq,
                                            first, deemed, pre, notes, review)
        options: tuple[str, ...] = ("play", "play_again")
        if miss:
            options = (*options, "replace")
        if B.WHITE in (positions or {}) and cue_gone:
            positions = {k: v for k, v in positions.items() if k != B.WHITE}  # type: ignore[union-attr]
        nxt = replace(st, scores=tuple(scores), break_points=0, phase=phase, seq_colour=seq,
                      last_red_colour=False, on_table=on_after, positions=positions,
                      striker=opp, cue_in_hand=cue_gone, free_ball=False, pending=None,
                      miss=miss_state, replaced=False, shots=st.shots + 1, last_colour_scored=None,
                      last_respots=tuple(r.ball for r in respots))
        # free ball for the incoming player (C23)
        fb_award, effective = False, ()
        if phase not in (Phase.OVER,):
            fb_award, effective = self._free_ball_test(nxt, notes)
        if miss and miss_state.full_ball and miss_state.count >= self.miss_limit:
            if self.after_limit == "award_frame":
                nxt = replace(nxt, frame_over=True, winner=opp, phase=Phase.OVER,
                              end_reason="three_failures")
                notes.append(f"third failure to hit the ball on with a full ball available: the frame "
                             f"is awarded to {st.players[opp]} (R14(c)(ii))")
                options = ()
            else:
                notes.append(f"{self.miss_limit}th foul and a miss: the non-offender may also place the "
                             "cue ball anywhere on the table (any-number-of-reds annex rule 2)")
                if not self._snookers_needed(nxt):
                    options = (*options, "ball_anywhere")
        if not nxt.frame_over:
            nxt = replace(nxt, free_ball=fb_award,
                          pending=PendingFoul(striker, options, snapshot, fb_award))
            nxt, end_notes = self._check_end(nxt, st, foul=True, scored=False)
            notes.extend(end_notes)
            if nxt.frame_over:
                options = ()
        dec = self._decision(st, shot, nxt, tuple(fouls), pen, {st.players[opp]: pen}, miss,
                             options, respots, notes, review, potted=tuple(potted), ctx=ctx,
                             free_ball=fb_award and not nxt.frame_over, effective=effective,
                             replace_positions=snapshot.positions if miss else None,
                             miss_warning=warn, break_points=0)
        return dec, nxt

    def _before_stroke(self, st: FrameState, shot: Shot, events: list[Event], ctx: _Ctx,
                       pre: dict[str, Position] | None, notes: list[str],
                       review: list[str]) -> tuple[Decision, FrameState]:
        """A record with no strike: a foul before the stroke (R11(a), C31), or balls that
        moved between strokes (C41, R15)."""
        fouls: list[Foul] = []
        put_back: list[str] = []
        for e in events:
            if e.type == EventType.DISTURBED and e.by in ("striker", "non_striker"):
                k = FOULS["foul_before_stroke"]
                pen = penalty(k.group, ctx.v_on, (B.value(e.ball),),
                              undetermined=self.options.undetermined_on_penalty)
                fouls.append(Foul(k.code, k.rule, k.digest, k.message.format(ball=e.ball), pen,
                                  (e.ball,)))
            elif e.type in (EventType.LIP_DROP, EventType.DISTURBED):
                put_back.append(e.ball)
                notes.append(f"the {e.ball} moved between strokes: put back, no penalty (R9(a), R15)")
        for f in shot.operator.fouls:
            k = FOULS[f.code]
            vals = (B.value(f.ball),) if f.ball else ()
            pen = penalty(k.group, ctx.v_on, vals, undetermined=self.options.undetermined_on_penalty)
            if k.group is Group.D:
                pen = 7
            fouls.append(Foul(k.code, k.rule, k.digest, k.message.format(ball=f.ball or "ball",
                                                                          balls=f.ball or ""),
                              pen, (f.ball,) if f.ball else ()))
        respots = self._respot([], None, put_back, pre)
        if not fouls:
            notes.append("no stroke was made")
            dec = self._decision(st, shot, st, (), 0, {}, False, (), respots, notes, review, ())
            return dec, st
        if ctx.v_on is None:
            review.append("foul before a colour was nominated: 7 (R10(d)(vi))")
        pen = max(f.penalty for f in fouls)
        scores = list(st.scores)
        scores[1 - st.striker] += pen
        if st.replaced:
            phase, seq = st.phase, st.seq_colour
            notes.append("foul before striking after a replacement: no miss, the ball on stays as "
                         "before; warnings stay in force (R14(d))")
            options: tuple[str, ...] = ("play", "play_again", "replace")
            miss_state = st.miss
        else:
            phase, seq = self.start_of_turn(st.on_table)
            options, miss_state = ("play", "play_again"), MissState()
        snapshot = Snapshot(pre, st.on_table, st.phase, st.seq_colour, st.last_red_colour,
                            st.cue_in_hand, st.free_ball)
        nxt = replace(st, scores=tuple(scores), break_points=0, phase=phase, seq_colour=seq,
                      last_red_colour=st.last_red_colour if st.replaced else False,
                      striker=1 - st.striker, free_ball=False, miss=miss_state, replaced=False,
                      last_colour_scored=None)
        fb, eff = self._free_ball_test(nxt, notes)
        nxt = replace(nxt, free_ball=fb, pending=PendingFoul(st.striker, options, snapshot, fb))
        nxt, end_notes = self._check_end(nxt, st, foul=True, scored=False)
        notes.extend(end_notes)
        dec = self._decision(st, shot, nxt, tuple(fouls), pen, {st.players[1 - st.striker]: pen},
                             False, () if nxt.frame_over else options, respots, notes, review, (),
                             ctx=ctx, free_ball=fb, effective=eff, break_points=0)
        return dec, nxt

    def _free_ball_test(self, nxt: FrameState, notes: list[str]) -> tuple[bool, tuple[str, ...]]:
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
        if B.WHITE not in pos:
            notes.append("free ball not tested: cue ball position unknown")
            return False, ()
        res = G.snooker_test(pos[B.WHITE], objs, on, self.table)
        return res.snookered, res.effective

    def _snookers_needed(self, st: FrameState) -> bool:
        rem = self.points_remaining(st)
        return any(st.scores[1 - i] - st.scores[i] > rem for i in (0, 1))

    def _miss(self, st: FrameState, shot: Shot, ctx: _Ctx, fouls: list[Foul], pen: int,
              scores: list[int], on_after: frozenset[str], phase: Phase, seq: str | None,
              first: set[str], deemed: bool, pre: dict[str, Position] | None, notes: list[str],
              review: list[str]) -> tuple[bool, MissState, bool]:
        """Foul and a miss (C28-C32). Returns (miss, the next miss state, warning)."""
        failure = any(f.code in _FAILURE_CODES for f in fouls) and not deemed
        only_black = st.on_table == frozenset({"black"}) or st.phase == Phase.RESPOTTED_BLACK
        if not failure or only_black:
            if failure and only_black:
                notes.append("no miss can be called when only the black is left (R14)")
            return False, MissState(), False
        rem_before = self.points_remaining(st)
        after_state = replace(st, on_table=on_after, phase=phase, seq_colour=seq,
                              scores=tuple(scores))
        rem_after = self.points_remaining(after_state)
        snookers = any(st.scores[1 - i] - st.scores[i] > rem_before for i in (0, 1)) or \
            any(scores[1 - i] - scores[i] > rem_after for i in (0, 1))
        equal = abs(st.scores[0] - st.scores[1]) == rem_before or abs(scores[0] - scores[1]) == rem_after
        targets = self._could_be_on(st, ctx)
        clear = None
        if pre is not None and B.WHITE in pre:
            clear = G.clear_path_to_any_part(pre[B.WHITE], _objects(pre), targets, self.table)
        in_sequence = st.replaced and st.miss.count > 0 and st.miss.full_ball
        judged = shot.operator.miss
        miss = False
        if in_sequence:
            miss = True
            notes.append("failure again from the replaced position after a full-ball miss: foul and a "
                         "miss regardless of the score (R14(c))")
        elif equal:
            notes.append("no miss: the points available equal the points difference (R14(b)(ii), (e))")
        elif clear and not snookers:
            miss = True
            notes.append(f"clear path to the {clear}: foul and a miss (R14(b))")
            if judged is False and self.options.operator_may_cancel_auto_miss:
                miss = False
                notes.append("the referee judged it not a miss (S5 R1(a))")
        elif judged:
            miss = True
            notes.append("foul and a miss by the referee's judgement (S2 R21)")
        elif clear is None:
            notes.append("miss not tested: positions unknown; the referee judges (H5)")
        elif snookers:
            notes.append("snookers required: a miss only if the referee judges it intentional (R14(b)(i))")
        else:
            notes.append("no clear path to a ball on: miss is the referee's judgement (H5); none called")
        if not miss:
            return False, MissState(), False
        full = False
        if pre is not None and B.WHITE in pre:
            full = G.full_ball_available(pre[B.WHITE], _objects(pre), targets, self.table)
        if st.replaced and st.miss.count > 0:
            count, full = st.miss.count + 1, st.miss.full_ball
        else:
            count = 1
        warn = full and count == self.miss_limit - 1
        if warn:
            notes.append("warning: if a replacement is requested, a further failure will award the "
                         "frame to the opponent (R14(c)(i))")
        return True, MissState(count, full, st.miss.warned or warn), warn

    def _could_be_on(self, st: FrameState, ctx: _Ctx) -> list[str]:
        if st.phase == Phase.COLOUR_CHOICE:
            return [c for c in B.COLOURS if c in st.on_table]
        return sorted(ctx.on_first)

    def _check_end(self, nxt: FrameState, before: FrameState, foul: bool,
                   scored: bool) -> tuple[FrameState, list[str]]:
        """End of frame (C43, C44): only the black left and a score or foul, or no balls left."""
        notes: list[str] = []
        black_only_before = before.on_table == frozenset({"black"})
        if before.phase == Phase.RESPOTTED_BLACK and (foul or scored):
            winner = 0 if nxt.scores[0] > nxt.scores[1] else 1
            return replace(nxt, frame_over=True, winner=winner, phase=Phase.OVER,
                           end_reason="respotted_black"), notes
        ended = (black_only_before and (foul or scored)) or (not nxt.on_table)
        if not ended:
            return nxt, notes
        if nxt.scores[0] == nxt.scores[1]:
            notes.append("scores level: the black is re-spotted; lots decide who plays from in-hand "
                         "(R4(b))")
            pos = {"black": self.table.spots["black"]}
            respotted = replace(nxt, on_table=frozenset({"black"}), phase=Phase.RESPOTTED_BLACK,
                                seq_colour=None, positions=pos, cue_in_hand=True, free_ball=False,
                                pending=None, break_points=0)
            return respotted, notes
        winner = 0 if nxt.scores[0] > nxt.scores[1] else 1
        return replace(nxt, frame_over=True, winner=winner, phase=Phase.OVER,
                       end_reason="last_black"), notes

    def _decision(self, st: FrameState, shot: Shot, nxt: FrameState, fouls: tuple[Foul, ...],
                  pen: int, points: dict[str, int], miss: bool, options: tuple[str, ...],
                  respots: tuple[Respot, ...], notes: list[str], review: list[str],
                  potted: tuple[str, ...], ctx: _Ctx | None = None, free_ball: bool = False,
                  effective: tuple[str, ...] = (), replace_positions: dict[str, Position] | None = None,
                  miss_warning: bool = False, break_points: int | None = None) -> Decision:
        touching: tuple[str, ...] = ()
        if not nxt.frame_over and nxt.positions and B.WHITE in nxt.positions and not nxt.cue_in_hand:
            touching = G.touching_balls(nxt.positions[B.WHITE], _objects(nxt.positions), self.table,
                                        self.options.touching_gap_mm)
        if touching:
            on = set(self.balls_on_for_turn(nxt.on_table, nxt.phase, nxt.seq_colour))
            if nxt.phase == Phase.COLOUR_CHOICE:
                on = {c for c in B.COLOURS if c in nxt.on_table}
            named = [b for b in touching if b in on] or list(touching)
            notes.append("TOUCHING BALL: " + ", ".join(named)
                         + ("; DECLARE the colour" if nxt.phase == Phase.COLOUR_CHOICE else ""))
        return Decision(
            shot=shot.shot,
            striker=st.players[st.striker],
            foul=bool(fouls),
            fouls=fouls,
            penalty=pen,
            points={p: points.get(p, 0) for p in st.players},
            score={p: s for p, s in zip(st.players, nxt.scores, strict=True)},
            break_points=nxt.break_points if break_points is None else break_points,
            next_striker=None if nxt.frame_over else nxt.players[nxt.striker],
            ball_on=self.ball_on_label(nxt),
            free_ball=free_ball,
            miss=miss,
            options=options,
            respots=respots,
            frame_over=nxt.frame_over,
            winner=nxt.players[nxt.winner] if nxt.winner is not None else None,
            potted=potted,
            nominated=ctx.nominated if ctx else None,
            free_ball_nominated=ctx.fb if ctx else None,
            touching=touching,
            points_remaining=self.points_remaining(nxt),
            snookers_required=self.snookers_required(nxt) if not nxt.frame_over else {},
            replace_positions=replace_positions,
            miss_count=nxt.miss.count,
            miss_warning=miss_warning,
            needs_review=tuple(dict.fromkeys(review)),
            notes=tuple(dict.fromkeys(notes)),
            end_reason=nxt.end_reason,
            effective_snookering=effective,
        )

    # ------------------------------------------------------------------ operator inputs
    def _play_again(self, st: FrameState) -> FrameState:
        assert st.pending is not None
        return replace(st, striker=st.pending.offender, free_ball=False, pending=None,
                       miss=MissState())

    def apply_input(self, st: FrameState, inp: OperatorInput) -> tuple[InputResult, FrameState]:
        """Apply an operator input between strokes (H4, H15, H16, H17, C45, C47, C48)."""
        def result(ok: bool, msg: str, s: FrameState, notes: tuple[str, ...] = ()) -> InputResult:
            return InputResult(str(inp.kind), ok, msg,
                               {p: v for p, v in zip(s.players, s.scores, strict=True)},
                               None if s.frame_over else s.players[s.striker], s.frame_over,
                               s.players[s.winner] if s.winner is not None else None, s.end_reason,
                               notes)

        if st.frame_over and inp.kind != InputKind.AWARD_FRAME:
            return result(False, "the frame is over", st), st
        k = inp.kind
        if k == InputKind.OPTION:
            if st.pending is None:
                return result(False, "no foul is pending: option ignored", st), st
            if inp.choice not in st.pending.options:
                return result(False, f"option {inp.choice!r} is not open "
                              f"(open: {', '.join(st.pending.options)})", st), st
            if inp.choice == "play":
                # R14(c)(iii): playing on from the new position ends the miss sequence.
                nxt = replace(st, pending=None, miss=MissState())
                return result(True, f"{st.players[st.striker]} plays"
                              + (" with a FREE BALL" if st.free_ball else ""), nxt), nxt
            if inp.choice == "play_again":
                nxt = self._play_again(st)
                return result(True, f"{nxt.players[nxt.striker]} is asked to play again "
                              "(free ball void)", nxt), nxt
            if inp.choice == "ball_anywhere":
                return result(True, "cue ball in hand anywhere", st), replace(st, pending=None)
            snap = st.pending.snapshot
            assert snap is not None
            pos = None
            if snap.positions is not None:
                pos = {b: p for b, p in snap.positions.items() if b == B.WHITE or b in st.on_table}
                if st.positions:
                    for b, p in st.positions.items():
                        if b not in pos and b != B.WHITE:
                            pos[b] = p
            warned = st.miss.warned or (st.miss.full_ball and st.miss.count >= self.miss_limit - 1)
            nxt = replace(st, striker=st.pending.offender, positions=pos, phase=snap.phase,
                          seq_colour=snap.seq_colour if snap.phase == Phase.SEQ else st.seq_colour,
                          last_red_colour=snap.last_red_colour, cue_in_hand=snap.cue_in_hand,
                          free_ball=snap.free_ball, pending=None, replaced=True,
                          miss=replace(st.miss, warned=warned))
            if snap.phase == Phase.SEQ and snap.seq_colour not in st.on_table:
                nxt = replace(nxt, phase=st.phase, seq_colour=st.seq_colour)
            msg = f"balls replaced; {nxt.players[nxt.striker]} plays again from the original position"
            notes = ("WARNING: a further failure will award the frame to the opponent",) if warned \
                and st.miss.full_ball else ()
            return result(True, msg, nxt, notes), nxt
        if k == InputKind.CONCEDE:
            who = st.players.index(inp.player) if inp.player in st.players else st.striker
            if who != st.striker:
                return result(False, "only the striker may concede, during his turn (S4 R5(a))", st), st
            notes: tuple[str, ...] = ()
            rem = self.points_remaining(st)
            if st.scores[1 - who] - st.scores[who] <= rem:
                notes = ("conceded when snookers were not required: a conduct matter for the referee "
                         "(S4 R5(c))",)
            nxt = replace(st, frame_over=True, winner=1 - who, phase=Phase.OVER, end_reason="conceded")
            return result(True, f"{st.players[who]} concedes", nxt, notes), nxt
        if k == InputKind.CLAIM:
            lead = st.scores[st.striker] - st.scores[1 - st.striker]
            if st.on_table != frozenset({"black"}) or lead <= 7:
                return result(False, "a claim needs only the black left and the striker more than 7 "
                              "ahead (S2 R1(b))", st), st
            nxt = replace(st, frame_over=True, winner=st.striker, phase=Phase.OVER, end_reason="claimed")
            return result(True, f"{st.players[st.striker]} claims the frame", nxt), nxt
        if k == InputKind.AWARD_FRAME:
            if inp.player not in st.players:
                raise RuleError(f"award_frame: {inp.player!r} is not a player of this frame")
            w = st.players.index(inp.player)
            reds = len(self.reds(st.on_table))
            colours = sum(B.VALUES[c] for c in B.COLOURS if c in st.on_table)
            bonus = 8 * reds + colours
            scores = [0, 0]
            scores[w] = st.scores[w] + bonus
            nxt = replace(st, scores=tuple(scores), frame_over=True, winner=w, phase=Phase.OVER,
                          end_reason="forfeit")
            return result(True, f"frame awarded to {inp.player}: {bonus} added, the offender's points "
                          "cancelled (S4 R2)", nxt), nxt
        if k in (InputKind.LOTS, InputKind.STRIKER):
            if inp.player not in st.players:
                raise RuleError(f"{k}: {inp.player!r} is not a player of this frame")
            if k == InputKind.LOTS and st.phase != Phase.RESPOTTED_BLACK:
                return result(False, "lots are drawn only for a re-spotted black", st), st
            nxt = replace(st, striker=st.players.index(inp.player))
            return result(True, f"{inp.player} to play", nxt), nxt
        raise RuleError(f"unknown input {k}")


def _lowest_colour(on_table: frozenset[str] | set[str]) -> str | None:
    for c in B.COLOURS:
        if c in on_table:
            return c
    return None


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
