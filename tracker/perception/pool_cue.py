"""The cue ball's track kept true in pool (:class:`tracker.perception.pool_track.PoolTracker`):
three ways a picture of the cue ball read as an object ball, or of an object ball read as the
cue ball, would hand the cue ball's track to the wrong ball (each with its tunables in
:class:`tracker.perception.pool_track.PoolTrackParams`).

- :func:`free_cue_place`: an object track started on one misread picture of the cue ball put
  down by hand stands, unseen, where the cue ball stands: dropped, so the cue ball is followed.
- :func:`object_claims`: while the cue ball is unseen, a cue-ball claim where a long-followed
  object ball stands is that object ball.
- :func:`drop_glimpse`: an object track seen only in the one picture the moving cue ball was
  lost in, on its line, was the cue ball's blur: dropped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_identity import LABELS
from tracker.perception.trackstate import TableState

#: The pool tracker these work on (:class:`tracker.perception.pool_track.PoolTracker`; not
#: imported: that module imports this one).
PoolTracker = Any

def free_cue_place(tr: PoolTracker, frame: int, det: BallDetections) -> None:
    """Drop an object ball's track that stands, unseen, where a cue ball not yet followed
    is seen surely (:attr:`PoolTrackParams.cue_place_sure`, ``cue_place_frames``): the
    track began on a picture of the cue ball misread; its votes go with it."""
    cue = tr.inner.slots["white"]
    if (cue.on_table and cue.pos is not None) or det.identity is None or not len(det):
        return
    sure = (det.cls == CLASSES.index("white")) & (
        det.identity[:, LABELS.index("cue")] >= tr.params.cue_place_sure)
    reach = 1.5 * tr.table.ball_radius
    for i, slot in enumerate(tr.slots_ids):
        o = tr.inner.slots[slot]
        if (not o.on_table or o.pos is None or o.seen
                or frame - o.last_frame < tr.params.cue_place_frames):
            continue
        if any(float(np.linalg.norm(det.mm[j] - o.pos)) < reach for j in np.nonzero(sure)[0]):
            tr.inner.slots[slot] = type(o)(slot)
            tr.votes[i] = 0.0
            tr.seen[i] = 0.0


def object_claims(tr: PoolTracker, det: BallDetections) -> BallDetections:
    """``det`` with the cue-ball claims of followed object balls made object balls, while
    the cue ball is not seen (:attr:`PoolTrackParams.claim_followed_frames`)."""
    cue = tr.inner.slots["white"]
    white, red = CLASSES.index("white"), CLASSES.index("red")
    claims = np.nonzero(det.cls == white)[0]
    if (cue.seen and cue.on_table) or not len(claims):
        return det
    held = [o.pos for b, o in tr.inner.slots.items()
            if b != "white" and o.on_table and o.pos is not None
            and not o.moving and o.rest_n >= tr.params.claim_followed_frames]
    if not held:
        return det
    d = np.linalg.norm(det.mm[claims][:, None, :] - np.asarray(held)[None, :, :], axis=2)
    theirs = claims[d.min(1) <= tr.table.ball_radius]
    if not len(theirs):
        return det
    out = det[np.ones(len(det), bool)]
    out.cls, out.conf = out.cls.copy(), out.conf.copy()
    out.cls[theirs] = red
    out.conf[theirs] = out.probs[theirs, red] if len(out.probs) else 1.0
    return out


def drop_glimpse(tr: PoolTracker, frame: int, st: TableState) -> TableState:
    """``st`` (slot ids) without the object-ball tracks that were a glimpse of the moving
    cue ball (:attr:`PoolTrackParams.glimpse_radii`); those tracks dropped."""
    cue, before = tr.inner.slots["white"], tr._cue_before
    if cue.seen and cue.pos is not None:
        tr._cue_before = (frame, cue.pos.copy())
    if not cue.seen or cue.pos is None or before is None or frame - before[0] != 2:
        return st
    reach = tr.params.glimpse_radii * tr.table.ball_radius
    drop = set()
    for i, slot in enumerate(tr.slots_ids):
        o = tr.inner.slots[slot]
        if (o.on_table and not o.seen and o.pos is not None
                and o.appeared_frame == o.last_frame == frame - 1
                and segment_distance(o.pos, before[1], cue.pos) <= reach):
            tr.inner.slots[slot] = type(o)(slot)
            tr.votes[i] = 0.0
            tr.seen[i] = 0.0
            drop.add(slot)
    if not drop:
        return st
    return replace(
        st, pos={b: p for b, p in st.pos.items() if b not in drop}, moving=st.moving - drop,
        visible=st.visible - drop, pots=[x for x in st.pots if x[0] not in drop],
        appeared=[b for b in st.appeared if b not in drop],
        off=[x for x in st.off if x[0] not in drop],
        pending_pots=[x for x in st.pending_pots if x[0] not in drop],
        emerged={b: v for b, v in st.emerged.items() if b not in drop},
        mm_per_px={b: v for b, v in st.mm_per_px.items() if b not in drop})


def segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Distance (mm) from the point ``p`` to the segment from ``a`` to ``b`` (each (2,) mm)."""
    ab = b - a
    k = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + k * ab)))
