"""The change-gated detector finds what the full detector finds, searching only where the
table changed (tracker/perception/change.py)."""

from pathlib import Path

import cv2
import numpy as np

from calibration.table import TableGeometry
from tracker.perception.calibrate import calibrate_image
from tracker.perception.change import ChangeGatedDetector, _merge
from tracker.perception.learned import make_detector

SAMPLES = Path(__file__).resolve().parents[1] / "sample_videos"


def _frames(name: str, start: int, n: int) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(SAMPLES / f"{name}.mp4"))
    cap.set(cv2.CAP_PROP_POS_FRAMES, start)
    out = []
    for _ in range(n):
        ok, f = cap.read()
        assert ok
        out.append(f)
    return out


def _learnt(clip: str, kind: str):
    """A ``kind`` detector calibrated on ``clip``'s first picture, cloth and colours learnt
    there, and that picture."""
    first = _frames(clip, 0, 1)[0]
    det = make_detector(calibrate_image(first, TableGeometry.standard()), kind)
    det.learn_cloth(first)
    det.learn_colours([first])
    return det, first


def test_gated_detections_match_full_detections_through_a_strike():
    # overhead_free_ball: the cue ball is struck at 2.32 s (frame 58) and balls roll after it
    det, _ = _learnt("overhead_free_ball", "colour")
    gate = ChangeGatedDetector(det, 25.0)
    worst, kinds = 0.0, []
    for f in _frames("overhead_free_ball", 40, 45):
        before = dict(gate.stats.__dict__)
        a, b = gate.detect(f), det.detect(f)
        kinds.append(next(k for k in ("full", "partial", "still") if getattr(gate.stats, k) != before[k]))
        assert len(a) == len(b)
        d = np.linalg.norm(a.mm[:, None] - b.mm[None], axis=2)
        worst = max(worst, d.min(1).max(), d.min(0).max())
        # the same colours at the same places
        j = d.argmin(1)
        assert (a.cls == b.cls[j]).all()
    assert worst < 3.0, worst  # mm: a pixel or two of the full search's own noise
    # most frames are cheap: nothing changed, or a search of a few boxes
    assert kinds.count("full") <= 3, kinds
    assert kinds.count("still") >= 5 and kinds.count("partial") >= 10, kinds


def test_boxes_merge_until_none_overlaps():
    rects = _merge([[0, 0, 10, 10], [5, 5, 20, 20], [30, 30, 40, 40], [19, 0, 31, 2]])
    assert sorted(rects) == [[0, 0, 31, 20], [30, 30, 40, 40]]


def test_no_centre_gives_empty_detections_of_the_right_shapes():
    # a partial search whose boxes hold no ball gave 1-D colour features, and the gated
    # detector could not join them to the kept detections (eval on the broadcast sample died)
    first = _frames("overhead_free_ball", 0, 1)[0]
    cal = calibrate_image(first, TableGeometry.standard())
    for kind in ("colour", "learned"):
        det = make_detector(cal, kind)
        assert det.colour_features(first, np.zeros((0, 2))).shape == (0, 5)


def test_gated_learned_detections_match_full_detections_through_a_strike():
    # the TV sample clip under auto (the learned detector): the first stroke at 2.32 s (frame
    # 58); a changed frame is searched whole, so every frame's detections are the full
    # search's, and still frames before the strike stay cheap
    det, _ = _learnt("broadcast_pots", "learned")
    gate = ChangeGatedDetector(det, 25.0)
    for f in _frames("broadcast_pots", 50, 16):
        a, b = gate.detect(f), det.detect(f)
        assert len(a) == len(b)
        if len(a):
            d = np.linalg.norm(a.mm[:, None] - b.mm[None], axis=2)
            assert d.min(1).max() < 3.0
            assert (a.cls == b.cls[d.argmin(1)]).all()
    assert gate.stats.partial == 0
    assert gate.stats.still >= 3 and gate.stats.full >= 3, gate.stats


def test_the_thumbnail_made_inside_the_table_alone_is_the_whole_ones_there():
    from tracker.perception.change import gate_thumbnail, gate_view, thumb_window

    first = _frames("overhead_free_ball", 0, 1)[0]
    cal = calibrate_image(first, TableGeometry.standard())
    det = make_detector(cal, "colour")
    size, region, window = gate_view(det)
    assert window is not None  # 1080p: four frame pixels a thumbnail pixel
    x0, y0, x1, y1 = window
    assert (x1 - x0) * (y1 - y0) < size[0] * size[1]  # less than the whole
    whole, part = gate_thumbnail(first, size), gate_thumbnail(first, size, window)
    inside = region > 0
    assert np.array_equal(whole[inside], part[inside])
    assert np.array_equal(whole[y0:y1, x0:x1], part[y0:y1, x0:x1])
    # a frame that is not a whole number of thumbnails across: made whole
    assert thumb_window(region, (size[0] * 4 + 2, size[1] * 4)) is None


def test_a_full_search_of_the_tables_box_finds_what_the_whole_frame_holds():
    # the TV sample: the table's box (and a margin) is about 63 % of the frame; searching it
    # alone must give the same balls, within float rounding, as searching the whole frame
    frames = _frames("broadcast_pots", 50, 16)[::5]
    cal = calibrate_image(frames[0], TableGeometry.standard())
    for kind in ("colour", "learned"):
        det = make_detector(cal, kind)
        det.learn_cloth(frames[0])
        det.learn_colours([frames[0]])
        gate = ChangeGatedDetector(det, 25.0)
        x0, y0, x1, y1 = gate.table_rect
        assert (x1 - x0) * (y1 - y0) < 0.8 * det.small[0] * det.small[1]
        gate.detect(frames[0])  # the first search is the whole frame's
        for f in frames:
            a = gate._full(f, gate.ref)
            b = det.judge(f, det.candidates(f))
            assert len(a) == len(b) >= 5 and (a.cls == b.cls).all()
            assert np.abs(a.px - b.px).max() < 1e-3


def test_a_new_rack_is_searched_whole_until_its_first_stroke():
    """settle(): nothing of the last frame's table stands; the whole frame is searched at the
    settling rate (GateParams.settle_every_s) on a still table, and settled() goes back to the
    usual rate (GateParams.full_every_s)."""
    det, first = _learnt("overhead_free_ball", "colour")
    gate = ChangeGatedDetector(det, 25.0)
    for _ in range(3):
        gate.detect(first)
    assert gate.stats.full == 1 and gate.stats.still == 2
    gate.settle()
    gate.detect(first)
    assert gate.stats.full == 2  # the new rack's first picture: searched whole
    for _ in range(2 * gate.settle_every):
        gate.detect(first)
    assert gate.stats.full == 4  # and again every settle_every frames, the table still
    gate.settled()
    for _ in range(2 * gate.settle_every):
        gate.detect(first)
    assert gate.stats.full == 4  # the first stroke: back to full_every (100 frames)
