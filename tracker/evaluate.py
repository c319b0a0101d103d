"""One command that measures the whole system (``snooker-tracker eval``).

``fast_metrics`` is the CI subset (a few minutes): the referee replaying every sample log,
calibration on two synthetic views, perception and calls on two short overhead clips and the
TV-angle clip, and,
when ``../shared/footage`` is there, the overhead lab stills and four broadcast clips. The
full run adds the benches that write ``docs/ACCURACY.md`` and ``docs/BENCHMARKS.md``.

``compare`` checks metrics against stored references (``bench/reference-metrics.json``), each
with a direction and a tolerance, like a stored MOTA table: a metric worse than its tolerance
is a regression, named with its size. Raising a reference is a deliberate commit
(``snooker-tracker eval --fast --update-reference``).
"""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_videos"
REFERENCE = ROOT / "bench" / "reference-metrics.json"


def render_and_referee(world: Any, camera: Any, folder: Path, name: str, seed: int,
                       description: str, detector: str = "auto") -> tuple[dict, Any]:
    """Render a played synthetic ``world`` through ``camera`` into ``folder`` (``name``.mp4 and
    its truth files, style seed ``seed``), referee the clip with ``process`` and the operator
    inputs of its log, with ``detector`` (``colour``, ``learned``, ``auto``). Returns (ground
    truth dict, :class:`tracker.pipeline.ProcessResult`)."""
    from tracker.pipeline import inputs_from_log, process_video, spoken_from_log
    from tracker.synth.render import RenderStyle
    from tracker.synth.video import write_clip

    folder = Path(folder)
    write_clip(world, camera, folder, name, RenderStyle(seed=seed), progress=False,
               description=description)
    with gzip.open(folder / f"{name}.gt.json.gz", "rt") as fh:
        gt = json.load(fh)
    log = folder / f"{name}.log.jsonl"
    res = process_video(folder / f"{name}.mp4", folder / f"out_{name}", players=("Ann", "Bob"),
                        progress=False, inputs=inputs_from_log(log), spoken=spoken_from_log(log),
                        detector=detector)
    return gt, res


def _truth(name: str) -> dict:
    with gzip.open(SAMPLES / f"{name}.gt.json.gz", "rt") as fh:
        return json.load(fh)


def referee_metrics() -> dict[str, float]:
    """Replay every sample log (count the final scores that differ from the clip's truth) and
    cross-check three bot frames against pooltool's own rules."""
    from tracker.records.parse import read_log
    from tracker.rules.match import Match

    wrong, n = 0, 0
    for log in sorted(SAMPLES.glob("*.log.jsonl")):
        name = log.name.removesuffix(".log.jsonl")
        m = Match()
        for _, rec in read_log(log):
            m.feed(rec)
        n += 1
        wrong += dict(zip(m.state.players, m.state.scores, strict=True)) != _truth(name)["summary"]["final_score"]
    from tracker.synth.crosscheck import crosscheck_frames

    cc = crosscheck_frames([1, 2, 3], max_strokes=40)
    return {"referee.sample_logs": float(n), "referee.sample_scores_wrong": float(wrong),
            "referee.pooltool_agreement": cc.agree / max(cc.strokes, 1)}


def calibration_metrics() -> dict[str, float]:
    """Automatic calibration on the stock overhead and TV synthetic views."""
    from calibration.auto import table_corners
    from calibration.camera import CameraModel
    from calibration.table import STANDARD_TABLE as T
    from tracker.perception.calibrate import calibrate_image
    from tracker.rules.snooker import SnookerRules
    from tracker.synth.render import Renderer, RenderStyle

    out: dict[str, float] = {}
    for kind in ("overhead", "broadcast"):
        cam = (CameraModel.overhead(T.length, T.width) if kind == "overhead"
               else CameraModel.broadcast(T.length, T.width))
        layout = SnookerRules().setup_positions()
        layout["white"] = (1000.0, 600.0)
        cal = calibrate_image(Renderer(cam, T, RenderStyle(seed=4)).render(layout), T)
        c3 = np.hstack([table_corners(T), np.full((4, 1), T.cushion_height)])
        corner = np.linalg.norm(cam.project(c3) - cal.camera.project(c3), axis=1)
        grid = np.array([[x, y, T.ball_radius] for x in np.linspace(40, T.width - 40, 8)
                         for y in np.linspace(40, T.length - 40, 16)])
        err = np.linalg.norm(cal.ball_to_table(cam.project(grid)) - grid[:, :2], axis=1)
        out[f"calibration.{kind}.corner_px_median"] = float(np.median(corner))
        out[f"calibration.{kind}.ball_mm_p95"] = float(np.percentile(err, 95))
    return out


