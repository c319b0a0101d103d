"""Perception accuracy on the bundled synthetic clips.

    .venv/bin/python bench/perception.py

Accuracy (docs/ACCURACY.md, "Perception"; docs/metrics-perception.json): ball positions at rest
against the exact ground truth, colour swaps, pots (pocket right, false pots), first contacts,
final scores. The speed of the pipeline and of each stage against the decode-only rate is
``bench/pipeline_speed.py``'s (docs/BENCHMARKS.md, "Pipeline speed"; this bench wrote a
"Pipeline stages" table of its own until both were made one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import measured  # noqa: E402
from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import call_outcome, position_errors, replace_section  # noqa: E402


def positions(name: str) -> dict:
    r = position_errors(name, 5)
    e = np.array(r["errors"])
    return {"balls": r["total"], "found": r["found"], "median": float(np.median(e)),
            "p95": float(np.percentile(e, 95)), "max": float(e.max()),
            "colour_errors": r["colour_errors"], "unmatched_detections": r["unmatched_detections"]}


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    head = measured(run_info("python bench/perception.py"))
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
    print(acc)
    (ROOT / "docs" / "metrics-perception.json").write_text(json.dumps({"positions": pos, "calls": {
        c: {k: v for k, v in r.items() if k != "fps"} for c, r in cl.items()}}, indent=1,
        default=float))


if __name__ == "__main__":
    main()
