"""A ball that rattles in a pocket's jaws and comes back out (the synthetic match, frame 2,
stroke 25: the green sent at the baulk-left corner hit the jaws, was out of sight 0.2 s and
rolled back up the table): it is the same ball going on, not a pot. One that stays gone is
potted as before."""

from __future__ import annotations

import numpy as np
from helpers import detections_at

from calibration.table import STANDARD_TABLE as T
from tracker.perception.track import Tracker

FPS = 25.0
WHITE = (1200.0, 2000.0)
#: the green's centres (mm) as the detector saw them, one a frame: struck off its spot toward
#: the baulk-left pocket, into the jaws ...
IN = [(597.0, 737.0)] * 10 + [(544.0, 663.0), (492.0, 577.0), (440.0, 505.0), (392.0, 433.0),
                              (343.0, 367.0), (305.0, 303.0), (242.0, 243.0), (217.0, 172.0),
                              (167.0, 111.0)]
#: ... and back out along the side cushion, to rest
OUT = [(77.0, 236.0), (92.0, 278.0), (110.0, 321.0), (128.0, 355.0), (143.0, 395.0),
       (160.0, 430.0)] + [(170.0, 450.0)] * 20


def _track(green: list[tuple[float, float] | None]):
    tr = Tracker(T, FPS)
    return [tr.update(k, detections_at({"white": WHITE} | ({} if p is None else {"green": p})))
            for k, p in enumerate(green)]


def _pots(states) -> list[tuple[str, str]]:
    return [(b, pocket) for st in states for b, pocket, _t in st.pots]


def test_a_ball_back_out_of_the_jaws_is_not_potted():
    states = _track(IN + [None] * 5 + OUT)
    assert _pots(states) == []
    assert np.allclose(states[-1].pos["green"], (170.0, 450.0), atol=5.0)


def test_a_ball_that_stays_gone_is_still_potted():
    states = _track(IN + [None] * 30)
    assert _pots(states) == [("green", "baulk_left")]

