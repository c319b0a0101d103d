"""The match set-up from the referee console (issue 28): the console page's form posts a
``match`` request that is checked as a set-up file is (one line for a bad value), goes through
the store's console queue to the running session, and starts on the next rack; a match under
way is not replaced, a queued one follows it."""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import pytest

import tests.test_session_run as harness
from calibration.auto import calibrate_image
from calibration.table import STANDARD_TABLE as T
from tracker.outputs.store import MatchStore, StoreWriter
from tracker.pipeline import RefereeRun
from tracker.rules.registry import get_ruleset
from tracker.server.live import ConsoleBridge, ConsoleError, parse_action
from tracker.session import TableSession

pytest.importorskip("starlette")
with warnings.catch_warnings():  # starlette would rather have httpx2 than httpx: either works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tracker.server.app import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "s3cret-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SIX_RACK = get_ruleset("snooker-6-reds").setup_positions()


def test_the_console_form_posts_a_set_up_checked_as_a_file_is(tmp_path):
    store = MatchStore(tmp_path / "match.sqlite")
    run_id = store.new_run("table.mp4", None, ("A", "B"))
    client = TestClient(create_app(store.path, TOKEN))
    page = client.get("/console").text
    assert 'id="match-setup"' in page and 'id="m-queue"' in page and "Race to" in page
    bad = {"players": ["Cy", "Di"], "best_of": 4}
    r = client.post("/api/console", json={"action": "match", **bad}, headers=AUTH)
    assert r.status_code == 400 and "odd" in r.json()["error"] and "\n" not in r.json()["error"]
    r = client.post("/api/console", json={"action": "match", "players": ["Cy", "Di"],
                                          "ruleset": "snookerpool"}, headers=AUTH)
    assert r.status_code == 400 and "cannot referee snookerpool" in r.json()["error"]
    r = client.post("/api/console", json={"action": "match", "best_of": 3}, headers=AUTH)
    assert r.status_code == 400 and "players" in r.json()["error"]
    assert store.console_pending(run_id) == []
    good = {"action": "match", "players": ["Cy", "Di"], "race_to": 2, "ruleset": "snooker-6-reds",
            "handicap": {"Cy": 7, "Di": 0}, "breaker": "Di", "frames_won": [1, 0],
            "score": None, "queue": False}
    assert client.post("/api/console", json=good, headers=AUTH).status_code == 202
    [req] = store.console_pending(run_id)
    kind, (setup, queue) = parse_action(req["action"], req["payload"])
    assert kind == "match" and not queue
    assert (setup.players, setup.best_of, setup.ruleset, dict(setup.handicap), setup.breaker,
            setup.frames_won) == (("Cy", "Di"), 3, "snooker-6-reds", {"Cy": 7}, "Di", (1, 0))
    with pytest.raises(ConsoleError, match="score"):
        parse_action("match", {"players": ["Cy", "Di"], "score": [1]})


@pytest.fixture(scope="module")
def first():
    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_miss.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    return img


def test_a_match_set_on_the_console_starts_on_the_next_rack(first, tmp_path):
    calibration = calibrate_image(first, T)
    writer = StoreWriter(tmp_path / "match.sqlite", "table", table="t1")
    run = RefereeRun(calibration, harness.FPS, ("A", "B"), listeners=[writer])
    run.session = TableSession(wait=True)
    run.listeners.append(ConsoleBridge(writer))
    table = harness.Table(run, first)
    assert run.begin(first) is None  # a hall table waiting, no match set
    rid = writer.start(run)
    store = writer.store
    store.console_request(rid, "match", {"players": ["Cy", "Di"], "race_to": 2,
                                         "ruleset": "snooker-6-reds", "breaker": "Di",
                                         "handicap": {"Cy": 7}})
    table.show({}, 0.4)
    done = store.console_requests(rid)[0]
    assert done["status"] == "applied" and "starts when the balls are racked" in \
        done["result"]["message"]
    assert run.match.state is None  # nothing starts before the rack
    table.show(SIX_RACK, 3.6)
    st = run.match.state
    assert st is not None and run.in_frame and st.players == ("Cy", "Di")
    assert st.players[st.breaker] == "Di" and run.match.best_of == 3 and st.scores == (7, 0)
    # under way: a new match is only queued; set "now" it is refused with the reason
    store.console_request(rid, "match", {"players": ["Ed", "Flo"], "best_of": 1})
    store.console_request(rid, "match", {"players": ["Ed", "Flo"], "best_of": 1, "queue": True})
    table.show(SIX_RACK, 0.4)
    now, queued = sorted(store.console_requests(rid), key=lambda r: r["id"])[1:]
    assert now["status"] == "refused" and "under way" in now["result"]["message"]
    assert queued["status"] == "applied" and "queued" in queued["result"]["message"]
    assert run.session.setup.next_match().players == ("Ed", "Flo")
    assert run.session.goes_on(run.match)


def _console_run(first, calibration, path, resume=None):  # noqa: ANN001, ANN202
    """A hall table's run waiting for a rack, its store at ``path`` and its console bridge
    (``resume``: a :class:`tracker.resume.ResumePoint` to go on with)."""
    writer = StoreWriter(path, "table", table="t1",
                         resume_run=resume.run_id if resume is not None else None)
    make = resume.run if resume is not None else RefereeRun
    run = make(calibration, harness.FPS, ("A", "B"), listeners=[writer, ConsoleBridge(writer)])
    run.session = TableSession(wait=True)
    return run, writer, harness.Table(run, first)


def test_console_set_ups_survive_a_restart(first, tmp_path):
    """A match set on the console before the rack and one queued during it are kept with the
    run: a killed run resumed from the video (``--resume``) sets them again where they came
    (its frame start is Cy v Di's, not the plain players'), and a live run taken up after a
    restart keeps the queued match."""
    from tracker.records.parse import record_from_dict
    from tracker.resume import RunOptions, resume_point
    from tracker.session import take_up

    calibration = calibrate_image(first, T)
    path = tmp_path / "match.sqlite"
    run, writer, table = _console_run(first, calibration, path)
    assert run.begin(first) is None
    rid = writer.start(run)
    writer.store.console_request(rid, "match", {"players": ["Cy", "Di"], "race_to": 2,
                                                "ruleset": "snooker-6-reds", "breaker": "Di"})
    table.show({}, 0.4)
    table.show(SIX_RACK, 3.6)
    assert run.match.players == ("Cy", "Di")
    writer.store.console_request(rid, "match", {"players": ["Ed", "Flo"], "best_of": 1,
                                                "queue": True})
    table.show(SIX_RACK, 0.4)
    assert run.session.setup.next_match().players == ("Ed", "Flo")
    # killed here: the store's run is cut off, its records and console requests kept
    point = resume_point(tmp_path, RunOptions(video="table", video_bytes=0))
    assert [(s.after, s.setup.players, s.queue) for s in point.setups] == \
        [(0, ("Cy", "Di"), False), (1, ("Ed", "Flo"), True)]
    again, _writer, table = _console_run(first, calibration, path, point)
    assert again.begin(first) is None
    table.show({}, 0.4)
    table.show(SIX_RACK, 4.0)  # meets the frame start again (a mismatch would raise)
    assert again.match.players == ("Cy", "Di") and again.match.best_of == 3
    assert again.session.setup.next_match().players == ("Ed", "Flo")
    taken = take_up([record_from_dict(r.data) for r in point.records], None,
                    tuple(point.setups))
    assert taken.setup.players == ("Cy", "Di") and taken.setup.breaker == "Di"
    assert taken.setup.next_match().players == ("Ed", "Flo")
