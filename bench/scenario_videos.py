"""Every scripted referee scenario rendered to video, refereed from the video, and compared
call by call with the referee's calls on the ground-truth shot records.

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/scenario_videos.py [overhead|broadcast]

Writes the "Scripted scenarios from video (CAMERA)" section of docs/ACCURACY.md. A call is the same
when the foul flag, the fouls called, the penalty, the points scored, the balls potted and the
next striker all match; the clips are made in a temporary folder (seed 0, 25 fps, 1920x1080).
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE as T
from tracker.evaluate import render_and_referee, replace_section
from tracker.synth.physics import Physics
from tracker.synth.scenarios import SCENARIOS, build

ROOT = Path(__file__).resolve().parents[1]


def call_key(d: dict) -> tuple:
    """What must agree between the call from video and the call from the truth."""
    return (bool(d.get("foul")), d.get("penalty", 0), tuple(sorted(d.get("potted", []))),
            tuple(sorted((d.get("points") or {}).items())), d.get("next_striker"),
            tuple(sorted(f.get("code", "") for f in d.get("fouls", []))))


def main() -> None:
    cam_name = sys.argv[1] if len(sys.argv) > 1 else "overhead"
    cam = (CameraModel.overhead(T.length, T.width) if cam_name == "overhead"
           else CameraModel.broadcast(T.length, T.width))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    physics = Physics()
    rows = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name, (what, _, _) in SCENARIOS.items():
            if name == "frame":
                continue
            world = build(name, seed=0, physics=physics, players=("Ann", "Bob"))
            gt, res = render_and_referee(world, cam, Path(tmp), name, 0, what)
            truth_calls = [o for o in world.outputs if o.get("shot") is not None]
            ours = [d for d in res.decisions if d.get("shot") is not None and "error" not in d]
            same = sum(call_key(a) == call_key(b) for a, b in zip(truth_calls, ours, strict=False))
            rows.append({"scenario": name, "what": what, "strokes": len(truth_calls),
                         "strokes_found": len(res.shots), "same_calls": same,
                         "score_exact": res.score == gt["summary"]["final_score"],
                         "review": sum(bool(d.get("needs_review")) for d in ours)})
            print(json.dumps(rows[-1]), flush=True)
    took = time.perf_counter() - t0
    n_same = sum(r["same_calls"] == r["strokes"] == r["strokes_found"] for r in rows)
    title = f"Scripted scenarios from video ({cam_name})"
    lines = [f"## {title}", "",
             f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
             f"commit `{commit}`, by `python bench/scenario_videos.py {cam_name}` ({took:.0f} s).", "",
             f"Each scripted scenario of `tracker/synth/scenarios.py` rendered through the {cam_name} "
             "camera, refereed by `process` from the video (with the operator inputs a referee "
             "would give: choices after fouls, nominations), and compared call by call (foul, "
             "fouls called, penalty, points, balls potted, next striker) with the referee's calls on the "
             f"ground-truth shot records: **{n_same} of {len(rows)} scenarios decided the same on "
             "every stroke**.", "",
             "| scenario | what | strokes (truth / found) | same calls | final score exact | calls marked for review |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['scenario']} | {r['what']} | {r['strokes']} / {r['strokes_found']} | "
                     f"{r['same_calls']} / {r['strokes']} | {'yes' if r['score_exact'] else 'no'} | "
                     f"{r['review']} |")
    text = "\n".join(lines) + "\n"
    replace_section(ROOT / "docs" / "ACCURACY.md", title, text)
    print(text)


if __name__ == "__main__":
    main()
