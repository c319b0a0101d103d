"""The one-shot pot watcher (``pots``) against the full chain (``process``) on the real
broadcast clips: do they see the same pots?

    flock /tmp/heavy.lock nice -n 5 .venv/bin/python bench/pots_vs_process.py [--write-doc]
        [--clips 1,5,12] [--no-more] [--end-vote] [--doc-from docs/metrics-pots-vs-process.json]

Every clip under ``broadcast-snooker/clips`` (1-12) and ``broadcast-snooker-more`` goes through
:func:`tracker.perception.potwatch.watch_pots` (what ``snooker-tracker pots VIDEO`` runs: the
camera from the best of 8 frames spread over the clip, the 22-slot tracker's pots) and through
:func:`bench.common.process_real_clip` (a plain ``snooker-tracker process VIDEO --out DIR``:
the camera from the best frames of the first seconds, the change-gated detector, the pots
recorded in the strokes' events). Per clip: the pots each found (ball kind, pocket, time s)
and whether they agree: every pot of one matched by a pot of the other of the same ball kind
(a red is a red) in the same pocket within :data:`AGREE_S` seconds.

Where they differ, the watcher is run again with ``process``'s own calibration
(``calibration.json`` of the run): if its pots then agree with ``process``'s, the cause is the
calibration each chose; if not, it lies in detection or in the watcher's own pot rule (the
bench says which it cannot tell apart; the report reads the clip). The clips' labels
(``clips/ground-truth``; ``bench/labels/real_clips.json`` for the others) say which of the two
is right. The two calibrations are compared on every clip: the largest distance, px, between
where each puts the six pockets and the six spots.

Writes docs/metrics-pots-vs-process.json always and the "Pots against process on the real
clips" section of docs/ACCURACY.md with ``--write-doc`` (skipped, with a message, when the
footage is absent).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import process_real_clip  # noqa: E402
from bench.real_process import LABELS, labelled_pots  # noqa: E402
from bench.runinfo import run_info  # noqa: E402
from tracker import balls as B  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.footage_eval import footage  # noqa: E402
from tracker.footage_split import load_split, split_of  # noqa: E402

SECTION = "Pots against process on the real clips"
#: Two pots agree when they are of the same ball kind, in the same pocket and this close, s.
AGREE_S = 1.0


def kind(ball: str) -> str:
    """A ball's kind: ``red`` for any red, else its colour (``white`` for the cue ball)."""
    return "red" if B.is_red(ball) else ball


