"""The synthetic match (issue 28): its truth consistent with itself, with the referee's replay
of its log and with its video; the bench's scorer right on a perfect and on a wrong run.

Needs pooltool (the ``[synth]`` extra): skipped, saying why, without it. The tiny version is
played at 5 fps and rendered at 192x112 so the whole file takes a few seconds.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import pytest

pytest.importorskip("pooltool", reason="the synthetic match needs pooltool (the [synth] extra)")

from tracker.records.parse import read_log  # noqa: E402
from tracker.records.shot import FrameStart, Shot  # noqa: E402
from tracker.rules.match import Match  # noqa: E402
from tracker.synth.match_render import write_match  # noqa: E402
from tracker.synth.match_score import read_jsonl, score_match, stroke_times  # noqa: E402
from tracker.synth.match_video import MatchPlan, play_match  # noqa: E402


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    plan = replace(MatchPlan().short(), size=(192, 112), fps=5.0, idle_empty_s=3.0,
                   idle_walkers_s=3.0)
    tl = play_match(plan)
    out = tmp_path_factory.mktemp("match")
    summary = write_match(tl, out, "tiny")
    truth = json.loads((out / "tiny.truth.json").read_text())
    return tl, truth, out, summary


def replayed(out):
    """The referee's outputs on the truth log, and the log's stroke times."""
    match = Match()
    lines = []
    for _, rec in read_log(out / "tiny.log.jsonl"):
        lines += match.feed(rec)
    return lines, stroke_times(read_jsonl(out / "tiny.log.jsonl"))


def test_frames_alternate_breakers_and_the_replay_gives_the_truths_results(tiny):
    _, truth, out, _ = tiny
    frames = truth["frames"]
    assert [f["frame"] for f in frames] == list(range(1, len(frames) + 1))
    assert len(frames) == 3
    assert [f["breaker"] for f in frames] == [truth["players"][k % 2] for k in range(3)]
    lines, _ = replayed(out)
    ends = [d for d in lines if "frame_end" in d]
    assert [d["score"] for d in ends] == [f["score"] for f in frames]
    assert [d["winner"] for d in ends] == [f["winner"] for f in frames]
    assert ends[-1]["match_winner"] == truth["match_winner"] is not None
    assert ends[-1]["frames_won"] == truth["frames_won"]
    conceded = [f for f in frames if f["ended"] == "conceded"]
    assert conceded and all(f["conceded_by"] not in (None, f["winner"]) for f in conceded)
    assert frames[truth["plan"]["concede_frame"] - 1]["ended"] == "conceded"


def test_each_frames_score_is_the_sum_of_its_calls(tiny):
    _, truth, _, _ = tiny
    for f in truth["frames"]:
        total = dict.fromkeys(truth["players"], 0)
        for s in truth["shots"]:
            if s["frame"] == f["frame"]:
                for p, v in s["decision"]["points"].items():
                    total[p] += v
        assert total == f["score"], f["frame"]
        inside = [s for s in truth["shots"] if s["frame"] == f["frame"]]
        assert all(f["start_s"] <= s["t_strike"] <= f["end_s"] for s in inside)


def test_nothing_moves_in_the_idle_stretches_and_people_cross_one(tiny):
    tl, truth, _, _ = tiny
    assert {s["kind"] for s in truth["idle"]} == {"empty", "walkers"}
    fps = truth["fps"]
    for s in truth["idle"]:
        seen = [ft for ft in tl.world.frames if s["start_s"] <= ft.t < s["end_s"] - 0.5 / fps]
        assert len(seen) >= int(3.0 * fps) - 1
        assert all(ft.balls == seen[0].balls and not ft.velocities for ft in seen)
        assert len(seen[0].balls) == s["balls_on_table"]
        crossed = sum(bool(ft.occluders) for ft in seen)
        assert (crossed > 0) == (s["kind"] == "walkers")
    empty = next(s for s in truth["idle"] if s["kind"] == "empty")
    assert empty["balls_on_table"] == 0


def test_the_people_walking_past_are_seen_over_the_table(tiny):
    tl, truth, _, _ = tiny
    s = next(s for s in truth["idle"] if s["kind"] == "walkers")
    w, h = tl.camera.image_size
    crossing, seen = set(), set()
    for ft in tl.world.frames:
        if s["start_s"] <= ft.t < s["end_s"]:
            for occ in ft.occluders:
                crossing.add(occ.bgr)
                px = tl.camera_at(0).project(occ.points)
                if ((px[:, 0] > 0) & (px[:, 0] < w) & (px[:, 1] > 0) & (px[:, 1] < h)).all():
                    seen.add(occ.bgr)
    assert len(crossing) == truth["plan"]["walkers"] and seen == crossing


def test_the_camera_is_knocked_inside_its_frame_and_the_video_has_every_frame(tiny):
    import cv2

    _, truth, out, summary = tiny
    k = truth["knock"]
    f = truth["frames"][k["frame"] - 1]
    assert f["start_s"] < k["t_s"] < f["end_s"]
    assert k["camera_before"]["R"] != k["camera_after"]["R"]
    cap = cv2.VideoCapture(str(out / "tiny.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth["video_frames"] == summary["video_frames"]
    cap.release()
    setup = [r for _, r in read_log(out / "tiny.setup.jsonl")]
    assert len(setup) == 1 and isinstance(setup[0], FrameStart)
    assert setup[0].ruleset == "snooker-6-reds" and setup[0].best_of == 3
    assert not any(isinstance(r, Shot) for r in setup)


def test_the_scorer_gives_full_marks_to_a_perfect_run_and_finds_what_a_wrong_one_got_wrong(tiny):
    _, truth, out, _ = tiny
    lines, times = replayed(out)
    perfect = score_match(truth, lines, times)
    assert perfect["match_right"] and perfect["frames_found"] == 3
    assert perfect["scores_exact"] == perfect["breakers_right"] == perfect["winners_right"] == 3
    assert perfect["idle_calls"] == 0 and perfect["calls_outside_frames"] == 0
    assert perfect["calls"] == perfect["strokes_truth"] == len(truth["shots"])
    assert perfect["strokes_matched"] == perfect["calls_right"] == len(truth["shots"])

    wrong = copy.deepcopy(lines)
    end2 = next(d for d in wrong if d.get("frame_end") == 2)
    end2["score"] = {p: v + 1 for p, v in end2["score"].items()}
    i2 = next(i for i, d in enumerate(wrong) if d.get("frame_start") == 2)
    concede2 = next(d for d in wrong[i2:] if d.get("input") == "concede")
    concede2["notes"] = [*concede2["notes"], "taken as a concession from the re-rack; check"]
    call = next(d for d in wrong if d.get("shot") == 1)
    call["points"] = {p: v + 4 for p, v in call["points"].items()}
    idle = truth["idle"][0]
    wrong.append({"shot": 999, "striker": truth["players"][0], "points": {}})
    times = {**times, 999: (idle["start_s"] + idle["end_s"]) / 2}
    last = max(d["frame_end"] for d in wrong if "frame_end" in d)
    wrong = [d for d in wrong if d.get("frame_end") != last]
    got = score_match(truth, wrong, times)
    assert not got["match_right"]
    assert got["scores_exact"] == 1 and got["frames_ended"] == 2
    assert got["idle_calls"] == 1 and got["calls_outside_frames"] == 1
    assert got["strokes_matched"] == len(truth["shots"]) and got["calls_right"] == len(truth["shots"]) - 1
    assert not got["match_winner_right"] and not got["frames_won_right"]
    assert got["frames"][1]["concession_for_review"] is True
    assert perfect["frames"][1]["concession_for_review"] is False
