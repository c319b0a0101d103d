"""A table's day in the match store (issue 28): a run of two matches keeps both (numbered
matches, frames keyed by match), readers pick the right match, and a store written by the old
schema (one match per run) is migrated on writing and read as match 1 read-only."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import cv2
import pytest

from tracker.outputs.export import from_folder, match_documents, write_exports
from tracker.outputs.store import MatchStore
from tracker.outputs.tables import table_state
from tracker.records.parse import record_to_dict
from tracker.records.shot import Event, EventType, FrameStart, InputKind, OperatorInput, Shot
from tracker.rules.match import Match

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def picture():
    """The first picture of a real overhead clip (the camera learnt from it)."""
    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_miss.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    return img


def _safety(n: int, t: float) -> Shot:
    return Shot(shot=n, t_start=t, t_end=t + 2.0,
                events=(Event(EventType.STRIKE, t, balls=("white",)),
                        Event(EventType.CONTACT, t + 0.5, balls=("white", "red_01")),
                        Event(EventType.CUSHION, t + 1.0, balls=("red_01",))))


def _pot_red(n: int, t: float) -> Shot:
    return Shot(shot=n, t_start=t, t_end=t + 2.0,
                events=(Event(EventType.STRIKE, t, balls=("white",)),
                        Event(EventType.CONTACT, t + 0.5, balls=("white", "red_03")),
                        Event(EventType.POT, t + 1.0, balls=("red_03",), pocket="top_left")))


def _frame(players: tuple[str, str], number: int, best_of: int, t: float) -> list:
    """A short frame: ``number`` safeties (so the breaker of frame 1 and 2 differs but the
    same player pots), a red potted, a safety, then the other player concedes: frame 1 and
    frame 2 go to the second player."""
    safeties = [_safety(k + 1, t + 5.0 * k) for k in range(number)]
    return [FrameStart(number, players, best_of=best_of), *safeties,
            _pot_red(number + 1, t + 5.0 * number), _safety(number + 2, t + 5.0 * number + 5),
            OperatorInput(InputKind.CONCEDE)]


def _day(path: Path) -> int:
    """Two matches in one run, as a table's session feeds them (a new referee's match for
    the second): Ann v Bob best of 3 (Bob wins 2-0), then Cy v Di best of 1 (Di wins)."""
    store = MatchStore(path)
    rid = store.new_run("table-1 stream", None, ("Ann", "Bob"), "t1")
    seq = []
    for players, best_of, frames in ((("Ann", "Bob"), 3, 2), (("Cy", "Di"), 1, 1)):
        match = Match()
        for n in range(1, frames + 1):
            for rec in _frame(players, n, best_of, 100.0 * n):
                seq.append(store.write_record(rid, rec, match.feed(rec)))
        assert match.match_over
    store.end_run(rid, {"video_end": "end"})
    store.close()
    return rid


def test_two_matches_in_one_run_keep_their_own_rows(tmp_path):
    rid = _day(tmp_path / "match.sqlite")
    store = MatchStore(tmp_path / "match.sqlite", readonly=True)
    ms = store.matches(rid)
    assert [(m["match"], m["players"], m["best_of"], m["over"]) for m in ms] == \
        [(1, ["Ann", "Bob"], 3, True), (2, ["Cy", "Di"], 1, True)]
    assert ms[0]["frames_won"] == {"Ann": 0, "Bob": 2} and ms[0]["winner"] == "Bob"
    assert ms[1]["frames_won"] == {"Cy": 0, "Di": 1} and ms[1]["winner"] == "Di"
    frames = store.frames(rid)
    assert [(f["match"], f["number"], f["winner"]) for f in frames] == \
        [(1, 1, "Bob"), (1, 2, "Bob"), (2, 1, "Di")]
    assert store.current_match(rid)["players"] == ["Cy", "Di"]
    assert store.integrity() == "ok"
    shots = store.db.execute("SELECT match, frame, shot, COUNT(*) n FROM shots GROUP BY "
                             "match, frame, shot").fetchall()
    assert len(shots) == 10 and all(r["n"] == 1 for r in shots)
    assert store.frame_span(rid, 1) == (100.0, 112.0)          # the current match's frame 1
    assert store.frame_span(rid, 2, match=1) == (200.0, 217.0)
    store.close()


def test_the_hall_shows_the_current_match(tmp_path):
    _day(tmp_path / "match.sqlite")
    store = MatchStore(tmp_path / "match.sqlite", readonly=True)
    state = table_state(store, "t1")
    store.close()
    assert state["players"] == ["Cy", "Di"] and state["best_of"] == 1
    assert state["frames_won"] == {"Cy": 0, "Di": 1} and state["match_winner"] == "Di"


def test_the_league_export_lists_both_matches(tmp_path):
    _day(tmp_path / "match.sqlite")
    docs = match_documents(from_folder(tmp_path))
    assert [([p["name"] for p in d["players"]], d["winner"], len(d["frames"])) for d in docs] \
        == [(["Ann", "Bob"], "Bob", 2), (["Cy", "Di"], "Di", 1)]
    files = write_exports(tmp_path, tmp_path / "out")
    written = {f.relative_to(tmp_path / "out").as_posix() for f in files}
    assert {"match-1/match.json", "match-2/match.json", "match-2/frames.csv"} <= written
    second = json.loads((tmp_path / "out" / "match-2" / "match.json").read_text())
    assert second["winner"] == "Di" and second["strokes"][0]["frame"] == 1


#: The tables ``matches`` and ``frames`` as the store wrote them before matches were numbered.
OLD_TABLES = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
    id INTEGER PRIMARY KEY, video TEXT, started TEXT NOT NULL, ended TEXT, heartbeat REAL,
    status TEXT NOT NULL, calibration TEXT, players TEXT, video_frames INTEGER DEFAULT 0,
    video_t REAL DEFAULT 0, summary TEXT);
CREATE TABLE matches(
    run_id INTEGER PRIMARY KEY REFERENCES runs(id), players TEXT, best_of INTEGER,
    frames_won TEXT, winner TEXT);
CREATE TABLE frames(
    run_id INTEGER NOT NULL REFERENCES runs(id), number INTEGER NOT NULL, breaker TEXT,
    ruleset TEXT, start_seq INTEGER, end_seq INTEGER, winner TEXT, score TEXT, reason TEXT,
    PRIMARY KEY(run_id, number));
CREATE TABLE records(
    run_id INTEGER NOT NULL REFERENCES runs(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    frame INTEGER, record TEXT NOT NULL, created REAL NOT NULL, superseded INTEGER DEFAULT 0,
    PRIMARY KEY(run_id, seq));
CREATE TABLE shots(
    run_id INTEGER NOT NULL, seq INTEGER NOT NULL, shot INTEGER NOT NULL, frame INTEGER,
    striker TEXT, t_start REAL, t_end REAL, foul INTEGER, penalty INTEGER, points INTEGER,
    needs_review TEXT, PRIMARY KEY(run_id, seq));
INSERT INTO meta VALUES('schema_version', '1');
INSERT INTO runs(id, started, status, players) VALUES(1, '2026-01-01T10:00:00', 'finished',
    '["Ann", "Bob"]');
INSERT INTO matches VALUES(1, '["Ann", "Bob"]', 3, '{"Ann": 2, "Bob": 0}', 'Ann');
INSERT INTO frames VALUES(1, 1, 'Ann', 'snooker', 1, 4, 'Ann', '{"Ann": 60, "Bob": 7}', 'pots');
INSERT INTO frames VALUES(1, 2, 'Bob', 'snooker', 5, 9, 'Ann', '{"Ann": 70, "Bob": 1}', 'pots');
INSERT INTO shots VALUES(1, 2, 1, 1, 'Ann', 1.0, 3.0, 0, NULL, 1, '[]');
INSERT INTO records VALUES(1, 2, 'shot', 1, '{"type": "shot", "shot": 1}', 0, 0);
INSERT INTO records VALUES(1, 9, 'input', 2, '{"type": "input", "kind": "concede"}', 0, 0);
"""


