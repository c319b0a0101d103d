"""One command that measures the whole system (``snooker-tracker eval``).

``fast_metrics`` is the CI subset (a few minutes): the referee replaying every sample log,
calibration on two synthetic views, perception and calls on two short overhead clips and the
TV-angle clip, and,
when ``../shared/footage`` is there, the overhead lab stills and four broadcast clips. The
full run adds the benches that write ``docs/ACCURACY.md`` and ``docs/BENCHMARKS.md``.

``compare`` checks metrics against stored references (``bench/reference-metrics.json``), each
with a direction and a tolerance, like a stored MOTA table: a metric worse than its tolerance
is a regression, named with its size. Raising a reference is a deliberate commit
(``snooker-tracker eval --fast --update-reference``). Each tolerance is the run-to-run spread
measured over several runs plus the smallest change that is a real regression (half a unit
of a count or share, so one ball, stroke, clip or log worse fails; a stated margin for a
figure in mm or px: :data:`MARGINS`), with its reason beside it
(``python -m tracker.evaluate RUN.json RUN.json``, :func:`reference_from_runs`). The figures
of the real footage are given for its development and test splits too
(:mod:`tracker.footage_split`).
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


def replay_metrics() -> dict[str, float]:
    """Replay every sample log through the referee: how many logs, and how many final scores
    differ from the clip's truth (counts)."""
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
    return {"referee.sample_logs": float(n), "referee.sample_scores_wrong": float(wrong)}


def referee_metrics() -> dict[str, float]:
    """:func:`replay_metrics`, and three bot frames cross-checked against pooltool's own rules
    (the share of strokes called alike, and the number of strokes compared)."""
    from tracker.synth.crosscheck import crosscheck_frames

    cc = crosscheck_frames([1, 2, 3], max_strokes=40)
    return {**replay_metrics(), "referee.pooltool_agreement": cc.agree / max(cc.strokes, 1),
            "referee.pooltool_strokes_n": float(cc.strokes)}


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


def detection_metrics(clips: tuple[str, ...] = ("overhead_miss", "overhead_free_ball"),
                      step: int = 5, prefix: str = "perception.") -> dict[str, float]:
    """Positions at rest on the given clips (:func:`position_errors`): the share of balls found,
    the median and 95th percentile of the error (mm), colour errors (count), and the number of
    balls judged (``balls_n``, the share's denominator)."""
    errs: list[float] = []
    found = total = swaps = 0
    for name in clips:
        pos = position_errors(name, step)
        errs += pos["errors"]
        found += pos["found"]
        total += pos["total"]
        swaps += pos["colour_errors"]
    e = np.array(errs) if errs else np.array([np.inf])
    return {
        f"{prefix}found_fraction": found / max(total, 1),
        f"{prefix}position_mm_median": float(np.median(e)),
        f"{prefix}position_mm_p95": float(np.percentile(e, 95)),
        f"{prefix}colour_errors": float(swaps),
        f"{prefix}balls_n": float(total),
    }


def call_metrics(clips: tuple[str, ...] = ("overhead_miss", "overhead_free_ball"),
                 prefix: str = "perception.") -> dict[str, float]:
    """The calls on the given clips (:func:`call_outcome`): the share of exact final scores,
    pots missed and false pots, strokes found too many or too few, and strokes whose first
    contact differs from the truth (counts)."""
    exact = pots_missed = false_pots = strokes_wrong = first_wrong = 0
    for name in clips:
        calls = call_outcome(name)
        exact += calls["exact"]
        pots_missed += calls["pots_truth"] - calls["pots_right_pocket"]
        false_pots += calls["false_pots"]
        strokes_wrong += abs(calls["strokes_found"] - calls["strokes_truth"])
        first_wrong += calls["strokes_truth"] - calls["first_contact_right"]
    return {
        f"{prefix}scores_exact_fraction": exact / len(clips),
        f"{prefix}pots_missed": float(pots_missed),
        f"{prefix}false_pots": float(false_pots),
        f"{prefix}strokes_wrong": float(strokes_wrong),
        f"{prefix}first_contact_wrong": float(first_wrong),
    }


