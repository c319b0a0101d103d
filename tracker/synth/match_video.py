"""A synthetic match: several frames at one table, with what happens between and around them,
and its exact truth (issue 28).

:func:`play_match` drives a :class:`tracker.synth.world.World` through a best-of-N match of
a short game (6-red snooker by default) played by the bot:

1. frame 1 from the standard rack (already on the table when the video starts);
2. after each frame the table is cleared by hand, and the next frame's balls are put back by
   hand (the reds in the triangle together, the colours one by one on their spots); the
   breaker alternates (S3 R3);
3. one frame is conceded (S4 R5): the player leading on frames concedes it at his first
   turn after a few strokes, so the match goes to a deciding frame;
4. an idle stretch with the table empty (after frame 1) and one with people walking past a
   table left as the conceded frame ended (no ball moves);
5. the camera is knocked during a frame: its pose turns and shifts a little between two
   strokes and stays so.

:class:`MatchTimeline` keeps what happened and when (seconds from the start of the video),
which :mod:`tracker.synth.match_render` renders and writes with the truth file.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from tracker import balls as B
from tracker.records.shot import EventType, FrameStart, InputKind
from tracker.rules.match import Match
from tracker.rules.state import Phase
from tracker.synth.bot import Bot, Skill, st_needs_lots
from tracker.synth.physics import Stroke
from tracker.synth.render import Occluder
from tracker.synth.scenarios import ScenarioFailed, trial
from tracker.synth.world import CARRY_HEIGHT_MM, World, hand_occluder

Position = tuple[float, float]
#: Height of a passer-by's head and shoulders above the cloth, mm (under an overhead camera at
#: 3 m a higher one is seen so enlarged that most of its path is out of the picture).
WALKER_HEIGHT_MM = 1000.0


@dataclass(frozen=True)
class MatchPlan:
    """Everything that shapes the synthetic match (lengths in seconds of video).

    Attributes:
        players: the two players; the first breaks in frame 1.
        best_of: frames in the match; the concession (below) makes it go the distance when
            ``best_of`` is 3.
        ruleset: the referee's ruleset (``snooker-6-reds``: a frame is a few minutes).
        concede_frame: the frame (1-based) that is conceded; 0: none.
        concede_after: strokes of that frame before the player leading on frames (when level,
            the one behind in points) concedes, at his first turn after them.
        max_strokes: a frame still on after this many strokes is conceded by the player behind
            in points at his next turn (keeps the short version short).
        idle_empty_s: the table empty after frame 1, before the re-rack.
        idle_walkers_s: the conceded frame's balls left on the table while people walk past.
        walkers: people crossing the table during that stretch.
        knock_frame: the frame in which the camera is knocked (0: never).
        knock_after: strokes of that frame before the knock (between two strokes).
        knock_turn_deg: how far the knock turns the camera about its optical axis, degrees.
        knock_tilt_deg: how far it tilts the camera, degrees.
        knock_shift_mm: how far it moves the camera sideways, mm.
        fps: video frames per second.
        size: image (width, height), px.
        seed: seed of everything random (the bot, the timing, the walkers).
        rest_s: pause before each stroke, range in seconds.
        carry_s: how long a hand takes to put one ball (or the reds in the triangle) in place.
        skill: the bot's aim noise (deg), speed noise (fraction), largest cut (deg) and
            share of safeties.
    """

    players: tuple[str, str] = ("Ann", "Bob")
    best_of: int = 3
    ruleset: str = "snooker-6-reds"
    concede_frame: int = 2
    concede_after: int = 5
    max_strokes: int = 200
    idle_empty_s: float = 60.0
    idle_walkers_s: float = 60.0
    walkers: int = 5
    knock_frame: int = 3
    knock_after: int = 4
    knock_turn_deg: float = 0.8
    knock_tilt_deg: float = 0.6
    knock_shift_mm: float = 25.0
    fps: float = 25.0
    size: tuple[int, int] = (1280, 720)
    seed: int = 0
    rest_s: tuple[float, float] = (0.6, 1.0)
    carry_s: float = 0.7
    skill: tuple[float, float, float, float] = (0.08, 0.06, 65.0, 0.03)

    def short(self) -> MatchPlan:
        """The tiny version: three frames of at most four strokes, 10-second idles."""
        return replace(self, concede_after=2, max_strokes=4, idle_empty_s=10.0,
                       idle_walkers_s=10.0, walkers=2, knock_after=1, carry_s=0.5)


@dataclass
class FrameRecord:
    """One frame's truth: ``start_s`` = its break-off strike, ``end_s`` = its last ball at
    rest or its concession; ``rerack_s`` = (start, end) of the table being cleared and
    re-racked before it (None for frame 1: racked before the video starts)."""

    frame: int
    breaker: str
    start_s: float
    end_s: float = 0.0
    first_shot: int = 0
    last_shot: int = 0
    ended: str = ""
    conceded_by: str | None = None
    score: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    rerack_s: tuple[float, float] | None = None


@dataclass
class MatchTimeline:
    """What happened: the world (its video frames and strokes), the frames, the idle
    stretches ``{"kind", "start_s", "end_s"}`` and the knock (video frame index, cameras)."""

    plan: MatchPlan
    world: World
    frames: list[FrameRecord] = field(default_factory=list)
    idle: list[dict[str, Any]] = field(default_factory=list)
    knock_index: int | None = None
    camera: CameraModel | None = None
    knocked: CameraModel | None = None

    def camera_at(self, index: int) -> CameraModel:
        """The camera of video frame ``index``."""
        assert self.camera is not None
        if self.knock_index is not None and index >= self.knock_index and self.knocked is not None:
            return self.knocked
        return self.camera


# ---------------------------------------------------------------------- the hand at the table
def carry_group(world: World, moves: dict[str, tuple[Position, Position | None]],
                seconds: float) -> None:
    """A hand lifts ``moves``' balls together from their start and sets them down at their
    end (None: off the table: they are gone when the hand has carried them away)."""
    t = world.table
    n = max(2, int(round(seconds * world.fps)))
    aside = (t.width + 200.0, t.length / 2)
    for k in range(n):
        s = k / (n - 1)
        ease = 0.5 - 0.5 * math.cos(math.pi * s)
        z = t.ball_radius + (CARRY_HEIGHT_MM - t.ball_radius) * math.sin(math.pi * s) ** 0.5
        if k == n - 1:
            z = t.ball_radius
        balls = dict(world.positions)
        for b, (a, e) in moves.items():
            end = e if e is not None else (aside[0], a[1])
            balls[b] = (a[0] + (end[0] - a[0]) * ease, a[1] + (end[1] - a[1]) * ease)
        centre = np.mean([balls[b] for b in moves], axis=0)
        hand = hand_occluder((float(centre[0]), float(centre[1])), z, t, world.outfit.get("placing"))
        world._emit(balls, heights=dict.fromkeys(moves, z), occluders=[hand], phase="placing",
                    shot=len(world.shots))
    for b, (_, e) in moves.items():
        if e is None:
            world.positions.pop(b, None)
        else:
            world.positions[b] = e
    world._rest(0.2)


def clear_table(world: World, seconds: float) -> None:
    """Every ball still on the table is picked up and taken away, the reds together."""
    reds = {b: (p, None) for b, p in world.positions.items() if B.is_red(b)}
    if reds:
        carry_group(world, reds, seconds)
    for b in [b for b in world.positions if not B.is_red(b)]:
        carry_group(world, {b: (world.positions[b], None)}, seconds * 0.7)


def rerack(world: World, seconds: float) -> None:
    """The reds in the triangle, then each colour on its spot, from beside the table."""
    t = world.table
    setup = world.rules.setup_positions()
    reds = {b: ((p[0] + t.width, p[1]), p) for b, p in setup.items() if B.is_red(b)}
    carry_group(world, reds, seconds * 1.5)
    for k, (b, p) in enumerate(sorted((b, p) for b, p in setup.items() if not B.is_red(b))):
        start = (t.width + 150.0, t.length * (0.2 + 0.1 * k))
        carry_group(world, {b: (start, p)}, seconds)


def walker(x: float, y: float, bgr: tuple[int, int, int]) -> Occluder:
    """A person's head and shoulders seen from above, centred at (x, y) mm, leaning over the
    table as people passing close do (:data:`WALKER_HEIGHT_MM` above the cloth)."""
    z = WALKER_HEIGHT_MM
    pts = np.array([[x - 120.0, y - 230.0, z], [x - 120.0, y + 230.0, z],
                    [x + 130.0, y + 200.0, z - 50.0], [x + 130.0, y - 200.0, z - 50.0]])
    return Occluder(pts, bgr)


def idle(world: World, seconds: float, walkers: int = 0) -> None:
    """The table left alone for ``seconds``; ``walkers`` people cross it (across its width,
    at a walking pace, each somewhere in the middle 40 % of its length), one after another, each
    crossing whole within its share of the stretch."""
    t = world.table
    n = max(1, int(round(seconds * world.fps)))
    path = t.width + 1400.0
    slot = n / max(walkers, 1)
    crossings = []
    for k in range(walkers):
        start = (k + 0.2 * world.rng.random()) * slot
        y = float(world.rng.uniform(0.3, 0.7)) * t.length
        # a walking pace, or faster where the stretch is too short for every crossing
        speed = max(float(world.rng.uniform(1000.0, 1500.0)) / world.fps, path / (0.8 * slot))
        colour = tuple(int(v) for v in world.rng.integers(20, 160, 3))
        crossings.append((start, y, speed, colour, 1 if k % 2 else -1))
    for i in range(n):
        occ = []
        for start, y, speed, colour, way in crossings:
            x = -700.0 + (i - start) * speed
            if -700.0 <= x <= t.width + 700.0:
                occ.append(walker(x if way > 0 else t.width - x, y, colour))
        world._emit(world.positions, occluders=occ, shot=len(world.shots))


def knocked_camera(camera: CameraModel, plan: MatchPlan) -> CameraModel:
    """The camera after the knock: turned about its optical axis, tilted, and moved sideways
    (about its own centre), intrinsics unchanged."""
    a, b = math.radians(plan.knock_turn_deg), math.radians(plan.knock_tilt_deg)
    turn = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    tilt = np.array([[1, 0, 0], [0, math.cos(b), -math.sin(b)], [0, math.sin(b), math.cos(b)]])
    d = tilt @ turn
    shift = np.array([plan.knock_shift_mm, -0.6 * plan.knock_shift_mm, 0.0])
    return replace(camera, R=d @ camera.R, t=d @ camera.t + shift)


# ---------------------------------------------------------------------- the match
def break_off(world: World, tries: int = 200) -> None:
    """The opening stroke from the D: a thin contact on the back red of the pack, no foul.
    Candidates whose physics shows a foul plainly (the cue ball meets no red first, or a ball
    other than a red drops) are passed over before the referee's dry run."""
    t = world.table
    world.place_cue_ball((t.centre_x + 180.0, t.baulk_line - 20.0))
    reds = [b for b in world.positions if B.is_red(b)]
    back = max(reds, key=lambda b: (world.positions[b][1], world.positions[b][0]))
    v = np.array(world.positions[back]) + np.array([5.0, 10.0]) - np.array(world.positions[B.WHITE])
    phi = math.degrees(math.atan2(v[1], v[0]))
    rng = np.random.default_rng(len(world.shots) * 7919 + 17)
    for _ in range(tries):
        stroke = Stroke(float(rng.uniform(3.0, 4.5)), phi + float(rng.uniform(-0.3, 0.3)),
                        a=0.3, b=0.2)
        if not _plainly_fair(world.simulate(world.positions, stroke).events):
            continue
        d = trial(world, stroke)
        if d is not None and not d.foul:
            world.play(stroke, label="break-off")
            return
    raise ScenarioFailed(f"no fair break-off in {tries} tries")


