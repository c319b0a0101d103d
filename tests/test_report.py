"""The HTML match report: plots embedded, strokes listed in people's words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")
from tracker.cli import main  # noqa: E402
from tracker.outputs.report import gather, render  # noqa: E402
from tracker.outputs.store import MatchStore  # noqa: E402
from tracker.records.parse import read_log, record_to_dict  # noqa: E402
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


def _store_of(tmp_path, log_lines: list[dict]) -> MatchStore:
    log = tmp_path / "m.log.jsonl"
    log.write_text("".join(json.dumps(d) + "\n" for d in log_lines))
    store = MatchStore(tmp_path / "match.sqlite")
    run_id = store.new_run("overhead_frame.mp4", None, ("Ann", "Bob"))
    match = Match()
    for _, rec in read_log(log):
        store.write_record(run_id, rec, match.feed(rec))
    return store


def _sample(foul_on_5: bool = False) -> list[dict]:
    out = [record_to_dict(r) for _, r in read_log(ROOT / "sample_videos" / "overhead_frame.log.jsonl")]
    if foul_on_5:
        stroke_5 = next(d for d in out if d.get("shot") == 5)
        stroke_5["operator"] = {"fouls": [{"code": "push"}]}  # a push stroke
    return out


def test_the_highest_break_counts_a_break_that_ends_in_a_foul(tmp_path):
    """Stroke 5 a foul: Bob's break of 6 (strokes 3 and 4) ended in it; the report read 1."""
    store = _store_of(tmp_path, _sample(foul_on_5=True))
    _, frames = gather(store)
    assert frames[0].breaks() == [("Bob", 6), ("Ann", 1)]
    html = render(store)
    summary = html.split("<th>Highest break</th></tr>", 1)[1].split("</table>", 1)[0]
    cells = re.findall(r"<td>(.*?)</td>", summary)
    assert cells[-1].startswith("6"), cells
    assert "Match report: Ann 9 – 6 Bob" in html  # 4 + 4 penalties + 1: Ann 9


def test_the_title_shows_the_frames_score_and_frames_won_apart(tmp_path):
    html = render(_store_of(tmp_path, _sample()))
    title = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert "Ann 5 – 6 Bob" in title and "frame 1" in title
    assert "Frames won: Ann 0 – 0 Bob" in html


def _luminance(colour) -> float:
    from matplotlib.colors import to_rgb

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a, b) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_shot_map_legend_shows_each_colour(tmp_path, monkeypatch):
    """The 'no score' line was light grey on the legend's white: each line needs a contrast
    of 3 with the legend's background (as it shows over the cloth), the words 4.5."""
    import numpy as np
    from matplotlib.colors import to_rgba

    from tracker.outputs import report

    figs = []
    monkeypatch.setattr(report, "_png", lambda fig: figs.append(fig) or "")
    _, frames = gather(_store_of(tmp_path, _sample()))
    report.plot_shot_map(frames[0])
    legend = figs[0].axes[0].get_legend()
    face = np.array(to_rgba(legend.get_frame().get_facecolor()))
    alpha = legend.get_frame().get_alpha() if legend.get_frame().get_alpha() is not None else face[3]
    shown = alpha * face[:3] + (1 - alpha) * np.array(to_rgba("#1f7a3a")[:3])
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["scored", "no score", "foul"]
    for line in legend.get_lines():
        assert _contrast(line.get_color(), shown) >= 3.0, line.get_label()
    for text in legend.get_texts():
        assert _contrast(text.get_color(), shown) >= 4.5, text.get_text()


def test_the_report_gives_the_statistics(tmp_path):
    html = render(_store_of(tmp_path, _sample()))
    stats = html.split("Statistics: the match", 1)[1].split("</table>", 1)[0]
    row = {h: (a, b) for h, a, b in re.findall(
        r"<tr><th>([^<]*)</th><td>([^<]*)</td><td>([^<]*)</td></tr>", stats)}
    assert row["Pots (of pot attempts)"] == ("1 of 1 (100%)", "2 of 2 (100%)")
    assert row["Fouls (points given away)"] == ("0 (0)", "1 (4)")
    assert row["Highest break"] == ("1", "6")
    assert row["Points per visit"] == ("0.5 (1 in 2 visits)", "3.0 (6 in 2 visits)")
    assert "inferred" in html
    assert "<td>red, blue</td>" in html  # the break's balls, in people's words
