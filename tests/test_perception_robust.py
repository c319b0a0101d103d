"""Detector and tracker behaviour that real footage needs: colours learned per camera under
the game's constraint, fixtures and hands rejected, pots seen through a re-spot, one-shot clips."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from helpers import detections_at

from calibration.camera import CameraModel
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE as T
from tracker.perception.detect import CLASSES, BallDetector, constrained_classes
from tracker.perception.track import Tracker
from tracker.rules.snooker import SnookerRules

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def overhead_calibration() -> tuple[CameraModel, Calibration]:
    cam = CameraModel.overhead(T.length, T.width)
    return cam, Calibration(cam.image_size, T, cam, {"median": 0.0, "max": 0.0, "n": 0}, "test",
                            "markings", "estimated", [])


def render(layout: dict, seed: int = 3) -> np.ndarray:
    from tracker.synth.render import Renderer, RenderStyle

    cam, _ = overhead_calibration()
    return Renderer(cam, T, RenderStyle(seed=seed)).render(layout)


def test_constrained_classes_respect_the_games_counts():
    # four balls all nearest the brown prototype: only one can be the brown
    cost = np.full((4, 8), 1.0)
    cost[:, CLASSES.index("brown")] = [0.05, 0.10, 0.20, 0.30]
    cost[:, CLASSES.index("red")] = [0.12, 0.15, 0.20, 0.22]
    cls = constrained_classes(cost)
    assert (cls == CLASSES.index("brown")).sum() == 1
    assert cls[0] == CLASSES.index("brown")
    assert (cls[1:] == CLASSES.index("red")).all()
    # a ball far from everything is left unlabelled rather than forced into a class
    lone = np.full((1, 8), 5.0)
    assert constrained_classes(lone)[0] == -1


def test_a_red_stays_red_when_the_brown_is_off_the_table():
    cost = np.full((3, 8), 1.0)
    cost[:, CLASSES.index("red")] = 0.02
    cost[:, CLASSES.index("brown")] = 0.40  # every ball clearly a red
    cls = constrained_classes(cost)
    assert (cls == CLASSES.index("red")).all()


def test_colours_are_learned_under_a_colour_cast():
    """A warm, over-exposed camera (red gain up, blue down, brighter): after learning the
    prototypes from one frame, every ball gets its own colour."""
    layout = SnookerRules().setup_positions()
    layout["white"] = (1100.0, 500.0)
    img = render(layout).astype(np.float32)
    img *= np.array([0.75, 1.0, 1.35])  # BGR gains: warm
    img = np.clip(img * 1.15 + 10, 0, 255).astype(np.uint8)
    _, cal = overhead_calibration()
    det = BallDetector(cal)
    det.learn_cloth(img)
    det.learn_colours([img])
    d = det.detect_constrained(img)
    want = {b: np.array(p) for b, p in layout.items()}
    wrong = 0
    for name, p in want.items():
        j = int(np.argmin(np.linalg.norm(d.mm - p, axis=1)))
        assert np.linalg.norm(d.mm[j] - p) < 15.0, f"{name} not found"
        wrong += CLASSES[d.cls[j]] != ("red" if name.startswith("red") else name)
    assert wrong == 0


def test_a_detection_on_the_rail_is_dropped():
    _, cal = overhead_calibration()
    det = BallDetector(cal)
    mm = np.array([[T.width / 2, T.length / 2],            # mid-table
                   [-20.0, T.length / 4],                   # on the cushion top
                   [T.width / 2, T.length + 40.0],          # on the top rail
                   [5.0, 5.0]])                             # in a corner pocket's jaws
    assert det.can_hold(mm).tolist() == [True, False, False, True]


def test_a_colour_that_drops_and_is_respotted_at_once_is_a_pot():
    """The black runs into a pocket and the referee re-spots it within the tracker's wait:
    the pot is still reported, then the black stands on its spot."""
    fps = 25.0
    tr = Tracker(T, fps)
    spot = T.spots["black"]
    pocket = np.array(T.pockets["top_left"].mouth_centre)
    start = pocket + np.array([400.0, -400.0])
    tr.update(0, detections_at({"black": tuple(start), "white": (900.0, 900.0)}))
    for f in range(1, 4):  # at rest
        tr.update(f, detections_at({"black": tuple(start), "white": (900.0, 900.0)}))
    pots = []
    path = np.linspace(start, pocket, 12)
    for k, p in enumerate(path, start=4):  # rolling into the pocket
        pots += tr.update(k, detections_at({"black": tuple(p), "white": (900.0, 900.0)})).pots
    f = 4 + len(path)
    for k in range(f, f + 3):  # gone for 3 frames (0.12 s, under the 0.4 s wait)
        pots += tr.update(k, detections_at({"white": (900.0, 900.0)})).pots
    for k in range(f + 3, f + 12):  # re-spotted
        st = tr.update(k, detections_at({"black": spot, "white": (900.0, 900.0)}))
        pots += st.pots
    assert [p[:2] for p in pots] == [("black", "top_left")]
    assert np.linalg.norm(np.array(st.pos["black"]) - spot) < 1.0


def test_the_pot_watcher_finds_the_pots_of_the_broadcast_sample():
    from tracker.perception.potwatch import watch_pots

    with gzip.open(SAMPLES / "broadcast_pots.gt.json.gz", "rt") as fh:
        gt = json.load(fh)
    truth = [(e["ball"].split("_")[0], e["pocket"]) for s in gt["shots"] for e in s["events"]
             if e["type"] == "pot"]
    res = watch_pots(SAMPLES / "broadcast_pots.mp4", scale=0.5)
    assert [(b.split("_")[0], p) for b, p, _ in res.object_pots()] == truth


def test_the_pot_watcher_refuses_a_file_that_is_not_a_video(tmp_path):
    from tracker.perception.potwatch import ClipError, watch_pots

    bad = tmp_path / "x.mp4"
    bad.write_bytes(b"nothing")
    with pytest.raises(ClipError):
        watch_pots(bad)


def test_real_footage_evaluation_skips_when_the_footage_is_absent(tmp_path):
    from tracker.footage_eval import broadcast_clips, broadcast_stills, lab_stills

    missing = tmp_path / "no-footage"
    assert lab_stills(missing) is None
    assert broadcast_stills(missing) is None
    assert broadcast_clips(missing) is None


def test_cloth_map_follows_light_fall_off():
    """Light falling off toward one end must not turn the cloth into foreground."""
    layout = {"white": (900.0, 900.0)}
    img = render(layout).astype(np.float32)
    ramp = np.linspace(1.0, 0.6, img.shape[1])[None, :, None]  # 40 % darker at one end
    img = np.clip(img * ramp, 0, 255).astype(np.uint8)
    _, cal = overhead_calibration()
    det = BallDetector(cal)
    det.learn_cloth(img)
    d = det.detect(img)
    assert len(d) == 1 and np.linalg.norm(d.mm[0] - layout["white"]) < 5.0
    small = cv2.resize(img, det.small, interpolation=cv2.INTER_AREA)
    fg = det.foreground(small).mask
    assert fg[det.bed.astype(bool)].mean() < 0.01


def test_pots_command(capsys, tmp_path):
    from tracker.cli import main

    assert main(["pots", str(SAMPLES / "overhead_free_ball.mp4"), "--scale", "0.5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["potted"] and [p["pocket"] for p in out["pots"]] == ["middle_right"]
    assert main(["pots", str(tmp_path / "none.mp4")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_gap_within_the_measurement_error_is_marked_for_review():
    from tracker.perception.events import StrokeDetector

    sd = StrokeDetector(T, 25.0, position_error_mm=1.5)
    w = np.array([900.0, 900.0])
    d = T.ball_diameter
    before = {"white": tuple(w),
              "red_01": tuple(w + [d + 1.0, 0.0]),      # 1 mm gap: ambiguous
              "pink": tuple(w + [0.0, d + 30.0]),       # clearly apart
              "blue": tuple(w + [-(d + 0.4), 0.0])}     # touching to the threshold: ambiguous too
    notes = sd.touching_doubts(before)
    # people's words: a red is "a red" (its slot number is the tracker's, not the referee's)
    assert any("a red" in n for n in notes) and any("the blue" in n for n in notes)
    assert len(notes) == 2
    assert not any("pink" in n for n in notes)


def _occupied(share: float):
    return lambda mm: np.full(len(np.asarray(mm).reshape(-1, 2)), share)


def _strike_and_vanish(tr: Tracker, share: float) -> list:
    """The white rolls into the black (at rest toward the top-right pocket); the black is
    never seen again; ``share``: how covered the black's place looks afterwards."""
    black = np.array(T.pockets["top_right"].mouth_centre) + np.array([-500.0, -300.0])
    # the white comes along the line from the pocket through the black
    d = (black - np.array(T.pockets["top_right"].mouth_centre)) / 583.1
    pots = []
    for f in range(4):
        pots += tr.update(f, detections_at({"black": tuple(black), "white": tuple(black + d * 600)})).pots
    for f, s in enumerate(np.linspace(600, 80, 6), start=4):  # rolling in
        pots += tr.update(f, detections_at({"black": tuple(black), "white": tuple(black + d * s)})).pots
    for f in range(10, 60):  # contact: the black is gone at once, the white stops nearby
        det = detections_at({"white": tuple(black + d * 60)})
        det.occupancy = _occupied(share)
        pots += tr.update(f, det).pots
    return pots