def _plainly_fair(events: list) -> bool:
    """The cue ball's first contact is a red and no ball but a red is potted."""
    first = next((e for e in events if e.type == EventType.CONTACT and B.WHITE in e.balls), None)
    if first is None or not any(B.is_red(b) for b in first.balls):
        return False
    return not any(e.type == EventType.POT and not B.is_red(e.balls[0]) for e in events)


def start_frame(world: World, plan: MatchPlan, number: int) -> FrameStart:
    """Begin frame ``number`` (its balls already racked): the breaker by rotation, the
    referee's state as the match driver has it (the frames so far, replayed)."""
    breaker = plan.players[(number - 1) % 2]
    rec = FrameStart(number, plan.players, breaker=breaker, ruleset=plan.ruleset,
                     best_of=plan.best_of)
    match = Match()
    for r in world.records:
        match.feed(r)
    match.feed(rec)
    assert match.state is not None
    world.state = match.state
    world.records.append(rec)
    world.positions = {b: p for b, p in world.positions.items() if b != B.WHITE}
    return rec


def conceder(world: World, plan: MatchPlan, number: int, strokes: int,
             frames_won: dict[str, int]) -> str | None:
    """Who concedes now, at the striker's turn (only the striker may, S4 R5(a)); None: play on."""
    st = world.state
    striker = st.players[st.striker]
    behind = st.players[int(np.argmin(st.scores))] if st.scores[0] != st.scores[1] else None
    if number == plan.concede_frame and strokes >= plan.concede_after:
        a, b = (frames_won.get(p, 0) for p in plan.players)
        who = plan.players[0 if a > b else 1] if a != b else (behind or striker)
        return striker if striker == who else None
    if strokes >= plan.max_strokes:
        return striker if behind in (None, striker) else None
    return None


