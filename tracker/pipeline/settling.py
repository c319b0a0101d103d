"""A frame's detections settled to the game's ball set, and the frame start the first picture
shows: the small steps between the detector and the tracker that :class:`tracker.pipeline.run.
RefereeRun` takes for snooker and for pool (kept apart from the run to keep it small)."""

from __future__ import annotations

import numpy as np

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
                    n_reds: int = 15, identity: PoolIdentity | None = None) -> FrameStart:
    """The frame start as the camera sees it: the standard rack of ``n_reds`` reds (white in
    hand) when the table shows one, else the observed layout (the video starts mid-frame)."""
    if isinstance(tracker, PoolTracker) and identity is not None:
        st = tracker.update(0, pool_settled(detector, identity, first, detector.detect(first)))
        tracker.reset()
        return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))
    st = tracker.update(0, settled(detector, detector.detect(first)))
    tracker.reset()
    n_red = sum(1 for b in st.pos if B.is_red(b))
    colours = sum(1 for b in st.pos if B.is_colour(b))
    if n_red >= n_reds and colours == 6 and B.WHITE not in st.pos:
        return FrameStart(1, players, breaker=players[0])
    return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))
