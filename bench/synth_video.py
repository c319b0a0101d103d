"""Synthetic clips rendered, refereed from the video like a user's, and compared with the
exact truth of the synthetic world: one runner for the three measures that do this.

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/synth_video.py first-contact [overhead|broadcast] [FRAMES] [SECONDS] [colour|learned|auto]
    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/synth_video.py hard-world [overhead|tv|both] [CLIPS] [SECONDS] [true|auto|both] [FIRST_SEED] [--no-faults]
    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/synth_video.py scenarios [overhead|broadcast]

(``bench/first_contact.py``, ``bench/hard_world.py`` and ``bench/scenario_videos.py`` run the
same with the same arguments.)

- ``first-contact``: bot frames from the break-off, each with its own seed (0, 1, ...), under a
  stock camera: first contacts, strokes, calls, cushion contacts, balls called off the table or
  disturbed where none were. A truth stroke is matched to the first stroke found (in time
  order) within ``common.MATCH_S`` of its strike. Writes the "First contact from video
  (CAMERA[, DETECTOR detector])" section of docs/ACCURACY.md and
  docs/metrics-first-contact-CAMERA[-DETECTOR].json.
- ``hard-world``: bot frames each under its own random camera, cloth, light, graphics and
  players (``tracker/synth/randomise.py``), processed with the true camera and with the
  automatic calibration; a truth stroke is matched to the nearest stroke found within
  ``MATCH_S``. Writes the "Harder synthetic world" section and docs/metrics-hard-world.json
  (default arguments only; else the figures go to metrics-hard-world.json in the system's
  temporary folder).
- ``scenarios``: every scripted referee scenario, its calls compared call by call with the
  referee's on the truth. Writes the "Scripted scenarios from video (CAMERA)" section.

Every clip is made in a temporary folder (25 fps, 1920x1080 for the stock cameras) and
processed by ``process`` exactly as a user's video, with the operator inputs a referee would
give.
"""

from __future__ import annotations

import gzip
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.common import (  # noqa: E402
    MATCH_S,
    match_strokes,
    measured,
    named_camera,
    operator_inputs,
    true_profile,
)
from bench.runinfo import run_info  # noqa: E402
from tracker import balls as B  # noqa: E402

MEASURES = ("first-contact", "hard-world", "scenarios")


def call_key(d: dict) -> tuple:
    """What must agree between the call from video and the call from the truth."""
    return (bool(d.get("foul")), d.get("penalty", 0), tuple(sorted(d.get("potted", []))),
            tuple(sorted((d.get("points") or {}).items())), d.get("next_striker"),
            tuple(sorted(f.get("code", "") for f in d.get("fouls", []))))


def scenarios(argv: list[str]) -> int:
    """Every scripted scenario through one stock camera; the section of docs/ACCURACY.md."""
    from tracker.evaluate import render_and_referee, replace_section
    from tracker.synth.physics import Physics
    from tracker.synth.scenarios import SCENARIOS, build

    cam_name = argv[0] if argv else "overhead"
    cam = named_camera(cam_name)
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
    run = run_info(f"python bench/synth_video.py scenarios {cam_name}", time.perf_counter() - t0)
    title = f"Scripted scenarios from video ({cam_name})"
    text = scenarios_section(title, cam_name, rows, run)
    replace_section(ROOT / "docs" / "ACCURACY.md", title, text)
    print(text)
    return 0


