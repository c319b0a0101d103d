"""Two reds potted in one stroke: does the tracker call both, with no ghost left?

A plant is laid at random (a red 120-500 mm in front of a pocket, a second red behind it
on roughly the line to that pocket, the cue ball behind them, the other reds and the colours
in their places) and struck hard at a random moment within a frame interval; strokes that
pot two reds or more (and not the cue ball) are kept. pooltool's exact positions are fed to
the tracker and stroke detector as detections (Gaussian noise ``NOISE_MM`` per axis; a ball
faster than ``LOST_MM_S`` is not detected that frame: a blur too faint to see). Perception
of pictures is left out on purpose: this measures the tracker's bookkeeping of a double pot
against the physics' truth.

    POOLTOOL_HOME=/tmp/pooltool .venv/bin/python bench/double_pot.py [STROKES] [SEED]

Per stroke: OK when the stroke found holds a pot into each pocket the truth's reds went into
(as many as the truth, no other pot) and no red is left on the table where none stands.
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

#: Detection noise at rest and in motion, mm (one sigma per axis).
NOISE_MM = 0.5
#: A ball faster than this is not detected (its blur too faint), mm/s.
LOST_MM_S = 4500.0
#: Frames at rest before the stroke, and after it (the stroke detector's settle, pots' wait).
REST_BEFORE, REST_AFTER = 20, 250
FPS = 25.0


def plant(rng: np.random.Generator, t) -> dict[str, tuple[float, float]] | None:
    """A random plant of two reds toward a pocket (None: no room for it)."""
    from tracker.rules.snooker import SnookerRules

    pockets = list(t.pockets.values())
    mouth = np.array(pockets[int(rng.integers(len(pockets)))].mouth_centre)
    centre = np.array([t.width / 2, t.length / 2]) + rng.normal(0, 300, 2)
    u = (centre - mouth) / np.linalg.norm(centre - mouth)
    near = mouth + u * rng.uniform(120, 500)
    turn = rng.normal(0, 0.5)
    v = np.array([u[0] * np.cos(turn) - u[1] * np.sin(turn), u[0] * np.sin(turn) + u[1] * np.cos(turn)])
    far = near + v * (2 * t.ball_radius + rng.uniform(0.5, 150))
    lo, hi = 60.0, np.array([t.width - 60.0, t.length - 60.0])
    reds = {"red_01": tuple(np.clip(near, lo, hi)), "red_02": tuple(np.clip(far, lo, hi))}
    white = far + v * rng.uniform(200, 900) + rng.normal(0, 150, 2)
    if not (lo < white[0] < hi[0] and lo < white[1] < hi[1]):
        return None
    pos = {b: p for b, p in SnookerRules().setup_positions().items()
           if b not in reds and min(np.linalg.norm(np.subtract(p, q)) for q in reds.values()) > 60}
    pos.update(reds)
    if min(np.linalg.norm(white - np.array(p)) for p in pos.values()) < 60:
        return None
    pos["white"] = (float(white[0]), float(white[1]))
    return pos


def detections(points: dict[str, tuple[float, float]], rng: np.random.Generator):
    """Perfect detections of ``points`` (mm) with NOISE_MM noise, every pixel bare cloth."""
    from tracker.perception.detect import CLASSES, BallDetections

    if not points:
        out = BallDetections.empty()
    else:
        names = list(points)
        mm = np.array([points[n] for n in names], float) + rng.normal(0, NOISE_MM, (len(names), 2))
        cls = np.array([CLASSES.index("red" if n.startswith("red") else n) for n in names])
        n = len(names)
        out = BallDetections(mm.copy(), mm, np.full(n, 10.0), cls, np.ones(n), np.eye(8)[cls],
                             np.full(n, 1.0))
    out.occupancy = lambda q: np.zeros(len(q))
    return out


def judge(res, rng: np.random.Generator, t) -> dict:
    """Feed one simulated stroke to the tracker and stroke detector; what they called."""
    from tracker.perception.events import StrokeDetector
    from tracker.perception.track import Tracker

    tracker, strokes = Tracker(t, FPS), StrokeDetector(t, FPS)
    shots, st = [], None
    start = {b: (float(v[0, 0]), float(v[0, 1])) for b, v in res.xy.items()}
    n = len(res.times)
    frames = [start] * REST_BEFORE
    for i in range(n):
        seen = {}
        for b, v in res.xy.items():
            if np.isnan(v[i, 0]):
                continue
            a, c = v[max(i - 1, 0)], v[min(i + 1, n - 1)]
            speed = 0.0 if np.isnan(a[0]) or np.isnan(c[0]) else float(np.linalg.norm(c - a)) * FPS / 2
            if speed <= LOST_MM_S:
                seen[b] = (float(v[i, 0]), float(v[i, 1]))
        frames.append(seen)
    frames += [dict(res.final)] * REST_AFTER
    for frame, points in enumerate(frames):
        st = tracker.update(frame, detections(points, rng))
        shot = strokes.update(st)
        if shot is not None:
            shots.append(shot)
    truth = Counter(p for b, (p, _) in res.pocketed.items() if b.startswith("red"))
    called = Counter(e.pocket for s in shots for e in s.events if e.type.value == "pot")
    reds_left = [np.array(p) for b, p in st.pos.items() if b.startswith("red")]
    true_left = [np.array(p) for b, p in res.final.items() if b.startswith("red")]
    ghosts = sum(1 for p in reds_left if all(np.linalg.norm(p - q) > 30 for q in true_left))
    return {"truth": dict(truth), "called": dict(called), "strokes": len(shots), "ghosts": ghosts,
            "ok": len(shots) == 1 and called == truth and ghosts == 0}


def main() -> None:
    from calibration.table import STANDARD_TABLE as T
    from tracker.synth.physics import Physics, Stroke

    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    physics = Physics()
    rng = np.random.default_rng(seed)
    rows, tries = [], 0
    while len(rows) < wanted and tries < 200 * wanted:
        tries += 1
        pos = plant(rng, T)
        if pos is None:
            continue
        aim = np.subtract(pos["red_02"], pos["white"])
        phi = float(np.degrees(np.arctan2(aim[1], aim[0])) + rng.normal(0, 4))
        res = physics.simulate(pos, Stroke(float(rng.uniform(2.0, 5.5)), phi), fps=FPS,
                               offset_s=float(rng.uniform(0, 1 / FPS)))
        if sum(b.startswith("red") for b in res.pocketed) < 2 or "white" in res.pocketed:
            continue
        row = judge(res, np.random.default_rng(len(rows)), T)
        rows.append(row)
        print(("OK  " if row["ok"] else "BAD ") + str(row), flush=True)
    ok = sum(r["ok"] for r in rows)
    print(f"{ok} of {len(rows)} double pots called right (both pockets, one stroke, no ghost); "
          f"{sum(r['ghosts'] for r in rows)} ghosts; {tries} layouts tried")


if __name__ == "__main__":
    main()
