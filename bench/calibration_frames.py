"""The camera refined over many frames against the best single frame (issue 31).

    flock /tmp/heavy.lock .venv/bin/python bench/calibration_frames.py --synthetic DIR [DIR ...]
    flock /tmp/heavy.lock .venv/bin/python bench/calibration_frames.py --real [--clips 1,2,...]

Each clip's frames are calibrated one by one and the best single frame picked as
:func:`calibration.auto.calibrate_best` picks it; then the same calibrations are refined over
the frames (:func:`calibration.auto.refine_over_frames`). Both cameras are reported:

- ``--synthetic DIR``: rendered clips (``tv-zoom_SEED.mp4`` with ``tv-zoom_SEED.camera.json``,
  the renderer's exact camera; as ``bench/tv_lens_clips.py --clips`` keeps them), the frames of
  the start window that ``process`` calibrates from (:mod:`calibration.startup`: 8 frames over
  the first 2 s). Truth the fit did not use: a grid of ball centres over the bed mapped from
  their true pixels through the calibration (``bench/tv_lens_clips.py`` ``grid_error_mm``),
  median mm. Only development seeds (0-5) are read: the lead keeps seeds 6-8 held out.
  ``--whole``: 8 frames over the whole clip instead, as the one-shot pot watcher takes them.
- ``--real``: the real broadcast clips (``broadcast-snooker/clips``), 8 frames spread over the
  clip as the one-shot pot watcher takes them; the profile's own markings held out of the fit,
  per split (docs/SPLIT.md).

Prints one JSON line per clip and a summary; ``--json PATH`` writes every row.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench.tv_lens_clips import grid_error_mm  # noqa: E402
from calibration import auto, multiframe  # noqa: E402
from calibration.camera import CameraModel  # noqa: E402
from calibration.finder import TableNotFound  # noqa: E402
from calibration.startup import START_SAMPLES, START_WINDOW_S, spread  # noqa: E402
from calibration.table import STANDARD_TABLE  # noqa: E402
from tracker.perception.calibrate import find_colour_balls  # noqa: E402

#: The development seeds of the synthetic TV clips; 6-8 are the lead's held-out ones.
DEV_SEEDS = range(0, 6)


def _frames(path: Path, indices: list[int]) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out = []
    for f in indices:
        cap.set(cv2.CAP_PROP_POS_FRAMES, int(f))
        ok, img = cap.read()
        if ok and img is not None:
            out.append(img)
    return out


def single_and_pooled(frames: list[np.ndarray]) -> tuple[Any, Any, float, float]:
    """(the best single frame's calibration, the calibration refined over the frames, the
    seconds the frames' own calibrations took, the seconds the refinement took). The
    refinement is switched on here whether or not the product has it on
    (:class:`calibration.multiframe.PoolParams` ``enabled``): this bench compares the two."""
    t0 = time.perf_counter()
    cals = auto.calibrate_frames(frames, STANDARD_TABLE, ball_finder=find_colour_balls)
    t1 = time.perf_counter()
    best, others = auto.pick_best(cals, STANDARD_TABLE)
    in_product = multiframe.POOL
    multiframe.POOL = replace(in_product, enabled=True)
    try:
        pooled = auto.refine_over_frames(best, others, STANDARD_TABLE)
    finally:
        multiframe.POOL = in_product
    return best, pooled, round(t1 - t0, 1), round(time.perf_counter() - t1, 1)


def compared(row: dict[str, Any], frames: list[np.ndarray]) -> tuple[Any, Any] | None:
    """Single and pooled calibrations of ``frames``, their figures added to ``row``; None (the
    reason in ``row["why"]``) where no frame shows the table."""
    try:
        single, pooled, cal_s, pool_s = single_and_pooled(frames)
    except TableNotFound as exc:
        row["why"] = str(exc)[:100]
        return None
    row.update(kept=pooled is not single, single=_acc(single), pooled=_acc(pooled),
               frames_s=cal_s, pool_s=pool_s)
    return single, pooled


def _acc(cal: Any) -> dict[str, Any]:
    a = cal.accuracy
    return {"holdout_median_mm": a.get("holdout_median_mm"), "poor": bool(a.get("poor")),
            "markings": len(a.get("holdout_mm") or {}), "pooled": a.get("pooled")}


def synthetic_rows(folders: list[Path], whole: bool = False) -> list[dict[str, Any]]:
    """Per synthetic clip: single and pooled, against the exact camera (``whole``: 8 frames
    over the whole clip, as the pot watcher takes them, instead of the start window)."""
    rows = []
    for folder in folders:
        for video in sorted(folder.glob("tv-zoom_*.mp4")):
            seed = int(video.stem.split("_")[-1])
            if seed not in DEV_SEEDS:
                continue
            cap = cv2.VideoCapture(str(video))
            fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
            n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
            if not whole:
                n = min(n, int(round(START_WINDOW_S * fps)))
            truth = CameraModel.from_dict(json.loads(video.with_suffix(".camera.json").read_text()))
            frames = _frames(video, [int(i) for i in spread(n, START_SAMPLES)])
            row: dict[str, Any] = {"clip": f"{folder.name}/{video.stem}"}
            got = compared(row, frames)
            rows.append(row)
            if got is None:
                continue
            row.update(single_mm=round(grid_error_mm(got[0], truth), 1),
                       pooled_mm=round(grid_error_mm(got[1], truth), 1))
            print(json.dumps(row), flush=True)
    return rows


def real_rows(clips: list[int] | None) -> list[dict[str, Any]]:
    """Per real broadcast clip: single and pooled, the profile's held-out markings."""
    from tracker.footage_eval import footage
    from tracker.footage_split import load_split, split_of

    root = footage()
    if root is None:
        print("calibration frames: ../shared/footage not present, skipped")
        return []
    table = load_split()
    rows = []
    for video in sorted((root / "broadcast-snooker" / "clips").glob("*.mp4"), key=lambda p: int(p.stem)):
        if clips is not None and int(video.stem) not in clips:
            continue
        rel = str(video.relative_to(root))
        n = int(cv2.VideoCapture(str(video)).get(cv2.CAP_PROP_FRAME_COUNT))
        frames = _frames(video, [int(f) for f in np.linspace(0, max(0, n - 1), 8).astype(int)])
        row: dict[str, Any] = {"clip": rel, "split": split_of(rel, table)}
        rows.append(row)
        if compared(row, frames) is None:
            continue
        print(json.dumps(row), flush=True)
    return rows


def summary(rows: list[dict[str, Any]], key: str | None) -> dict[str, Any]:
    """Medians of single and pooled, per split where ``key`` names it."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        if "single" in r:
            groups.setdefault(r.get(key, "all") if key else "all", []).append(r)
    out = {}
    for name, rs in sorted(groups.items()):
        s: dict[str, Any] = {"clips": len(rs), "pooled_kept": sum(r["kept"] for r in rs)}
        for which in ("single", "pooled"):
            held = [r[which]["holdout_median_mm"] for r in rs if r[which]["holdout_median_mm"] is not None]
            s[f"{which}_holdout_median_mm"] = round(float(np.median(held)), 1) if held else None
            s[f"{which}_poor"] = sum(r[which]["poor"] for r in rs)
            if f"{which}_mm" in rs[0]:
                s[f"{which}_grid_median_mm"] = round(float(np.median([r[f"{which}_mm"] for r in rs])), 1)
                s[f"{which}_grid_worst_mm"] = max(r[f"{which}_mm"] for r in rs)
        out[name] = s
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synthetic", type=Path, nargs="*", default=None, help="folders of rendered TV clips")
    ap.add_argument("--whole", action="store_true",
                    help="synthetic: 8 frames over the whole clip (as the pot watcher) instead of the start window")
    ap.add_argument("--real", action="store_true", help="the real broadcast clips")
    ap.add_argument("--clips", default=None, help="real clips by number, comma separated")
    ap.add_argument("--json", type=Path, default=None, help="write every clip's row here")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    if a.synthetic:
        rows = synthetic_rows(a.synthetic, a.whole)
        print(json.dumps({"summary": summary(rows, None)}))
    if a.real:
        rows = real_rows([int(c) for c in a.clips.split(",")] if a.clips else None)
        print(json.dumps({"summary": summary(rows, "split")}))
    print(f"{time.perf_counter() - t0:.0f} s")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
