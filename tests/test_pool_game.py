"""The synthetic pool game's truth (issue 33): its match log, refereed by the pool rules,
gives the world's calls; the truth's pots are the calls' pots; rendered balls stand where the
truth says; a rolled ball turns as a rolling ball does. Needs the ``[synth]`` extra."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

pytest.importorskip("pooltool", reason="the [synth] extra is not installed")


@pytest.fixture(scope="module", params=["nine-ball", "eight-ball"])
def game(request):
    from tracker.synth.pool_game import PoolGameParams, play_pool_game

    return play_pool_game(request.param, seed=1, params=PoolGameParams(strokes=2))


def _call(d: dict) -> tuple:
    return (d["foul"], sorted(f["code"] for f in d["fouls"]), sorted(d["potted"]),
            d["next_striker"], d["frame_over"])


def test_the_log_refereed_by_the_pool_rules_gives_the_worlds_calls(game, tmp_path):
    from tracker.records.parse import read_log
    from tracker.rules.match import Match

    log = tmp_path / "game.log.jsonl"
    log.write_text("\n".join(json.dumps(line) for line in game.log_lines()) + "\n")
    match = Match()
    calls = [d for _, rec in read_log(log) for d in match.feed(rec) if d.get("shot") is not None]
    assert match.state.ruleset == game.state.ruleset
    assert len(calls) == len(game.shots) == 3
    assert [_call(c) for c in calls] == [_call(s.decision.to_dict()) for s in game.shots]


def test_truth_pots_are_the_calls_pots_and_leave_the_table(game):
    for s in game.shots:
        pots = sorted(e.ball for e in s.shot.events if e.type == "pot")
        call = s.decision.to_dict()
        assert [b for b in pots if b != "white"] == sorted(call["potted"])
        assert ("white" in pots) == ("scratch" in [f["code"] for f in call["fouls"]])
        assert not set(pots) & set(s.shot.positions_after)


def test_rendered_balls_stand_where_the_truth_says(game):
    from calibration.camera import CameraModel
    from tracker.synth.pool_game import RollingPoolRenderer
    from tracker.synth.render import RenderStyle

    t = game.table
    cam = CameraModel.overhead(t.length, t.width, image_size=(480, 270))
    renderer = RollingPoolRenderer(cam, t, RenderStyle(seed=0, noise_sigma=0.0))
    ft = game.frames[-1]  # at rest after the last stroke
    img = renderer.render(ft.balls).astype(float)
    empty = renderer.render({}).astype(float)
    for b, (x, y) in ft.balls.items():
        u, v = np.round(cam.project(np.array([[x, y, t.ball_radius]]))[0]).astype(int)
        assert np.abs(img[v - 1:v + 2, u - 1:u + 2] - empty[v - 1:v + 2, u - 1:u + 2]).max() > 40, b
    # a point of cloth three ball widths from every ball is bare cloth
    pts = np.array(list(ft.balls.values()))
    for x in np.linspace(200, t.width - 200, 5):
        for y in np.linspace(200, t.length - 200, 9):
            if np.min(np.hypot(*(pts - (x, y)).T)) > 3 * t.ball_diameter:
                u, v = np.round(cam.project(np.array([[x, y, 0.0]]))[0]).astype(int)
                assert np.abs(img[v, u] - empty[v, u]).max() < 12


def test_a_rolled_ball_turns_as_a_rolling_ball():
    from tracker.synth.pool_game import rolled

    r = 28.575
    quarter = rolled(np.eye(3), np.array([math.pi * r / 2, 0.0]), r)
    assert np.allclose(quarter @ [0, 0, 1], [1, 0, 0], atol=1e-9)  # the top goes forward
    full = np.eye(3)
    for _ in range(8):
        full = rolled(full, np.array([0.0, 2 * math.pi * r / 8]), r)
    assert np.allclose(full, np.eye(3), atol=1e-9)
