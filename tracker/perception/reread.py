"""The same picture read through a better calibration: no ball moves.

While an automatic calibration fits the cushions poorly the view monitor may take a better fit
of the same view mid-clip (``calibration.monitor.ViewMonitor._better_view``). The camera did not
move: every ball stands where it stood in the picture, but the new calibration puts it on the
table up to about a hundred millimetres from where the old one did (the real 9-ball clearance:
11-100 mm at its 20 s fit). Read as motion, every ball at rest would start a stroke with
"disturbed" balls and wrong contacts. The run (``tracker.pipeline.run``) therefore moves
everything the tracker and the stroke detector hold in table millimetres to where the new
calibration reads the same picture point (``remap``: (N, 2) mm -> (N, 2) mm,
:func:`calibration.monitor.reread_ball`): a ball at rest stays at rest at its new place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from calibration.monitor import reread_ball
from calibration.profile import Calibration
from tracker.perception.events import StrokeDetector
from tracker.perception.pool_track import PoolTracker
from tracker.perception.track import Tracker
from tracker.perception.trackstate import TableState

#: Table positions read again: (N, 2) mm -> (N, 2) mm.
Remap = Callable[[np.ndarray], np.ndarray]


def _point(remap: Remap, p: np.ndarray) -> np.ndarray:
    """One position (2,) mm read again."""
    return remap(np.asarray(p, float)[None])[0]


def _xy(remap: Remap, p: tuple[float, float]) -> tuple[float, float]:
    x, y = _point(remap, np.asarray(p, float))
    return float(x), float(y)


def _places(remap: Remap, pos: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """A ball -> (x, y) mm layout read again."""
    if not pos:
        return dict(pos)
    names = list(pos)
    got = remap(np.array([pos[b] for b in names], float))
    return {b: (float(x), float(y)) for b, (x, y) in zip(names, got, strict=True)}


def reread_tracks(tracker: Tracker | PoolTracker, remap: Remap) -> None:
    """Every followed ball's place, rest average, trail and pending decisions (a hold, a
    reappearance) moved to where ``remap`` reads them; speeds and flags kept, so a ball at
    rest stays at rest. A potted ball keeps its pocket. For the pool tracker also the places
    of the cue ball's lookalikes (lamp reflections)."""
    inner = tracker.inner if isinstance(tracker, PoolTracker) else tracker
    for s in inner.slots.values():
        if s.pos is None or s.potted_pocket is not None:
            continue
        s.pos = _point(remap, s.pos)
        if s.rest_n:
            s.rest_sum = _point(remap, s.rest_sum / s.rest_n) * s.rest_n
        if s.trail:
            s.trail = list(remap(np.array(s.trail, float)))
        if s.reloc is not None:
            s.reloc = _point(remap, s.reloc)
        if s.held is not None:
            s.held = (s.held[0], _point(remap, s.held[1]), s.held[2])
        if s.emerge is not None:
            s.emerge = (s.emerge[0], _point(remap, s.emerge[1]))
    if isinstance(tracker, PoolTracker):
        for q in tracker.still.places:
            q.pos = _point(remap, q.pos)


def _state(remap: Remap, st: TableState) -> TableState:
    return replace(st, pos=_places(remap, st.pos),
                   emerged={b: (t, _xy(remap, p)) for b, (t, p) in st.emerged.items()})


def reread_strokes(strokes: StrokeDetector, remap: Remap) -> None:
    """The stroke detector's memory of places (the last frames, the last rest, where each
    ball stood after the last stroke, the cue ball's last places, and a stroke under way's
    layout before the strike and tracks) moved to where ``remap`` reads them, so that the
    next frame, read through the new calibration, shows no ball moved."""
    prev_is_last = bool(strokes.recent) and strokes.prev is strokes.recent[-1]
    strokes.recent = [_state(remap, st) for st in strokes.recent]
    if prev_is_last:
        strokes.prev = strokes.recent[-1]
    elif strokes.prev is not None:
        strokes.prev = _state(remap, strokes.prev)
    strokes.last_rest_pos = _places(remap, strokes.last_rest_pos)
    strokes.after_last = _places(remap, strokes.after_last)
    if strokes.white_left is not None:
        strokes.white_left = (strokes.white_left[0], _xy(remap, strokes.white_left[1]))
    if strokes.white_gone is not None:
        strokes.white_gone = (strokes.white_gone[0], _xy(remap, strokes.white_gone[1]))
    s = strokes.stroke
    if s is not None:
        s.before = _places(remap, s.before)
        s.track = {b: [(t, _xy(remap, p)) for t, p in path] for b, path in s.track.items()}


def reread_run(tracker: Tracker | PoolTracker, strokes: StrokeDetector, old: Calibration,
               new: Calibration) -> None:
    """The calibration ``old`` replaced by ``new``, a better fit of the same picture: every
    place ``tracker`` and the stroke detector ``strokes`` hold is read again through ``new``
    (:func:`calibration.monitor.reread_ball`), so that balls at rest stay at rest."""
    def remap(mm: np.ndarray) -> np.ndarray:
        return reread_ball(old, new, mm)
    reread_tracks(tracker, remap)
    reread_strokes(strokes, remap)
