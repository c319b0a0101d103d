"""Calibration on the real footage, on points the fit did not use, development and test split
side by side (docs/SPLIT.md).

    flock /tmp/heavy.lock .venv/bin/python bench/calibration_split.py [--write-doc] [--no-rim]

Two measurements, each per split of the footage (:mod:`tracker.footage_split`):

- **Lab balls** (`overhead-lab-snooker`, table 1881 x 943 mm): each still calibrated
  automatically (table size given, no hint); the labelled ball pixels mapped to the table and
  compared with the labelled mm. No ball is used by the fit (this table's fit has the cushions
  and the markings it finds; the balls' labels are the source project's, from its own ArUco
  calibration, so they carry that calibration's error too).
- **Broadcast stills** (`broadcast-snooker/stills`, full-size table): each still calibrated as
  a user would; the profile's own figure on markings held out of the fit, one at a time
  (`accuracy.holdout_median_mm`: each marking the camera is fitted without, then measured),
  and how many stills the profile calls poor. This is the profile's self-check, not truth from
  outside: the labelled markings (`bench/labels`, all development) are measured by
  `bench/calibration_truth.py`.

Writes docs/metrics-calibration-split.json and, with ``--write-doc``, the "Calibration on real
footage (development and test)" section of docs/ACCURACY.md. ``--no-rim`` takes the spot balls at the
colour detector's centres, as before the outline fit (``calibration.ballcentre.RimParams``), and
writes docs/metrics-calibration-split-no-rim.json only.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from calibration_accuracy import lab  # noqa: E402
from runinfo import run_info  # noqa: E402

from calibration.finder import TableNotFound  # noqa: E402
from calibration.table import STANDARD_TABLE  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.footage_eval import footage  # noqa: E402
from tracker.footage_split import load_split, split_of  # noqa: E402
from tracker.perception.calibrate import calibrate_image  # noqa: E402

SECTION = "Calibration on real footage (development and test)"


def broadcast_holdout(root: Path) -> list[dict[str, Any]]:
    """Per broadcast still: calibrated or why not, the profile's held-out median and worst,
    poor or not."""
    rows = []
    folder = root / "broadcast-snooker" / "stills"
    for p in sorted(folder.glob("*.jpg"), key=lambda p: int(p.stem)):
        rel = str(p.relative_to(root))
        try:
            cal = calibrate_image(cv2.imread(str(p)), STANDARD_TABLE)
        except TableNotFound as exc:
            rows.append({"still": rel, "calibrated": False, "why": str(exc)[:100]})
            continue
        acc = cal.accuracy
        rows.append({"still": rel, "calibrated": True,
                     "holdout_median_mm": acc.get("holdout_median_mm"),
                     "holdout_max_mm": acc.get("holdout_max_mm"),
                     "markings": len(acc.get("holdout_mm") or {}), "poor": bool(acc.get("poor")),
                     "focal": acc.get("focal")})
    return rows


def _med(v: list[float]) -> float | None:
    return round(float(np.median(v)), 1) if v else None


def summarise(lab_res: dict[str, Any], still_rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per split: lab balls' errors per set, broadcast stills' held-out medians."""
    table = load_split()
    out: dict[str, Any] = {"lab": {}, "broadcast": {}}
    for folder, r in lab_res.items():
        out["lab"][folder] = {}
        for split in ("dev", "test", "all"):
            imgs = [i for i in r["per_image"]
                    if split == "all" or split_of(i["image"], table) == split]
            e = [x for i in imgs for x in i["errs"]]
            out["lab"][folder][split] = {
                "calibrated": len(imgs), "balls": len(e), "median_mm": _med(e),
                "p95_mm": round(float(np.percentile(e, 95)), 1) if e else None}
    for split in ("dev", "test", "all"):
        rows = [r for r in still_rows if split == "all" or split_of(r["still"], table) == split]
        done = [r for r in rows if r["calibrated"] and r["holdout_median_mm"] is not None]
        out["broadcast"][split] = {
            "stills": len(rows), "calibrated": sum(r["calibrated"] for r in rows),
            "with_markings": len(done),
            "holdout_median_mm": _med([r["holdout_median_mm"] for r in done]),
            "holdout_worst_median_mm": _med([r["holdout_max_mm"] for r in done]),
            "poor": sum(r.get("poor", False) for r in rows),
            "focal": _focal_summary([r["focal"] for r in rows if r.get("focal")])}
    return out