def perception_metrics(clips: tuple[str, ...] = ("overhead_miss", "overhead_free_ball"),
                       step: int = 5, prefix: str = "perception.") -> dict[str, float]:
    """Positions at rest and calls on the given clips (metric names start with ``prefix``):
    :func:`detection_metrics` and :func:`call_metrics`."""
    return {**detection_metrics(clips, step, prefix), **call_metrics(clips, prefix)}


def replace_section(doc: Path, title: str, section: str) -> None:
    """Replace (or append) the ``## title`` section of a markdown file."""
    text = doc.read_text() if doc.exists() else f"# {doc.stem.title()}\n\n"
    # the heading line itself, not a longer one it begins ("Calibration" is not "Calibration
    # on real footage ...")
    head = f"## {title}\n"
    start = 0 if text.startswith(head) else text.find("\n" + head) + 1
    if start > 0 or text.startswith(head):
        end = text.find("\n## ", start + 5)
        rest = text[end + 1:] if end >= 0 else ""
        text = text[:start] + section.rstrip() + "\n" + ("\n" + rest if rest else "")
    else:
        text = text.rstrip() + "\n\n" + section
    doc.write_text(text)


def _lab_split_figures(rows: list[dict[str, Any]], split: str) -> dict[str, float]:
    """Balls, balls found, found with the right colour, and the median detection error (mm) of
    the lab images (``lab_stills``' ``per_image`` rows) in one split of the footage."""
    from tracker.footage_eval import lab_by_split

    s = lab_by_split(rows)[split]
    mm = s["detection_mm_median"]
    return {"balls": float(s["balls"]), "found": float(s["found"]),
            "colour_right": float(s["colour_right"] or 0),
            "mm_median": float("nan") if mm is None else mm}


def lab_metrics(lab: dict[str, Any]) -> dict[str, float]:
    """The gate's figures of the overhead lab stills (``lab_stills``' result): with_halo_2's
    balls found with the right colour, without_halo's balls found and their detection error
    (mm, median), for the whole set and for each split of the footage (``.dev``, ``.test``:
    :mod:`tracker.footage_split`), with each one's ball count (``_n``)."""
    h, w = lab["with_halo_2"], lab["without_halo"]
    out = {
        "real.lab_coloured_found_right_fraction": h["colour_right"] / h["balls"],
        "real.lab_found_fraction": w["found"] / w["balls"],
        "real.lab_detection_mm_median": w["detection_mm_median"],
        "real.lab_coloured_balls_n": float(h["balls"]), "real.lab_balls_n": float(w["balls"]),
    }
    for split in ("dev", "test"):
        hs, ws = _lab_split_figures(h["per_image"], split), _lab_split_figures(w["per_image"], split)
        out[f"real.lab_coloured_found_right_fraction.{split}"] = hs["colour_right"] / max(hs["balls"], 1)
        out[f"real.lab_coloured_balls_n.{split}"] = hs["balls"]
        out[f"real.lab_found_fraction.{split}"] = ws["found"] / max(ws["balls"], 1)
        out[f"real.lab_balls_n.{split}"] = ws["balls"]
        out[f"real.lab_detection_mm_median.{split}"] = ws["mm_median"]
    return out


def clip_metrics(cl: dict[str, Any]) -> dict[str, float]:
    """The gate's figures of the broadcast clips (``broadcast_clips``' result): the share called
    right and the share called cleanly, for all and for each split of the footage, with the
    number of clips (``_n``)."""
    from tracker.footage_split import load_split, split_of

    out = {"real.clips_right_fraction": cl["right"] / cl["clips"],
           "real.clips_clean_fraction": cl["clean"] / cl["clips"], "real.clips_n": float(cl["clips"])}
    table = load_split()
    for split in ("dev", "test"):
        rows = [r for r in cl["rows"] if split_of(f"broadcast-snooker/clips/{r['clip']}.mp4", table) == split]
        if rows:
            out[f"real.clips_right_fraction.{split}"] = sum(r["right"] for r in rows) / len(rows)
            out[f"real.clips_clean_fraction.{split}"] = sum(r.get("clean", False) for r in rows) / len(rows)
        out[f"real.clips_n.{split}"] = float(len(rows))
    return out


