"""Pipeline speed against the decode-only rate, measured in one run.

    python bench/pipeline_speed.py [--video sample_videos/overhead_frame.mp4] [--baseline DIR] [--runs N]

In one process, one after the other on the same file: decode only (OpenCV, every frame);
``process_video`` as it was before change-gated detection and the decoder thread
(``gated=False, decode_thread=False``); ``process_video`` as it is (both on). With
``--baseline DIR`` (a checkout of an older commit) the same pipeline measurement runs on that
code too, in a child process, between the others. Each pipeline figure is frames per second
of wall-clock time from the first frame's processing to the end (calibration and start-up,
once per video, reported apart). Also where each millisecond goes (per stage, per frame)
and how often the gated detector took each path.

With ``--runs N`` (default 3) the pipeline as it is runs N times, each between two decode-only
measurements (its ratio against their mean): the run with the median ratio fills the tables
and every run's ratio is listed (the machine is shared; one run's ratio swings by several
points).

Writes the "Pipeline speed" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import decode_only, operator_inputs  # noqa: E402
from bench.runinfo import run_info  # noqa: E402

_CHILD = r"""
import json, sys, time
from tracker.pipeline import RunListener, inputs_from_log, process_video, spoken_from_log
video, log = sys.argv[1], sys.argv[2]
first = []
class L(RunListener):
    def on_frame(self, run, view):
        if not first:
            first.append(time.perf_counter())
t0 = time.perf_counter()
res = process_video(video, None, players=("Ann", "Bob"), progress=False, inputs=inputs_from_log(log),
                    spoken=spoken_from_log(log), listeners=[L()])
t1 = time.perf_counter()
print(json.dumps({"frames": res.times.frames, "loop_s": t1 - first[0], "startup_s": first[0] - t0,
                  "score": res.score}))
