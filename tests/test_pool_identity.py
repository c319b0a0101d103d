"""Pool identity: the colour identity names drawn pool balls (solids, stripes, the cue ball,
the 8) on blue and green cloth, and the pool tracker keeps a ball's name through a stroke."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_identity import (
    LABELS,
    PoolIdentity,
    colour_identity,
    is_pool,
    seen_balls,
)
from tracker.perception.pool_track import PoolTracker
from tracker.rules.ballset import pool_balls, snooker_balls

#: Ball colours BGR (what a camera shows of the WPA colours; not the identity's hue table).
BGR = {1: (20, 200, 240), 2: (160, 60, 10), 3: (40, 30, 200), 4: (110, 40, 90),
       5: (20, 120, 240), 6: (60, 130, 20), 7: (30, 30, 100), 8: (20, 20, 20)}
CLOTHS = {"blue": (150, 90, 30), "green": (40, 120, 30)}
R = 12


def draw_ball(img: np.ndarray, centre: tuple[int, int], label: str) -> None:
    """A pool ball ``label`` (``cue``, ``1``..``15``) seen from above, a highlight on it."""
    x, y = centre
    if label == "cue":
        cv2.circle(img, centre, R, (235, 235, 230), -1)
        return
    n = int(label)
    if n <= 8:
        cv2.circle(img, centre, R, BGR[n], -1)
    else:  # white with the colour's band across the middle
        cv2.circle(img, centre, R, (235, 235, 230), -1)
        band = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(band, centre, R, 1, -1)
        band[: y - R // 2] = 0
        band[y + R // 2 + 1:] = 0
        img[band.astype(bool)] = BGR[n - 8]
    cv2.circle(img, (x - R // 3, y - R // 3), 2, (255, 255, 255), -1)


def table_with(labels: list[str], cloth: str) -> tuple[np.ndarray, np.ndarray]:
    """A cloth picture with the balls ``labels`` in a row: (image, centres (N, 2))."""
    img = np.zeros((80, 40 * len(labels) + 40, 3), np.uint8)
    img[:] = CLOTHS[cloth]
    px = np.array([(40 + 40 * i, 40) for i in range(len(labels))], float)
    for c, lbl in zip(px.astype(int), labels, strict=True):
        draw_ball(img, (int(c[0]), int(c[1])), lbl)
    return img, px


@pytest.mark.parametrize("cloth", ["blue", "green"])
def test_colour_identity_names_every_pool_ball(cloth: str) -> None:
    labels = list(LABELS[:-1])
    img, px = table_with(labels, cloth)
    got = colour_identity(img, px, np.full(len(px), float(R)))
    assert [LABELS[k] for k in got.argmax(1)] == labels
    np.testing.assert_allclose(got.sum(1), 1.0)


def test_bare_cloth_is_no_ball() -> None:
    img, _ = table_with(["cue"], "blue")
    got = colour_identity(img, np.array([[150.0, 40.0]]), np.array([float(R)]))
    assert LABELS[got.argmax()] == "none"


def test_pool_ball_sets_are_followed_as_cue_and_objects() -> None:
    assert is_pool(pool_balls()) and not is_pool(snooker_balls())
    seen = seen_balls(pool_balls(9))
    assert seen.ids == ("white", *(f"o{i}" for i in range(1, 10)))
    assert {seen.looks[b] for b in seen.reds} == {"red"}


def _detections(img: np.ndarray, px: np.ndarray, mm: np.ndarray) -> BallDetections:
    n = len(px)
    det = BallDetections(px, mm, np.full(n, float(R)), np.zeros(n, int), np.ones(n),
                         np.zeros((n, len(CLASSES))), np.ones(n), np.zeros((n, 5), np.float32))
    return PoolIdentity().relabel(img, det)


def test_pool_tracker_names_balls_and_keeps_the_name_while_moving() -> None:
    """Three balls at rest are named from their colours; the 5 then moves (the tracker sees
    only an object ball) and keeps its name."""
    table = TableGeometry.pool(9)
    labels = ["cue", "9", "5"]
    img, px = table_with(labels, "blue")
    mm = np.array([[600.0, 600.0], [900.0, 600.0], [1200.0, 600.0]])
    det = _detections(img, px, mm)
    assert list(det.cls) == [CLASSES.index("white"), CLASSES.index("red"), CLASSES.index("red")]
    tr = PoolTracker(table, 25.0, balls=pool_balls())
    for f in range(5):
        st = tr.update(f, det)
    assert st.pos["9"] == pytest.approx((900.0, 600.0))
    assert st.pos["5"] == pytest.approx((1200.0, 600.0))
    for f in range(5, 10):  # the 5 rolls away; its colour unread (identity none of use)
        moved = _detections(img, px, mm + np.array([[0, 0], [0, 0], [60.0 * (f - 4), 0]]))
        moved.identity = np.full_like(moved.identity, 1.0 / len(LABELS))
        st = tr.update(f, moved)
    assert "5" in st.moving
    assert st.pos["5"][0] == pytest.approx(1200.0 + 60.0 * 5, abs=40.0)
    assert st.pos["9"] == pytest.approx((900.0, 600.0))


def _nine_ball_clip(path) -> object:
    """A tiny overhead nine-ball clip (640x360, 25 fps, 2.8 s): the cue ball rolls into the 1,
    which runs into the top-left corner pocket; the 2 and the 3 stay. Returns the camera's
    profile (the exact camera)."""
    from calibration.camera import CameraModel
    from calibration.profile import Calibration
    from tracker.synth.render import Renderer, RenderStyle

    t = TableGeometry.pool(9)
    cam = CameraModel.overhead(t.length, t.width, image_size=(640, 360))
    rgb = {"1": (0.95, 0.78, 0.05), "2": (0.05, 0.2, 0.7), "3": (0.85, 0.06, 0.05)}
    ren = Renderer(cam, t, RenderStyle(ball_rgb=tuple(rgb.items()), noise_sigma=1.0))
    pocket = np.array(t.pockets["top_left"].mouth_centre)
    one0 = pocket + (np.array([t.width / 2, t.length - 300.0]) - pocket) * 0.55
    cue0 = one0 + (one0 - pocket) / np.linalg.norm(one0 - pocket) * 500.0
    layout = {"white": cue0, "1": one0, "2": np.array([900.0, 600.0]),
              "3": np.array([400.0, 1200.0])}
    frames = []
    for f in range(70):
        pos = dict(layout)
        if 20 <= f < 30:  # the cue ball runs into the 1
            pos["white"] = cue0 + (one0 - cue0) * ((f - 19) / 10.0) * 0.95
        elif f >= 30:
            pos["white"] = cue0 + (one0 - cue0) * 0.95
            k = (f - 29) / 8.0
            if k < 1.0:
                pos["1"] = one0 + (pocket - one0) * k
            else:
                del pos["1"]
        img = ren.render({b: (float(p[0]), float(p[1])) for b, p in pos.items()},
                         noise_index=f)
        frames.append(img)
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 25.0, (640, 360))
    for img in frames:
        out.write(img)
    out.release()
    return Calibration((640, 360), t, cam, {"median": 0.0, "max": 0.0}, method="manual",
                       orientation="markings", focal="estimated", notes=["exact"])


def test_process_nine_ball_pots_the_one_by_its_number(tmp_path) -> None:
    """``process`` with the nine-ball rules on a drawn clip: one stroke, the 1 potted by
    name (not "a ball"), no foul."""
    from tracker.pipeline import process_video
    from tracker.session_setup import MatchSetup

    cal = _nine_ball_clip(tmp_path / "nine.mp4")
    res = process_video(tmp_path / "nine.mp4", tmp_path / "out", calibration=cal,
                        progress=False, setup=MatchSetup(("A", "B"), 1, "nine-ball"))
    pots = [e.balls[0] for s in res.shots for e in s.events if e.type == "pot"]
    assert pots == ["1"]
    assert len(res.shots) == 1
    assert not any(d.get("foul") for d in res.decisions if "shot" in d)
    board = json.loads((tmp_path / "out" / "scoreboard.json").read_text())
    assert "pool" in board["pool_balls_named_by"]


def test_a_second_cue_ball_claim_is_settled_by_where_the_cue_ball_was() -> None:
    """An over-exposed yellow reads white: of two detections claiming the cue ball, the one
    where the cue ball was followed stays the cue ball, the other is an object ball."""
    table = TableGeometry.pool(9)
    img, px = table_with(["cue", "9", "cue"], "blue")
    mm = np.array([[600.0, 600.0], [900.0, 600.0], [1200.0, 600.0]])
    tr = PoolTracker(table, 25.0, balls=pool_balls())
    tr.update(0, _detections(img, px[:2], mm[:2]))
    both = _detections(img, px, mm)
    assert list(both.cls).count(CLASSES.index("white")) == 2
    settled = tr.settle_cue(both)
    white = CLASSES.index("white")
    assert list(settled.cls == white) == [True, False, False]
    assert settled.identity is not None and len(settled.identity) == 3


def test_without_a_readable_pool_classifier_the_colours_name_the_balls(tmp_path) -> None:
    from tracker.perception.pool_identity import load_pool_classifier

    assert load_pool_classifier(tmp_path / "absent.onnx") is None
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    assert load_pool_classifier(tmp_path / "bad.onnx") is None
    assert "colours" in PoolIdentity(None).source
