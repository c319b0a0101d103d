"""Scripted scenarios, one per referee category, each checked by the referee engine.

A scenario sets up a layout and plays strokes. Where the outcome must be a given call (an
in-off, a miss, a free ball...), the stroke is found by a seeded search: candidate strokes are
simulated (pooltool) and refereed in a dry run until one gives the wanted call; only that one
is played. So every scenario is exactly reproducible from its seed and really shows its
category. ``SCENARIOS`` maps a name to (description, builder).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.shot import InputKind
from tracker.rules.state import Decision
from tracker.synth.bot import Bot, ghost_aim, pocket_target
from tracker.synth.mishaps import ImpossibleMishap
from tracker.synth.physics import Physics, Stroke
from tracker.synth.world import World

Predicate = Callable[[Decision], bool]


class ScenarioFailed(RuntimeError):
    """No stroke in the search gave the wanted call."""


def trial(world: World, stroke: Stroke, nomination: str | None = None,
          free_ball: str | None = None, **mishap) -> Decision | None:
    """Referee a stroke without playing it (dry run); ``mishap``: ``off_table`` / ``disturb``
    as in :meth:`World.simulate`. None when the stroke cannot carry the mishap."""
    try:
        res = world.simulate(world.positions, stroke, **mishap)
    except ImpossibleMishap:
        return None
    shot = world._shot_record(len(world.shots) + 1, dict(world.positions), res, world.t,
                              nomination, free_ball, None)
    decision, _ = world.rules.decide(world.state, shot)
    return decision


def search(world: World, candidates: Callable[[np.random.Generator], Stroke], wanted: Predicate,
           tries: int = 120, nomination: str | None = None, free_ball: str | None = None,
           label: str = "", **mishap) -> Decision:
    """Play the first candidate stroke whose dry-run decision satisfies ``wanted``."""
    rng = np.random.default_rng(len(world.shots) * 7919 + 17)
    for _ in range(tries):
        s = candidates(rng)
        d = trial(world, s, nomination, free_ball, **mishap)
        if d is not None and wanted(d):
            return world.play(s, nomination=nomination, free_ball=free_ball, label=label, **mishap)
    raise ScenarioFailed(f"no stroke gave the wanted call for {label!r} in {tries} tries")


def aim_pot(world: World, ball: str, pocket: str, speed: tuple[float, float] = (1.5, 3.0),
            sigma: float = 0.25) -> Callable[[np.random.Generator], Stroke]:
    """Candidate strokes potting ``ball`` into ``pocket`` (ghost-ball aim plus noise)."""
    phi, _, _ = ghost_aim(world.positions[B.WHITE], world.positions[ball],
                          pocket_target(world.table, pocket), world.table.ball_diameter)

    def gen(rng: np.random.Generator) -> Stroke:
        return Stroke(float(rng.uniform(*speed)), phi + float(rng.normal(0, sigma)),
                      b=float(rng.uniform(-0.4, 0.5)))
    return gen


def aim_pot_any(world: World, ball: str, speed: tuple[float, float] = (1.2, 3.0),
                sigma: float = 0.2) -> Callable[[np.random.Generator], Stroke]:
    """Candidate strokes potting ``ball`` into a randomly chosen pocket."""
    pockets = list(world.table.pockets)

    def gen(rng: np.random.Generator) -> Stroke:
        pocket = pockets[int(rng.integers(0, len(pockets)))]
        return aim_pot(world, ball, pocket, speed, sigma)(rng)
    return gen


def aim_at(world: World, ball: str, speed: tuple[float, float] = (1.0, 2.5),
           spread_deg: float = 1.5) -> Callable[[np.random.Generator], Stroke]:
    """Candidate strokes straight at ``ball``."""
    v = np.array(world.positions[ball]) - np.array(world.positions[B.WHITE])
    phi = math.degrees(math.atan2(v[1], v[0]))

    def gen(rng: np.random.Generator) -> Stroke:
        return Stroke(float(rng.uniform(*speed)), phi + float(rng.uniform(-spread_deg, spread_deg)),
                      b=float(rng.uniform(-0.3, 0.3)))
    return gen


def layout(reds: dict[str, tuple[float, float]], white: tuple[float, float] | None,
           moved: dict[str, tuple[float, float]] | None = None) -> dict[str, tuple[float, float]]:
    """Colours on their spots (unless moved), the given reds and the white."""
    pos = {c: T.spots[c] for c in B.COLOURS}
    pos.update(moved or {})
    pos.update(reds)
    if white is not None:
        pos[B.WHITE] = white
    return pos


def foul_code(code: str) -> Predicate:
    """The decision has a foul with this code."""
    return lambda d: any(f.code == code for f in d.fouls)


def fair_pot(*balls: str) -> Predicate:
    """No foul and every named ball potted."""
    return lambda d: not d.foul and all(b in d.potted for b in balls)


# ---------------------------------------------------------------------- the scenarios
def break_off(world: World) -> None:
    """The opening stroke from the D: a thin contact on the back of the pack, no foul."""
    world.place_cue_ball((T.centre_x + 180.0, T.baulk_line - 20.0))
    target = np.array(world.positions["red_15"]) + np.array([30.0, 10.0])
    v = target - np.array(world.positions[B.WHITE])
    phi = math.degrees(math.atan2(v[1], v[0]))
    search(world, lambda r: Stroke(float(r.uniform(3.5, 5.0)), phi + float(r.uniform(-0.6, 0.6)),
                                   a=0.3, b=0.2),
           lambda d: not d.foul, tries=200, label="break-off")


def pots(world: World) -> None:
    """A red, the black after it, another red: pots of reds and colours."""
    search(world, aim_pot(world, "red_01", "top_left"), fair_pot("red_01"), label="pot red")
    search(world, aim_pot_any(world, "black"), fair_pot("black"), nomination="black",
           tries=300, label="pot black after a red")
    search(world, aim_pot_any(world, "red_02"), lambda d: not d.foul, label="another red")


def pots_layout() -> dict:
    return layout({"red_01": (300.0, 3150.0), "red_02": (1450.0, 1950.0),
                   "red_03": (900.0, 2900.0), "red_04": (700.0, 2950.0)}, (700.0, 2500.0))


def several_reds(world: World) -> None:
    """Two reds in one stroke: two reds along the top cushion in front of the corner pocket,
    the cue ball rolls along the cushion into them."""
    search(world, lambda r: Stroke(float(r.uniform(1.2, 3.5)), 180.0 + float(r.uniform(-0.8, 0.8)),
                                   b=float(r.uniform(-0.2, 0.6))),
           lambda d: not d.foul and sum(1 for b in d.potted if B.is_red(b)) >= 2,
           tries=400, label="two reds")


def several_reds_layout() -> dict:
    y = T.length - T.ball_radius - 0.5
    return layout({"red_01": (75.0, y), "red_02": (75.0 + T.ball_diameter + 1.0, y),
                   "red_03": (889.0, 2900.0)}, (700.0, y))


def in_off(world: World) -> None:
    """A red potted and the cue ball follows it in."""
    search(world, aim_pot(world, "red_01", "top_left", speed=(2.0, 4.0), sigma=0.4),
           lambda d: foul_code("cue_ball_potted")(d) and "red_01" in d.potted, tries=300,
           label="in-off")


def in_off_layout() -> dict:
    return layout({"red_01": (250.0, 3300.0), "red_02": (1300.0, 2900.0)}, (600.0, 2950.0))


def wrong_ball_first(world: World) -> None:
    """Red on, the cue ball hits the blue first: foul (and an automatic miss)."""
    search(world, aim_at(world, "blue"), foul_code("wrong_ball_first"), label="wrong ball first")


def no_contact(world: World) -> None:
    """The cue ball touches nothing."""
    search(world, lambda r: Stroke(float(r.uniform(0.25, 0.5)), float(r.uniform(-10, 10))),
           foul_code("no_contact"), label="no contact")


def colour_when_red_on(world: World) -> None:
    """The pink potted while red is on."""
    search(world, aim_pot(world, "pink", "top_left"), lambda d: "pink" in d.potted and d.foul,
           label="colour potted, red on")


def simple_layout() -> dict:
    return layout({"red_01": (400.0, 3000.0), "red_02": (1300.0, 3100.0), "red_03": (900.0, 3300.0)},
                  (889.0, 1000.0), moved={"pink": (500.0, 3260.0)})


def free_ball(world: World) -> None:
    """A no-contact foul leaves the opponent snookered behind the black: FREE BALL; the
    incoming player nominates the black and hits it first."""
    search(world, lambda r: Stroke(float(r.uniform(0.2, 0.35)), float(r.uniform(-95, -85))),
           lambda d: d.foul and d.free_ball, tries=200, label="foul leaving a free ball")
    search(world, aim_at(world, "black", speed=(0.6, 1.2), spread_deg=0.8),
           lambda d: not d.foul, free_ball="black", label="free ball played")


def free_ball_layout() -> dict:
    reds = {"red_01": (860.0, 2950.0), "red_02": (920.0, 2950.0), "red_03": (889.0, 2890.0)}
    return layout(reds, (889.0, 3460.0), moved={"black": (889.0, 3370.0), "pink": (1500.0, 2600.0)})


def foul_and_miss(world: World) -> None:
    """A red in full view, the cue ball hits the yellow: FOUL AND A MISS; the balls are
    replaced and the striker plays again and hits a red."""
    search(world, aim_at(world, "yellow", speed=(0.8, 1.5), spread_deg=0.5),
           lambda d: d.miss, label="foul and a miss")
    world.operator(InputKind.OPTION, choice="replace")
    search(world, aim_at(world, "red_01", speed=(0.8, 1.6), spread_deg=0.5), lambda d: not d.foul,
           label="replayed")


def miss_layout() -> dict:
    return layout({"red_01": (889.0, 2300.0), "red_02": (600.0, 3100.0)}, (1000.0, 1100.0),
                  moved={"yellow": (1100.0, 1500.0)})


def touching_ball(world: World) -> None:
    """The cue ball touches a red; the striker plays away and hits another red."""
    search(world, aim_at(world, "red_02", speed=(0.8, 1.6), spread_deg=0.6), lambda d: not d.foul,
           label="touching ball played away")


def touching_layout() -> dict:
    r1 = (889.0, 2400.0)
    return layout({"red_01": r1, "red_02": (400.0, 2900.0)}, (r1[0], r1[1] - T.ball_diameter - 0.2))


def ball_in_jaws(world: World) -> None:
    """A red sitting in the jaws of the top-left pocket is potted."""
    search(world, aim_pot(world, "red_01", "top_left", speed=(1.0, 2.0), sigma=0.3),
           fair_pot("red_01"), label="red from the jaws")


def jaws_layout() -> dict:
    return layout({"red_01": (40.0, 3520.0), "red_02": (1300.0, 3000.0)}, (700.0, 2800.0))


def respot_occupied(world: World) -> None:
    """A red, then the black whose spot is covered by a red: the black goes to the pink spot
    (the highest free spot)."""
    search(world, aim_pot(world, "red_01", "top_left"), fair_pot("red_01"), label="red")
    search(world, aim_pot_any(world, "black"),
           lambda d: fair_pot("black")(d) and any(r.how == "highest_spot" for r in d.respots),
           nomination="black", tries=300, label="black re-spotted on an occupied spot")


def respot_layout() -> dict:
    return layout({"red_01": (300.0, 3150.0), "red_02": T.spots["black"], "red_03": (400.0, 2700.0)},
                  (700.0, 2600.0), moved={"black": (1450.0, 3200.0), "pink": (1300.0, 2300.0)})


def off_table(world: World) -> None:
    """A red driven into the side cushion jumps it and leaves the table (foul); then the
    incoming player's cue ball, after hitting a red, flies off over the top cushion (foul,
    cue ball in hand)."""
    search(world, aim_at(world, "red_01", speed=(3.0, 5.5), spread_deg=4.0),
           foul_code("forced_off"), tries=200, label="red forced off the table", off_table="red_01")
    search(world, aim_at(world, "red_02", speed=(2.5, 4.0), spread_deg=5.0),
           lambda d: [f.code for f in d.fouls] == ["forced_off"], tries=300,
           label="cue ball off the table", off_table=B.WHITE)


def off_table_layout() -> dict:
    return layout({"red_01": (1560.0, 2500.0), "red_02": (1300.0, 2950.0),
                   "red_03": (500.0, 3000.0)}, (1150.0, 2150.0))


def ball_disturbed(world: World) -> None:
    """As the striker plays at a red, his bridge hand pushes another red aside: a ball
    disturbed (foul)."""
    r = world.positions["red_02"]
    search(world, aim_at(world, "red_01", speed=(1.0, 2.0), spread_deg=0.6),
           foul_code("ball_disturbed"), label="red disturbed by the bridge hand",
           disturb=("red_02", (r[0] + 55.0, r[1] - 20.0)))


def disturbed_layout() -> dict:
    return layout({"red_01": (1200.0, 2500.0), "red_02": (1110.0, 1120.0),
                   "red_03": (500.0, 3000.0)}, (1000.0, 1400.0))


def bot_frame(world: World, max_seconds: float = 60.0) -> None:
    """A frame played by the bot from the break-off (stops at ``max_seconds`` of video)."""
    break_off(world)
    Bot(world, seed=int(world.rng.integers(0, 10_000))).play_frame(max_seconds=max_seconds)


SCENARIOS: dict[str, tuple[str, Callable[[], dict | None], Callable[[World], None]]] = {
    "break_off": ("break-off from the D", lambda: None, break_off),
    "pots": ("pots of a red, the black, another red", pots_layout, pots),
    "several_reds": ("two reds in one stroke", several_reds_layout, several_reds),
    "in_off": ("red potted, cue ball in-off", in_off_layout, in_off),
    "wrong_ball_first": ("red on, blue hit first", simple_layout, wrong_ball_first),
    "no_contact": ("cue ball hits nothing", simple_layout, no_contact),
    "colour_when_red_on": ("pink potted with red on", simple_layout, colour_when_red_on),
    "free_ball": ("snookered after a foul, free ball taken", free_ball_layout, free_ball),
    "foul_and_miss": ("foul and a miss, replaced, replayed", miss_layout, foul_and_miss),
    "touching_ball": ("touching ball played away", touching_layout, touching_ball),
    "ball_in_jaws": ("red potted from the jaws", jaws_layout, ball_in_jaws),
    "respot_occupied": ("black re-spotted with its spot occupied", respot_layout, respot_occupied),
    "off_table": ("a red forced off the table, then the cue ball", off_table_layout, off_table),
    "ball_disturbed": ("a ball pushed by the striker's hand", disturbed_layout, ball_disturbed),
    "frame": ("a frame played by the bot", lambda: None, bot_frame),
}


def build(name: str, seed: int = 0, fps: float = 25.0, physics: Physics | None = None,
          players: tuple[str, str] = ("A", "B"), max_seconds: float | None = None,
          **world_options: Any) -> World:
    """Build and play a scenario; returns the world with its timeline and ground truth.
    ``world_options`` go to :class:`World` (``subframe_strike``, ``exposure``, ``outfit``)."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}")
    _, make_layout, play = SCENARIOS[name]
    world = World(players, make_layout(), fps=fps, seed=seed, physics=physics, **world_options)
    if name == "frame":
        bot_frame(world, max_seconds=max_seconds or 60.0)
    else:
        play(world)
        world._rest(1.0)
    return world
