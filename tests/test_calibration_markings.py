"""Calibration held to the table's markings: the colours on their spots tell the ends apart,
the markings outvote a misread cushion, and the profile reports an accuracy measured on
markings the fit did not use (synthetic frames, exact truth; the real stills are measured by
bench/calibration_truth.py)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import auto
from calibration.auto import fit_to_markings, refine_to_cushions
from calibration.camera import CameraModel
from calibration.finder import cloth_mask, cushion_lines, estimate_radial, outer_quad
from calibration.markings import colour_score, marking_errors
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from tracker.perception.calibrate import calibrate_image
from tracker.perception.calibrate import find_colour_balls as detect_balls
from tracker.rules.snooker import SnookerRules
from tracker.synth.render import Renderer, RenderStyle


def render(cam: CameraModel) -> np.ndarray:
    layout = SnookerRules().setup_positions()
    layout["white"] = (1000.0, 600.0)
    return Renderer(cam, T, RenderStyle(seed=4)).render(layout)


def turned(cam: CameraModel) -> CameraModel:
    """The same picture read with the table turned end for end (x -> W - x, y -> L - y)."""
    flip = np.diag([-1.0, -1.0, 1.0])
    return CameraModel(cam.image_size, cam.K, cam.dist, cam.R @ flip,
                       cam.t + cam.R @ np.array([T.width, T.length, 0.0]))


@pytest.fixture(scope="module")
def overhead():
    cam = CameraModel.overhead(T.length, T.width)
    return cam, render(cam)


def ball_error(cal: Calibration, cam: CameraModel) -> np.ndarray:
    grid = np.array([[x, y, T.ball_radius] for x in np.linspace(60, T.width - 60, 6)
                     for y in np.linspace(60, T.length - 60, 12)])
    return np.linalg.norm(cal.ball_to_table(cam.project(grid)) - grid[:, :2], axis=1)


def test_the_colours_on_their_spots_tell_the_ends_apart():
    # a camera behind the baulk end: the markings alone used to be read by convention
    cam = CameraModel.look_at((T.width / 2, -3300.0, 3000.0), (T.width / 2, T.length * 0.38, 0),
                              (0, 0, 1), (1920, 1080), 38.0)
    img = render(cam)
    px, names = detect_balls(img, cam, T)
    right, wrong = colour_score(cam, T, px, names), colour_score(turned(cam), T, px, names)
    assert right >= 2.0 and wrong <= -2.0
    cal = calibrate_image(img, T)
    assert cal.orientation_certain and "colours" in cal.orientation
    assert np.median(ball_error(cal, cam)) < 3.0


def test_the_profile_reports_the_markings_held_out(overhead, tmp_path):
    cam, img = overhead
    cal = calibrate_image(img, T)
    acc = cal.accuracy
    assert acc["independent"] and not acc["poor"]
    assert len(acc["markings"]["spots"]) >= 4 and acc["markings"]["baulk_line_points"] > 0
    assert acc["holdout_median_mm"] < 5.0
    # the overhead view cannot show its focal length: the lens spread is reported, not hidden
    assert cal.focal == "assumed" and acc["focal_spread_mm"] is not None
    assert any("held out" in n for n in cal.notes)
    cal.save(tmp_path / "p.json")
    back = Calibration.load(tmp_path / "p.json")
    assert back.accuracy == cal.accuracy and back.orientation_certain


def test_a_misread_cushion_is_outvoted_by_the_markings(overhead):
    cam, img = overhead
    h, w = img.shape[:2]
    mask = cloth_mask(img)
    _, edges = cushion_lines(img, outer_quad(mask), mask=mask)
    kn = estimate_radial(edges, (w, h))
    # one long cushion read 25 px outward (the rail's edge taken for the nose), as in a real
    # overhead TV frame
    centre = np.mean(np.concatenate(edges), 0)
    side = int(np.argmax([np.ptp(e[:, 0]) for e in edges]))
    out = edges[side] - centre
    normal = np.array([0.0, np.sign(np.median(out[:, 1]))])
    bad = [e if i != side else e + 25.0 * normal for i, e in enumerate(edges)]
    cal0 = calibrate_image(img, T)
    start = refine_to_cushions(cal0.camera, bad, T, kn, fit_focal=False)
    balls = detect_balls(img, cal0.camera, T)
    fixed, marks, side_w, fitted = fit_to_markings(img, start, bad, T, kn, False, balls)
    assert fitted and side_w[side] == 0.0 and sum(side_w) == 3.0
    assert np.median(list(marking_errors(fixed, T, marks).values())) < 3.0
    assert np.median(ball_error(Calibration((w, h), T, fixed), cam)) < 2.0


def test_without_a_ball_finder_the_lines_still_hold_the_camera(overhead):
    # the calibration package finds no balls itself (it knows nothing of the tracker): given no
    # finder, the baulk line and the D are its markings, and the colours are not claimed
    cam, img = overhead
    cal = auto.calibrate_image(img, T)
    acc = cal.accuracy
    assert acc["markings"]["spots"] == [] and acc["markings"]["baulk_line_points"] > 0
    assert "colours" not in cal.orientation and cal.orientation_certain
    assert np.median(ball_error(cal, cam)) < 2.0
    with_balls = calibrate_image(img, T)
    assert len(with_balls.accuracy["markings"]["spots"]) >= 4


def test_the_ball_finder_refuses_a_camera_that_puts_the_table_nowhere():
    """A calibration candidate fitted to the wrong region can put the table's corners at
    absurd pixels (a pool clip's recalibration crashed the colour detector with them): the
    tracker's ball finder then finds no balls instead of failing."""
    import numpy as np

    from calibration.camera import CameraModel
    from calibration.table import TableGeometry
    from tracker.perception.calibrate import find_colour_balls

    t = TableGeometry.standard()
    img = np.full((720, 1280, 3), (40, 140, 40), np.uint8)
    # an eye at a ball's height on the baulk cushion's line, looking along the bed: the baulk
    # corners project billions of pixels away
    r = t.ball_radius
    cam = CameraModel.look_at((t.width / 2, -1e-6, r), (t.width / 2, t.length, r),
                              (0.0, 0.0, 1.0), (1280, 720), 60.0)
    import warnings

    with warnings.catch_warnings():  # no garbage polygons cast from non-finite pixels either
        warnings.simplefilter("error", RuntimeWarning)
        px, names = find_colour_balls(img, cam, t)
    assert px.shape == (0, 2) and names == []
    # the same finder through a sane camera runs its detector (no balls on a bare cloth)
    px, _ = find_colour_balls(img, CameraModel.overhead(t.length, t.width, (1280, 720)), t)
    assert px.shape[1] == 2


def test_a_spot_ball_is_read_at_the_ball_centre_over_its_spot():
    # the spot balls' found centres are their outlines' centres (calibration/ballcentre.py):
    # the calibration reads each as the projection of the ball's centre over its spot
    from calibration import markings
    cam = CameraModel.broadcast(T.length, T.width)
    xy = np.array([T.spots[c] for c in markings.SPOT_COLOURS])
    found = cam.project(np.column_stack([xy, np.full(len(xy), T.ball_radius)]))
    marks = markings.Markings(dict(zip(markings.SPOT_COLOURS, found, strict=True)))
    assert max(marking_errors(cam, T, marks).values()) < 0.1
    # a centre 3.5 mm low (a blob taking in the ball's shadow) lands off the spot toward the
    # camera: the baulk colours, seen from some 23 degrees, by about 3.5 mm / tan(23 deg)
    low = cam.project(np.column_stack([xy, np.full(len(xy), T.ball_radius - 3.5)]))
    errs = marking_errors(cam, T, markings.Markings(dict(zip(markings.SPOT_COLOURS, low, strict=True))))
    assert min(errs[f"spot:{c}"] for c in ("yellow", "green", "brown")) > 6.0


class _NearCamera:
    """A stand-in camera that sees the bed at ``px_per_mm`` pixels a millimetre (a candidate
    view that sees part of the bed edge-on, as a poor recalibration can)."""

    def __init__(self, px_per_mm: float):
        self.px_per_mm = px_per_mm

    def project(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(pts, float)[:, :2] * self.px_per_mm


def test_a_search_longer_than_the_picture_finds_no_line_and_does_not_fail():
    """A line search whose samples would span more than the picture is skipped (OpenCV's remap
    refuses more than 32767 samples: the real 9-ball clearance's recalibration failed so)."""
    from calibration.markings import LINE_SEARCH_MM, _ridge_points

    gray = np.full((720, 1280), 90, np.uint8)
    base = np.array([[5.0, 5.0], [6.0, 5.0]])
    dirs = np.tile([0.0, 1.0], (2, 1))
    off, strength = _ridge_points(gray, _NearCamera(100.0), base, dirs, LINE_SEARCH_MM)
    assert strength.tolist() == [0.0, 0.0] and off.tolist() == [0.0, 0.0]
    # a view that fits the picture still searches: a bright line 3 px wide is found
    gray[:, :] = 60
    cam = _NearCamera(1.0)
    gray[int(5 + 2) - 1:int(5 + 2) + 2, :] = 200
    off, strength = _ridge_points(gray, cam, base, dirs, LINE_SEARCH_MM)
    assert (strength > 0).all() and np.allclose(off, 2.0, atol=0.6)
