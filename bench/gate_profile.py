"""Where the change-gated detector's time goes, frame kind by frame kind and box by box.

    python bench/gate_profile.py [--video sample_videos/overhead_frame.mp4] [--no-docs]

The detector alone (no decoding in the timings, no tracking) on every frame of the video, in
this process, one thread: for each frame its kind (still, partial, full) and, for a partial
frame, each box searched again (its area and the candidates found in it, its search time)
and the judging of the new candidates; for a full frame, why (the first frame, the periodic
full search every ``GateParams.full_every_s``, too much changed, or a partial search given up: a blob
still running off its box after ``GateParams.max_grow`` growths, the time of the given-up attempt
counted). CPU times (``time.process_time``), so other work on the machine weighs less.
Writes the "Change-gated detection: where the time goes" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
#: A box holding at least this many candidates holds (part of) the pack of reds.
PACK_CANDIDATES = 8


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--no-docs", action="store_true")
    a = ap.parse_args()
    import cv2

    from calibration.auto import calibrate_image
    from calibration.table import TableGeometry
    from tracker.perception.change import ChangeGatedDetector
    from tracker.perception.learned import prepared_detector

    cap = cv2.VideoCapture(a.video)
    ok, first = cap.read()
    assert ok, a.video
    cal = calibrate_image(first, TableGeometry.standard())
    det = prepared_detector(cal, first, "auto")
    gate = ChangeGatedDetector(det, cap.get(cv2.CAP_PROP_FPS) or 25.0)
    boxes: list[tuple[float, int, float]] = []  # (share of the frame, candidates, CPU s)
    judged: list[float] = []
    given_up: list[float] = []
    search, partial, judge = gate._search, gate._partial, det.judge
    W, H = det.small

    def timed_search(frame, rect, *more):
        t = time.process_time()
        out = search(frame, rect, *more)
        boxes.append(((rect[2] - rect[0]) * (rect[3] - rect[1]) / (W * H), len(out),
                      time.process_time() - t))
        return out

    def timed_partial(frame, thumb, rects):
        t = time.process_time()
        out = partial(frame, thumb, rects)
        if out is None:
            given_up.append(time.process_time() - t)
        return out

    def timed_judge(*args, **kw):
        t = time.process_time()
        out = judge(*args, **kw)
        judged.append(time.process_time() - t)
        return out

    gate._search, gate._partial = timed_search, timed_partial
    kinds: dict[str, list[float]] = {"still": [], "partial": [], "full": []}
    periodic = 0
    frame = first
    while frame is not None:
        before = dict(gate.stats.__dict__)
        due = gate.ref is not None and gate.since_full + 1 >= gate.full_every
        det.judge = timed_judge
        t = time.process_time()
        gate.detect(frame)
        dt = time.process_time() - t
        kind = next(k for k in ("full", "partial", "still") if getattr(gate.stats, k) != before[k])
        kinds[kind].append(dt)
        periodic += kind == "full" and due
        ok, frame = cap.read()
        frame = frame if ok else None
    del det.judge
    n = sum(len(v) for v in kinds.values())
    total = sum(sum(v) for v in kinds.values())
    share = np.array([b[0] for b in boxes])
    cands = np.array([b[1] for b in boxes])
    secs = np.array([b[2] for b in boxes])
    pack = cands >= PACK_CANDIDATES
    n_partial = len(kinds["partial"])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "## Change-gated detection: where the time goes", "",
        f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores "
        f"(shared with other work), commit `{commit}`, by `python bench/gate_profile.py`: the "
        f"detector alone on every frame of `{Path(a.video).name}` ({n} frames), CPU time of "
        "this process (one thread).", "",
        "| frames | how many | CPU ms each (mean) | share of the detector's time |",
        "|---|---|---|---|"]
    for k in ("still", "partial", "full"):
        v = kinds[k]
        lines.append(f"| {k} | {len(v)} | {1000 * np.mean(v) if v else 0:.2f} | "
                     f"{sum(v) / total:.0%} |")
    lines += [
        f"| **all** | **{n}** | **{1000 * total / n:.2f}** | 100 % |", "",
        f"- full frames: 1 the first, {periodic} the periodic search (every "
        f"{gate.full_every} frames), {len(given_up)} a partial search given up (a blob still "
        f"running off its box; {1000 * np.mean(given_up) if given_up else 0:.1f} ms lost each "
        f"before the full search), {len(kinds['full']) - 1 - periodic - len(given_up)} too "
        "much changed at once",
        f"- a partial frame searched {len(boxes) / max(n_partial, 1):.1f} boxes on average (each "
        "once it has grown over the blobs running off it) "
        f"(median {np.median(share) if len(share) else 0:.1%} of the frame, "
        f"{np.median(cands) if len(cands) else 0:.0f} candidates); the searches took "
        f"{secs.sum() / total:.0%} of the detector's time, the judging of what they found "
        f"{sum(judged) / total:.0%} (all frames' judging, full ones included)",
        f"- boxes holding the pack (at least {PACK_CANDIDATES} candidates: a ball moving by the "
        f"reds makes its box grow over the whole blob of touching reds): {pack.sum()} of "
        f"{len(boxes)} boxes, {secs[pack].sum() / max(secs.sum(), 1e-9):.0%} of the search "
        f"time ({1000 * secs[pack].mean() if pack.any() else 0:.1f} ms each, against "
        f"{1000 * np.median(secs[~pack]) if (~pack).any() else 0:.2f} ms for the median other "
        "box)"]
    text = "\n".join(lines) + "\n"
    print(text)
    if not a.no_docs:
        from tracker.evaluate import replace_section

        replace_section(ROOT / "docs" / "BENCHMARKS.md",
                        "Change-gated detection: where the time goes", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
