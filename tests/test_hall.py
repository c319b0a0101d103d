"""One hall, one server: the store knows its tables and each table's state, the server has
every table's pages and API beside the newest run's, the hall page lists the tables, and a
console request reaches the right table's run."""

from __future__ import annotations

import json
import re
import sqlite3
import warnings

import pytest

from tests.hall_fixtures import HallStore
from tracker.outputs.store import MatchStore, StoreWriter
from tracker.outputs.tables import (
    ENDED,
    IDLE,
    NOT_REFEREED,
    PLAYING,
    WAITING,
    TableParams,
    hall_state,
    latest_run_of,
    table_of,
    table_state,
    tables,
)

pytest.importorskip("starlette")
with warnings.catch_warnings():  # starlette would rather have httpx2 than httpx: either works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tracker.server.app import create_app  # noqa: E402

TOKEN = "hall-token"


@pytest.fixture
def hall(tmp_path):
    return HallStore(tmp_path / "hall")


def test_the_store_lists_its_tables_and_each_ones_state(hall):
    assert tables(hall.store) == ["t1", "t2"]
    t1, t2 = hall_state(hall.store)
    assert (t1["table"], t1["status"], t1["players"]) == ("t1", PLAYING, ["Ann", "Bob"])
    assert t1["score"] == {"Ann": 0, "Bob": 4} and t1["striker"] == "Bob"
    assert t1["frames_won"] == {"Ann": 0, "Bob": 0} and t1["best_of"] == 1
    assert "FOUL AND A MISS" in t1["last_call"]
    assert t2["players"] == ["Cy", "Di"] and t2["score"] == {"Cy": 4, "Di": 0}
    hall.write_next()  # the play-again option
    hall.write_next()  # Di pots a red: a break of 1 on t2, t1 unchanged
    t1b, t2b = hall_state(hall.store)
    assert t2b["score"] == {"Cy": 4, "Di": 1} and t2b["break"] == 1 and t2b["striker"] == "Di"
    assert t1b["score"] == t1["score"]


def test_a_tables_status_follows_its_run(hall):
    s = hall.store
    later = table_state(s, "t1")["last_activity"] + 301
    assert table_state(s, "t1", TableParams(idle_after_s=300), now=later)["status"] == IDLE
    s.end_run(hall.runs["t1"], {"video_end": "interrupted"}, "interrupted")
    assert table_state(s, "t1")["status"] == NOT_REFEREED
    s.end_run(hall.runs["t2"], {"video_end": "end"})
    assert table_state(s, "t2")["status"] == ENDED
    fresh = s.new_run("cam", None, ("Ann", "Bob"), "t1")  # the table's next session
    assert latest_run_of(s, "t1")["id"] == fresh
    assert table_state(s, "t1")["status"] == WAITING
    assert table_state(s, "nowhere") is None


def test_an_old_store_gets_the_column_and_its_runs_are_named(tmp_path):
    path = tmp_path / "day" / "match.sqlite"
    path.parent.mkdir()
    MatchStore(path).close()
    db = sqlite3.connect(path)  # as a store written before runs had table names
    db.execute("ALTER TABLE runs DROP COLUMN table_name")
    for video in ("clip.mp4", "table-3: rtsp://cam3/stream"):
        db.execute("INSERT INTO runs(video, started, status) VALUES(?, '2026-01-01T10:00:00', "
                   "'finished')", (video,))
    db.commit()
    db.close()
    old = MatchStore(path, readonly=True)  # read as it is: names from the folder and the hall
    assert tables(old) == ["day", "table-3"]
    assert latest_run_of(old, "table-3")["id"] == 2
    old.close()
    store = MatchStore(path)  # opened for writing: the column is added, old rows kept
    assert [table_of(store, r) for r in store.runs()] == ["day", "table-3"]
    store.new_run("x.mp4", None, None, "t9")
    assert tables(store) == ["day", "table-3", "t9"]


def test_a_writer_names_the_run_after_its_folder_or_the_table_it_is_given(tmp_path):
    assert StoreWriter(tmp_path / "club-table-2" / "match.sqlite", "v.mp4").table == "club-table-2"
    assert StoreWriter(tmp_path / "x" / "match.sqlite", "v.mp4", table="t4").table == "t4"


