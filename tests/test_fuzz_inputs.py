"""Fuzzing the two readers of user files (hypothesis): the match-log parser
(``tracker/records/parse.py``, and the referee fed what it accepts) and the calibration-profile
loader (``calibration/profile.py``). Whatever the bytes, they raise their documented error
type or nothing: ``RecordError`` (the referee: ``RuleError``) and ``CalibrationError``.

Three kinds of input each: random bytes; random JSON; a valid file with one part mutated
(a field replaced by random JSON, a field deleted, an element of a list replaced), which is
what reaches the deeper checks.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.camera import CameraModel
from calibration.profile import Calibration, CalibrationError
from calibration.table import TableGeometry
from tracker.records.parse import RecordError, read_log, record_from_dict
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = [json.loads(x) for x in (ROOT / "tracker" / "examples" / "example-frame.jsonl")
           .read_text().splitlines() if x.strip() and not x.startswith("//")]
SAMPLE_LOG = [json.loads(x) for x in (ROOT / "sample_videos" / "overhead_miss.log.jsonl")
              .read_text().splitlines() if x.strip() and not x.startswith("//")]
#: examples per test (FUZZ_EXAMPLES=5000 for a longer hunt)
FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

#: JSON values, with the numbers that break readers: huge, tiny, negative, non-finite
#: (written as 1e400), big integers.
NUMBERS = st.one_of(st.integers(), st.integers(min_value=-(10**400), max_value=10**400),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from([0, -1, 1e300, -1e300, 1e-300, 2**63, 1e400, -1e400]))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=12),
              st.sampled_from(["white", "red_01", "red", "black", "pot", "strike", "contact",
                               "top_left", "frame_start", "shot", "input", "miss", "replace",
                               "A", "B", "snooker"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)


def _dump(value) -> str:
    """JSON text; a float infinity becomes 1e400 (what a file would say)."""
    return json.dumps(value).replace("Infinity", "1e400").replace("NaN", "0")


def _paths(obj, prefix=()):
    """Every path (keys and indices) into a JSON value."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


@st.composite
def mutated(draw, doc):
    """``doc`` (a JSON value) with one part replaced by random JSON or deleted."""
    doc = json.loads(json.dumps(doc))
    paths = [p for p in _paths(doc) if p]
    if not paths:
        return draw(JSON)
    path = draw(st.sampled_from(paths))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
    else:
        parent[path[-1]] = draw(JSON)
    return doc


def _read_all(text: bytes | str) -> list:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "log.jsonl"
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return [rec for _, rec in read_log(p)]


def _referee(records: list) -> None:
    """Feed a parsed log to the referee: only RuleError may stop it."""
    match = Match()
    for rec in records:
        try:
            match.feed(rec)
        except RuleError:
            return


# ------------------------------------------------------------------ the match log
@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_as_a_match_log(data):
    with contextlib.suppress(RecordError):
        _referee(_read_all(data))


@FUZZ
@given(st.lists(JSON, min_size=1, max_size=4))
def test_random_json_lines_as_a_match_log(values):
    with contextlib.suppress(RecordError):
        _referee(_read_all("\n".join(_dump(v) for v in values)))


@FUZZ
@given(st.data())
def test_a_valid_log_with_one_part_mutated(data):
    log = data.draw(st.sampled_from([EXAMPLE, SAMPLE_LOG]))
    i = data.draw(st.integers(0, len(log) - 1))
    lines = [*log[:i], data.draw(mutated(log[i])), *log[i + 1:]]
    try:
        records = _read_all("\n".join(_dump(x) for x in lines))
    except RecordError:
        return
    _referee(records)


@FUZZ
@given(JSON)
def test_random_json_as_one_record(value):
    with contextlib.suppress(RecordError):
        record_from_dict(json.loads(_dump(value)), 1)


BALLS = ["white", *(f"red_{i:02d}" for i in range(1, 16)), "red", "yellow", "green", "brown",
         "blue", "pink", "black", "spot", "spot_white", "1", "3", "15"]
POCKETS = ["baulk_left", "baulk_right", "middle_left", "middle_right", "top_left", "top_right"]
XY = st.tuples(st.floats(-150, 1900), st.floats(-150, 3700)).map(list)
POSITIONS = st.dictionaries(st.sampled_from(BALLS), XY, max_size=8)


