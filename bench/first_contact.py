"""First contact (and strokes, pots) from video over many bot-played frames, against the exact
truth of the synthetic world.

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/first_contact.py [overhead|broadcast] [FRAMES] [SECONDS] [colour|learned|auto]

The detector is ``auto`` (what ``process`` uses) unless named; a named one writes its own
section ("First contact from video (CAMERA, DETECTOR detector)") and metrics file.

Also counted: balls called off the table or disturbed (the bot's frames have none: each one
reported is a false foul) and review notes of balls moved between strokes.

Each frame is played by the bot from the break-off with its own seed (0, 1, ...), rendered
through the camera (25 fps, 1920x1080), processed by ``process`` exactly as a user's video, and
every stroke of the truth is matched to the stroke found nearest in time (within 0.5 s of the
strike). Counted per matched stroke: the first object ball hit by the cue ball (the same ball,
and the same kind: red or which colour; the referee needs the kind), and whether the stroke's
call (foul, penalty) is the same. Cushion contacts: each of the truth's (ball kind, time) matched
to one found within 0.12 s. Writes the "First contact from video (CAMERA)" section of
docs/ACCURACY.md and docs/metrics-first-contact-CAMERA.json.
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

import numpy as np

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE as T
from tracker import balls as B
from tracker.evaluate import render_and_referee, replace_section
from tracker.synth.physics import Physics
from tracker.synth.scenarios import build

ROOT = Path(__file__).resolve().parents[1]


def truth_first(shot: dict) -> str | None:
    """The first object ball the cue ball touched in a ground-truth shot, or None."""
    for e in shot["events"]:
        if e["type"] == "contact" and B.WHITE in e["balls"]:
            return next(b for b in e["balls"] if b != B.WHITE)
    return None


def found_first(shot) -> tuple[str | None, float]:
    """(first object ball, confidence) of a shot found from video."""
    for e in shot.events:
        if e.type.value == "contact" and B.WHITE in e.balls:
            return next(b for b in e.balls if b != B.WHITE), e.confidence
    return None, 1.0


def kind(ball: str | None) -> str | None:
    return None if ball is None else ("red" if B.is_red(ball) else ball)


def main() -> None:
    cam_name = sys.argv[1] if len(sys.argv) > 1 else "overhead"
    n_frames = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 90.0
    detector = sys.argv[4] if len(sys.argv) > 4 else "auto"
    cam = (CameraModel.overhead(T.length, T.width) if cam_name == "overhead"
           else CameraModel.broadcast(T.length, T.width))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    physics = Physics()
    rows, wrong = [], []
    cushions = {"truth": 0, "found": 0, "matched": 0, "dt": []}
    # balls off the table and disturbed: the bot's frames have none, so every one reported is
    # a false foul; notes of balls moved between strokes count too (each asks a referee)
    mishaps = {"truth": 0, "found": 0, "matched": 0, "between_notes": 0, "false": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(n_frames):
            name = f"frame_{seed}"
            world = build("frame", seed=seed, physics=physics, players=("Ann", "Bob"),
                          max_seconds=seconds)
            gt, res = render_and_referee(world, cam, Path(tmp), name, seed, "bot frame", detector)
            truth_c = [(kind(e["ball"]), e["t"]) for s in gt["shots"] for e in s["events"]
                       if e["type"] == "cushion"]
            ours_c = [(kind(e.balls[0]), e.t) for f in res.shots for e in f.events
                      if e.type.value == "cushion"]
            taken: set[int] = set()
            for b, t in truth_c:
                k = next((k for k, (b2, t2) in enumerate(ours_c)
                          if k not in taken and b2 == b and abs(t2 - t) <= 0.12), None)
                if k is not None:
                    taken.add(k)
                    cushions["dt"].append(abs(ours_c[k][1] - t))
            truth_m = [(e["type"], kind(e.get("ball") or e["balls"][0]), e["t"]) for s in gt["shots"]
                       for e in s["events"] if e["type"] in ("off_table", "disturbed")]
            ours_m = [(e.type.value, kind(e.balls[0]), e.t) for f in res.shots for e in f.events
                      if e.type.value in ("off_table", "disturbed")]
            hit = [m for m in ours_m if any(m[:2] == t_[:2] and abs(m[2] - t_[2]) <= 0.5 for t_ in truth_m)]
            mishaps["truth"] += len(truth_m)
            mishaps["found"] += len(ours_m)
            mishaps["matched"] += len(hit)
            mishaps["false"] += [f"frame {seed}: {m[0]} {m[1]} at {m[2]:.1f} s" for m in ours_m if m not in hit]
            mishaps["between_notes"] += sum("between strokes" in n for f in res.shots for n in f.needs_review)
            cushions["truth"] += len(truth_c)
            cushions["found"] += len(ours_c)
            cushions["matched"] += len(taken)
            calls = {d["shot"]: d for d in res.decisions if d.get("shot") is not None and "error" not in d}
            used: set[int] = set()
            for s in gt["shots"]:
                match = None
                for k, f in enumerate(res.shots):
                    if k not in used and abs(f.t_start - s["t_strike"]) <= 0.5:
                        match = k
                        break
                row = {"frame": seed, "shot": s["shot"], "t": s["t_strike"], "truth": truth_first(s),
                       "found": match is not None}
                if match is not None:
                    used.add(match)
                    first, conf = found_first(res.shots[match])
                    ours = calls.get(res.shots[match].shot, {})
                    row.update(ours_first=first, confidence=conf,
                               same_ball=first == row["truth"], same_kind=kind(first) == kind(row["truth"]),
                               same_call=(bool(ours.get("foul")), ours.get("penalty", 0))
                               == (bool(s["decision"]["foul"]), s["decision"]["penalty"]),
                               review=bool(ours.get("needs_review")))
                    if not row["same_kind"]:
                        wrong.append(row)
                rows.append(row)
            extra = len(res.shots) - len(used)
            done = [r for r in rows if r["frame"] == seed]
            print(json.dumps({"frame": seed, "strokes": len(done), "found": sum(r["found"] for r in done),
                              "first_kind_right": sum(r.get("same_kind", False) for r in done),
                              "extra_strokes": extra}), flush=True)
            rows.append({"frame": seed, "extra_strokes": extra})
    took = time.perf_counter() - t0
    strokes = [r for r in rows if "shot" in r]
    found = [r for r in strokes if r["found"]]
    n_kind = sum(r["same_kind"] for r in found)
    n_ball = sum(r["same_ball"] for r in found)
    n_call = sum(r["same_call"] for r in found)
    extra = sum(r.get("extra_strokes", 0) for r in rows)
    wrong_unflagged = [r for r in wrong if not r["review"]]
    named = "" if detector == "auto" else f", {detector} detector"
    title = f"First contact from video ({cam_name}{named})"
    lines = [f"## {title}", "",
             f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
             f"commit `{commit}`, by `python bench/first_contact.py {cam_name} {n_frames} {seconds:g}"
             f"{'' if detector == 'auto' else ' ' + detector}` "
             f"({took:.0f} s).", "",
             f"{n_frames} frames played by the bot from the break-off (seeds 0-{n_frames - 1}, up to "
             f"{seconds:g} s of video each), rendered through the {cam_name} camera and processed "
             "like a user's video; each stroke of the truth matched to the stroke found within "
             "0.5 s of the strike.", "",
             "| measure | value |", "|---|---|",
             f"| strokes in the truth | {len(strokes)} |",
             f"| strokes found | {len(found)} ({len(found) / max(1, len(strokes)):.1%}) |",
             f"| strokes found that did not happen | {extra} |",
             f"| first object ball of the right kind (red / which colour) | {n_kind} of {len(found)} "
             f"({n_kind / max(1, len(found)):.1%}) |",
             f"| the very same ball, reds by the tracker's own numbering (which need not follow the truth's) | {n_ball} of {len(found)} "
             f"({n_ball / max(1, len(found)):.1%}) |",
             f"| same call (foul, penalty) as from the truth | {n_call} of {len(found)} "
             f"({n_call / max(1, len(found)):.1%}) |",
             f"| first contact wrong and not marked for review | {len(wrong_unflagged)} |",
             f"| cushion contacts found (recall) | {cushions['matched']} of {cushions['truth']} "
             f"({cushions['matched'] / max(1, cushions['truth']):.1%}) |",
             f"| cushion contacts reported that match the truth (precision) | {cushions['matched']} "
             f"of {cushions['found']} ({cushions['matched'] / max(1, cushions['found']):.1%}) |",
             f"| cushion contact time error, median | "
             f"{1000 * float(np.median(cushions['dt'])) if cushions['dt'] else 0:.0f} ms |",
             f"| balls off the table or disturbed, reported where none happened (false fouls) | "
             f"{len(mishaps['false'])} (in {len(found)} strokes) |",
             f"| balls off the table or disturbed in the truth, found | {mishaps['matched']} of "
             f"{mishaps['truth']} |",
             f"| review notes of a ball moved between strokes | {mishaps['between_notes']} |", ""]
    if mishaps["false"]:
        lines += ["False off-table / disturbed calls: " + "; ".join(mishaps["false"]) + ".", ""]
    if wrong:
        lines += ["Wrong first contacts: " + "; ".join(
            f"frame {r['frame']} stroke {r['shot']} at {r['t']:.1f} s: {r['truth']} read as "
            f"{r['ours_first']}{' (marked for review)' if r['review'] else ''}" for r in wrong) + ".", ""]
    text = "\n".join(lines) + "\n"
    replace_section(ROOT / "docs" / "ACCURACY.md", title, text)
    suffix = "" if detector == "auto" else f"-{detector}"
    (ROOT / "docs" / f"metrics-first-contact-{cam_name}{suffix}.json").write_text(
        json.dumps({"rows": rows, "seconds": seconds, "frames": n_frames,
                    "cushions": {k: v for k, v in cushions.items() if k != "dt"},
                    "mishaps": mishaps}, indent=1, default=str))
    print(text)


if __name__ == "__main__":
    main()
