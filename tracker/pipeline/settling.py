"""A frame's detections settled to the game's ball set, and the frame start the first picture
shows: the small steps between the detector and the tracker that :class:`tracker.pipeline.run.
RefereeRun` takes for snooker and for pool (kept apart from the run to keep it small)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.perception.detect import BallDetections, BallDetector
from tracker.perception.pool_identity import PoolIdentity
from tracker.perception.pool_identity import class_cost as pool_class_cost
from tracker.perception.pool_track import PoolTracker
from tracker.perception.track import Tracker
from tracker.perception.unique import settle_unique_classes
from tracker.records.shot import FrameStart


def settled(detector: BallDetector, det: BallDetections) -> BallDetections:
    """``det`` with one white and one of each colour (contests settled by the game's
    constraint: :mod:`tracker.perception.unique`, with the detector's ball set)."""
    return settle_unique_classes(det, detector.class_cost(det), cap=detector.capacity)


def pool_settled(detector: BallDetector, identity: PoolIdentity, image: np.ndarray,
                  det: BallDetections, tracker: Tracker | PoolTracker | None = None
                  ) -> BallDetections:
    """A pool frame's detections ``det`` of ``image`` as the cue ball (one) and object balls,
    each with its identity (:meth:`PoolIdentity.relabel`; contests for the cue ball settled:
    by where the cue ball was (:meth:`PoolTracker.settle_cue`), else on colour)."""
    det = identity.relabel(image, det)
    if isinstance(tracker, PoolTracker):
        det = tracker.settle_cue(det)
    named = det.identity
    det = settle_unique_classes(det, pool_class_cost(det), cap=detector.capacity)
    det.identity = named
    return det


def observed_start(detector: BallDetector, tracker: Tracker | PoolTracker, first, players,
                    n_reds: int = 15, identity: PoolIdentity | None = None,
                    rules: Any = None) -> FrameStart:
    """The frame start as the camera sees it: the standard rack of ``n_reds`` reds (white in
    hand) when the table shows one, else the observed layout (the video starts mid-frame).
    Pool: the layout seen, a rack's hidden balls put in its free places (``rules``, the pool
    ruleset: :func:`hidden_in_rack`)."""
    if isinstance(tracker, PoolTracker) and identity is not None:
        st = tracker.update(0, pool_settled(detector, identity, first, detector.detect(first)))
        tracker.reset()
        return FrameStart(1, players, breaker=players[0],
                          positions=hidden_in_rack(dict(st.pos), rules, tracker.table))
    st = tracker.update(0, settled(detector, detector.detect(first)))
    tracker.reset()
    n_red = sum(1 for b in st.pos if B.is_red(b))
    colours = sum(1 for b in st.pos if B.is_colour(b))
    if n_red >= n_reds and colours == 6 and B.WHITE not in st.pos:
        return FrameStart(1, players, breaker=players[0])
    return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))


def hidden_in_rack(positions: dict[str, tuple[float, float]], rules: Any,
                   table: TableGeometry | None = None) -> dict[str, tuple[float, float]]:
    """``positions`` (pool ball id -> mm) with the object balls not seen put in the free
    places of the rack, when what is seen is a rack still to be broken (``rules.racked``): a
    low view along the table sees the back rows of a rack behind the front ones, and a ball
    missing from the frame start would be taken as off the table (its first contact, on the
    break, as a contact with no ball). Each hidden ball goes to its own place in the rules'
    rack (the 1 at a nine-ball apex, the 9 in its middle) when that is free, else to a free
    place. Unchanged when nothing is hidden, the layout is no rack, or no ruleset is given.
    ``table``: the table played on (None: the rules' own)."""
    if rules is None or not hasattr(rules, "racked"):
        return positions
    if table is not None:
        rules = rules.with_options(rules.options, table)
    if not rules.racked(positions):
        return positions
    seen = list(positions.values())
    hidden = [b for b in rules.balls.ids if b != "white" and b not in positions]
    radius = rules.table.ball_radius
    places = rules.setup_positions()
    free = [p for p in places.values() if all(math.dist(p, q) > radius for q in seen)]
    if not hidden or len(hidden) > len(free):
        return positions
    out = dict(positions)
    for b in hidden:
        own = places.get(b)
        at = own if own in free else free[0]
        free.remove(at)
        out[b] = at
    return out
