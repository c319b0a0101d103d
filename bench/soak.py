"""A table's long day through ``process`` at file speed: memory, threads, open files, the store,
and a run killed at a random moment then resumed (issue 28's soak).

    .venv/bin/python bench/soak.py [--copies N] [--dir DIR] [--seed S] [--write-doc]

The day is the synthetic match (``bench/match_video.py`` renders it into out/match-video: three
6-red frames, re-racks by hand, an idle minute with an empty table and one with people walking
past, a knocked camera; 10.2 min at 1280x720) played N times end to end (ffmpeg's concat, no
re-encoding), refereed as one run with the match set up once and ``--again`` (the same players
play another match when one is over). Measured on the unbroken run, from /proc every second:
resident memory, threads and open files after the first frame is over and at the end; then the
store (``PRAGMA integrity_check``, one ``shots`` row per stroke). Every reading is kept in
docs/metrics-soak.json; besides the single readings (just after the first frame's end, at the
end) the doc compares readings at comparable moments: each frame's end (the same moment of the
same match video, match after match) and the highest and lowest reading in each match. A
second run into another folder is killed (SIGKILL) at a random moment (its seed printed, and
given with ``--seed`` to repeat it) and resumed with ``--resume``; its current calls must equal
the unbroken run's, call for call.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from runinfo import run_info  # noqa: E402

from tracker.corrections import current_decisions  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402

SECTION = "A table's long day (soak)"
SET_UP = ["--players", "Ann", "Bob", "--best-of", "3", "--ruleset", "snooker-6-reds",
          "--breaker", "Ann", "--again", "--quiet"]  # the product's own memory settings


def make_day(match_dir: Path, folder: Path, copies: int) -> Path:
    """``copies`` of the match video end to end (stream copy) in ``folder/day.mp4``."""
    import imageio_ffmpeg

    src = match_dir / "match.mp4"
    if not src.exists():
        raise SystemExit(f"{src} is missing: render it first with `python bench/match_video.py`")
    folder.mkdir(parents=True, exist_ok=True)
    listing = folder / "day.txt"
    listing.write_text("".join(f"file '{src.resolve()}'\n" for _ in range(copies)))
    day = folder / "day.mp4"
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-y", "-loglevel", "error", "-f", "concat",
                    "-safe", "0", "-i", str(listing), "-c", "copy", str(day)], check=True)
    return day


def proc_sample(pid: int) -> dict[str, int] | None:
    """Resident memory (kB), threads and open files of process ``pid`` (None: gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        fds = len(list(Path(f"/proc/{pid}/fd").iterdir()))
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if "VmRSS" not in fields:  # exited, not yet reaped
        return None
    return {"rss_kb": int(fields["VmRSS"].split()[0]), "threads": int(fields["Threads"]),
            "open_files": fds}


def frames_over(decisions: Path) -> int:
    """How many frames' ends the run's decisions hold so far."""
    if not decisions.exists():
        return 0
    return decisions.read_text().count('"frame_end":')


def watched_run(day: Path, out: Path, kill_after_s: float | None = None,
                every_s: float = 60.0) -> dict[str, Any]:
    """``process`` on ``day`` into ``out``, sampled every second (the resident memory kept
    every ``every_s`` seconds for the doc, and every second in ``rss_each_s``); killed after
    ``kill_after_s`` seconds when given."""
    cmd = [sys.executable, "-m", "tracker.cli", "process", str(day), "--out", str(out), *SET_UP]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    after_first: dict[str, int] | None = None
    last: dict[str, int] | None = None
    peak = 0
    series: list[tuple[float, int]] = []  # (s since the start, resident kB) every every_s
    each: list[tuple[float, int]] = []  # the same every second
    first_over_s: float | None = None
    frame_ends: list[tuple[float, int]] = []  # (s, resident kB) at each frame's end, in order
    while p.poll() is None:
        time.sleep(1.0)
        s = proc_sample(p.pid)
        if s is not None:
            last, peak = s, max(peak, s["rss_kb"])
            now = time.perf_counter() - t0
            each.append((round(now, 1), s["rss_kb"]))
            if not series or now - series[-1][0] >= every_s:
                series.append((round(now, 1), s["rss_kb"]))
            ended = frames_over(out / "decisions.jsonl")
            if ended > len(frame_ends):
                frame_ends += [(round(now, 1), s["rss_kb"])] * (ended - len(frame_ends))
            if after_first is None and ended:
                after_first, first_over_s = s, round(now, 1)
        if kill_after_s is not None and time.perf_counter() - t0 >= kill_after_s:
            p.send_signal(signal.SIGKILL)
            p.wait()
            break
    err = p.stderr.read() if p.stderr else ""
    return {"exit": p.returncode, "seconds": round(time.perf_counter() - t0, 1),
            "after_first_frame": after_first, "at_end": last, "peak_rss_kb": peak,
            "rss_series": series, "rss_each_s": each, "first_frame_over_s": first_over_s,
            "rss_at_frame_ends": frame_ends,
            "stderr_tail": err.strip().splitlines()[-2:]}


def store_check(out: Path) -> dict[str, Any]:
    """The run's store: integrity, strokes with more than one current row, runs."""
    db = sqlite3.connect(f"file:{out / 'match.sqlite'}?mode=ro", uri=True)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        doubled = db.execute("SELECT COUNT(*) FROM (SELECT run_id, shot FROM shots GROUP BY "
                             "run_id, shot HAVING COUNT(*) > 1)").fetchone()[0]
        strokes = db.execute("SELECT COUNT(*) FROM shots").fetchone()[0]
    finally:
        db.close()
    return {"integrity": integrity, "strokes_with_two_rows": doubled, "shots_rows": strokes}


def calls(out: Path) -> list[dict[str, Any]]:
    """The run's current calls (a correction replacing what it corrects)."""
    lines = (out / "decisions.jsonl").read_text().splitlines()
    return current_decisions(json.loads(x) for x in lines if x.strip())


def frames_and_matches(cs: list[dict[str, Any]]) -> dict[str, int]:
    """Frames started and ended, and matches won, in a run's calls."""
    return {"frames_started": sum(1 for d in cs if "frame_start" in d),
            "frames_ended": sum(1 for d in cs if "frame_end" in d),
            "matches_ended": sum(1 for d in cs if "frame_end" in d and d.get("match_over")),
            "strokes": sum(1 for d in cs if "shot" in d)}


def kill_and_resume(day: Path, folder: Path, unbroken_s: float, seed: int) -> dict[str, Any]:
    """A run killed at a seeded moment between 20 % and 80 % of the unbroken run's time, then
    ``--resume``d to the end."""
    at = round(random.Random(seed).uniform(0.2, 0.8) * unbroken_s, 1)
    out = folder / "killed"
    killed = watched_run(day, out, kill_after_s=at)
    before = len(calls(out)) if (out / "decisions.jsonl").exists() else 0
    cmd = [sys.executable, "-m", "tracker.cli", "process", str(day), "--out", str(out),
           "--resume", "--quiet"]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return {"seed": seed, "killed_after_s": at, "killed_exit": killed["exit"], "calls_before_kill": before,
            "resume_exit": res.returncode, "resume_seconds": round(time.perf_counter() - t0, 1),
            "resume_stderr": res.stderr.strip().splitlines()[-2:]}


def doc_section(fig: dict[str, Any], info: dict[str, Any]) -> str:
    """The ACCURACY.md section."""
    u, k, s = fig["unbroken"], fig.get("resumed"), fig["store"]
    a, e = u["after_first_frame"] or {}, u["at_end"] or {}
    growth = (e.get("rss_kb", 0) / a["rss_kb"] - 1) * 100 if a.get("rss_kb") else float("nan")
    lines = [
        f"## {SECTION}", "",
        f"Measured {info['date']} on {info['machine']}, commit `{info['commit']}`, by "
        f"`{info['command']}` ({info['seconds']} s in all). The day: the synthetic match "
        f"(`bench/match_video.py`) {fig['copies']} times end to end, {fig['day_minutes']:.0f} "
        "min of 1280x720 video, refereed as one run at file speed with the match set up once "
        "and `--again`.", "",
        "| | after the first frame | at the end |", "|---|---|---|",
        f"| resident memory (MB) | {a.get('rss_kb', 0) / 1024:.0f} | "
        f"{e.get('rss_kb', 0) / 1024:.0f} ({growth:+.1f} %) |",
        f"| threads | {a.get('threads', '?')} | {e.get('threads', '?')} |",
        f"| open files | {a.get('open_files', '?')} | {e.get('open_files', '?')} |", "",
        f"Resident memory every {fig.get('every_s', 30):.0f} s of the run (s: MB): " + ", ".join(
            f"{t:.0f}: {kb / 1024:.0f}" for t, kb in u.get("rss_series", [])) + ".",
        *_after_first_match(u, fig["copies"]), *_highest_each_end(u),
        *_each_match(u, fig["copies"]), *_at_frame_ends(u), "",
        f"Unbroken run: exit {u['exit']}, {u['seconds']} s; {fig['counts']['frames_started']} "
        f"frames started, {fig['counts']['frames_ended']} ended, "
        f"{fig['counts'].get('matches_ended', '?')} matches over, {fig['counts']['strokes']} "
        f"strokes called. Store: integrity `{s['integrity']}`, {s['strokes_with_two_rows']} "
        f"strokes with more than one current row ({s['shots_rows']} rows).", ""]
    if k is None:
        lines.append("No run was killed and resumed in this measurement (`--no-resume`).")
    else:
        lines.append(
            f"Killed (SIGKILL) after {k['killed_after_s']} s (seed {k['seed']}) with {k['calls_before_kill']} "
            f"calls written, resumed (`--resume`, exit {k['resume_exit']}, "
            f"{k['resume_seconds']} s): its calls "
            f"{'equal' if fig['same_calls'] else 'differ from'} the unbroken run's "
            f"({fig['resumed_calls']} against {fig['unbroken_calls']}).")
    return "\n".join(lines) + "\n"


def _after_first_match(u: dict[str, Any], copies: int) -> list[str]:
    """The memory's growth from the end of the first match (a ``copies``-th of the run) to the
    end, as a sentence (none when the series is too short)."""
    series = u.get("rss_series", [])
    later = [kb for t, kb in series if t >= u["seconds"] / copies]
    if len(later) < 2 or copies < 2:
        return []
    return [f"From the end of the first match ({later[0] / 1024:.0f} MB) to the end: "
            f"{(later[-1] / later[0] - 1) * 100:+.1f} %."]


def _each_match(u: dict[str, Any], copies: int) -> list[str]:
    """The highest and lowest resident memory in each ``copies``-th of the run (one match
    each), as sentences (none without the per-second samples)."""
    each = u.get("rss_each_s") or []
    if len(each) < copies * 10 or copies < 2:
        return []
    n = len(each) // copies
    parts = [[kb for _, kb in each[i * n:(i + 1) * n]] for i in range(copies)]
    return [f"Highest in each match (a {copies}th of the run, MB): "
            + ", ".join(f"{max(x) / 1024:.0f}" for x in parts) + "; lowest: "
            + ", ".join(f"{min(x) / 1024:.0f}" for x in parts) + "."]


def _at_frame_ends(u: dict[str, Any], per_match: int = 3) -> list[str]:
    """Resident memory at each frame's end (the same moments of the same match video, match
    after match: ``per_match`` frames each), as sentences (none when no frame ended)."""
    ends = [kb for _, kb in u.get("rss_at_frame_ends") or []]
    if not ends:
        return []
    rows = [ends[i:i + per_match] for i in range(0, len(ends), per_match)]
    first, last = ends[0], ends[-1]
    return [f"At each frame's end (MB, a match's {per_match} frames together): "
            + "; ".join(", ".join(f"{kb / 1024:.0f}" for kb in r) for r in rows)
            + f". The last frame's end against the first's: {(last / first - 1) * 100:+.1f} %;"
            f" the first frame's end of the last match against the first match's: "
            f"{(rows[-1][0] / first - 1) * 100:+.1f} %."]


def _highest_each_end(u: dict[str, Any], window_s: float = 60.0) -> list[str]:
    """The highest resident memory in the ``window_s`` seconds after the first frame's end
    and in the last ``window_s`` seconds of the run, as a sentence (none without the
    per-second samples). The frames read ahead (up to two queues of
    :func:`tracker.live.look_ahead_frames` pictures) come and go from one second to the next,
    so a single sample depends on how full they happen to be; the highest over a minute
    does not."""
    each, t0 = u.get("rss_each_s") or [], u.get("first_frame_over_s")
    if not each or t0 is None:
        return []
    first = [kb for t, kb in each if t0 <= t < t0 + window_s]
    last = [kb for t, kb in each if t > each[-1][0] - window_s]
    if not first or not last:
        return []
    a, e = max(first), max(last)
    return [f"Highest in the {window_s:.0f} s after the first frame's end: {a / 1024:.0f} MB; "
            f"highest in the last {window_s:.0f} s: {e / 1024:.0f} MB ({(e / a - 1) * 100:+.1f} %)."]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--copies", type=int, default=12, help="matches in the day (12: about 2 h)")
    ap.add_argument("--dir", default=str(ROOT / "out" / "soak"))
    ap.add_argument("--match-dir", default=str(ROOT / "out" / "match-video"))
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the moment the second run is killed (default: drawn at random"
                         " and printed)")
    ap.add_argument("--every", type=float, default=60.0,
                    help="seconds between the resident memory figures in the doc")
    ap.add_argument("--no-resume", action="store_true", help="skip the killed-and-resumed run")
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    commit = run_info("")["commit"]  # the code measured (commits may follow during a long soak)
    folder = Path(args.dir)
    for old in ("unbroken", "killed"):  # the runs of an earlier soak are replaced
        shutil.rmtree(folder / old, ignore_errors=True)
    day = make_day(Path(args.match_dir), folder, args.copies)
    truth = json.loads((Path(args.match_dir) / "match.truth.json").read_text())
    unbroken = watched_run(day, folder / "unbroken", every_s=args.every)
    print(json.dumps({"unbroken": unbroken}), flush=True)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    print(f"the killed run's moment: seed {seed}", flush=True)
    fig: dict[str, Any] = {"copies": args.copies, "every_s": args.every,
                           "day_minutes": args.copies * truth["duration_s"] / 60,
                           "unbroken": unbroken, "store": store_check(folder / "unbroken")}
    ref = calls(folder / "unbroken")
    fig["counts"], fig["unbroken_calls"] = frames_and_matches(ref), len(ref)
    if not args.no_resume:
        fig["resumed"] = kill_and_resume(day, folder, unbroken["seconds"], seed)
        got = calls(folder / "killed")
        fig["resumed_calls"], fig["same_calls"] = len(got), got == ref
    info = run_info(("python bench/soak.py " + " ".join(argv or sys.argv[1:])).rstrip(),
                    time.perf_counter() - t0)
    info["commit"] = commit
    fig.update(info)
    print(json.dumps(fig, default=str))
    (ROOT / "docs" / "metrics-soak.json").write_text(json.dumps(fig, indent=1, default=str))
    if args.write_doc:
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, doc_section(fig, info))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
