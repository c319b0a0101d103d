"""Strokes, pots and calls from video in the harder synthetic world (``tracker/synth/randomise.py``):
every clip a bot frame under its own random camera (overhead or TV, at either end, any height,
50-80 degree field of view, lens distortion), cloth, light, graphics and players, each strike
at a random moment within a frame interval, motion blur over the true path.

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/hard_world.py [overhead|tv|both] [CLIPS] [SECONDS] [true|auto|both] [FIRST_SEED] [--no-faults]

``--no-faults``: the draws without the real faults of ``randomise.random_faults`` (cast
shadows and the rest), as the world was before they were added (the section is then not
written into docs/ACCURACY.md).

Each clip is processed by ``process`` like a user's video twice: with the true camera given as
the profile (what perception does when the camera is right) and with the automatic
calibration of the first frame (what a user gets). Each stroke of the truth is matched to the
stroke found nearest its strike (within 0.5 s). Counted: strokes found; pots right (a potted
ball of the truth's kind into the truth's pocket in the matched stroke); pots found that did
not happen; the same call (foul, penalty) as the referee's on the truth; strokes found that
did not happen. Writes the "Harder synthetic world" section of docs/ACCURACY.md (when all
three options are the defaults' kinds) and docs/metrics-hard-world.json.
"""

from __future__ import annotations

import datetime
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MATCH_S = 0.5


def kind_of(ball: str) -> str:
    """``red`` for any red, else the ball's own name."""
    return "red" if ball.startswith("red") else ball


def true_profile(camera: Any, table: Any) -> Any:
    """A calibration profile holding the exact camera the clip was rendered with."""
    from calibration.profile import Calibration

    return Calibration(tuple(camera.image_size), table, camera, {"median": 0.0, "max": 0.0},
                       method="manual", orientation="markings", focal="estimated",
                       notes=["the synthetic world's own camera"])


def score_clip(gt: dict, res: Any, fps: float) -> dict[str, Any]:
    """Match the found strokes to the truth's; count strokes, pots and calls."""
    calls = {d["shot"]: d for d in res.decisions if d.get("shot") is not None and "error" not in d}
    used: set[int] = set()
    rows = []
    for s in gt["shots"]:
        match = min((k for k, f in enumerate(res.shots) if k not in used
                     and abs(f.t_start - s["t_strike"]) <= MATCH_S),
                    key=lambda k: abs(res.shots[k].t_start - s["t_strike"]), default=None)
        pots = Counter((kind_of(e["ball"]), e["pocket"]) for e in s["events"] if e["type"] == "pot")
        offset = (s["t_strike"] * fps) % 1.0
        row: dict[str, Any] = {"shot": s["shot"], "t": s["t_strike"], "offset_frames": round(offset, 3),
                               "found": match is not None, "pots": sum(pots.values()), "pots_right": 0}
        if match is not None:
            used.add(match)
            f = res.shots[match]
            ours = Counter((kind_of(e.ball), e.pocket) for e in f.events if e.type.value == "pot")
            row["pots_right"] = sum(min(n, ours[k]) for k, n in pots.items())
            row["pots_false"] = sum(max(0, n - pots[k]) for k, n in ours.items())
            d = calls.get(f.shot, {})
            row["same_call"] = ((bool(d.get("foul")), d.get("penalty", 0))
                                == (bool(s["decision"]["foul"]), s["decision"]["penalty"]))
            row["t_found"] = f.t_start
        rows.append(row)
    extra = [k for k in range(len(res.shots)) if k not in used]
    extra_pots = sum(1 for k in extra for e in res.shots[k].events if e.type.value == "pot")
    return {"rows": rows, "extra_strokes": len(extra), "extra_pots": extra_pots,
            "not_refereed_frames": res.not_refereed_frames, "frames": res.frames}


