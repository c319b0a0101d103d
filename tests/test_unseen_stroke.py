"""A pot with no stroke seen to start (the player between the camera and the cue ball): the
stroke is taken from the potted ball's run (tracker/perception/unseen_stroke.py)."""

from __future__ import annotations

from dataclasses import replace

from calibration.table import STANDARD_TABLE as T
from tracker.perception.events import STROKE_PARAMS, StrokeDetector
from tracker.perception.track import TableState

FPS = 25.0
WHITE = (900.0, 1000.0)
RED = (300.0, 3000.0)
OTHER = (1200.0, 2000.0)


def _hidden_strike_pot(came_back: bool = False, seen: bool = True) -> list[TableState]:
    """The cue ball held hidden at its place (the player in front) while a red rolls from
    rest toward the top-left corner and vanishes in its mouth; its pot confirmed 10 frames
    later (``came_back``: no pot, the red seen again and rests in the jaws; not ``seen``: the
    red's track never saw a ball, as the slots at a clip's start)."""
    mouth = T.pockets["top_left"].mouth_centre
    out = []
    k = 0

    def add(pos, moving, visible, pots=(), pending=()):
        nonlocal k
        visible = set(visible) if seen else set(visible) - {"red_01"}
        out.append(TableState(k, k / FPS, dict(pos), set(moving), set(visible), list(pots), [],
                              pending_pots=list(pending)))
        k += 1

    rest = {"white": WHITE, "red_01": RED, "red_02": OTHER}
    for _ in range(20):
        add(rest, set(), set(rest))
    for _ in range(15):  # the player steps in front of the cue ball
        add(rest, set(), {"red_01", "red_02"})
    path = [(RED[0] + (mouth[0] - RED[0]) * s, RED[1] + (mouth[1] - RED[1]) * s)
            for s in (0.15, 0.3, 0.45, 0.6, 0.75)]
    for p in path:
        add({**rest, "red_01": p}, {"red_01"}, {"red_01", "red_02"})
    gone = {**rest, "red_01": path[-1]}
    for _ in range(9):
        add(gone, {"red_01"}, {"red_02"}, pending=[("red_01", "top_left", k / FPS)])
    if came_back:
        for _ in range(30):
            add(gone, set(), {"red_01", "red_02"})
    else:
        add({"white": WHITE, "red_02": OTHER}, set(), {"red_02"},
            pots=[("red_01", "top_left", 1.42)])
        for _ in range(30):  # the cue ball found again where it rolled to, at rest
            add({"white": (1000.0, 2600.0), "red_02": OTHER}, set(), {"white", "red_02"})
    return out


def _shots(frames: list[TableState], params=STROKE_PARAMS) -> list:
    det = StrokeDetector(T, FPS, params=params)
    return [s for s in (det.update(st) for st in frames) if s is not None]


def test_a_ball_potted_while_the_strike_was_hidden_is_a_stroke_with_its_pot():
    shots = _shots(_hidden_strike_pot())
    assert len(shots) == 1
    shot = shots[0]
    pots = [e for e in shot.events if e.type.value == "pot"]
    assert [(e.ball, e.pocket) for e in pots] == [("red_01", "top_left")]
    strike = next(e for e in shot.events if e.type.value == "strike")
    assert strike.confidence < 1.0
    # the stroke starts when the red left rest (frame 35), not when its pot was confirmed
    assert 34 / FPS <= shot.t_start <= 35 / FPS
    assert shot.positions_before["red_01"] == RED
    assert any("no stroke was seen to start" in n for n in shot.needs_review)
    # without the rule the pot is lost with the stroke
    assert _shots(_hidden_strike_pot(), replace(STROKE_PARAMS, stroke_from_unseen_pot=False)) == []


def test_a_ball_that_came_back_out_of_the_mouth_makes_no_stroke():
    assert _shots(_hidden_strike_pot(came_back=True)) == []


def test_a_track_never_seen_that_goes_makes_no_stroke():
    assert _shots(_hidden_strike_pot(seen=False)) == []


def test_a_track_that_jumped_on_its_way_is_no_ball_potted():
    """A track that jumped 770 mm in one picture (to a player's sleeve) and went into a pocket
    with it: not a ball's path; the same run at a ball's pace is."""
    from tracker.perception.unseen_stroke import steady_run

    def run(steps):
        return [TableState(k, k / FPS, {"red_01": p}, {"red_01"} if k else set(), {"red_01"}, [],
                           []) for k, p in enumerate(steps)]

    slow = [(300.0, 3000.0 + 60.0 * k) for k in range(5)]
    jumped = [slow[0], (1070.0, 3000.0), *slow[2:]]
    assert steady_run(run(slow), "red_01", 1, 3, 7000.0)
    assert not steady_run(run(jumped), "red_01", 1, 3, 7000.0)
    assert not steady_run(run(slow[:3]), "red_01", 1, 3, 7000.0)  # seen twice only
    # taken up far from where the track stood, then steady: a ball's path
    assert steady_run(run([(1500.0, 500.0), *slow[1:]]), "red_01", 1, 3, 7000.0)


def _taken_up_then_potted() -> list[TableState]:
    """A red not followed when the table last stood still (its track lost), taken up where it
    stands while a player's hand, followed as another red, moves on the rail and the cue ball
    is hidden behind the player; then rolling from there into the top-left pocket, its pot
    confirmed (the real 9-ball clearance's 9, 92-95 s)."""
    mouth = T.pockets["top_left"].mouth_centre
    out: list[TableState] = []

    def add(red, hand, moving, visible, pots=()):
        pos = {"white": WHITE, "red_02": hand} | ({} if red is None else {"red_01": red})
        out.append(TableState(len(out), len(out) / FPS, pos, set(moving), set(visible),
                              list(pots), []))

    for _ in range(20):  # the table still, the red not followed
        add(None, OTHER, set(), {"white", "red_02"})
    hand = [(OTHER[0] + 40.0 * (k % 3), OTHER[1]) for k in range(60)]
    for k in range(15):  # taken up at rest; the cue ball hidden, the "red" (a hand) moving
        add(RED, hand[k], {"red_02"}, {"red_01", "red_02"})
    path = [(RED[0] + (mouth[0] - RED[0]) * s, RED[1] + (mouth[1] - RED[1]) * s)
            for s in (0.15, 0.3, 0.45, 0.6, 0.75)]
    for k, p in enumerate(path):
        add(p, hand[15 + k], {"red_01", "red_02"}, {"red_01", "red_02"})
    for k in range(9):
        add(path[-1], hand[20 + k], {"red_01", "red_02"}, {"red_02"})
    add(None, hand[29], {"red_02"}, {"red_02"}, pots=[("red_01", "top_left", 1.4)])
    for _ in range(30):
        add(None, OTHER, set(), {"white", "red_02"})
    return out


def test_a_ball_taken_up_at_rest_while_a_hand_moved_is_potted_by_a_stroke():
    """The red rested, seen, 15 pictures before its run, but never with the whole table
    still (a hand followed as a ball moved): its pot still makes a stroke; not when asked to
    have rested longer than it was seen."""
    shots = _shots(_taken_up_then_potted())
    assert len(shots) == 1
    assert [e.ball for e in shots[0].events if e.type.value == "pot"] == ["red_01"]
    assert shots[0].positions_before["red_01"] == RED
    assert any("no stroke was seen to start" in n for n in shots[0].needs_review)
    longer = replace(STROKE_PARAMS, unseen_pot_rest_frames=16)
    assert _shots(_taken_up_then_potted(), longer) == []

