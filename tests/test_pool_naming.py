"""A pool ball potted while its track had crossed over with another ball's (the break's crowd)
is named, when the stroke ends, by the name its track holds once the balls left on the table
are named again at rest (:meth:`PoolTracker.named_pots`)."""

from __future__ import annotations

import numpy as np

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_identity import LABELS
from tracker.perception.pool_track import PoolTracker
from tracker.records.shot import Event, EventType, Shot
from tracker.rules.ballset import pool_balls

TABLE = TableGeometry.pool(9)
CUE = (600.0, 400.0)


def _frame(balls: list[tuple[str, tuple[float, float]]]) -> BallDetections:
    """Detections of ``balls`` [(label, mm)]: the cue ball as white, object balls as red, each
    with its identity sure (label ``none``: unreadable, all labels alike)."""
    n = len(balls)
    mm = np.array([p for _, p in balls], float).reshape(n, 2)
    cls = np.array([CLASSES.index("white" if lab == "cue" else "red") for lab, _ in balls])
    det = BallDetections(mm / 2.0, mm, np.full(n, 12.0), cls, np.ones(n),
                         np.zeros((n, len(CLASSES))), np.ones(n), np.zeros((n, 5), np.float32))
    ident = np.zeros((n, len(LABELS)))
    for i, (lab, _) in enumerate(balls):
        if lab == "none":
            ident[i] = 1.0 / len(LABELS)
        else:
            ident[i, LABELS.index(lab)] = 1.0
    det.identity = ident
    return det


def test_a_ball_potted_after_its_track_crossed_over_is_named_by_the_ball_left() -> None:
    """The 1 and the 3 stand side by side; struck, they leave rest unreadable and the tracker
    follows them crossed over (each takes the other's track), the 3 runs into the top-left
    pocket under the 1's name. At rest the ball left reads as the 1: the pot is the 3's."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)
    one, three = np.array([400.0, 700.0]), np.array([460.0, 700.0])
    frame, pots = 0, []
    for _ in range(10):
        tr.update(frame, _frame([("cue", CUE), ("1", tuple(one)), ("3", tuple(three))]))
        frame += 1
    # struck: the 3 passes where the 1 stood on its way to the pocket, the 1 rolls right
    path3 = [three + (pocket - three) * k / 8.0 for k in range(1, 8)]
    for k, p3 in enumerate(path3):
        p1 = one + np.array([40.0 * (k + 1), 30.0 * (k + 1)])
        st = tr.update(frame, _frame([("cue", CUE), ("none", tuple(p1)), ("none", tuple(p3))]))
        frame += 1
    for _ in range(60):  # the 3 gone into the pocket; the 1 at rest reads as the 1
        st = tr.update(frame, _frame([("cue", CUE), ("1", tuple(p1))]))
        pots += [(b, k) for b, k, _ in st.pots]
        frame += 1
    assert pots == [("1", "top_left")]  # reported, while moving, by the crossed track's name
    assert "1" in st.pos and st.pos["1"] == tuple(p1)  # named again at rest
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.CONTACT, 0.42, ("white", "1")),
                    Event(EventType.POT, 0.8, ("1",), pocket="top_left")))
    named = tr.named_pots(shot)
    assert [e.balls for e in named.events] == [("white",), ("white", "1"), ("3",)]
    assert tr.named_pots(shot) == shot  # said once: the next stroke's record is left alone