def play_frame(world: World, bot: Bot, plan: MatchPlan, tl: MatchTimeline,
               frames_won: dict[str, int]) -> FrameRecord:
    """Play the frame just started to its end (or its concession); the camera knock when
    this is the frame for it. Returns the frame's truth."""
    number = world.state.frame
    rec = FrameRecord(number, world.state.players[world.state.breaker], start_s=0.0,
                      first_shot=len(world.shots) + 1)
    break_off(world)
    rec.start_s = world.shots[-1].t_strike
    strokes = 1
    while not world.state.frame_over:
        if number == plan.knock_frame and strokes == plan.knock_after and tl.knock_index is None:
            world._rest(0.5)
            tl.knock_index = len(world.frames)
            world._rest(1.0)
        who = conceder(world, plan, number, strokes, frames_won)
        if who is not None:
            world._rest(1.0)
            world.operator(InputKind.CONCEDE, player=who)
            rec.conceded_by = who
            break
        if world.state.phase == Phase.RESPOTTED_BLACK and world.state.shots and st_needs_lots(world):
            world.operator(InputKind.LOTS, player=world.state.players[int(bot.rng.integers(0, 2))])
        bot.play_turn()
        strokes += 1
    st = world.state
    rec.end_s = world.t if rec.conceded_by else world.shots[-1].shot.t_end
    rec.last_shot = len(world.shots)
    rec.ended = "conceded" if rec.conceded_by else "played out"
    rec.score = dict(zip(st.players, st.scores, strict=True))
    rec.winner = st.players[st.winner] if st.winner is not None else None
    return rec


