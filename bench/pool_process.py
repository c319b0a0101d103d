"""The real pool clips through ``process`` as a user runs them (issue 33).

    python bench/pool_process.py [--mode pool|snooker] [--only NAME] [--json OUT]
    python bench/pool_process.py --boxes [--detector learned]

``--mode pool`` (default): each clip with its game, as ``snooker-tracker process CLIP --ruleset
eight-ball`` (the albertomors clips, overhead_break) or ``--ruleset nine-ball`` (the
clearance) would run it: automatic calibration on a 9 ft pool table, the pool balls named
(:mod:`tracker.perception.pool_identity`). ``--mode snooker``: the clips as before the pool
camera, the snooker classes forced on pool balls (``bench/real_process.py``'s run: no ruleset,
``--table-size 2540x1270 --ball-diameter 57.15``).

Judged, per clip:

- albertomors-8ball: the pot count against the source's boxes (a ball in ``frame_first``'s
  boxes gone from ``frame_last``'s; ``bench/labels/real_clips.json`` says how each was
  checked by eye), and the kind (solid / stripe / eight / cue) of the ball potted against the
  kind whose box count fell;
- 9_ball_clearance: pots within 2 s of a time in ``pots_gt.json`` (one each), and with the
  right ball: the source gives no ball numbers; the k-th labelled pot is ball k (checked by
  eye, 2026-11-28, on frames 2.5 s before and 1.5 s after each labelled time: the 1 to the 9
  go in that order, one per label);
- overhead_break: no pot (the README: none is potted).

``--boxes``: the pool identity at the labelled boxes of the albertomors first and last frames
(cue / eight / solid / stripe: recall and precision per class; the box given, so this measures
naming, not finding). The split (docs/SPLIT.md): game1_clip3, game3_clip1, game3_clip2 and the
clearance are development units, the rest test units.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import ROOT  # noqa: E402

FOOTAGE = ROOT.parent / "shared" / "footage" / "pool"
EIGHT = FOOTAGE / "albertomors-8ball"
DEV = {"game1_clip3", "game3_clip1", "game3_clip2", "9_ball_clearance"}
#: the boxes' classes (the source's DATASET-README)
KINDS = {1: "cue", 2: "eight", 3: "solid", 4: "stripe"}
WITHIN_S = 2.0


def kind_of(ball: str) -> str:
    """cue / eight / solid / stripe of a pool ball id."""
    if not ball.isdigit():
        return "cue" if ball == "white" else ball
    n = int(ball)
    return "eight" if n == 8 else "solid" if n < 8 else "stripe"


def clips(only: str | None) -> list[tuple[str, Path, str]]:
    """(name, video, game) of every pool clip (``only``: names holding that text)."""
    out = [(d.name, d / f"{d.name}.mp4", "eight-ball") for d in sorted(EIGHT.iterdir())
           if d.is_dir()]
    out += [("9_ball_clearance", FOOTAGE / "9_ball_clearance.mp4", "nine-ball"),
            ("overhead_break", FOOTAGE / "overhead_break.mp4", "eight-ball")]
    return [c for c in out if only is None or only in c[0]]


def box_kinds(clip: str, which: str) -> dict[str, int]:
    """How many boxes of each kind the source gives in a clip's first or last frame."""
    rows = (EIGHT / clip / f"frame_{which}_bbox.txt").read_text().split("\n")
    out: dict[str, int] = {}
    for r in rows:
        if r.strip():
            k = KINDS[int(r.split()[4])]
            out[k] = out.get(k, 0) + 1
    return out


def truth(name: str) -> dict[str, Any]:
    """A clip's pots: ``kinds`` (albertomors: the kinds whose box count fell), ``times``
    (the clearance, s), or none (overhead_break)."""
    if name == "9_ball_clearance":
        gt = json.loads((FOOTAGE / "9_ball_clearance.pots_gt.json").read_text())
        return {"times": [t / 1000.0 for t in gt["pot_times_ms"]]}
    if name == "overhead_break":
        return {"kinds": []}
    a, b = box_kinds(name, "first"), box_kinds(name, "last")
    return {"kinds": sorted(k for k in a for _ in range(a[k] - b.get(k, 0)))}


def run(path: Path, game: str, mode: str, detector: str = "auto") -> dict[str, Any]:
    """``process`` on one clip; its pots (ball, pocket, time s) and strokes."""
    from calibration.table import TableGeometry
    from tracker.footage_eval import POOL_TABLE_MM
    from tracker.pipeline import VideoError, process_video
    from tracker.session_setup import MatchSetup

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        try:
            if mode == "pool":
                res = process_video(path, out, progress=False, detector=detector,
                                    setup=MatchSetup(("A", "B"), 1, game))
            else:
                res = process_video(path, out, progress=False,
                                    table=TableGeometry(*POOL_TABLE_MM))
        except VideoError as exc:
            return {"error": str(exc), "seconds": time.perf_counter() - t0}
    pots = [(e.balls[0], e.pocket, round(e.t, 2)) for s in res.shots for e in s.events
            if e.type == "pot"]
    return {"pots": pots, "strokes": len(res.shots), "frames": res.frames,
            "calls": [_call(d) for d in res.decisions if "shot" in d][:12],
            "seconds": round(time.perf_counter() - t0, 1)}


