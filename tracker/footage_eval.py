"""Perception measured on the real footage in ``../shared/footage`` (see its README).

Nothing here is copied into the project: the files are read where they lie, and every
function returns ``None`` when the folder is absent (a checkout without ``../shared``).

- Overhead lab stills (``overhead-lab-snooker``): balls found within 0.6 ball radii of the
  labelled pixel, the right colour (``with_halo_2`` has colours), position error on the table
  against the labelled millimetres. The camera is fixed, as in a hall: one calibration per
  set, the automatic calibration of the set's frame that fits the cushions best (judged by its
  own fit, not by the labels). Colours are learned from the set's *other* images (leave one
  out), as a hall learns them once per camera.
- Broadcast stills: balls counted per colour against the labelled counts.
- Broadcast clips: pot yes/no and the potted colour against the labels
  (:func:`tracker.perception.potwatch.watch_pots`).
- Pool clips (``pool/albertomors-8ball``, a cross-domain check): the labelled ball boxes of
  each clip's first and last frame found (recall) and the detections that are balls
  (precision).

Every function takes ``detector``: ``colour``, ``learned`` or ``auto``
(:func:`tracker.perception.learned.resolve`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FOOTAGE = ROOT.parent / "shared" / "footage"

#: The broadcast clips' pocket numbers (undocumented in the source) as our pocket names, for a
#: camera behind the black-spot end: 1/2 far left/right (baulk end), 3/4 near left/right,
#: 5/6 middle left/right as seen on screen. Clip 1 ("2", far right) is the README's anchor;
#: the rest follow the same reading of the screen and are an inference, reported as such.
CLIP_POCKETS = {"1": "baulk_right", "2": "baulk_left", "3": "top_right", "4": "top_left",
                "5": "middle_right", "6": "middle_left"}


def footage(base: Path | None = None) -> Path | None:
    """The footage folder, or None when it is not there."""
    b = base or FOOTAGE
    return b if b.exists() else None


def _lab_truth_mm(balls: list[dict], width: float, length: float) -> np.ndarray:
    """Labelled ball positions (N, 2) in our table frame: the labels have the origin at the
    table centre, x along the long axis toward the top end, y toward the left of a player at
    baulk."""
    return np.array([[width / 2 - b["y"], b["x"] + length / 2] for b in balls])


def lab_stills(base: Path | None = None, folders: tuple[str, ...] = ("with_halo_2", "without_halo"),
               detector: str = "auto") -> dict[str, Any] | None:
    """Detection on the overhead lab stills; per folder: images, balls, found, colour right
    (None where the labels have no colours), pixel and millimetre errors, extra detections,
    and ``per_image`` rows (the image relative to the footage folder, its balls, found, colour
    right, extra detections, and its errors in mm: against the labelled mm, and the detector's
    own share) for figures per split of the footage."""
    from calibration.table import TableGeometry

    root = footage(base)
    if root is None:
        return None
    lab = root / "overhead-lab-snooker"
    table = TableGeometry.of_size(1881, 943, 52.3)
    sets = _lab_sets(lab, folders)
    cals = _lab_calibrations(sets, table)
    every = [c for cs in cals.values() for c in cs]
    if not every:
        return {f: {"images": len(sets[f][1]), "calibrated": 0} for f in sets}
    # one fixed camera for every set: its calibration is the best-fitting frame's
    cal = min(every, key=lambda c: c.fit_error_mm["median"])
    return {folder: {"images": len(imgs), "calibrated": len(cals[folder]),
                     **_lab_folder(cases, imgs, cal, table, detector, folder)}
            for folder, (cases, imgs) in sets.items()}


def _lab_sets(lab: Path, folders: tuple[str, ...]) -> dict[str, tuple[list[dict], list[np.ndarray]]]:
    """Per folder of the lab stills: its labelled cases whose image is there, and the images
    (BGR)."""
    import cv2

    sets = {}
    for folder in folders:
        cases = json.loads((lab / folder / "testcases.json").read_text())["cases"]
        cases = [c for c in cases if (lab / folder / c["image"].split("/")[-1]).exists()]
        sets[folder] = (cases, [cv2.imread(str(lab / folder / c["image"].split("/")[-1])) for c in cases])
    return sets


def _lab_calibrations(sets: dict[str, tuple[list[dict], list[np.ndarray]]], table: Any
                      ) -> dict[str, list[Any]]:
    """Per folder, the calibrations of its images where the table was found."""
    from calibration.finder import TableNotFound
    from tracker.perception.calibrate import calibrate_image

    cals: dict[str, list[Any]] = {}
    for folder, (_, imgs) in sets.items():
        cals[folder] = []
        for img in imgs:
            try:
                cals[folder].append(calibrate_image(img, table))
            except TableNotFound:
                continue
    return cals


def _lab_folder(cases: list[dict], imgs: list[np.ndarray], cal: Any, table: Any,
                detector: str, folder: str) -> dict[str, Any]:
    """The detection scores of one folder of lab stills with the camera ``cal`` (each image's
    colours learned from the others), with a row per image (``per_image``: its footage path,
    balls, found, colour right, extra detections and mm errors) for the split's figures."""
    from tracker.perception.learned import prepared_detector

    n = {"balls": 0, "found": 0, "colour_right": 0, "extra": 0}
    coloured = all("type" in b for c in cases for b in c["balls"])
    err: dict[str, list[float]] = {"px": [], "mm": [], "det": []}
    misses: list[str] = []
    per_image: list[dict[str, Any]] = []
    for i, (case, img) in enumerate(zip(cases, imgs, strict=True)):
        det = prepared_detector(cal, img, detector, 1.0,
                                colours=[im for j, im in enumerate(imgs) if j != i])
        before, n_mm, n_det = dict(n), len(err["mm"]), len(err["det"])
        _lab_case(case, det.detect_constrained(img), cal, table, coloured, n, err, misses)
        per_image.append({
            "image": f"overhead-lab-snooker/{folder}/{case['image'].split('/')[-1]}",
            **{k: n[k] - before[k] for k in ("balls", "found")},
            "colour_right": n["colour_right"] - before["colour_right"] if coloured else None,
            "extra_detections": n["extra"] - before["extra"], "mm": err["mm"][n_mm:],
            "detection_mm": err["det"][n_det:]})
    px_err, mm_err, det_err = err["px"], err["mm"], err["det"]
    return {
        "balls": n["balls"], "found": n["found"],
        "colour_right": n["colour_right"] if coloured else None, "extra_detections": n["extra"],
        "px_median": float(np.median(px_err)) if px_err else None,
        "mm_median": float(np.median(mm_err)) if mm_err else None,
        "mm_p95": float(np.percentile(mm_err, 95)) if mm_err else None,
        "detection_mm_median": float(np.median(det_err)) if det_err else None,
        "detection_mm_p95": float(np.percentile(det_err, 95)) if det_err else None,
        "calibration_fit_mm": cal.fit_error_mm["median"], "misses": misses,
        "per_image": per_image,
    }