def scenarios_section(title: str, cam_name: str, rows: list[dict], run: dict) -> str:
    """The "Scripted scenarios from video" section."""
    n_same = sum(r["same_calls"] == r["strokes"] == r["strokes_found"] for r in rows)
    lines = [f"## {title}", "", measured(run), "",
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
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- first contact
def kind(ball: str | None) -> str | None:
    """``red`` for any red, else the ball's own name (None stays None)."""
    return None if ball is None else ("red" if B.is_red(ball) else ball)


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


def _cushions_and_mishaps(gt: dict, res, seed: int, cushions: dict, mishaps: dict) -> None:
    """Add one frame's cushion contacts (each of the truth's matched to one found of the same
    ball kind within 0.12 s) and balls off the table or disturbed (the bot's frames have none:
    each one found is a false foul) to the tallies."""
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
    cushions["truth"] += len(truth_c)
    cushions["found"] += len(ours_c)
    cushions["matched"] += len(taken)
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


def _stroke_rows(gt: dict, res, seed: int) -> tuple[list[dict], int]:
    """One frame's truth strokes, each matched to the first stroke found within ``MATCH_S``
    of its strike (in time order): its first contact and call against the truth's. Returns
    (rows, strokes found that did not happen)."""
    calls = {d["shot"]: d for d in res.decisions if d.get("shot") is not None and "error" not in d}
    match = match_strokes([s["t_strike"] for s in gt["shots"]], [f.t_start for f in res.shots],
                          nearest=False)
    rows = []
    for s, k in zip(gt["shots"], match, strict=True):
        row = {"frame": seed, "shot": s["shot"], "t": s["t_strike"], "truth": truth_first(s),
               "found": k is not None}
        if k is not None:
            first, conf = found_first(res.shots[k])
            ours = calls.get(res.shots[k].shot, {})
            row.update(ours_first=first, confidence=conf,
                       same_ball=first == row["truth"], same_kind=kind(first) == kind(row["truth"]),
                       same_call=(bool(ours.get("foul")), ours.get("penalty", 0))
                       == (bool(s["decision"]["foul"]), s["decision"]["penalty"]),
                       review=bool(ours.get("needs_review")))
        rows.append(row)
    return rows, len(res.shots) - sum(k is not None for k in match)


def first_contact(argv: list[str]) -> int:
    """Bot frames under a stock camera: first contacts, strokes, calls, cushions, mishaps."""
    from tracker.evaluate import render_and_referee, replace_section
    from tracker.synth.physics import Physics
    from tracker.synth.scenarios import build

    cam_name = argv[0] if argv else "overhead"
    n_frames = int(argv[1]) if len(argv) > 1 else 12
    seconds = float(argv[2]) if len(argv) > 2 else 90.0
    detector = argv[3] if len(argv) > 3 else "auto"
    cam = named_camera(cam_name)
    physics = Physics()
    rows: list[dict] = []
    cushions = {"truth": 0, "found": 0, "matched": 0, "dt": []}
    mishaps = {"truth": 0, "found": 0, "matched": 0, "between_notes": 0, "false": []}
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(n_frames):
            world = build("frame", seed=seed, physics=physics, players=("Ann", "Bob"),
                          max_seconds=seconds)
            gt, res = render_and_referee(world, cam, Path(tmp), f"frame_{seed}", seed,
                                         "bot frame", detector)
            _cushions_and_mishaps(gt, res, seed, cushions, mishaps)
            done, extra = _stroke_rows(gt, res, seed)
            print(json.dumps({"frame": seed, "strokes": len(done), "found": sum(r["found"] for r in done),
                              "first_kind_right": sum(r.get("same_kind", False) for r in done),
                              "extra_strokes": extra}), flush=True)
            rows += [*done, {"frame": seed, "extra_strokes": extra}]
    named = "" if detector == "auto" else f" {detector}"
    run = run_info(f"python bench/synth_video.py first-contact {cam_name} {n_frames} {seconds:g}{named}",
                   time.perf_counter() - t0)
    title = f"First contact from video ({cam_name}{'' if detector == 'auto' else f', {detector} detector'})"
    text = first_contact_section(title, cam_name, n_frames, seconds, rows, cushions, mishaps, run)
    replace_section(ROOT / "docs" / "ACCURACY.md", title, text)
    suffix = "" if detector == "auto" else f"-{detector}"
    (ROOT / "docs" / f"metrics-first-contact-{cam_name}{suffix}.json").write_text(
        json.dumps({"rows": rows, "seconds": seconds, "frames": n_frames,
                    "cushions": {k: v for k, v in cushions.items() if k != "dt"},
                    "mishaps": mishaps}, indent=1, default=str))
    print(text)
    return 0


def _share(a: int, b: int) -> str:
    return f"{a} of {b} ({a / max(1, b):.1%})"


def first_contact_section(title: str, cam_name: str, n_frames: int, seconds: float,
                          rows: list[dict], cushions: dict, mishaps: dict, run: dict) -> str:
    """The "First contact from video" section of docs/ACCURACY.md."""
    strokes = [r for r in rows if "shot" in r]
    found = [r for r in strokes if r["found"]]
    wrong = [r for r in found if not r["same_kind"]]
    dt = 1000 * float(np.median(cushions["dt"])) if cushions["dt"] else 0
    lines = [f"## {title}", "", measured(run), "",
             f"{n_frames} frames played by the bot from the break-off (seeds 0-{n_frames - 1}, up to "
             f"{seconds:g} s of video each), rendered through the {cam_name} camera and processed "
             "like a user's video; each stroke of the truth matched to the stroke found within "
             "0.5 s of the strike.", "",
             "| measure | value |", "|---|---|",
             f"| strokes in the truth | {len(strokes)} |",
             f"| strokes found | {len(found)} ({len(found) / max(1, len(strokes)):.1%}) |",
             f"| strokes found that did not happen | {sum(r.get('extra_strokes', 0) for r in rows)} |",
             "| first object ball of the right kind (red / which colour) | "
             f"{_share(sum(r['same_kind'] for r in found), len(found))} |",
             "| the very same ball, reds by the tracker's own numbering (which need not follow the "
             f"truth's) | {_share(sum(r['same_ball'] for r in found), len(found))} |",
             "| same call (foul, penalty) as from the truth | "
             f"{_share(sum(r['same_call'] for r in found), len(found))} |",
             f"| first contact wrong and not marked for review | {sum(not r['review'] for r in wrong)} |",
             f"| cushion contacts found (recall) | {_share(cushions['matched'], cushions['truth'])} |",
             "| cushion contacts reported that match the truth (precision) | "
             f"{_share(cushions['matched'], cushions['found'])} |",
             f"| cushion contact time error, median | {dt:.0f} ms |",
             "| balls off the table or disturbed, reported where none happened (false fouls) | "
             f"{len(mishaps['false'])} (in {len(found)} strokes) |",
             "| balls off the table or disturbed in the truth, found | "
             f"{mishaps['matched']} of {mishaps['truth']} |",
             f"| review notes of a ball moved between strokes | {mishaps['between_notes']} |", ""]
    if mishaps["false"]:
        lines += ["False off-table / disturbed calls: " + "; ".join(mishaps["false"]) + ".", ""]
    if wrong:
        lines += ["Wrong first contacts: " + "; ".join(
            f"frame {r['frame']} stroke {r['shot']} at {r['t']:.1f} s: {r['truth']} read as "
            f"{r['ours_first']}{' (marked for review)' if r['review'] else ''}" for r in wrong) + ".", ""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- harder world
def score_clip(gt: dict, res, fps: float) -> dict[str, Any]:
    """Match the found strokes to the truth's (the nearest within ``MATCH_S``); count
    strokes, pots (a potted ball of the truth's kind into the truth's pocket) and calls."""
    calls = {d["shot"]: d for d in res.decisions if d.get("shot") is not None and "error" not in d}
    match = match_strokes([s["t_strike"] for s in gt["shots"]], [f.t_start for f in res.shots])
    rows = []
    for s, k in zip(gt["shots"], match, strict=True):
        pots = Counter((kind(e["ball"]), e["pocket"]) for e in s["events"] if e["type"] == "pot")
        offset = (s["t_strike"] * fps) % 1.0
        row: dict[str, Any] = {"shot": s["shot"], "t": s["t_strike"], "offset_frames": round(offset, 3),
                               "found": k is not None, "pots": sum(pots.values()), "pots_right": 0}
        if k is not None:
            f = res.shots[k]
            ours = Counter((kind(e.ball), e.pocket) for e in f.events if e.type.value == "pot")
            row["pots_right"] = sum(min(n, ours[p]) for p, n in pots.items())
            row["pots_false"] = sum(max(0, n - pots[p]) for p, n in ours.items())
            d = calls.get(f.shot, {})
            row["same_call"] = ((bool(d.get("foul")), d.get("penalty", 0))
                                == (bool(s["decision"]["foul"]), s["decision"]["penalty"]))
            row["t_found"] = f.t_start
        rows.append(row)
    extra = [k for k in range(len(res.shots)) if k not in match]
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


def hard_world_clip(kind_: str, seed: int, seconds: float, modes: list[str], physics: Any,
                    tmp: Path, faults: bool = True) -> dict[str, Any]:
    """Play, render and process one clip of the harder world; scores per calibration mode
    (``true``: the exact camera as the profile; ``auto``: the automatic calibration)."""
    from calibration.table import STANDARD_TABLE as T
    from tracker.pipeline import VideoError, process_video
    from tracker.synth.randomise import draw
    from tracker.synth.scenarios import build
    from tracker.synth.video import write_clip

    d = draw(seed, kind_, faults=faults)
    world = build("frame", seed=seed, physics=physics, players=("Ann", "Bob"), max_seconds=seconds,
                  subframe_strike=True, exposure=d.exposure, outfit=d.outfit)
    name = f"{kind_}_{seed}"
    t0 = time.perf_counter()
    write_clip(world, d.camera, tmp, name, d.style, progress=False, description="harder world")
    render_s = time.perf_counter() - t0
    with gzip.open(tmp / f"{name}.gt.json.gz", "rt") as fh:
        gt = json.load(fh)
    out: dict[str, Any] = {"kind": kind_, "seed": seed, "about": d.about, "render_s": round(render_s, 1)}
    for mode in modes:
        t1 = time.perf_counter()
        try:
            res = process_video(tmp / f"{name}.mp4", None, players=("Ann", "Bob"), progress=False,
                                calibration=true_profile(d.camera, T) if mode == "true" else None,
                                **operator_inputs(tmp / f"{name}.log.jsonl"))
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


def hard_world_section(results: list[dict], kinds: list[str], modes: list[str], run: dict) -> str:
    """The "Harder synthetic world" section of docs/ACCURACY.md."""
    lines = ["## Harder synthetic world", "", measured(run), "",
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
    for k in kinds:
        for mode in modes:
            s = totals([r[mode] for r in results if r["kind"] == k])
            lines.append(f"| {k} | {'true camera' if mode == 'true' else 'automatic'} | {s['clips']} | "
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


def hard_world(argv: list[str]) -> int:
    """Bot frames of the harder world, with the true camera and calibrated automatically."""
    from tracker.evaluate import replace_section
    from tracker.synth.physics import Physics

    args = [a for a in argv if a != "--no-faults"]
    faults = "--no-faults" not in argv
    which = args[0] if args else "both"
    n_clips = int(args[1]) if len(args) > 1 else 6
    seconds = float(args[2]) if len(args) > 2 else 60.0
    cal = args[3] if len(args) > 3 else "both"
    first = int(args[4]) if len(args) > 4 else 0
    if which not in ("overhead", "tv", "both") or cal not in ("true", "auto", "both"):
        sys.exit("usage: bench/synth_video.py hard-world [overhead|tv|both] [CLIPS] [SECONDS] "
                 "[true|auto|both] [FIRST_SEED] [--no-faults]")
    kinds = ["overhead", "tv"] if which == "both" else [which]
    modes = ["true", "auto"] if cal == "both" else [cal]
    physics = Physics()
    results = []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for k in kinds:
            for seed in range(first, first + n_clips):
                r = hard_world_clip(k, seed, seconds, modes, physics, Path(tmp), faults)
                results.append(r)
                print(json.dumps({"clip": f"{k} {seed}", "about": r["about"],
                                  **{m: {x: v for x, v in totals([r[m]]).items() if x != "clips"}
                                     for m in modes}}), flush=True)
    run = run_info(" ".join(["python bench/synth_video.py hard-world", *argv]),
                   time.perf_counter() - t0)
    text = hard_world_section(results, kinds, modes, run)
    print(text)
    data = json.dumps({"seconds": seconds, "clips": results}, indent=1, default=str)
    if which == "both" and cal == "both" and first == 0 and faults:
        replace_section(ROOT / "docs" / "ACCURACY.md", "Harder synthetic world", text)
        (ROOT / "docs" / "metrics-hard-world.json").write_text(data)
    else:
        Path(tempfile.gettempdir(), "metrics-hard-world.json").write_text(data)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in MEASURES or any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0 if any(a in ("-h", "--help") for a in args) else 2
    measure, rest = args[0], args[1:]
    if measure == "first-contact":
        return first_contact(rest)
    if measure == "hard-world":
        return hard_world(rest)
    return scenarios(rest)


if __name__ == "__main__":
    sys.exit(main())
