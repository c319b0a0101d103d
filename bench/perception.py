"""Perception accuracy and pipeline speed on the bundled synthetic clips.

    .venv/bin/python bench/perception.py

Accuracy (docs/ACCURACY.md, "Perception"): ball positions at rest against the exact ground
truth, colour swaps, pots (pocket right, false pots), first contacts, final scores.
Speed (docs/BENCHMARKS.md, "Pipeline speed"): frames per second of the whole pipeline and of
each stage on the 1080p overhead clip, beside the decode-only rate of the same file.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import time
from pathlib import Path

import cv2
import numpy as np

from tracker.evaluate import call_outcome, position_errors, replace_section

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"


def positions(name: str) -> dict:
    r = position_errors(name, 5)
    e = np.array(r["errors"])
    return {"balls": r["total"], "found": r["found"], "median": float(np.median(e)),
            "p95": float(np.percentile(e, 95)), "max": float(e.max()),
            "colour_errors": r["colour_errors"], "unmatched_detections": r["unmatched_detections"]}


def decode_only(path: Path) -> float:
    cap = cv2.VideoCapture(str(path))
    n, t0 = 0, time.perf_counter()
    while True:
        ok, _ = cap.read()
        if not ok:
            break
        n += 1
    return n / (time.perf_counter() - t0)


def main() -> None:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    head = (f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
            f"commit `{commit}`, by `python bench/perception.py`.")
    clips = ["overhead_frame", "overhead_miss", "overhead_free_ball", "broadcast_pots"]
    pos = {c: positions(c) for c in clips}
    cl = {c: call_outcome(c) for c in clips}
    lines = ["## Perception", "", head, "",
             "Ball positions at rest (every 5th frame, balls at least 90 % visible) against the "
             "exact ground truth, automatic calibration, no hint:", "",
             "| clip | balls | found | median (mm) | p95 (mm) | max (mm) | colour errors | unmatched detections |",
             "|---|---|---|---|---|---|---|---|"]
    for c, r in pos.items():
        lines.append(f"| {c} | {r['balls']} | {r['found'] / r['balls']:.1%} | {r['median']:.2f} | "
                     f"{r['p95']:.2f} | {r['max']:.1f} | {r['colour_errors']} | {r['unmatched_detections']} |")
    lines += ["", "Unmatched detections are mostly hands, the cue and the player (skin reads as "
              "pink, dark clothing as black); the tracker does not take them as balls.", "",
              "Calls (`snooker-tracker process` with the clip's operator inputs: who plays after a "
              "foul, spoken nominations):", "",
              "| clip | strokes (truth / found) | pots: right pocket / truth, false | first contact right | final score (ours / truth) |",
              "|---|---|---|---|---|"]
    for c, r in cl.items():
        sc = " – ".join(f"{k} {v}" for k, v in r["score"].items())
        st = " – ".join(f"{k} {v}" for k, v in r["score_truth"].items())
        lines.append(f"| {c} | {r['strokes_truth']} / {r['strokes_found']} | "
                     f"{r['pots_right_pocket']} / {r['pots_truth']}, {r['false_pots']} | "
                     f"{r['first_contact_right']} / {r['strokes_truth']} | {sc} / {st}"
                     f"{' (exact)' if r['exact'] else ''} |")
    acc = "\n".join(lines) + "\n"
    replace_section(ROOT / "docs" / "ACCURACY.md", "Perception", acc)
    dec = decode_only(SAMPLES / "overhead_frame.mp4")
    f = cl["overhead_frame"]["fps"]
    sp = ["## Pipeline stages", "", head, "",
          "1080p overhead clip `sample_videos/overhead_frame.mp4` (1315 frames, H.264), one "
          "process; each stage's rate is frames over the seconds spent in it (the whole "
          "pipeline's wall-clock rate against decoding: \"Pipeline speed\", "
          "`bench/pipeline_speed.py`):", "",
          "| stage | frames per second |", "|---|---|",
          f"| decode only (the physical limit) | {dec:.0f} |"]
    for k in ("decode", "monitor", "detect", "track", "events", "referee"):
        sp.append(f"| {k} (within the pipeline) | {f[k]:.0f} |")
    sp.append(f"| sum of the stages | {f['total']:.0f} |")
    replace_section(ROOT / "docs" / "BENCHMARKS.md", "Pipeline stages", "\n".join(sp) + "\n")
    print(acc)
    print("\n".join(sp))
    (ROOT / "docs" / "metrics-perception.json").write_text(json.dumps({"positions": pos, "calls": {
        c: {k: v for k, v in r.items() if k != "fps"} for c, r in cl.items()},
        "speed_fps": {"decode_only": dec, **f}}, indent=1, default=float))


if __name__ == "__main__":
    main()
