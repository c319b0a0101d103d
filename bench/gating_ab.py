"""Change-gated detection against the full search, on the same videos: same calls, same
strike times and first contacts?

    POOLTOOL_HOME=/tmp/pooltool python bench/gating_ab.py [SCENARIO ...]

Each scripted scenario (default: a few with close contacts, pots and a ball off the table) is
rendered once through the overhead camera (seed 0, 25 fps, 1920x1080), then refereed twice
from that one video with its operator inputs: every frame searched whole
(``gated=False``) and with the change-gated detector (``gated=True``). Compared stroke by
stroke: the calls (the decisions, whole), the stroke's start (the strike) and its first
contact (ball and time). The sample videos are compared the same way. Writes the
"Change-gated detection: same calls" section of docs/BENCHMARKS.md.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT = ("break_off", "wrong_ball_first", "touching_ball", "ball_in_jaws", "in_off",
           "off_table")


def _strokes(res) -> list[tuple]:
    out = []
    for s in res.shots:
        first = next((e for e in s.events if str(e.type) == "contact" and "white" in e.balls), None)
        out.append((s.t_start, first.balls if first else None, first.t if first else None))
    return out


def _calls(res) -> list[str]:
    return [json.dumps(d, sort_keys=True, default=str) for d in res.decisions]


def compare(video: Path, log: Path | None) -> dict:
    from tracker.pipeline import inputs_from_log, process_video, spoken_from_log

    kw = {"players": ("Ann", "Bob"), "progress": False}
    if log is not None and log.exists():
        kw.update(inputs=inputs_from_log(log), spoken=spoken_from_log(log))
    t0 = time.perf_counter()
    full = process_video(video, None, gated=False, **kw)
    t1 = time.perf_counter()
    gated = process_video(video, None, **kw)
    t2 = time.perf_counter()
    a, b = _strokes(full), _strokes(gated)
    dt_strike = [abs(x[0] - y[0]) for x, y in zip(a, b, strict=False) if x[0] and y[0]]
    dt_contact = [abs(x[2] - y[2]) for x, y in zip(a, b, strict=False) if x[2] and y[2]]
    return {"strokes": (len(a), len(b)), "same_calls": _calls(full) == _calls(gated),
            "same_first_ball": [x[1] for x in a] == [y[1] for y in b],
            "strike_dt_max": max(dt_strike, default=0.0),
            "contact_dt_max": max(dt_contact, default=0.0),
            "full_s": t1 - t0, "gated_s": t2 - t1}


def main() -> int:
    names = sys.argv[1:] or list(DEFAULT)
    from calibration.camera import CameraModel
    from calibration.table import STANDARD_TABLE as T
    from tracker.synth.physics import Physics
    from tracker.synth.render import RenderStyle
    from tracker.synth.scenarios import SCENARIOS, build
    from tracker.synth.video import write_clip

    cam = CameraModel.overhead(T.length, T.width)
    physics = Physics()
    rows = []
    for name in ("overhead_frame", "overhead_miss", "overhead_free_ball", "broadcast_pots"):
        v = ROOT / "sample_videos" / f"{name}.mp4"
        rows.append((f"sample {name}", compare(v, v.with_suffix(".log.jsonl"))))
        print(rows[-1], flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            what = SCENARIOS[name][0]
            world = build(name, seed=0, physics=physics, players=("Ann", "Bob"))
            write_clip(world, cam, Path(tmp), name, RenderStyle(seed=0), progress=False,
                       description=what)
            rows.append((f"scenario {name}", compare(Path(tmp) / f"{name}.mp4",
                                                     Path(tmp) / f"{name}.log.jsonl")))
            print(rows[-1], flush=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "## Change-gated detection: same calls", "",
        f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
        f"commit `{commit}`, by `python bench/gating_ab.py`: each video refereed twice, every "
        "frame searched whole and with the change-gated detector (docs/LIVE.md); the scripted "
        "scenarios rendered once through the overhead camera (seed 0).", "",
        "| video | strokes (full / gated) | calls identical | first ball hit identical | "
        "strike time, largest difference (s) | first contact time, largest difference (s) | "
        "time full / gated (s) |", "|---|---|---|---|---|---|---|"]
    for name, r in rows:
        lines.append(f"| {name} | {r['strokes'][0]} / {r['strokes'][1]} | "
                     f"{'yes' if r['same_calls'] else '**no**'} | "
                     f"{'yes' if r['same_first_ball'] else '**no**'} | {r['strike_dt_max']:.3f} | "
                     f"{r['contact_dt_max']:.4f} | {r['full_s']:.0f} / {r['gated_s']:.0f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    from tracker.evaluate import replace_section

    replace_section(ROOT / "docs" / "BENCHMARKS.md", "Change-gated detection: same calls", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
