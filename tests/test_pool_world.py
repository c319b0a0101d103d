"""The pool crops' harder world (train/pool_world.py): glossy balls mirror the cloth (and only
with gloss on), and the video's look does what each of its knobs says."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "train"))

from pool_world import Gloss, GlossyPoolRenderer, VideoLook, random_video_look, video_look  # noqa: E402

from calibration.camera import CameraModel  # noqa: E402
from calibration.table import TableGeometry  # noqa: E402
from tracker.synth.pool_render import PoolRenderer  # noqa: E402
from tracker.synth.render import RenderStyle  # noqa: E402

TABLE = TableGeometry.pool(7)
BLUE_CLOTH = (0.05, 0.45, 0.85)  # RGB


def _eight_ball(renderer_cls, **kw) -> tuple[np.ndarray, np.ndarray]:
    """An 8 ball from above on a blue cloth: the picture (BGR) and the ball's pixels' mask."""
    t = TABLE
    cam = CameraModel.look_at((t.width / 2, t.length / 2, 1200.0), (t.width / 2, t.length / 2, 0.0),
                              (1.0, 0.0, 0.0), (320, 240), 30.0)
    style = RenderStyle(noise_sigma=0.0, cloth_rgb=BLUE_CLOTH, vignetting=0.0)
    img = renderer_cls(cam, t, style, **kw).render({"8": (t.width / 2, t.length / 2)})
    c = np.array([[t.width / 2, t.length / 2, t.ball_radius]])
    p = cam.project(c)[0]
    rad = float(np.linalg.norm(cam.project(c + [[t.ball_radius, 0, 0]])[0] - p))
    yy, xx = np.mgrid[0:240, 0:320]
    return img, np.hypot(xx - p[0], yy - p[1]) < 0.85 * rad


def test_glossy_black_ball_wears_the_cloths_colour():
    plain, inside = _eight_ball(PoolRenderer)
    glossy, _ = _eight_ball(GlossyPoolRenderer, gloss=Gloss(cloth_reflection=0.2, rim_reflection=0.7,
                                                             broad_specular=0.0))
    # the black ball's blue (B) rises over its red (R) only when it mirrors the blue cloth
    tint = lambda img: float(img[inside][:, 0].mean() - img[inside][:, 2].mean())  # noqa: E731
    assert tint(glossy) > tint(plain) + 8


def test_no_gloss_is_the_plain_render():
    plain, _ = _eight_ball(PoolRenderer)
    none, _ = _eight_ball(GlossyPoolRenderer, gloss=Gloss(cloth_reflection=0.0, rim_reflection=0.0,
                                                           room_level=0.0, broad_specular=0.0))
    assert np.abs(plain.astype(int) - none.astype(int)).max() <= 1


def _test_card() -> np.ndarray:
    """A white, a red and a blue block side by side (BGR uint8, 64 x 96)."""
    img = np.zeros((64, 96, 3), np.uint8)
    img[:, :32] = (235, 235, 235)
    img[:, 32:64] = (30, 30, 220)
    img[:, 64:] = (200, 60, 20)
    return img


def test_plain_look_changes_nothing():
    img = _test_card()
    assert np.array_equal(video_look(img, VideoLook()), img)


def test_white_balance_and_saturation():
    img = _test_card()
    warm = video_look(img, VideoLook(gains_bgr=(0.8, 1.0, 1.1)))[:, :32].reshape(-1, 3).mean(0)
    assert warm[2] > warm[0] + 40  # the white goes cream (more red than blue)
    grey = video_look(img, VideoLook(saturation=0.0))
    assert np.ptp(grey.astype(int), axis=2).max() <= 1  # no colour left


def test_chroma_smears_colour_wider_than_brightness():
    img = _test_card()
    smeared = video_look(img, VideoLook(chroma_scale=0.25))
    ycc_in, ycc_out = (cv2.cvtColor(i, cv2.COLOR_BGR2YCrCb).astype(int) for i in (img, smeared))
    luma_err = np.abs(ycc_out[..., 0] - ycc_in[..., 0])[:, 28:36].mean()
    chroma_err = np.abs(ycc_out[..., 1:] - ycc_in[..., 1:])[:, 28:36].mean()
    assert chroma_err > 3 * max(luma_err, 1.0)


def test_random_looks_are_drawn_per_seed():
    a = [random_video_look(np.random.default_rng([0, c, 33])) for c in range(20)]
    b = [random_video_look(np.random.default_rng([0, c, 33])) for c in range(20)]
    assert a == b
    assert sum(v == VideoLook() for v in a) < 10 and len(set(a)) > 10
