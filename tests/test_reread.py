"""A better calibration of the same view taken mid-clip moves no ball (issue 33).

The view monitor may replace a poorly fitted automatic calibration by a better fit of the same
picture (``ViewStatus.same_picture``). The balls stand where they stood in the picture, but the
two calibrations read those pixels tens of millimetres apart: the run must read every place it
holds again through the new calibration (:mod:`tracker.perception.reread`), so that balls at
rest start no stroke, no contact and no "disturbed" ball. No video: the pictures are blank and
the detections are the balls' fixed pixels read through the calibration in force.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.camera import CameraModel
from calibration.monitor import ViewStatus, reread_ball
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.events import SETTLE_S, StrokeDetector
from tracker.perception.pool_identity import LABELS
from tracker.perception.pool_track import PoolTracker
from tracker.perception.reread import reread_strokes, reread_tracks
from tracker.pipeline import RefereeRun
from tracker.records.shot import FrameStart
from tracker.rules.ballset import pool_balls
from tracker.sources import Frame

FPS = 25.0
SIZE = (640, 360)
LAYOUT = {"white": (889.0, 1000.0), "red_01": (500.0, 2600.0), "red_02": (1300.0, 3000.0),
          "blue": (889.0, 1784.0), "black": (889.0, 3246.0), "pink": (889.0, 2677.0)}


def _calibrations(table: TableGeometry) -> tuple[Calibration, Calibration]:
    """Two automatic calibrations of one picture a few mm of camera apart (the second's eye
    80 mm to the side and 60 mm lower, looking 60 mm further down the table)."""
    def cam(dx: float, dz: float, dy: float) -> CameraModel:
        eye = (table.width / 2 + dx, table.length + 3300.0, 3000.0 + dz)
        target = (table.width / 2, table.length * 0.62 + dy, 0.0)
        return CameraModel.look_at(eye, target, (0.0, 0.0, 1.0), SIZE, 38.0, (-0.02, 0, 0, 0, 0))
    old = Calibration(SIZE, table, cam(0, 0, 0), fit_error_mm={"median": 9.0, "worst_side": 19.0})
    return old, replace(old, camera=cam(80.0, -60.0, 60.0), fit_error_mm={"median": 5.0})


def _seen(cal: Calibration, px: np.ndarray, names: list[str]) -> BallDetections:
    """Sure detections of ``names`` at picture points ``px`` (N, 2), read through ``cal``."""
    n = len(names)
    cls = np.array([CLASSES.index("red" if b.startswith("red") else b) for b in names])
    return BallDetections(px.copy(), cal.ball_to_table(px), np.full(n, 8.0), cls, np.ones(n),
                          np.eye(len(CLASSES))[cls], np.ones(n))


def test_two_calibrations_of_one_picture_read_balls_tens_of_mm_apart():
    """The premise: without reading again, the balls would jump (more than a re-measure)."""
    old, new = _calibrations(T)
    mm = np.array(list(LAYOUT.values()))
    jump = np.linalg.norm(new.ball_to_table(old.to_image(mm, T.ball_radius)) - mm, axis=1)
    assert jump.max() > 2 * T.ball_radius and jump.min() > 5.0, jump
    # read again, the same picture point: back through the new camera to the same pixels
    px = new.to_image(reread_ball(old, new, mm), T.ball_radius)
    assert np.abs(px - old.to_image(mm, T.ball_radius)).max() < 0.05


def test_a_better_calibration_mid_clip_starts_no_stroke(monkeypatch):
    """Balls at rest, the calibration replaced by a better fit of the same picture after 1 s,
    2 s more at rest: no ball moves, no stroke, no record, no disturbance."""
    old, new = _calibrations(T)
    run = RefereeRun(old, FPS, ("Ann", "Bob"))
    run._feed(FrameStart(1, ("Ann", "Bob"), "Ann", positions=LAYOUT))
    names = list(LAYOUT)
    px = old.to_image(np.array([LAYOUT[b] for b in names]), T.ball_radius)
    switch = int(FPS)

    def status(frame: int, img: np.ndarray) -> ViewStatus:
        if frame == switch:
            return ViewStatus(frame, "recalibrated", 1.0, new, same_picture=True)
        return ViewStatus(frame, "ok", 1.0)

    monkeypatch.setattr(run.monitor, "update", status)
    monkeypatch.setattr(run, "detect", lambda image, checks=None: _seen(run.calibration, px, names))
    img = np.full((SIZE[1], SIZE[0], 3), (40, 120, 30), np.uint8)
    moving = []
    for i in range(switch + int((SETTLE_S + 2.0) * FPS)):
        view = run.step(Frame(i, i / FPS, img))
        moving += [(i, b) for b in sorted(view.state.moving)] if view.state else []
    assert run.calibration is new
    assert moving == []
    assert run.strokes.stroke is None and run.result.shots == []
    held = run.tracker.slots["red_02"].pos
    assert np.linalg.norm(held - reread_ball(old, new, np.array([LAYOUT["red_02"]]))[0]) < 1.0


def _pool_seen(cal: Calibration, px: np.ndarray) -> BallDetections:
    """The cue ball and object balls 1.. at picture points ``px``, identities sure."""
    n = len(px)
    det = _seen(cal, px, ["white", *["red"] * (n - 1)])
    det.identity = np.eye(len(LABELS))[[LABELS.index("cue"), *range(1, n)]]
    return det


def test_the_pool_tracker_and_stroke_detector_read_again_keep_balls_at_rest():
    """The same on a pool table, tracker and stroke detector alone, after a stroke (the cue
    ball rolled 400 mm and stopped): read again through the new calibration, the next frames
    (the same pixels through it) show nothing moving and no ball moved since that stroke."""
    table = TableGeometry.pool(9)
    old, new = _calibrations(table)
    tracker, strokes = PoolTracker(table, FPS, balls=pool_balls()), StrokeDetector(table, FPS)
    mm = np.array([[600.0, 400.0], [600.0, 1900.0], [400.0, 2100.0], [900.0, 1500.0]])
    px = old.to_image(mm, table.ball_radius)
    rolled = old.to_image(mm[:1] + [[0.0, 400.0]], table.ball_radius)[0]
    path = [px[0] + (rolled - px[0]) * s for s in np.linspace(0, 1, 12)]
    shots = []
    for k in range(int(3.0 * FPS) + len(path) + int((SETTLE_S + 1.0) * FPS)):
        px[0] = path[min(max(k - int(3.0 * FPS), 0), len(path) - 1)]
        shots.append(strokes.update(tracker.update(k, _pool_seen(old, px))))
    assert len([s for s in shots if s is not None]) == 1 and strokes.stroke is None
    reread_tracks(tracker, lambda p: reread_ball(old, new, p))
    reread_strokes(strokes, lambda p: reread_ball(old, new, p))
    for k in range(len(shots), len(shots) + int((SETTLE_S + 1.0) * FPS)):
        st = tracker.update(k, _pool_seen(new, px))
        assert not st.moving, (k, st.moving)
        assert strokes.update(st) is None and strokes.stroke is None
    assert strokes.pending_review == []  # no ball "moved between strokes"