def _old_store(path: Path) -> None:
    db = sqlite3.connect(path)
    db.executescript(OLD_TABLES)
    db.close()


def test_an_old_store_reads_as_match_1_without_being_changed(tmp_path):
    path = tmp_path / "match.sqlite"
    _old_store(path)
    store = MatchStore(path, readonly=True)
    assert [(m["match"], m["winner"], m["over"]) for m in store.matches(1)] == [(1, "Ann", True)]
    assert [(f["match"], f["number"]) for f in store.frames(1)] == [(1, 1), (1, 2)]
    assert store.frame_span(1, 1) == (1.0, 3.0)
    store.close()
    cols = {r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(frames)")}
    assert "match" not in cols


def test_an_old_store_is_migrated_and_takes_a_second_match(tmp_path):
    path = tmp_path / "match.sqlite"
    _old_store(path)
    store = MatchStore(path)
    assert store.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] \
        == "2"
    assert [(f["match"], f["number"], f["winner"]) for f in store.frames(1)] == \
        [(1, 1, "Ann"), (1, 2, "Ann")]
    match = Match()
    for rec in _frame(("Cy", "Di"), 1, 1, 50.0):
        store.write_record(1, rec, match.feed(rec))
    assert [(m["match"], m["players"], m["winner"]) for m in store.matches(1)] == \
        [(1, ["Ann", "Bob"], "Ann"), (2, ["Cy", "Di"], "Di")]
    assert [(f["match"], f["number"]) for f in store.frames(1)] == [(1, 1), (1, 2), (2, 1)]
    assert store.integrity() == "ok"
    store.close()


