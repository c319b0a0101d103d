"""The suite's once-per-picture calibration (tests/calibration_once.py) answers a picture it
was given before with what the calibration said then, and calibrates afresh under a patch."""

from __future__ import annotations

import numpy as np
import pytest
from calibration_once import _cached, calibration_modules

from calibration.finder import TableNotFound


class Counting:
    """A stand-in calibration: counts its calls; refuses an all-black picture."""

    def __init__(self):
        self.calls = 0

    def __call__(self, img, table, hfov_deg=None, lens=None, ball_finder=None):
        self.calls += 1
        if not img.any():
            raise TableNotFound("no cloth found")
        return {"mean": float(img.mean()), "table": table, "hfov": hfov_deg, "calls": self.calls}


def test_a_picture_given_again_is_answered_with_a_copy_of_the_first_answer():
    real = Counting()
    calibrate = _cached(real, frozenset({"calibration.auto"}))
    img = np.full((4, 6, 3), 7, np.uint8)
    first = calibrate(img, "full size")
    again = calibrate(img.copy(), "full size")
    assert real.calls == 1 and again == first and again is not first
    again["mean"] = -1.0  # a caller changing its answer changes no later answer
    assert calibrate(img, "full size")["mean"] == 7.0 and real.calls == 1


def test_any_other_picture_or_argument_is_calibrated():
    real = Counting()
    calibrate = _cached(real, frozenset({"calibration.auto"}))
    img = np.full((4, 6, 3), 7, np.uint8)
    calibrate(img, "full size")
    other = img.copy()
    other[0, 0, 0] = 8
    calibrate(other, "full size")
    calibrate(img, "full size", 30.0)
    calibrate(img, "pool table")
    calibrate(img, "full size", ball_finder=lambda *a: None)
    assert real.calls == 5


def test_no_table_is_answered_again_as_no_table():
    real = Counting()
    calibrate = _cached(real, frozenset({"calibration.auto"}))
    black = np.zeros((4, 6, 3), np.uint8)
    for _ in range(2):
        with pytest.raises(TableNotFound, match="no cloth"):
            calibrate(black, "full size")
    assert real.calls == 1


def test_under_a_patch_of_what_the_calibration_reaches_every_call_calibrates(monkeypatch):
    """A patch of a module the calibration imports (here calibration.auto), or of anything
    outside the project (here this test's class), calibrates afresh; a patch of a module it
    never imports (the tracker's) does not; undone, the first answer is given again."""
    import calibration.auto as auto
    from tracker.perception import track

    real = Counting()
    calibrate = _cached(real, frozenset({"calibration.auto"}))
    img = np.full((4, 6, 3), 7, np.uint8)
    calibrate(img, "full size")
    monkeypatch.setattr(track, "NOT_THE_CALIBRATIONS", 1, raising=False)
    assert calibrate(img, "full size")["calls"] == 1 and real.calls == 1
    for target in (auto, Counting):
        monkeypatch.setattr(target, "patched", True, raising=False)
        assert calibrate(img, "full size")["calls"] == real.calls
        monkeypatch.undo()
    assert real.calls == 3 and calibrate(img, "full size")["calls"] == 1


def test_the_calibration_reaches_its_ball_finder_and_not_the_tracker():
    reached = calibration_modules()
    assert {"calibration.auto", "calibration.finder", "tracker.perception.calibrate",
            "tracker.perception.detect", "tracker.perception.params"} <= reached
    assert not {"tracker.perception.track", "tracker.perception.events", "tracker.pipeline",
                "tracker.perception.learned"} & reached
