"""Geometry queries the referee needs: snookered, clear path, full-ball contact.

All positions are ball centres in the canonical table frame, mm. Paths are straight
cue-ball strokes: the cue ball's centre sweeps a segment and the ball touches everything
whose centre comes within 2R of that segment (a capsule of radius 2R around the centre path).

Rules implemented (``shared/rules/RULES-DIGEST.md``):
- C23 / S2 R17: snookered when no ball on can be hit at *both* extreme edges free of balls
  not on; in-hand, from every position on or inside the D; the effective snookering ball
  (nearest obstructing ball, all of them when equidistant, none when different reds are
  blocked by different balls); a cushion never snookers: a path whose first obstacle is the
  cushion (a jaw) counts as not blocked by a ball.
- C29: a clear path to *any part* of a ball on (the automatic miss test).
- C30 / D20: full-ball contact available (for a colour: the centre-to-centre path; for reds:
  every contact offset across the red's width free of colours).

Only numpy and shapely are used here (no OpenCV): the rules package stays pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString

from calibration.table import TableGeometry

#: How thin the "extreme edge" contact is, mm: the edge paths pass the object ball's centre at
#: 2R - EDGE_MARGIN_MM.
EDGE_MARGIN_MM = 0.5
#: Balls whose centres are closer than 2R - OVERLAP_TOL_MM to a path are obstructions.
OVERLAP_TOL_MM = 0.05
#: Two obstructing balls whose distances to the cue ball differ by less than this are
#: "equidistant" (S2 R17(b)(ii)).
EQUIDISTANT_TOL_MM = 1.0
#: Number of contact offsets sampled across a ball's width for "any part" / "full ball".
N_OFFSETS = 41

Position = tuple[float, float]


@dataclass(frozen=True)
class PathBlock:
    """What stops one straight path.

    Attributes:
        ball: id of the first obstructing ball, or None.
        ball_distance: distance the cue ball travels before touching it, mm (inf if none).
        cushion_distance: distance before the cue ball touches a cushion or jaw, mm (inf if none).
    """

    ball: str | None
    ball_distance: float
    cushion_distance: float

    @property
    def blocked_by_ball(self) -> bool:
        """True when a ball not on is met before any cushion (R17(e))."""
        return self.ball is not None and self.ball_distance < self.cushion_distance


@dataclass(frozen=True)
class SnookerResult:
    """Outcome of the snookered test for one cue-ball position.

    Attributes:
        snookered: True if no ball on can be hit at both extreme edges.
        clear_balls: balls on with both edges clear.
        obstructers: for each ball on, the balls not on that obstruct it (nearest first).
        effective: the effective snookering ball(s) (S2 R17(b),(c)); empty when none.
    """

    snookered: bool
    clear_balls: tuple[str, ...]
    obstructers: dict[str, tuple[str, ...]]
    effective: tuple[str, ...]


def _as_array(positions: Mapping[str, Position], ids: Iterable[str]) -> tuple[list[str], np.ndarray]:
    keys = [k for k in ids if k in positions]
    if not keys:
        return keys, np.zeros((0, 2))
    return keys, np.asarray([positions[k] for k in keys], dtype=float)


def _path(cue: np.ndarray, target: np.ndarray, offset: float, two_r: float) -> tuple[np.ndarray, float]:
    """Unit direction (2,) and travel length (mm) of the stroke meeting ``target`` at ``offset``."""
    v = target - cue
    d = float(math.hypot(v[0], v[1]))
    if d <= two_r + 1e-9:
        # Already touching: no travel needed; aim straight at it.
        return (v / d if d > 0 else np.array([0.0, 1.0])), 0.0
    s = max(-two_r, min(two_r, offset))
    phi = math.asin(max(-1.0, min(1.0, s / d)))
    c, sn = math.cos(phi), math.sin(phi)
    u0 = v / d
    # Rotate by -phi so the target ends up at +offset on the left of the path.
    u = np.array([u0[0] * c + u0[1] * sn, -u0[0] * sn + u0[1] * c])
    t_b = d * c
    travel = t_b - math.sqrt(max(0.0, two_r * two_r - s * s))
    return u, max(0.0, travel)


def first_ball_hit(
    cue: np.ndarray, direction: np.ndarray, travel: float, obstacles: np.ndarray, two_r: float
) -> tuple[int, float]:
    """First obstacle the cue ball touches along a straight path.

    Args:
        cue: start centre, shape (2,), mm.
        direction: unit vector, shape (2,).
        travel: path length, mm.
        obstacles: centres, shape (N, 2), mm.
        two_r: contact distance 2R, mm.

    Returns:
        (index into ``obstacles`` or -1, travel distance at first touch in mm or inf).
    """
    if len(obstacles) == 0:
        return -1, math.inf
    w = obstacles - cue
    t = w @ direction
    perp = np.abs(w[:, 0] * direction[1] - w[:, 1] * direction[0])
    lim = two_r - OVERLAP_TOL_MM
    # distance from each obstacle centre to the swept segment [0, travel]
    tc = np.clip(t, 0.0, travel)
    seg_d = np.hypot(w[:, 0] - tc * direction[0], w[:, 1] - tc * direction[1])
    hit = seg_d < lim
    if not np.any(hit):
        return -1, math.inf
    t_touch = t - np.sqrt(np.maximum(0.0, two_r * two_r - perp * perp))
    t_touch = np.where(hit, np.maximum(t_touch, 0.0), np.inf)
    i = int(np.argmin(t_touch))
    return i, float(t_touch[i])


def cushion_hit(cue: np.ndarray, direction: np.ndarray, travel: float, table: TableGeometry) -> float:
    """Travel distance (mm) at which the cue ball first touches a cushion or jaw; inf if never.

    Fast path: a path whose whole capsule stays inside the bed (R from every cushion face)
    cannot touch a cushion. Otherwise the centre path is sampled every 1 mm against the
    cushion polygons (shapely).
    """
    r = table.ball_radius
    end = cue + direction * travel
    lo = r - 1e-6
    xs = (cue[0], end[0])
    ys = (cue[1], end[1])
    hi_x, hi_y = table.width - r + 1e-6, table.length - r + 1e-6
    if min(xs) >= lo and min(ys) >= lo and max(xs) <= hi_x and max(ys) <= hi_y:
        return math.inf
    line = LineString([tuple(cue), tuple(end)])
    if line.distance(table.cushions) >= r:
        return math.inf
    n = max(2, int(travel) + 1)
    ts = np.linspace(0.0, travel, n)
    pts = shapely.points(cue[0] + ts * direction[0], cue[1] + ts * direction[1])
    dist = shapely.distance(pts, table.cushions)
    touching = np.nonzero(dist < r - 0.5)[0]
    return float(ts[touching[0]]) if len(touching) else math.inf


def block_of_path(
    cue: np.ndarray,
    target: np.ndarray,
    offset: float,
    obstacle_ids: list[str],
    obstacles: np.ndarray,
    table: TableGeometry,
) -> PathBlock:
    """What obstructs the straight stroke from ``cue`` meeting ``target`` at ``offset``."""
    two_r = table.ball_diameter
    u, travel = _path(cue, target, offset, two_r)
    i, t_ball = first_ball_hit(cue, u, travel, obstacles, two_r)
    t_cush = cushion_hit(cue, u, travel, table)
    return PathBlock(obstacle_ids[i] if i >= 0 else None, t_ball, t_cush)


def _offsets(two_r: float, n: int = N_OFFSETS) -> np.ndarray:
    edge = two_r - EDGE_MARGIN_MM
    return np.linspace(-edge, edge, n)


def snooker_test(
    cue: Position,
    positions: Mapping[str, Position],
    balls_on: Iterable[str],
    table: TableGeometry,
) -> SnookerResult:
    """The snookered test (S2 R17) for the cue ball at ``cue``.

    Args:
        cue: cue-ball centre (x, y), mm.
        positions: every object ball on the table, id -> centre mm (the cue ball is ignored).
        balls_on: ids of the balls on (other balls on never obstruct).
        table: table geometry.

    Returns:
        :class:`SnookerResult`. With no ball on present on the table the cue ball is not
        snookered.
    """
    cue_xy = np.asarray(cue, dtype=float)
    on = [b for b in balls_on if b in positions and b != "white"]
    on_set = set(on)
    not_on_ids, not_on = _as_array(positions, [b for b in positions if b not in on_set and b != "white"])
    two_r = table.ball_diameter
    edge = two_r - EDGE_MARGIN_MM
    clear: list[str] = []
    obstructers: dict[str, tuple[str, ...]] = {}
    for ball in on:
        target = np.asarray(positions[ball], dtype=float)
        both_clear = True
        blockers: set[str] = set()
        for off in (-edge, edge):
            blk = block_of_path(cue_xy, target, off, not_on_ids, not_on, table)
            if blk.blocked_by_ball:
                both_clear = False
        if both_clear:
            clear.append(ball)
            obstructers[ball] = ()
            continue
        for off in _offsets(two_r):
            blk = block_of_path(cue_xy, target, float(off), not_on_ids, not_on, table)
            if blk.blocked_by_ball and blk.ball is not None:
                blockers.add(blk.ball)
        dist = {b: math.dist(cue, positions[b]) for b in blockers}
        obstructers[ball] = tuple(sorted(blockers, key=lambda b: (dist[b], b)))
    snookered = bool(on) and not clear
    effective: tuple[str, ...] = ()
    if snookered:
        per_ball: list[tuple[str, ...]] = []
        for ball in on:
            obs = obstructers[ball]
            if not obs:
                continue
            d0 = math.dist(cue, positions[obs[0]])
            per_ball.append(
                tuple(b for b in obs if math.dist(cue, positions[b]) - d0 <= EQUIDISTANT_TOL_MM)
            )
        if per_ball and all(set(p) == set(per_ball[0]) for p in per_ball):
            effective = tuple(sorted(per_ball[0]))
    return SnookerResult(snookered, tuple(clear), obstructers, effective)


def snookered_in_hand(
    positions: Mapping[str, Position],
    balls_on: Iterable[str],
    table: TableGeometry,
    spacing: float = 8.0,
) -> tuple[bool, Position | None]:
    """S2 R17(a): snookered from every position on or inside the D.

    Positions where the cue ball would touch another ball are skipped.

    Returns:
        (snookered, a D position from which some ball on is hittable at both edges, or None).
    """
    on = list(balls_on)
    _, all_xy = _as_array(positions, [b for b in positions if b != "white"])
    for p in table.d_positions(spacing):
        if len(all_xy) and np.min(np.hypot(*(all_xy - p).T)) < table.ball_diameter:
            continue
        res = snooker_test((float(p[0]), float(p[1])), positions, on, table)
        if not res.snookered:
            return False, (float(p[0]), float(p[1]))
    return True, None


def clear_path_to_any_part(
    cue: Position, positions: Mapping[str, Position], balls_on: Iterable[str], table: TableGeometry
) -> str | None:
    """C29: a ball on that some straight stroke reaches before any ball not on.

    Returns:
        the id of such a ball, or None when every ball on is wholly obstructed.
    """
    cue_xy = np.asarray(cue, dtype=float)
    on = [b for b in balls_on if b in positions and b != "white"]
    on_set = set(on)
    ids, xy = _as_array(positions, [b for b in positions if b not in on_set and b != "white"])
    for ball in on:
        target = np.asarray(positions[ball], dtype=float)
        for off in _offsets(table.ball_diameter):
            if not block_of_path(cue_xy, target, float(off), ids, xy, table).blocked_by_ball:
                return ball
    return None


def full_ball_available(
    cue: Position, positions: Mapping[str, Position], balls_on: Iterable[str], table: TableGeometry
) -> bool:
    """C30 / D20: full-ball contact available on some ball on.

    For a colour: the centre-to-centre path is clear. For reds: every contact offset across
    the red's width is free of colours (other reds do not count).
    """
    cue_xy = np.asarray(cue, dtype=float)
    on = [b for b in balls_on if b in positions and b != "white"]
    reds_on = all(b.startswith("red") for b in on) and bool(on)
    for ball in on:
        target = np.asarray(positions[ball], dtype=float)
        if reds_on:
            ids, xy = _as_array(
                positions, [b for b in positions if not b.startswith("red") and b != "white"]
            )
            offsets = _offsets(table.ball_diameter)
        else:
            ids, xy = _as_array(positions, [b for b in positions if b != ball and b != "white"])
            offsets = np.array([0.0])
        if all(
            not block_of_path(cue_xy, target, float(o), ids, xy, table).blocked_by_ball
            for o in offsets
        ):
            return True
    return False


def touching_balls(
    cue: Position, positions: Mapping[str, Position], table: TableGeometry, gap_mm: float
) -> tuple[str, ...]:
    """Object balls whose gap to the cue ball is at most ``gap_mm`` (C37)."""
    out = []
    for b, p in positions.items():
        if b == "white":
            continue
        if math.dist(cue, p) - table.ball_diameter <= gap_mm:
            out.append(b)
    return tuple(sorted(out))


def object_balls(positions: Mapping[str, Position]) -> dict[str, Position]:
    """The positions (mm) without the white: the object balls."""
    return {k: v for k, v in positions.items() if k != "white"}
