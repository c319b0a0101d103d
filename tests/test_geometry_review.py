"""Calls whose geometry a poor calibration cannot support are marked for review (issue 31)."""

from __future__ import annotations

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from tests import helpers as H
from tracker.perception.geometry_review import GEOMETRY_REVIEW, review_geometry


def calibration(held_mm: float | None, camera: CameraModel | None = None) -> Calibration:
    """A calibration (TV camera behind the black-spot end unless ``camera``) whose profile
    reports ``held_mm`` as its held-out markings median (None: no markings found)."""
    cam = camera or CameraModel.broadcast(T.length, T.width)
    return Calibration(cam.image_size, T, cam, accuracy={"holdout_median_mm": held_mm})


POOR = GEOMETRY_REVIEW.max_holdout_mm + 5.0
GOOD = GEOMETRY_REVIEW.max_holdout_mm - 5.0
# the TV camera stands behind the black-spot end: the baulk end is its far end
FAR = (T.width / 2, 300.0)
NEAR = (T.width / 2, T.length - 300.0)


def test_pot_on_poor_calibration_is_marked_for_review_and_reaches_the_call():
    sh = H.shot(first="red_01", pots=("red_01",), before={"white": NEAR, "red_01": NEAR})
    out = review_geometry(sh, calibration(POOR))
    notes = [n for n in out.needs_review if "went into the" in n]
    assert len(notes) == 1 and "poor" in notes[0]
    call, _ = H.decide(H.state(), out)
    assert any("went into the" in n for n in call.needs_review)


def test_first_contact_far_from_the_camera_is_marked_near_one_is_not():
    far = H.shot(first="red_01", before={"white": NEAR, "red_01": FAR})
    near = H.shot(first="red_01", before={"white": FAR, "red_01": NEAR})
    cal = calibration(POOR)
    assert any("far end" in n for n in review_geometry(far, cal).needs_review)
    assert not review_geometry(near, cal).needs_review


def test_supported_or_unmeasured_calibration_leaves_the_call_alone():
    sh = H.shot(first="red_01", pots=("red_01",), before={"white": NEAR, "red_01": FAR})
    assert review_geometry(sh, calibration(GOOD)) == sh
    assert review_geometry(sh, calibration(None)) == sh


def test_overhead_camera_has_no_far_end():
    over = CameraModel.overhead(T.length, T.width)
    sh = H.shot(first="red_01", before={"white": NEAR, "red_01": FAR})
    assert not review_geometry(sh, calibration(POOR, over)).needs_review
