"""A ball's colour is read without the pixels the lamps blow out (the harder world's overhead
draw 5: tournament blue cloth under a canopy of eight lamps; the pink's core is white in the
picture, its rim pink, and it was read as a second cue ball: no stroke of that clip found)."""

from __future__ import annotations

import cv2
import numpy as np

from bench.common import true_profile
from calibration.table import STANDARD_TABLE as T
from tracker.perception import colour as D
from tracker.perception.detect import CLASSES, BallDetector
from tracker.perception.params import ColourParams
from tracker.rules.snooker import SnookerRules
from tracker.synth.randomise import draw
from tracker.synth.render import Renderer


def _pink_and_cue():
    """(detector, picture, pixel centres (2, 2) of the pink on its spot and the cue ball)."""
    d = draw(5, "overhead", faults=False)
    cal = true_profile(d.camera, T)
    layout = SnookerRules().setup_positions()
    layout["white"] = (1000.0, 600.0)
    img = Renderer(d.camera, T, d.style).render(layout, noise_index=0)
    det = BallDetector(cal)
    det.learn_cloth(img)
    det.learn_colours([img])
    return det, img, cal.to_image(np.array([T.spots["pink"], (1000.0, 600.0)]), T.ball_radius)


def _compressed(img: np.ndarray) -> np.ndarray:
    """The picture as a video codec leaves it: the pink rim bleeds into the blown core (in the
    rendered picture 93 % of the pink's centre disc is blown out, in the clip 69 %)."""
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], 1)


def test_a_pink_with_a_blown_out_core_reads_pink_and_the_cue_ball_white():
    """(On one still the colours' spots anchor the learning and read them right even with
    every pixel counted; in the clip's moving frames they did not. The next test shows what
    leaving the blown pixels out changes.)"""
    det, img, px = _pink_and_cue()
    img = _compressed(img)
    det.learn_colours([img])
    found = det.detect(img)
    got = [CLASSES[found.cls[int(np.argmin(np.linalg.norm(found.px - p, axis=1)))]] for p in px]
    assert got == ["pink", "white"]


def test_without_the_blown_pixels_the_pink_and_the_cue_ball_differ():
    """Their colour features (hue vector and saturation) lie 3 times farther apart without
    the blown-out pixels than with every pixel counted (measured 0.32 against 0.08)."""
    det, img, px = _pink_and_cue()
    img = _compressed(img)
    apart = np.linalg.norm(np.subtract(*det.colour_features(img, px)[:, :3]))
    every = ColourParams(min_unclipped_share=2.0)  # more than the disc: all pixels count
    alike = np.linalg.norm(np.subtract(*D.colour_features(img, px, det.r_px, every)[:, :3]))
    assert apart > 3 * alike, (apart, alike)


def test_a_mostly_blown_patch_is_read_from_its_least_bright_pixels():
    pink = np.array([[90, 60, 200]], np.uint8)
    patch = np.full((10, 10, 3), 255, np.uint8)
    patch[:5] = pink  # half the disc left unclipped: only those count
    assert np.allclose(D.patch_feature(patch), D.feature(pink)[0])
    patch[:] = 255
    patch[:2] = pink  # 20 % left: the least bright 30 % count (2 rows pink, 1 row blown)
    part = np.concatenate([np.repeat(pink, 20, 0), np.full((10, 3), 255, np.uint8)])
    assert np.allclose(D.patch_feature(patch), np.median(D.feature(part), axis=0))
    white = np.full((10, 10, 3), 240, np.uint8)  # nothing blown out: every pixel counts
    assert np.allclose(D.patch_feature(white), np.median(D.feature(white.reshape(-1, 3)), axis=0))
