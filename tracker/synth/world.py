"""A synthetic frame of snooker: physics, the referee, what happens between strokes, and the
exact ground truth of every video frame.

:class:`World` keeps the table as it is, plays strokes through pooltool, asks the referee
engine for the call, then does what people do at a real table: the referee's hand puts the
re-spotted colours back, the incoming player places the cue ball in the D when in hand, and
the balls stand at rest for a realistic time. Every video frame it produces carries each
ball's table position (mm), whether it moves, and the occluders in view; every stroke
carries its events with exact times and the shot record a perfect perception would write.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.table import STANDARD_TABLE, TableGeometry
from tracker import balls as B
from tracker.records.parse import record_to_dict
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput, Shot
from tracker.rules.registry import get_ruleset
from tracker.rules.state import Decision, FrameState
from tracker.synth import mishaps
from tracker.synth.physics import Physics, Stroke, StrokeResult
from tracker.synth.render import Occluder

Position = tuple[float, float]
#: Height a hand lifts a ball it carries, mm (centre above the cloth).
CARRY_HEIGHT_MM = 110.0


@dataclass
class FrameTruth:
    """Ground truth of one video frame.

    Attributes:
        t: time, s from the start of the clip.
        balls: ball id -> (x, y) mm of every ball on or above the table (carried balls too).
        velocities: ball id -> (vx, vy) mm/s.
        heights: ball id -> centre height, mm, for balls lifted by hand (others at R).
        smear: ball id -> (S, 2) centres, mm, over the frame's exposure (centred on ``t``;
            NaN rows: potted meanwhile), for moving balls when the world integrates motion
            blur over the true path (``World(exposure=...)``); else the renderer blurs along
            the velocity.
        occluders: polygons in view (player, arm, cue, hand).
        phase: ``rest``, ``stroke``, ``placing``.
        shot: number of the stroke in progress or just played.
    """

    t: float
    balls: dict[str, Position]
    velocities: dict[str, tuple[float, float]] = field(default_factory=dict)
    heights: dict[str, float] = field(default_factory=dict)
    occluders: list[Occluder] = field(default_factory=list)
    phase: str = "rest"
    shot: int = 0
    smear: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class ShotTruth:
    """Ground truth of one stroke: the record, the referee's decision, the exact events."""

    shot: Shot
    decision: Decision
    t_strike: float
    stroke: Stroke
    label: str = ""
    state_before: FrameState | None = None
    system: Any = None


