"""Two first contacts of the cue ball within one picture, put in the order their balls left
rest (``sightings.order_first_contacts``), not the order the cue ball's straight-drawn path
passes them."""

from __future__ import annotations

from calibration.table import TableGeometry
from tracker.perception.events import StrokeDetector
from tracker.perception.stroke import StrokeParams
from tracker.perception.track import TableState

FPS = 25.0
T = TableGeometry.pool(8)


def _glance(params: StrokeParams | None = None) -> list:
    """The synthetic pool world's eight-ball side seed 3 stroke 4 (table mm, from its track):
    the cue ball, struck, is missed for a picture; in the next it has met the 10 (sent up the
    table fast) and turned onto the 8 beside it, which leaves rest slowly a picture later.
    The cue ball's path drawn straight from its place to its next sighting passes the 8
    before the 10. Returns the shots found."""
    det = StrokeDetector(T, FPS, params=params or StrokeParams())
    white, ten, eight = (369.0, 2077.0), (362.0, 1811.0), (448.0, 1887.0)
    states = []

    def add(pos: dict, moving: set, visible: set) -> None:
        k = len(states)
        states.append(TableState(k, k / FPS, dict(pos), set(moving), set(visible), [], []))

    pos = {"white": white, "10": ten, "8": eight}
    for _ in range(15):
        add(pos, set(), set(pos))
    add(pos, set(), {"8"})  # the cue ball struck, and the 10 behind it, missed
    for j in range(10):
        slow = 0.93 ** j
        pos = {"white": (401.0 + 15.0 * j * slow, 1849.0 - 25.0 * j * slow),
               "10": (332.0 - 31.0 * j * slow, 1634.0 - 170.0 * j * slow),
               "8": eight if j == 0 else (448.0 + 9.0 * j * slow, 1887.0 + 3.0 * j * slow)}
        add(pos, {"white", "10"} | ({"8"} if j else set()), set(pos))
    for _ in range(25):
        add(pos, set(), set(pos))
    return [s for s in (det.update(st) for st in states) if s is not None]


def _first_contact(shot) -> tuple[str, ...]:
    return min((e for e in shot.events if e.type.value == "contact" and "white" in e.balls),
               key=lambda e: e.t).balls


def test_the_ball_that_left_rest_first_was_met_first():
    """The 10 left its place a picture before the 8, fast: it was met first (the cue ball's
    legal ball there; the 8 first is a foul), and a review note says how it was ordered."""
    shots = _glance()
    assert len(shots) == 1
    assert _first_contact(shots[0]) == ("white", "10")
    assert any("left its place first" in n for n in shots[0].needs_review)


def test_without_the_departures_the_path_puts_the_8_first():
    """The same stroke with the ordering switched off (a single sighting fits no departure):
    the straight-drawn path meets the 8 first, the wrong call the ordering mends."""
    shots = _glance(StrokeParams(depart_sightings=1))
    assert len(shots) == 1
    assert _first_contact(shots[0]) == ("white", "8")


def test_a_ball_seen_once_leaving_rest_has_no_departure():
    """The overhead view of the same stroke: the 8 is seen in the picture it leaves rest (a
    detection 15 mm off its place) and not again until long after. Sightings that far apart
    fit no moment of leaving (one fitted across them put the 8 first, before the strike,
    and called a foul); two pictures in a row do."""
    from tracker.perception.sightings import departure
    from tracker.perception.stroke import Stroke

    s = Stroke(t0=31.94, before={"8": (448.0, 1886.0)}, started={"8": 32.0})
    s.sighted["8"] = [(32.0, (434.0, 1880.0)), (32.6, (470.0, 1900.0))]
    assert departure(s, "8", 3, 100.0, FPS) is None
    s.sighted["8"] = [(32.0, (458.0, 1886.0)), (32.04, (468.0, 1886.0))]
    assert abs(departure(s, "8", 3, 100.0, FPS) - 31.96) < 1e-6