def real_metrics(clips: tuple[int, ...] = (2, 4, 6, 9, 10, 11, 12)) -> dict[str, float]:
    """The real-footage subset: both overhead lab sets (:func:`lab_metrics`) and seven broadcast
    clips (:func:`clip_metrics`): five development clips (the one with no pot, and the hard
    ones: a yellow dropping slowly into a middle pocket, two blacks struck too hard to be seen,
    a score bar over the near cushion) and the two test clips (9 and 10), so the test split is
    gated too; empty when ``../shared/footage`` is absent."""
    from tracker.footage_eval import broadcast_clips, lab_stills

    lab = lab_stills()
    if lab is None:
        return {}
    return {**lab_metrics(lab), **clip_metrics(broadcast_clips(clips=list(clips)))}


def fast_metrics() -> dict[str, float]:
    """The CI subset."""
    return {**referee_metrics(), **calibration_metrics(), **perception_metrics(),
            **perception_metrics(("broadcast_pots",), step=10, prefix="perception.broadcast."),
            **real_metrics()}


def compare(metrics: dict[str, float], reference: dict[str, Any]) -> list[str]:
    """Regressions of ``metrics`` against ``reference`` ({name: {"value", "better",
    "tolerance"}}, ``better`` one of ``higher``, ``lower``, or ``same`` for a count of what is
    judged): one line per metric worse than its tolerance, changed (``same``), not a number, or
    missing."""
    out = []
    for name, ref in reference.items():
        if name.startswith("real.") and not any(k.startswith("real.") for k in metrics):
            continue  # the real footage is not on this machine: reported by the caller
        if name not in metrics:
            out.append(f"{name}: not measured (reference {ref['value']})")
            continue
        v, r, tol = metrics[name], ref["value"], ref["tolerance"]
        if not np.isfinite(v):
            out.append(f"{name}: not a number (reference {r:.4g})")
            continue
        if ref["better"] == "same":
            if abs(v - r) > tol:
                out.append(f"{name}: {v:.4g} where the reference judged {r:.4g}: what is measured "
                           "changed, so the figures beside it are not comparable")
            continue
        worse = v - r if ref["better"] == "lower" else r - v
        if worse > tol:
            out.append(f"{name}: {v:.4g} against reference {r:.4g} ({ref['better']} is better, "
                       f"tolerance {tol:g}): worse by {worse:.4g}")
    return out


#: The smallest change of a continuous figure that is called a real regression, with why; the
#: tolerance is the measured run-to-run spread plus this margin.
MARGINS: dict[str, tuple[float, str]] = {
    "corner_px_median": (0.05, "0.05 px, a twentieth of a pixel at the table's corners"),
    "calibration.overhead.ball_mm_p95": (0.1, "0.1 mm, a fifth of today's figure"),
    "calibration.broadcast.ball_mm_p95": (0.2, "0.2 mm, an eighth of today's figure"),
    "perception.position_mm_median": (0.1, "0.1 mm, an eighth of today's figure"),
    "perception.position_mm_p95": (0.3, "0.3 mm, an eighth of today's figure"),
    "perception.broadcast.position_mm_median": (0.2, "0.2 mm, a twenty-fifth of today's figure"),
    "perception.broadcast.position_mm_p95": (1.0, "1 mm, a fifteenth of today's figure"),
    "lab_detection_mm_median": (0.2, "0.2 mm on the real table, a fourteenth of today's figure"),
}

#: A share's denominator: the metric (same prefix and split) that counts what it is a share of,
#: or a fixed count.
DENOMINATORS: dict[str, str | float] = {
    "found_fraction": "balls_n", "pooltool_agreement": "pooltool_strokes_n",
    "lab_coloured_found_right_fraction": "lab_coloured_balls_n", "lab_found_fraction": "lab_balls_n",
    "clips_right_fraction": "clips_n", "clips_clean_fraction": "clips_n",
    "perception.scores_exact_fraction": 2.0, "perception.broadcast.scores_exact_fraction": 1.0,
}


def _is_size(name: str) -> bool:
    """Whether ``name`` counts what is judged (``balls_n``, ``clips_n.test``)."""
    return any(part.endswith("_n") for part in name.split("."))


