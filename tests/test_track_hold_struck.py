"""A cue ball struck into a pack it touches is a stroke, not a re-measured picture (issue 31:
overhead seed 1 of bench/tv_lens_clips.py, stroke 2). The cue ball moves 17 mm and stops (less
than a radius, nothing moving near it yet: held as a possible re-measure); the reds it hit move
the picture after. Balls set moving beside a held ball say it moved: the stroke is found."""

from __future__ import annotations

import numpy as np
from helpers import cue_ball_layout, track_frames

from calibration.table import STANDARD_TABLE as T

FPS = 25.0


def _into_the_pack(reds_move: bool) -> tuple[list, list]:
    """The cue ball 1.5 mm from the pack's apex red, pushed 17 mm into it at picture 20 (and
    stopping there); with ``reds_move`` the apex red goes on up the table from picture 21. The
    tracker's states and the stroke detector's shots."""
    layout = cue_ball_layout()
    apex = min((b for b in layout if b.startswith("red")), key=lambda b: layout[b][1])
    x, y_apex = layout[apex]
    white0 = np.array([x, y_apex - 2 * T.ball_radius - 1.5])
    frames = []
    for k in range(80):
        pos = dict(layout, white=tuple(white0 + ([0.0, 17.0] if k >= 20 else [0.0, 0.0])))
        if reds_move and k >= 21:
            pos[apex] = (x, y_apex + min(60.0 * (k - 20), 500.0))
        frames.append(pos)
    return track_frames(layout | {"white": tuple(white0)}, frames, FPS)


def test_a_cue_ball_struck_into_a_pack_it_touches_is_a_stroke():
    states, shots = _into_the_pack(reds_move=True)
    assert any("white" in st.moving for st in states[20:25])
    assert len(shots) == 1
    contacts = [e.balls for e in shots[0].events if e.type.name == "CONTACT"]
    assert contacts and contacts[0][0] == "white"


def test_the_same_jump_with_nothing_moving_after_is_still_a_re_measure():
    states, shots = _into_the_pack(reds_move=False)
    assert not any("white" in st.moving for st in states)
    assert shots == []
