"""A start calibrated on poor pictures is calibrated again, before refereeing, on a later
picture of the same view (calibration/startup.py ``better_start``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.camera import CameraModel
from calibration.startup import better_start
from calibration.table import STANDARD_TABLE as T
from tracker.perception.calibrate import calibrate_image
from tracker.rules.snooker import SnookerRules
from tracker.synth.render import Renderer, RenderStyle

BALL_MM = np.array([400.0, 2500.0])


def _render(cam: CameraModel) -> np.ndarray:
    layout = SnookerRules().setup_positions()
    layout["white"] = (1000.0, 600.0)
    return Renderer(cam, T, RenderStyle(seed=4)).render(layout)


def test_a_poor_start_takes_the_first_later_picture_of_the_view_that_fits_better():
    cam = CameraModel.overhead(T.length, T.width)
    img = _render(cam)
    eye = cam.centre + np.array([0.0, 30.0, 0.0])
    off = CameraModel.look_at(tuple(eye), (T.width / 2, T.length / 2 + 30.0, 0), (-1, 0, 0),
                              cam.image_size, 66.0, tuple(cam.dist))
    # the start's fit, as the 9-ball clearance's (a player over the table): balls 10+ mm out
    poor = replace(calibrate_image(img, T), camera=off,
                   fit_error_mm={"median": 9.6, "max": 74.5, "n": 368, "worst_side": 19.6})
    ball_px = cam.project(np.array([[*BALL_MM, T.ball_radius]]))
    assert np.linalg.norm(poor.ball_to_table(ball_px)[0] - BALL_MM) > 10.0
    read = []

    def later():
        for k, picture in enumerate([np.zeros_like(img), img, img]):  # a cut, then the view
            read.append(k)
            yield picture

    got = better_start(poor, later(), [img])
    assert got is not poor
    assert np.linalg.norm(got.ball_to_table(ball_px)[0] - BALL_MM) < 2.0
    assert read == [0, 1]  # read only as far as needed
    # a start that fits well is kept, and no later picture read
    read.clear()
    assert got.fit_error_mm["median"] < 1.0
    assert better_start(got, later(), [img]) is got and read == []