class World:
    """Plays a frame stroke by stroke and records everything (see module docstring).

    Args:
        players: the two players.
        positions: starting layout (mm); default the standard rack with the white in hand.
        fps: video frame rate.
        ruleset: referee ruleset name.
        seed: random seed of the between-stroke timing and placements.
        keep_systems: keep each stroke's pooltool ``System`` in ``shots`` (for the cross-check
            against pooltool's own rules; memory grows with the frame).
        subframe_strike: strike each stroke at a random moment within a frame interval (the
            camera's frames do not wait for the strike: the first frame after it shows a
            fraction of a frame's motion); False: every strike falls on a frame.
        exposure: (seconds, samples): each moving ball's position at that many instants over
            the frame's exposure goes to the renderer (motion blur along the true path, a
            strike or a pot in the middle of the exposure included); None: the renderer blurs
            along the frame's velocity.
        outfit: BGR colours of the striker's ``body``, ``arm`` (sleeve), ``hand`` (skin) and
            ``cue``, and of the ``placing`` hand; missing keys keep the stock colours.
    """

    def __init__(self, players: tuple[str, str] = ("A", "B"), positions: Mapping[str, Position] | None = None,
                 fps: float = 25.0, ruleset: str = "snooker", seed: int = 0,
                 table: TableGeometry = STANDARD_TABLE, physics: Physics | None = None,
                 rest_s: tuple[float, float] = (1.2, 2.0), keep_systems: bool = False,
                 subframe_strike: bool = False, exposure: tuple[float, int] | None = None,
                 outfit: Mapping[str, tuple[int, int, int]] | None = None):
        self.table = table
        self.subframe_strike = subframe_strike
        self.exposure = exposure
        self.outfit = dict(outfit or {})
        self.keep_systems = keep_systems
        self.fps = fps
        self.rng = np.random.default_rng(seed)
        self.rules = get_ruleset(ruleset, table=table)
        self.physics = physics or Physics(table)
        start = dict(positions) if positions is not None else self.rules.setup_positions()
        self.positions: dict[str, Position] = start
        self.state: FrameState = self.rules.new_frame(players, 0, None if positions is None else start)
        self.records: list[Any] = [FrameStart(1, players, breaker=players[0], ruleset=ruleset,
                                              positions=None if positions is None else dict(start))]
        self.frames: list[FrameTruth] = []
        self.shots: list[ShotTruth] = []
        self.outputs: list[dict[str, Any]] = []
        self.t = 0.0
        self.rest_s = rest_s
        self._rest(0.6)

    # ------------------------------------------------------------------ timeline helpers
    def _emit(self, balls: Mapping[str, Position], **kw: Any) -> None:
        self.frames.append(FrameTruth(self.t, dict(balls), **kw))
        self.t = len(self.frames) / self.fps

    def _rest(self, seconds: float, occluders: list[Occluder] | None = None) -> None:
        for _ in range(max(1, int(round(seconds * self.fps)))):
            self._emit(self.positions, occluders=list(occluders or []), shot=len(self.shots))

    def _carry(self, ball: str, start: Position, end: Position, seconds: float = 0.9) -> None:
        """A hand carries ``ball`` from ``start`` to ``end`` and sets it down."""
        n = max(2, int(round(seconds * self.fps)))
        for k in range(n):
            s = k / (n - 1)
            ease = 0.5 - 0.5 * math.cos(math.pi * s)
            x = start[0] + (end[0] - start[0]) * ease
            y = start[1] + (end[1] - start[1]) * ease
            z = self.table.ball_radius + (CARRY_HEIGHT_MM - self.table.ball_radius) * math.sin(math.pi * s) ** 0.5
            if k == n - 1:
                z = self.table.ball_radius
            balls = {**self.positions, ball: (x, y)}
            hand = hand_occluder((x, y), z, self.table, self.outfit.get("placing"))
            self._emit(balls, heights={ball: z}, occluders=[hand], phase="placing", shot=len(self.shots))
        self.positions[ball] = end
        self._rest(0.3)

    # ------------------------------------------------------------------ strokes
    def place_cue_ball(self, where: Position) -> None:
        """The striker puts the cue ball down (in the D when in hand)."""
        start = (where[0] + 250.0, -120.0)
        self._carry(B.WHITE, start, where)

    def simulate(self, before: Mapping[str, Position], stroke: Stroke, off_table: str | None = None,
                 disturb: tuple[str, Position] | None = None, offset_s: float = 0.0) -> StrokeResult:
        """The stroke's physics from ``before``, with the scripted mishaps
        (:mod:`tracker.synth.mishaps`): ``off_table`` names a ball that jumps the cushion at its
        first cushion contact; ``disturb`` = (ball, where it ends, mm) for a ball the striker
        pushes at the strike. Raises ``ImpossibleMishap`` where the stroke cannot carry them.
        ``offset_s``: the strike falls this long after the first frame (see
        ``subframe_strike``)."""
        start = dict(before)
        if disturb is not None:
            start[disturb[0]] = disturb[1]
        res = self.physics.simulate(start, stroke, fps=self.fps, offset_s=offset_s,
                                    exposure=self.exposure)
        if disturb is not None:
            res = mishaps.disturb(res, disturb[0], before[disturb[0]], disturb[1], self.table)
        if off_table is not None:
            res = mishaps.leave_table(res, off_table, self.table, self.fps)
        if res.smear:
            # a scripted ball's path is not the physics' own: it blurs along its velocity
            scripted = {b for b in (off_table, disturb[0] if disturb else None) if b}
            res.smear = {b: v[:len(res.times)] for b, v in res.smear.items() if b not in scripted}
        return res

    def play(self, stroke: Stroke, nomination: str | None = None, free_ball: str | None = None,
             label: str = "", operator: Any = None, off_table: str | None = None,
             disturb: tuple[str, Position] | None = None) -> Decision:
        """Play one stroke from the current position and return the referee's decision
        (``off_table``, ``disturb``: scripted mishaps, see :meth:`simulate`)."""
        if B.WHITE not in self.positions:
            raise ValueError("the cue ball is in hand: call place_cue_ball first")
        n_shot = len(self.shots) + 1
        before = dict(self.positions)
        wait = float(self.rng.uniform(*self.rest_s))
        # the player walks in and addresses the ball
        cue_pos = before[stroke.cue_ball]
        self._rest(wait * 0.4)
        self._rest(wait * 0.6, occluders=player_occluders(cue_pos, stroke.phi, self.table,
                                                          outfit=self.outfit))
        offset = float(self.rng.uniform(0.0, 1.0 / self.fps)) if self.subframe_strike else 0.0
        t0 = self.t + offset
        res = self.simulate(before, stroke, off_table, disturb, offset_s=offset)
        follow = player_occluders(cue_pos, stroke.phi, self.table, follow_through=True,
                                  outfit=self.outfit)
        for k, tk in enumerate(res.times):
            balls = {b: (float(v[k, 0]), float(v[k, 1])) for b, v in res.xy.items()
                     if not np.isnan(v[k, 0])}
            vel = _velocities(res, k, self.fps)
            occ = follow if tk < 0.35 else []
            heights = {b: float(h[k]) for b, h in res.heights.items()
                       if b in balls and h[k] > self.table.ball_radius + 0.5}
            smear = _smear_at(res, k)
            self._emit(balls, velocities=vel, occluders=occ, phase="stroke", shot=n_shot,
                       heights=heights, smear=smear)
        self.positions = dict(res.final)
        self._rest(0.6)
        shot = self._shot_record(n_shot, before, res, t0, nomination, free_ball, operator)
        self.records.append(shot)
        state_before = self.state
        decision, self.state = self.rules.decide(self.state, shot)
        self.outputs.append(decision.to_dict())
        self.shots.append(ShotTruth(shot, decision, t0, stroke, label, state_before,
                                    res.system if self.keep_systems else None))
        self._after(decision)
        return decision

    def _shot_record(self, n: int, before: dict[str, Position], res: StrokeResult, t0: float,
                     nomination: str | None, free_ball: str | None, operator: Any) -> Shot:
        events = [Event(e.type, round(t0 + e.t, 6), e.balls, e.pocket, e.cushion) for e in res.events]
        if not any(e.type == EventType.AT_REST for e in events):
            events.append(Event(EventType.AT_REST, round(t0 + res.duration, 6)))
        kw: dict[str, Any] = {}
        if operator is not None:
            kw["operator"] = operator
        return Shot(shot=n, events=tuple(events), positions_before=before,
                    positions_after=dict(res.final), nomination=nomination, free_ball=free_ball,
                    t_start=round(t0, 6), t_end=round(t0 + res.duration, 6), **kw)

    def _after(self, decision: Decision) -> None:
        """The referee re-spots colours; a potted cue ball waits in hand."""
        for r in decision.respots:
            if r.position is None:
                continue
            start = self._pocket_of(r.ball)
            self._carry(r.ball, start, r.position)
        self.positions = {b: p for b, p in self.positions.items()
                          if b == B.WHITE or b in self.state.on_table}
        if self.state.positions is not None:
            for b, p in self.state.positions.items():
                if b != B.WHITE:
                    self.positions[b] = p
        if self.state.cue_in_hand:
            self.positions.pop(B.WHITE, None)
        self._rest(float(self.rng.uniform(0.3, 0.8)))

    def _pocket_of(self, ball: str) -> Position:
        for st in reversed(self.shots):
            for e in st.shot.events:
                if e.type == EventType.POT and e.ball == ball and e.pocket:
                    p = self.table.pockets[e.pocket]
                    return p.fall
        return (self.table.width + 150.0, self.table.length / 2)

    def operator(self, kind: InputKind, choice: str | None = None, player: str | None = None) -> None:
        """An operator input between strokes (option after a foul, lots, concession...)."""
        inp = OperatorInput(kind, choice=choice, player=player)
        self.records.append(inp)
        res, new = self.rules.apply_input(self.state, inp)
        self.outputs.append(res.to_dict())
        if kind == InputKind.OPTION and choice == "replace" and new.positions is not None:
            # the referee puts the balls back where they were
            for b, p in new.positions.items():
                cur = self.positions.get(b)
                if cur is None or math.dist(cur, p) > 0.5:
                    self._carry(b, cur or (p[0] + 200.0, -120.0), p, seconds=0.7)
            self.positions = dict(new.positions)
        self.state = new

    # ------------------------------------------------------------------ ground truth out
    def log_lines(self) -> list[dict[str, Any]]:
        """The match log a perfect perception would write (JSONL lines)."""
        return [record_to_dict(r) for r in self.records]