def position_errors(name: str, step: int = 5, detector: str = "auto") -> dict[str, Any]:
    """Detections of a sample clip against its exact truth: balls at rest and at least 90 %
    visible, every ``step``-th frame, by the ``detector`` the pipeline would use. Returns
    errors (mm), found/total, colour errors and detections matching no ball."""
    import cv2

    from calibration.table import STANDARD_TABLE as T
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.detect import CLASSES
    from tracker.perception.learned import prepared_detector

    gt = _truth(name)
    cap = cv2.VideoCapture(str(SAMPLES / f"{name}.mp4"))
    ok, first = cap.read()
    det = prepared_detector(calibrate_image(first, T), first, detector)  # as the pipeline does
    errs: list[float] = []
    found = total = swaps = unmatched = 0
    for fi in range(0, gt["summary"]["frames"], step):
        cap.set(cv2.CAP_PROP_POS_FRAMES, fi)
        ok, img = cap.read()
        if not ok:
            break
        d = det.detect(img)
        matched = set()
        for ball, v in gt["frames"][fi]["balls"].items():
            if v["moving"] or v["visible"] < 0.9 or abs(v["z"] - T.ball_radius) > 0.5:
                continue
            total += 1
            dist = np.linalg.norm(d.mm - np.array(v["xy"]), axis=1) if len(d) else np.array([1e9])
            j = int(np.argmin(dist))
            if dist[j] < 30:
                found += 1
                matched.add(j)
                errs.append(float(dist[j]))
                swaps += CLASSES[d.cls[j]] != ("red" if ball.startswith("red") else ball)
        unmatched += len(d) - len(matched)
    return {"errors": errs, "found": found, "total": total, "colour_errors": swaps,
            "unmatched_detections": unmatched}


def call_outcome(name: str) -> dict[str, Any]:
    """Process a sample clip with its operator inputs; compare strokes, pots and score."""
    from tracker.pipeline import inputs_from_log, process_video, spoken_from_log

    gt = _truth(name)
    log = SAMPLES / f"{name}.log.jsonl"
    with tempfile.TemporaryDirectory() as tmp:
        res = process_video(SAMPLES / f"{name}.mp4", tmp, players=("Ann", "Bob"), progress=False,
                            inputs=inputs_from_log(log), spoken=spoken_from_log(log))
    tp = [(e["ball"].split("_")[0], e["pocket"]) for s in gt["shots"] for e in s["events"]
          if e["type"] == "pot"]
    op = [(e.ball.split("_")[0], e.pocket) for s in res.shots for e in s.events if e.type == "pot"]
    right = sum(min(tp.count(x), op.count(x)) for x in set(tp))

    def first_kind(events: list[tuple[str, tuple[str, ...]]]) -> str | None:
        for kind, balls in events:
            if kind == "contact" and "white" in balls:
                return next(b for b in balls if b != "white").split("_")[0]
        return None

    firsts = sum(
        first_kind([(e["type"], tuple(e["balls"])) for e in g["events"] if "balls" in e])
        == first_kind([(str(e.type), e.balls) for e in o.events])
        for g, o in zip(gt["shots"], res.shots, strict=False))
    return {"strokes_truth": len(gt["shots"]), "strokes_found": len(res.shots),
            "pots_truth": len(tp), "pots_right_pocket": right, "false_pots": len(op) - right,
            "first_contact_right": firsts, "score": res.score,
            "score_truth": gt["summary"]["final_score"],
            "exact": res.score == gt["summary"]["final_score"], "fps": res.times.fps(),
            "frames": res.frames}


