"""A frame's detections settled to the game's ball set, and the frame start the first picture
shows: the small steps between the detector and the tracker that :class:`tracker.pipeline.run.
RefereeRun` takes for snooker and for pool (kept apart from the run to keep it small)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.perception.constraint import SURE_CONF
from tracker.perception.detect import BallDetections, BallDetector
from tracker.perception.detections import CLASSES
from tracker.perception.pool_identity import PoolIdentity
from tracker.perception.pool_identity import class_cost as pool_class_cost
from tracker.perception.pool_track import PoolTracker
from tracker.perception.track import Tracker
from tracker.perception.unique import settle_unique_classes
from tracker.records.shot import FrameStart

#: A frame taken up mid-way has its cue ball on the table (in hand only after a foul sent it
#: off, and a video seldom starts there). When no detection of the first picture is sure of
#: being the white, the one sure of no class whose white probability is highest is taken
#: for it, if that probability is at least this (0..1): a cue ball under a warm light reads
#: about half white, half yellow (broadcast clip 2: white 0.40, yellow 0.48), and left out of
#: the start it is taken up a moment later as the yellow, its stroke never seen.
START_WHITE_MIN_PROB = 0.3


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
    det = settled(detector, detector.detect(first))
    st = tracker.update(0, det)
    tracker.reset()
    n_red = sum(1 for b in st.pos if B.is_red(b))
    colours = sum(1 for b in st.pos if B.is_colour(b))
    if n_red >= n_reds and colours == 6 and B.WHITE not in st.pos:
        return FrameStart(1, players, breaker=players[0])
    if B.WHITE not in st.pos and (cue := unsure_cue_ball(det)) is not None:
        st = tracker.update(0, cue)
        tracker.reset()
    return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))


def unsure_cue_ball(det: BallDetections) -> BallDetections | None:
    """``det`` (a first picture's settled detections) with the cue ball named where none is
    sure: the detection sure of no class (confidence under
    :data:`~tracker.perception.constraint.SURE_CONF`) most likely white, if at least
    :data:`START_WHITE_MIN_PROB`, becomes the white at that confidence. None when a white is
    sure already, no class probabilities were given, or no detection qualifies."""
    white = CLASSES.index(B.WHITE)
    if not det.probs.size or ((det.cls == white) & (det.conf >= SURE_CONF)).any():
        return None
    p = np.where(det.conf < SURE_CONF, det.probs[:, white], 0.0)
    if not len(p) or p.max() < START_WHITE_MIN_PROB:
        return None
    j = int(np.argmax(p))
    out = BallDetections(det.px, det.mm, det.radius_px, det.cls.copy(), det.conf.copy(), det.probs,
                         det.mm_per_px, det.feats, det.occupancy)
    out.cls[j], out.conf[j] = white, SURE_CONF
    return out


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
