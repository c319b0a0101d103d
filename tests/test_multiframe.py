"""The camera refined over many frames of one view (calibration/multiframe.py,
calibration.auto.refine_over_frames): pictures where a player hides a different part of the
table in each frame, built as the points a calibration reads (no rendering)."""

import math
from dataclasses import replace

import numpy as np
import pytest

from calibration import auto, multiframe
from calibration.camera import CameraModel
from calibration.markings import SPOT_COLOURS, Markings, fit_camera
from calibration.multiframe import FrameEvidence
from calibration.profile import Calibration
from calibration.table import TableGeometry

T = TableGeometry.standard()
SIZE = (1280, 720)
TRUE = CameraModel.look_at((T.width / 2, T.length + 6000.0, 3000.0), (T.width / 2, T.length * 0.5, 0.0),
                           (0.0, 0.0, 1.0), SIZE, 30.0, (0, 0, 0, 0, 0))
KN = (0.0, 0.0)


def _side_points(k: int, n: int = 60) -> np.ndarray:
    """(n, 3) points along cushion nose k (left, right, baulk, top), mm."""
    z, w, length = T.cushion_height, T.width, T.length
    s = np.linspace(0.05, 0.95, n)
    ends = [((0, 0), (0, length)), ((w, 0), (w, length)), ((0, 0), (w, 0)), ((0, length), (w, length))][k]
    a, b = np.array(ends[0], float), np.array(ends[1], float)
    xy = a + s[:, None] * (b - a)
    return np.column_stack([xy, np.full(n, z)])


def _frame(k: int, rng: np.random.Generator) -> FrameEvidence:
    """Frame k: a player over the table bends a stretch of cushion k by 4 px (his arm read
    as the cushion's edge) and hides all the spot balls but two."""
    edges = []
    for side in range(4):
        px = TRUE.project(_side_points(side)) + rng.normal(0, 0.4, (60, 2))
        if side == k:
            px[:40, 1 if k >= 2 else 0] += 4.0
        edges.append(px)
    seen = [SPOT_COLOURS[(k + j) % len(SPOT_COLOURS)] for j in (0, 3)]
    spots = {c: TRUE.project(np.array([[*T.spots[c], T.ball_radius]]))[0] + rng.normal(0, 0.3, 2)
             for c in seen}
    return FrameEvidence(edges, [1.0] * 4, KN, Markings(spots), True)


def _calibration(ev: FrameEvidence, start: CameraModel, held_mm: float = 5.0) -> Calibration:
    cam = fit_camera(start, ev.edges, T, KN, ev.marks, True, ev.side_w)
    acc = {"holdout_median_mm": held_mm, "holdout_max_mm": held_mm, "focal_spread_mm": None}
    return Calibration(SIZE, T, cam, {"median": 1.0}, "auto", "markings", "estimated",
                       ["focal", "accuracy"], acc, ev)



@pytest.fixture(autouse=True)
def _pooling_on(monkeypatch):
    """The pooling is off in the product (:class:`calibration.multiframe.PoolParams`); these
    tests check what it does when it is on."""
    monkeypatch.setattr(multiframe, "POOL", replace(multiframe.POOL, enabled=True))


def test_the_pooling_is_off_in_the_product_and_then_keeps_the_best_frame(monkeypatch):
    monkeypatch.setattr(multiframe, "POOL", multiframe.PoolParams())
    assert not multiframe.POOL.enabled
    rng = np.random.default_rng(3)
    start = CameraModel.look_at((T.width / 2 + 150, T.length + 6300.0, 2900.0),
                                (T.width / 2, T.length * 0.5, 0.0), (0.0, 0.0, 1.0), SIZE, 31.0,
                                (0, 0, 0, 0, 0))
    cals = [_calibration(_frame(k, rng), start) for k in range(3)]
    assert auto.refine_over_frames(cals[0], cals[1:], T) is cals[0]

def _grid_mm(cam: CameraModel) -> float:
    """Median distance (mm) of ball centres over the bed from their true place, through ``cam``."""
    grid = np.array([[x, y, T.ball_radius] for x in np.linspace(60, T.width - 60, 6)
                     for y in np.linspace(60, T.length - 60, 12)])
    back = cam.ball_centre_to_table(TRUE.project(grid), T.ball_radius)
    return float(np.median(np.linalg.norm(back - grid[:, :2], axis=1)))


def test_pooling_frames_where_a_player_hides_different_parts_beats_the_best_single_frame(tmp_path):
    rng = np.random.default_rng(3)
    start = CameraModel.look_at((T.width / 2 + 150, T.length + 6300.0, 2900.0),
                                (T.width / 2, T.length * 0.5, 0.0), (0.0, 0.0, 1.0), SIZE, 31.0,
                                (0, 0, 0, 0, 0))
    cals = [_calibration(_frame(k, rng), start) for k in range(4)]
    # another view (a cut to an overhead camera) is not pooled
    other = CameraModel.overhead(T.length, T.width, SIZE)
    cut = Calibration(SIZE, T, other, {"median": 1.0}, "auto", "markings", "estimated", ["f", "a"], {},
                      FrameEvidence([other.project(_side_points(s)) for s in range(4)], [1.0] * 4, KN,
                                    Markings(), True))
    best = cals[0]
    out = auto.refine_over_frames(best, cals[1:] + [cut], T)
    assert out is not best, "the held-out markings should favour the pooled camera"
    assert out.accuracy["pooled"]["frames"] == 4
    assert out.accuracy["holdout_median_mm"] < out.accuracy["pooled"]["single_holdout_median_mm"]
    single_mm, pooled_mm = _grid_mm(best.camera), _grid_mm(out.camera)
    assert pooled_mm < 0.6 * single_mm, (single_mm, pooled_mm)
    assert "refined over 4 frames" in out.notes[-2]
    assert math.isfinite(out.accuracy["reported_mm"])
    out.save(tmp_path / "calibration.json")  # the profile keeps the figures, not the evidence
    back = Calibration.load(tmp_path / "calibration.json")
    assert back.accuracy["pooled"]["frames"] == 4 and back.evidence is None


def test_one_frame_no_markings_or_a_sound_frame_keeps_the_best_single_frame():
    rng = np.random.default_rng(4)
    best = _calibration(_frame(0, rng), TRUE)
    assert auto.refine_over_frames(best, [], T) is best
    # markings already within their own reading's precision: nothing to gain, no refits
    others = [_calibration(_frame(k, rng), TRUE) for k in range(1, 4)]
    sound = _calibration(_frame(0, rng), TRUE, held_mm=1.2)
    assert auto.refine_over_frames(sound, others, T) is sound
    unsure = Calibration(SIZE, T, sound.camera, sound.fit_error_mm, "auto", "markings", "estimated",
                         list(sound.notes), {**sound.accuracy, "holdout_median_mm": 5.0}, sound.evidence)
    assert "pooled" in auto.refine_over_frames(unsure, others, T).accuracy
    bare = FrameEvidence(best.evidence.edges, [1.0] * 4, KN, Markings(), True)
    plain = Calibration(SIZE, T, best.camera, {"median": 1.0}, "auto", "markings", "estimated", ["f", "a"],
                        {}, bare)
    assert auto.refine_over_frames(plain, [plain, plain], T) is plain
