"""A snooker bot: picks pots it can see, plays safe when it cannot, and makes realistic
mistakes (aim noise, wrong speed), so that whole frames with realistic scores exist.

Geometry is the ghost-ball method: to send an object ball toward a pocket, the cue ball must
arrive at the point 2R behind it on the line from the pocket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.records.shot import InputKind
from tracker.rules.geometry import first_ball_hit
from tracker.rules.state import Phase
from tracker.synth.physics import Stroke
from tracker.synth.world import World

Position = tuple[float, float]


def pocket_target(table: TableGeometry, pocket: str) -> np.ndarray:
    """Where to send a ball into ``pocket``: a little inside the mouth centre, mm."""
    p = table.pockets[pocket]
    m = np.array(p.mouth_centre)
    f = np.array(p.fall)
    return m + (f - m) * 0.3


def ghost_aim(cue: Position, ball: Position, target: np.ndarray, two_r: float) -> tuple[float, float, float]:
    """(phi degrees, cut angle degrees, distance cue->ghost mm) to send ``ball`` to ``target``."""
    b = np.array(ball)
    d = target - b
    d /= np.linalg.norm(d)
    ghost = b - d * two_r
    v = ghost - np.array(cue)
    phi = math.degrees(math.atan2(v[1], v[0]))
    u = v / max(np.linalg.norm(v), 1e-9)
    cut = math.degrees(math.acos(max(-1.0, min(1.0, float(u @ d)))))
    return phi, cut, float(np.linalg.norm(v))


def path_clear(start: Position, end: np.ndarray, others: np.ndarray, two_r: float) -> bool:
    """True if a ball rolling from ``start`` to ``end`` (mm) touches none of ``others``."""
    s = np.array(start, float)
    v = end - s
    length = float(np.linalg.norm(v))
    if length < 1e-6:
        return True
    i, _ = first_ball_hit(s, v / length, length, others, two_r)
    return i < 0


@dataclass
class Skill:
    """How well the bot plays: aim noise (degrees), speed noise (fraction), max cut (degrees)."""

    aim_sigma_deg: float = 0.35
    speed_sigma: float = 0.12
    max_cut_deg: float = 65.0
    safety_prob: float = 0.15


class Bot:
    """Plays strokes for whoever is to strike in a :class:`World`."""

    def __init__(self, world: World, skill: Skill | None = None, seed: int = 0):
        self.world = world
        self.skill = skill or Skill()
        self.rng = np.random.default_rng(seed)

    def candidates(self) -> list[str]:
        """The balls the bot may play at now."""
        st = self.world.state
        if st.phase == Phase.RED:
            return sorted(b for b in st.on_table if B.is_red(b))
        if st.phase == Phase.COLOUR_CHOICE:
            return [c for c in B.COLOURS if c in st.on_table]
        if st.phase == Phase.RESPOTTED_BLACK:
            return ["black"]
        return [st.seq_colour] if st.seq_colour else []

    def best_pot(self, cue: Position) -> tuple[str, str, float, float, float] | None:
        """(ball, pocket, phi, cut, distance) of the easiest visible pot, or None."""
        w = self.world
        t = w.table
        two_r = t.ball_diameter
        best = None
        for ball in self.candidates():
            if ball not in w.positions:
                continue
            bp = w.positions[ball]
            others = np.array([p for b, p in w.positions.items() if b not in (ball, B.WHITE)])
            others = others if len(others) else np.zeros((0, 2))
            for pocket in t.pockets:
                target = pocket_target(t, pocket)
                phi, cut, dist = ghost_aim(cue, bp, target, two_r)
                if cut > self.skill.max_cut_deg:
                    continue
                ghost = np.array(bp) - (target - np.array(bp)) / np.linalg.norm(target - np.array(bp)) * two_r
                if not path_clear(cue, ghost, others, two_r):
                    continue
                if not path_clear(bp, target, others, two_r):
                    continue
                pot_len = float(np.linalg.norm(target - np.array(bp)))
                score = cut / 10.0 + (dist + 2 * pot_len) / 1000.0
                if best is None or score < best[0]:
                    best = (score, ball, pocket, phi, cut, dist + pot_len)
        if best is None:
            return None
        return best[1], best[2], best[3], best[4], best[5]

    def place_in_d(self) -> Position:
        """Choose a cue-ball position in the D that gives a pot (or the brown spot side)."""
        w = self.world
        t = w.table
        pts = t.d_positions(40.0)
        self.rng.shuffle(pts)
        occupied = np.array([p for b, p in w.positions.items() if b != B.WHITE])
        best, best_score = None, math.inf
        for p in pts[:60]:
            if len(occupied) and np.min(np.hypot(*(occupied - p).T)) < t.ball_diameter + 2:
                continue
            pos = (float(p[0]), float(p[1]))
            pot = self.best_pot(pos)
            score = pot[3] + pot[4] / 100 if pot else 1e6
            if score < best_score:
                best, best_score = pos, score
        if best is None:
            best = (t.centre_x + 100.0, t.baulk_line - 100.0)
        return best

    def stroke(self) -> tuple[Stroke, str | None]:
        """The stroke to play now, and the colour nominated (after a red)."""
        w = self.world
        cue = w.positions[B.WHITE]
        pot = self.best_pot(cue)
        sk = self.skill
        if pot is not None and self.rng.random() > sk.safety_prob:
            ball, pocket, phi, cut, dist = pot
            speed = float(np.clip(1.0 + dist / 1400.0, 1.2, 4.5))
            speed *= 1 + self.rng.normal(0, sk.speed_sigma)
            phi += float(self.rng.normal(0, sk.aim_sigma_deg * (1 + cut / 45.0)))
            b = float(self.rng.uniform(-0.3, 0.4))
            nom = ball if w.state.phase == Phase.COLOUR_CHOICE else None
            return Stroke(speed, phi, b=b), nom
        # safety: thin contact on the nearest ball on, softly
        cands = [b for b in self.candidates() if b in w.positions]
        if not cands:
            return Stroke(0.8, float(self.rng.uniform(0, 360))), None
        ball = min(cands, key=lambda b: math.dist(cue, w.positions[b]))
        v = np.array(w.positions[ball]) - np.array(cue)
        d = float(np.linalg.norm(v))
        base = math.degrees(math.atan2(v[1], v[0]))
        thin = math.degrees(math.asin(min(0.95, 0.8 * w.table.ball_diameter / max(d, 1))))
        phi = base + thin * (1 if self.rng.random() < 0.5 else -1)
        phi += float(self.rng.normal(0, sk.aim_sigma_deg))
        speed = float(np.clip(0.8 + d / 1800.0, 0.9, 2.5))
        nom = ball if w.state.phase == Phase.COLOUR_CHOICE else None
        return Stroke(speed, phi, b=-0.2), nom

    def play_turn(self) -> None:
        """One stroke by whoever is to play (placing the cue ball first when in hand)."""
        w = self.world
        st = w.state
        if st.pending is not None and "play_again" in st.pending.options and self.rng.random() < 0.2:
            w.operator(InputKind.OPTION, choice="play_again")
        if B.WHITE not in w.positions:
            w.place_cue_ball(self.place_in_d())
        stroke, nom = self.stroke()
        w.play(stroke, nomination=nom, label="bot")

    def play_frame(self, max_strokes: int = 400, max_seconds: float | None = None) -> None:
        """Play until the frame ends (or a stroke / time limit)."""
        w = self.world
        for _ in range(max_strokes):
            if w.state.frame_over:
                return
            if max_seconds is not None and w.t > max_seconds:
                return
            if w.state.phase == Phase.RESPOTTED_BLACK and w.state.shots and st_needs_lots(w):
                w.operator(InputKind.LOTS, player=w.state.players[int(self.rng.integers(0, 2))])
            self.play_turn()


def st_needs_lots(w: World) -> bool:
    """True right after the black was re-spotted (nobody has struck since)."""
    last = w.outputs[-1] if w.outputs else {}
    return any("re-spotted" in n for n in last.get("notes", []))