def test_a_ball_struck_too_hard_to_be_seen_is_potted_along_its_line_of_centres():
    pots = _strike_and_vanish(Tracker(T, 25.0), share=0.0)
    assert [p[:2] for p in pots] == [("black", "top_right")]


def test_a_struck_ball_whose_place_is_covered_is_not_called_potted():
    """Its place shows no cloth (a player leaning in): it may still be there."""
    assert _strike_and_vanish(Tracker(T, 25.0), share=0.9) == []


def test_a_potted_colour_comes_back_only_where_the_rules_respot_it():
    """After the black's pot, a black-looking thing standing by a cushion (a shadow, a sleeve)
    is not the black; the black standing on its spot is."""
    tr = Tracker(T, 25.0)
    pots = _strike_and_vanish(tr, share=0.0)
    assert len(pots) == 1
    off = (40.0, 3100.0)
    for f in range(60, 75):
        st = tr.update(f, detections_at({"black": off, "white": (900.0, 900.0)}))
    assert "black" not in st.pos
    for f in range(75, 85):
        st = tr.update(f, detections_at({"black": T.spots["black"], "white": (900.0, 900.0)}))
    assert np.linalg.norm(np.array(st.pos["black"]) - T.spots["black"]) < 1.0
    assert st.pots == [] and len(pots) == 1


