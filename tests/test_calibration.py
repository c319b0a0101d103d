"""Calibration: automatic finding on synthetic frames (exact truth), manual points, profiles,
errors a user can act on, and the real lab images when ../shared/footage is present."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.auto import calibrate_points, table_corners
from calibration.camera import CameraModel
from calibration.finder import TableNotFound
from calibration.monitor import ViewStatus
from calibration.profile import Calibration, CalibrationError
from calibration.table import STANDARD_TABLE as T
from calibration.table import TableGeometry
from tracker.cli import main
from tracker.perception.calibrate import calibrate_image
from tracker.rules.snooker import SnookerRules
from tracker.synth.render import Renderer, RenderStyle

FOOTAGE = Path(__file__).resolve().parents[2] / "shared" / "footage"


def render(cam: CameraModel) -> np.ndarray:
    layout = SnookerRules().setup_positions()
    layout["white"] = (1000.0, 600.0)
    return Renderer(cam, T, RenderStyle(seed=4)).render(layout)


@pytest.fixture(scope="module", params=["overhead", "broadcast"])
def view(request):
    cam = (CameraModel.overhead(T.length, T.width) if request.param == "overhead"
           else CameraModel.broadcast(T.length, T.width))
    return request.param, cam, render(cam)


def test_automatic_calibration_meets_the_accuracy_bars(view):
    kind, cam, img = view
    cal = calibrate_image(img, T)
    c3 = np.hstack([table_corners(T), np.full((4, 1), T.cushion_height)])
    corner = np.linalg.norm(cam.project(c3) - cal.camera.project(c3), axis=1)
    # the bar (median <= 0.5 px) is measured over 8 poses by
    # bench/calibration_accuracy.py; one frame of the stock TV pose measures about 0.6 px
    assert np.median(corner) <= (0.5 if kind == "overhead" else 1.0)
    grid = np.array([[x, y, T.ball_radius] for x in np.linspace(40, T.width - 40, 8)
                     for y in np.linspace(40, T.length - 40, 16)])
    err = np.linalg.norm(cal.ball_to_table(cam.project(grid)) - grid[:, :2], axis=1)
    assert err.max() <= (2.0 if kind == "overhead" else 6.0)
    assert cal.orientation in ("markings", "markings+colours") and cal.orientation_certain
    # without the parallax correction the error is much larger: the correction matters
    flat = np.linalg.norm(cal.to_table(cam.project(grid), 0.0) - grid[:, :2], axis=1)
    assert flat.max() > 3 * err.max()


def test_profile_round_trip(tmp_path, view):
    _, _, img = view
    cal = calibrate_image(img, T)
    cal.save(tmp_path / "p.json")
    back = Calibration.load(tmp_path / "p.json")
    px = np.array([[900.0, 500.0], [300.0, 700.0]])
    assert np.allclose(back.ball_to_table(px), cal.ball_to_table(px))
    d = json.loads((tmp_path / "p.json").read_text())
    assert {"image_size", "homography_image_to_table", "lens", "camera_pose", "table",
            "fit_error_mm"} <= set(d)
    H = np.array(d["homography_image_to_table"])
    und = cal.camera.K @ np.array([0.0, 0.0, 1.0])  # principal point: no distortion there
    p = H @ und
    assert np.allclose(p[:2] / p[2], cal.to_table(und[None, :2], 0.0)[0], atol=0.5)


def test_manual_points_from_landmarks():
    cam = CameraModel.broadcast(T.length, T.width)
    cam = CameraModel(cam.image_size, cam.K, np.zeros(5), cam.R, cam.t)
    names = ["corner:baulk_left", "corner:baulk_right", "corner:top_left", "corner:top_right",
             "spot:blue", "spot:black"]
    from calibration.auto import named_point
    pts = {n: cam.project(np.array([named_point(T, n)]))[0].tolist() for n in names}
    cal = calibrate_points(pts, T, cam.image_size)
    assert cal.fit_error_mm["max"] < 1.0
    grid = np.array([[500.0, 900.0, T.ball_radius], [1500.0, 3000.0, T.ball_radius]])
    err = np.linalg.norm(cal.ball_to_table(cam.project(grid)) - grid[:, :2], axis=1)
    assert err.max() < 3.0
    with pytest.raises(CalibrationError, match="at least 4"):
        calibrate_points(dict(list(pts.items())[:3]), T, cam.image_size)
    bad = dict(pts)
    bad["spot:black"] = [pts["spot:black"][0] + 80, pts["spot:black"][1]]
    with pytest.raises(CalibrationError, match="point 6"):
        calibrate_points(bad, T, cam.image_size)


def test_no_table_gives_a_reason():
    grey = np.full((720, 1280, 3), 90, np.uint8)
    with pytest.raises(TableNotFound, match="no cloth colour"):
        calibrate_image(grey, T)


def test_calibrate_command_writes_profile_and_pictures(tmp_path, capsys):
    cam = CameraModel.overhead(T.length, T.width)
    cv2.imwrite(str(tmp_path / "frame.png"), render(cam))
    rc = main(["calibrate", str(tmp_path / "frame.png"), "--out", str(tmp_path / "cal.json")])
    assert rc == 0
    assert (tmp_path / "cal.rectified.png").exists() and (tmp_path / "cal.json").exists()
    out = json.loads(capsys.readouterr().out)
    assert out["fit_error_mm"]["median"] < 2.0


def test_calibrate_command_errors_are_clear(tmp_path, capsys):
    assert main(["calibrate", str(tmp_path / "missing.png"), "--out", str(tmp_path / "x.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((200, 300, 3), 90, np.uint8))
    assert main(["calibrate", str(tmp_path / "grey.png"), "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "no table found" in err and "--points" in err
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(CalibrationError, match="not valid JSON"):
        Calibration.load(tmp_path / "bad.json")


@pytest.mark.skipif(not (FOOTAGE / "overhead-lab-snooker").exists(), reason="shared footage absent")
def test_real_lab_images_without_projection():
    lab = TableGeometry.of_size(1881, 943, 52.3)
    base = FOOTAGE / "overhead-lab-snooker" / "without_halo"
    cases = json.loads((base / "testcases.json").read_text())["cases"]
    errs = []
    for c in cases:
        p = base / c["image"].split("/")[-1]
        if not p.exists():
            continue
        cal = calibrate_image(cv2.imread(str(p)), lab)
        px = np.array([[b["pixelX"], b["pixelY"]] for b in c["balls"]])
        mm = np.array([[lab.width / 2 - b["y"], b["x"] + lab.length / 2] for b in c["balls"]])
        errs.extend(np.linalg.norm(cal.ball_to_table(px) - mm, axis=1))
    assert len(errs) > 100
    assert np.median(errs) < 4.0  # measured 2.1 mm (docs/ACCURACY.md)


@pytest.mark.skipif(not (FOOTAGE / "overhead-lab-snooker").exists(), reason="shared footage absent")
def test_real_lab_images_with_projected_rings():
    """The lab table lit by a projector (one half of the cloth another shade, rings round the
    balls, balls against the cushions): every still calibrates with the table size given and
    the labelled balls land within the issue's 5 mm (median) of their labelled places."""
    lab = TableGeometry.of_size(1881, 943, 52.3)
    base = FOOTAGE / "overhead-lab-snooker" / "with_halo_2"
    cases = json.loads((base / "testcases.json").read_text())["cases"]
    errs, tried = [], 0
    for c in cases:
        p = base / c["image"].split("/")[-1]
        if not p.exists():
            continue
        tried += 1
        cal = calibrate_image(cv2.imread(str(p)), lab)  # raises if the table is not found
        assert cal.orientation_certain, p.name
        px = np.array([[b["pixelX"], b["pixelY"]] for b in c["balls"]])
        mm = np.array([[lab.width / 2 - b["y"], b["x"] + lab.length / 2] for b in c["balls"]])
        errs.extend(np.linalg.norm(cal.ball_to_table(px) - mm, axis=1))
    assert tried == 14
    assert np.median(errs) < 5.0  # measured 1.1 mm (docs/ACCURACY.md)


