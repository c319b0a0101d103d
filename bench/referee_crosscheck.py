"""Our referee against pooltool's own snooker rules on auto-played frames.

    .venv/bin/python bench/referee_crosscheck.py [FRAMES]

Writes the "Referee cross-check" section of docs/ACCURACY.md (see tracker/synth/crosscheck.py
for what pooltool judges and what it lacks).
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from tracker.evaluate import replace_section
from tracker.synth.crosscheck import crosscheck_frames

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    frames = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    t0 = time.perf_counter()
    r = crosscheck_frames(list(range(1, frames + 1)), max_strokes=80, progress=True)
    took = time.perf_counter() - t0
    lines = ["## Referee cross-check", "",
             f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores, "
             f"commit `{commit}`, by `python bench/referee_crosscheck.py {frames}` ({took:.0f} s).", "",
             f"{frames} bot frames (seeds 1–{frames}, up to 80 strokes each) played in pooltool; every "
             "stroke judged by our referee (from the shot record) and by pooltool's snooker rules "
             "(from the simulator's own events: cue ball potted, no ball hit, wrong ball first, ball "
             "not on potted).", "",
             "| strokes | agree | fouls (ours) | fouls (pooltool) | disagreements |",
             "|---|---|---|---|---|",
             f"| {r.strokes} | {r.agree} ({r.agree / max(r.strokes, 1):.1%}) | {r.fouls_ours} | "
             f"{r.fouls_pooltool} | {len(r.disagreements)} |", ""]
    if r.disagreements:
        lines += ["| frame seed | shot | ours | pooltool | the rule that explains it |", "|---|---|---|---|---|"]
        for d in r.disagreements:
            lines.append(f"| {d.frame_seed} | {d.shot} | {', '.join(d.ours) or 'fair'} | "
                         f"{d.pooltool or 'fair'} | {d.explanation or 'unexplained: to investigate'} |")
    else:
        lines.append("No disagreement. Fouls pooltool cannot judge (push, jump, ball off the table, "
                     "free ball, miss) are not part of this check.")
    text = "\n".join(lines) + "\n"
    replace_section(ROOT / "docs" / "ACCURACY.md", "Referee cross-check", text)
    print(text)


if __name__ == "__main__":
    main()
