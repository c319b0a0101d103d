"""Calibration against the table's own markings in real stills, labelled by eye.

    .venv/bin/python bench/calibration_truth.py [--json OUT.json] [--no-rim]

For each label file in ``bench/labels/`` (how they were made: the files' ``made`` field), the
still is calibrated as a user would (``calibrate_image`` -> profile file -> ``Calibration.load``)
and the labelled pixels are mapped through the profile:

- balls sitting on their spots: the ball-centre pixel through ``ball_to_table`` against the
  spot (mm);
- the baulk line's ends (bed level): their distance from the baulk line, mm;
- the middle pockets' mouth centres (cushion-nose level): their distance along the table from
  the middle, mm;
- the D's apex (bed level): its distance from the D's arc, mm;
- the baulk end: on the side of the picture the label says, and whether the profile claims it
  as certain.

None of these pixels is used by the calibration. The calibration does use the markings it
finds itself (the balls on the spots among them): the hold-out figure the profile reports
(``holdout_mm``) leaves each marking out of the fit in turn; this bench prints both.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

from calibration.finder import TableNotFound
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE
from tracker.evaluate import replace_section
from tracker.footage_split import split_of
from tracker.perception.calibrate import calibrate_image

ROOT = Path(__file__).resolve().parents[1]
FOOTAGE = ROOT.parent / "shared" / "footage"
LABELS = ROOT / "bench" / "labels"


def baulk_end_on_screen(cal: Calibration) -> str:
    """Which side of the picture the baulk cushion is on: left, right, top or bottom."""
    t = cal.table
    b, top = cal.to_image(np.array([[t.width / 2, 0.0], [t.width / 2, t.length]]), 0.0)
    d = b - top
    if abs(d[0]) > abs(d[1]):
        return "right" if d[0] > 0 else "left"
    return "bottom" if d[1] > 0 else "top"


def measure(cal: Calibration, label: dict) -> dict:
    """Errors (mm) of the labelled markings mapped through ``cal``."""
    t = cal.table
    out: dict = {"spots": {}, "spots_likely": {}}
    for colour, b in label.get("spot_balls", {}).items():
        if b["on_spot"] == "no":
            continue
        p = cal.ball_to_table(np.array([b["px"]], float))[0]
        err = float(np.hypot(*(p - np.array(t.spots[colour]))))
        out["spots" if b["on_spot"] == "yes" else "spots_likely"][colour] = round(err, 1)
    if "baulk_line_ends" in label:
        p = cal.to_table(np.array(label["baulk_line_ends"], float), 0.0)
        out["baulk_line"] = [round(float(abs(y - t.baulk_line)), 1) for y in p[:, 1]]
    if "middle_pockets" in label:
        p = cal.to_table(np.array(label["middle_pockets"], float), t.cushion_height)
        out["middle_pockets"] = [round(float(abs(y - t.length / 2)), 1) for y in p[:, 1]]
    if "d_apex" in label:
        p = cal.to_table(np.array([label["d_apex"]], float), 0.0)[0]
        r = float(np.hypot(p[0] - t.centre_x, p[1] - t.baulk_line))
        out["d_apex"] = round(abs(r - t.d_radius), 1)
    return out


def run_one(label: dict) -> dict:
    """Calibrate the labelled still as a user would and measure it."""
    img = cv2.imread(str(FOOTAGE / label["image"]))
    row: dict = {"image": label["image"]}
    try:
        cal = calibrate_image(img, STANDARD_TABLE)
    except TableNotFound as exc:
        row["error"] = str(exc)
        return row
    with tempfile.TemporaryDirectory() as d:
        cal.save(Path(d) / "p.json")
        cal = Calibration.load(Path(d) / "p.json")
    row["orientation"] = cal.orientation
    row["orientation_right"] = baulk_end_on_screen(cal) == label["baulk_end_on_screen"]
    row["fit_median_mm"] = cal.fit_error_mm.get("median")
    row["holdout_mm"] = getattr(cal, "accuracy", {}).get("holdout_median_mm") if hasattr(cal, "accuracy") else None
    row["reported_mm"] = getattr(cal, "accuracy", {}).get("reported_mm") if hasattr(cal, "accuracy") else None
    if label["table"].startswith("standard"):
        row.update(measure(cal, label))
    return row


def truth_lines(rows: list[dict]) -> list[str]:
    """Markdown for the labelled real stills."""
    if not rows:
        return []

    def med(d: dict) -> str:
        return f"{np.median(list(d.values())):.1f}" if d else "–"

    out = ["", "Real stills against the table's own markings, labelled by eye (`bench/labels/*.json`, "
           "how each was made is in the file; `python bench/calibration_truth.py`): each still "
           "calibrated as a user would (automatic, full-size table, no hint), the profile written "
           "and read back, and the labelled pixels mapped through it. *Spot balls*: balls "
           "standing on their spots ('yes' in the labels), centre pixel → `ball_to_table` → "
           "distance from the spot. *Baulk line* and *middle pockets*: the labelled ends of the "
           "baulk line (bed) and mouth centres of the middle pockets (nose height), distance from "
           "the line / from the table's middle along its length; the middle pockets are not used "
           "by the calibration at all. *Reported*: the profile's own `accuracy.reported_mm` "
           "(markings held out of the fit in turn).", "",
           "| still | orientation (right?) | spot balls, mm each | median | baulk line ends mm | middle pockets mm | reported mm | cushion fit mm |",
           "|---|---|---|---|---|---|---|---|"]
    allspots = []
    for r in rows:
        name = f"{r['image'].split('/')[-1]} ({split_of(r['image'])})"
        if "error" in r:
            out.append(f"| {name} | refused: {r['error']} | | | | | | |")
            continue
        sp = r.get("spots", {})
        allspots += list(sp.values())
        each = ", ".join(f"{c} {v}" for c, v in sp.items()) or "(table size unknown: orientation only)"
        if r.get("spots_likely"):
            each += "; not counted ('likely'): " + ", ".join(f"{c} {v}" for c, v in r["spots_likely"].items())
        out.append(f"| {name} | {r['orientation']} ({'yes' if r['orientation_right'] else 'NO'}) | "
                   f"{each} | {med(sp)} | {r.get('baulk_line', '–')} | {r.get('middle_pockets', '–')} | "
                   f"{r.get('reported_mm')} | {r.get('fit_median_mm')} |")
    if allspots:
        out += ["", f"All spot balls: {len(allspots)}, median **{np.median(allspots):.1f} mm**, "
                f"p90 {np.percentile(allspots, 90):.1f} mm, worst {max(allspots):.1f} mm."]
    pairs = [(r["reported_mm"], float(np.median(list(r["spots"].values()))))
             for r in rows if r.get("spots") and r.get("reported_mm") is not None]
    if pairs:
        rep, meas = np.array(pairs).T
        ratio = rep / np.maximum(meas, 0.5)
        out += ["", "The profile's reported accuracy against this measurement (stills with spot "
                f"balls, {len(pairs)}): reported median {np.median(rep):.1f} mm, spot balls "
                f"(per-still medians) median {np.median(meas):.1f} mm; reported within a factor "
                f"of 2 of the measured on {int(np.sum((ratio >= 0.5) & (ratio <= 2.0)))} of "
                f"{len(pairs)}, above it on {int(np.sum(ratio > 2.0))}, below it on "
                f"{int(np.sum(ratio < 0.5))}."]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--write-doc", action="store_true",
                    help="write the section 'Calibration against the markings' of docs/ACCURACY.md")
    ap.add_argument("--no-rim", action="store_true",
                    help="spot balls at the colour detector's centres (before the outline fit)")
    a = ap.parse_args()
    if a.no_rim:
        import calibration.markings
        from calibration.ballcentre import RimParams
        calibration.markings.RIM = RimParams(enabled=False)
    if not FOOTAGE.exists():
        print("../shared/footage not present: skipped")
        return
    rows = []
    for f in sorted(LABELS.glob("*.json")):
        label = json.loads(f.read_text())
        if "image" not in label:
            continue  # not a still's markings (the clips' labels, the footage split)
        row = run_one(label)
        rows.append(row)
        print(json.dumps(row))
    spots = [e for r in rows for e in r.get("spots", {}).values()]
    if spots:
        print(f"spot balls: {len(spots)}, median {np.median(spots):.1f} mm, max {max(spots):.1f} mm")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    if a.write_doc:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        head = ["## Calibration against the markings", "",
                f"Measured {datetime.date.today()} on {platform.machine()} ({os.cpu_count()} cores), "
                f"commit `{commit}`, by `python bench/calibration_truth.py --write-doc`."]
        replace_section(ROOT / "docs" / "ACCURACY.md", "Calibration against the markings",
                        "\n".join(head + truth_lines(rows)) + "\n")


if __name__ == "__main__":
    main()
