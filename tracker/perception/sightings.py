"""What a stroke's sightings say where the tracker's track cannot (issue 31).

A ball's track in a stroke (:attr:`tracker.perception.stroke.Stroke.track`) holds the
tracker's place for it every picture: where it was seen, but also, while unseen, where it was
last seen (after two pictures of guessing on along its motion). A fast cue ball (4 m/s is
160 mm a picture) can be lost in its blur for a few pictures: its track then stands still and
jumps, and no place of it comes near the ball it hits. Its sightings (the pictures it was
seen in, :attr:`Stroke.sighted`), joined by straight lines across the pictures it was missed
in, pass where it went. They say:

- :func:`path_contact`: which ball hit a ball that left rest with no tracked path near it
  (the cue ball's path, drawn across its unseen pictures, passing within two radii of it),
  made contacts by :func:`contacts_by_paths`;
- :func:`lost_near_pockets`: the balls lost from sight near a pocket that were not seen
  again (not called potted: a slow ball short of the mouth, or a far pocket a few pixels
  across), for review.

And :func:`unseen_first_contact`: once a contact of the cue ball is dropped at the stroke's
end (a ball that seemed to move as it passed, but stands where it stood), the first ball to
leave rest while the cue ball was out of view is its first contact, as it would have been
taken had that contact never been made.

Positions in table mm, times in s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from tracker import balls as B
from tracker.records.shot import Event, EventType
from tracker.words import pocket_words, the_ball

if TYPE_CHECKING:
    from calibration.table import TableGeometry
    from tracker.perception.stroke import Stroke, StrokeParams
    from tracker.perception.track import TableState

#: (time s, (x, y) mm) sightings of one ball.
Sightings = list[tuple[float, tuple[float, float]]]


def first_approach(sightings: Sightings, target: np.ndarray, reach: float, t_a: float,
                   t_b: float) -> float | None:
    """When (s) the path through ``sightings`` (straight between them), between ``t_a`` and
    ``t_b``, first comes within ``reach`` mm of ``target``; None: it never does. Only the
    stretches between two sightings that overlap [``t_a``, ``t_b``] count."""
    for (t1, p1), (t2, p2) in zip(sightings[:-1], sightings[1:], strict=True):
        if t2 < t_a or t1 > t_b:
            continue
        a, b = np.asarray(p1, float), np.asarray(p2, float)
        ab = b - a
        L2 = float(ab @ ab)
        u = 0.0 if L2 == 0.0 else float(np.clip((target - a) @ ab / L2, 0.0, 1.0))
        if float(np.linalg.norm(a + u * ab - target)) > reach:
            continue
        # the first point of the stretch within reach: solve |a + s ab - target| = reach
        d = a - target
        if L2 == 0.0 or float(np.linalg.norm(d)) <= reach:
            s = 0.0
        else:
            bq = float(d @ ab)
            disc = bq * bq - L2 * (float(d @ d) - reach * reach)
            s = float(np.clip((-bq - np.sqrt(max(disc, 0.0))) / L2, 0.0, 1.0))
        return float(np.clip(t1 + s * (t2 - t1), t_a, t_b))
    return None


def path_contact(stroke: Stroke, ball: str, t_moved: float, two_r: float, slack_mm: float,
                 unseen_s: float, fps: float) -> tuple[str, float] | None:
    """The ball that hit ``ball``, which left rest at ``t_moved`` (s) with no tracked path near
    it, and when (s): the cue ball, or a ball set moving before it, whose sightings, joined
    across the pictures it was missed in, came within ``two_r`` + ``slack_mm`` of where
    ``ball`` stood in the ``unseen_s`` before it moved, while it moved (since the strike, or
    the picture at ``fps`` before it was seen leaving rest) (the cue ball first; then the
    earliest approach). None: no path came that near."""
    rest = stroke.before.get(ball)
    if rest is None:
        return None
    target = np.asarray(rest, float)
    best: tuple[str, float] | None = None
    for other in [B.WHITE, *sorted(stroke.started, key=stroke.started.__getitem__)]:
        # only while it moves: from the strike (the cue ball) or the picture before it was
        # seen leaving rest (a ball at rest beside it touches nothing)
        since = stroke.t0 if other == B.WHITE else stroke.started.get(other, np.inf) - 1.0 / fps
        if other == ball or since > t_moved:
            continue
        t = first_approach(stroke.sighted.get(other, []), target, two_r + slack_mm,
                           max(t_moved - unseen_s, since), t_moved)
        if t is not None and (best is None or t < best[1]):
            best = (other, max(t, stroke.t0 + 1e-4))
        if best is not None and other == B.WHITE:
            return best
    return best


def contacts_by_paths(stroke: Stroke, two_r: float, params: StrokeParams, fps: float) -> None:
    """Make the contacts of the balls that left rest with no tracked path near them
    (``stroke.loose``) that :func:`path_contact` finds (2R = ``two_r`` mm; within
    ``params.contact_slack_mm``, over ``params.path_contact_unseen_s``; pictures at ``fps``);
    those balls are no longer loose."""
    for ball, (t, _) in sorted(stroke.loose.items(), key=lambda x: x[1][0]):
        hit = path_contact(stroke, ball, t, two_r, params.contact_slack_mm,
                           params.path_contact_unseen_s, fps)
        if hit is not None:
            del stroke.loose[ball]
            stroke.events.append(Event(EventType.CONTACT, round(hit[1], 4), (hit[0], ball),
                                       confidence=params.path_contact_confidence))


def departure(stroke: Stroke, ball: str, n_sightings: int, min_speed: float,
              fps: float) -> float | None:
    """When (s) ``ball`` left where it stood before the stroke: its distance from there (mm)
    in the ``n_sightings`` pictures (at ``fps``) from the one it was seen leaving rest in,
    fitted by a straight line in time back to zero. None: seen in fewer than two of those
    pictures (unseen, its place is the tracker's guess), or slower than ``min_speed`` (mm/s;
    a crawl's moment is lost in the noise of its place)."""
    rest, t_start = stroke.before.get(ball), stroke.started.get(ball)
    if rest is None or t_start is None:
        return None
    t_end = t_start + (n_sightings - 0.5) / fps
    seen = [(t, p) for t, p in stroke.sighted.get(ball, []) if t_start - 1e-6 <= t <= t_end]
    if len(seen) < 2 or seen[0][0] > t_start + 1e-6:
        return None
    ts = np.array([t for t, _ in seen])
    d = np.linalg.norm(np.array([p for _, p in seen], float) - np.asarray(rest, float), axis=1)
    speed, at_zero = np.polyfit(ts - ts[0], d, 1)
    if speed < min_speed:
        return None
    return float(ts[0] - at_zero / speed)


def order_first_contacts(stroke: Stroke, fps: float, params: StrokeParams,
                         ball_diameter: float) -> None:
    """The cue ball's first two contacts, fitted less than a picture (``fps``) apart, put in
    the order their balls left where they stood (:func:`departure`; ``params.depart_*``):
    each takes its ball's moment of leaving, with a review note, when that order is not the
    fitted one or the two were fitted at one moment (within ``depart_margin_s``: the cue
    ball's path came within reach of both balls, side by side, between the same two
    pictures). A moment more than three pictures before the strike, or a ball frozen in a
    rack (:func:`in_rack`, ``ball_diameter`` mm), is no evidence and changes nothing. A
    contact with a rack the cue ball was not followed into stays as it is (its ball, hemmed
    in, hardly moves)."""
    cue = sorted((e for e in stroke.events if e.type == EventType.CONTACT and B.WHITE in e.balls),
                 key=lambda e: e.t)
    if len(cue) < 2 or cue[1].t - cue[0].t >= 1.0 / fps or any(
            e is r for e in cue[:2] for r in stroke.rack_contacts):
        return
    balls = [next(b for b in e.balls if b != B.WHITE) for e in cue[:2]]
    left = [departure(stroke, b, params.depart_sightings, params.depart_min_speed_mm_s, fps)
            for b in balls]
    if left[0] is None or left[1] is None or abs(left[1] - left[0]) <= params.depart_margin_s:
        return
    if any(in_rack(stroke, b, ball_diameter, params) for b in balls):
        # a rack's balls leave rest as the blow runs through it, not in the order the cue
        # ball met them (nine-ball side seed 23's break, red, development: the 6 "left"
        # 39 ms before the apex 1, and the legal break was called a foul)
        return
    first = 0 if left[0] < left[1] else 1
    if first == 0 and cue[1].t - cue[0].t > params.depart_margin_s:
        return  # already in that order, apart
    if left[first] < stroke.t0 - 3.0 / fps:
        # left well before the strike (more than the strike's own doubt, a few pictures): its
        # place was misjudged (a rack ball half hidden in a side view; bench/pool_synth.py
        # nine-ball side seed 11, development: 3.2 s against a strike at 4.18 s put the 2
        # before the apex 1), no evidence of the order
        return
    t_first = max(left[first], stroke.t0 + 1e-4)
    t_second = max(left[1 - first], t_first + 1e-3)
    met_first, met_second = cue[first], cue[1 - first]
    stroke.events = [replace(e, t=round(t_first if e is met_first else t_second, 4))
                     if e is met_first or e is met_second else e for e in stroke.events]
    b1, b2 = the_ball(balls[first]), the_ball(balls[1 - first])
    stroke.review.append(f"the cue ball met {b1} and {b2} within one picture: {b1} left its "
                         f"place first ({left[first]:.3f} s against {left[1 - first]:.3f} s, "
                         "from their speeds), so it is taken as the ball hit first; check")


def in_rack(stroke: Stroke, ball: str, ball_diameter: float, params: StrokeParams) -> bool:
    """Whether ``ball`` stood frozen in a rack before ``stroke`` (``params.rack_min_balls``
    or more balls, each within ``ball_diameter`` (mm) plus ``params.rack_gap_mm`` of
    another)."""
    rack = stroke.rack_of(ball, ball_diameter + params.rack_gap_mm)
    return len(rack) >= params.rack_min_balls


def unseen_contact_note(ball: str, t: float) -> str:
    """The review note of a first contact taken as the first ball to move at ``t`` (s), the
    cue ball out of view."""
    return (f"the cue ball was out of view: {the_ball(ball)}, the first ball to move ({t:.2f} s), "
            "is taken as the ball it hit first; check")


def unseen_first_contact(stroke: Stroke, fps: float, params: StrokeParams) -> None:
    """When the cue ball has no contact left (one was dropped: it seemed to move a ball it
    passed) and a ball left rest with no path near it while the cue ball was out of view
    (``stroke.loose``), the first such ball is the one it hit first, at the picture before
    (``fps``), with ``params.unseen_contact_confidence`` and a review note: as the stroke
    detector takes it when no contact was made before."""
    if any(e.type == EventType.CONTACT and B.WHITE in e.balls for e in stroke.events):
        return
    unseen = [(t, b) for b, (t, in_view) in stroke.loose.items() if not in_view]
    if not unseen:
        return
    t, ball = min(unseen)
    del stroke.loose[ball]
    t_c = max(t - 1.0 / fps, stroke.t0 + 1e-4)
    stroke.events.append(Event(EventType.CONTACT, round(t_c, 4), (B.WHITE, ball),
                               confidence=params.unseen_contact_confidence))
    stroke.review.append(unseen_contact_note(ball, t_c))


def lost_near_pockets(stroke: Stroke, st: TableState, table: TableGeometry,
                      near_mm: float) -> list[str]:
    """Review notes for the balls that moved in the stroke and, at its end (``st``), are
    still out of sight, last seen within ``near_mm`` of a pocket's mouth: not called potted
    (a ball vanishing short of the mouth at its speed is hidden), but it may have dropped."""
    notes = []
    for ball in [B.WHITE, *sorted(stroke.started)]:
        seen = stroke.sighted.get(ball)
        if ball not in st.pos or ball in st.visible or not seen:
            continue
        t, p = seen[-1]
        name, d = min(((n, float(np.linalg.norm(np.subtract(p, pk.mouth_centre))))
                       for n, pk in table.pockets.items()), key=lambda x: x[1])
        if d <= near_mm:
            notes.append(f"{the_ball(ball)} went out of sight {d:.0f} mm from the {pocket_words(name)} "
                         f"pocket at {t:.2f} s and was not seen again: not called potted; check "
                         "whether it dropped")
    return notes
