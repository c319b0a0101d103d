"""The between-frames watcher (tracker/session_watch.py) on the detector's real output: the
bundled overhead sample clips through the whole pipeline, each refereed picture's detections
shown to a :class:`RackWatcher` as they come.

Truth (from each clip's ground truth, not from the watcher): the pictures before the first
stroke's strike of ``overhead_frame`` show the full rack (its break-off at 3.12 s); every
picture after a strike, and every picture of the clips that open mid-frame, shows no rack.
Reported per clip: pictures seen as a rack before the break-off / after it, and racks the
watcher would *confirm* (stand 3 s) after the first strike: a frame invented.

    POOLTOOL_HOME=/tmp/pooltool flock /tmp/heavy.lock .venv/bin/python bench/session_rack.py
"""

from __future__ import annotations

import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.listeners import RunListener  # noqa: E402
from tracker.pipeline import process_video  # noqa: E402
from tracker.rules.registry import get_ruleset  # noqa: E402
from tracker.session_watch import RackWatcher  # noqa: E402

CLIPS = ("overhead_frame", "overhead_miss", "overhead_free_ball")


class RackCount(RunListener):
    """Counts the watcher's looks against the clip's first strike time (s)."""

    def __init__(self, first_strike: float):
        self.first_strike = first_strike
        self.watcher: RackWatcher | None = None
        self.before = [0, 0]  # [pictures, seen as a rack] before the first strike
        self.after = [0, 0]
        self.confirmed_after = 0

    def on_frame(self, run, view) -> None:  # noqa: ANN001 - RefereeRun, FrameView
        if view.detections is None:
            return
        if self.watcher is None:
            rules = get_ruleset("snooker")
            self.watcher = RackWatcher(run.calibration.table, rules.setup_positions(),
                                       rules.balls)
        t = view.frame.t
        rack = self.watcher.look(view.detections).phase == "rack"
        confirmed = self.watcher.update(t, view.detections)
        side = self.before if t < self.first_strike else self.after
        side[0] += 1
        side[1] += rack
        self.confirmed_after += confirmed and t >= self.first_strike


def main() -> None:
    t0 = time.perf_counter()
    rows = {}
    for name in CLIPS:
        with gzip.open(ROOT / "sample_videos" / f"{name}.gt.json.gz") as f:
            gt = json.load(f)
        first = gt["shots"][0]["t_strike"]
        opens_racked = name == "overhead_frame"
        count = RackCount(first if opens_racked else 0.0)
        process_video(ROOT / "sample_videos" / f"{name}.mp4", None, progress=False,
                      listeners=[count])
        rows[name] = {"pictures_before_break": count.before[0],
                      "seen_as_rack_before_break": count.before[1],
                      "pictures_after": count.after[0], "seen_as_rack_after": count.after[1],
                      "racks_confirmed_after_a_strike": count.confirmed_after}
        print(name, rows[name], flush=True)
    info = run_info("POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/session_rack.py",
                    time.perf_counter() - t0)
    print(json.dumps({**info, "clips": rows}, indent=1))


if __name__ == "__main__":
    main()