def totals(clips: list[dict]) -> dict[str, Any]:
    """Sums over clips of one camera kind and calibration."""
    rows = [r for c in clips for r in c["rows"]]
    found = [r for r in rows if r["found"]]
    return {"clips": len(clips), "strokes": len(rows), "found": len(found),
            "pots": sum(r["pots"] for r in rows), "pots_right": sum(r["pots_right"] for r in rows),
            "false_pots": sum(r.get("pots_false", 0) for r in rows) + sum(c["extra_pots"] for c in clips),
            "same_call": sum(r["same_call"] for r in found),
            "extra_strokes": sum(c["extra_strokes"] for c in clips),
            "frames": sum(c["frames"] for c in clips),
            "not_refereed": sum(c["not_refereed_frames"] for c in clips)}


def pct(a: int, b: int) -> str:
    return f"{a} of {b} ({a / b:.1%})" if b else "0 of 0"


def run_clip(kind: str, seed: int, seconds: float, modes: list[str], physics: Any,
             tmp: Path, faults: bool = True) -> dict[str, Any]:
    """Play, render and process one clip of the harder world; scores per calibration mode."""
    from calibration.table import STANDARD_TABLE as T
    from tracker.pipeline import VideoError, inputs_from_log, process_video, spoken_from_log
    from tracker.synth.randomise import draw
    from tracker.synth.scenarios import build
    from tracker.synth.video import write_clip

    d = draw(seed, kind, faults=faults)
    world = build("frame", seed=seed, physics=physics, players=("Ann", "Bob"), max_seconds=seconds,
                  subframe_strike=True, exposure=d.exposure, outfit=d.outfit)
    name = f"{kind}_{seed}"
    t0 = time.perf_counter()
    write_clip(world, d.camera, tmp, name, d.style, progress=False, description="harder world")
    render_s = time.perf_counter() - t0
    with gzip.open(tmp / f"{name}.gt.json.gz", "rt") as fh:
        gt = json.load(fh)
    log = tmp / f"{name}.log.jsonl"
    out: dict[str, Any] = {"kind": kind, "seed": seed, "about": d.about, "render_s": round(render_s, 1)}
    for mode in modes:
        t1 = time.perf_counter()
        try:
            res = process_video(tmp / f"{name}.mp4", None, players=("Ann", "Bob"), progress=False,
                                calibration=true_profile(d.camera, T) if mode == "true" else None,
                                inputs=inputs_from_log(log), spoken=spoken_from_log(log))
            score = score_clip(gt, res, world.fps)
        except VideoError as exc:
            score = {"rows": [{"shot": s["shot"], "t": s["t_strike"], "found": False,
                               "pots": sum(e["type"] == "pot" for e in s["events"]), "pots_right": 0}
                              for s in gt["shots"]],
                     "extra_strokes": 0, "extra_pots": 0, "not_refereed_frames": len(gt["frames"]),
                     "frames": len(gt["frames"]), "error": str(exc)}
        score["process_s"] = round(time.perf_counter() - t1, 1)
        out[mode] = score
    return out


