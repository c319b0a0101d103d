"""Whether a view determined the lens's focal length (calibration/focal.py focal_check), on
synthetic cameras whose lens is known: the cushion edges and spot balls projected through the
true camera with pixel noise, the camera fitted to them with its focal length free."""

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.focal import _with_focal, focal_check, focal_note, fov_from_focal
from calibration.markings import Markings, fit_camera
from calibration.table import STANDARD_TABLE as T

SIZE = (1280, 720)
#: behind the black end: the TV main camera's place and lens, and a long lens from far back
TV = ((T.width / 2, T.length + 3300.0, 3000.0), (T.width / 2, T.length * 0.62, 0.0), 38.0)
LONG = ((T.width / 2, T.length + 14000.0, 7000.0), (T.width / 2, T.length * 0.5, 0.0), 12.0)


def fitted_view(view, noise_px: float, seed: int = 0):
    """The camera fitted (focal length free, from a lens 5 % off) to the cushion noses and
    the six spot balls seen by the true camera of ``view`` with ``noise_px`` of noise; returns
    (fitted camera, edges, markings, true field of view)."""
    eye, target, fov = view
    rng = np.random.default_rng(seed)
    cam = CameraModel.look_at(eye, target, (0, 0, 1), SIZE, fov)
    w, length, z = T.width, T.length, T.cushion_height
    sides = [np.column_stack([np.zeros(60), np.linspace(0, length, 60)]),
             np.column_stack([np.full(60, w), np.linspace(0, length, 60)]),
             np.column_stack([np.linspace(0, w, 40), np.zeros(40)]),
             np.column_stack([np.linspace(0, w, 40), np.full(40, length)])]
    edges = [cam.project(np.column_stack([s, np.full(len(s), z)])) + rng.normal(0, noise_px, (len(s), 2))
             for s in sides]
    spots = {c: cam.project(np.array([[*T.spots[c], T.ball_radius]]))[0] + rng.normal(0, noise_px, 2)
             for c in ("yellow", "green", "brown", "blue", "pink", "black")}
    marks = Markings(spots)
    fit = fit_camera(_with_focal(cam, T, fov * 1.05), edges, T, (0.0, 0.0), marks, True, [1.0] * 4)
    return fit, edges, marks, fov


@pytest.fixture(scope="module")
def checks():
    out = {}
    for name, view, noise in (("tv", TV, 0.3), ("long", LONG, 0.3), ("long_noisy", LONG, 1.0)):
        fit, edges, marks, fov = fitted_view(view, noise)
        out[name] = (focal_check(fit, edges, T, (0.0, 0.0), marks, [1.0] * 4), fov,
                     fov_from_focal(float(fit.K[0, 0]), SIZE[0]))
    return out


def test_the_range_reported_holds_the_true_lens(checks):
    for check, fov, _ in checks.values():
        lo, hi = check["fov_range_deg"]
        assert lo - 0.05 <= fov <= hi + 0.05, (check, fov)


def test_a_long_lens_pins_its_focal_length_down_less_than_the_tv_lens(checks):
    tv, long = checks["tv"][0], checks["long"][0]
    assert long["share"] > 1.5 * tv["share"], (tv, long)


def test_a_clean_tv_view_measures_the_lens_and_says_so(checks):
    check = checks["tv"][0]
    assert check["measured"] and check["uncertain_max_mm"] <= 5.0, check
    assert "was measured" in focal_note(check, 60.0, None)


def test_a_long_lens_read_less_exactly_says_what_it_leaves_uncertain(checks):
    clean, noisy = checks["long"][0], checks["long_noisy"][0]
    assert noisy["share"] > 2 * clean["share"]
    assert not noisy["measured"] and noisy["uncertain_max_mm"] > 5.0, noisy
    note = focal_note(noisy, 60.0, None)
    assert "could not be measured" in note and f"{noisy['uncertain_mm']:.0f} mm" in note
