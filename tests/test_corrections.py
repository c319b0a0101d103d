"""Corrections replace: after a console correction every output holds one current call per
stroke (store, decisions.jsonl read through tracker.corrections, export, live state, review
page), the replaced call stays as history, and undo on the console makes it current again.

The bundled frame sample (6 strokes) is fed to a RefereeRun as the camera would; the
correction and the undo go through the store's console queue, as from the console page."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from helpers import feed_as_seen, sample_camera

from tracker.corrections import current_decisions, describe_change, superseded_decisions
from tracker.outputs.jsonl import JsonlOutputs
from tracker.outputs.store import StoreWriter, export_csv, export_json
from tracker.pipeline import RefereeRun
from tracker.records.parse import read_log
from tracker.server.app import LiveState, create_app
from tracker.server.live import ConsoleBridge
from tracker.stats import match_stats

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
FRAME_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"
MISS_VIDEO = ROOT / "sample_videos" / "overhead_miss.mp4"


@pytest.fixture(scope="module")
def calibration():
    return sample_camera(MISS_VIDEO)


@pytest.fixture
def played(calibration, tmp_path):
    """The frame sample's 6 strokes called through a run with its store, JSONL files and a
    console bridge; returns (run, writer, bridge)."""
    writer = StoreWriter(tmp_path / "match.sqlite", "test")
    run = RefereeRun(calibration, 25.0, ("Ann", "Bob"),
                     listeners=[JsonlOutputs(tmp_path, calibration), writer])
    writer.start(run)
    bridge = ConsoleBridge(writer)
    run.listeners.append(bridge)
    feed_as_seen(run, (rec for _, rec in read_log(FRAME_LOG)))
    return run, writer, bridge


def _console(run, writer, bridge, action, **payload):
    """A console request through the store, taken by the run as before a frame."""
    rid = writer.store.console_request(writer.run_id, action, payload)
    bridge.on_frame(run, None)
    run.take_inputs()
    return next(r for r in writer.store.console_requests(writer.run_id) if r["id"] == rid)


def _stroke_calls(decisions):
    return [d["shot"] for d in decisions if "foul" in d and "shot" in d]


def test_a_console_correction_leaves_one_current_call_per_stroke_everywhere(played, tmp_path):
    run, writer, bridge = played
    store, rid = writer.store, writer.run_id
    before = next(d for d in store.decisions(rid) if d["decision"].get("shot") == 6)["decision"]
    req = _console(run, writer, bridge, "foul", code="push", when="last")
    assert req["status"] == "applied", req
    # the store: one shots row per stroke (there were 7 for 6), the old one in the history
    assert store.db.execute("SELECT COUNT(*) FROM shots WHERE run_id=?", (rid,)).fetchone()[0] == 6
    assert [s["shot"] for s in store.shots(rid)] == [1, 2, 3, 4, 5, 6]
    history = store.shot_history(rid, 6)
    assert len(history) == 1 and history[0]["decision"]["foul"] == before["foul"]
    assert history[0]["change"].startswith("foul added") and history[0]["superseded_at"]
    new = store.shots(rid)[-1]["decision"]
    assert new["foul"] and new["correction"]["shot"] == 6 and new["correction"]["number"] == 1
    # the store's decisions: one call of stroke 6, the corrected one; history on request
    assert _stroke_calls(d["decision"] for d in store.decisions(rid)) == [1, 2, 3, 4, 5, 6]
    assert _stroke_calls(d["decision"] for d in store.decisions(rid, history=True)).count(6) == 2
    # decisions.jsonl is append-only; its current calls are one per stroke
    lines = [json.loads(x) for x in (tmp_path / "decisions.jsonl").read_text().splitlines()]
    assert _stroke_calls(lines).count(6) == 2
    assert _stroke_calls(current_decisions(lines)) == [1, 2, 3, 4, 5, 6]
    assert _stroke_calls(superseded_decisions(lines)) == [6]
    # exports, live state and statistics
    doc = export_json(store, rid)
    assert _stroke_calls(doc["decisions"]) == [1, 2, 3, 4, 5, 6] and len(doc["corrections"]) == 1
    assert export_csv(store, rid).count("\n") == 7  # the header and six strokes
    live = LiveState(store.path)
    assert live.refresh()
    shots_listed = [c["shot"] for c in live.state["calls"] if c["shot"] is not None]
    assert shots_listed.count(6) == 1 and live.state["calls"][0]["amended"]
    stats = match_stats(store.log(rid), [d["decision"] for d in store.decisions(rid, history=True)])
    assert sum(p.fouls for p in stats.match.values()) == 2  # stroke 2's foul and the new one
    assert len(stats.strokes) == 6
    # the stroke's review page shows the current call and the one it replaced
    page = TestClient(create_app(store.path, "t")).get("/review/6").text
    assert 'id="history"' in page and "Foul added" in page


def test_undo_on_the_console_makes_the_earlier_call_current_again(played, tmp_path):
    run, writer, bridge = played
    store, rid = writer.store, writer.run_id
    first = store.shots(rid)[-1]["decision"]
    assert _console(run, writer, bridge, "foul", code="push", when="last")["status"] == "applied"
    undo = _console(run, writer, bridge, "undo")
    assert undo["status"] == "applied", undo
    now = store.shots(rid)[-1]["decision"]
    assert (now["foul"], now["score"], now["points"]) == (first["foul"], first["score"],
                                                          first["points"])
    assert now["correction"]["taken_back"] and now["correction"]["number"] == 2
    assert store.db.execute("SELECT COUNT(*) FROM shots WHERE run_id=?", (rid,)).fetchone()[0] == 6
    changes = [h["change"] for h in store.shot_history(rid, 6)]
    assert len(changes) == 2 and changes[1].startswith("correction taken back")
    lines = [json.loads(x) for x in (tmp_path / "decisions.jsonl").read_text().splitlines()]
    current = [d for d in current_decisions(lines) if d.get("shot") == 6 and "foul" in d]
    assert len(current) == 1 and current[0]["score"] == first["score"]
    # the match log holds the stroke as first called (no console foul)
    log = [json.loads(x) for x in (tmp_path / "match.log.jsonl").read_text().splitlines()]
    assert not (log[-1].get("operator") or {}).get("fouls")
    live = LiveState(store.path)
    live.refresh()
    assert live.state["calls"][0]["head"].startswith("CORRECTION TAKEN BACK: ")
    assert [c["shot"] for c in live.state["calls"]].count(6) == 1
    # nothing left to take back
    again = _console(run, writer, bridge, "undo")
    assert again["status"] == "refused" and "nothing to take back" in again["result"]["message"]


def test_a_correction_block_replaces_the_frame_end_its_stroke_made():
    """A stroke that ended the frame, corrected into a foul that does not: the old frame end
    goes with the old call."""
    corr = {"shot": 9, "number": 1, "at": "2026-01-01T00:00:00+00:00", "change": "x",
            "taken_back": False}
    lines = [{"frame_start": 1}, {"shot": 8, "foul": False}, {"shot": 9, "foul": False},
             {"frame_end": 1, "winner": "Ann"},
             {"shot": 9, "foul": True, "amended": True, "correction": corr}]
    assert current_decisions(lines) == [lines[0], lines[1], lines[4]]
    assert superseded_decisions(lines) == [lines[2], lines[3]]


def test_what_a_correction_changed_is_said_in_words():
    assert describe_change({"operator": {"miss": True}}, {"operator": {"miss": False}}) == \
        "miss cancelled"
    assert describe_change({"nomination": "blue"}, {"nomination": "pink"}) == \
        "nominated the pink (was the blue)"
    assert describe_change({}, {}) == "the call confirmed"


def test_a_resume_after_a_correction_replays_the_current_record_and_keeps_the_history(tmp_path):
    """What --resume takes from the store: the corrected stroke's current record once, and
    every decision line as written (decisions.jsonl is rewritten whole: append-only), whose
    current calls are one per stroke."""
    from test_live_feed import fill_with_a_correction

    from tracker.resume import _from_store

    store, _ = fill_with_a_correction(tmp_path / "match.sqlite")
    store.close()
    point = _from_store(tmp_path / "match.sqlite")
    shots = [r.data for r in point.records if r.data["type"] == "shot"]
    assert [s["shot"] for s in shots] == [1, 2, 3, 4, 5, 6]
    assert shots[-1]["operator"]["fouls"][0]["code"] == "push"
    assert _stroke_calls(point.decisions).count(6) == 2
    assert _stroke_calls(current_decisions(point.decisions)) == [1, 2, 3, 4, 5, 6]


def test_the_report_lists_a_corrected_stroke_once_with_what_changed(tmp_path):
    from test_live_feed import fill_with_a_correction

    from tracker.outputs.report import render

    store, rid = fill_with_a_correction(tmp_path / "match.sqlite")
    html = render(store, rid)
    assert html.count("<td>Shot 6 (Ann)") == 1 and html.count("Shot 6 (Ann): FOUL") == 1
    assert html.count("<b>Corrected</b>") == 1 and "foul added: push stroke" in html
