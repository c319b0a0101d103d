"""The broadcast clips through the one-shot pot watcher, and the ball centres against the
clips' labelled boxes, development and test split side by side (docs/SPLIT.md).

    flock /tmp/heavy.lock .venv/bin/python bench/real_footage.py

Writes the "Broadcast clips: pot watcher and labelled boxes (development and test)" section of
docs/ACCURACY.md and docs/metrics-real.json. What is measured and how:
tracker/footage_eval.py (`broadcast_clips`, `broadcast_tracks`). The stills are
bench/stills.py's; the clips through the whole chain (`process`) are bench/real_process.py's.
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
from tracker.footage_eval import broadcast_clips, broadcast_tracks, footage  # noqa: E402
from tracker.footage_split import load_split  # noqa: E402

SECTION = "Broadcast clips: pot watcher and labelled boxes (development and test)"


def clips_of(split: str) -> list[int]:
    """The broadcast clip numbers of one split."""
    table = load_split()
    return sorted(int(Path(u).stem) for u, r in table.items()
                  if r["set"] == "broadcast_clips" and r["split"] == split)


def _f(v: float | None, fmt: str = "{:.2f}") -> str:
    return "–" if v is None else fmt.format(v)


def section(res: dict[str, Any], run: dict[str, Any]) -> str:
    """The ACCURACY.md section from the per-split results."""
    lines = [f"## {SECTION}", "",
             f"Measured {run['date']} on {run['machine']}, commit `{run['commit']}`, by "
             f"`{run['command']}` ({run['seconds']} s). Split: docs/SPLIT.md.", "",
             "The one-shot pot watcher (`snooker-tracker pots`: calibration from the best of 8 "
             "frames, colours learned from them and the spots, the 22-slot tracker over every "
             "frame) against each clip's label: *right* = pot yes/no and the potted colour; "
             "*clean* = the labelled pot and no other object ball called potted. Ball centres: two "
             "balls per clip are boxed in every frame (`clips/tracks/ground-truth`); every 6th "
             "frame, the detection nearest each box centre (the boxes are whole-pixel and "
             "hand-drawn; balls are 8-10 px in radius).", "",
             "| split | clips | right | clean | pocket right (inferred numbering) | boxes found | "
             "centre offset median / p95 px |", "|---|---|---|---|---|---|---|"]
    for split in ("dev", "test"):
        c, t = res[split]["clips"], res[split]["tracks"]
        lines.append(f"| {split} | {c['clips']} | {c['right']} | {c['clean']} | "
                     f"{c['pocket_right']} of {c['yes_truth']} | {t['found']} of {t['labelled']} | "
                     f"{_f(t['px_median'])} / {_f(t['px_p95'])} |")
    lines += ["", "| clip | split | label | ours: pots (ball, pocket, s) | right |",
              "|---|---|---|---|---|"]
    for split in ("dev", "test"):
        for r in res[split]["clips"]["rows"]:
            pots = r.get("reason") or (", ".join(f"{b} {p} {t:.1f}" for b, p, t in r["pots"])
                                       or "none")
            lines.append(f"| {r['clip']} | {split} | {' '.join(r['truth'])} | {pots} | "
                         f"{'yes' if r['right'] else 'no'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    if footage() is None:
        print("real footage: ../shared/footage not present, skipped")
        return 0
    t0 = time.perf_counter()
    res = {split: {"clips": broadcast_clips(clips=clips_of(split)),
                   "tracks": broadcast_tracks(clips=clips_of(split))} for split in ("dev", "test")}
    run = run_info("python bench/real_footage.py", time.perf_counter() - t0)
    text = section(res, run)
    replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, text)
    (ROOT / "docs" / "metrics-real.json").write_text(json.dumps({"run": run, **res}, indent=1,
                                                                default=str))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
