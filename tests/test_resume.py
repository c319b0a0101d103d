"""``process --resume``: a run killed (SIGKILL) or interrupted (Ctrl-C) and resumed calls what
an uninterrupted run calls, line for line; a folder holding a run is never overwritten
silently; a resume that cannot be right is refused."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tracker.cli import EXIT_INTERRUPTED, main
from tracker.outputs.store import MatchStore

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"
RUN_FILES = ("match.log.jsonl", "decisions.jsonl", "scoreboard.json")


def _stored_decisions(out: Path) -> list[tuple[int, int, dict]]:
    store = MatchStore(out / "match.sqlite", readonly=True)
    try:
        run = store.latest_run()
        assert run is not None and run["status"] == "finished"
        assert len(store.runs()) == 1  # the resumed run went on in the same run
        return [(d["seq"], d["idx"], d["decision"]) for d in store.decisions(run["id"])]
    finally:
        store.close()


def _same_outputs(a: Path, b: Path, store: bool = True) -> None:
    for name in RUN_FILES:
        assert (a / name).read_text() == (b / name).read_text(), name
    if store:
        assert _stored_decisions(a) == _stored_decisions(b)


def test_a_killed_run_resumed_calls_what_an_uninterrupted_run_calls(tmp_path):
    """The overhead sample frame's first 30 s (four strokes, an operator input between the
    second and third): killed with SIGKILL once two strokes are stored, then resumed."""
    args = [str(SAMPLES / "overhead_frame.mp4"), "--players", "Ann", "Bob",
            "--inputs", str(SAMPLES / "overhead_frame.log.jsonl"), "--max-frames", "750",
            "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cli = [sys.executable, "-m", "tracker.cli", "process"]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    subprocess.run([*cli, *args, "--out", str(whole)], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    strokes = sum('"type": "shot"' in x for x in (whole / "match.log.jsonl").open())
    assert strokes == 4

    proc = subprocess.Popen([*cli, *args, "--out", str(cut)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db, n, deadline = cut / "match.sqlite", 0, time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None and n < 2:
            time.sleep(0.2)
            try:
                n = sqlite3.connect(db).execute("SELECT COUNT(*) FROM shots").fetchone()[0]
            except sqlite3.Error:
                continue
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert 2 <= n < strokes, "the run ended or stalled before the kill"
    assert not (cut / "scoreboard.json").exists()

    again = subprocess.run([*cli, "--resume", "--out", str(cut), "--quiet"], env=env,
                           capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout.splitlines()[-1])
    assert summary["resumed_after_strokes"] == n and summary["shots"] == strokes
    printed = [x for x in again.stdout.splitlines() if x.startswith("Shot ")]
    assert [int(x.split()[1]) for x in printed] == list(range(n + 1, strokes + 1))  # only new
    _same_outputs(whole, cut)


@pytest.fixture(scope="module")
def free_ball_whole(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("whole") / "run"
    assert main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--players", "Ann", "Bob",
                 "--no-store", "--quiet", "--out", str(out)]) == 0
    return out


def _interrupted_at(frame_index: int, out: Path, monkeypatch, capsys) -> None:
    from tracker import pipeline

    real_step = pipeline.RefereeRun.step

    def step(self, frame, *args, **kw):
        if frame.index == frame_index:
            raise KeyboardInterrupt
        return real_step(self, frame, *args, **kw)

    with monkeypatch.context() as m:
        m.setattr(pipeline.RefereeRun, "step", step)
        rc = main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--players", "Ann",
                   "Bob", "--no-store", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == EXIT_INTERRUPTED and "--resume" in err


def test_ctrl_c_then_resume_from_the_jsonl_log_calls_what_an_uninterrupted_run_calls(
        free_ball_whole, tmp_path, monkeypatch, capsys):
    """Without the match store (--no-store) the JSONL log is what a resume goes on from."""
    out = tmp_path / "cut"
    _interrupted_at(150, out, monkeypatch, capsys)  # after the first stroke (ends at 4.8 s)
    board = json.loads((out / "scoreboard.json").read_text())
    assert board["video_end"] == "interrupted" and board["shots"] == 1
    assert main(["process", "--resume", "--quiet", "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["resumed_after_strokes"] == 1 and summary["shots"] == 2
    _same_outputs(free_ball_whole, out, store=False)


def test_a_resume_the_video_no_longer_supports_is_refused_and_changes_nothing(
        tmp_path, monkeypatch, capsys):
    out = tmp_path / "cut"
    _interrupted_at(150, out, monkeypatch, capsys)
    log = out / "match.log.jsonl"
    lines = log.read_text().splitlines()
    shot = json.loads(lines[1])
    shot["t_end"] += 0.5  # as if the first run had seen the stroke end elsewhere
    lines[1] = json.dumps(shot)
    log.write_text("\n".join(lines) + "\n")
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "run.json"}
    rc = main(["process", "--resume", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and "cannot resume" in err and "stroke 1" in err and "--force" in err
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.name != "run.json"}
    assert after.keys() >= {"match.log.jsonl", "decisions.jsonl"}
    assert after["match.log.jsonl"] == before["match.log.jsonl"]


def test_a_finished_run_is_not_resumed_nor_overwritten(free_ball_whole, tmp_path, capsys):
    out = tmp_path / "done"
    shutil.copytree(free_ball_whole, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main(["process", "--resume", "--quiet", "--out", str(out)]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    assert main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--quiet",
                 "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_resume_takes_the_runs_own_options(free_ball_whole, tmp_path, capsys):
    out = tmp_path / "done"
    shutil.copytree(free_ball_whole, out)
    (out / "scoreboard.json").unlink()  # as if cut off
    assert main(["process", "--resume", "--players", "Cy", "Di", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--players" in err and "Ann" in err
    assert main(["process", "--resume", "--force", "--out", str(out)]) == 2


def test_force_replaces_the_jsonl_files_and_the_store_keeps_both_runs(tmp_path, capsys):
    out = tmp_path / "o"
    video = str(SAMPLES / "overhead_miss.mp4")
    assert main(["process", video, "--max-frames", "5", "--quiet", "--out", str(out)]) == 0
    assert main(["process", video, "--max-frames", "5", "--quiet", "--out", str(out)]) == 2
    assert main(["process", video, "--max-frames", "6", "--quiet", "--force",
                 "--out", str(out)]) == 0
    assert json.loads((out / "scoreboard.json").read_text())["frames"] == 6
    assert len(MatchStore(out / "match.sqlite", readonly=True).runs()) == 2


def test_a_run_stopped_before_its_first_call_says_nothing_was_kept(tmp_path, monkeypatch, capsys):
    """Interrupted while the camera is still being found (before the run's first record: no
    run.json, so --resume would find no run): the message says nothing was kept instead of
    offering --resume (issue 28). Shown to fail with the old words ('the calls so far are kept
    ... --resume')."""
    from tracker.pipeline import process as process_module

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    out = tmp_path / "early"
    monkeypatch.setattr(process_module, "find_start", interrupted)
    rc = main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--players", "Ann", "Bob",
               "--no-store", "--quiet", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == EXIT_INTERRUPTED
    assert "nothing was kept" in err and "--resume" not in err


def test_a_second_process_on_a_folder_in_use_is_refused(tmp_path, capsys):
    """While one process holds the --out folder (its lock taken, as a running `process` holds
    it), a second `process` into it is refused in one line and writes nothing there, with or
    without --force (issue 28: both used to run to the end into one folder, exit 0, one's
    JSONL files replacing the other's). Shown to fail with hold_folder not called."""
    import subprocess
    import sys
    import time

    out = tmp_path / "busy"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c",
                               "import sys, time; from pathlib import Path; "
                               "from tracker.cli.process import hold_folder; "
                               f"f = hold_folder(Path({str(out)!r})); print('held', flush=True); "
                               "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        for extra in ([], ["--force"]):
            rc = main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--quiet",
                       "--max-frames", "5", "--out", str(out), *extra])
            err = capsys.readouterr().err
            assert rc == 2 and "another snooker-tracker process" in err, err
            assert f"process {holder.pid}" in err
        assert time.monotonic() - t0 < 30
        assert sorted(p.name for p in out.iterdir()) == [".process.lock"]
    finally:
        holder.kill()
        holder.wait()
    assert main(["process", str(SAMPLES / "overhead_free_ball.mp4"), "--quiet",
                 "--max-frames", "5", "--out", str(out)]) == 0  # free again once it ended
