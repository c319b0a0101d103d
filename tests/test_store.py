"""The match store: one transaction per record, the log rebuilt from it, export, corrections,
the console queue, and a run killed mid-frame leaving a readable store."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracker.outputs.store import MatchStore, StoreError, export_csv, export_json, rebuild_match
from tracker.records.parse import read_log, record_to_dict
from tracker.rules.match import Match

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"


def _fill(store: MatchStore, log: Path) -> tuple[int, Match]:
    run_id = store.new_run(str(log), None, ("Ann", "Bob"))
    match = Match()
    for _, rec in read_log(log):
        store.write_record(run_id, rec, match.feed(rec))
    return run_id, match


def test_the_store_gives_back_the_match_log_and_the_referees_state(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite")
    run_id, match = _fill(store, SAMPLE_LOG)
    assert store.log(run_id) == [record_to_dict(r) for _, r in read_log(SAMPLE_LOG)]
    again = rebuild_match(store, run_id)
    assert again.state.scores == match.state.scores == (5, 6)
    shots = store.shots(run_id)
    assert [s["shot"] for s in shots] == [1, 2, 3, 4, 5, 6]
    assert shots[1]["foul"] == 1 and shots[1]["penalty"] == 4
    assert any(e["type"] == "pot" for e in store.events(run_id))
    assert store.inputs(run_id)[0]["choice"] == "play_again"
    assert store.integrity() == "ok"
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_export_csv_has_one_row_per_stroke_in_peoples_words(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite")
    run_id, _ = _fill(store, SAMPLE_LOG)
    rows = list(csv.DictReader(io.StringIO(export_csv(store, run_id))))
    assert len(rows) == 6 and rows[-1]["score"] == "Ann=5 Bob=6"
    assert rows[2]["potted"] == "a red" and "red_" not in rows[2]["call"]
    doc = export_json(store)
    assert doc["run"]["id"] == run_id and len(doc["log"]) == 8
    json.dumps(doc)


def test_an_amended_stroke_replaces_the_last_one_in_the_log(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite")
    run_id, match = _fill(store, SAMPLE_LOG)
    last = store.records(run_id)[-1]
    store.write_record(run_id, last, [{"shot": last.shot, "amended": True}], "console", amends=True)
    log = store.log(run_id)
    assert len(log) == 8 and log[-1] == record_to_dict(last)
    assert [s["shot"] for s in store.shots(run_id)] == [1, 2, 3, 4, 5, 6]


def test_console_requests_wait_for_the_run_and_get_an_outcome(tmp_path):
    store = MatchStore(tmp_path / "m.sqlite")
    run_id = store.new_run("v", None)
    rid = store.console_request(run_id, "option", {"choice": "replace"})
    assert [r["id"] for r in store.console_pending(run_id)] == [rid]
    store.console_done(rid, False, {"message": "no foul to answer"})
    assert store.console_pending(run_id) == []
    assert store.console_requests(run_id)[0]["status"] == "refused"


def test_a_file_that_is_not_a_store_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "x.sqlite"
    bad.write_text("hello")
    with pytest.raises(StoreError, match="not a match store"):
        MatchStore(bad, readonly=True)
    with pytest.raises(StoreError, match="no match store there"):
        MatchStore(tmp_path / "none.sqlite", readonly=True)


def test_a_run_killed_mid_frame_leaves_every_committed_stroke_readable(tmp_path):
    """SIGKILL the process while it works on the sample frame, once two strokes are stored:
    the store passes SQLite's integrity check and its log replays."""
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tracker.cli", "process", str(ROOT / "sample_videos" / "overhead_frame.mp4"),
         "--players", "Ann", "Bob", "--inputs", str(SAMPLE_LOG), "--out", str(out), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    db = out / "match.sqlite"
    deadline = time.monotonic() + 240
    n = 0
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            if db.exists():
                try:
                    n = sqlite3.connect(db).execute("SELECT COUNT(*) FROM shots").fetchone()[0]
                except sqlite3.OperationalError:
                    continue
                if n >= 2:
                    time.sleep(0.3)  # into the next stroke's frames
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert n >= 2, "the run ended or stalled before two strokes were stored"
    store = MatchStore(db)
    assert store.integrity() == "ok"
    run = store.latest_run()
    assert run["status"] == "running"  # cut off: never ended
    log = store.log(run["id"])
    assert log[0]["type"] == "frame_start" and sum(r["type"] == "shot" for r in log) >= 2
    match = rebuild_match(store, run["id"])  # every committed record replays
    assert match.state.shots >= 2
    assert len(store.shots(run["id"])) == sum(r["type"] == "shot" for r in log)


def test_a_run_that_cannot_start_leaves_no_store(tmp_path):
    from tracker.cli import main

    assert main(["process", str(tmp_path / "none.mp4"), "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o" / "match.sqlite").exists()