def play_match(plan: MatchPlan, camera: CameraModel | None = None) -> MatchTimeline:
    """Play the whole match of ``plan`` (see the module docstring); ``camera``: the hall
    camera (default: overhead at ``plan.size``)."""
    from calibration.table import STANDARD_TABLE as T

    world = World(plan.players, None, fps=plan.fps, ruleset=plan.ruleset, seed=plan.seed,
                  rest_s=plan.rest_s)
    world.records = []
    world.frames.clear()
    world.t = 0.0
    cam = camera or CameraModel.overhead(T.length, T.width, plan.size)
    tl = MatchTimeline(plan, world, camera=cam, knocked=knocked_camera(cam, plan))
    aim, speed, cut, safety = plan.skill
    bot = Bot(world, Skill(aim, speed, cut, safety), seed=plan.seed + 1)
    frames_won = dict.fromkeys(plan.players, 0)
    start_frame(world, plan, 1)
    world._rest(1.0)
    for number in range(1, plan.best_of + 1):
        if number > 1:
            t0 = world.t
            clear_table(world, plan.carry_s)
            if number == 2 and plan.idle_empty_s > 0:
                _idle(tl, "empty", plan.idle_empty_s, 0)
            rerack(world, plan.carry_s)
            world._rest(1.0)
            start_frame(world, plan, number)
            rerack_s = (round(t0, 3), round(world.t, 3))
        rec = play_frame(world, bot, plan, tl, frames_won)
        if number > 1:
            rec.rerack_s = rerack_s
        tl.frames.append(rec)
        if rec.winner:
            frames_won[rec.winner] += 1
        world._rest(1.0)
        if number == plan.concede_frame and plan.idle_walkers_s > 0:
            _idle(tl, "walkers", plan.idle_walkers_s, plan.walkers)
        if max(frames_won.values()) > plan.best_of // 2:
            break
    world._rest(2.0)
    return tl