def _call(d: dict[str, Any]) -> str:
    """A pool decision in a few words: ``foul <codes>`` or ``potted <balls>`` or ``no pot``."""
    if d.get("foul"):
        return "foul " + " ".join(str(f.get("code", f)) if isinstance(f, dict) else str(f)
                                  for f in d.get("fouls", []))
    return f"potted {' '.join(d['potted'])}" if d.get("potted") else "no pot"


def judged(name: str, got: dict[str, Any]) -> dict[str, Any]:
    """The clip's figures against its truth."""
    t = truth(name)
    if "error" in got:
        return {"right": False, "why": got["error"]}
    balls = [p[0] for p in got["pots"] if p[0] != "white"]
    if "times" in t:
        free = list(range(len(got["pots"])))
        near = right = 0
        for k, tt in enumerate(t["times"]):
            cand = [i for i in free if abs(got["pots"][i][2] - tt) <= WITHIN_S]
            if not cand:
                continue
            i = min(cand, key=lambda i: abs(got["pots"][i][2] - tt))
            free.remove(i)
            near += 1
            right += got["pots"][i][0] == str(k + 1)
        return {"within_2s": near, "right_ball": right, "of": len(t["times"]),
                "extra": len(free)}
    kinds = sorted(kind_of(b) for b in balls)
    return {"count_right": len(balls) == len(t["kinds"]), "kinds_right": kinds == t["kinds"],
            "truth": t["kinds"], "got": kinds}


def boxes(detector: str = "auto") -> None:
    """The pool identity at the labelled boxes: recall and precision per kind, per split
    (``detector`` learned: the learned pool classifier, as ``process --detector learned``;
    else the colours, the product's default)."""
    import cv2
    import numpy as np

    from tracker.perception.pool_identity import LABELS, PoolIdentity, load_pool_classifier

    ident = PoolIdentity(load_pool_classifier() if detector == "learned" else None)
    print(f"named by {ident.source}")
    for split, names in (("development", sorted(DEV - {"9_ball_clearance"})),
                         ("test", ["game1_clip1", "game1_clip2", "game1_clip4"])):
        pairs = []
        for name in names:
            for which in ("first", "last"):
                img = cv2.imread(str(EIGHT / name / f"frame_{which}.png"))
                rows = np.loadtxt(EIGHT / name / f"frame_{which}_bbox.txt", ndmin=2)
                px = rows[:, :2] + rows[:, 2:4] / 2.0
                p = ident.probabilities_at(img, px, rows[:, 2:4].min(1) / 2.0)
                pairs += [(KINDS[int(c)], kind_of(LABELS[k]) if LABELS[k] != "cue" else "cue")
                          for c, k in zip(rows[:, 4], p.argmax(1), strict=True)]
        print(f"{split} ({', '.join(names)}; {len(pairs)} boxes):")
        for k in KINDS.values():
            tp = sum(a == k and b == k for a, b in pairs)
            n_true, n_got = sum(a == k for a, _ in pairs), sum(b == k for _, b in pairs)
            print(f"| {k} | {tp}/{n_true} ({100 * tp / max(n_true, 1):.0f}%) | "
                  f"{tp}/{n_got} ({100 * tp / max(n_got, 1):.0f}%) |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=["pool", "snooker"], default="pool")
    ap.add_argument("--only", help="only the clips whose name holds this text")
    ap.add_argument("--json", type=Path, help="write every clip's result here")
    ap.add_argument("--boxes", action="store_true", help="the identity at the labelled boxes")
    ap.add_argument("--detector", default="auto", choices=["auto", "colour", "learned"],
                    help="as process --detector: learned names pool balls with the learned "
                         "pool classifier, the others by colour")
    args = ap.parse_args()
    if args.boxes:
        boxes(args.detector)
        return
    if not FOOTAGE.is_dir():
        raise SystemExit(f"no pool footage at {FOOTAGE}: nothing to measure")
    out = {}
    for name, path, game in clips(args.only):
        got = run(path, game, args.mode, args.detector)
        got["judged"] = judged(name, got)
        got["split"] = "development" if name in DEV else "test"
        out[name] = got
        print(f"| {name} | {got['split']} | {game if args.mode == 'pool' else 'snooker'} | "
              f"{', '.join(f'{b} {k} {t}' for b, k, t in got.get('pots', [])) or 'none'} | "
              f"{got['judged']} | {got.get('seconds')} s |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
