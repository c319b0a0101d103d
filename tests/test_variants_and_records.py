"""Reduced-reds rulesets, rule options, the registry and the record format round trip."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from helpers import shot, state

from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.records.parse import RecordError, record_from_dict, record_to_dict, schema
from tracker.records.shot import InputKind, OperatorInput
from tracker.rules.registry import RULESETS, get_ruleset
from tracker.rules.state import Phase


@pytest.mark.parametrize("name,n,points", [("snooker", 15, 147), ("snooker-10-reds", 10, 107),
                                            ("snooker-6-reds", 6, 75)])
def test_reduced_reds_rack_and_points(name, n, points):
    r = get_ruleset(name)
    st = r.new_frame(("A", "B"))
    assert len(r.reds(st.on_table)) == n and r.points_remaining(st) == points
    pos = r.setup_positions()
    reds = [pos[b] for b in B.red_ids(n)]
    assert min(p[1] for p in reds) > T.spots["pink"][1] + T.ball_diameter  # apex clear of pink
    assert all(abs(p[0] - T.centre_x) < 5 * T.ball_diameter for p in reds)


def test_reduced_reds_allow_five_misses_then_ball_anywhere():
    r = get_ruleset("snooker-6-reds")
    reds = {B.red_id(i + 1): (300.0 + i * 200.0, 3000.0) for i in range(6)}
    pos = {**reds, **{c: T.spots[c] for c in B.COLOURS}, "white": (889.0, 1400.0)}
    s = replace(state(Phase.RED, reds=6, scores=(20, 20), positions=pos, ruleset="snooker-6-reds"))
    for k in range(1, 6):
        d, s = r.decide(s, shot(k, first="blue", before=pos, after=pos))
        assert d.miss and d.miss_count == k and not d.frame_over
        if k < 5:
            _, s = r.apply_input(s, OperatorInput(InputKind.OPTION, choice="replace"))
    assert "ball_anywhere" in d.options


def test_reduced_reds_forbid_snookering_behind_the_nominated_colour():
    r = get_ruleset("snooker-6-reds")
    reds = {"red_01": (400.0, 3300.0)}
    cols = {c: T.spots[c] for c in B.COLOURS}
    cols["blue"] = (400.0, 2660.0)
    before = {**reds, **cols, "white": (400.0, 2000.0)}
    after = {**reds, **cols, "white": (400.0, 2600.0)}
    s = state(Phase.COLOUR_CHOICE, reds=1, positions=before, ruleset="snooker-6-reds")
    d, _ = r.decide(s, shot(first="blue", nomination="blue", before=before, after=after))
    assert d.foul and d.fouls[0].code == "snooker_behind_nominated"
    d_std, _ = get_ruleset("snooker").decide(s, shot(first="blue", nomination="blue", before=before,
                                                      after=after))
    assert not d_std.foul


def test_unknown_ruleset_and_option_are_clear_errors():
    with pytest.raises(ValueError, match="unknown ruleset 'pool'.*snooker"):
        get_ruleset("pool")
    with pytest.raises(ValueError, match="unknown rule option"):
        get_ruleset("snooker", {"free_bal": 1})
    assert {"snooker", "snooker-6-reds", "snooker-10-reds", "snookerpool"} <= set(RULESETS)


RECORDS = [
    {"type": "frame_start", "version": 1, "frame": 1, "players": ["A", "B"], "breaker": "A",
     "ruleset": "snooker", "best_of": 3, "options": {"hanging_ball_s": 4.0}},
    {"type": "shot", "version": 1, "shot": 7, "striker": "A", "t_start": 1.5, "t_end": 9.0,
     "positions_before": {"white": [889.0, 600.0], "red_01": [889.0, 2800.0]},
     "events": [{"type": "strike", "t": 1.5, "ball": "white"},
                {"type": "contact", "t": 2.0, "balls": ["white", "red_01"], "confidence": 0.9},
                {"type": "pot", "t": 2.8, "ball": "red_01", "pocket": "top_left", "rest_s": 0.5}],
     "positions_after": {"white": [800.0, 2000.0]}, "nomination": "black",
     "operator": {"miss": False, "fouls": [{"code": "feet"}]}},
    {"type": "input", "version": 1, "input": "option", "choice": "replace"},
]


@pytest.mark.parametrize("rec", RECORDS)
def test_records_round_trip(rec):
    back = record_to_dict(record_from_dict(rec))
    assert record_from_dict(back) == record_from_dict(rec)
    assert json.loads(json.dumps(back)) == back


def test_schema_is_a_valid_json_schema_and_rejects_unknown_events():
    import jsonschema
    jsonschema.Draft202012Validator.check_schema(schema())
    bad = {"type": "shot", "shot": 1, "events": [{"type": "teleport", "ball": "white"}]}
    with pytest.raises(RecordError, match="teleport"):
        record_from_dict(bad, 3)


def test_shot_record_doc_examples_are_valid_records():
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "SHOT-RECORD.md").read_text()
    lines = [ln for block in re.findall(r"```json\n(.*?)```", text, re.S)
             for ln in block.strip().splitlines() if '"..."' not in ln]
    assert len(lines) >= 7
    for ln in lines:
        record_from_dict(json.loads(ln))