"""


def pipeline(path: Path, **kw) -> dict:
    from tracker.pipeline import RunListener, process_video

    first: list[float] = []
    runs: list = []

    class L(RunListener):
        def on_frame(self, run, view):
            if not first:
                first.append(time.perf_counter())
                first_cpu.append(time.process_time())
                runs.append(run)

    first_cpu: list[float] = []
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    res = process_video(path, None, players=("Ann", "Bob"), progress=False, listeners=[L()],
                        **operator_inputs(path.with_suffix(".log.jsonl")), **kw)
    t1 = time.perf_counter()
    run = runs[0]
    st = res.times
    n = st.frames
    ms = {k: 1000.0 * getattr(st, k) / n for k in ("decode", "monitor", "detect", "track",
                                                    "events", "referee")}
    return {"frames": n, "loop_s": t1 - first[0], "startup_s": first[0] - t0,
            "cpu_s": time.process_time() - cpu0, "loop_cpu_s": time.process_time() - first_cpu[0],
            "score": res.score, "shots": len(res.shots),
            "ms": ms, "gate": run.gate.stats.as_dict() if run.gate is not None else None}


def _stage_lines(before: dict, after: dict, dec_cpu_ms: float) -> list[str]:
    """The section's rows per stage, the gated detector's frames and the CPU per frame
    (``before``: gating off, serial decode; ``after``: as it is)."""
    lines: list[str] = []
    for k in ("decode", "monitor", "detect", "track", "events", "referee"):
        lines.append(f"| {k} | {before['ms'][k]:.2f} | {after['ms'][k]:.2f} |")
    lines += [f"| **per frame, all in (wall clock of the loop)** | "
              f"**{1000 * before['loop_s'] / before['frames']:.2f}** | "
              f"**{1000 * after['loop_s'] / after['frames']:.2f}** |"]
    g = after["gate"]
    if g:
        lines += ["", f"The gated detector on this clip: {g['still']:.0f} still frames (nothing "
                  f"changed: {g['still_ms']:.2f} ms each), {g['partial']:.0f} partial (only boxes "
                  f"around changes searched: {g['partial_ms']:.2f} ms each), {g['full']:.0f} full "
                  f"({g['full_ms']:.1f} ms each: every 4 s, and when much changed).",
                  f"CPU time of the whole process: {before['cpu_s']:.1f} s before, "
                  f"{after['cpu_s']:.1f} s after (decoder thread included)."]
    cpu_ms = 1000.0 * after["loop_cpu_s"] / (after["frames"] - 1)
    lines += ["", f"CPU per frame (less swayed by other work on the machine than wall-clock "
              f"rates): decode only {dec_cpu_ms:.2f} ms, whole pipeline {cpu_ms:.2f} ms "
              f"(decoding included, start-up not): on one core alone the pipeline would run at "
              f"{dec_cpu_ms / cpu_ms:.0%} of the decode-only rate; with the decoder on a "
              "second core, at the rate of the slower of the two threads."]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--baseline", help="a checkout of an older commit to measure too")
    ap.add_argument("--runs", type=int, default=3, help="runs of the pipeline as it is")
    ap.add_argument("--no-docs", action="store_true")
    a = ap.parse_args()
    video = Path(a.video)

    decodes = [decode_only(video)]
    before = pipeline(video, gated=False, decode_thread=False)
    base = None
    if a.baseline:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(video),
                              str(video.with_suffix(".log.jsonl"))], capture_output=True,
                             text=True, env={**os.environ, "PYTHONPATH": a.baseline},
                             cwd=a.baseline, check=True)
        base = json.loads(out.stdout.strip().splitlines()[-1])
    runs = []  # (pipeline result, decode-only fps around it)
    for _ in range(max(1, a.runs)):
        r = pipeline(video)
        decodes.append(decode_only(video))
        (n1, s1, _), (n2, s2, _) = decodes[-2], decodes[-1]
        runs.append((r, (n1 + n2) / (s1 + s2)))
    shares = [((r["frames"] - 1) / r["loop_s"]) / d for r, d in runs]
    after, dec = runs[int(np.argsort(shares)[len(shares) // 2])]
    dec_cpu_ms = 1000.0 * sum(c for _, _, c in decodes) / sum(n for n, _, _ in decodes)
    n_dec = decodes[0][0]

    def fps(r: dict) -> float:
        return (r["frames"] - 1) / r["loop_s"]

    commit = run_info("")["commit"]
    base_commit = ""
    if a.baseline:
        base_commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=a.baseline,
                                     capture_output=True, text=True).stdout.strip()
    lines = [
        "## Pipeline speed", "",
        f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores "
        f"(shared with other work: ratios within this one run are the comparable figures), "
        f"commit `{commit}`, by `python bench/pipeline_speed.py"
        + (" --baseline CHECKOUT" if a.baseline else "") + f"`: `{video.name}` "
        f"({n_dec} frames, 1080p H.264) with its operator inputs, in one process, one after the "
        "other. Pipeline rates are frames per second of wall-clock time from the first frame's "
        "processing to the end; decode only is the mean of a measurement before and after.", "",
        "| run | frames per second | share of decode-only | start-up (s) | score |",
        "|---|---|---|---|---|",
        f"| decode only (OpenCV, every frame) | {dec:.0f} | 100 % | | |"]
    if base:
        lines.append(f"| whole pipeline at `{base_commit}` (before) | {fps(base):.0f} | "
                     f"{fps(base) / dec:.0%} | {base['startup_s']:.1f} | {base['score']} |")
    lines += [
        f"| whole pipeline, gating and decoder thread off | {fps(before):.0f} | "
        f"{fps(before) / dec:.0%} | {before['startup_s']:.1f} | {before['score']} |",
        f"| **whole pipeline (change-gated detection, decoder thread, monitor ahead)** | **{fps(after):.0f}** | "
        f"**{fps(after) / dec:.0%}** | {after['startup_s']:.1f} | {after['score']} |", "",
        f"{len(runs)} runs of the pipeline as it is, each against the decode-only rate measured "
        f"just before and after it: " + ", ".join(f"{x:.0%}" for x in shares)
        + f" (median {float(np.median(shares)):.0%}, lowest {min(shares):.0%}); the tables are "
        "the median run's.", "",
        "Where each millisecond goes (wall-clock ms per frame, in the pipeline's own thread; "
        "`decode` is the time it waited for the next frame, which the decoder thread makes "
        "almost nothing; as it is, `monitor` (the view monitor and the gate's thumbnail) runs "
        "ahead on a thread of its own, `WorkAhead`, and is not part of the loop's time):", "",
        "| stage | gating off, serial decode (ms) | as it is (ms) |", "|---|---|---|"]
    lines += _stage_lines(before, after, dec_cpu_ms)
    text = "\n".join(lines) + "\n"
    print(text)
    print(json.dumps({"decode_fps": dec, "decode_cpu_ms": dec_cpu_ms, "before": before,
                      "after": after, "baseline": base, "shares": shares},
                     default=float))
    if not a.no_docs:
        from tracker.evaluate import replace_section

        replace_section(ROOT / "docs" / "BENCHMARKS.md", "Pipeline speed", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
