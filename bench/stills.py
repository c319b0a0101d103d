"""The two real-stills bars of issue 13, and nothing else (a minute per detector).

    .venv/bin/python bench/stills.py [colour] [learned] [auto]     (default: auto)

Per detector: the broadcast stills (``../shared/footage/broadcast-snooker/stills``) counted
per colour against their labels, with every still whose count is off and by how much; the
overhead lab stills (``overhead-lab-snooker``) found with the right colour, with every ball
missed or misread. The same functions as bench/real_footage.py and bench/learned.py
(:mod:`tracker.footage_eval`), without the clips. Prints a report; writes nothing.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tracker.footage_eval import broadcast_stills, footage, lab_stills
from tracker.perception.learned import DETECTORS

ROOT = Path(__file__).resolve().parents[1]


def report(detector: str) -> list[str]:
    """The report lines of one detector."""
    t0 = time.perf_counter()
    st = broadcast_stills(detector=detector)
    lab = lab_stills(detector=detector)
    took = time.perf_counter() - t0
    n = st["calibrated"]
    out = [f"## {detector} ({took:.0f} s)", "",
           f"Broadcast stills: {n} of {st['stills']} calibrated; every count exact on "
           f"{st['all_counts_exact']}, the total on {st['total_exact']}; {st['balls_seen']} balls "
           f"counted against {st['balls_truth']} labelled, {st['abs_count_error']} count errors.", "",
           "| colour | stills with the count exact |", "|---|---|"]
    out += [f"| {c} | {k} / {n} |" for c, k in st["per_colour_exact"].items()]
    off = []
    for r in st["rows"]:
        if r["seen"] is None:
            continue
        diff = {c: r["seen"][c] - r["truth"][c] for c in r["truth"] if r["seen"][c] != r["truth"][c]}
        if diff:
            off.append(f"{r['still']}.jpg " + ", ".join(f"{c} {d:+d}" for c, d in diff.items()))
    out += ["", "Counts off: " + ("; ".join(off) if off else "none") + ".", ""]
    for s, v in lab.items():
        right = v["colour_right"] if v["colour_right"] is not None else v["found"]
        what = "found with the right colour" if v["colour_right"] is not None else "found"
        out.append(f"Lab stills `{s}`: {what} {right} of {v['balls']} ({right / v['balls']:.2%}), "
                   f"extra detections {v['extra_detections']}; missed or misread: "
                   + ("; ".join(v["misses"]) if v["misses"] else "none") + ".")
    return out + [""]


def main() -> None:
    if footage() is None:
        print("real stills: ../shared/footage not present, skipped")
        return
    kinds = sys.argv[1:] or ["auto"]
    bad = [k for k in kinds if k not in DETECTORS]
    if bad:
        sys.exit(f"bench/stills.py: unknown detector {bad[0]!r}: use {', '.join(DETECTORS)}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    print(f"# Real stills at commit {commit}\n")
    for k in kinds:
        print("\n".join(report(k)))


if __name__ == "__main__":
    main()
