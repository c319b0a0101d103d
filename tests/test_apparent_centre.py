"""A ball's image centre seen obliquely (a TV camera): its table position moved away from the
camera by the apparent drop (tracker.perception.geometry.oblique_shift, issue 31)."""

from __future__ import annotations

import math

import numpy as np

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from tracker.perception.geometry import TableView, oblique_shift
from tracker.perception.params import ApparentCentreParams

P = ApparentCentreParams()


def _view(eye: tuple[float, float, float], hfov: float) -> TableView:
    cam = CameraModel.look_at(eye, (T.width / 2, T.length / 2, 0.0), (0.0, 1.0, 0.0) if eye[2] > 3500
                              else (0.0, 0.0, 1.0), (1280, 720), hfov)
    cal = Calibration((1280, 720), T, cam, {"median": 0.0, "max": 0.0}, method="manual",
                      orientation="markings", focal="estimated")
    return TableView(cal, 0.5)


def _balls() -> np.ndarray:
    """Ball centres (N, 3) mm over the bed, 26.25 mm up."""
    return np.array([[x, y, T.ball_radius] for x in (300.0, T.width / 2, 1500.0)
                     for y in (500.0, T.length / 2, 3000.0)])


def test_a_tv_camera_moves_each_ball_away_by_the_drop_over_the_tangent_of_its_elevation():
    eye = (T.width / 2, -5000.0, 3000.0)  # behind baulk, 3 m up: 14-24 degrees down to the bed (all full)
    view = _view(eye, 35.0)
    balls = _balls()
    px = view.cal.to_image(balls[:, :2], T.ball_radius)
    plain = view.cal.ball_to_table(px)
    moved, _ = view.locate(px)
    ground = np.hypot(balls[:, 0] - eye[0], balls[:, 1] - eye[1])
    expect = P.drop_mm * ground / (eye[2] - T.ball_radius)  # drop / tan(elevation), all < 45 deg
    step = moved - plain
    assert np.allclose(np.linalg.norm(step, axis=1), expect, atol=0.05)
    away = (balls[:, :2] - np.array(eye[:2])) / ground[:, None]
    assert np.all(np.einsum("ij,ij->i", step, away) > 0.99 * expect)  # away from the camera
    assert expect.min() > 6.0  # the size of the bias it is for (6-12 mm)


def test_an_overhead_camera_is_left_as_it_was():
    view = _view((T.width / 2, T.length / 2, 4200.0), 60.0)
    px = view.cal.to_image(_balls()[:, :2], T.ball_radius)
    moved, _ = view.locate(px)
    assert np.array_equal(moved, view.cal.ball_to_table(px))


def test_the_drop_tapers_between_the_two_elevations():
    mid = math.radians((P.full_below_deg + P.none_above_deg) / 2)
    h = 2000.0
    eye = np.array([0.0, 0.0, h + T.ball_radius])
    ball = np.array([[h / math.tan(mid), 0.0]])
    out = oblique_shift(ball, eye, T.ball_radius, P)
    assert math.isclose(out[0, 0] - ball[0, 0], 0.5 * P.drop_mm / math.tan(mid), rel_tol=1e-6)
    assert np.array_equal(oblique_shift(ball, eye, T.ball_radius, ApparentCentreParams(drop_mm=0.0)), ball)