def test_the_whole_camera_fit_holds_when_one_cushion_edge_is_bad():
    """A score bar over the near cushion leaves its edge points scattered and pulled off:
    the four-corner homography bends to them, the whole-camera fit (seven parameters, three
    clean sides) does not."""
    from calibration.auto import refine_to_cushions
    from calibration.finder import Line, intersect, pose_from_homography

    true = CameraModel.broadcast(T.length, T.width, dist=(0, 0, 0, 0, 0))
    z = T.cushion_height
    rng = np.random.default_rng(5)
    faces = {"left": ((0, 0), (0, T.length)), "right": ((T.width, 0), (T.width, T.length)),
             "baulk": ((0, 0), (T.width, 0)), "top": ((0, T.length), (T.width, T.length))}
    edges = {}
    for name, (a, b) in faces.items():
        u = np.concatenate([np.linspace(0.08, 0.44, 40), np.linspace(0.56, 0.92, 40)])
        pts = np.array(a, float)[None] + (np.array(b, float) - a)[None] * u[:, None]
        px = true.project(np.hstack([pts, np.full((len(pts), 1), z)]))
        px += rng.normal(0, 0.3, px.shape)
        if name == "top":  # the near cushion, under the bar: one end pulled off, a third scattered
            px[:, 1] += 10.0 * (1 - u)
            bad = rng.random(len(px)) < 0.35
            px[bad, 1] += rng.uniform(-12, 12, bad.sum())
        edges[name] = px
    centre = true.project(np.array([[T.width / 2, T.length / 2, z]]))[0]
    lines = {n: Line.fit(e, centre) for n, e in edges.items()}
    corners = np.array([intersect(lines["left"], lines["baulk"]), intersect(lines["right"], lines["baulk"]),
                        intersect(lines["right"], lines["top"]), intersect(lines["left"], lines["top"])])
    model = np.array([[0, 0], [T.width, 0], [T.width, T.length], [0, T.length]], np.float32)
    H = cv2.getPerspectiveTransform(model, corners.astype(np.float32))
    K, R, t, _ = pose_from_homography(H, true.image_size, z)
    corner_cam = CameraModel(true.image_size, K, np.zeros(5), R, t)
    fitted = refine_to_cushions(corner_cam, list(edges.values()), T, (0.0, 0.0), fit_focal=True)

    xs, ys = np.meshgrid(np.linspace(100, T.width - 100, 7), np.linspace(100, T.length - 100, 13))
    pts = np.stack([xs.ravel(), ys.ravel()], 1)
    px = true.project(np.hstack([pts, np.full((len(pts), 1), T.ball_radius)]))

    def err(cam: CameraModel) -> float:
        return float(np.median(np.linalg.norm(cam.image_to_plane(px, T.ball_radius) - pts, axis=1)))

    # measured: about 7 mm against 30 mm for the corners' camera
    assert err(fitted) < 10.0
    assert err(fitted) < 0.5 * err(corner_cam)


