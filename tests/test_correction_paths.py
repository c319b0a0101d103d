"""Two more ways a stroke's call gets corrected, each checked through every output: one
current call per stroke in decisions.jsonl (read as its readers read it), the store's
``shots`` (one row per stroke, the replaced call in ``shot_history``), the JSON and CSV
exports, the live board's calls and the report.

- ``process --inputs FILE`` with a correction entry (``{"correct": 1, "action": "miss",
  "miss": true}``): the referee calls stroke 1 of the free-ball sample a foul and a miss.
- ``--resume`` after a console correction: the run is stopped (Ctrl-C, as in test_resume)
  after the console corrected stroke 1, then resumed; the correction is kept and the run
  goes on to stroke 2. And a resume after the inputs file's correction: not made twice.

The free-ball sample's stroke 1 is a foul the camera calls without a miss ("miss is the
referee's judgement; none called"); calling the miss is what a referee would correct."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import sample_camera

from tracker.cli import EXIT_INTERRUPTED, main
from tracker.corrections import current_decisions
from tracker.outputs.report import render
from tracker.outputs.store import MatchStore, export_csv, export_json
from tracker.server.app import LiveState

ROOT = Path(__file__).resolve().parents[1]
VIDEO = ROOT / "sample_videos" / "overhead_free_ball.mp4"


@pytest.fixture(scope="module")
def camera(tmp_path_factory) -> str:
    """The sample's camera, found once from its first picture (``process`` would search 8
    pictures at each start: 9 s of the 10 s a short run takes)."""
    path = tmp_path_factory.mktemp("camera") / "camera.json"
    sample_camera(VIDEO).save(path)
    return str(path)


def _stroke_calls(decisions) -> list[int]:
    return [d["shot"] for d in decisions if "foul" in d and "shot" in d]


def _check_one_call_per_stroke(out: Path, strokes: list[int]) -> dict:
    """Every output of the run in ``out`` shows one current call per stroke, stroke 1's
    being the corrected one (a miss called); returns stroke 1's current call."""
    lines = [json.loads(x) for x in (out / "decisions.jsonl").read_text().splitlines()]
    assert _stroke_calls(lines).count(1) == 2  # append-only: the first call stays
    assert _stroke_calls(current_decisions(lines)) == strokes
    one = next(d for d in current_decisions(lines) if d.get("shot") == 1 and "foul" in d)
    assert one["miss"] and one["amended"] and one["correction"]["change"] == "miss called"
    store = MatchStore(out / "match.sqlite", readonly=True)
    try:
        rid = store.latest_run()["id"]
        assert store.db.execute("SELECT COUNT(*) FROM shots WHERE run_id=?",
                                (rid,)).fetchone()[0] == len(strokes)
        assert [s["shot"] for s in store.shots(rid)] == strokes
        assert store.shots(rid)[0]["decision"]["miss"]
        history = store.shot_history(rid, 1)
        assert len(history) == 1 and not history[0]["decision"]["miss"]
        doc = export_json(store, rid)
        assert _stroke_calls(doc["decisions"]) == strokes and len(doc["corrections"]) == 1
        assert export_csv(store, rid).count("\n") == 1 + len(strokes)
        live = LiveState(store.path)
        assert live.refresh()
        listed = [c["shot"] for c in live.state["calls"] if c["shot"] is not None]
        assert sorted(listed) == strokes
        html = render(store, rid)
        assert html.count("<td>Shot 1 (Ann)") == 1 and html.count("<b>Corrected</b>") == 1
        assert "miss called" in html
    finally:
        store.close()
    return one


def test_a_correction_in_the_inputs_file_replaces_the_call_in_every_output(tmp_path, capsys,
                                                                          camera):
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text('{"correct": 1, "action": "miss", "miss": true, "when": "last", '
                      '"note": "as the console sends it"}\n')
    out = tmp_path / "run"
    assert main(["process", str(VIDEO), "--players", "Ann", "Bob", "--inputs", str(inputs),
                 "--max-frames", "135", "--calibration", camera, "--quiet", "--out", str(out)]) == 0
    said = [x for x in capsys.readouterr().out.splitlines() if x.startswith("CORRECTED: ")]
    assert len(said) == 1 and "FOUL AND A MISS" in said[0]
    one = _check_one_call_per_stroke(out, [1])
    assert one["score"] == {"Ann": 0, "Bob": 7}  # a miss does not change the points