def test_the_report_lists_both_matches(tmp_path):
    from tracker.outputs.report import gather, render

    rid = _day(tmp_path / "match.sqlite")
    store = MatchStore(tmp_path / "match.sqlite", readonly=True)
    _, first_match = gather(store, rid, match=1)
    _, current = gather(store, rid)
    html = render(store, rid)
    store.close()
    assert [(f.number, len(f.shots), f.players) for f in first_match] == \
        [(1, 3, ["Ann", "Bob"]), (2, 4, ["Ann", "Bob"])]
    assert [(f.number, len(f.shots), f.players) for f in current] == [(1, 3, ["Cy", "Di"])]
    assert "Match 1: Ann v Bob" in html and "Match 2: Cy v Di" in html
    assert "Ann 0 – 2 Bob" in html and "Cy 0 – 1 Di" in html


def test_a_session_of_two_matches_through_the_run_fills_the_store(picture, tmp_path):
    """The run itself (frames after frames, the next match from the queue) writing the store:
    Ann v Bob best of 3 (Bob 2-0, the second frame a re-rack taken as Ann's concession),
    then Cy v Di best of 1 (Cy concedes)."""
    from test_session_run import RACK, SCATTERED, Table, pot_red, stroke

    from calibration.auto import calibrate_image
    from calibration.table import STANDARD_TABLE
    from tracker.outputs.store import StoreWriter
    from tracker.pipeline import RefereeRun
    from tracker.session import TableSession
    from tracker.session_setup import MatchSetup, parse_then

    setup = MatchSetup(("Ann", "Bob"), best_of=3, then=(parse_then("Cy,Di best-of 1"),))
    writer = StoreWriter(tmp_path / "match.sqlite", "table one", table="t1")
    first = picture
    run = RefereeRun(calibrate_image(first, STANDARD_TABLE), 5.0, setup.players, listeners=[writer])
    run.session = TableSession(setup=setup)
    table = Table(run, first)
    run.begin(first)
    table.show(RACK, 1.0)
    run.submit(OperatorInput(InputKind.CONCEDE))   # frame 1 to Bob
    table.show(RACK, 0.2)
    table.show({}, 3.0)
    table.show(RACK, 3.6)                          # frame 2, Bob breaks
    table.show(SCATTERED, 1.0)
    stroke(run, pot_red(30.0))
    table.show(RACK, 3.6)                          # Ann concedes; Cy v Di starts on this rack
    table.show(SCATTERED, 1.0)
    stroke(run, pot_red(60.0, "red_05"))           # Cy pots a red
    run.submit(OperatorInput(InputKind.CONCEDE))   # ... and concedes: Di wins
    table.show(SCATTERED, 0.2)
    run.finish(None)

    store = MatchStore(tmp_path / "match.sqlite", readonly=True)
    rid = store.latest_run()["id"]
    assert [(m["match"], m["players"], m["frames_won"], m["winner"]) for m in store.matches(rid)] \
        == [(1, ["Ann", "Bob"], {"Ann": 0, "Bob": 2}, "Bob"),
            (2, ["Cy", "Di"], {"Cy": 0, "Di": 1}, "Di")]
    assert [(f["match"], f["number"], f["winner"]) for f in store.frames(rid)] == \
        [(1, 1, "Bob"), (1, 2, "Bob"), (2, 1, "Di")]
    assert [(s["match"], s["frame"], s["shot"]) for s in store.shots(rid)] == \
        [(1, 2, 1), (2, 1, 2)]
    assert store.integrity() == "ok"
    assert table_state(store, "t1")["players"] == ["Cy", "Di"]
    store.close()


