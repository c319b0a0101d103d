"""A calibration profile given to a run is checked against the picture
(tracker/pipeline/profile_fit.py): the samples' own cameras fit, their cameras swapped do not."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.pipeline.profile_fit import (
    PROFILE_FIT,
    ProfileDoesNotFit,
    check_profile_fits,
    profile_fit_share,
)

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def _camera(name: str) -> Calibration:
    d = json.loads((SAMPLES / f"{name}.camera.json").read_text())
    cam = CameraModel(tuple(d["image_size"]), np.array(d["K"]), np.array(d["dist"]),
                      np.array(d["R"]), np.array(d["t"]))
    return Calibration(cam.image_size, TableGeometry.standard(), cam)


def _first_picture(name: str) -> np.ndarray:
    cap = cv2.VideoCapture(str(SAMPLES / f"{name}.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    return img


@pytest.mark.parametrize("video,other", [("overhead_miss", "broadcast_pots"),
                                         ("broadcast_pots", "overhead_miss")])
def test_a_profile_of_the_pictures_own_camera_fits_and_another_cameras_does_not(video, other):
    img = _first_picture(video)
    own = profile_fit_share(_camera(video), img)
    swapped = profile_fit_share(_camera(other), img)
    assert own >= 0.85 and swapped < PROFILE_FIT.min_share, (own, swapped)
    assert check_profile_fits(_camera(video), [img], video) == pytest.approx(own)
    with pytest.raises(ProfileDoesNotFit, match="another camera or another table"):
        check_profile_fits(_camera(other), [img], video)


def test_a_profile_that_puts_the_table_outside_the_picture_does_not_fit():
    cal = _camera("overhead_miss")
    img = _first_picture("overhead_miss")
    moved = CameraModel(cal.camera.image_size, cal.camera.K, cal.camera.dist, cal.camera.R,
                        cal.camera.t + np.array([20000.0, 0.0, 0.0]))
    assert profile_fit_share(Calibration(cal.image_size, cal.table, moved), img) == 0.0
