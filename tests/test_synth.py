"""The synthetic world: ground truth consistent with itself and with the pictures.

These tests need no pooltool: they read the committed clips in ``sample_videos/`` and render
with numpy and OpenCV. The tests that run pooltool's physics are in test_synth_physics.py
(skipped, saying why, without the ``[synth]`` extra).
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE as T
from tracker.records.parse import read_log
from tracker.rules.match import Match
from tracker.synth.render import Renderer, RenderStyle

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"
CLIPS = sorted(p.name.removesuffix(".gt.json.gz") for p in SAMPLES.glob("*.gt.json.gz"))


def truth(name: str) -> dict:
    with gzip.open(SAMPLES / f"{name}.gt.json.gz", "rt") as fh:
        return json.load(fh)


def test_there_are_sample_clips_with_truth_logs_and_video():
    assert len(CLIPS) >= 3
    for name in CLIPS:
        assert (SAMPLES / f"{name}.mp4").stat().st_size > 10_000
        assert (SAMPLES / f"{name}.log.jsonl").exists()
    total = sum(p.stat().st_size for p in SAMPLES.iterdir())
    assert total < 30 * 1024 * 1024


@pytest.mark.parametrize("name", CLIPS)
def test_no_two_balls_overlap_on_the_table(name):
    gt = truth(name)
    two_r = T.ball_diameter
    worst = math.inf
    for fr in gt["frames"]:
        on = [(b, v["xy"]) for b, v in fr["balls"].items() if abs(v["z"] - T.ball_radius) < 0.5]
        xy = np.array([p for _, p in on])
        if len(xy) < 2:
            continue
        d = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
        d[np.diag_indices(len(xy))] = np.inf
        worst = min(worst, float(d.min()))
    assert worst > two_r - 0.5, f"balls overlap: closest centres {worst:.2f} mm"


@pytest.mark.parametrize("name", CLIPS)
def test_potted_balls_vanish_at_a_pocket(name):
    gt = truth(name)
    frames = gt["frames"]
    for shot in gt["shots"]:
        for e in shot["events"]:
            if e["type"] != "pot":
                continue
            k = int(e["t"] * gt["summary"]["fps"])
            seen = [fr["balls"][e["ball"]]["xy"] for fr in frames[max(0, k - 3):k + 1]
                    if e["ball"] in fr["balls"]]
            assert seen, f"{e['ball']} not seen before its pot"
            pocket = T.pockets[e["pocket"]]
            assert math.dist(seen[-1], pocket.mouth_centre) < 250.0
            later = frames[min(len(frames) - 1, k + 2)]["balls"]
            respotted = any(r["ball"] == e["ball"] for r in shot["decision"]["respots"])
            assert e["ball"] not in later or respotted or e["ball"] == "white"


@pytest.mark.parametrize("name", CLIPS)
def test_replaying_the_truth_log_gives_the_clip_score(name):
    gt = truth(name)
    m = Match()
    for _, rec in read_log(SAMPLES / f"{name}.log.jsonl"):
        m.feed(rec)
    assert dict(zip(m.state.players, m.state.scores, strict=True)) == gt["summary"]["final_score"]


@pytest.mark.parametrize("camera", ["overhead", "broadcast"])
def test_rendered_centre_of_a_lone_ball_matches_its_truth_pixel(camera):
    cam = (CameraModel.overhead(T.length, T.width) if camera == "overhead"
           else CameraModel.broadcast(T.length, T.width))
    r = Renderer(cam, T, RenderStyle(noise_sigma=0))
    bg = r.render({}).astype(np.float32)
    for xy in [(889.0, 1784.0), (300.0, 2500.0), (1500.0, 600.0), (1200.0, 3100.0)]:
        img = r.render({"white": xy}).astype(np.float32)
        ys, xs = np.nonzero(img[..., 2] - bg[..., 2] > 15)
        px = cam.project(np.array([[xy[0], xy[1], T.ball_radius]]))[0]
        err = math.hypot(xs.mean() - px[0], ys.mean() - px[1])
        assert err < 0.5, f"{camera} {xy}: {err:.2f} px"


def test_camera_parallax_mapping_round_trips():
    cam = CameraModel.overhead(T.length, T.width)
    pts = np.array([[100.0, 200.0, T.ball_radius], [1700.0, 3400.0, T.ball_radius]])
    back = cam.ball_centre_to_table(cam.project(pts), T.ball_radius)
    assert np.allclose(back, pts[:, :2], atol=0.01)
    flat = cam.image_to_plane(cam.project(pts), 0.0)
    assert np.linalg.norm(flat - pts[:, :2], axis=1).max() > 5.0  # the plane homography is off
