"""A ball of a group (pool's object balls) whose track was lost is taken up where a ball of its
group stands unexplained.

A slot the tracker took for potted while no stroke was under way, and that no stroke took
as its pot (:meth:`tracker.perception.pool_track.PoolTracker.release_unrecorded`), is such a
lost ball too (``Tracker.released``): the referee never called it potted. Held gone, it kept a
ball of the group unfollowed for the rest of the rack (the real 9-ball clearance: two
tracks "potted" with a player's sleeve at 6.4 s and one at 56.8 s, so from 65 s on only two
of five balls were followed, and the 9, standing unexplained at 92 s, had no track to take
it up).

The tracker follows the balls of a group that look alike by position
(:meth:`tracker.perception.track.Tracker._match_groups`): a detection left over starts a slot
not yet on the table, and once every slot has been used (pool's fifteen object-ball slots,
nine-ball's nine balls and the player's sleeves and hands followed for a moment) a ball whose
track was lost (it moved while hidden behind a player, or its track went off with a sleeve) is
held, unseen, where it was lost, while the ball itself stands elsewhere, unexplained: from then
on nothing it does is seen (the real 9-ball clearance at 40 s: 5 to 8 balls detected, 2 of them
followed; the 4's pot not seen at all). :func:`regroup_lost` takes such a held ball to a
detection of its group that no track explains and that has stood still for
:attr:`TrackerConfig.regroup_lost_frames` pictures (a ball put down or come to rest; a hand or
a sleeve moves): the held ball lost last (the one that moved while hidden; of those lost
together, the nearest). Off by default (the snooker reds are all on the
table from the start); the pool tracker turns it on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tracker.perception.trackstate import UpdateStep

#: The tracker (:class:`tracker.perception.track.Tracker`), named and not imported: it imports
#: this module.
Tracker = Any

#: A leftover detection within this distance of where one stood the picture before is the same
#: one standing still, mm.
STILL_MM = 10.0


def regroup_lost(tr: Tracker, group: list[str], found: np.ndarray, f: UpdateStep) -> None:
    """Take up held balls of ``group`` at the detections of it (``found``, indices into
    ``f.det``) left over this picture that stood still long enough (see the module): each
    goes to the ball of the group held unseen at rest for more than
    :attr:`TrackerConfig.relocate_frames` that was lost last (then the nearest), which is
    relocated there (``f.relocated``)."""
    cfg, det = tr.cfg, f.det
    if not cfg.regroup_lost_frames:
        return  # off (snooker's reds)
    left = [int(j) for j in found if not f.used[j]]
    seen: list[tuple[np.ndarray, int]] = getattr(tr, "_left_over", [])
    now: list[tuple[np.ndarray, int]] = []
    for j in left:
        p = det.mm[j]
        n = next((k for q, k in seen if float(np.linalg.norm(q - p)) <= STILL_MM), 0) + 1
        now.append((p.copy(), n))
    tr._left_over = now
    reach = 2.0 * tr.table.ball_radius
    taken = [det.mm[j] for j in f.assigned.values()]
    for j, (p, n) in zip(left, now, strict=True):
        if n < cfg.regroup_lost_frames:
            continue
        if any(float(np.linalg.norm(p - q)) < reach for q in taken):
            continue  # a second detection of a ball followed
        held = [b for b in group if b not in f.assigned
                and (b in tr.released or _held(tr.slots[b], f.frame, cfg))]
        if not held:
            return
        b = max(held, key=lambda b: (tr.slots[b].last_frame,
                                     -float(np.linalg.norm(tr.slots[b].pos - p))))
        f.assigned[b] = j
        f.used[j] = True
        f.relocated.add(b)
        tr.released.discard(b)
        taken.append(p)


def standing_at(tr: Tracker, p: np.ndarray, reach: float, frames: int) -> bool:
    """Whether a detection that no track of ``tr`` explained (left over in the last picture's
    group matching) has stood still at least ``frames`` pictures within ``reach`` mm of
    ``p`` (mm)."""
    return any(n >= frames and float(np.linalg.norm(q - p)) <= reach
               for q, n in getattr(tr, "_left_over", []))


def _held(s: Any, frame: int, cfg: Any) -> bool:
    """Whether the slot ``s`` is a ball held unseen at rest where it was lost, for more than
    ``cfg.relocate_frames`` pictures (not one pending a pot or off the table), or a ball of
    the start's layout never seen since, on the table or not (taken off unseen: the clearance's
    first second "potted" three such slots, and three balls had no track all clip long)."""
    if s.pos is not None and s.last_frame < 0:
        return True
    return (s.on_table and s.pos is not None and not s.moving and s.potted_pocket is None
            and frame - s.last_frame > cfg.relocate_frames)