def test_every_table_has_its_pages_and_api_beside_the_newest_runs(hall):
    client = TestClient(create_app(hall.path, TOKEN))
    for path in ("/table/t1/", "/table/t1/overlay", "/table/t2/console", "/table/t1/review/1",
                 "/hall", "/", "/overlay"):
        assert client.get(path).status_code == 200, path
    assert client.get("/table/t1", follow_redirects=False).headers["location"].endswith("/table/t1/")
    t1 = client.get("/table/t1/api/state").json()
    assert t1["board"]["score"] == {"Ann": 0, "Bob": 4} and t1["run"]["table"] == "t1"
    assert client.get("/api/table/t1/state").json()["board"] == t1["board"]
    assert client.get("/api/table/t2/state").json()["board"]["players"] == ["Cy", "Di"]
    assert client.get("/api/state").json()["run"]["table"] == "t2"  # the newest run, as before
    assert [s["shot"] for s in client.get("/table/t1/api/shots").json()] == [1]
    assert client.get("/table/nowhere/").status_code == 404
    assert client.get("/api/table/nowhere/state").json()["error"].startswith("no table")
    # a page reaches its own table's stream and console: no address starts at the root
    for path in ("/table/t1/", "/table/t1/overlay", "/table/t1/console"):
        assert not re.search(r"""['"`(]/(api|review|media|overlay|console)""",
                             client.get(path).text), path


def test_the_table_stream_sends_that_tables_board(hall):
    client = TestClient(create_app(hall.path, TOKEN))
    with client.stream("GET", "/api/table/t2/stream") as r:
        line = next(x for x in r.iter_lines() if x.startswith("data: "))
    assert json.loads(line[6:])["board"]["players"] == ["Cy", "Di"]


def test_a_console_request_goes_to_its_tables_run(hall):
    client = TestClient(create_app(hall.path, TOKEN))
    body = {"action": "option", "choice": "replace"}
    assert client.post("/table/t1/api/console", json=body).status_code == 401
    ok = client.post("/table/t1/api/console", json=body, headers={"X-Token": TOKEN})
    assert ok.status_code == 202
    assert [r["action"] for r in hall.store.console_pending(hall.runs["t1"])] == ["option"]
    rows = hall.store.db.execute("SELECT run_id FROM console").fetchall()
    assert [r[0] for r in rows] == [hall.runs["t1"]]  # not the newest run (t2's)
    assert client.post("/table/nowhere/api/console", json=body,
                       headers={"X-Token": TOKEN}).status_code == 404


def test_the_hall_lists_every_table_and_streams_it(hall):
    client = TestClient(create_app(hall.path, TOKEN))
    st = client.get("/api/hall").json()
    assert [t["table"] for t in st["tables"]] == ["t1", "t2"]
    assert st["tables"][1]["score"] == {"Cy": 4, "Di": 0} and st["tables"][0]["high_breaks"] == []
    page = client.get("/hall").text
    assert "EventSource('/api/hall/stream')" in page and "setInterval(()=>fetch" not in page
    with client.stream("GET", "/api/hall/stream") as r:
        line = next(x for x in r.iter_lines() if x.startswith("data: "))
    assert [t["status"] for t in json.loads(line[6:])["tables"]] == [PLAYING, PLAYING]


def test_the_hall_configuration_checks_realtime_and_cpus(tmp_path):
    from tracker.scale.batch import BatchError
    from tracker.scale.hall import load_config

    def cfg(**extra):
        table = {"name": "t", "source": "a.mp4", **extra.pop("table", {})}
        path = tmp_path / "hall.json"
        path.write_text(json.dumps({"out": str(tmp_path / "h"), "tables": [table], **extra}))
        return load_config(path)

    assert cfg(table={"realtime": 1.5}, cpus_per_table=0.5)["cpus_per_table"] == 0.5
    for bad, said in (({"table": {"realtime": 0}}, "realtime"),
                      ({"table": {"realtime": "fast"}}, "realtime"),
                      ({"table": {"keep_breaks": -1}}, "keep_breaks"),
                      ({"cpus_per_table": 0}, "cpus_per_table"),
                      ({"table": {"match": {"players": ["A", "B"], "best_of": 4}}}, "odd"),
                      ({"table": {"match": {"players": ["A", "B"]}, "players": ["A", "B"]}},
                       "not both"),
                      ({"table": {"wait": "yes"}}, "wait")):
        with pytest.raises(BatchError, match=said):
            cfg(**bad)


def test_the_hall_shows_a_configured_table_before_its_run_starts(hall, tmp_path):
    client = TestClient(create_app(hall.path, TOKEN, tables=["t1", "t2", "t3"]))
    t3 = client.get("/api/hall").json()["tables"][2]
    assert (t3["table"], t3["status"], t3["run"]) == ("t3", NOT_REFEREED, None)
    assert client.get("/table/t3/").status_code == 404  # no pages until it has played
    empty = TestClient(create_app(tmp_path / "none" / "match.sqlite", TOKEN, tables=["a"]))
    assert [t["table"] for t in empty.get("/api/hall").json()["tables"]] == ["a"]
