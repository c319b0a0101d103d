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


def _rest(tr: PoolTracker, frame: int, n: int, balls: list) -> tuple[int, object]:
    st = None
    for _ in range(n):
        st = tr.update(frame, _frame(balls))
        frame += 1
    return frame, st


def test_names_read_again_after_two_tracks_may_have_crossed_over() -> None:
    """The 15 and the 11 stand side by side (read surely) for 4 s; struck, they pass each
    other unreadable and the tracker follows them crossed over; 2 s at rest where they stop
    (read surely again) name each by what it shows there, not by the 4 s its track saw of the
    other ball."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    a, b = np.array([400.0, 700.0]), np.array([460.0, 700.0])
    frame, _ = _rest(tr, 0, 100, [("cue", CUE), ("15", tuple(a)), ("11", tuple(b))])
    for k in range(1, 8):  # the 11 runs left through where the 15 stood, the 15 right-down
        pa, pb = a + np.array([40.0 * k, 30.0 * k]), b + np.array([-60.0 * k, -30.0 * k])
        frame, st = _rest(tr, frame, 1, [("cue", CUE), ("none", tuple(pa)), ("none", tuple(pb))])
    frame, st = _rest(tr, frame, 50, [("cue", CUE), ("15", tuple(pa)), ("11", tuple(pb))])
    assert st.pos["15"] == tuple(pa) and st.pos["11"] == tuple(pb)


def _biased(lab: str, sure: float, other: str) -> np.ndarray:
    row = np.zeros(len(LABELS))
    row[LABELS.index(lab)], row[LABELS.index(other)] = sure, 1.0 - sure
    return row


def test_a_ball_read_surely_outweighs_a_longer_seen_ball_read_unsurely() -> None:
    """The 11 is read 60 % the 15 every frame (a hard pair on red cloth) for 12 s; the 15 is
    read surely (99.9 %) for 1 s. One-to-one, the sure one is the 15 (a sum of probabilities
    gives the 15 to the 11: 0.6 x 300 frames outweighs 25 + 0.4 x 300)."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    eleven, fifteen = (400.0, 700.0), (900.0, 1400.0)
    st = None
    for k in range(300):
        balls = [("cue", CUE), ("none", eleven)] + ([("none", fifteen)] if k >= 275 else [])
        det = _frame(balls)
        det.identity[1] = _biased("15", 0.6, "11")
        if k >= 275:
            det.identity[2] = _biased("15", 0.999, "11")
        st = tr.update(k, det)
    assert st.pos["15"] == fifteen and st.pos["11"] == eleven


def _pot_of_b(lowest_first: bool, b_sure: float) -> tuple[Shot, dict]:
    """A (at 400, 700) reads the 2 55 % / the 6 45 %, B (at 460, 1000) the 6 ``b_sure`` / the
    2 the rest, the 9 surely; B runs into the top-left pocket. Returns the stroke's record as
    named and the layout at rest after it."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(), lowest_first=lowest_first)
    a, b, nine = (400.0, 700.0), np.array([460.0, 1000.0]), (900.0, 1800.0)
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)

    def seen(balls: list, b_row: bool = True) -> BallDetections:
        det = _frame(balls)
        det.identity[1] = _biased("2", 0.55, "6")
        if b_row:
            det.identity[3] = _biased("6", b_sure, "2")
        return det

    frame = 0
    for _ in range(50):
        tr.update(frame, seen([("cue", CUE), ("none", a), ("9", nine), ("none", tuple(b))]))
        frame += 1
    for k in range(1, 8):
        p = b + (pocket - b) * k / 8.0
        tr.update(frame, seen([("cue", CUE), ("none", a), ("9", nine), ("none", tuple(p))], False))
        frame += 1
    for _ in range(40):
        st = tr.update(frame, seen([("cue", CUE), ("none", a), ("9", nine)], False))
        frame += 1
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.CONTACT, 0.42, ("white", "6")),
                    Event(EventType.POT, 0.8, ("6",), pocket="top_left")))
    named = tr.named_pots(shot)
    st = tr.update(frame, seen([("cue", CUE), ("none", a), ("9", nine)], False))
    return named, st.pos


def test_nine_ball_names_a_pot_the_lowest_ball_when_the_colours_cannot_tell() -> None:
    """The 2 and the 6 read alike (a dim phone video): B, named the 6, is potted while A is
    named the 2, the lowest on the table. In nine-ball the player aims at the lowest ball, so
    the pot (and the contact) is the 2's and A is the 6 from then on; where B reads plainly
    as the 6, or in a game without a lowest ball on, the names stand."""
    named, pos = _pot_of_b(True, 0.55)
    assert [e.balls for e in named.events] == [("white",), ("white", "2"), ("2",)]
    assert pos["6"] == (400.0, 700.0) and "2" not in pos
    for lowest_first, b_sure in ((True, 0.99), (False, 0.55)):
        named, pos = _pot_of_b(lowest_first, b_sure)
        assert [e.balls for e in named.events] == [("white",), ("white", "6"), ("6",)]
        assert pos["2"] == (400.0, 700.0)
