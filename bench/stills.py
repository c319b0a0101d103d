"""The real stills, development and test split side by side (about a minute per detector).

    .venv/bin/python bench/stills.py [colour] [learned] [auto] [--write-doc]   (default: auto)

Per detector: the broadcast stills (``../shared/footage/broadcast-snooker/stills``) counted
per colour against their labels, with every still whose count is off and by how much; the
overhead lab stills (``overhead-lab-snooker``) found with the right colour, with every ball
missed or misread. Each figure for the development and the test split of the footage
(:mod:`tracker.footage_split`, docs/SPLIT.md) side by side, and both together. The functions are
:mod:`tracker.footage_eval`'s. Prints a report; writes docs/metrics-stills.json always and, with
``--write-doc``, the "Real stills" section of docs/ACCURACY.md (the first detector named).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.footage_eval import (  # noqa: E402
    broadcast_stills,
    footage,
    lab_by_split,
    lab_stills,
    pool_boxes,
    stills_by_split,
)
from tracker.footage_split import load_split, split_of  # noqa: E402
from tracker.perception.learned import DETECTORS  # noqa: E402

SECTION = "Real stills (development and test)"


def measure(detector: str) -> dict[str, Any]:
    """Both sets of stills with one detector, per split."""
    t0 = time.perf_counter()
    st = broadcast_stills(detector=detector)
    lab = lab_stills(detector=detector)
    pool = pool_boxes(detector=detector)
    return {"detector": detector, "seconds": round(time.perf_counter() - t0),
            "pool_boxes": _pool_by_split(pool["rows"]) if pool else None,
            "broadcast": {**stills_by_split(st["rows"]),
                          "all": {k: v for k, v in st.items() if k != "rows"}},
            "broadcast_off": _counts_off(st["rows"]),
            "lab": {s: {**lab_by_split(v["per_image"]),
                        "all": {k: x for k, x in v.items() if k != "per_image"}}
                    for s, v in lab.items()}}


def _pool_by_split(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """The pool stills' box rows (:func:`pool_boxes`) added up per split and in all."""
    table = load_split()
    out = {}
    for split in ("dev", "test", "all"):
        mine = [r for r in rows if split == "all" or split_of(
            "pool/albertomors-8ball/" + r["image"].split("/")[0], table) == split]
        done = [r for r in mine if r.get("calibrated")]
        out[split] = {"images": len(mine), "calibrated": len(done),
                      **{k: sum(r[k] for r in done) for k in ("boxes", "found", "detections",
                                                                 "right")}}
    return out


def _counts_off(rows: list[dict[str, Any]]) -> list[str]:
    """Each still whose count is off: ``N.jpg (split) colour +k, ...``."""
    table = load_split()
    off = []
    for r in rows:
        if r["seen"] is None:
            continue
        diff = {c: r["seen"][c] - r["truth"][c] for c in r["truth"] if r["seen"][c] != r["truth"][c]}
        if diff:
            split = split_of(f"broadcast-snooker/stills/{r['still']}.jpg", table)
            off.append(f"{r['still']}.jpg ({split}) " + ", ".join(f"{c} {d:+d}" for c, d in diff.items()))
    return off


def _share(k: int | None, n: int) -> str:
    return "-" if k is None else (f"{k} / {n} ({k / n:.1%})" if n else "0 / 0")


def section(m: dict[str, Any], run: dict[str, str]) -> str:
    """The ACCURACY.md section from one detector's measurement."""
    b = m["broadcast"]
    lines = [f"## {SECTION}", "",
             f"Measured {run['date']} on {run['machine']}, commit `{run['commit']}`, by "
             f"`{run['command']}` ({m['seconds']} s), detector `{m['detector']}`. Split: "
             "docs/SPLIT.md (test: run only to report, never tuned on).", "",
             "Broadcast stills (`broadcast-snooker/stills`, balls counted per colour against the "
             "labels; a still counts where it calibrates automatically):", "",
             "| split | stills | calibrated | every colour's count exact | total exact | "
             "count errors (balls) |", "|---|---|---|---|---|---|"]
    for split in ("dev", "test", "all"):
        r = b[split]
        lines.append(f"| {split} | {r['stills']} | {r['calibrated']} | "
                     f"{_share(r['all_counts_exact'], r['calibrated'])} | "
                     f"{_share(r['total_exact'], r['calibrated'])} | {r['abs_count_error']} of "
                     f"{r['balls_truth']} |")
    lines += ["", "Counts off: " + ("; ".join(m["broadcast_off"]) or "none") + ".", "",
              "Overhead lab stills (`overhead-lab-snooker`; found = within 0.6 radii of the "
              "labelled pixel; colours learned from the set's other stills):", "",
              "| set | split | images | balls | found | right colour | extra detections | "
              "error vs labelled mm, median |", "|---|---|---|---|---|---|---|---|"]
    for s, v in m["lab"].items():
        for split in ("dev", "test", "all"):
            r = v[split]
            mm = r.get("mm_median")
            lines.append(f"| {s} | {split} | {r['images']} | {r['balls']} | "
                         f"{_share(r['found'], r['balls'])} | "
                         f"{_share(r['colour_right'], r['balls'])} | {r['extra_detections']} | "
                         f"{'-' if mm is None else f'{mm:.1f}'} |")
    if m.get("pool_boxes"):
        lines += ["", "Pool stills (`pool/albertomors-8ball`, each clip's first and last frame; a "
                  "cross-domain check: balls found against the labelled boxes, colours not "
                  "compared):", "",
                  "| split | images | calibrated | boxes found (recall) | detections in a box "
                  "(precision) |", "|---|---|---|---|---|"]
        for split in ("dev", "test", "all"):
            r = m["pool_boxes"][split]
            lines.append(f"| {split} | {r['images']} | {r['calibrated']} | "
                         f"{_share(r['found'], r['boxes'])} | "
                         f"{_share(r['right'], r['detections'])} |")
    for s, v in m["lab"].items():
        misses = v["all"]["misses"]
        lines.append("")
        lines.append(f"`{s}` missed or misread: " + ("; ".join(misses) if misses else "none") + ".")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    write = "--write-doc" in args
    kinds = [a for a in args if a != "--write-doc"] or ["auto"]
    if footage() is None:
        print("real stills: ../shared/footage not present, skipped")
        return 0
    bad = [k for k in kinds if k not in DETECTORS]
    if bad:
        sys.exit(f"bench/stills.py: unknown detector {bad[0]!r}: use {', '.join(DETECTORS)}")
    run = run_info("python bench/stills.py " + " ".join(args))
    results = [measure(k) for k in kinds]
    for m in results:
        print(section(m, run))
    (ROOT / "docs" / "metrics-stills.json").write_text(json.dumps(
        {"run": run, "results": results}, indent=1, default=str))
    if write:
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, section(results[0], run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