def _focal_summary(checks: list[dict[str, Any]]) -> dict[str, Any]:
    """The focal checks of the stills whose focal length was fitted: how many the view
    measured, the median share the focal length is uncertain by, and the ball uncertainty."""
    return {"fitted": len(checks), "measured": sum(bool(c["measured"]) for c in checks),
            "share_median": round(float(np.median([c["share"] for c in checks])), 3) if checks else None,
            "uncertain_median_mm": _med([c["uncertain_mm"] for c in checks]),
            "uncertain_max_median_mm": _med([c["uncertain_max_mm"] for c in checks])}


def section(s: dict[str, Any], run: dict[str, Any]) -> str:
    """The ACCURACY.md section."""
    lines = [f"## {SECTION}", "",
             f"Measured {run['date']} on {run['machine']}, commit `{run['commit']}`, by "
             f"`{run['command']}` ({run['seconds']} s). Split: docs/SPLIT.md.", "",
             "**Lab balls, never used by the fit** (`overhead-lab-snooker`, each still calibrated "
             "automatically with the table's size; labelled ball pixels mapped to the table "
             "against the labelled mm, which come from the source's own ArUco calibration and "
             "carry its error too):", "",
             "| set | split | stills calibrated | balls | median mm | p95 mm |",
             "|---|---|---|---|---|---|"]
    for folder, per in s["lab"].items():
        for split in ("dev", "test", "all"):
            r = per[split]
            lines.append(f"| {folder} | {split} | {r['calibrated']} | {r['balls']} | "
                         f"{r['median_mm']} | {r['p95_mm']} |")
    lines += ["", "**Broadcast stills, the profile's markings held out of the fit** (each marking "
              "found — a ball on its spot, the baulk line, the D — left out of the fit in turn "
              "and measured under the camera fitted without it; the median over stills of each "
              "still's median; a self-check of the profile, not truth from outside):", "",
              "| split | stills | calibrated | with markings | held-out median mm | "
              "held-out worst, median over stills, mm | called poor |",
              "|---|---|---|---|---|---|---|"]
    for split in ("dev", "test", "all"):
        r = s["broadcast"][split]
        lines.append(f"| {split} | {r['stills']} | {r['calibrated']} | {r['with_markings']} | "
                     f"{r['holdout_median_mm']} | {r['holdout_worst_median_mm']} | {r['poor']} |")
    lines += ["", "**The lens's focal length** (broadcast stills whose focal length was fitted; "
              "`calibration.focal.focal_check`: the range of focal lengths whose added misfit "
              "is no larger than the fit's own, and how far a ball moves over it):", "",
              "| split | focal fitted | measured (balls within 5 mm) | focal length uncertain by, "
              "median share | balls uncertain by, median mm | worst ball, median over stills, mm |",
              "|---|---|---|---|---|---|"]
    for split in ("dev", "test", "all"):
        f = s["broadcast"][split]["focal"]
        lines.append(f"| {split} | {f['fitted']} | {f['measured']} | {f['share_median']} | "
                     f"{f['uncertain_median_mm']} | {f['uncertain_max_median_mm']} |")
    lines += ["", "Truth from outside on the broadcast view: the markings labelled by eye "
              "(`bench/labels`, every labelled still is development), in \"Calibration against "
              "the markings\"; the test split has no such labels yet."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    root = footage()
    if root is None:
        print("calibration split: ../shared/footage not present, skipped")
        return 0
    metrics = ROOT / "docs" / "metrics-calibration-split.json"
    if "--no-rim" in args:
        # the spot balls at the detector's centres (before the outline fit): a comparison only
        import calibration.markings
        from calibration.ballcentre import RimParams
        calibration.markings.RIM = RimParams(enabled=False)
        metrics = ROOT / "docs" / "metrics-calibration-split-no-rim.json"
        args = [a for a in args if a != "--write-doc"]
    t0 = time.perf_counter()
    lab_res = lab()
    rows = broadcast_holdout(root)
    s = summarise(lab_res, rows)
    run = run_info("python bench/calibration_split.py " + " ".join(args),
                   time.perf_counter() - t0)
    metrics.write_text(json.dumps(
        {"run": run, "summary": s, "broadcast_rows": rows,
         "lab_rows": {f: r["per_image"] for f, r in lab_res.items()}}, indent=1, default=str))
    text = section(s, run)
    print(text)
    if "--write-doc" in args:
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
