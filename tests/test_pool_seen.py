"""Pool naming by how well each ball is seen: a reading of a ball half hidden behind a nearer
one counts little (:func:`hidden_shares`, ``PoolTrackParams.hidden_*``), and a ball potted
alone keeps the name it had at rest (only a track that crossed another's is named again)."""

from __future__ import annotations

import numpy as np

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_identity import LABELS
from tracker.perception.pool_track import PoolTracker, hidden_shares
from tracker.records.shot import Event, EventType, Shot
from tracker.rules.ballset import pool_balls

TABLE = TableGeometry.pool(9)
CUE = (600.0, 400.0)


def _reading(sure: dict[str, float]) -> np.ndarray:
    """An identity row: the given labels' probabilities, the rest spread evenly."""
    row = np.full(len(LABELS), (1.0 - sum(sure.values())) / (len(LABELS) - len(sure)))
    for lab, p in sure.items():
        row[LABELS.index(lab)] = p
    return row


def _frame(balls: list[tuple[tuple[float, float], tuple[float, float], dict[str, float]]]
           ) -> BallDetections:
    """Detections [(mm, px, identity readings)], the cue ball first (radius 10 px)."""
    n = len(balls)
    mm = np.array([b[0] for b in balls], float)
    px = np.array([b[1] for b in balls], float)
    cls = np.array([CLASSES.index("white")] + [CLASSES.index("red")] * (n - 1))
    det = BallDetections(px, mm, np.full(n, 10.0), cls, np.ones(n),
                         np.zeros((n, len(CLASSES))), np.ones(n), np.zeros((n, 5), np.float32))
    det.identity = np.array([_reading(b[2]) for b in balls])
    return det


def test_the_share_hidden_is_the_overlap_by_a_disc_lower_in_the_picture():
    """A ball 10 px above another of radius 10 px is half hidden; the nearer one is free, and
    so are two balls side by side (seen from above, touching)."""
    px = np.array([[100.0, 100.0], [100.0, 110.0], [300.0, 100.0], [320.0, 100.0]])
    share = hidden_shares(px, np.full(4, 10.0))
    assert np.allclose(share, [0.5, 0.0, 0.0, 0.0])


def test_a_ball_read_wrongly_while_half_hidden_keeps_its_own_name():
    """From the side, the 11 stands half hidden behind the 3 for 10 s, read surely as the 7
    (a dark ball behind another); then, the 3 gone from in front of it, it reads as the 11 for
    1 s, and the 7 elsewhere reads as the 7 for 1 s. Counting the hidden frames fully, the 11's
    slot would be named the 7."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    cue = (CUE, (60.0, 600.0), {"cue": 1.0})
    eleven, three, seven = (400.0, 1500.0), (400.0, 1400.0), (900.0, 800.0)
    st = None
    for k in range(275):
        hidden = k < 250
        balls = [cue, (eleven, (200.0, 300.0), {"7": 0.999} if hidden else {"11": 0.999}),
                 (seven, (450.0, 500.0), {"7": 0.999} if not hidden else {})]
        if hidden:
            balls.append((three, (200.0, 310.0), {"3": 0.999}))
        st = tr.update(k, _frame(balls))
    assert st.pos["11"] == eleven and st.pos["7"] == seven


def test_a_ball_potted_alone_keeps_the_name_it_had_at_rest():
    """The 15 (read 90 % the 15) and, far from it, the 11 (read 60 % the 11, 40 % the 15)
    stand at rest and are named right. The 15 is potted alone (no ball near its path); at
    rest after, the 11 reads 90 % the 15 for 8 s. The pot stays the 15's: the naming after
    the stroke may not hand the potted ball's name to a ball whose track never met it."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    cue = (CUE, (60.0, 600.0), {"cue": 1.0})
    fifteen, eleven = np.array([300.0, 900.0]), (900.0, 2000.0)
    pocket = np.array(TABLE.pockets["baulk_left"].mouth_centre)
    frame, pots, st = 0, [], None
    for _ in range(100):
        st = tr.update(frame, _frame([cue, (tuple(fifteen), (150.0, 450.0), {"15": 0.9, "11": 0.1}),
                                      (eleven, (450.0, 100.0), {"11": 0.6, "15": 0.4})]))
        frame += 1
    assert st.pos["15"] == tuple(fifteen) and st.pos["11"] == eleven
    for k in range(1, 8):
        p = fifteen + (pocket - fifteen) * k / 8.0
        st = tr.update(frame, _frame([cue, (tuple(p), (150.0, 450.0), {}),
                                      (eleven, (450.0, 100.0), {"11": 0.6, "15": 0.4})]))
        frame += 1
    for _ in range(200):
        st = tr.update(frame, _frame([cue, (eleven, (450.0, 100.0), {"15": 0.9, "11": 0.1})]))
        pots += [b for b, _, _ in st.pots]
        frame += 1
    assert pots == ["15"]
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.CONTACT, 0.42, ("white", "15")),
                    Event(EventType.POT, 4.3, ("15",), pocket="baulk_left")))
    assert tr.named_pots(shot) == shot


def test_a_ball_potted_after_three_tracks_went_round_takes_the_name_left_for_it():
    """The break's crowd: the 5 went down under the 9's name, the 9 was followed as the 4 and
    the 4 as the 5 (three tracks round, nine-ball overhead seed 3). Named again at rest, each
    ball left on the table has its own name and the potted track the 5's: the pot is the 5
    (not the 4, the name the 9 had when the 5 went down)."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    tr.seed({"white": CUE, "4": (300.0, 1500.0), "5": (500.0, 1500.0), "9": (700.0, 1500.0)})
    slot = {n: tr.slots_ids[tr.numbers.index(n)] for n in ("4", "5", "9")}
    tr.inner.slots[slot["5"]].on_table = False
    then = dict(tr.names) | {slot["5"]: "9", slot["9"]: "4", slot["4"]: "5"}
    tr.gone_as = {slot["5"]: ("9", then)}
    tr.crossed = set(slot.values())
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.POT, 1.2, ("9",), pocket="top_left")))
    assert [e.balls for e in tr.named_pots(shot).events] == [("white",), ("5",)]


def test_a_moving_cue_ball_lost_for_a_moment_is_not_handed_to_a_whitish_ball_far_away():
    """Eight-ball side seed 4: the cue ball rolls up the table (read 0.9 the cue ball); for
    two pictures it is not seen and the 11, at rest 400 mm away, takes the cue-ball claim
    (read 0.51 the cue ball); then the cue ball is seen again where it was heading, classed
    an object ball but read 0.85 the cue ball. The cue ball's track stays on it."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls())
    eleven = ((180.0, 2300.0), (90.0, 100.0), {"cue": 0.51, "11": 0.2})
    p, st = np.array([400.0, 1000.0]), None
    for k in range(40):
        if k >= 10:
            p = p + np.array([0.0, 30.0])
        cue = (tuple(p), (200.0, 300.0 - k), {"cue": 0.9})
        if 25 <= k < 27:
            balls = [eleven]  # the cue ball unseen; the 11 claims it
        elif k >= 27:
            balls = [eleven, cue]  # the 11 still claims; the cue ball back as an object ball
        else:
            balls = [cue, (eleven[0], eleven[1], {"11": 0.9})]
        st = tr.update(k, tr.settle_cue(_frame(balls)))  # as the run settles each frame
    assert np.linalg.norm(np.subtract(st.pos["white"], p)) < 40.0
    assert np.linalg.norm(np.subtract(st.pos["white"], eleven[0])) > 300.0
