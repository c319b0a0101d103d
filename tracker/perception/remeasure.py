"""A still table's picture re-measured, told apart from a ball moving.

A video coded with long groups of pictures (H.264, a camera's own stream) can leave part of a
still table as it was coded while a hand moved over it, until the next key frame corrects it:
a ball at rest then seems to jump a few millimetres in one picture, often many balls at once,
and stands still at its new place. Read as motion that is a ball moving with no ball near it (a
"disturbance", or a contact that shuffles the reds' names). The tracker
(:class:`tracker.perception.track.Tracker`) asks these functions instead: a small jump with no
ball moving near is held at the rest place while the next pictures decide
(``TrackerConfig.remeasure_radii``, ``remeasure_px``, ``remeasure_frames``,
``remeasure_clear_mm``).
"""

from __future__ import annotations

import math

import numpy as np

from tracker.perception.trackstate import Slot, TrackerConfig, UpdateStep

#: What the next pictures said of a held ball (:func:`follow_hold`).
HELD, REMEASURED, BACK, MOVES = "held", "remeasured", "back", "moves"


def remeasure_reach(cfg: TrackerConfig, radius: float, f: UpdateStep, ball: str) -> float:
    """The largest jump (mm) of ``ball``'s detection, assigned in ``f``, that may be its
    picture re-measured: ``cfg.remeasure_radii`` ball radii (``radius`` mm), or
    ``cfg.remeasure_px`` pixels of the picture at the ball where the view is coarser."""
    reach = cfg.remeasure_radii * radius
    if len(f.det.mm_per_px) and ball in f.assigned:
        reach = max(reach, cfg.remeasure_px * float(f.det.mm_per_px[f.assigned[ball]]))
    return reach


def stirring_balls(slots: dict[str, Slot], f: UpdateStep, cfg: TrackerConfig,
                   radius: float) -> dict[str, np.ndarray]:
    """Balls that may strike another this picture: ball -> (K, 2) mm points. A ball moving
    before this picture: its last frames' path, its place and where its motion takes it; a
    ball at rest whose detection now stands further from its place than a re-measure
    (:func:`remeasure_reach`; ``radius``: the ball's, mm): both places."""
    out: dict[str, np.ndarray] = {}
    for b, s in slots.items():
        if not s.on_table or s.pos is None:
            continue
        if s.moving:
            out[b] = np.array([*s.trail, s.pos, s.pos + s.vel * f.dt])
        elif b in f.assigned:
            p = f.det.mm[f.assigned[b]]
            if math.dist(p, s.pos) > remeasure_reach(cfg, radius, f, b):
                out[b] = np.array([s.pos, p])
    return out


def starts_hold(ball: str, s: Slot, p: np.ndarray, f: UpdateStep, jitter: float,
                cfg: TrackerConfig, radius: float) -> bool:
    """Whether the ball at rest ``ball`` seen at ``p`` (mm) jumped in one picture by less than a
    re-measure (more than ``jitter``, mm; at most :func:`remeasure_reach`) with no ball moving
    near it: then it is held (``s.held`` set) and stays at rest for now."""
    d = math.dist(p, s.pos)
    if not jitter < d <= remeasure_reach(cfg, radius, f, ball) or s.last_frame != f.frame - 1:
        return False
    if not s.trail or math.dist(s.trail[-1], s.pos) > jitter:
        return False  # not at its place the picture before: a drift, not a jump
    if stirred_near(ball, np.array([p, s.pos]), f, cfg):
        return False
    s.held = (f.frame, p.copy(), 1)
    return True


def stirred_near(ball: str, here: np.ndarray, f: UpdateStep, cfg: TrackerConfig) -> bool:
    """Whether a ball other than ``ball`` stirs (``f.stirring``) within
    ``cfg.remeasure_clear_mm`` of any of the points ``here`` ((K, 2) mm): it may have struck
    ``ball``, or been struck by it."""
    for b, pts in f.stirring.items():
        if b != ball and np.min(np.linalg.norm(pts[:, None, :] - here[None], axis=2)) <= cfg.remeasure_clear_mm:
            return True
    return False


def follow_hold(ball: str, s: Slot, p: np.ndarray, f: UpdateStep, jitter: float,
                cfg: TrackerConfig) -> str:
    """The held ball ``ball`` seen at ``p`` (mm) in picture ``f``: :data:`HELD` (still deciding),
    :data:`REMEASURED` (it stood at the new place ``cfg.remeasure_frames`` pictures: that is
    its rest place now, ``s.pos`` moved there), :data:`BACK` (seen at its old place again) or
    :data:`MOVES` (it went on: a movement that started at the hold's first picture; or balls
    near it were set moving meanwhile (:func:`stirred_near`): a cue ball struck into a pack it
    touches moves a few mm and stops, and the reds it hit move the picture after; overhead
    seed 1 of bench/tv_lens_clips.py, stroke 2, was lost as a re-measure). Clears ``s.held``
    unless :data:`HELD`."""
    assert s.held is not None
    f0, q, n = s.held
    if stirred_near(ball, np.array([p, q, s.pos]), f, cfg):
        s.held = None
        return BACK if math.dist(p, s.pos) <= jitter else MOVES
    if math.dist(p, q) <= jitter:
        if n + 1 > cfg.remeasure_frames:
            s.held = None
            s.pos, s.rest_sum, s.rest_n = (q + p) / 2.0, q + p, 2
            return REMEASURED
        s.held = (f0, q, n + 1)
        return HELD
    s.held = None
    return BACK if math.dist(p, s.pos) <= jitter else MOVES
