"""The cue ball at a mid-frame start (tracker/pipeline/settling.py): a first picture whose cue
ball reads half white, half yellow under a warm light (real broadcast clip 2) still starts
with the white on the table, where it is, and no sure ball is renamed."""

from __future__ import annotations

import numpy as np

from tracker.perception.detections import CLASSES, BallDetections
from tracker.pipeline.settling import unsure_cue_ball

WHITE, YELLOW, PINK, BLACK = (CLASSES.index(c) for c in ("white", "yellow", "pink", "black"))


def _first_picture(cue_probs: dict[int, float], cue_conf: float) -> BallDetections:
    """The black, the cue ball and the pink as clip 2's first picture gave them."""
    probs = np.full((3, 8), 0.01)
    probs[0, BLACK], probs[2, PINK] = 0.76, 0.97
    for k, p in cue_probs.items():
        probs[1, k] = p
    mm = np.array([[1537.0, 1542.0], [1702.0, 2241.0], [212.0, 2875.0]])
    cls = probs.argmax(1)
    conf = np.array([0.76, cue_conf, 0.97])
    return BallDetections(mm.copy(), mm, np.full(3, 8.5), cls, conf, probs, np.full(3, 2.0))


def test_an_unsure_ball_most_likely_white_is_the_cue_ball_at_the_start():
    det = _first_picture({WHITE: 0.40, YELLOW: 0.48}, 0.48)
    out = unsure_cue_ball(det)
    assert out is not None
    assert list(out.cls) == [BLACK, WHITE, PINK] and out.conf[1] >= 0.5
    assert det.cls[1] == YELLOW  # the detections given are left as they were


def test_no_cue_ball_is_made_up_where_one_is_sure_or_none_looks_white():
    assert unsure_cue_ball(_first_picture({WHITE: 0.60, YELLOW: 0.30}, 0.60)) is None
    assert unsure_cue_ball(_first_picture({WHITE: 0.10, YELLOW: 0.48}, 0.48)) is None
    # a sure yellow stays the yellow even when white is its second reading
    assert unsure_cue_ball(_first_picture({WHITE: 0.35, YELLOW: 0.60}, 0.60)) is None