@pytest.mark.parametrize(("line", "words"), [
    ('{"correct": "one", "action": "miss", "miss": true}', "must be a stroke number"),
    ('{"correct": 1, "action": "foul", "code": "kick"}', "not a foul the console can call"),
    ('{"correct": 1, "action": "undo"}', "nothing to take back"),
    ('{"correct": 1, "miss": true}', "give action"),
    ('{"correct": 1, "action": "miss", "miss": true, "when": "next"}', "leave out when"),
    ('{"correct": 1, "action": "miss", "miss": true, "at": 5}', "holds no at"),
])
def test_a_wrong_correction_entry_is_one_line_naming_the_line(tmp_path, capsys, line, words):
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text('{"type": "input", "version": 1, "input": "option", "choice": "play"}\n'
                      + line + "\n")
    rc = main(["process", str(VIDEO), "--inputs", str(inputs), "--quiet",
               "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and words in err and "line 2" in err and "\n" not in err, err
    assert "Traceback" not in err


def test_a_run_stopped_after_a_console_correction_resumes_with_it_kept(
        tmp_path, monkeypatch, capsys, camera):
    """The console's request goes through the store and the console bridge as from the
    console page (the HTTP part left out); the run is stopped 10 pictures after the
    correction was taken, then resumed."""
    from tracker import pipeline
    from tracker.outputs.store import StoreWriter
    from tracker.server.live import ConsoleBridge

    real_step = pipeline.RefereeRun.step
    seen: dict[str, int] = {}

    def step(self, frame, *args, **kw):
        if "asked" not in seen and len(self.result.shots) == 1:
            writer = next(li for li in self.listeners if isinstance(li, StoreWriter))
            writer.store.console_request(writer.run_id, "miss", {"miss": True, "when": "last"})
            ConsoleBridge(writer).on_frame(self, None)
            seen["asked"] = frame.index
            assert frame.index < 290  # stopped before stroke 2
        if "asked" in seen and frame.index == seen["asked"] + 10:
            raise KeyboardInterrupt
        return real_step(self, frame, *args, **kw)

    out = tmp_path / "cut"
    with monkeypatch.context() as m:
        m.setattr(pipeline.RefereeRun, "step", step)
        rc = main(["process", str(VIDEO), "--players", "Ann", "Bob", "--quiet",
                   "--max-frames", "300", "--calibration", camera,
                   "--out", str(out)])  # stroke 2 ends at 290
    assert rc == EXIT_INTERRUPTED and "--resume" in capsys.readouterr().err
    store = MatchStore(out / "match.sqlite", readonly=True)
    assert store.shots(store.latest_run()["id"])[0]["decision"]["miss"]  # taken before the stop
    store.close()
    assert main(["process", "--resume", "--quiet", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["resumed_after_strokes"] == 1 and summary["shots"] == 2
    _check_one_call_per_stroke(out, [1, 2])
    board = json.loads((out / "scoreboard.json").read_text())
    assert board["shots"] == 2


def test_a_resumed_run_does_not_apply_the_inputs_files_correction_twice(
        tmp_path, monkeypatch, capsys, camera):
    """Stopped (Ctrl-C) just after the file's correction of stroke 1 was applied, then
    resumed: stroke 1 is met again as corrected, and the correction is not made a second time
    (one replaced call in the history, two lines of stroke 1 in decisions.jsonl). Shown to
    fail without ResumedRun._corrections_due (the resumed run corrects stroke 1 again and
    says "CORRECTED" a second time)."""
    from tracker import pipeline

    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text('{"correct": 1, "action": "miss", "miss": true}\n')
    real_step = pipeline.RefereeRun.step

    def step(self, frame, *args, **kw):
        if any(d.get("amended") for d in self.result.decisions):
            raise KeyboardInterrupt
        return real_step(self, frame, *args, **kw)

    out = tmp_path / "cut"
    with monkeypatch.context() as m:
        m.setattr(pipeline.RefereeRun, "step", step)
        rc = main(["process", str(VIDEO), "--players", "Ann", "Bob", "--inputs", str(inputs),
                   "--max-frames", "135", "--calibration", camera, "--quiet", "--out", str(out)])
    assert rc == EXIT_INTERRUPTED
    capsys.readouterr()
    assert main(["process", "--resume", "--quiet", "--out", str(out)]) == 0
    assert not [x for x in capsys.readouterr().out.splitlines() if x.startswith("CORRECTED")]
    _check_one_call_per_stroke(out, [1])