def _lab_case(case: dict, d: Any, cal: Any, table: Any, coloured: bool, n: dict[str, int],
              err: dict[str, list[float]], misses: list[str]) -> None:
    """Match one labelled still's balls to the detections ``d``: counts into ``n``, errors
    (px, mm, the detector's own mm) into ``err``, what was missed or misread into
    ``misses``."""
    from tracker.perception.detect import CLASSES

    truth_px = np.array([[b["pixelX"], b["pixelY"]] for b in case["balls"]])
    truth_mm = _lab_truth_mm(case["balls"], table.width, table.length)
    used: set[int] = set()
    for k, b in enumerate(case["balls"]):
        n["balls"] += 1
        if not len(d):
            continue
        dist = np.linalg.norm(d.px - truth_px[k], axis=1)
        j = int(np.argmin(dist))
        if dist[j] > 0.6 * d.radius_px[j] or j in used:
            misses.append(f"{case['image'].split('/')[-1]} {b.get('type', 'ball').lower()} "
                          f"at ({truth_px[k][0]:.0f}, {truth_px[k][1]:.0f}) px: not found")
            continue
        used.add(j)
        n["found"] += 1
        err["px"].append(float(dist[j]))
        err["mm"].append(float(np.linalg.norm(d.mm[j] - truth_mm[k])))
        # the detector's own share: the labelled pixel through the same calibration
        err["det"].append(float(np.linalg.norm(d.mm[j] - cal.ball_to_table(truth_px[k:k + 1])[0])))
        if coloured:
            ok = CLASSES[d.cls[j]] == b["type"].lower()
            n["colour_right"] += ok
            if not ok:
                misses.append(f"{case['image'].split('/')[-1]} {b['type'].lower()} read as "
                              f"{CLASSES[d.cls[j]]}")
    n["extra"] += len(d) - len(used)