def _idle(tl: MatchTimeline, kind: str, seconds: float, walkers: int) -> None:
    t0 = tl.world.t
    idle(tl.world, seconds, walkers)
    tl.idle.append({"kind": kind, "start_s": round(t0, 3), "end_s": round(tl.world.t, 3),
                    "balls_on_table": len(tl.world.positions)})


def truth_dict(tl: MatchTimeline) -> dict[str, Any]:
    """The match's truth as JSON-ready values (times in seconds from the video's start)."""
    w = tl.world
    frames_won = dict.fromkeys(tl.plan.players, 0)
    for f in tl.frames:
        if f.winner:
            frames_won[f.winner] += 1
    best = max(frames_won.values())
    leaders = [p for p, v in frames_won.items() if v == best]
    shots = []
    frame_of = {s: f.frame for f in tl.frames for s in range(f.first_shot, f.last_shot + 1)}
    for s in w.shots:
        shots.append({"shot": s.shot.shot, "frame": frame_of.get(s.shot.shot),
                      "t_strike": round(s.t_strike, 4), "t_end": s.shot.t_end,
                      "striker": s.decision.striker, "decision": s.decision.to_dict()})
    plan = asdict(tl.plan)
    return {
        "version": 1, "fps": w.fps, "video_frames": len(w.frames),
        "duration_s": round(len(w.frames) / w.fps, 3), "plan": plan,
        "players": list(tl.plan.players), "ruleset": tl.plan.ruleset, "best_of": tl.plan.best_of,
        "frames": [asdict(f) for f in tl.frames], "idle": tl.idle,
        "knock": None if tl.knock_index is None else {
            "frame": tl.plan.knock_frame, "video_frame": tl.knock_index,
            "t_s": round(tl.knock_index / w.fps, 3),
            "camera_before": tl.camera.to_dict() if tl.camera else None,
            "camera_after": tl.knocked.to_dict() if tl.knocked else None},
        "frames_won": frames_won,
        "match_winner": leaders[0] if len(leaders) == 1 and best > tl.plan.best_of // 2 else None,
        "shots": shots,
    }
