"""Nine-ball: the ball potted is named by the likeliest naming of the whole table and the odds
that a pot is of the lowest ball on, checked against the colours of the balls left on the
table (:mod:`tracker.perception.pool_ball_on`, :meth:`PoolTracker.lowest_on`)."""

from __future__ import annotations

import numpy as np

from tests.test_pool_naming import CUE, TABLE, _frame
from tracker.perception.pool_ball_on import potted_number
from tracker.perception.pool_identity import LABELS
from tracker.perception.pool_track import PoolTracker
from tracker.records.shot import Event, EventType, Shot
from tracker.rules.ballset import pool_balls

NUMBERS = tuple(str(n) for n in range(1, 10))


def _reads(pairs: dict[str, float]) -> np.ndarray:
    """An identity row reading each number of ``pairs`` with its probability."""
    row = np.zeros(len(LABELS))
    for lab, p in pairs.items():
        row[LABELS.index(lab)] = p
    return row


def _pot(b_reads: dict[str, float], a_reads: dict[str, float]) -> tuple[Shot, dict]:
    """Three balls at rest: A (400, 700), B (460, 1000), C (900, 1800) reading the 5 or the 7
    (55 / 45 %); B runs into the top-left pocket. Returns the stroke's record as named and the
    layout at rest after it."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), lowest_first=True)
    a, b, c = (400.0, 700.0), np.array([460.0, 1000.0]), (900.0, 1800.0)
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)

    def seen(balls: list, with_b: bool = True) -> object:
        det = _frame(balls)
        det.identity[1] = _reads(a_reads)
        det.identity[2] = _reads({"5": 0.55, "7": 0.45})
        if with_b:
            det.identity[3] = _reads(b_reads)
        return det

    frame = 0
    for _ in range(50):
        tr.update(frame, seen([("cue", CUE), ("none", a), ("none", c), ("none", tuple(b))]))
        frame += 1
    for k in range(1, 8):
        p = b + (pocket - b) * k / 8.0
        tr.update(frame, seen([("cue", CUE), ("none", a), ("none", c), ("none", tuple(p))]))
        frame += 1
    for _ in range(40):
        tr.update(frame, seen([("cue", CUE), ("none", a), ("none", c)], False))
        frame += 1
    was = tr.name_of(next(s for s, n in tr.names.items()
                          if tr.inner.slots[s].pos is not None and not tr.inner.slots[s].on_table))
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.CONTACT, 0.42, ("white", was)),
                    Event(EventType.POT, 0.8, (was,), pocket="top_left")))
    named = tr.named_pots(shot)
    for _ in range(5):
        st = tr.update(frame, seen([("cue", CUE), ("none", a), ("none", c)], False))
        frame += 1
    return named, st.pos


def test_a_pot_the_colours_call_the_7_is_the_3_when_the_ball_left_reading_3_may_be_the_5() -> None:
    """B (the red 3 of a dim video) reads the 7 55 %, the 3 45 %; A reads the 3 55 %, the 5
    45 %; C the 5 55 %, the 7 45 %. At rest the colours name A the 3, B the 7, C the 5. B is
    potted: a nine-ball pot is most likely the lowest ball on, and the table can be named
    without a 3 left on it (A the 5, C the 7) at little cost: the pot is the 3's, A the 5 and
    C the 7 from then on. (Asking only whether A reads the 3 more than the 7, it stays the 7.)"""
    named, pos = _pot({"7": 0.55, "3": 0.45}, {"3": 0.55, "5": 0.45})
    assert [e.balls for e in named.events] == [("white",), ("white", "3"), ("3",)]
    assert pos["5"] == (400.0, 700.0) and pos["7"] == (900.0, 1800.0) and "3" not in pos


def test_a_pot_stays_its_colour_when_it_reads_plainly_or_a_ball_left_reads_the_lower() -> None:
    """B reads the 7 99 %: the pot is the 7's. B reads the 7 55 % / the 3 45 %, but A, on the
    table, reads the 3 99.9 %: the 3 is still on the table, so the pot is the 7's."""
    for b_reads, a_reads in (({"7": 0.99, "3": 0.01}, {"3": 0.55, "5": 0.45}),
                             ({"7": 0.55, "3": 0.45}, {"3": 0.999, "5": 0.001})):
        named, pos = _pot(b_reads, a_reads)
        assert [e.balls for e in named.events] == [("white",), ("white", "7"), ("7",)]
        assert pos["3"] == (400.0, 700.0)


def test_a_number_no_ball_reads_as_is_not_on_the_table() -> None:
    """The solver alone, nine numbers free (the 1 and the 2 potted unseen: no ball on the
    table reads as them). The potted ball reads the 7 60 %, the 3 40 %; the ball left reads
    the 7 surely: the pot is the 3, the lowest number a ball could be, though the 1 and the 2
    are free. Where the ball left reads the 3 surely, the pot is the 7."""
    seen = np.zeros((2, 9))
    seen[0, [6, 2]] = 6.0, 4.0
    seen[1, 6] = 10.0
    assert NUMBERS[potted_number(seen, NUMBERS, 0, [1], list(range(9)))] == "3"
    seen[1] = 0.0
    seen[1, 2] = 10.0
    assert NUMBERS[potted_number(seen, NUMBERS, 0, [1], list(range(9)))] == "7"