def lab_by_split(per_image: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A lab set's per-image rows (:func:`lab_stills`'s ``per_image``) added up per split of
    the footage (``dev``, ``test``; :mod:`tracker.footage_split`): images, balls, found, colour
    right (None without colour labels), extra detections, the median error against the
    labelled mm and the detector's own median (the labelled pixel through the same camera)."""
    from tracker.footage_split import load_split, split_of

    table = load_split()
    out: dict[str, dict[str, Any]] = {}
    for split in ("dev", "test"):
        rows = [r for r in per_image if split_of(r["image"], table) == split]
        mm = [e for r in rows for e in r["mm"]]
        det_mm = [e for r in rows for e in r["detection_mm"]]
        coloured = all(r["colour_right"] is not None for r in rows)
        out[split] = {
            "images": len(rows), "balls": sum(r["balls"] for r in rows),
            "found": sum(r["found"] for r in rows),
            "colour_right": sum(r["colour_right"] for r in rows) if coloured else None,
            "extra_detections": sum(r["extra_detections"] for r in rows),
            "mm_median": float(np.median(mm)) if mm else None,
            "detection_mm_median": float(np.median(det_mm)) if det_mm else None}
    return out


def broadcast_stills(base: Path | None = None, detector: str = "auto") -> dict[str, Any] | None:
    """Balls counted per colour on the broadcast stills against the labels."""
    import cv2

    from calibration.finder import TableNotFound
    from calibration.table import STANDARD_TABLE
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.detect import CLASSES
    from tracker.perception.learned import prepared_detector

    root = footage(base)
    if root is None:
        return None
    folder = root / "broadcast-snooker" / "stills"
    rows = []
    for gt_path in sorted((folder / "ground-truth").glob("*_gt.txt"), key=lambda p: int(p.name.split("_")[0])):
        n = gt_path.name.split("_")[0]
        lines = gt_path.read_text().split("\n")
        truth = {c: 0 for c in CLASSES}
        for line in lines[1:]:
            parts = line.split()
            if len(parts) == 2:
                truth[parts[1].lower()] = int(parts[0])
        img = cv2.imread(str(folder / f"{n}.jpg"))
        try:
            cal = calibrate_image(img, STANDARD_TABLE)
        except TableNotFound as exc:
            rows.append({"still": n, "truth": truth, "seen": None, "reason": str(exc)})
            continue
        det = prepared_detector(cal, img, detector, 1.0)
        d = det.detect_constrained(img)
        seen = {c: int((d.cls == k).sum()) for k, c in enumerate(CLASSES)}
        rows.append({"still": n, "truth": truth, "seen": seen})
    done = [r for r in rows if r["seen"] is not None]
    per_colour = {c: sum(r["seen"][c] == r["truth"][c] for r in done) for c in CLASSES}
    return {
        "stills": len(rows), "calibrated": len(done),
        "all_counts_exact": sum(r["seen"] == r["truth"] for r in done),
        "total_exact": sum(sum(r["seen"].values()) == sum(r["truth"].values()) for r in done),
        "per_colour_exact": per_colour,
        "balls_truth": sum(sum(r["truth"].values()) for r in done),
        "balls_seen": sum(sum(r["seen"].values()) for r in done),
        "abs_count_error": sum(abs(r["seen"][c] - r["truth"][c]) for r in done for c in CLASSES),
        "rows": rows,
    }