def test_monitor_notices_a_moved_camera_and_a_cut():
    from calibration.monitor import ViewMonitor

    cam_a = CameraModel.overhead(T.length, T.width)
    eye = cam_a.centre + np.array([60.0, 120.0, 0.0])
    cam_b = CameraModel.look_at(tuple(eye), (T.width / 2 + 40, T.length / 2 + 90, 0), (-1, 0, 0),
                                cam_a.image_size, 66.0, tuple(cam_a.dist))
    img_a, img_b = render(cam_a), render(cam_b)
    rng = np.random.default_rng(0)
    cut = cv2.GaussianBlur(rng.integers(0, 255, (1080, 1920, 3), dtype=np.uint8), (0, 0), 9)
    mon = ViewMonitor(calibrate_image(img_a, T), check_every=1)
    states = [mon.update(i, img).state for i, img in enumerate([img_a, img_a, cut, cut, img_a])]
    assert states == ["ok", "ok", "lost", "lost", "ok"]
    moved = mon.update(5, img_b)
    assert moved.state == "recalibrated" and mon.update(6, img_b).state == "ok"
    # the verdict carries its calibration (a monitor running ahead may have moved on)
    assert moved.calibration is mon.cal and mon.update(7, img_b).calibration is None
    px = cam_b.project(np.array([[400.0, 2500.0, T.ball_radius]]))
    assert np.linalg.norm(mon.cal.ball_to_table(px)[0] - [400.0, 2500.0]) < 2.0


