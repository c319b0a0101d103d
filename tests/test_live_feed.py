"""The live feed and the TV pages over a store: /api/state meets its JSON Schema (after a
correction too), carries the TV figures and lists a corrected stroke once; the strip, the
table display and the interval page are served."""

from __future__ import annotations

import copy
import json
import warnings
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from tracker.corrections import correction_mark
from tracker.outputs.store import MatchStore
from tracker.records.parse import read_log
from tracker.records.shot import OperatorFoul, OperatorJudgement, Shot
from tracker.rules.match import Match
from tracker.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
FRAME_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"
SCHEMA = ROOT / "tracker" / "records" / "live-state.schema.json"


def fill_with_a_correction(path: Path) -> tuple[MatchStore, int]:
    """The frame sample (6 strokes) in a store, its last stroke then corrected into a push
    stroke foul, as the console's correction writes it."""
    store = MatchStore(path)
    rid = store.new_run("overhead_frame.mp4", None, ("Ann", "Bob"))
    match, before = Match(), None
    for _, rec in read_log(FRAME_LOG):
        before = copy.deepcopy(match) if isinstance(rec, Shot) else before
        store.write_record(rid, rec, match.feed(rec))
    fixed = replace(rec, operator=OperatorJudgement(fouls=(OperatorFoul("push", None),)))
    mark = correction_mark(rec.shot, 1, "foul added: push stroke")
    calls = [{**c, "amended": True, "correction": mark} for c in before.feed(fixed)]
    store.write_record(rid, fixed, calls, "console", amends=True)
    return store, rid


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    store, rid = fill_with_a_correction(tmp_path_factory.mktemp("live") / "match.sqlite")
    return TestClient(create_app(store.path, "token")), store, rid


def test_the_live_state_meets_its_schema_and_lists_a_corrected_stroke_once(served):
    client, _, _ = served
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    st = client.get("/api/state").json()
    validator.validate(st)
    shots = [c["shot"] for c in st["calls"] if c["shot"] is not None]
    assert shots.count(6) == 1 and st["calls"][0]["amended"]
    b = st["board"]
    # stroke 6 (Ann potted a red) became a foul: 4 to Bob, the red stays down
    assert b["score"] == {"Ann": 4, "Bob": 10} and b["foul"].startswith("FOUL: push stroke")
    assert b["foul"].endswith("4 to Bob") and b["striker"] == "Bob"
    # 12 reds left (3 potted), each with a black, and the six colours: 12 * 8 + 27
    assert (b["points_remaining"], b["reds_remaining"], b["difference"]) == (123, 12, 6)
    assert b["frame_time_s"] and b["frame_time_s"] > 40
    assert st["stats"]["frame_stats"]["Ann"]["fouls"] == 1
    assert st["stats"]["match_stats"]["Bob"]["highest_break"] == 6
    with pytest.raises(jsonschema.ValidationError):  # the schema holds the feed to its fields
        validator.validate({**st, "board": {**b, "score": "Ann=4 Bob=10"}})


def test_the_empty_feed_meets_the_schema_too(tmp_path):
    st = TestClient(create_app(tmp_path / "none.sqlite", "t")).get("/api/state").json()
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text())).validate(st)


def test_the_tv_pages_are_served_and_read_the_feed(served):
    client, _, _ = served
    for path, marks in (("/overlay", ("api/stream", "transparent", "pos")),
                        ("/board", ("api/stream", "rotate(180deg)", "ends")),
                        ("/interval", ("api/stream", "Pot success", "Breaks 100+"))):
        page = client.get(path)
        assert page.status_code == 200 and all(m in page.text for m in marks), path
        assert "/api/stream" not in page.text  # relative: works under a hall's /table/NAME/
    assert client.post("/board").status_code == 405
    review = client.get("/review/6").text
    assert 'id="history"' in review and "push stroke" in review