def _roll_into_right_cushion(tr: Tracker, share: float, comes_back: bool = False) -> list:
    """A red rolls at 2 m/s into the right cushion (top half, far from the pockets) and
    vanishes there; ``share``: how covered its last place looks afterwards; ``comes_back``:
    it is seen again, bounced back off the cushion, after 8 frames. Returns the off events."""
    white = (900.0, 900.0)
    start = np.array([T.width - 500.0, 2400.0])
    v = np.array([2000.0, 300.0])
    off = []
    for f in range(4):
        off += tr.update(f, detections_at({"red_01": tuple(start), "white": white})).off
    f, p = 4, start.copy()
    while p[0] + v[0] / 25.0 < T.width - T.ball_radius:  # rolling in
        p = p + v / 25.0
        off += tr.update(f, detections_at({"red_01": tuple(p), "white": white})).off
        f += 1
    for k in range(50):  # gone at the cushion
        if comes_back and 8 <= k < 12:
            det = detections_at({"red_01": (p[0] - 30.0 * k, p[1] + 5.0 * k), "white": white})
        else:
            det = detections_at({"white": white})
        det.occupancy = _occupied(share)
        off += tr.update(f + k, det).off
    return off


def test_a_ball_that_vanishes_jumping_a_cushion_is_off_the_table():
    off = _roll_into_right_cushion(Tracker(T, 25.0), share=0.0)
    assert [(b, c) for b, _, c in off] == [("red_01", "right_top")]


def test_a_ball_hidden_at_a_cushion_or_seen_again_is_not_off_the_table():
    """Its place covered (a player leaning over the cushion), or back in view after the
    bounce: it never left the table."""
    assert _roll_into_right_cushion(Tracker(T, 25.0), share=0.9) == []
    assert _roll_into_right_cushion(Tracker(T, 25.0), share=0.0, comes_back=True) == []


def test_a_ball_struck_at_a_near_cushion_and_never_seen_is_off_the_table():
    """A red 150 mm from the left cushion, hit square by the white: gone the same frame, no
    pocket in its line of centres, the cushion within reach: off the table, over the left
    cushion."""
    tr = Tracker(T, 25.0)
    red = np.array([150.0 + T.ball_radius, 2500.0])
    off = []
    for f in range(4):
        off += tr.update(f, detections_at({"red_01": tuple(red), "white": (900.0, 2500.0)})).off
    for f, x in enumerate(np.linspace(800.0, red[0] + 60.0, 6), start=4):
        off += tr.update(f, detections_at({"red_01": tuple(red), "white": (x, 2500.0)})).off
    for f in range(10, 60):
        det = detections_at({"white": (red[0] + 60.0, 2500.0)})
        det.occupancy = _occupied(0.0)
        off += tr.update(f, det).off
    assert [(b, c) for b, _, c in off] == [("red_01", "left_top")]


def _fast_red_vanishes(start: tuple[float, float], direction: tuple[float, float],
                       steps: list[float]) -> list:
    """A red at rest at ``start`` (mm) struck along ``direction``: seen after each of
    ``steps`` (mm moved per frame, the first a fraction of a frame's motion: the strike fell
    between frames), then never again; the white stands elsewhere throughout. Returns the
    (ball, pocket) pots called."""
    tr = Tracker(T, 25.0)
    white = (400.0, 900.0)
    pots, f = [], 0
    p, u = np.array(start, float), np.array(direction, float)
    for _ in range(6):
        pots += tr.update(f, detections_at({"red": tuple(p), "white": white})).pots
        f += 1
    for step in steps:
        p = p + u * step
        pots += tr.update(f, detections_at({"red": tuple(p), "white": white})).pots
        f += 1
    for _ in range(30):
        pots += tr.update(f, detections_at({"white": white})).pots
        f += 1
    return [("red" if p[0].startswith("red") else p[0], p[1]) for p in pots]


def test_a_fast_red_last_seen_just_short_of_a_pocket_is_potted_there():
    """A red struck hard at 6 m/s, seen last 50 mm short of the right middle pocket's mouth
    (the next frame would put it 190 mm beyond, off the table): its path since it was last
    seen crosses the mouth, so it dropped there (two reds potted in one stroke: the second,
    struck hard by the first, was lost 'short of the pocket' and left as a ghost)."""
    mouth_x = T.pockets["middle_right"].mouth_centre[0]
    y = T.pockets["middle_right"].mouth_centre[1]
    got = _fast_red_vanishes((mouth_x - 50.0 - 360.0, y), (1.0, 0.0), [120.0, 240.0])
    assert got == [("red", "middle_right")]


def test_a_fast_red_lost_beside_a_pocket_is_not_potted():
    """The same red lost at the same speed 300 mm in from the side cushion, passing the middle
    pocket at that distance: it is hidden, not potted."""
    mouth_x = T.pockets["middle_right"].mouth_centre[0]
    y = T.pockets["middle_right"].mouth_centre[1]
    assert _fast_red_vanishes((mouth_x - 300.0, y - 480.0), (0.0, 1.0), [120.0, 240.0]) == []
