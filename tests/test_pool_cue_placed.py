"""A cue ball put down by hand and misread as an object ball for one picture is still
followed as the cue ball (:meth:`PoolTracker._free_cue_place`)."""

from __future__ import annotations

import numpy as np

from tests.test_pool_naming import TABLE, _frame
from tracker.perception.pool_track import PoolTracker, PoolTrackParams
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


def _stripe_taken(params: PoolTrackParams) -> dict:
    """The cue ball stands at (300, 600); the 15 at rest at ``STRIPE`` reads as the cue ball
    throughout (its white side up). The cue ball goes out of view for 10 pictures and comes
    back at rest at ``BACK``. The last layout."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(), params=params)
    st = None
    for frame, balls in enumerate([[("cue", (300.0, 600.0)), ("cue", STRIPE)]] * 30
                                  + [[("cue", STRIPE)]] * 10
                                  + [[("cue", BACK), ("cue", STRIPE)]] * 30):
        st = tr.update(frame, tr.settle_cue(_frame(balls)))
    return st.pos


STRIPE, BACK = (900.0, 1500.0), (300.0, 1200.0)


def test_a_stripe_reading_as_the_cue_ball_does_not_take_the_lost_cue_balls_track() -> None:
    """While the cue ball is out of view the stripe's claim is the stripe's: the cue ball,
    back in view, is followed where it stands, and the stripe stays an object ball."""
    pos = _stripe_taken(PoolTrackParams())
    assert np.linalg.norm(np.subtract(pos["white"], BACK)) < 5.0
    assert any(b != "white" and np.linalg.norm(np.subtract(p, STRIPE)) < 5.0
               for b, p in pos.items())


def test_without_the_object_claims_the_stripe_takes_the_cue_balls_track() -> None:
    """The control (the rule switched off): the cue ball's track goes to the stripe."""
    pos = _stripe_taken(PoolTrackParams(claim_followed_frames=10**9))
    assert np.linalg.norm(np.subtract(pos["white"], STRIPE)) < 5.0


def _glimpse(params: PoolTrackParams) -> tuple[dict, list]:
    """A rack of three stands; the cue ball, struck from rest, rolls up the table 230 mm a
    picture; in the first picture after the strike it is not seen and its blur reads as the
    5; seen again, it stops. The last layout and every pot reported."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), params=params)
    st, pots = None, []
    start = np.array([460.0, 300.0])
    for k in range(40):
        p = start + [0.0, 230.0 * min(max(k - 10, 0), 5)]
        balls = [("5", tuple(p))] if k == 11 else [("cue", tuple(p))]
        st = tr.update(k, tr.settle_cue(_frame([*RACK, *balls])))
        pots += st.pots
    return st.pos, pots


def test_a_glimpse_of_the_moving_cue_ball_read_as_an_object_ball_leaves_no_ball() -> None:
    """The one picture of the cue ball read as the 5 leaves no object ball behind and no
    pot."""
    pos, pots = _glimpse(PoolTrackParams())
    assert sorted(pos) == ["1", "2", "3", "white"] and pots == []


def test_without_dropping_the_glimpse_an_object_ball_is_left() -> None:
    """The control (the rule switched off): the glimpse's track is left on the table or
    called potted."""
    pos, pots = _glimpse(PoolTrackParams(glimpse_radii=-1.0))
    assert len(pos) == 5 or pots
