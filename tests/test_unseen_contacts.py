"""Contacts made while the cue ball was out of sight (issue 31): a fast cue ball lost in its
blur, its path drawn straight across the pictures it was missed in
(:mod:`tracker.perception.sightings`); a ball lost from sight near a pocket noted, not
potted. Tracked frames (:class:`TableState`) fed to the stroke detector."""

from __future__ import annotations

import numpy as np

from calibration.table import STANDARD_TABLE as T
from tracker.perception.events import StrokeDetector
from tracker.perception.track import TableState

FPS = 25.0
W0 = np.array([800.0, 2800.0])
RED = (130.0, 1215.0)  # beside the left side cushion


def _stroke(frames: list[tuple[dict, set, set]]) -> list:
    """Feed [(positions, moving, visible)] frames; the shots."""
    det = StrokeDetector(T, FPS)
    shots = []
    for k, (pos, moving, visible) in enumerate(frames):
        shot = det.update(TableState(k, k / FPS, pos, set(moving), set(visible), [], []))
        if shot is not None:
            shots.append(shot)
    return shots


def _fast_white(unseen: range, red_starts: int, miss_by: float = 40.0,
                black_jump: int | None = None, red_02: bool = False) -> list[tuple[dict, set, set]]:
    """The cue ball struck at 4 m/s (160 mm a picture) from ``W0`` past the red (its centre
    line ``miss_by`` mm from the red's centre: a thin contact under 2R), unseen over the
    pictures ``unseen`` (counted from the strike; its place held at its last sighting); the
    red seen leaving rest ``red_starts`` pictures after the strike, sent 600 mm.
    ``black_jump``: the black, beside the cue ball's start, seems to move 30 mm at that
    picture, then stands where it stood. ``red_02``: a red 300 mm along the way, 40 mm off
    the line, hit first (seen leaving rest at the second picture)."""
    aim = np.array(RED) + [miss_by, 0.0]
    u = (aim - W0) / np.linalg.norm(aim - W0)
    black = (W0[0] + 60.0, W0[1] - 120.0)
    r2 = W0 + u * 300.0 + np.array([-u[1], u[0]]) * 40.0
    red_path = [np.array(RED) + [0.0, -600.0 * min(1.0, (k - red_starts + 1) / 12)] for k in range(40)]
    rest = {"white": tuple(W0), "red_01": RED, "black": black} | ({"red_02": tuple(r2)} if red_02 else {})
    frames = [(rest, set(), set(rest))] * 15
    held = W0
    for k in range(1, 40):
        w = W0 + u * min(4000.0 * k / FPS, float(np.linalg.norm(aim - W0)) + 150.0)
        seen = k not in unseen
        held = w if seen else held
        red = tuple(red_path[k]) if k >= red_starts else RED
        moving = {"white"} | ({"red_01"} if red_starts <= k < red_starts + 12 else set())
        pos = {"white": tuple(held), "red_01": red, "black": black}
        if black_jump is not None and k == black_jump:
            pos["black"], moving = (black[0], black[1] - 30.0), moving | {"black"}
        if red_02:
            pos["red_02"] = tuple(r2 + [300.0 * min(1.0, max(0, k - 1) / 8), 0.0])
            moving |= {"red_02"} if 2 <= k < 10 else set()
        visible = set(pos) - ({"white"} if not seen else set())
        frames.append((pos, moving, visible))
    end = frames[-1][0]
    frames += [(end, set(), set(end))] * 30
    return frames


def _contacts(shot) -> list[tuple[str, ...]]:
    return [e.balls for e in shot.events if e.type.value == "contact"]


def test_a_fast_cue_balls_contact_across_its_unseen_pictures_is_found():
    """4 m/s (160 mm a picture): the cue ball clips a red on its way (seen), then is lost in
    its blur for ten pictures while it passes the red by the side cushion, which leaves rest
    before the cue ball is seen again beyond it. No tracked place of the cue ball comes near
    that red (held where last seen); its sightings, joined across the missed pictures, pass
    40 mm from it: the cue ball hit it (before: "a red moved with no ball near it")."""
    shots = _stroke(_fast_white(range(3, 13), red_starts=11, red_02=True))
    assert len(shots) == 1
    assert _contacts(shots[0]) == [("white", "red_02"), ("white", "red_01")]
    assert not any("no ball near it" in n for n in shots[0].needs_review)
    # a path that passes 200 mm from the red (beyond 2R and the near-pass allowance) did not
    # touch it
    far = _stroke(_fast_white(range(3, 13), red_starts=11, red_02=True, miss_by=200.0))
    assert ("white", "red_01") not in _contacts(far[0])
    assert any("no ball near it" in n for n in far[0].needs_review)


def test_a_dropped_first_contact_leaves_the_first_ball_to_move_unseen_as_the_first():
    """The cue ball's slot passes the black, whose centre jumps as it passes (a contact, then
    dropped at the end: the black stands where it stood); the cue ball is then out of view and
    the red leaves rest. The red, the first ball to move, is its first contact (unsure, noted),
    not "no contact"."""
    shots = _stroke(_fast_white(range(3, 40), red_starts=14, miss_by=300.0, black_jump=2))
    assert len(shots) == 1
    contacts = [e for e in shots[0].events if e.type.value == "contact"]
    assert [e.balls for e in contacts] == [("white", "red_01")]
    assert contacts[0].confidence < 1
    assert any("taken as the ball it hit first" in n for n in shots[0].needs_review)


def test_a_ball_lost_from_sight_near_a_pocket_and_not_seen_again_is_noted():
    """The red, sent toward the baulk-left pocket, is lost from sight 150 mm from its mouth
    and not seen again (the tracker holds it where last seen, not potted): the record says
    so, for review; seen again at the end, no note."""
    mouth = np.array(T.pockets["baulk_left"].mouth_centre)
    for seen_at_end, noted in ((False, True), (True, False)):
        frames = _fast_white(range(3, 13), red_starts=11, red_02=True)
        lost = tuple(mouth + [150.0, 0.0])
        for k, (pos, moving, visible) in enumerate(frames):
            if k >= 26:  # last seen there at pictures 26-27, then not (but at the end)
                pos = {**pos, "red_02": lost}
                if k >= 28 and not (seen_at_end and k > 40):
                    visible = visible - {"red_02"}
            frames[k] = (pos, moving - ({"red_02"} if k >= 26 else set()), visible)
        notes = [n for n in _stroke(frames)[0].needs_review if "went out of sight" in n]
        assert bool(notes) == noted
        if noted:
            assert "150 mm from the bottom left pocket" in notes[0]