def agree(a: list[tuple[str, str, float]], b: list[tuple[str, str, float]],
          within_s: float = AGREE_S) -> bool:
    """Whether two lists of pots ``(ball kind, pocket, t s)`` are the same pots: the same
    number, each of ``a`` matched one to one by a pot of ``b`` of the same kind and pocket
    within ``within_s`` seconds."""
    if len(a) != len(b):
        return False
    left = list(b)
    for ball, pocket, t in a:
        hit = next((q for q in left if q[0] == ball and q[1] == pocket
                    and abs(q[2] - t) <= within_s), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def calibration_gap_px(cal_a: Any, cal_b: Any) -> float:
    """The largest distance, px, between where two calibrations of one picture put the six
    pockets' mouths and the six colour spots (on the cloth)."""
    t = cal_a.table
    pts = np.array([*[p.mouth_centre for p in t.pockets.values()], *t.spots.values()], float)
    return float(np.linalg.norm(cal_a.to_image(pts) - cal_b.to_image(pts), axis=1).max())


#: Each pocket's name with the table turned end for end (the other end taken as baulk).
TURNED = {"baulk_left": "top_right", "baulk_right": "top_left", "top_left": "baulk_right",
          "top_right": "baulk_left", "middle_left": "middle_right", "middle_right": "middle_left"}
#: Two calibrations put the table in the same place when their pockets lie this close, px.
SAME_PLACE_PX = 30.0


def ends_swapped(px_a: dict[str, list[int]], px_b: dict[str, list[int]]) -> bool:
    """Whether two calibrations (their :func:`pockets_px`) put the table in the same place in
    the picture but take opposite ends as baulk: every pocket of one within
    :data:`SAME_PLACE_PX` of the other's pocket of the turned name."""
    return all(np.hypot(*np.subtract(xy, px_b[TURNED[name]])) <= SAME_PLACE_PX
               for name, xy in px_a.items())


def pockets_px(cal: Any) -> dict[str, list[int]]:
    """Where a calibration puts each pocket's mouth in the picture, px (rounded)."""
    pockets = cal.table.pockets
    px = cal.to_image(np.array([p.mouth_centre for p in pockets.values()], float))
    return {name: [int(round(v)) for v in xy] for name, xy in zip(pockets, px, strict=True)}


def watcher_pots(path: Path, calibration: Any = None) -> tuple[list[tuple[str, str, float]], Any]:
    """``pots`` on a clip: its pots ``(kind, pocket, t s)`` and the calibration it used."""
    from tracker.perception.potwatch import watch_pots

    res = watch_pots(path, calibration=calibration)
    return [(kind(b), p, round(t, 2)) for b, p, t in res.pots], res.calibration


def process_pots(path: Path, out_dir: Path) -> tuple[list[tuple[str, str, float]], Any]:
    """``process`` on a clip: the pots of its strokes' events ``(kind, pocket, t s)`` and the
    calibration it chose (the run's ``calibration.json``)."""
    from calibration.profile import Calibration

    res = process_real_clip(path, out_dir)
    pots = [(kind(e.balls[0]), e.pocket, round(e.t, 2))
            for shot in res.shots for e in shot.events if e.type == "pot"]
    return pots, Calibration.load(out_dir / "calibration.json")


def truth_right(truth: list[str] | None, pots: list[tuple[str, str, float]]) -> bool | None:
    """Right against the label: exactly the labelled balls potted (an in-off of the cue ball
    is not counted as a pot, as in bench/real_process.py); None without a label."""
    if truth is None:
        return None
    return sorted(p[0] for p in pots if p[0] != B.WHITE) == sorted(truth)


def run_clip(path: Path, tmp: Path) -> dict[str, Any]:
    """Both on one clip; on a difference, the watcher again on ``process``'s calibration."""
    from tracker.perception.potwatch import ClipError
    from tracker.pipeline import VideoError

    row: dict[str, Any] = {}
    t0 = time.perf_counter()
    try:
        w, cal_w = watcher_pots(path)
        row.update(watcher=w, watcher_fit_mm=cal_w.fit_error_mm.get("median"))
    except ClipError as exc:
        row["watcher_error"], cal_w = str(exc), None
    try:
        p, cal_p = process_pots(path, tmp)
        row.update(process=p, process_fit_mm=cal_p.fit_error_mm.get("median"))
    except VideoError as exc:
        row["process_error"], cal_p = str(exc), None
    if cal_w is not None and cal_p is not None:
        row["calibration_gap_px"] = round(calibration_gap_px(cal_w, cal_p), 1)
        row["pockets_px"] = {"watcher": pockets_px(cal_w), "process": pockets_px(cal_p)}
        row["agree"] = agree(row["watcher"], row["process"])
        row["ends_swapped"] = ends_swapped(row["pockets_px"]["watcher"], row["pockets_px"]["process"])
        if not row["agree"]:
            w2, _ = watcher_pots(path, calibration=cal_p)
            row["watcher_on_process_calibration"] = w2
            row["cause"] = ("calibration chosen differently" if agree(w2, row["process"])
                            else "detection or the watcher's pot rule (same calibration, "
                                 "still different)")
    else:
        row["agree"] = False
        row["cause"] = "one of the two could not run on the clip"
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def clips_of(root: Path, only: set[str] | None, more: bool) -> list[tuple[str, str, Path]]:
    """(group, name, path) of the broadcast clips in numbered order, then the other real
    snooker clips (``broadcast-snooker-more``) unless ``more`` is False."""
    folder = root / "broadcast-snooker" / "clips"
    out = [("broadcast", p.stem, p) for p in sorted(folder.glob("*.mp4"), key=lambda p: int(p.stem))]
    if more:
        out += [("more", p.stem, p) for p in sorted((root / "broadcast-snooker-more").glob("*.mp4"))]
    return [c for c in out if only is None or c[1] in only]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clips", help="only these clips, by name (e.g. 1,5,overhead_morge_exp)")
    ap.add_argument("--no-more", action="store_true", help="the 12 numbered broadcast clips only")
    ap.add_argument("--end-vote", action="store_true",
                    help="calibrate_best keeps the frames of the end most frames take as baulk "
                         "(calibration.auto.END_VOTE, off in the product)")
    ap.add_argument("--write-doc", action="store_true")
    ap.add_argument("--doc-from", metavar="JSON",
                    help="write the ACCURACY section from a run's docs/metrics-pots-vs-process.json "
                         "(its own date, commit and timing) without running again")
    args = ap.parse_args(argv)
    if args.doc_from:
        data = json.loads(Path(args.doc_from).read_text())
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, doc_section(data["rows"], data["summary"]))
        return 0
    if args.end_vote:
        import calibration.auto

        calibration.auto.END_VOTE = True
    root = footage()
    if root is None:
        print("pots against process: ../shared/footage not present, skipped")
        return 0
    eye = json.loads(LABELS.read_text())["clips"] if LABELS.exists() else {}
    only = set(args.clips.split(",")) if args.clips else None
    split_table = load_split()
    rows, t_all = [], time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for k, (group, name, path) in enumerate(clips_of(root, only, not args.no_more)):
            truth = labelled_pots(root, group, name, eye)
            got = run_clip(path, Path(tmp) / f"run{k}")
            row = {"group": group, "clip": name, "split": split_of(str(path.relative_to(root)), split_table),
                   "truth": truth["pots"], **got,
                   "watcher_right": truth_right(truth["pots"], got.get("watcher", [])),
                   "process_right": truth_right(truth["pots"], got.get("process", []))}
            rows.append(row)
            print(json.dumps(row), flush=True)
    summary = {"by_split": by_split(rows),
               **run_info(("python bench/pots_vs_process.py " + " ".join(argv or sys.argv[1:])).rstrip(),
                          time.perf_counter() - t_all)}
    print(json.dumps(summary))
    (ROOT / "docs" / "metrics-pots-vs-process.json").write_text(
        json.dumps({"summary": summary, "rows": rows}, indent=1))
    if args.write_doc:
        replace_section(ROOT / "docs" / "ACCURACY.md", SECTION, doc_section(rows, summary))
    return 0


