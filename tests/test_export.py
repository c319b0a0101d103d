"""League exports (tracker.outputs.export): the bundled sample's JSON and CSV tables validated
against their JSON Schemas in tracker/records, and the values a league reads."""

from __future__ import annotations

import csv
import io
import json
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from tracker.outputs.export import (
    CSV_COLUMNS,
    csv_tables,
    from_folder,
    from_store,
    main,
    match_document,
)
from tracker.outputs.store import MatchStore
from tracker.records.parse import read_log, record_to_dict
from tracker.rules.match import Match

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"


def _schema(name: str) -> jsonschema.Draft202012Validator:
    text = resources.files("tracker.records").joinpath(name).read_text()
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def _run_folder(tmp_path: Path, store: bool = True, decisions: bool = True) -> Path:
    """A run's folder made from the sample log as ``process`` makes it: the store, or the
    match log and the decisions."""
    folder = tmp_path / "run"
    folder.mkdir()
    match, log, calls = Match(), [], []
    db = MatchStore(folder / "match.sqlite") if store else None
    run_id = db.new_run("overhead_frame.mp4", None, ("Ann", "Bob")) if db else None
    for _, rec in read_log(SAMPLE_LOG):
        out = match.feed(rec)
        log.append(record_to_dict(rec))
        calls.extend(out)
        if db:
            db.write_record(run_id, rec, out)
    if db:
        db.end_run(run_id, {"video_end": "end"})
        db.close()
    else:
        (folder / "match.log.jsonl").write_text("".join(json.dumps(d) + "\n" for d in log))
        if decisions:
            (folder / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in calls))
    return folder