def test_a_ball_leaving_before_the_strike_does_not_reorder_the_contacts():
    """The break of nine-ball side seed 11 (development): the cue ball met the 1 and the 2
    within one picture; the 2, half hidden in the rack, fits a moment of leaving a second
    before the strike. That is no evidence of the order: the contacts stay as fitted."""
    from tracker.perception.sightings import order_first_contacts
    from tracker.perception.stroke import Stroke
    from tracker.records.shot import Event, EventType

    s = Stroke(t0=4.18, before={"1": (0.0, 0.0), "2": (500.0, 0.0)},
               started={"1": 4.32, "2": 4.20})
    s.sighted["1"] = [(4.32, (42.0, 0.0)), (4.36, (122.0, 0.0)), (4.40, (202.0, 0.0))]
    s.sighted["2"] = [(4.20, (620.0, 0.0)), (4.24, (624.0, 0.0)), (4.28, (628.0, 0.0))]
    s.events = [Event(EventType.CONTACT, 4.30, ("white", "1")),
                Event(EventType.CONTACT, 4.31, ("white", "2"))]
    order_first_contacts(s, FPS, StrokeParams(), T.ball_diameter)
    assert min(s.events, key=lambda e: e.t).balls == ("white", "1")


def test_two_contacts_fitted_at_one_moment_are_set_apart_by_their_departures():
    """Nine-ball side seed 18 stroke 4 (red cloth, development): the cue ball met the 9 and,
    20 ms later, the 2 beside it (the 2 the ball on: a foul). Its path came within reach of
    both between the same two pictures, so both contacts were fitted at 28.555 s: "the same
    moment", and no foul was called. The 9 left its place fast a picture before the 2 (its
    places from the clip's track): it is the ball met first, the 2 after."""
    from tracker.perception.sightings import order_first_contacts
    from tracker.perception.stroke import Stroke
    from tracker.records.shot import Event, EventType

    s = Stroke(t0=27.78, before={"9": (552.0, 2044.0), "2": (491.1, 2053.7)},
               started={"9": 28.60, "2": 28.64})
    s.sighted["9"] = [(28.60, (580.0, 2082.0)), (28.64, (596.0, 2105.0)), (28.68, (612.0, 2129.0))]
    s.sighted["2"] = [(28.60, (491.1, 2053.7)), (28.64, (484.4, 2066.0)),
                      (28.68, (482.1, 2074.2)), (28.72, (477.3, 2081.9))]
    # (in the order the detector made them: the 9 was seen leaving rest first)
    s.events = [Event(EventType.CONTACT, 28.555, ("white", "9")),
                Event(EventType.CONTACT, 28.555, ("white", "2"))]
    order_first_contacts(s, FPS, StrokeParams(), T.ball_diameter)
    nine, two = (next(e.t for e in s.events if b in e.balls) for b in ("9", "2"))
    assert 28.52 < nine < 28.56 and two - nine > StrokeParams().review_simultaneous_s
    assert any("the 9 left its place first" in n for n in s.review)


def test_balls_frozen_in_a_rack_are_not_ordered_by_their_departures():
    """Nine-ball side seed 23's break (red cloth, development): the cue ball's path from the
    side came within reach of the apex 1 and the 6 behind it between the same two pictures;
    the 6 "left" 39 ms before the 1 as the blow ran through the rack, and taking that order
    called the legal break a foul. In a rack the order balls leave rest is no evidence: the
    contacts stay as fitted."""
    from tracker.perception.sightings import order_first_contacts
    from tracker.perception.stroke import Stroke
    from tracker.records.shot import Event, EventType

    d = T.ball_diameter
    rack = {"1": (584.2, 1752.6), "2": (555.6, 1752.6 + d * 0.866),
            "6": (612.8, 1752.6 + d * 0.866)}
    s = Stroke(t0=4.56, before=dict(rack), started={"6": 4.72, "1": 4.72, "2": 4.76})
    s.sighted["6"] = [(4.72, (622.0, 1820.0)), (4.76, (632.0, 1840.0)), (4.80, (642.0, 1860.0))]
    s.sighted["1"] = [(4.72, (584.2, 1752.6)), (4.76, (584.2, 1762.6)), (4.80, (584.2, 1772.6))]
    s.events = [Event(EventType.CONTACT, 4.70, ("white", "6")),
                Event(EventType.CONTACT, 4.70, ("white", "1"))]
    order_first_contacts(s, FPS, StrokeParams(), d)
    assert [e.t for e in s.events] == [4.70, 4.70]
    assert not any("left its place first" in n for n in s.review)
