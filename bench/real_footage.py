"""Perception on the real footage in ../shared/footage (skipped, with a message, when absent).

    .venv/bin/python bench/real_footage.py

Writes the "Real footage" section of docs/ACCURACY.md and docs/metrics-real.json. What is
measured and how: tracker/footage_eval.py.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import time
from pathlib import Path

from tracker.evaluate import replace_section
from tracker.footage_eval import (
    broadcast_clips,
    broadcast_stills,
    broadcast_tracks,
    footage,
    lab_stills,
)

ROOT = Path(__file__).resolve().parents[1]


def _f(v: float | None, fmt: str = "{:.1f}") -> str:
    return "–" if v is None else fmt.format(v)


def main() -> None:
    if footage() is None:
        print("real footage: ../shared/footage not present, skipped")
        replace_section(ROOT / "docs" / "ACCURACY.md", "Real footage",
                        "## Real footage\n\n`../shared/footage` was not present when this ran.\n")
        return
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    t0 = time.perf_counter()
    lab = lab_stills()
    stills = broadcast_stills()
    clips = broadcast_clips()
    tracks = broadcast_tracks()
    took = time.perf_counter() - t0
    head = (f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
            f"commit `{commit}`, by `python bench/real_footage.py` ({took:.0f} s).")
    lines = ["## Real footage", "", head, "",
             "Third-party footage read in place from `../shared/footage` (never copied here). "
             "What each figure means: `tracker/footage_eval.py`.", "",
             "### Overhead lab stills (`overhead-lab-snooker`, 1280×720, table 1881 × 943 mm)", "",
             "One calibration for the fixed camera (the automatic calibration of the frame whose "
             "cushions fit best, "
             f"{lab['with_halo_2']['calibration_fit_mm']} mm median fit); colours learned from the "
             "other images of the set (leave one out); found = within 0.6 ball radii of the "
             "labelled pixel.", "",
             "| set | images | balls | found | right colour | extra detections | error vs labelled mm, median / p95 | detector's share (labelled pixel through the same calibration), median / p95 | pixel error median |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in lab.items():
        col = "no colour labels" if r["colour_right"] is None else f"{r['colour_right']} ({r['colour_right'] / r['balls']:.1%})"
        lines.append(f"| {name} | {r['images']} | {r['balls']} | {r['found']} ({r['found'] / r['balls']:.1%}) | "
                     f"{col} | {r['extra_detections']} | {_f(r['mm_median'])} / {_f(r['mm_p95'])} mm | "
                     f"{_f(r['detection_mm_median'])} / {_f(r['detection_mm_p95'])} mm | {_f(r['px_median'], '{:.2f}')} px |")
    misses = [m for r in lab.values() for m in r["misses"]]
    lines += ["", f"Not found or misread ({len(misses)}): " + "; ".join(misses) + "." if misses else "",
              "", "The labelled millimetres come from the source project's own calibration: the "
              "labelled pixels mapped through ours differ from them by about 4 mm (without_halo) "
              "and 7 mm (with_halo_2) median, which bounds the end-to-end figure.", "",
              "### Broadcast clips (`broadcast-snooker/clips`, one shot each)", "",
              f"Pot yes/no and the potted colour right on **{clips['right']} of {clips['clips']}** "
              f"(`snooker-tracker` pot watcher: calibration from the best of 8 frames, colours "
              f"learned from them and the spots, 22-slot tracker over every frame). Pocket, "
              f"under the inferred numbering (`CLIP_POCKETS`): {clips['pocket_right']} of "
              f"{clips['yes_truth']} pots. Clean (the labelled pot and no other object ball "
              f"called potted): {clips['clean']} of {clips['clips']}.", "",
              "| clip | label | ours: pots (ball, pocket, s) | right |", "|---|---|---|---|"]
    for r in clips["rows"]:
        pots = r.get("reason") or (", ".join(f"{b} {p} {t:.1f}" for b, p, t in r["pots"]) or "none")
        lines.append(f"| {r['clip']} | {' '.join(r['truth'])} | {pots} | {'yes' if r['right'] else 'no'} |")
    lines += ["", "### Broadcast clips: ball centres against the labelled boxes", "",
              f"Two balls per clip are boxed in every frame (`clips/tracks/ground-truth`); every "
              f"6th frame, the detection nearest each box centre: found {tracks['found']} of "
              f"{tracks['labelled']}, centre offset median {_f(tracks['px_median'], '{:.2f}')} px, "
              f"p95 {_f(tracks['px_p95'], '{:.2f}')} px (balls are 8-10 px in radius here; the "
              "boxes are whole-pixel and hand-drawn), mean offset "
              f"{tracks['mean_offset_px']} px (x, y: + is right, down).", ""]
    lines += ["", "### Broadcast stills (`broadcast-snooker/stills`): balls counted per colour", "",
              f"{stills['calibrated']} of {stills['stills']} stills calibrated automatically (the "
              "others: views whose cushion lines do not fit a full table). On those: "
              f"every colour's count exact on {stills['all_counts_exact']}, the total on "
              f"{stills['total_exact']}; {stills['balls_seen']} balls counted against "
              f"{stills['balls_truth']} labelled, {stills['abs_count_error']} count errors in all.", "",
              "| colour | stills with the count exact |", "|---|---|"]
    for c, v in stills["per_colour_exact"].items():
        lines.append(f"| {c} | {v} / {stills['calibrated']} |")
    text = "\n".join(lines) + "\n"
    replace_section(ROOT / "docs" / "ACCURACY.md", "Real footage", text)
    (ROOT / "docs" / "metrics-real.json").write_text(json.dumps(
        {"lab": lab, "broadcast_stills": stills, "broadcast_clips": clips, "broadcast_tracks": tracks},
        indent=1, default=str))
    print(text)


if __name__ == "__main__":
    main()
