"""The calibration's self-check is not fooled by what its held-out markings cannot see
(issue 31; calibration/accuracy.py ``judge``, ``VerdictParams``).

The markings held out of the fit lie on the table's long centre line and the baulk line; a TV
camera behind one end looks along that line. Both long cushions read a few pixels outside
their noses (the rail's shadow, as the renderer's TV views show) widen the fitted table while
the markings stay put: on the development TV clips the ball grid was up to 2.7 times as far
off as the held-out markings said. The reported figure adds the spread of the cameras the
picture cannot tell apart (the focal check), and a figure past the poor line is warned of.
"""

from dataclasses import replace

import numpy as np
import pytest

from calibration.accuracy import VERDICT, accuracy_notes, judge, measure_accuracy
from calibration.camera import CameraModel
from calibration.focal import _with_focal
from calibration.markings import Markings, fit_camera
from calibration.table import STANDARD_TABLE as T

SIZE = (1280, 720)
#: a 30 degree zoom 6 m behind the baulk cushion, 3.5 m up, a little off the centre line
EYE, FOV = (T.width / 2 + 200.0, -6000.0, 3500.0), 30.0
#: both long cushions read 3 px outside their noses, every edge point with 0.8 px of noise
BIAS_PX = {0: (-3.0, 0.0), 1: (3.0, 0.0)}
NOISE_PX = 0.8


def fitted(seed: int):
    """(true ball error over the bed, median mm; the profile's ``accuracy``) of a camera fitted
    (focal length free) to biased cushion edges and the six spot balls of the view."""
    rng = np.random.default_rng(seed)
    cam = CameraModel.look_at(EYE, (T.width / 2, T.length / 2, 0.0), (0, 0, 1), SIZE, FOV)
    w, length, z = T.width, T.length, T.cushion_height
    sides = [np.column_stack([np.zeros(60), np.linspace(0, length, 60)]),
             np.column_stack([np.full(60, w), np.linspace(0, length, 60)]),
             np.column_stack([np.linspace(0, w, 40), np.zeros(40)]),
             np.column_stack([np.linspace(0, w, 40), np.full(40, length)])]
    edges = [cam.project(np.column_stack([s, np.full(len(s), z)])) + rng.normal(0, NOISE_PX, (len(s), 2))
             + np.array(BIAS_PX.get(k, (0.0, 0.0))) for k, s in enumerate(sides)]
    spots = {c: cam.project(np.array([[*T.spots[c], T.ball_radius]]))[0] + rng.normal(0, NOISE_PX, 2)
             for c in ("yellow", "green", "brown", "blue", "pink", "black")}
    marks = Markings(spots)
    fit = fit_camera(_with_focal(cam, T, FOV * 1.05), edges, T, (0.0, 0.0), marks, True, [1.0] * 4)
    grid = np.array([[x, y, T.ball_radius] for x in np.linspace(40, w - 40, 12)
                     for y in np.linspace(40, length - 40, 24)])
    back = fit.ball_centre_to_table(cam.project(grid), T.ball_radius)
    true = float(np.median(np.linalg.norm(back - grid[:, :2], axis=1)))
    return true, measure_accuracy(fit, edges, T, (0.0, 0.0), marks, True, [1.0] * 4, True)


@pytest.fixture(scope="module")
def views():
    return [fitted(seed) for seed in range(5)]


def test_the_reported_figure_is_not_far_below_the_truth(views):
    for true, acc in views:
        assert acc["reported_mm"] >= 0.8 * true, (true, acc["reported_mm"], acc["holdout_median_mm"])


def test_the_held_out_markings_alone_were_fooled_on_one_of_these_views(views):
    # what the fix is for: without the lens's share the report is below 0.8 of the truth
    assert any(acc["holdout_median_mm"] < 0.8 * true for true, acc in views)
    for _, acc in views:
        alone = judge(dict(acc), T, replace(VERDICT, focal_share=0.0))
        assert alone["reported_mm"] == pytest.approx(acc["holdout_median_mm"], abs=0.05)


def _measured(held: float, uncertain: float) -> dict:
    return {"holdout_mm": {"spot:blue": held, "spot:pink": held, "baulk_line": held},
            "holdout_median_mm": held, "holdout_max_mm": held, "independent": True,
            "focal_spread_mm": None, "focal": {"uncertain_mm": uncertain}}


def test_a_lens_the_view_cannot_pin_down_is_warned_of():
    acc = judge(_measured(3.0, 24.0), T)
    assert acc["poor_lens"] and not acc["poor"] and acc["reported_mm"] > 10.0
    note = accuracy_notes(acc)[0]
    assert note.startswith("WARNING: the calibration may be poor") and "zoom" in note
    sound = judge(_measured(3.0, 6.0), T)
    assert not sound["poor"] and not sound["poor_lens"]
    assert "zoom" not in accuracy_notes(sound)[0]