def test_a_camera_put_back_while_the_balls_were_re_racked_is_taken_back_at_once():
    """A camera knocked (view B) and put back (view A) while the table's layout changed: A's
    own calibration comes back on the first look, without the check that the balls lie where
    they were (a re-rack moved them all), so the frames are refereed again."""
    from calibration.monitor import ViewMonitor

    cam_a = CameraModel.overhead(T.length, T.width)
    eye = cam_a.centre + np.array([60.0, 120.0, 0.0])
    cam_b = CameraModel.look_at(tuple(eye), (T.width / 2 + 40, T.length / 2 + 90, 0), (-1, 0, 0),
                                cam_a.image_size, 66.0, tuple(cam_a.dist))
    img_a, img_b = render(cam_a), render(cam_b)
    first = calibrate_image(img_a, T)
    mon = ViewMonitor(first, check_every=1)
    assert [mon.update(i, img).state for i, img in enumerate([img_a, img_b, img_b])] == [
        "ok", "recalibrated", "ok"]
    mon._same_table = lambda *_: False  # the balls were re-racked while the camera was away
    back = mon.update(3, img_a)
    assert back.state == "recalibrated" and back.calibration is first and mon.cal is first
    assert mon.update(4, img_a).state == "ok"
    assert mon.update(5, img_b).state == "recalibrated"  # and B is known in its turn


def test_outline_check_on_strips_is_the_whole_pictures(view):
    """The view check scales down only strips round the outline (a fifth of the cost from
    overhead); its verdict must be the whole picture's, bit for bit, in place, moved and
    blurred."""
    from calibration import monitor

    _name, _cam, img = view
    sig = monitor.ViewSignature.build(calibrate_image(img, T), [img])

    def whole(frame):
        small = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
        p = np.clip(np.round(sig.points).astype(int), 0, [639, 359])
        ok = monitor._outline_found(small, sig.hsv, p)
        return ok.mean(), [ok[sig.side == s].mean() for s in range(4)]

    for frame in (img, np.roll(img, 4, axis=1), np.roll(img, -9, axis=0),
                  cv2.GaussianBlur(img, (0, 0), 3)):
        share, per_side = sig.match(frame)
        want_share, want_sides = whole(frame)
        assert share == want_share and list(per_side) == want_sides
    assert sig.match(img)[0] > 0.9 and sig.match(np.roll(img, -9, axis=0))[0] < sig.match(img)[0]


def _board_image(cam: CameraModel, rvec, tvec, inner=(9, 6), square=30.0) -> np.ndarray:
    """A checkerboard seen by ``cam`` (pose of the board: world = board frame)."""
    R, _ = cv2.Rodrigues(np.asarray(rvec, float))
    board_cam = CameraModel(cam.image_size, cam.K, cam.dist, R, np.asarray(tvec, float))
    w, h = cam.image_size
    ys, xs = np.mgrid[0:h, 0:w]
    xy = board_cam.image_to_plane(np.stack([xs.ravel(), ys.ravel()], 1).astype(float), 0.0)
    i = np.floor(xy[:, 0] / square + 1).astype(int)
    j = np.floor(xy[:, 1] / square + 1).astype(int)
    on = (i >= 0) & (i <= inner[0]) & (j >= 0) & (j <= inner[1])
    val = np.where(on, np.where((i + j) % 2 == 0, 30, 225), 150).astype(np.uint8)
    return cv2.cvtColor(val.reshape(h, w), cv2.COLOR_GRAY2BGR)


