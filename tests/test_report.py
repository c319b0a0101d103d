"""The HTML match report: plots embedded, strokes listed in people's words."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("matplotlib")
from tracker.cli import main  # noqa: E402
from tracker.outputs.report import gather  # noqa: E402
from tracker.outputs.store import MatchStore  # noqa: E402
from tracker.records.parse import read_log  # noqa: E402
from tracker.rules.match import Match  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_report_of_the_sample_frame(tmp_path, capsys):
    store = MatchStore(tmp_path / "match.sqlite")
    run_id = store.new_run("overhead_frame.mp4", None, ("Ann", "Bob"))
    match = Match()
    for _, rec in read_log(ROOT / "sample_videos" / "overhead_frame.log.jsonl"):
        store.write_record(run_id, rec, match.feed(rec))
    _, frames = gather(store)
    fr = frames[0]
    assert fr.score_progression() == {"Ann": [0, 0, 4, 4, 4, 4, 5], "Bob": [0, 0, 0, 1, 6, 6, 6]}
    assert ("Bob", 6) in fr.breaks() and ("Ann", 1) in fr.breaks()
    assert sorted(k for k, _ in fr.pots()) == ["blue", "red", "red", "red", "white"]
    out = tmp_path / "report.html"
    assert main(["report", str(tmp_path), "--out", str(out)]) == 0
    html = out.read_text()
    assert html.count("data:image/png;base64,") == 5
    assert "red_0" not in html.split("<table>", 1)[1]  # people's words in the stroke list
    assert "Review:" in html


def test_report_of_a_missing_store_is_one_line(tmp_path, capsys):
    assert main(["report", str(tmp_path / "nothing"), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "no match store there" in err and "Traceback" not in err
