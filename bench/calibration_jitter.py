"""Which calls flip when the camera moves by a millimetre (issue 31: calls that survive a small
calibration error).

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/calibration_jitter.py CLIP.mp4 [CLIP.mp4 ...]
        [--k 3] [--sizes 0.5,1,1.5] [--seed 0] [--seconds S] [--keep DIR] [--json FILE]
    ... bench/calibration_jitter.py CLIP.mp4 [...] --between OTHER_DIR

Each CLIP is a clip rendered by ``bench/tv_lens_clips.py --clips DIR`` (beside it its truth
``CLIP.gt.json.gz``, its operator log ``CLIP.log.jsonl`` and the folder ``CLIP_out`` where
``process`` wrote ``calibration.json``). For each clip:

- ``process`` runs with that calibration given (``--calibration``): the *base* run;
- then ``--k`` times with a perturbed copy of it: the camera turned, moved and zoomed along a
  random direction (seeded by ``--seed``, the clip and the draw), scaled so that a grid of ball
  centres over the bed moves by the next of ``--sizes`` mm (median over the grid; the profile's
  own camera is the reference, not the renderer's);
- each run is scored against the synthetic truth (``bench/synth_video.py``'s ``score_clip``),
  and every truth stroke whose outcome (found, pots right, call right, pots invented) differs
  from the base run's is a *flip*, as is a change in the strokes or pots invented.

``--seconds S`` stops ``process`` after S seconds of the clip and scores only the truth's
strokes struck at least 3 s before that. ``--keep DIR`` keeps every run's output folder (its
match log and decisions, to trace a flip).

``--between OTHER_DIR`` runs nothing: for each clip it says how far apart (ball grid, median
mm) its calibration and the one ``process`` wrote for the clip of the same name in
``OTHER_DIR/<band>/`` are, and how far each is from the renderer's camera
(``CLIP.camera.json``): two calibrations equally far from the truth may still be far apart.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.common import operator_inputs  # noqa: E402
from bench.synth_video import score_clip  # noqa: E402

#: Scales of the perturbation's parts before it is sized: radians of turn, mm of the camera
#: centre's move, and the focal length's relative change, per unit of the random direction.
TURN_RAD, MOVE_MM, ZOOM = 1e-4, 2.0, 5e-4
#: A truth stroke's outcome: the fields of a ``score_clip`` row compared between runs.
OUTCOME = ("found", "pots_right", "same_call", "pots_false")
#: Seconds before the end of a shortened run within which a truth stroke is not scored.
TAIL_S = 3.0


def ball_grid(table: Any) -> np.ndarray:
    """(288, 3) mm: a 12 x 24 grid of ball centres over the bed, 26.25 mm up."""
    return np.array([[x, y, table.ball_radius] for x in np.linspace(40, table.width - 40, 12)
                     for y in np.linspace(40, table.length - 40, 24)])


def grid_move_mm(base: Any, moved: Any) -> float:
    """Median distance (mm) a grid of ball centres moves on the table when the pixels
    ``base`` (a Calibration) sees them at are read through ``moved``."""
    grid = ball_grid(base.table)
    back = moved.ball_to_table(base.camera.project(grid))
    return float(np.median(np.linalg.norm(back - grid[:, :2], axis=1)))


def _rotation(rvec: np.ndarray) -> np.ndarray:
    """3x3 rotation of the axis-angle ``rvec`` (rad)."""
    import cv2

    return cv2.Rodrigues(np.asarray(rvec, float).reshape(3, 1))[0]


def perturbed(base: Any, direction: np.ndarray, scale: float) -> Any:
    """``base`` (a Calibration) with its camera turned about its centre, its centre moved and
    its focal length changed along ``direction`` (7,) times ``scale`` (units: ``TURN_RAD``,
    ``MOVE_MM``, ``ZOOM``)."""
    from dataclasses import replace

    from calibration.camera import CameraModel

    d = np.asarray(direction, float) * scale
    cam = base.camera
    R = _rotation(d[:3] * TURN_RAD) @ cam.R
    centre = cam.centre + d[3:6] * MOVE_MM
    K = cam.K.copy()
    K[0, 0] *= 1.0 + d[6] * ZOOM
    K[1, 1] *= 1.0 + d[6] * ZOOM
    moved = CameraModel(cam.image_size, K, cam.dist.copy(), R, -R @ centre)
    return replace(base, camera=moved, notes=[*base.notes, f"perturbed by {scale:.3g}"])


def sized(base: Any, direction: np.ndarray, target_mm: float) -> tuple[Any, float]:
    """The perturbation of ``base`` along ``direction`` whose ball grid moves ``target_mm``
    (median; the move is nearly linear in the scale at these sizes, so two secant steps).
    Returns the calibration and the move it gives, mm."""
    scale, move = 1.0, grid_move_mm(base, perturbed(base, direction, 1.0))
    for _ in range(3):
        scale *= target_mm / max(move, 1e-9)
        move = grid_move_mm(base, perturbed(base, direction, scale))
    return perturbed(base, direction, scale), move


def outcomes(score: dict[str, Any]) -> dict[str, Any]:
    """The comparable outcome of a scored run: each truth stroke's ``OUTCOME`` fields and the
    strokes and pots invented."""
    return {"rows": {r["shot"]: tuple(r.get(k) for k in OUTCOME) for r in score["rows"]},
            "extra": (score["extra_strokes"], score["extra_pots"])}


def flips(base: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """What differs between two runs' :func:`outcomes`, in words (one item per flip)."""
    out = []
    for shot, was in base["rows"].items():
        now = other["rows"].get(shot)
        if now != was:
            changed = [f"{k} {a}->{b}" for k, a, b in zip(OUTCOME, was, now or (None,) * 4, strict=True)
                       if a != b]
            out.append(f"stroke {shot}: " + ", ".join(changed))
    if base["extra"] != other["extra"]:
        out.append(f"invented strokes, pots {base['extra']}->{other['extra']}")
    return out