@st.composite
def an_event(draw, t: float) -> dict:
    kind = draw(st.sampled_from(["strike", "contact", "cushion", "pot", "off_table", "disturbed",
                                 "push", "jump", "moving_at_strike", "lip_drop", "at_rest"]))
    e: dict = {"type": kind, "t": t}
    if kind == "contact":
        e["balls"] = draw(st.lists(st.sampled_from(BALLS), min_size=2, max_size=2))
    elif kind != "at_rest":
        e["ball"] = draw(st.sampled_from(BALLS))
    if kind == "pot":
        e["pocket"] = draw(st.sampled_from(POCKETS))
    if kind == "disturbed" and draw(st.booleans()):
        e["by"] = draw(st.sampled_from(["striker", "non_striker", "referee", "outside",
                                        "house_equipment", "table"]))
    return e


@st.composite
def a_record(draw, n: int) -> dict:
    if draw(st.integers(0, 5)) == 0:
        kind = draw(st.sampled_from(["option", "concede", "claim", "award_frame", "lots",
                                     "striker", "stalemate", "time"]))
        rec = {"type": "input", "input": kind}
        if kind == "option" or draw(st.booleans()):
            rec["choice"] = draw(st.sampled_from(["play", "play_again", "replace",
                                                  "ball_anywhere", "in_hand", "ball_in_hand",
                                                  "spot_balls"]))
        if kind in ("award_frame", "lots", "striker") or draw(st.booleans()):
            rec["player"] = draw(st.sampled_from(["A", "B", "C"]))
        return rec
    times = sorted(draw(st.lists(st.floats(0, 100), min_size=0, max_size=6)))
    rec = {"type": "shot", "shot": n, "events": [draw(an_event(t)) for t in times]}
    for key, strat in (("positions_before", POSITIONS), ("positions_after", POSITIONS),
                       ("nomination", st.sampled_from(BALLS)),
                       ("free_ball", st.sampled_from(BALLS)),
                       ("touching", st.lists(st.sampled_from(BALLS), max_size=2)),
                       ("striker", st.sampled_from(["A", "B", "C"])),
                       ("operator", st.fixed_dictionaries({}, optional={
                           "miss": st.booleans(), "not_a_stroke": st.booleans(),
                           "fouls": st.lists(st.fixed_dictionaries({"code": st.sampled_from(
                               ["feet", "push", "double_hit", "touched_ball", "out_of_turn",
                                "jump", "no_declaration"])}), max_size=2)}))):
        if draw(st.integers(0, 3)) == 0:
            rec[key] = draw(strat)
    return rec


@FUZZ
@given(st.data())
def test_random_schema_valid_logs_refereed(data):
    """Logs that pass the schema, made of random strokes and inputs, in every ruleset: the
    referee calls them or refuses one with RuleError."""
    from tracker.rules.registry import RULESETS

    start = {"type": "frame_start", "frame": 1, "players": ["A", "B"],
             "ruleset": data.draw(st.sampled_from(sorted(RULESETS)))}
    if data.draw(st.booleans()):
        start["positions"] = data.draw(POSITIONS)
    if data.draw(st.booleans()):
        start["breaker"] = data.draw(st.sampled_from(["A", "B"]))
    lines = [start, *(data.draw(a_record(n)) for n in range(1, data.draw(st.integers(1, 12))))]
    try:
        records = _read_all("\n".join(_dump(x) for x in lines))
    except RecordError:
        return
    _referee(records)


# ------------------------------------------------------------------ the profile
def _valid_profile() -> dict:
    truth = json.loads((ROOT / "sample_videos" / "overhead_miss.camera.json").read_text())
    cam = CameraModel(tuple(truth["image_size"]), np.array(truth["K"]), np.array(truth["dist"]),
                      np.array(truth["R"]), np.array(truth["t"]))
    return Calibration(cam.image_size, TableGeometry.standard(), cam,
                       {"median": 0.5, "max": 1.0, "n": 10}, notes=["a note"]).to_dict()


PROFILE = _valid_profile()


def _load(text: bytes | str) -> Calibration | None:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "profile.json"
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        try:
            return Calibration.load(p)
        except CalibrationError:
            return None


def _usable(cal: Calibration | None) -> None:
    """A profile the loader accepts maps pixels to finite millimetres and back."""
    if cal is None:
        return
    w, h = cal.image_size
    assert 16 <= w <= 16384 and 16 <= h <= 16384
    with np.errstate(all="ignore"):
        mm = cal.to_table(np.array([[w / 2, h / 2]]))
    assert mm.shape == (1, 2)


def test_the_valid_profile_loads():
    cal = _load(json.dumps(PROFILE))
    assert cal is not None and cal.image_size == (1920, 1080)


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_as_a_profile(data):
    _usable(_load(data))


@FUZZ
@given(JSON)
def test_random_json_as_a_profile(value):
    _usable(_load(_dump(value)))


@FUZZ
@given(st.data())
def test_a_valid_profile_with_one_part_mutated(data):
    _usable(_load(_dump(data.draw(mutated(PROFILE)))))
