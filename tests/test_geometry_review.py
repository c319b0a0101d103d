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


def test_the_run_marks_a_pot_for_review_on_a_poor_calibration():
    """Wired where strokes go to the referee: tracked frames of a red potted, fed to a run
    whose calibration reports itself poor, give a call marked for review."""
    import dataclasses
    from pathlib import Path

    import cv2
    import numpy as np

    from calibration.auto import calibrate_image
    from tracker.perception.events import SETTLE_S
    from tracker.perception.track import TableState
    from tracker.pipeline import RefereeRun
    from tracker.records.shot import FrameStart

    cap = cv2.VideoCapture(str(Path(__file__).resolve().parents[1] / "sample_videos" / "overhead_miss.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    cal = calibrate_image(img, T)
    fps = 25.0

    def run_with(held: float) -> list[dict]:
        poor = dataclasses.replace(cal, accuracy={**cal.accuracy, "holdout_median_mm": held})
        white, red = np.array([889.0, 2500.0]), np.array([1300.0, 3000.0])
        pocket = np.array(T.pockets["top_right"].mouth_centre)
        run = RefereeRun(poor, fps, ("Ann", "Bob"))
        run._feed(FrameStart(1, ("Ann", "Bob"), "Ann", positions={"white": tuple(white), "red_01": tuple(red)}))
        k = 0

        def frame(pos: dict, moving=(), pots=()) -> None:
            nonlocal k
            k += 1
            run.after_tracking(TableState(k, k / fps, {b: tuple(map(float, p)) for b, p in pos.items()},
                                          set(moving), set(pos), list(pots), [], [], []))

        for _ in range(25):
            frame({"white": white, "red_01": red})
        hit = red - (red - white) / np.linalg.norm(red - white) * T.ball_diameter
        for s in np.linspace(0, 1, 9)[1:]:
            frame({"white": white + (hit - white) * s, "red_01": red}, {"white"})
        for s in np.linspace(0, 1, 12)[1:]:
            frame({"white": hit, "red_01": red + (pocket - red) * s}, {"red_01"})
        frame({"white": hit}, pots=[("red_01", "top_right", k / fps)])
        for _ in range(int((SETTLE_S + 0.5) * fps)):
            frame({"white": hit})
        return [d for d in run.result.decisions if d.get("shot") == 1]

    flagged = run_with(POOR)
    assert flagged and flagged[-1].get("potted") == ["red_01"]
    assert any("went into the" in n for n in flagged[-1].get("needs_review") or [])
    assert not any("went into the" in n for n in run_with(GOOD)[-1].get("needs_review") or [])
