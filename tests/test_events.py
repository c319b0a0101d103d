"""Stroke events from tracked positions: strike or hand, soft strokes, cushion contacts."""

from __future__ import annotations

import math

import numpy as np

from calibration.table import STANDARD_TABLE as T
from tracker.perception.events import StrokeDetector
from tracker.perception.track import TableState

FPS = 25.0
RED = (600.0, 2600.0)


def _feed(frames: list[tuple[dict, set]]) -> list:
    """Run a detector over [(positions, moving)] frames; returns the shots."""
    det = StrokeDetector(T, FPS)
    shots = []
    for k, (pos, moving) in enumerate(frames):
        st = TableState(k, k / FPS, pos, set(moving), set(pos), [], [])
        shot = det.update(st)
        if shot is not None:
            shots.append(shot)
    return shots


def _rest(white: tuple[float, float], n: int) -> list[tuple[dict, set]]:
    return [({"white": white, "red_01": RED}, set()) for _ in range(n)]


def test_a_struck_cue_ball_makes_a_stroke_and_a_carried_one_does_not():
    a, b = np.array([900.0, 700.0]), np.array([1300.0, 1900.0])
    u = (b - a) / np.linalg.norm(b - a)
    # struck: full speed at once (1.5 m/s), slowing down evenly to rest
    struck, s, v = [], 0.0, 1500.0
    while v > 0:
        s += v / FPS
        v -= 600.0 / FPS
        struck.append(({"white": tuple(a + u * s), "red_01": RED}, {"white"}))
    end = tuple(a + u * s)
    assert len(_feed(_rest(tuple(a), 15) + struck + _rest(end, 30))) == 1
    # carried by a hand: it speeds up smoothly from rest, then slows and is set down
    n = 18
    carried = [({"white": tuple(a + (b - a) * (0.5 - 0.5 * math.cos(math.pi * k / (n - 1)))),
                 "red_01": RED}, {"white"}) for k in range(1, n)]
    assert _feed(_rest(tuple(a), 15) + carried + _rest(tuple(b), 30)) == []


def test_a_gentle_roll_into_a_ball_beside_it_is_a_stroke():
    """The cue ball a centimetre from a red, rolled into it at 0.2 m/s (slower than the
    strike speed a hand never reaches): the red moving with it makes it a stroke."""
    white = (RED[0], RED[1] - T.ball_diameter - 10.0)
    frames = _rest(white, 15)
    w = np.array(white)
    for k in range(1, 3):
        frames.append(({"white": tuple(w + [0, 8.0 * k]), "red_01": RED}, {"white"}))
    r = np.array(RED)
    for k in range(1, 10):
        # the cue ball stops at the contact; the tracker calls it moving until it has stood
        # still for three frames
        frames.append(({"white": tuple(w + [0, 16.0]), "red_01": tuple(r + [0, 10.0 * k])},
                       {"red_01", "white"} if k <= 3 else {"red_01"}))
    frames += [({"white": tuple(w + [0, 16.0]), "red_01": tuple(r + [0, 90.0])}, set())] * 30
    shots = _feed(frames)
    assert len(shots) == 1
    contacts = [e for e in shots[0].events if e.type.value == "contact"]
    assert contacts and contacts[0].balls == ("white", "red_01")


def test_a_bounce_off_a_cushion_is_found_with_its_cushion_and_time():
    """A ball rolling at 1 m/s into the right cushion (top half) and back: one cushion contact,
    at the moment its centre is a radius from the face."""
    r = T.ball_radius
    v = np.array([1000.0, 300.0])
    start = np.array([T.width - 400.0, 2400.0])
    t_hit = (T.width - r - start[0]) / v[0]
    track = []
    for k in range(25):
        t = k / FPS + 0.013
        p = start + v * t
        if t > t_hit:
            hit = start + v * t_hit
            p = hit + np.array([-v[0], v[1]]) * (t - t_hit)
        track.append((t, (float(p[0]), float(p[1]))))
    hits = StrokeDetector(T, FPS).cushion_hits(track, "white")
    assert [e.cushion for e in hits] == ["right_top"]
    assert abs(hits[0].t - (t_hit + 0.013)) < 0.02
    # a ball rolling along without touching any cushion has none
    straight = [(k / FPS, (800.0 + 20.0 * k, 1000.0 + 30.0 * k)) for k in range(25)]
    assert StrokeDetector(T, FPS).cushion_hits(straight, "white") == []
