"""Batch throughput: N videos refereed by ``run_batch`` on Ray (local, this machine's cores)
against the plain loop in one process, for N = 1, 2, 4.

    python bench/batch.py [--video sample_videos/overhead_free_ball.mp4] [--n 1 2 4]

The N videos are copies of one sample (the same work each). Times are wall-clock seconds of
``run_batch`` into a fresh output folder; Ray's start (``ray.init``) is timed apart, once.
Writes the "Batch on Ray" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_free_ball.mp4"))
    ap.add_argument("--n", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--no-docs", action="store_true")
    a = ap.parse_args()
    import cv2
    import ray

    from tracker.scale.batch import run_batch

    video = Path(a.video)
    cap = cv2.VideoCapture(str(video))
    frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    work = Path(tempfile.mkdtemp(prefix="snooker-batch-"))
    rows = []
    t = time.perf_counter()
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    init_s = time.perf_counter() - t
    try:
        for n in a.n:
            src = work / f"in{n}"
            src.mkdir()
            for i in range(n):
                shutil.copy(video, src / f"v{i}.mp4")
            got = {}
            for mode in ("plain", "ray"):
                out = work / f"out{n}-{mode}"
                t = time.perf_counter()
                res = run_batch(src, out, use_ray=mode == "ray")
                got[mode] = time.perf_counter() - t
                assert res["done"] == n and res["failed"] == 0, res
            rows.append((n, got["plain"], got["ray"]))
            print(n, got, flush=True)
    finally:
        ray.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "## Batch on Ray", "",
        f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores "
        f"(shared with other work), commit `{commit}`, by `python bench/batch.py`: N copies of "
        f"`{video.name}` ({frames} frames, 1080p) refereed by `run_batch` (what `snooker-tracker "
        "batch` runs) into a fresh folder, the plain loop in one process against one Ray task "
        f"per video on a local Ray with {os.cpu_count()} CPUs. Ray's start (`ray.init`, once "
        f"per batch) took {init_s:.1f} s and is not in the times.", "",
        "| N videos | plain loop (s) | Ray (s) | plain (frames/s) | Ray (frames/s) | Ray / plain |",
        "|---|---|---|---|---|---|"]
    for n, p, r in rows:
        lines.append(f"| {n} | {p:.1f} | {r:.1f} | {n * frames / p:.0f} | {n * frames / r:.0f} | "
                     f"{p / r:.2f}x |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not a.no_docs:
        from tracker.evaluate import replace_section

        replace_section(ROOT / "docs" / "BENCHMARKS.md", "Batch on Ray", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