def test_checkerboard_recovers_the_lens():
    from calibration.checkerboard import CheckerboardError, calibrate_lens

    K = CameraModel.intrinsics((640, 480), 60.0)
    cam = CameraModel((640, 480), K, np.array([-0.12, 0.03, 0, 0, 0]))
    poses = [((0.1, -0.2, 0.05), (-130, -80, 600)), ((-0.3, 0.1, 0.0), (-140, -60, 550)),
             ((0.25, 0.3, -0.1), (-160, -90, 650)), ((0.0, 0.0, 0.3), (-120, -110, 500)),
             ((-0.2, -0.3, 0.1), (-100, -70, 620)), ((0.35, -0.1, 0.2), (-150, -40, 700))]
    imgs = [_board_image(cam, r, t) for r, t in poses]
    lens = calibrate_lens(imgs, (9, 6), 30.0)
    assert abs(lens.K[0, 0] - K[0, 0]) / K[0, 0] < 0.02
    assert abs(lens.dist[0] - (-0.12)) < 0.03 and lens.rms_px < 0.5
    with pytest.raises(CheckerboardError, match="found in 2 image"):
        calibrate_lens(imgs[:2], (9, 6), 30.0)


def test_a_view_calibrated_on_a_poor_picture_is_calibrated_again_on_a_better_one():
    """A start calibration that fit the cushions poorly (a player hid part of one in the
    start's pictures; here a camera 30 mm off, reported with the 9-ball clearance's start fit)
    is replaced by a calibration of a later picture of the same view that fits clearly better;
    a calibration that fits well is left alone."""
    from dataclasses import replace

    from calibration.monitor import ViewMonitor

    cam_a = CameraModel.overhead(T.length, T.width)
    img_a = render(cam_a)
    good = calibrate_image(img_a, T)
    eye = cam_a.centre + np.array([0.0, 30.0, 0.0])
    cam_p = CameraModel.look_at(tuple(eye), (T.width / 2, T.length / 2 + 30.0, 0), (-1, 0, 0),
                                cam_a.image_size, 66.0, tuple(cam_a.dist))
    poor = replace(calibrate_image(render(cam_p), T),
                   fit_error_mm={"median": 9.6, "max": 74.5, "n": 368, "worst_side": 19.6})
    ball = cam_a.project(np.array([[400.0, 2500.0, T.ball_radius]]))
    assert np.linalg.norm(poor.ball_to_table(ball)[0] - [400.0, 2500.0]) > 10.0
    mon = ViewMonitor(poor, check_every=1, fps=1.0)
    better = mon.update(0, img_a)
    assert better.state == "recalibrated" and better.calibration is mon.cal
    assert np.linalg.norm(mon.cal.ball_to_table(ball)[0] - [400.0, 2500.0]) < 2.0
    assert mon.update(5, img_a).state == "ok"  # now fitted well: not tried again
    kept = ViewMonitor(good, check_every=1, fps=1.0)
    assert [kept.update(i, img_a).state for i in range(0, 8, 4)] == ["ok", "ok"]
    assert kept.cal is good
    # the poor one read the table end for end (a pool table has no baulk line to tell): the
    # better one keeps its ends, so positions in table mm go on
    flip = np.diag([-1.0, -1.0, 1.0])
    c = poor.camera
    turned = replace(poor, camera=CameraModel(c.image_size, c.K, c.dist, c.R @ flip,
                                              c.t + c.R @ np.array([T.width, T.length, 0.0])))
    mon = ViewMonitor(turned, check_every=1, fps=1.0)
    assert mon.update(0, img_a).state == "recalibrated"
    assert np.linalg.norm(mon.cal.ball_to_table(ball)[0] - [T.width - 400.0, T.length - 2500.0]) < 2.0


def test_a_player_over_a_cushion_is_no_change_of_view():
    """A person between the camera and the table hides most of one side and part of another:
    what is not hidden is exactly in place, so the frame is still the calibrated view (it was
    called away from the table, and a stroke played meanwhile lost); the same picture moved by
    12 px (a camera knocked) is not."""
    from calibration.monitor import MIN_SIDE_MATCH, ViewMonitor

    cam_a = CameraModel.overhead(T.length, T.width)
    img = render(cam_a)
    h, w = img.shape[:2]
    player = img.copy()
    cv2.rectangle(player, (0, int(h * 0.6)), (int(w * 0.9), h), (40, 60, 90), -1)
    mon = ViewMonitor(calibrate_image(img, T), check_every=1, reference=[img])
    mon._try_recalibrate = lambda frame, img, share: ViewStatus(frame, "lost", share)
    assert mon.signature.match(player)[1].min() < MIN_SIDE_MATCH  # a side nearly all hidden
    assert [mon.update(i, f).state for i, f in enumerate([img, player, player])] == ["ok"] * 3
    assert mon.update(3, np.roll(player, 12, axis=1)).state == "lost"
