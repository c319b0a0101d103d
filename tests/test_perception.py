"""Perception on the bundled synthetic clips (exact ground truth in sample_videos/)."""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tracker.cli import main
from tracker.pipeline import inputs_from_log, process_video, spoken_from_log

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def truth(name: str) -> dict:
    with gzip.open(SAMPLES / f"{name}.gt.json.gz", "rt") as fh:
        return json.load(fh)


def test_detection_accuracy_on_the_overhead_clip():
    from tracker.evaluate import position_errors

    r = position_errors("overhead_frame", step=25)
    errs = np.array(r["errors"])
    assert r["found"] / r["total"] >= 0.98
    assert np.median(errs) <= 2.0 and np.percentile(errs, 95) <= 5.0
    assert r["colour_errors"] == 0


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
    """Broken: the chroma a foreground pixel needs to stand out of the cloth
    (``params.DEFAULT.foreground.chroma``, once ``detect.FG_CHROMA``) 22 -> 90. The balls that no longer stand out are left to the
    faint-ball search, which still finds them all (1477 of 1477 balls at rest on the gate's two
    overhead clips) but places them worse: position error median 0.842 -> 0.859 mm, p95
    2.240 -> 2.710 mm. The gate catches
    it on the p95 (tolerance 0.3 mm: the run-to-run spread plus a margin of an eighth of the
    figure); the median's 0.017 mm is within its margin. Only the detection metrics are
    computed (the calls of the clips are not). With the p95's tolerance before issue 30
    (0.8 mm) the test fails: nothing regresses. The unbroken detector is not run here: CI's
    `eval --fast` checks it against the same references, and a regression of it would show
    here too as more than the one figure expected."""
    from tracker import evaluate
    from tracker.perception import params as P

    ref = json.loads(evaluate.REFERENCE.read_text())
    fg = replace(P.DEFAULT.foreground, chroma=90)
    monkeypatch.setattr(P, "DEFAULT", replace(P.DEFAULT, foreground=fg))
    broken = evaluate.detection_metrics()
    detection_ref = {k: v for k, v in ref.items() if k in broken}
    assert len(detection_ref) == len(broken)
    regressions = evaluate.compare(broken, detection_ref)
    assert [r.split(":")[0] for r in regressions] == ["perception.position_mm_p95"], regressions
