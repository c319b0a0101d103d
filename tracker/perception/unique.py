"""The game's own constraint on one frame's detections: one white, one of each colour.

On a TV picture a cream-lit cue ball can read as a second yellow, a brown under a warm light
as a yellow, a player's white cuff on the rail as a second white. The tracker takes the
white and each colour from the detections of that class; when two claim the same one, the
one that loses is lost to it, and a ball the game says must be somewhere (the cue ball) is
not found. :func:`settle_unique_classes` settles such contests the way the game does: among
the contested detections, by a minimum-cost assignment to the contested class, the unique
classes nobody claims, the reds and "not a ball" (:func:`tracker.perception.constraint.
constrained_classes` on the whole frame does the same for still pictures). Frames without a
contest are left exactly as they are.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from tracker.perception.constraint import CAPACITY, REJECT_COST, SURE_CONF
from tracker.perception.detections import CLASSES, BallDetections

#: The confidence given to a detection the constraint moved to another class
#: (:data:`tracker.perception.constraint.SURE_CONF`).
SETTLED_CONF = SURE_CONF


def settle_unique_classes(det: BallDetections, cost: np.ndarray, min_conf: float = SURE_CONF,
                          cap: dict[str, int] = CAPACITY) -> BallDetections:
    """``det`` with every contest for a unique class (the white, a colour claimed by two or
    more detections at ``min_conf`` or more) settled; ``cost``: (N, 8) class costs
    (:meth:`~tracker.perception.detect.BallDetector.class_cost`). Losers become reds when
    that is cheap, else keep their class with confidence 0 (the tracker then ignores them
    for the white and the colours). ``cap``: balls per class
    (:func:`tracker.perception.constraint.capacity`)."""
    if not len(det):
        return det
    sure = det.conf >= min_conf
    unique = [k for k, name in enumerate(CLASSES) if cap[name] == 1]
    claims = {k: np.nonzero(sure & (det.cls == k))[0] for k in unique}
    contested_cls = [k for k in unique if len(claims[k]) > 1]
    if not contested_cls:
        return det
    rows = np.concatenate([claims[k] for k in contested_cls])
    free = [k for k in unique if len(claims[k]) == 0]
    red = CLASSES.index("red")
    n_red_free = max(0, cap["red"] - int(np.sum(sure & (det.cls == red))))
    cols = [*contested_cls, *free, *[red] * min(n_red_free, len(rows))]
    big = np.concatenate([cost[rows][:, cols], np.full((len(rows), len(rows)), REJECT_COST)], axis=1)
    r_idx, c_idx = linear_sum_assignment(big)
    out = BallDetections(det.px, det.mm, det.radius_px, det.cls.copy(), det.conf.copy(), det.probs,
                         det.mm_per_px, det.feats, det.occupancy)
    for r, c in zip(r_idx, c_idx, strict=True):
        i = rows[r]
        if c < len(cols):
            if cols[c] != out.cls[i]:
                out.cls[i] = cols[c]
                out.conf[i] = max(SETTLED_CONF, float(det.probs[i, cols[c]]) if det.probs.size else 0.0)
        else:
            out.conf[i] = 0.0
    return out
