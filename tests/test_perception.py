"""Perception on the bundled synthetic clips (exact ground truth in sample_videos/)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.auto import calibrate_image
from calibration.table import STANDARD_TABLE as T
from tracker.cli import main
from tracker.perception.detect import CLASSES, BallDetector
from tracker.pipeline import inputs_from_log, process_video, spoken_from_log

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def truth(name: str) -> dict:
    with gzip.open(SAMPLES / f"{name}.gt.json.gz", "rt") as fh:
        return json.load(fh)


def test_detection_accuracy_on_the_overhead_clip():
    gt = truth("overhead_frame")
    cap = cv2.VideoCapture(str(SAMPLES / "overhead_frame.mp4"))
    ok, first = cap.read()
    det = BallDetector(calibrate_image(first, T))
    det.learn_cloth(first)
    errs, found, total, swaps = [], 0, 0, 0
    for fi in range(0, gt["summary"]["frames"], 25):
        cap.set(cv2.CAP_PROP_POS_FRAMES, fi)
        ok, img = cap.read()
        d = det.detect(img)
        for ball, v in gt["frames"][fi]["balls"].items():
            if v["moving"] or v["visible"] < 0.9 or abs(v["z"] - T.ball_radius) > 0.5:
                continue
            total += 1
            dist = np.linalg.norm(d.mm - np.array(v["xy"]), axis=1) if len(d) else np.array([1e9])
            j = int(np.argmin(dist))
            if dist[j] < 30:
                found += 1
                errs.append(dist[j])
                kind = "red" if ball.startswith("red") else ball
                swaps += CLASSES[d.cls[j]] != kind
    errs = np.array(errs)
    assert found / total >= 0.98
    assert np.median(errs) <= 2.0 and np.percentile(errs, 95) <= 5.0
    assert swaps == 0


@pytest.mark.parametrize("name", ["overhead_frame", "overhead_miss", "overhead_free_ball"])
def test_process_scores_the_overhead_samples_exactly(name, tmp_path):
    gt = truth(name)
    log = SAMPLES / f"{name}.log.jsonl"
    res = process_video(SAMPLES / f"{name}.mp4", tmp_path, players=("Ann", "Bob"), progress=False,
                        inputs=inputs_from_log(log), spoken=spoken_from_log(log))
    assert res.score == gt["summary"]["final_score"]
    assert len(res.shots) == len(gt["shots"])
    truth_pots = sorted((e["ball"].split("_")[0], e["pocket"]) for s in gt["shots"]
                        for e in s["events"] if e["type"] == "pot")
    ours = sorted((e.ball.split("_")[0], e.pocket) for s in res.shots for e in s.events
                  if e.type == "pot")
    assert ours == truth_pots  # every pot found, in the right pocket, no false pot
    assert (tmp_path / "match.log.jsonl").exists() and (tmp_path / "scoreboard.json").exists()


def test_process_errors_are_clear(tmp_path, capsys):
    assert main(["process", str(tmp_path / "none.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"not a video")
    assert main(["process", str(bad), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "cannot open the video" in err or "no readable frame" in err


def test_the_ci_check_fails_when_a_detector_threshold_is_broken(monkeypatch):
    from tracker import evaluate
    from tracker.perception import detect

    ref = json.loads(evaluate.REFERENCE.read_text())
    perception_ref = {k: v for k, v in ref.items() if k.startswith("perception.")}
    good = evaluate.perception_metrics()
    assert evaluate.compare(good, perception_ref) == []
    monkeypatch.setattr(detect, "FG_CHROMA", 90)  # most balls no longer stand out of the cloth
    broken = evaluate.perception_metrics()
    regressions = evaluate.compare(broken, perception_ref)
    assert regressions and any("perception.found_fraction" in r for r in regressions)