def _rows(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    return list(reader.fieldnames or []), rows


@pytest.mark.parametrize("kind", ["store", "jsonl", "log only"])
def test_the_samples_exports_meet_their_schemas(tmp_path, kind):
    folder = _run_folder(tmp_path, store=kind == "store", decisions=kind != "log only")
    assert main([str(folder)]) == 0
    doc = json.loads((folder / "export" / "match.json").read_text())
    _schema("export-match.schema.json").validate(doc)
    for name, columns in CSV_COLUMNS.items():
        validator = _schema(f"export-{name}.csv.schema.json")
        header, rows = _rows((folder / "export" / f"{name}.csv").read_text())
        assert header == list(columns) == validator.schema["required"]
        assert rows, name
        for row in rows:
            validator.validate(row)


def test_the_sample_exports_typed_values_a_league_reads(tmp_path):
    doc = match_document(from_folder(_run_folder(tmp_path)))
    assert doc["source"]["status"] == "finished" and doc["exported_at"].endswith("+00:00")
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob"]
    assert doc["frames"][0]["scores"] == [{"player": "Ann", "points": 5},
                                          {"player": "Bob", "points": 6}]
    assert doc["frames"][0]["finished"] is False
    foul = doc["strokes"][1]
    assert (foul["foul"], foul["points"], foul["penalty"], foul["penalty_to"]) == (True, 0, 4, "Ann")
    assert foul["fouls"] == ["the cue ball went into a pocket"]
    assert doc["breaks"] == [
        {"frame": 1, "player": "Bob", "points": 6, "balls": ["red", "blue"], "first_shot": 3,
         "last_shot": 5, "start_s": 20.84, "end_s": 42.31, "ended": "no score"},
        {"frame": 1, "player": "Ann", "points": 1, "balls": ["red"], "first_shot": 6,
         "last_shot": 6, "start_s": 45.04, "end_s": 51.284, "ended": "still at the table"}]
    bob = next(s for s in doc["statistics"]["match"] if s["player"] == "Bob")
    assert (bob["fouls"], bob["points_given_away"], bob["highest_break"]) == (1, 4, 6)
    assert bob["average_shot_time_s"] == 3.288 and bob["breaks_20_plus"] == 0

    tables = csv_tables(doc)
    _, strokes = _rows(tables["strokes"])
    row = strokes[1]  # stroke 2: Bob's in-off, 4 to Ann
    assert (row["striker"], row["foul"], row["points"], row["penalty"], row["penalty_to"]) == (
        "Bob", "true", "0", "4", "Ann")
    assert (row["player1"], row["player1_score"], row["player2"], row["player2_score"]) == (
        "Ann", "4", "Bob", "0")
    assert strokes[0]["foul"] == "false" and strokes[0]["shot_time_s"] == ""
    assert "red_" not in tables["strokes"] + tables["breaks"]
    _, breaks = _rows(tables["breaks"])
    assert (breaks[0]["balls"], breaks[0]["points"], breaks[0]["start_s"]) == ("red blue", "6", "20.84")


def test_the_csv_schemas_refuse_what_other_software_could_not_read(tmp_path):
    """The faults of the old export: 0/1 booleans, the score in one cell, a penalty counted
    as the fouler's points, a red by the tracker's id."""
    doc = match_document(from_folder(_run_folder(tmp_path)))
    _, strokes = _rows(csv_tables(doc)["strokes"])
    validator = _schema("export-strokes.csv.schema.json")
    good = strokes[1]
    validator.validate(good)
    for bad in ({"foul": "1"}, {"player1_score": "Ann=4 Bob=0"}, {"potted": "red_12"},
                {"points": "-4"}, {"start_s": "1700000000.0 s"}):
        assert not validator.is_valid({**good, **bad}), bad
    match_schema = _schema("export-match.schema.json")
    foul = doc["strokes"][1]
    assert not match_schema.is_valid({**doc, "strokes": [{**foul, "points": 4}]})
    assert not match_schema.is_valid({**doc, "exported_at": 1700000000.0})


def test_a_folder_that_is_not_a_run_is_one_line(tmp_path, capsys):
    assert main([str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "no such folder" in err and "Traceback" not in err and len(err.splitlines()) == 1
    assert main([str(tmp_path)]) == 2
    assert "neither match.sqlite nor match.log.jsonl" in capsys.readouterr().err


def test_a_match_of_several_frames(tmp_path):
    """The sample frame conceded (to Bob, 5-6) in a best of 3, then frame 2 conceded at once
    (to Ann, 0-0): frames won 1-1, no winner yet, frame 2 broken by Bob (the rotation)."""
    lines = [d for _, r in read_log(SAMPLE_LOG) for d in [record_to_dict(r)]]
    lines[0]["best_of"] = 3
    lines += [{"type": "input", "input": "concede"},
              {"type": "frame_start", "frame": 2, "players": ["Ann", "Bob"], "best_of": 3},
              {"type": "input", "input": "concede"}]
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "match.log.jsonl").write_text("".join(json.dumps(d) + "\n" for d in lines))
    doc = match_document(from_folder(folder))
    _schema("export-match.schema.json").validate(doc)
    assert doc["players"] == [{"name": "Ann", "frames_won": 1}, {"name": "Bob", "frames_won": 1}]
    assert (doc["best_of"], doc["winner"], doc["finished"]) == (3, None, False)
    _, frames = _rows(csv_tables(doc)["frames"])
    assert [(f["frame"], f["breaker"], f["winner"], f["end_reason"], f["player1_score"],
             f["player2_score"], f["finished"]) for f in frames] == [
        ("1", "Ann", "Bob", "conceded", "5", "6", "true"), ("2", "Bob", "Ann", "conceded", "0", "0", "true")]
    validator = _schema("export-frames.csv.schema.json")
    for f in frames:
        validator.validate(f)


def test_the_interval_statistics_of_a_live_store(tmp_path):
    store = MatchStore(_run_folder(tmp_path) / "match.sqlite", readonly=True)
    from tracker.outputs.export import interval_statistics

    live = interval_statistics(store)
    doc = match_document(from_store(store))
    assert live["statistics"] == doc["statistics"] and live["breaks"] == doc["breaks"]
    assert [p["frames_won"] for p in live["players"]] == [0, 0]
    assert [(b["player"], b["points"]) for b in live["breaks"]] == [("Bob", 6), ("Ann", 1)]


def test_the_cli_export_writes_the_league_files(tmp_path, capsys):
    """``snooker-tracker export DIR --format league``: the same files as the module's own
    entry point, each meeting its schema; a file given instead of a folder is one line."""
    from tracker.cli import main as cli_main

    folder = _run_folder(tmp_path)
    assert cli_main(["export", str(folder), "--format", "league", "--out",
                     str(tmp_path / "league")]) == 0
    written = json.loads(capsys.readouterr().out)["export"]
    assert {Path(p).name for p in written} >= {"match.json", "strokes.csv"}
    _schema("export-match.schema.json").validate(
        json.loads((tmp_path / "league" / "match.json").read_text()))
    assert cli_main(["export", str(SAMPLE_LOG), "--format", "league"]) == 2
    assert "output folder" in capsys.readouterr().err
    assert cli_main(["export", str(tmp_path / "none"), "--format", "league"]) == 2
    assert "no such folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert cli_main(["export", str(tmp_path / "empty"), "--format", "league"]) == 2
    assert "neither match.sqlite nor match.log.jsonl" in capsys.readouterr().err