def clip_truth(clip: Path, seconds: float | None) -> dict[str, Any]:
    """The clip's truth, its strokes cut to those struck ``TAIL_S`` before ``seconds``."""
    with gzip.open(clip.with_name(clip.stem + ".gt.json.gz"), "rt") as fh:
        gt = json.load(fh)
    if seconds:
        gt["shots"] = [s for s in gt["shots"] if s["t_strike"] < seconds - TAIL_S]
    return gt


def run_once(clip: Path, cal: Any, gt: dict[str, Any], seconds: float | None,
             out_dir: Path | None) -> dict[str, Any]:
    """``process`` on ``clip`` with the calibration ``cal``; its score against ``gt``."""
    from tracker.pipeline import process_video

    fps = gt["summary"]["fps"]
    t0 = time.perf_counter()
    res = process_video(clip, out_dir, players=("Ann", "Bob"), progress=False, calibration=cal,
                        max_frames=int(seconds * fps) if seconds else None,
                        **operator_inputs(clip.with_name(clip.stem + ".log.jsonl")))
    score = score_clip(gt, res, fps)
    if seconds:  # the truth's later strokes were cut: what was found there is not invented
        score["extra_strokes"] = sum(1 for s in res.shots if s.t_start < seconds - TAIL_S) - sum(
            r["found"] for r in score["rows"])
    score["process_s"] = round(time.perf_counter() - t0, 1)
    return score


def jitter_clip(clip: Path, sizes: list[float], seed: int, seconds: float | None,
                keep: Path | None) -> dict[str, Any]:
    """The base run and one run per size in ``sizes`` on one clip, with the flips of each."""
    from calibration.profile import Calibration

    base = Calibration.load(clip.with_name(clip.stem + "_out") / "calibration.json")
    gt = clip_truth(clip, seconds)
    tag = f"{clip.parent.name}/{clip.stem}"
    folder = (lambda k: keep / f"{clip.parent.name}_{clip.stem}_{k}") if keep else (lambda k: None)
    ref = run_once(clip, base, gt, seconds, folder("base"))
    ref_out = outcomes(ref)
    rng = np.random.default_rng([seed, zlib.crc32(tag.encode())])
    runs = []
    for k, size in enumerate(sizes):
        direction = rng.normal(size=7)
        cal, move = sized(base, direction / np.linalg.norm(direction), size)
        score = run_once(clip, cal, gt, seconds, folder(k))
        runs.append({"k": k, "move_mm": round(move, 2), "flips": flips(ref_out, outcomes(score)),
                     "process_s": score["process_s"],
                     "direction": [round(float(v), 4) for v in direction]})
    return {"clip": tag, "strokes": len(gt["shots"]), "base": ref_out["rows"],
            "base_extra": ref_out["extra"], "runs": runs}


