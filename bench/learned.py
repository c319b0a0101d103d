"""The colour and the learned detector side by side, on the same data, and their speed.

    .venv/bin/python bench/learned.py [--skip-real]

Per detector (``colour``; ``learned``: the same candidates judged by the ONNX crop classifier;
``auto``: the default, resolved per picture by :func:`tracker.perception.learned.resolve`):

- synthetic sample clips (``sample_videos``): balls at rest found, colour errors, detections
  matching no ball (:func:`tracker.evaluate.position_errors`);
- real footage in ``../shared/footage`` (:mod:`tracker.footage_eval`): broadcast stills counted
  per colour, overhead lab stills found with the right colour, the pool clips' labelled boxes (a
  cross-domain check), all three measured as ``bench/stills.py`` measures them
  (:func:`bench.stills.measure`, its "all" figures), and the broadcast clips' pots;
- the TV bot frames (``bench/first_contact.py broadcast 5 90 [colour|learned]``), read from
  their metrics files when present, each with the commit its section in docs/ACCURACY.md names
  (that bench takes ~15 min per detector); the default run is ``auto``, which is ``learned`` on
  that camera, so it stands for ``learned`` too when no ``learned`` run is on file;
- speed: ``detect`` per 1080p frame, colour and learned on the same frames in one run (``auto``
  is one of them per camera).

Writes the "Detectors side by side" section of docs/ACCURACY.md, the "Detector speed" section
of docs/BENCHMARKS.md and docs/metrics-learned.json.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import measured  # noqa: E402
from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import SAMPLES, position_errors, replace_section  # noqa: E402
from tracker.perception.learned import DETECTORS  # noqa: E402

TIMED = ("colour", "learned")


def speed(n: int = 40) -> dict[str, dict[str, float]]:
    """Milliseconds per 1080p frame of ``detect`` for each detector, interleaved frame by frame
    over ``n`` frames of the overhead and the TV sample clips (same frames, same run)."""
    import cv2

    from calibration.table import STANDARD_TABLE as T
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.learned import prepared_detector, resolve

    out: dict[str, dict[str, float]] = {}
    for clip in ("overhead_frame", "broadcast_pots"):
        cap = cv2.VideoCapture(str(SAMPLES / f"{clip}.mp4"))
        total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        frames = []
        for i in np.linspace(0, total - 1, n).astype(int):
            cap.set(cv2.CAP_PROP_POS_FRAMES, int(i))
            ok, img = cap.read()
            if ok:
                frames.append(img)
        cap.release()
        cal = calibrate_image(frames[0], T)
        dets = {k: prepared_detector(cal, frames[0], k) for k in TIMED}
        took = {k: 0.0 for k in TIMED}
        cands = 0
        for img in frames:
            for k, d in dets.items():
                t0 = time.perf_counter()
                d.detect(img)
                took[k] += time.perf_counter() - t0
            cands += len(dets["learned"].candidates(img))
        out[clip] = {k: 1000 * v / len(frames) for k, v in took.items()}
        out[clip]["frames"] = len(frames)
        out[clip]["candidates_per_frame"] = cands / len(frames)
        out[clip]["auto_is"] = resolve("auto", cal)
    return out


def synthetic() -> dict[str, dict[str, dict]]:
    """Sample clips' balls at rest, per detector."""
    out: dict[str, dict[str, dict]] = {}
    for clip in ("overhead_frame", "broadcast_pots"):
        out[clip] = {}
        for k in DETECTORS:
            r = position_errors(clip, step=5, detector=k)
            out[clip][k] = {"total": r["total"], "found": r["found"],
                            "colour_errors": r["colour_errors"],
                            "unmatched": r["unmatched_detections"],
                            "median_mm": float(np.median(r["errors"])) if r["errors"] else None}
    return out


def real() -> dict[str, dict[str, dict]] | None:
    """The real footage measures, per detector (None without ../shared/footage): the stills
    as ``bench/stills.py`` measures them (both splits together), the broadcast clips' pots."""
    from bench.stills import measure
    from tracker.footage_eval import broadcast_clips, footage

    if footage() is None:
        return None
    out: dict[str, dict[str, dict]] = {}
    for k in DETECTORS:
        m = measure(k)
        out[k] = {"stills": m["broadcast"]["all"],
                  "lab": {s: v["all"] for s, v in m["lab"].items()},
                  "clips": broadcast_clips(detector=k),
                  "pool": m["pool_boxes"]["all"] if m["pool_boxes"] else None}
    return out


def _section_commit(title: str) -> str | None:
    """The commit named by the ``## title`` section of docs/ACCURACY.md (None if absent)."""
    text = (ROOT / "docs" / "ACCURACY.md").read_text()
    start = text.find(f"## {title}\n")
    if start < 0:
        return None
    m = re.search(r"commit `([0-9a-f]+)`", text[start:text.find("\n## ", start + 5)])
    return m.group(1) if m else None