def test_a_track_lost_outside_any_stroke_pots_no_number() -> None:
    """A, read surely as the 3, runs into a pocket with no stroke seen (a hand, a track that
    followed a player): its number is still on for the game. D, read the 7 55 % / the 3 45 %,
    then goes down in a stroke: it is the 3, the lowest ball on (E reads the 5)."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), lowest_first=True)
    a, d, e = np.array([460.0, 1000.0]), np.array([300.0, 600.0]), (900.0, 1800.0)
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)

    def seen(balls: list) -> object:
        det = _frame([("cue", CUE), *[("none" if lab in "DE" else lab, p) for lab, p in balls]])
        for i, (lab, _) in enumerate(balls, start=1):
            if lab == "D":
                det.identity[i] = _reads({"7": 0.55, "3": 0.45})
            elif lab == "E":
                det.identity[i] = _reads({"5": 0.9, "7": 0.1})
        return det

    frame = 0
    for path, rest in ((a, [("D", tuple(d)), ("E", e)]), (d, [("E", e)])):
        lab = "3" if path is a else "D"
        for _ in range(50):
            tr.update(frame, seen([(lab, tuple(path)), *rest]))
            frame += 1
        for k in range(1, 8):
            tr.update(frame, seen([("none", tuple(path + (pocket - path) * k / 8.0)), *rest]))
            frame += 1
        for _ in range(40):
            tr.update(frame, seen(rest))
            frame += 1
    was = next(n for s, n in tr.names.items() if tr.inner.slots[s].pos is not None
               and not tr.inner.slots[s].on_table and n != "3")
    assert was == "7"  # named at rest while the 3's name was held by A
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.POT, 0.8, (was,), pocket="top_left")))
    assert [ev.balls for ev in tr.named_pots(shot).events] == [("white",), ("3",)]


def test_a_ball_still_where_it_stood_was_not_potted() -> None:
    """The 6 (A) rests at (400, 700); a player walks past and its track follows a sleeve into
    the top-left pocket while the 6, seen again where it stood, is taken up by another track.
    At the stroke's end the pot is dropped with a note for review and the ball there is the 6
    again (the pots above, their places bare, stay)."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), lowest_first=True)
    a, nine = np.array([400.0, 700.0]), (900.0, 1800.0)
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)
    frame = 0
    for _ in range(50):
        tr.update(frame, _frame([("cue", CUE), ("6", tuple(a)), ("9", nine)]))
        frame += 1
    start = a + np.array([0.0, 3.0 * TABLE.ball_radius])  # the sleeve beside the 6
    for k in range(0, 8):  # the 6's track jumps to the sleeve and follows it away
        p = start + (pocket - start) * k / 8.0
        tr.update(frame, _frame([("cue", CUE), ("none", tuple(p)), ("9", nine)]))
        frame += 1
    for _ in range(40):  # the sleeve gone into the pocket's corner; the 6 seen where it stood
        st = tr.update(frame, _frame([("cue", CUE), ("none", tuple(a)), ("9", nine)]))
        frame += 1
    gone = next(n for s, n in tr.names.items() if tr.inner.slots[s].pos is not None
                and not tr.inner.slots[s].on_table)
    there = next(b for b, q in st.pos.items() if q == tuple(a))
    assert gone == "6" and there != "6"
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.POT, 0.8, ("6",), pocket="top_left"),
                    Event(EventType.CUSHION, 0.9, (there,), cushion="top")),  # its track jumped
                positions_before={"white": CUE, "6": tuple(a), "9": nine},
                positions_after={"white": CUE, there: tuple(a), "9": nine})
    named = tr.named_pots(shot)
    assert [e.type for e in named.events] == [EventType.STRIKE, EventType.CUSHION]
    assert named.positions_after["6"] == tuple(a) and "still where it stood" in named.needs_review[-1]
    st = tr.update(frame, _frame([("cue", CUE), ("none", tuple(a)), ("9", nine)]))
    assert st.pos["6"] == tuple(a)


def test_a_ball_still_where_it_stood_with_no_track_free_was_not_potted() -> None:
    """Nine-ball, all nine balls on the table and followed (no slot free); the 6's track jumps
    to a player's hand and goes with it into the top-left pocket, while the 6 is still seen
    where it stood, followed by nothing. At the stroke's end the pot is dropped, and the 6's
    track takes it up there again (the real clearance's 7 at 13.3 s)."""
    tr = PoolTracker(TABLE, 25.0, balls=pool_balls(9), lowest_first=True)
    a = np.array([400.0, 700.0])
    others = [(str(n), (150.0 + 110.0 * n, 1500.0)) for n in (1, 2, 3, 4, 5, 7, 8, 9)]
    pocket = np.array(TABLE.pockets["top_left"].mouth_centre)
    frame = 0

    def see(extra):
        nonlocal frame
        st = tr.update(frame, _frame([("cue", CUE), *others, *extra]))
        frame += 1
        return st

    for _ in range(50):
        see([("6", tuple(a))])
    start = a + np.array([0.0, 3.0 * TABLE.ball_radius])  # the hand beside the 6
    for k in range(0, 8):  # the 6's track jumps to the hand and follows it away
        see([("none", tuple(start + (pocket - start) * k / 8.0))])
    for _ in range(40):  # the hand gone into the pocket's corner; the 6 seen where it stood
        st = see([("none", tuple(a))])
    assert "6" not in st.pos and not any(q == tuple(a) for q in st.pos.values())
    after = {b: q for b, q in st.pos.items()}
    shot = Shot(1, (Event(EventType.STRIKE, 0.4, ("white",)),
                    Event(EventType.POT, 0.8, ("6",), pocket="top_left")),
                positions_before={**after, "6": tuple(a)}, positions_after=after)
    named = tr.named_pots(shot)
    assert [e.type for e in named.events] == [EventType.STRIKE]
    assert "still where it stood" in named.needs_review[-1]
    st = see([("none", tuple(a))])
    assert st.pos.get("6") == tuple(a)
