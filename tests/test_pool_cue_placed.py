"""A cue ball put down by hand and misread as an object ball for one picture is still
followed as the cue ball (:meth:`PoolTracker._free_cue_place`)."""

from __future__ import annotations

import numpy as np

from tests.test_pool_naming import TABLE, _frame
from tracker.perception.pool_track import PoolTracker
from tracker.rules.ballset import pool_balls

RACK = [("1", (635.0, 1905.0)), ("2", (607.0, 1954.0)), ("3", (663.0, 1954.0))]
PLACE = np.array([470.0, 520.0])


def _placed(misread: bool) -> dict:
    """The rack stands; the cue ball is carried in by hand (15 pictures, 30 mm a picture),
    the last picture before it is put down read as the 5 when ``misread``, then it stands at
    ``PLACE`` for 40 pictures. The last layout."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), lowest_first=True)
    frame, st = 0, None
    for _ in range(10):
        st = tr.update(frame, tr.settle_cue(_frame(RACK)))
        frame += 1
    for k in range(15, 0, -1):
        p = tuple(PLACE - [0.0, 30.0 * k])
        label = "5" if misread and k == 1 else "cue"
        st = tr.update(frame, tr.settle_cue(_frame([*RACK, (label, p)])))
        frame += 1
    for _ in range(40):
        st = tr.update(frame, tr.settle_cue(_frame([*RACK, ("cue", tuple(PLACE))])))
        frame += 1
    return st.pos


def test_a_cue_ball_misread_once_as_it_is_put_down_is_followed_where_it_stands() -> None:
    """Read as the 5 for one picture, then surely as the cue ball: the cue ball is followed
    where it stands, and no object ball is left there."""
    pos = _placed(misread=True)
    assert "white" in pos and np.linalg.norm(np.subtract(pos["white"], PLACE)) < 5.0
    assert sorted(pos) == ["1", "2", "3", "white"]


def test_a_cue_ball_read_right_throughout_is_followed() -> None:
    """The control: read as the cue ball in every picture, it is followed where it stands."""
    pos = _placed(misread=False)
    assert "white" in pos and sorted(pos) == ["1", "2", "3", "white"]