def between(clip: Path, other: Path) -> dict[str, Any]:
    """How far apart (ball grid, median mm) the calibrations of ``clip`` and of its namesake
    under ``other`` (``other/<band>/``) are, and each from the renderer's camera."""
    from calibration.camera import CameraModel
    from calibration.profile import Calibration

    a = Calibration.load(clip.with_name(clip.stem + "_out") / "calibration.json")
    b = Calibration.load(other / clip.parent.name / (clip.stem + "_out") / "calibration.json")
    truth = json.loads(clip.with_name(clip.stem + ".camera.json").read_text())
    cam = CameraModel(tuple(truth["image_size"]), np.asarray(truth["K"], float),
                      np.asarray(truth["dist"], float), np.asarray(truth["R"], float),
                      np.asarray(truth["t"], float))
    true_cal = replace_camera(a, cam)
    return {"clip": f"{clip.parent.name}/{clip.stem}", "apart_mm": round(grid_move_mm(a, b), 2),
            "this_from_truth_mm": round(grid_move_mm(true_cal, a), 2),
            "other_from_truth_mm": round(grid_move_mm(true_cal, b), 2)}


def replace_camera(cal: Any, cam: Any) -> Any:
    """``cal`` with the camera ``cam``."""
    from dataclasses import replace

    return replace(cal, camera=cam)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("clips", nargs="+", type=Path, help="rendered clips (CLIP.mp4 with CLIP_out/ beside it)")
    ap.add_argument("--k", type=int, default=3, help="perturbed calibrations per clip")
    ap.add_argument("--sizes", default="0.5,1,1.5",
                    help="ball-grid moves, mm, comma separated (used in turn over the k runs)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the random directions")
    ap.add_argument("--seconds", type=float, default=None, help="stop process after this many seconds")
    ap.add_argument("--keep", type=Path, default=None, help="keep every run's output folder here")
    ap.add_argument("--json", type=Path, default=None, help="write every clip's figures here")
    ap.add_argument("--between", type=Path, default=None,
                    help="run nothing: how far each clip's calibration is from its namesake's here")
    a = ap.parse_args(argv)
    try:
        sizes = [float(v) for v in a.sizes.split(",")]
    except ValueError:
        print(f"--sizes {a.sizes!r}: give millimetres separated by commas, as 0.5,1,1.5")
        return 2
    for clip in a.clips:
        if not (clip.is_file() and (clip.with_name(clip.stem + "_out") / "calibration.json").is_file()):
            print(f"{clip}: not a rendered clip with its process output beside it "
                  "(run bench/tv_lens_clips.py --clips DIR first)")
            return 2
    if a.between is not None:
        for clip in a.clips:
            print(json.dumps(between(clip, a.between)))
        return 0
    plan = [sizes[k % len(sizes)] for k in range(a.k)]
    rows, n_runs, n_flips, n_flipped_runs, n_strokes = [], 0, 0, 0, 0
    for clip in a.clips:
        r = jitter_clip(clip, plan, a.seed, a.seconds, a.keep)
        rows.append(r)
        print(json.dumps(r), flush=True)
        n_strokes += r["strokes"] * len(r["runs"])
        for run in r["runs"]:
            n_runs += 1
            n_flips += len(run["flips"])
            n_flipped_runs += bool(run["flips"])
    print(f"{len(rows)} clips, {n_runs} perturbed runs ({', '.join(f'{s:g}' for s in plan)} mm): "
          f"{n_flips} flips over {n_strokes} stroke-runs; {n_flipped_runs} runs with a flip")
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