def _first_contact(detector: str, auto_is: str) -> dict | None:
    """The TV bot frames' figures of ``detector`` from their metrics file; for ``learned``
    without a file of its own, the default (``auto``) run when ``auto`` resolves to ``learned``
    on that camera (``auto_is``)."""
    name, title = f"-{detector}", f"First contact from video (broadcast, {detector} detector)"
    if detector == "auto" or (detector == auto_is and not (ROOT / "docs" / f"metrics-first-contact-broadcast{name}.json").exists()):
        name, title = "", "First contact from video (broadcast)"
    p = ROOT / "docs" / f"metrics-first-contact-broadcast{name}.json"
    if not p.exists():
        return None
    m = json.loads(p.read_text())
    strokes = [r for r in m["rows"] if "shot" in r]
    found = [r for r in strokes if r["found"]]
    c = m["cushions"]
    return {"strokes": len(strokes), "found": len(found),
            "kind": sum(r["same_kind"] for r in found), "call": sum(r["same_call"] for r in found),
            "cushions": f"{c['matched']} of {c['truth']}",
            "cushion_recall": c["matched"] / max(1, c["truth"]),
            "commit": _section_commit(title), "run": "auto" if name == "" else detector}


def _pct(a: int, b: int, digits: int = 1) -> str:
    """``a of b (share %)``, the share to ``digits`` decimals (two where a bar sits at a
    tenth: 195 of 196 is 99.49 %, short of 99.5 %, which one decimal would hide)."""
    return f"{a} of {b} ({a / max(1, b):.{digits}%})"


def _side_by_side_rows(syn: dict, fc: dict, rl: dict | None) -> list[str]:
    """The rows of "Detectors side by side": synthetic stills, the synthetic TV bot frames
    (``fc``), the real footage (``rl``; None: left out)."""
    rows = []

    def row(what: str, vals: dict[str, str], better: str) -> None:
        rows.append(f"| {what} | {vals['colour']} | {vals['learned']} | {vals['auto']} | {better} |")

    def winner(a: float, b: float, higher: bool = True) -> str:
        if abs(a - b) < 1e-9:
            return "same"
        return "learned" if (b > a) == higher else "colour"

    for k_clip, r in syn.items():
        c, le = r["colour"], r["learned"]
        row(f"synthetic `{k_clip}`: balls at rest found", {k: _pct(r[k]["found"], r[k]["total"]) for k in DETECTORS},
            winner(c["found"], le["found"]))
        row(f"synthetic `{k_clip}`: colour errors / detections matching no ball",
            {k: f"{r[k]['colour_errors']} / {r[k]['unmatched']}" for k in DETECTORS},
            winner(c["colour_errors"] + c["unmatched"], le["colour_errors"] + le["unmatched"], False))
    if all(fc.values()):
        row("synthetic TV bot frames (`first_contact.py broadcast 5 90 [DETECTOR]`): commit of the run",
            {k: f"`{fc[k]['commit']}` ({fc[k]['run']} run)" for k in DETECTORS}, "")
        row("synthetic TV bot frames: strokes found",
            {k: _pct(fc[k]["found"], fc[k]["strokes"]) for k in DETECTORS},
            winner(fc["colour"]["found"] / fc["colour"]["strokes"], fc["learned"]["found"] / fc["learned"]["strokes"]))
        row("... first object ball of the right kind", {k: _pct(fc[k]["kind"], fc[k]["found"]) for k in DETECTORS},
            winner(fc["colour"]["kind"] / max(1, fc["colour"]["found"]), fc["learned"]["kind"] / max(1, fc["learned"]["found"])))
        row("... same call as from the truth", {k: _pct(fc[k]["call"], fc[k]["found"]) for k in DETECTORS},
            winner(fc["colour"]["call"] / max(1, fc["colour"]["found"]), fc["learned"]["call"] / max(1, fc["learned"]["found"])))
        row("... cushion contacts found", {k: f"{fc[k]['cushions']} ({fc[k]['cushion_recall']:.1%})" for k in DETECTORS},
            winner(fc["colour"]["cushion_recall"], fc["learned"]["cushion_recall"]))
    if rl:
        c, le = rl["colour"], rl["learned"]
        n = c["stills"]["calibrated"]
        for col in c["stills"]["per_colour_exact"]:
            row(f"real broadcast stills: {col} count exact", {k: f"{rl[k]['stills']['per_colour_exact'][col]} / {n}" for k in DETECTORS},
                winner(c["stills"]["per_colour_exact"][col], le["stills"]["per_colour_exact"][col]))
        row("real broadcast stills: every count exact / total exact",
            {k: f"{rl[k]['stills']['all_counts_exact']} / {rl[k]['stills']['total_exact']} of {n}" for k in DETECTORS},
            winner(c["stills"]["all_counts_exact"], le["stills"]["all_counts_exact"]))
        for s in ("with_halo_2", "without_halo"):
            lab = {k: rl[k]["lab"][s] for k in DETECTORS}
            key = "colour_right" if lab["colour"]["colour_right"] is not None else "found"
            row(f"real lab stills `{s}`: {'found with the right colour' if key == 'colour_right' else 'found'} / extra detections",
                {k: f"{_pct(lab[k][key], lab[k]['balls'], 2)} / {lab[k]['extra_detections']}" for k in DETECTORS},
                winner(lab["colour"][key] - lab["colour"]["extra_detections"],
                       lab["learned"][key] - lab["learned"]["extra_detections"]))
        row("real broadcast clips: pots right / clean (no false pot)",
            {k: f"{rl[k]['clips']['right']} / {rl[k]['clips']['clean']} of {rl[k]['clips']['clips']}" for k in DETECTORS},
            winner(c["clips"]["clean"], le["clips"]["clean"]))
        if c["pool"]:
            row("real pool clips (cross-domain): labelled boxes found (recall) / detections in a box (precision)",
                {k: f"{_pct(rl[k]['pool']['found'], rl[k]['pool']['boxes'])} / {_pct(rl[k]['pool']['right'], rl[k]['pool']['detections'])}"
                 for k in DETECTORS},
                winner(c["pool"]["found"] + c["pool"]["right"] - c["pool"]["detections"],
                       le["pool"]["found"] + le["pool"]["right"] - le["pool"]["detections"]))
    return rows


