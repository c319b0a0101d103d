"""The synthetic pool world's balls: drawn where the truth puts them, a stripe showing both its
white and its colour, a solid its colour, the numbers and the cue ball's dots painted."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.table import TableGeometry
from tracker.synth.pool_render import PoolLook, PoolRenderer, ball_colour_name, random_orientation
from tracker.synth.render import RenderStyle

TABLE = TableGeometry.pool(7)
#: band axis (the ball's own z) turned to lie along the table: seen from above, the band
#: crosses the ball's middle and the white caps show at two sides
ABOUT_X = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]])
BALLS = {"3": (300.0, 500.0), "11": (600.0, 1000.0), "white": (450.0, 1500.0), "8": (700.0, 400.0)}


@pytest.fixture(scope="module")
def frames():
    t = TABLE
    cam = CameraModel.look_at((t.width / 2, t.length / 2, 2600.0), (t.width / 2, t.length / 2, 0.0),
                              (1.0, 0.0, 0.0), (640, 360), 52.0)
    style = RenderStyle(noise_sigma=0.0, cloth_rgb=(0.05, 0.28, 0.62), vignetting=0.0)
    r = PoolRenderer(cam, t, style, PoolLook(cue_dots=6))
    orient = {"11": ABOUT_X, "3": np.eye(3), "white": np.eye(3), "8": np.eye(3)}
    return cam, r.background.copy(), r.render(BALLS, orientations=orient), r


def _disc(cam: CameraModel, xy: tuple[float, float], frac: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Pixel rows, cols within ``frac`` of the ball's apparent radius of its projected centre."""
    c = np.array([[*xy, TABLE.ball_radius]])
    p = cam.project(c)[0]
    rad = float(np.linalg.norm(cam.project(c + [[TABLE.ball_radius, 0, 0]])[0] - p))
    yy, xx = np.mgrid[0:360, 0:640]
    inside = np.hypot(xx - p[0], yy - p[1]) < frac * rad
    return yy[inside], xx[inside], rad


def test_balls_are_where_the_truth_says(frames):
    cam, empty, img, _ = frames
    changed = np.abs(img.astype(int) - empty.astype(int)).sum(2) > 60
    for ball, xy in BALLS.items():
        c = np.array([[*xy, TABLE.ball_radius]])
        p = cam.project(c)[0]
        rows, cols, rad = _disc(cam, xy, 0.8)
        assert changed[rows, cols].mean() > 0.9, ball  # the ball covers its true place
        # the changed pixels near it are centred on the truth (within a pixel)
        yy, xx = np.nonzero(changed)
        near = np.hypot(xx - p[0], yy - p[1]) < 1.6 * rad
        centre = np.array([xx[near].mean(), yy[near].mean()])
        assert np.linalg.norm(centre - p) < 1.0, (ball, centre, p)


def _shares(img: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> tuple[float, float]:
    """Shares of whitish and of red pixels (BGR)."""
    px = img[rows, cols].astype(int)
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    white = (np.minimum(np.minimum(b, g), r) > 120) & (np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r) < 60)
    red = (r > 90) & (r > 2 * g) & (r > 2 * b)
    return float(white.mean()), float(red.mean())


def test_stripe_shows_white_and_colour_solid_only_colour(frames):
    cam, _, img, _ = frames
    white, red = _shares(img, *_disc(cam, BALLS["11"], 0.85)[:2])
    assert white > 0.2 and red > 0.2, (white, red)
    white, red = _shares(img, *_disc(cam, BALLS["3"], 0.85)[:2])
    assert red > 0.6 and white < 0.1, (white, red)
    white, red = _shares(img, *_disc(cam, BALLS["white"], 0.85)[:2])
    assert white > 0.5 and red > 0.0, (white, red)  # the cue ball with a red dot on top


def test_numbers_painted_on_white_circles(frames):
    """The 8's surface: black, a white circle at its own +x pole with the dark number in it."""
    r = frames[3]
    n = np.array([[[1.0, 0, 0], [0.995, 0.1, 0.0], [0.0, 0.0, 1.0], [0.963, 0.27, 0.0]]], np.float32)
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    col = r._surface_colour("8", n)[0]
    assert col[2].max() < 0.1  # away from the circle: black
    assert col[3].min() > 0.8  # inside the circle (3/4 of its radius out), beside the digit: white
    assert col[:2].min() < 0.1  # the digit's ink at the circle's middle


def test_colour_names_and_orientations():
    assert [ball_colour_name(b) for b in ("white", "1", "9", "8", "13")] == [
        "white", "yellow", "yellow", "black", "orange"]
    rot = random_orientation(np.random.default_rng(0))
    assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9) and np.isclose(np.linalg.det(rot), 1.0)