def section(results: list[dict], kinds: list[str], modes: list[str], command: str, took: float,
            commit: str) -> str:
    """The markdown section of docs/ACCURACY.md."""
    lines = ["## Harder synthetic world", "",
             f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
             f"commit `{commit}`, by `{command}` ({took:.0f} s).", "",
             "Bot frames from the break-off, each under its own random draw of "
             "`tracker/synth/randomise.py` (docs/SYNTHETIC.md): camera overhead or TV at either end, "
             "any height, 50-80° field of view, barrel distortion; cloth greens, blue-greens, "
             "tournament blue; warm to cold, uneven light; score bar and logo; players' colours; "
             "every strike at a random moment within a frame interval, motion blur over the true "
             "path. `true camera`: the exact camera given as the profile; `automatic`: `process` "
             "calibrates the first frame itself. Truth strokes matched to the stroke found within "
             f"{MATCH_S} s of the strike.", "",
             "| camera | calibration | clips | strokes found | pots right (kind and pocket) | "
             "same call (foul, penalty) | strokes invented | pots invented | frames not refereed |",
             "|---|---|---|---|---|---|---|---|---|"]
    for kind in kinds:
        for mode in modes:
            clips = [r[mode] for r in results if r["kind"] == kind]
            s = totals(clips)
            lines.append(f"| {kind} | {'true camera' if mode == 'true' else 'automatic'} | {s['clips']} | "
                         f"{pct(s['found'], s['strokes'])} | {pct(s['pots_right'], s['pots'])} | "
                         f"{pct(s['same_call'], s['found'])} | {s['extra_strokes']} | {s['false_pots']} | "
                         f"{pct(s['not_refereed'], s['frames'])} |")
    lines += ["", "Per clip (strokes found / truth, pots right / truth, for each calibration):", "",
              "| clip | camera | size, field of view, height | cloth, light, lamps | graphics | " +
              " | ".join("true camera" if m == "true" else "automatic" for m in modes) + " |",
              "|---|---|---|---|---|" + "---|" * len(modes)]
    for r in results:
        a = r["about"]
        cells = []
        for m in modes:
            s = totals([r[m]])
            err = r[m].get("error")
            cells.append(f"{s['found']}/{s['strokes']}, {s['pots_right']}/{s['pots']}"
                         + (f" (error: {err})" if err else ""))
        lines.append(f"| {r['kind']} {r['seed']} | {a['end']}"
                     f"{', elevation ' + str(a['elevation_deg']) + '°' if 'elevation_deg' in a else ''} | "
                     f"{a['size']}, {a['hfov_deg']}°, {a['height_mm']} mm, k1 {a['k1']} | "
                     f"{a['cloth']}, {a['light']}, {a['lamps']} | {a['graphics']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    from tracker.evaluate import replace_section
    from tracker.synth.physics import Physics

    args = [a for a in sys.argv[1:] if a != "--no-faults"]
    faults = "--no-faults" not in sys.argv[1:]
    which = args[0] if args else "both"
    n_clips = int(args[1]) if len(args) > 1 else 6
    seconds = float(args[2]) if len(args) > 2 else 60.0
    cal = args[3] if len(args) > 3 else "both"
    first = int(args[4]) if len(args) > 4 else 0
    if which not in ("overhead", "tv", "both") or cal not in ("true", "auto", "both"):
        sys.exit("usage: bench/hard_world.py [overhead|tv|both] [CLIPS] [SECONDS] [true|auto|both] [FIRST_SEED]")
    kinds = ["overhead", "tv"] if which == "both" else [which]
    modes = ["true", "auto"] if cal == "both" else [cal]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    physics = Physics()
    results = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in kinds:
            for seed in range(first, first + n_clips):
                r = run_clip(kind, seed, seconds, modes, physics, Path(tmp), faults)
                results.append(r)
                print(json.dumps({"clip": f"{kind} {seed}", "about": r["about"],
                                  **{m: {k: v for k, v in totals([r[m]]).items() if k != "clips"}
                                     for m in modes}}), flush=True)
    took = time.perf_counter() - t0
    command = "python bench/hard_world.py " + " ".join(sys.argv[1:])
    text = section(results, kinds, modes, command.strip(), took, commit)
    print(text)
    out = ROOT / "docs" / "metrics-hard-world.json"
    if which == "both" and cal == "both" and first == 0 and faults:
        replace_section(ROOT / "docs" / "ACCURACY.md", "Harder synthetic world", text)
        out.write_text(json.dumps({"seconds": seconds, "clips": results}, indent=1, default=str))
    else:
        Path(tempfile.gettempdir(), "metrics-hard-world.json").write_text(
            json.dumps({"seconds": seconds, "clips": results}, indent=1, default=str))


if __name__ == "__main__":
    main()