def _speed_lines(run: dict, sp: dict) -> list[str]:
    """The "Detector speed" section's lines."""
    sl = ["## Detector speed", "",
          measured({k: v for k, v in run.items() if k != "seconds"})[:-1] + ": `detect` per "
          "1080p frame, both "
          "detectors interleaved frame by frame on the same frames in one run (ratios are the "
          "comparable figure on this shared machine).", "",
          "| clip | frames | candidates per frame | colour (ms/frame) | learned (ms/frame) | learned / colour | auto is |",
          "|---|---|---|---|---|---|---|"]
    for clip, v in sp.items():
        sl.append(f"| {clip} | {v['frames']} | {v['candidates_per_frame']:.1f} | {v['colour']:.1f} | "
                  f"{v['learned']:.1f} | {v['learned'] / v['colour']:.2f} | {v['auto_is']} |")
    sl += ["", "The whole pipeline with `--detector auto`: overhead it is the colour detector, the same "
           "code and the same detections as before (checked frame by frame on the sample clips), so "
           "\"Pipeline speed\" above stands; on a TV-angle view the learned detector adds the "
           "difference in this table per frame (about 0.1 ms of network and 0.02 ms of crop per "
           "candidate on one thread, plus the blob search inside packs)."]
    return sl


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--skip-real", action="store_true", help="leave out ../shared/footage")
    skip_real = ap.parse_args(argv).skip_real
    t0 = time.perf_counter()
    sp = speed()
    syn = synthetic()
    rl = None if skip_real else real()
    tv_auto = sp["broadcast_pots"]["auto_is"]
    fc = {k: _first_contact(k, tv_auto) for k in DETECTORS}
    run = run_info("python bench/learned.py" + (" --skip-real" if skip_real else ""),
                   time.perf_counter() - t0)
    head = measured(run)
    rows = _side_by_side_rows(syn, fc, rl)
    lines = ["## Detectors side by side", "", head, "",
             "The colour detector and the learned one (the same candidates judged by the ONNX crop "
             "classifier, `models/ball_classifier.md`) on the same data; `auto` (the default) "
             "uses the learned one on TV-angle views and the colour one overhead, resolved per "
             "picture (its column is measured, not copied). Synthetic "
             "figures are agreement with our own renderer; real footage decides.", "",
             "| measure | colour | learned | auto | better (colour vs learned) |", "|---|---|---|---|---|", *rows, ""]
    replace_section(ROOT / "docs" / "ACCURACY.md", "Detectors side by side", "\n".join(lines) + "\n")
    sl = _speed_lines(run, sp)
    replace_section(ROOT / "docs" / "BENCHMARKS.md", "Detector speed", "\n".join(sl) + "\n")
    (ROOT / "docs" / "metrics-learned.json").write_text(json.dumps(
        {"speed_ms": sp, "synthetic": syn, "real": rl, "first_contact_broadcast": fc}, indent=1, default=str))
    print("\n".join(lines))
    print("\n".join(sl))


if __name__ == "__main__":
    main()
