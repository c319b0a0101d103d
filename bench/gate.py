"""The change-gated detector (:class:`tracker.perception.change.ChangeGatedDetector`) measured:
one runner for its two measures.

    POOLTOOL_HOME=/tmp/pooltool python bench/gate.py same-calls [SCENARIO ...]
    python bench/gate.py profile [--video sample_videos/overhead_frame.mp4] [--no-docs]

(``bench/gating_ab.py`` and ``bench/gate_profile.py`` run the same with the same arguments.)

``same-calls``: change-gated detection against the full search, on the same videos: same calls,
same strike times and first contacts? Each scripted scenario (default: a few with close
contacts, pots and a ball off the table) is rendered once through the overhead camera (seed 0,
25 fps, 1920x1080), then refereed twice from that one video with its operator inputs: every
frame searched whole (``gated=False``) and with the change-gated detector (``gated=True``).
Compared stroke by stroke: the calls (the decisions, whole), the stroke's start (the strike)
and its first contact (ball and time). The gated run says its calls early (docs/LIVE.md,
"Latency"): how many strokes were called early and how many of those calls the stroke's end
corrected. The sample videos are compared the same way. Writes the "Change-gated detection:
same calls" section of docs/BENCHMARKS.md.

``profile``: where the change-gated detector's time goes, frame kind by frame kind and box by
box. The detector alone (no decoding in the timings, no tracking) on every frame of the video,
in this process, one thread: for each frame its kind (still, partial, full) and, for a partial
frame, each box searched again (its area and the candidates found in it, its search time) and
the judging of the new candidates; for a full frame, why (the first frame, the periodic full
search every ``GateParams.full_every_s``, too much changed, or a partial search given up: a
blob still running off its box after ``GateParams.max_grow`` growths, the time of the given-up
attempt counted). CPU times (``time.process_time``), so other work on the machine weighs less.
Writes the "Change-gated detection: where the time goes" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import measured, named_camera, operator_inputs  # noqa: E402
from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402

#: The scenarios ``same-calls`` renders when none is named.
DEFAULT = ("break_off", "wrong_ball_first", "touching_ball", "ball_in_jaws", "in_off",
           "off_table")
#: A box holding at least this many candidates holds (part of) the pack of reds.
PACK_CANDIDATES = 8
MEASURES = ("same-calls", "profile")


def _strokes(res) -> list[tuple]:
    out = []
    for s in res.shots:
        first = next((e for e in s.events if str(e.type) == "contact" and "white" in e.balls), None)
        out.append((s.t_start, first.balls if first else None, first.t if first else None))
    return out


def _calls(res) -> list[str]:
    return [json.dumps(d, sort_keys=True, default=str) for d in res.decisions]


def compare(video: Path, log: Path | None) -> dict:
    """One video refereed with every frame searched whole and with the change gate (which
    also says its calls early): strokes, calls, strike and first-contact times compared."""
    from tracker.pipeline import process_video

    kw = {"players": ("Ann", "Bob"), "progress": False, **operator_inputs(log)}
    t0 = time.perf_counter()
    full = process_video(video, None, gated=False, **kw)
    t1 = time.perf_counter()
    gated = process_video(video, None, on_call=lambda line: None, **kw)  # with early calls
    t2 = time.perf_counter()
    a, b = _strokes(full), _strokes(gated)
    dt_strike = [abs(x[0] - y[0]) for x, y in zip(a, b, strict=False) if x[0] and y[0]]
    dt_contact = [abs(x[2] - y[2]) for x, y in zip(a, b, strict=False) if x[2] and y[2]]
    return {"strokes": (len(a), len(b)), "same_calls": _calls(full) == _calls(gated),
            "same_first_ball": [x[1] for x in a] == [y[1] for y in b],
            "strike_dt_max": max(dt_strike, default=0.0),
            "contact_dt_max": max(dt_contact, default=0.0),
            "full_s": t1 - t0, "gated_s": t2 - t1,
            "early": (gated.early_calls, gated.early_corrected)}


def same_calls(argv: list[str]) -> int:
    """The sample videos and scripted scenarios (``argv``: their names; default
    :data:`DEFAULT`) refereed whole and gated; the section of docs/BENCHMARKS.md."""
    names = argv or list(DEFAULT)
    from tracker.synth.physics import Physics
    from tracker.synth.render import RenderStyle
    from tracker.synth.scenarios import SCENARIOS, build
    from tracker.synth.video import write_clip

    bad = [n for n in names if n not in SCENARIOS]
    if bad:
        sys.exit(f"bench/gate.py same-calls: no scenario {bad[0]!r}: use {', '.join(SCENARIOS)}")
    cam = named_camera("overhead")
    physics = Physics()
    rows = []
    for name in ("overhead_frame", "overhead_miss", "overhead_free_ball", "broadcast_pots"):
        v = ROOT / "sample_videos" / f"{name}.mp4"
        rows.append((f"sample {name}", compare(v, v.with_suffix(".log.jsonl"))))
        print(rows[-1], flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            what = SCENARIOS[name][0]
            world = build(name, seed=0, physics=physics, players=("Ann", "Bob"))
            write_clip(world, cam, Path(tmp), name, RenderStyle(seed=0), progress=False,
                       description=what)
            rows.append((f"scenario {name}", compare(Path(tmp) / f"{name}.mp4",
                                                     Path(tmp) / f"{name}.log.jsonl")))
            print(rows[-1], flush=True)
    run = run_info(" ".join(["python bench/gate.py same-calls", *argv]))
    lines = [
        "## Change-gated detection: same calls", "",
        measured(run)[:-1] + ": each video refereed twice, every "
        "frame searched whole and with the change-gated detector (docs/LIVE.md); the scripted "
        "scenarios rendered once through the overhead camera (seed 0). The gated run also says "
        "each call early (docs/LIVE.md, \"Latency\"): the last column counts them, and those "
        "the stroke's end then corrected.", "",
        "| video | strokes (full / gated) | calls identical | first ball hit identical | "
        "strike time, largest difference (s) | first contact time, largest difference (s) | "
        "time full / gated (s) | early calls (corrected at the stroke's end) |",
        "|---|---|---|---|---|---|---|---|"]
    for name, r in rows:
        lines.append(f"| {name} | {r['strokes'][0]} / {r['strokes'][1]} | "
                     f"{'yes' if r['same_calls'] else '**no**'} | "
                     f"{'yes' if r['same_first_ball'] else '**no**'} | {r['strike_dt_max']:.3f} | "
                     f"{r['contact_dt_max']:.4f} | {r['full_s']:.0f} / {r['gated_s']:.0f} | "
                     f"{r['early'][0]} ({r['early'][1]}) |")
    text = "\n".join(lines) + "\n"
    print(text)
    replace_section(ROOT / "docs" / "BENCHMARKS.md", "Change-gated detection: same calls", text)
    return 0



def _profile_lines(video: str, argv: list[str], kinds: dict[str, list[float]],
                   boxes: list[tuple[float, int, float]], judged: list[float],
                   given_up: list[float], periodic: int, full_every: int) -> list[str]:
    """The lines of "Change-gated detection: where the time goes": CPU s per frame kind
    (``kinds``), per box searched (``boxes``: share of the frame, candidates, CPU s), per
    judging and per partial search given up."""
    n = sum(len(v) for v in kinds.values())
    total = sum(sum(v) for v in kinds.values())
    share = np.array([b[0] for b in boxes])
    cands = np.array([b[1] for b in boxes])
    secs = np.array([b[2] for b in boxes])
    pack = cands >= PACK_CANDIDATES
    n_partial = len(kinds["partial"])
    run = run_info(" ".join(["python bench/gate.py profile", *argv]))
    lines = [
        "## Change-gated detection: where the time goes", "",
        measured(run, " (shared with other work)")[:-1] + ": the "
        f"detector alone on every frame of `{Path(video).name}` ({n} frames), CPU time of "
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
        f"{full_every} frames), {len(given_up)} a partial search given up (a blob still "
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
    return lines


def profile(argv: list[str]) -> int:
    """The gated detector alone on every frame of one video, timed frame kind by frame kind
    and box by box; the section of docs/BENCHMARKS.md."""
    ap = argparse.ArgumentParser(prog="bench/gate.py profile", description=profile.__doc__)
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--no-docs", action="store_true")
    a = ap.parse_args(argv)
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
    lines = _profile_lines(a.video, argv, kinds, boxes, judged, given_up, periodic,
                           gate.full_every)
    text = "\n".join(lines) + "\n"
    print(text)
    if not a.no_docs:
        replace_section(ROOT / "docs" / "BENCHMARKS.md",
                        "Change-gated detection: where the time goes", text)
    return 0



def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    wants_help = any(a in ("-h", "--help") for a in args)
    if not args or args[0] not in MEASURES or (args[0] == "same-calls" and wants_help):
        print(__doc__)
        return 0 if wants_help else 2
    if args[0] == "same-calls":
        return same_calls(args[1:])
    return profile(args[1:])


if __name__ == "__main__":
    sys.exit(main())