def stills_by_split(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The broadcast stills' rows (:func:`broadcast_stills`'s ``rows``) added up per split of
    the footage: stills, calibrated, every count exact, the total exact, count errors."""
    from tracker.footage_split import load_split, split_of

    table = load_split()
    out: dict[str, dict[str, Any]] = {}
    for split in ("dev", "test"):
        rows_s = [r for r in rows
                  if split_of(f"broadcast-snooker/stills/{r['still']}.jpg", table) == split]
        done = [r for r in rows_s if r["seen"] is not None]
        out[split] = {
            "stills": len(rows_s), "calibrated": len(done),
            "all_counts_exact": sum(r["seen"] == r["truth"] for r in done),
            "total_exact": sum(sum(r["seen"].values()) == sum(r["truth"].values()) for r in done),
            "balls_truth": sum(sum(r["truth"].values()) for r in done),
            "abs_count_error": sum(abs(r["seen"][c] - r["truth"][c]) for r in done
                                   for c in r["truth"])}
    return out


def broadcast_clips(base: Path | None = None, clips: list[int] | None = None,
                    detector: str = "auto") -> dict[str, Any] | None:
    """Pot yes/no and the potted colour on the broadcast clips against the labels."""
    from tracker.perception.potwatch import ClipError, watch_pots

    root = footage(base)
    if root is None:
        return None
    folder = root / "broadcast-snooker" / "clips"
    names = clips or sorted(int(p.stem) for p in folder.glob("*.mp4"))
    rows = []
    for n in names:
        gt = (folder / "ground-truth" / f"{n}_gt.txt").read_text().split()
        truth_yes = gt[0].upper() == "YES"
        truth_colour = gt[2].lower() if truth_yes and len(gt) > 2 else None
        truth_pocket = CLIP_POCKETS.get(gt[1]) if truth_yes and len(gt) > 1 else None
        try:
            res = watch_pots(folder / f"{n}.mp4", detector=detector)
        except ClipError as exc:
            rows.append({"clip": n, "truth": gt, "pots": None, "right": False,
                         "reason": str(exc).split(": ", 1)[-1]})
            continue
        pots = res.object_pots()
        said_yes = bool(pots)
        colour = pots[0][0].split("_")[0] if pots else None
        pocket = pots[0][1] if pots else None
        right = said_yes == truth_yes and (not truth_yes or colour == truth_colour)
        # clean: nothing but the labelled pot (no second, false pot; an in-off of the white is
        # reported apart and not counted)
        clean = right and len(pots) == (1 if truth_yes else 0)
        rows.append({"clip": n, "truth": gt, "pots": [list(p) for p in res.pots], "said_yes": said_yes,
                     "colour": colour, "pocket": pocket, "right": right, "clean": clean,
                     "pocket_right": right and truth_yes and pocket == truth_pocket,
                     "calibration_fit_mm": res.calibration.fit_error_mm["median"]})
    return {"clips": len(rows), "right": sum(r["right"] for r in rows),
            "clean": sum(r.get("clean", False) for r in rows),
            "pocket_right": sum(r.get("pocket_right", False) for r in rows),
            "yes_truth": sum(r["truth"][0].upper() == "YES" for r in rows), "rows": rows}


def broadcast_tracks(base: Path | None = None, step: int = 6, detector: str = "auto",
                     clips: list[int] | None = None) -> dict[str, Any] | None:
    """Ball centres on the broadcast clips against the labelled boxes of two balls per clip
    (``clips/tracks/ground-truth``): every ``step``-th frame, the detection nearest each box's
    centre (within 10 px) and its pixel offset. The boxes are whole-pixel and hand-drawn
    around the ball, so this bounds the detector's error on real TV pictures at about a pixel;
    the mean offset shows a systematic lean (the shading under a ball pulls its centroid toward
    where it touches the cloth). ``clips``: these clip numbers only (default: all)."""
    import cv2

    from calibration.finder import TableNotFound
    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_best
    from tracker.perception.learned import prepared_detector
    from tracker.perception.potwatch import _sample

    root = footage(base)
    if root is None:
        return None
    folder = root / "broadcast-snooker" / "clips"
    table = TableGeometry.standard()
    offsets: list[np.ndarray] = []
    labelled = 0
    for video in sorted(folder.glob("*.mp4"), key=lambda p: int(p.stem)):
        n = int(video.stem)
        if clips is not None and n not in clips:
            continue
        cap = cv2.VideoCapture(str(video))
        frames = _sample(cap, int(cap.get(cv2.CAP_PROP_FRAME_COUNT)), 8)
        try:
            cal = calibrate_best(frames, table)
        except TableNotFound:
            continue
        det = prepared_detector(cal, frames[0], detector, 1.0, others=frames[1:], colours=frames)
        boxes = []
        for gt in sorted((folder / "tracks" / "ground-truth").glob(f"{n}_ball_*_gt.txt")):
            rows = [line.split() for line in gt.read_text().splitlines() if line.strip()]
            boxes.append({int(r[0]): np.array(r[1:5], float) for r in rows})
        f = 0
        while True:
            ok, img = cap.read()
            if not ok:
                break
            if f % step == 0:
                d = det.detect(img)
                for b in boxes:
                    if f not in b:
                        continue
                    labelled += 1
                    c = (b[f][:2] + b[f][2:]) / 2
                    if len(d):
                        e = np.linalg.norm(d.px - c, axis=1)
                        j = int(np.argmin(e))
                        if e[j] <= 10.0:
                            offsets.append(d.px[j] - c)
            f += 1
        cap.release()
    off = np.array(offsets) if offsets else np.zeros((0, 2))
    dist = np.linalg.norm(off, axis=1)
    return {"labelled": labelled, "found": len(off),
            "px_median": float(np.median(dist)) if len(dist) else None,
            "px_p95": float(np.percentile(dist, 95)) if len(dist) else None,
            "mean_offset_px": [round(float(v), 2) for v in off.mean(0)] if len(off) else None}


#: The pool clips' table: a 9-ft pool table's playing area and ball, mm (the source does not say;
#: both broadcast tables are 9-ft tournament tables).
POOL_TABLE_MM = (2540.0, 1270.0, 57.15)


def pool_boxes(base: Path | None = None, detector: str = "auto") -> dict[str, Any] | None:
    """Ball boxes on the pool clips' first and last frames (``pool/albertomors-8ball``): a
    labelled ball is found when a detection's centre lies inside its box; a detection is right
    when it lies inside some box. Colours are not compared (pool balls are not snooker's)."""
    import cv2

    from calibration.finder import TableNotFound
    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image
    from tracker.perception.learned import prepared_detector

    root = footage(base)
    if root is None or not (root / "pool" / "albertomors-8ball").exists():
        return None
    table = TableGeometry.of_size(*POOL_TABLE_MM)
    rows = []
    for clip in sorted(p for p in (root / "pool" / "albertomors-8ball").iterdir() if p.is_dir()):
        for which in ("first", "last"):
            img = cv2.imread(str(clip / f"frame_{which}.png"))
            boxes = np.array([[float(v) for v in line.split()[:4]] for line in
                              (clip / f"frame_{which}_bbox.txt").read_text().splitlines() if line.strip()])
            row = {"image": f"{clip.name}/{which}", "boxes": len(boxes)}
            try:
                cal = calibrate_image(img, table)
            except TableNotFound as exc:
                rows.append({**row, "calibrated": False, "reason": str(exc)})
                continue
            det = prepared_detector(cal, img, detector, 1.0)
            d = det.detect(img)
            inside = ((d.px[:, None, 0] >= boxes[None, :, 0]) & (d.px[:, None, 0] <= boxes[None, :, 0] + boxes[None, :, 2])
                      & (d.px[:, None, 1] >= boxes[None, :, 1]) & (d.px[:, None, 1] <= boxes[None, :, 1] + boxes[None, :, 3]))
            rows.append({**row, "calibrated": True, "detections": len(d),
                         "found": int(inside.any(0).sum()), "right": int(inside.any(1).sum())})
    done = [r for r in rows if r.get("calibrated")]
    return {"images": len(rows), "calibrated": len(done),
            "boxes": sum(r["boxes"] for r in done), "found": sum(r["found"] for r in done),
            "detections": sum(r["detections"] for r in done), "right": sum(r["right"] for r in done),
            "rows": rows}