def _smear_at(res: StrokeResult, k: int) -> dict[str, np.ndarray]:
    """The exposure paths (S, 2) of frame ``k`` of a stroke, for the balls that move during
    it or drop out of sight (NaN rows) within it."""
    out = {}
    for b, v in res.smear.items():
        path = v[k]
        seen = np.isfinite(path[:, 0])
        if seen.any() and (not seen.all() or float(np.ptp(path[seen], axis=0).max()) > 0.5):
            out[b] = path
    return out


def _velocities(res: StrokeResult, k: int, fps: float) -> dict[str, tuple[float, float]]:
    out = {}
    for b, v in res.xy.items():
        if not res.moving[b][k] or k == 0 or np.isnan(v[k, 0]) or np.isnan(v[k - 1, 0]):
            continue
        d = (v[k] - v[k - 1]) * fps
        out[b] = (float(d[0]), float(d[1]))
    return out


def player_occluders(cue: Position, phi_deg: float, table: TableGeometry,
                     follow_through: bool = False,
                     outfit: Mapping[str, tuple[int, int, int]] | None = None) -> list[Occluder]:
    """The cue, the bridge arm and the player's body behind the cue ball (world polygons);
    ``outfit``: BGR colours by part (``body``, ``arm``, ``hand``, ``cue``), else the stock ones."""
    wear = {"body": (28, 24, 22), "arm": (40, 36, 34), "hand": (120, 150, 200), "cue": (40, 90, 140),
            **(outfit or {})}
    u = np.array([math.cos(math.radians(phi_deg)), math.sin(math.radians(phi_deg))])
    n = np.array([-u[1], u[0]])
    c = np.array(cue)
    tip_gap = -10.0 if follow_through else 25.0
    tip = c - u * (table.ball_radius + tip_gap)
    butt = tip - u * 1450.0
    z_tip, z_butt = 40.0, 260.0
    cue_poly = np.array([
        [*(tip + n * 5), z_tip], [*(butt + n * 14), z_butt], [*(butt - n * 14), z_butt],
        [*(tip - n * 5), z_tip]])
    bridge = c - u * 260.0
    hand = np.array([[*(bridge + n * 45 + u * 40), 30.0], [*(bridge + n * 50 - u * 60), 40.0],
                     [*(bridge - n * 50 - u * 60), 40.0], [*(bridge - n * 45 + u * 40), 30.0]])
    forearm = np.array([[*(bridge + n * 40 - u * 40), 60.0], [*(bridge + n * 60 - u * 420), 300.0],
                        [*(bridge - n * 10 - u * 420), 300.0], [*(bridge - n * 40 - u * 40), 60.0]])
    chest = c - u * 700.0
    body = np.array([[*(chest + n * 260 - u * 50), 420.0], [*(chest + n * 300 - u * 600), 700.0],
                     [*(chest - n * 250 - u * 600), 700.0], [*(chest - n * 220 - u * 50), 420.0]])
    return [Occluder(body, wear["body"]), Occluder(forearm, wear["arm"]),
            Occluder(hand, wear["hand"]), Occluder(cue_poly, wear["cue"])]


def hand_occluder(ball: Position, z: float, table: TableGeometry,
                  bgr: tuple[int, int, int] | None = None) -> Occluder:
    """A hand holding a ball from above and behind (world polygon; ``bgr``: its colour)."""
    x, y = ball
    r = table.ball_radius
    pts = np.array([[x - 1.2 * r, y - 0.2 * r, z + r], [x + 1.2 * r, y - 0.2 * r, z + r],
                    [x + 1.6 * r, y - 4.5 * r, z + 2.5 * r], [x - 1.6 * r, y - 4.5 * r, z + 2.5 * r]])
    return Occluder(pts, bgr or (110, 140, 195))