def perception_metrics(clips: tuple[str, ...] = ("overhead_miss", "overhead_free_ball"),
                       step: int = 5, prefix: str = "perception.") -> dict[str, float]:
    """Positions at rest and calls on the given clips (metric names start with ``prefix``)."""
    errs: list[float] = []
    found = total = swaps = exact = pots_missed = false_pots = 0
    for name in clips:
        pos = position_errors(name, step)
        errs += pos["errors"]
        found += pos["found"]
        total += pos["total"]
        swaps += pos["colour_errors"]
        calls = call_outcome(name)
        exact += calls["exact"]
        pots_missed += calls["pots_truth"] - calls["pots_right_pocket"]
        false_pots += calls["false_pots"]
    e = np.array(errs) if errs else np.array([np.inf])
    return {
        f"{prefix}found_fraction": found / max(total, 1),
        f"{prefix}position_mm_median": float(np.median(e)),
        f"{prefix}position_mm_p95": float(np.percentile(e, 95)),
        f"{prefix}colour_errors": float(swaps),
        f"{prefix}scores_exact_fraction": exact / len(clips),
        f"{prefix}pots_missed": float(pots_missed),
        f"{prefix}false_pots": float(false_pots),
    }


def replace_section(doc: Path, title: str, section: str) -> None:
    """Replace (or append) the ``## title`` section of a markdown file."""
    text = doc.read_text() if doc.exists() else f"# {doc.stem.title()}\n\n"
    start = text.find(f"## {title}")
    if start >= 0:
        end = text.find("\n## ", start + 5)
        rest = text[end + 1:] if end >= 0 else ""
        text = text[:start] + section.rstrip() + "\n" + ("\n" + rest if rest else "")
    else:
        text = text.rstrip() + "\n\n" + section
    doc.write_text(text)


def real_metrics(clips: tuple[int, ...] = (2, 4, 6, 11, 12)) -> dict[str, float]:
    """The real-footage subset: both overhead lab sets and five broadcast clips (the one with
    no pot, and the hard ones: a yellow dropping slowly into a middle pocket, two blacks struck
    too hard to be seen, a score bar over the near cushion); empty when ``../shared/footage``
    is absent."""
    from tracker.footage_eval import broadcast_clips, lab_stills

    lab = lab_stills()
    if lab is None:
        return {}
    h, w = lab["with_halo_2"], lab["without_halo"]
    cl = broadcast_clips(clips=list(clips))
    return {
        "real.lab_coloured_found_right_fraction": h["colour_right"] / h["balls"],
        "real.lab_found_fraction": w["found"] / w["balls"],
        "real.lab_detection_mm_median": w["detection_mm_median"],
        "real.clips_right_fraction": cl["right"] / cl["clips"],
        "real.clips_clean_fraction": cl["clean"] / cl["clips"],
    }


def fast_metrics() -> dict[str, float]:
    """The CI subset."""
    return {**referee_metrics(), **calibration_metrics(), **perception_metrics(),
            **perception_metrics(("broadcast_pots",), step=10, prefix="perception.broadcast."),
            **real_metrics()}


def compare(metrics: dict[str, float], reference: dict[str, Any]) -> list[str]:
    """Regressions of ``metrics`` against ``reference`` ({name: {"value", "better",
    "tolerance"}}): one line per metric worse than its tolerance, or missing."""
    out = []
    for name, ref in reference.items():
        if name.startswith("real.") and not any(k.startswith("real.") for k in metrics):
            continue  # the real footage is not on this machine: reported by the caller
        if name not in metrics:
            out.append(f"{name}: not measured (reference {ref['value']})")
            continue
        v, r, tol = metrics[name], ref["value"], ref["tolerance"]
        worse = v - r if ref["better"] == "lower" else r - v
        if worse > tol:
            out.append(f"{name}: {v:.4g} against reference {r:.4g} ({ref['better']} is better, "
                       f"tolerance {tol:g}): worse by {worse:.4g}")
    return out


def reference_from(metrics: dict[str, float], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """A reference table from measured metrics (keeping old directions and tolerances)."""
    lower = ("median", "p95", "errors", "wrong", "missed", "false", "px", "mm")
    out = {}
    for k, v in metrics.items():
        prev = (old or {}).get(k, {})
        better = prev.get("better") or ("lower" if any(w in k for w in lower) else "higher")
        tol = prev.get("tolerance")
        if tol is None:
            tol = 0.0 if ("wrong" in k or "exact" in k or "pots" in k or "errors" in k or
                          k.endswith("sample_logs")) else max(0.25 * abs(v), 0.05)
        out[k] = {"value": round(float(v), 4), "better": better, "tolerance": tol}
    return out