def test_a_cut_off_day_of_two_matches_resumes_on_the_second(tmp_path):
    """The referee's state rebuilt from the store, and a resume from the JSONL log alone,
    replay both matches (a new referee's match at the second) and stand in the second."""
    from tracker.outputs.store import rebuild_match
    from tracker.resume import RunOptions, resume_point

    rid = _day(tmp_path / "match.sqlite")
    store = MatchStore(tmp_path / "match.sqlite")
    match = rebuild_match(store, rid)
    log = store.log(rid)
    store.close()
    assert match.players == ("Cy", "Di") and match.match_winner() == "Di"
    out = tmp_path / "out"
    out.mkdir()
    (out / "match.log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in log))
    point = resume_point(out, RunOptions(video="v.mp4", video_bytes=0, store=False))
    assert [d["frame_start"] for d in point.decisions if "frame_start" in d] == [1, 2, 1]
    ends = [d for d in point.decisions if "frame_end" in d]
    assert [(d["winner"], d["match_over"]) for d in ends] == \
        [("Bob", False), ("Bob", True), ("Di", True)]


def test_high_breaks_are_found_match_by_match():
    """A run of two matches: each match's breaks are its own (frame 1 of both has a break
    of 1 by its second player; one match's strokes never join the other's break)."""
    from tracker.outputs.highbreaks import HighBreakParams, clip_name, high_breaks_by_match

    log, calls = [], []
    for players, best_of, frames in ((("Ann", "Bob"), 3, 2), (("Cy", "Di"), 1, 1)):
        match = Match()
        for n in range(1, frames + 1):
            for rec in _frame(players, n, best_of, 100.0 * n):
                log.append(record_to_dict(rec))
                calls += match.feed(rec)
    found = high_breaks_by_match(log, calls, HighBreakParams(threshold=1))
    assert [(m, v.frame, v.player, v.points) for m, v in found] == \
        [(1, 1, "Bob", 1), (1, 2, "Bob", 1), (2, 1, "Di", 1)]
    assert clip_name(found[2][1], 2) == "match2-frame1-shot2-Di-1.mp4"


def test_an_old_high_breaks_table_keeps_its_breaks_as_match_1(tmp_path):
    from tracker.outputs.highbreaks import HighBreakParams, keep_high_breaks, kept_breaks

    rid = _day(tmp_path / "match.sqlite")
    store = MatchStore(tmp_path / "match.sqlite")
    store.db.executescript("""
        CREATE TABLE high_breaks(
            run_id INTEGER NOT NULL, frame INTEGER NOT NULL, first_shot INTEGER NOT NULL,
            player TEXT, points INTEGER NOT NULL, shots TEXT, t_start REAL, t_end REAL,
            clip TEXT, created REAL NOT NULL, PRIMARY KEY(run_id, frame, first_shot));
        INSERT INTO high_breaks VALUES(1, 2, 3, 'Bob', 57, '[3, 4]', 1.0, 9.0, 'b.mp4', 0);""")
    assert [b["points"] for b in kept_breaks(store)] == [57]        # read before the rebuild
    assert keep_high_breaks(store, rid, tmp_path / "none.mp4", tmp_path,
                            HighBreakParams(threshold=1000)) == []
    assert [(b["match"], b["frame"], b["player"], b["points"]) for b in kept_breaks(store)] == \
        [(1, 2, "Bob", 57)]
    assert store.integrity() == "ok"
    store.close()
