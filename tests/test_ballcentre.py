"""The calibration's ball centre: the outline's centre away from the shadow
(calibration/ballcentre.py), on balls drawn with a known centre."""

import cv2
import numpy as np

from calibration.ballcentre import rim_centre, true_centres
from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE

CLOTH = (40, 140, 30)  # BGR
BALL = (30, 60, 200)  # a red-brown ball


def draw_ball(centre: tuple[float, float], r: float, shadow: bool, size: int = 64,
              ss: int = 8) -> np.ndarray:
    """A ball of radius ``r`` px at the sub-pixel ``centre`` on cloth, drawn 8x larger and
    shrunk (so the edge is sub-pixel true): lit from above (a highlight near the top, the
    underside darker) and, with ``shadow``, its dark shadow on the cloth below it in the
    picture, reaching 1.6 radii under the centre."""
    big = np.zeros((size * ss, size * ss, 3), np.float32)
    big[:] = CLOTH
    yy, xx = np.mgrid[0:size * ss, 0:size * ss]
    cx, cy, rr = (centre[0] + 0.5) * ss - 0.5, (centre[1] + 0.5) * ss - 0.5, r * ss
    if shadow:
        sh = ((xx - cx) / (0.95 * rr)) ** 2 + ((yy - (cy + 0.75 * rr)) / (0.85 * rr)) ** 2 <= 1
        big[sh] = np.array(CLOTH, np.float32) * 0.3
    inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= rr ** 2
    shade = np.clip(1.15 - 0.75 * (yy - (cy - rr)) / (2 * rr), 0.3, 1.2)  # darker underneath
    big[inside] = (np.array(BALL, np.float32)[None] * shade[inside][:, None])
    hl = (xx - cx) ** 2 + (yy - (cy - 0.5 * rr)) ** 2 <= (0.25 * rr) ** 2
    big[hl] = 250
    img = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.7), 0, 255).astype(np.uint8)


def centroid_of_difference(img: np.ndarray, near: tuple[float, float], reach: float) -> np.ndarray:
    """What a detector's centroid gives: the mean place of the pixels unlike the cloth."""
    d = np.linalg.norm(img.astype(float) - np.array(CLOTH, float), axis=2)
    yy, xx = np.mgrid[0:img.shape[0], 0:img.shape[1]]
    w = (d > 40) & ((xx - near[0]) ** 2 + (yy - near[1]) ** 2 <= reach ** 2)
    return np.array([xx[w].mean(), yy[w].mean()])


def test_the_outline_centre_ignores_the_shadow_below_the_ball():
    true = (31.37, 29.62)
    img = draw_ball(true, 8.0, shadow=True)
    rough = centroid_of_difference(img, true, 20)
    assert rough[1] - true[1] > 1.0  # the shadow pulls a centroid down: the case to mend
    got = rim_centre(img, rough, 8.3, down=np.array([0.0, 5.0]))
    assert np.linalg.norm(got - true) < 0.3, (got, true)


def test_a_ball_seen_from_above_is_fitted_all_round():
    true = (32.6, 30.2)
    img = draw_ball(true, 7.0, shadow=False)
    got = rim_centre(img, np.array(true) + [1.2, -1.0], 7.0, down=np.array([0.0, 0.3]))
    assert np.linalg.norm(got - true) < 0.3, (got, true)


def test_no_ball_keeps_the_rough_centre():
    img = np.full((64, 64, 3), CLOTH, np.uint8)
    c = np.array([30.0, 30.0])
    assert np.array_equal(rim_centre(img, c, 8.0, down=np.array([0.0, 5.0])), c)


def test_true_centres_take_radius_and_down_from_the_camera():
    """A TV camera behind the top end: the spot ball's "down" points down the picture, and
    the outline's centre is the projection of the ball's centre."""
    t = STANDARD_TABLE
    cam = CameraModel.broadcast(t.length, t.width, image_size=(1280, 720))
    spot = np.array([[*t.spots["blue"], t.ball_radius]])
    at = cam.project(spot)[0]
    r = float(np.linalg.norm(cam.project(spot + [t.ball_radius, 0, 0])[0] - at))
    img = np.full((720, 1280, 3), CLOTH, np.uint8)
    x0, y0 = int(at[0]) - 32, int(at[1]) - 32
    img[y0:y0 + 64, x0:x0 + 64] = draw_ball((at[0] - x0, at[1] - y0), r, shadow=True)
    rough = at + [0.0, 1.5]
    got = true_centres(img, cam, rough[None], t.ball_radius)[0]
    assert np.linalg.norm(got - at) < 0.3, (got, at)
