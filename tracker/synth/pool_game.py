"""A pool game in the synthetic world (issue 33): pooltool's physics on a pool table, a simple
bot that breaks and then pots the legal ball, the pool referee for the true calls, and pool
balls that roll (their numbers and bands turn with the ball) in the rendered video.

The game runs on :class:`tracker.synth.world.World` with a pool ruleset (``nine-ball``,
``eight-ball``) and a pool table (:meth:`calibration.table.TableGeometry.pool`): the world
already keeps the truth of every video frame and stroke (events with exact times, pots by
ball and pocket) and writes the match log a perfect perception would, which the pool rules
referee to give the true calls. :func:`play_pool_game` plays the break and a few strokes;
:class:`RollingPoolRenderer` paints the balls turning as they roll, and
:func:`tracker.synth.video.write_clip` writes the clip with it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from calibration.table import TableGeometry
from tracker.rules.pool_types import group_of
from tracker.synth.bot import Bot, Skill
from tracker.synth.physics import Physics, Stroke
from tracker.synth.pool_render import PoolRenderer, random_orientation
from tracker.synth.world import World

WHITE = "white"
GAMES = ("nine-ball", "eight-ball")


@dataclass(frozen=True)
class PoolGameParams:
    """Tunables of a synthetic pool game.

    Attributes:
        strokes: strokes after the break (fewer when the rack ends first).
        break_speed: cue-ball speed of the break, m/s (the cue ball's speed off the tip).
        break_aim_sigma_deg: aim noise of the break, degrees (a break hits the apex ball).
        skill: the bot's aim and speed noise and its longest cut (as the snooker bot's).
        placing_margin_mm: a cue ball in hand is put at least this far from the cushions.
        feet: the table's size, ft (7, 8 or 9).
        rest_s: the range of the wait before each stroke, s (the striker steps in over its
            last 60 %).
        before_break_s: the cue ball stands this long, s, once placed for the break.
    """

    strokes: int = 5
    break_speed: float = 7.0
    break_aim_sigma_deg: float = 0.6
    skill: Skill = field(default_factory=lambda: Skill(aim_sigma_deg=0.3, speed_sigma=0.1,
                                                       max_cut_deg=60.0, safety_prob=0.0))
    placing_margin_mm: float = 80.0
    feet: int = 8
    rest_s: tuple[float, float] = (1.2, 2.0)
    before_break_s: float = 1.0


class PoolBot(Bot):
    """The snooker bot's ghost-ball potting, with pool's legal balls: the lowest numbered ball
    (nine-ball); the shooter's group, any but the 8 while the table is open, then the 8
    (eight-ball). A cue ball in hand goes behind the head string after a scratch on the break
    and anywhere on the table after another foul, where a pot is easiest."""

    def candidates(self) -> list[str]:
        """The object balls the striker may pot now."""
        st = self.world.state
        on = sorted(st.on_table, key=int)
        if st.ruleset == "nine-ball":
            return on[:1]
        group = st.game.groups[st.striker] if st.game is not None else None
        if group is None:
            return [b for b in on if b != "8"]
        mine = [b for b in on if group_of(b) == group]
        return mine or ["8"]

    def place_in_d(self) -> tuple[float, float]:
        """Where the striker puts the cue ball in hand (the kitchen or anywhere)."""
        w = self.world
        t = w.table
        margin = PoolGameParams.placing_margin_mm
        y_max = t.head_string - 20.0 if w.state.in_hand_area == "kitchen" else t.length - margin
        xs = self.rng.uniform(margin, t.width - margin, 80)
        ys = self.rng.uniform(margin, y_max, 80)
        occupied = np.array([p for b, p in w.positions.items() if b != WHITE]) if len(w.positions) else np.zeros((0, 2))
        best, best_score = None, math.inf
        for x, y in zip(xs, ys, strict=True):
            p = np.array([x, y])
            if len(occupied) and np.min(np.hypot(*(occupied - p).T)) < t.ball_diameter * 1.5:
                continue
            pot = self.best_pot((float(x), float(y)))
            score = pot[3] + pot[4] / 100 if pot else 1e6
            if score < best_score:
                best, best_score = (float(x), float(y)), score
        return best or (t.width / 2, t.head_string / 2)

    def nomination(self, ball: str | None) -> str | None:
        """Eight-ball calls the ball aimed at (002 3.6); nine-ball calls nothing."""
        return ball if self.world.state.ruleset == "eight-ball" else None


def break_stroke(world: World, params: PoolGameParams, rng: np.random.Generator) -> Stroke:
    """The break: the cue ball placed behind the head string, driven hard at the apex ball."""
    t = world.table
    x = t.width / 2 + float(rng.uniform(-0.25, 0.25)) * t.width
    world.place_cue_ball((x, t.head_string - 60.0))
    world._rest(params.before_break_s)
    apex = min((p for b, p in world.positions.items() if b != WHITE), key=lambda p: p[1])
    phi = math.degrees(math.atan2(apex[1] - t.head_string + 60.0, apex[0] - x))
    phi += float(rng.normal(0, params.break_aim_sigma_deg))
    return Stroke(params.break_speed * (1 + float(rng.normal(0, 0.05))), phi, b=0.1)


def play_pool_game(game: str, seed: int, params: PoolGameParams = PoolGameParams(),
                   physics: Physics | None = None, players: tuple[str, str] = ("Ann", "Bob")) -> World:
    """Play the break and up to ``params.strokes`` strokes of ``game`` (``nine-ball`` or
    ``eight-ball``) with seed ``seed``; returns the played :class:`World` (its ``frames``,
    ``shots`` and ``log_lines()`` are the truth)."""
    if game not in GAMES:
        raise ValueError(f"{game!r} is not a synthetic pool game: use {' or '.join(GAMES)}")
    table = TableGeometry.pool(params.feet)
    world = World(players, ruleset=game, table=table, seed=seed,
                  physics=physics or Physics(table), rest_s=params.rest_s)
    # the match log names the table, so its referee knows the head string and the foot spot
    world.records[0] = replace(world.records[0], table={
        "length": table.length, "width": table.width, "ball_diameter": table.ball_diameter})
    rng = np.random.default_rng(seed + 1000)
    bot = PoolBot(world, params.skill, seed=seed)
    world.play(break_stroke(world, params, rng), label="break")
    for _ in range(params.strokes):
        if world.state.frame_over:
            break
        if WHITE not in world.positions:
            world.place_cue_ball(bot.place_in_d())
        stroke, _ = bot.stroke()
        pot = bot.best_pot(world.positions[WHITE])
        world.play(stroke, nomination=bot.nomination(pot[0] if pot else None))
    return world


class RollingPoolRenderer(PoolRenderer):
    """A :class:`PoolRenderer` whose balls turn as they roll: between two calls of
    :meth:`render` each ball turns by its displacement over its radius about the horizontal
    axis across its path (rolling without sliding); each starts at a random orientation."""

    def __init__(self, *args, seed: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self._rng = np.random.default_rng(seed)
        self._rot: dict[str, np.ndarray] = {}
        self._last: dict[str, tuple[float, float]] = {}

    def render(self, balls: Mapping[str, tuple[float, float]], *args, **kwargs) -> np.ndarray:
        """:meth:`PoolRenderer.render` with the rolled orientations."""
        r = self.table.ball_radius
        for b, p in balls.items():
            rot = self._rot.get(b)
            if rot is None:
                rot = random_orientation(self._rng)
            elif b in self._last:
                rot = rolled(rot, np.subtract(p, self._last[b]), r)
            self._rot[b] = rot
            self._last[b] = (float(p[0]), float(p[1]))
        kwargs.setdefault("orientations", dict(self._rot))
        return super().render(balls, *args, **kwargs)


def rolled(rot: np.ndarray, move_mm: np.ndarray, radius: float) -> np.ndarray:
    """The orientation (3, 3) of a ball after it rolled ``move_mm`` (2,) on the cloth: a turn
    of |move| / ``radius`` radians about z x move (Rodrigues' formula)."""
    d = float(np.hypot(*move_mm))
    if d < 1e-6 or d > 20 * radius:  # at rest, or carried by hand (not rolled)
        return rot
    axis = np.array([-move_mm[1], move_mm[0], 0.0]) / d
    a = d / radius
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = np.eye(3) + math.sin(a) * k + (1 - math.cos(a)) * (k @ k)
    return turn @ rot
