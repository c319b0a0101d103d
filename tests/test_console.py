"""The referee console's path into the engine: judgements for the coming stroke, corrections
of the last call, inputs, all through the store's queue (no video needed: the strokes of the
miss sample's log are fed to a RefereeRun as the camera would)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from calibration.table import TableGeometry
from tracker.outputs.jsonl import JsonlOutputs
from tracker.outputs.store import StoreWriter
from tracker.perception.calibrate import calibrate_image
from tracker.pipeline import Judgement, RefereeRun
from tracker.records.parse import read_log
from tracker.records.shot import FrameStart, OperatorJudgement, Shot
from tracker.server.live import ConsoleBridge

ROOT = Path(__file__).resolve().parents[1]
MISS = ROOT / "sample_videos" / "overhead_miss"


@pytest.fixture(scope="module")
def calibration():
    cap = cv2.VideoCapture(str(MISS.with_suffix(".mp4")))
    ok, img = cap.read()
    cap.release()
    assert ok
    return calibrate_image(img, TableGeometry.standard())


@pytest.fixture
def run(calibration, tmp_path):
    recs = [r for _, r in read_log(MISS.with_suffix(".log.jsonl"))]
    writer = StoreWriter(tmp_path / "match.sqlite", "test")
    run = RefereeRun(calibration, 25.0, ("Ann", "Bob"),
                     listeners=[JsonlOutputs(tmp_path, calibration), writer])
    writer.start(run)
    run._feed(next(r for r in recs if isinstance(r, FrameStart)))
    run.shots = [r for r in recs if isinstance(r, Shot)]
    run.writer = writer
    return run


def _settle(run):
    """What RefereeRun.step does with live requests before a frame."""
    while not run._live_inputs.empty():
        item = run._live_inputs.get_nowait()
        run._apply_judgement(*item) if isinstance(item, tuple) else run._apply_input(item)


def test_a_correction_calls_the_last_stroke_again_and_replaces_it_in_the_log(run, tmp_path):
    _, calls = run._referee(run.shots[0])
    assert calls[0]["miss"] and "replace" in calls[0]["options"]
    outcome = {}
    run.judge(Judgement(operator=OperatorJudgement(miss=False)), amend=True, done=outcome.update)
    _settle(run)
    assert outcome["accepted"], outcome
    new = outcome["calls"][0]
    assert new["amended"] and new["foul"] and not new["miss"] and "replace" not in new["options"]
    store = run.writer.store
    log = store.log(run.writer.run_id)
    assert [r["type"] for r in log] == ["frame_start", "shot"]
    assert log[-1]["operator"]["miss"] is False
    jsonl = (tmp_path / "match.log.jsonl").read_text().splitlines()
    assert len(jsonl) == 2 and '"miss": false' in jsonl[-1]


def test_no_correction_once_an_input_followed_the_stroke(run):
    run._referee(run.shots[0])
    run._apply_input(run_input("replace"))
    ok, msg, _ = run.amend(Judgement(operator=OperatorJudgement(miss=False)))
    assert not ok and "input was made after it" in msg


def run_input(choice):
    from tracker.records.shot import InputKind, OperatorInput

    return OperatorInput(InputKind.OPTION, choice=choice)


def test_console_requests_reach_the_engine_through_the_store(run):
    store, rid = run.writer.store, run.writer.start(run)
    run._referee(run.shots[0])
    bridge = ConsoleBridge(run.writer)
    run.listeners.append(bridge)
    store.console_request(rid, "option", {"choice": "replace"})
    store.console_request(rid, "nominate", {"ball": "purple"})
    store.console_request(rid, "free_ball", {"ball": "blue"})
    bridge.on_frame(run, None)
    _settle(run)
    done = {r["action"]: r for r in store.console_requests(rid)}
    assert done["option"]["status"] == "applied"
    assert done["nominate"]["status"] == "refused" and "not a ball" in done["nominate"]["result"]["message"]
    assert done["free_ball"]["status"] == "applied"
    assert run.said_next == {"free_ball": "blue"}
    assert store.inputs(rid)[-1]["source"] == "console"
    # the next stroke carries the console's judgement, then the slot is empty
    shot, _ = run._referee(run.shots[1])
    assert shot.free_ball == "blue" and not run.said_next