def _step(name: str, metrics: dict[str, float]) -> tuple[float, str, bool]:
    """The smallest real regression of metric ``name`` as (size, words, discrete): one unit of a
    count or share, or the stated margin of a continuous figure."""
    split = next((s for s in (".dev", ".test") if name.endswith(s)), "")
    base = name[: len(name) - len(split)]
    short = base.split(".")[-1]
    for key in (base, short):
        if key in DENOMINATORS:
            den = DENOMINATORS[key]
            if isinstance(den, str):
                den = metrics.get(base[: len(base) - len(short)] + den + split, float("nan"))
            n = float(den)
            return 1.0 / n if n > 0 else float("nan"), f"one in {n:g}", True
    for key in (base, short):
        if key in MARGINS:
            return MARGINS[key][0], MARGINS[key][1], False
    return 1.0, "one", True


def tolerance_of(name: str, runs: list[dict[str, float]]) -> tuple[float, str]:
    """The tolerance of metric ``name`` measured in ``runs`` (several runs of the same code) and
    its reason: the run-to-run spread (max - min) plus half a unit for a count or a share (so one
    ball, stroke or clip worse fails while the spread stays under half a unit), or plus the
    stated margin for a continuous figure (:data:`MARGINS`)."""
    vals = [r[name] for r in runs if name in r]
    spread = float(max(vals) - min(vals)) if vals else 0.0
    if _is_size(name):
        return 0.0, "what is judged: any change makes the shares beside it incomparable"
    step, words, discrete = _step(name, runs[-1])
    if not np.isfinite(step):
        return 0.0, "nothing judged in this set: any figure is a change"
    if discrete:
        tol = spread + step / 2
        caught = "one worse fails" if spread < step / 2 else "NOT one worse: the spread is too wide"
        return round(tol, 6), (f"spread {spread:.4g} over {len(vals)} runs + half a unit ({words}): "
                               f"{caught}")
    return round(spread + step, 6), f"spread {spread:.4g} over {len(vals)} runs + margin {words}"


def reference_from_runs(runs: list[dict[str, float]], old: dict[str, Any] | None = None,
                        keep_tolerances: bool = False) -> dict[str, Any]:
    """A reference table from one or more runs of the same code: each metric's value (the
    median over the runs), direction, tolerance and the tolerance's reason
    (:func:`tolerance_of`); with ``keep_tolerances``, a metric already in ``old`` keeps its
    tolerance and reason."""
    lower = ("median", "p95", "errors", "wrong", "missed", "false", "px", "mm")
    out = {}
    for k in runs[-1]:
        prev = (old or {}).get(k, {})
        better = "same" if _is_size(k) else (
            prev.get("better") or ("lower" if any(w in k for w in lower) else "higher"))
        if keep_tolerances and "tolerance" in prev:
            tol, reason = prev["tolerance"], prev.get("reason", "")
        else:
            tol, reason = tolerance_of(k, runs)
        vals = [r[k] for r in runs if k in r]
        out[k] = {"value": round(float(np.median(vals)), 6), "better": better, "tolerance": tol,
                  "reason": reason, **({"note": prev["note"]} if "note" in prev else {})}
    return out


def reference_from(metrics: dict[str, float], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """A reference table from one run's metrics (keeping old directions and tolerances; a new
    metric's tolerance as :func:`tolerance_of` gives it for a spread of zero)."""
    return reference_from_runs([metrics], old, keep_tolerances=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m tracker.evaluate RUN.json RUN.json ...``: write the reference
    (``bench/reference-metrics.json``) from several ``eval --fast --metrics`` runs."""
    import sys

    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not paths or any(not p.is_file() for p in paths):
        print("give two or more metrics files written by eval --fast --metrics", file=sys.stderr)
        return 2
    try:
        runs = [json.loads(p.read_text()) for p in paths]
    except ValueError as exc:
        print(f"a metrics file is not one eval --fast --metrics wrote ({exc}): run eval again",
              file=sys.stderr)
        return 2
    old = json.loads(REFERENCE.read_text()) if REFERENCE.is_file() else None
    REFERENCE.write_text(json.dumps(reference_from_runs(runs, old), indent=1) + "\n")
    print(f"reference written from {len(runs)} runs: {REFERENCE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
