"""The live server: public pages read only, the console's writes need the token, the state
and review pages reflect the store, console requests reach a run's engine."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
with warnings.catch_warnings():  # starlette would rather have httpx2 than httpx: either works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tracker.outputs.store import MatchStore  # noqa: E402
from tracker.records.parse import read_log  # noqa: E402
from tracker.rules.match import Match  # noqa: E402
from tracker.server.app import create_app  # noqa: E402
from tracker.server.live import ConsoleError, parse_action  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "s3cret-token"


@pytest.fixture
def served(tmp_path):
    """A store holding the miss sample's first stroke (a foul and a miss), run still going."""
    store = MatchStore(tmp_path / "match.sqlite")
    run_id = store.new_run("overhead_miss.mp4", None, ("Ann", "Bob"))
    match = Match()
    for _, rec in list(read_log(ROOT / "sample_videos" / "overhead_miss.log.jsonl"))[:2]:
        store.write_record(run_id, rec, match.feed(rec))
    return TestClient(create_app(store.path, TOKEN)), store, run_id


def test_public_pages_show_the_score_and_the_call(served):
    client, _, _ = served
    for path in ("/", "/overlay", "/console", "/review/1"):
        assert client.get(path).status_code == 200
    st = client.get("/api/state").json()
    assert st["board"]["score"] == {"Ann": 0, "Bob": 4}
    assert st["calls"][0]["head"] == "FOUL AND A MISS" and st["calls"][0]["sub"].endswith(", 4 to Bob")
    assert "replace" in st["board"]["options"]
    review = client.get("/review/1").text
    assert "<svg" in review and 'data-ball="red_01"' in review and "red_01" not in review.split(
        "<svg")[0]


def test_public_routes_cannot_change_anything(served):
    client, store, run_id = served
    for path in ("/", "/overlay", "/console", "/api/state", "/review/1"):
        assert client.post(path, json={"action": "option", "choice": "replace"}).status_code == 405
    body = {"action": "option", "choice": "replace"}
    assert client.post("/api/console", json=body).status_code == 401
    assert client.post("/api/console", json=body, headers={"X-Token": "nope"}).status_code == 403
    assert store.console_pending(run_id) == []
    ok = client.post("/api/console", json=body, headers={"Authorization": f"Bearer {TOKEN}"})
    assert ok.status_code == 202
    assert [r["action"] for r in store.console_pending(run_id)] == ["option"]


def test_a_malformed_console_request_is_refused_with_the_reason(served):
    client, _, _ = served
    r = client.post("/api/console", json={"action": "option", "choice": "maybe"},
                    headers={"X-Token": TOKEN})
    assert r.status_code == 400 and "play_again" in r.json()["error"]
    with pytest.raises(ConsoleError, match="not a ball"):
        parse_action("nominate", {"ball": "purple"})
    kind, said = parse_action("miss", {"miss": False, "when": "last"})
    assert kind == "last" and said["operator"].miss is False