def by_split(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per split (docs/SPLIT.md): clips, clips where the two agree, and of the labelled
    clips how many each got right."""
    out = {}
    for split in ("dev", "test"):
        mine = [r for r in rows if r["split"] == split]
        lab = [r for r in mine if r["truth"] is not None]
        out[split] = {"clips": len(mine), "agree": sum(bool(r["agree"]) for r in mine),
                      "labelled": len(lab), "watcher_right": sum(bool(r["watcher_right"]) for r in lab),
                      "process_right": sum(bool(r["process_right"]) for r in lab)}
    return out


def _pots_words(pots: list[list[Any]] | None) -> str:
    if pots is None:
        return "–"
    return ", ".join(f"{b} {p} {t:.1f}" for b, p, t in pots) or "none"


def doc_section(rows: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    """The ACCURACY.md section: the split figures, then one row per clip."""
    lines = [f"## {SECTION}", "",
             f"Measured {summary['date']} on {summary['machine']}, commit `{summary['commit']}`, by "
             f"`{summary['command']}` ({summary['seconds']} s; `--write-doc` writes this section, "
             "`docs/metrics-pots-vs-process.json` holds every pot). The one-shot pot watcher "
             "(`snooker-tracker pots`: the camera from the best of 8 frames over the whole clip) "
             "against `process` as a user runs it (the camera from the first seconds, the pots of "
             "its strokes) on every real snooker clip. **Agree**: the same pots, each of the same "
             f"ball kind in the same pocket within {AGREE_S:g} s. Where they differ the watcher "
             "runs again on `process`'s calibration to tell a calibration difference from the rest.",
             "", "| split | clips | agree | labelled | watcher right | process right |",
             "|---|---|---|---|---|---|"]
    for split in ("dev", "test"):
        s = summary["by_split"][split]
        lines.append(f"| {split} | {s['clips']} | **{s['agree']} of {s['clips']}** | {s['labelled']} | "
                     f"{s['watcher_right']} of {s['labelled']} | {s['process_right']} of {s['labelled']} |")
    lines += ["", "| clip | split | labelled | watcher (ball pocket s) | process (ball pocket s) | "
              "agree | calibrations apart, px | why they differ |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lab = "–" if r["truth"] is None else (", ".join(r["truth"]) or "none")
        why = r.get("cause", "")
        if r.get("ends_swapped"):
            why = (why + "; " if why else "") + "the two cameras take opposite ends as baulk"
        if "watcher_on_process_calibration" in r:
            why += f" (watcher on process's camera: {_pots_words(r['watcher_on_process_calibration'])})"
        for k in ("watcher_error", "process_error"):
            if k in r:
                why += f"; {k.split('_')[0]}: {r[k][-100:]}"
        lines.append(f"| {r['group']}/{r['clip']} | {r['split']} | {lab} | {_pots_words(r.get('watcher'))} | "
                     f"{_pots_words(r.get('process'))} | {'yes' if r['agree'] else 'no'} | "
                     f"{r.get('calibration_gap_px', '–')} | {why} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
