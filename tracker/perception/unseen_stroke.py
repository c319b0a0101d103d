"""A pot with no stroke seen to start: the stroke inferred from the potted ball's run.

A player standing between the camera and the cue ball hides the strike: the cue ball is held
at its place, unseen, until it is found again far away, rolling, and no stroke starts (the
stroke detector starts one only when it sees the cue ball leave rest, or vanish from rest a
moment before an object ball moves: :meth:`StrokeDetector._unseen_strike`). An object ball
the tracker then sees go into a pocket and stay gone (its pot confirmed:
:attr:`TrackerConfig.pot_confirm_s`, the ball not back out of the mouth) was still potted,
and its stroke was still played. :func:`stroke_from_pot` starts that stroke when the pot is
confirmed, from the frame the potted ball left rest, with the frames seen since (kept by the
detector from the last picture where every ball rested: :attr:`StrokeDetector.since_rest`):
its strike and first contact are inferred, each with a confidence below one and a note for
review, and it goes on and ends as any stroke does.
"""

from __future__ import annotations

import math
from typing import Any

from tracker import balls as B
from tracker.perception.stroke import Stroke
from tracker.perception.track import TableState
from tracker.records.shot import Event, EventType
from tracker.words import balls_words, the_ball

#: The stroke detector (:class:`tracker.perception.events.StrokeDetector`), named here and
#: not imported: it imports this module.
StrokeDetector = Any


def departure(frames: list[TableState], ball: str) -> int | None:
    """Index in ``frames`` (oldest first) of the first frame of ``ball``'s last run of motion
    (the frame it was first seen moving since it last rested), or None when it did not rest,
    seen, in them, or was not seen moving since (a track never seen: the start's slots)."""
    k = len(frames) - 1
    while k >= 0 and ball in frames[k].moving:
        k -= 1
    if k < 0 or k == len(frames) - 1 or ball not in frames[k].visible:
        return None
    if not any(ball in r.visible for r in frames[k + 1:]):
        return None
    return k + 1


def steady_run(frames: list[TableState], ball: str, k: int, sightings: int,
               speed_mm_s: float) -> bool:
    """Whether ``ball``'s run from ``frames[k]`` on is a ball's path: seen in at least
    ``sightings`` frames of it, and no sighting further from the one before than
    ``speed_mm_s`` carries a ball in the time between (a track that jumped to a player's
    sleeve and went with it into a pocket is no ball potted). Where the track stood before
    the run is not asked: a track that jumped onto a ball rolling unseen (its own lost behind
    the player) and followed it steadily into a pocket saw a ball potted (the clearance's 9 at
    95.2 s, taken up 760 mm from where its track rested)."""
    seen = [(r.t, r.pos[ball]) for r in frames[k:] if ball in r.visible and ball in r.pos]
    if len(seen) < sightings:
        return False
    return all(math.dist(p, q) <= speed_mm_s * (u - t) + 1e-6
               for (t, p), (u, q) in zip(seen, seen[1:], strict=False))


def run_start(d: StrokeDetector, frames: list[TableState], ball: str) -> int | None:
    """Index in ``frames`` of the first frame of ``ball``'s last run, when that run may be a
    stroke's: it left a place it was seen resting at with the table still
    (:attr:`StrokeDetector.last_rest_pos`) or in ``unseen_pot_rest_frames`` frames. A track
    held unseen that took a ball up already rolling is not asked about: on the clearance such
    a run was the 4's at 39.6 s, but also a player's sleeve at 6.2-6.4 s, seen on its way at
    a ball's pace (taken, it made an extra pot and named three others wrong)."""
    k = departure(frames, ball)
    if k is None:
        return None
    rest = ball in d.last_rest_pos or rested(frames[:k], ball, d.params.unseen_pot_rest_frames)
    return k if rest else None


def rested(frames: list[TableState], ball: str, n: int) -> bool:
    """Whether ``ball`` was seen standing (followed, not moving) in at least ``n`` of
    ``frames``: a ball at rest, not a hand or a sleeve passing through."""
    return sum(ball in r.visible and ball not in r.moving for r in frames) >= n


def stroke_from_pot(d: StrokeDetector, prev: TableState, st: TableState) -> bool:
    """Between strokes (``prev``, ``st``: the frame before and this one): keep ``prev`` among
    the frames since every ball rested (:attr:`StrokeDetector.since_rest`), and start the
    stroke of an object ball potted at ``st`` (:attr:`TableState.pots`; see the module),
    taking ``st`` into it. False (no stroke started) when ``st`` pots no object ball, the
    option is off (:attr:`StrokeParams.stroke_from_unseen_pot`) or the potted ball was not
    seen leave a place it rested at within the frames kept."""
    keep = max(2, int(d.params.since_rest_s * d.fps))
    d.since_rest = [prev] if not prev.moving else [*d.since_rest, prev][-keep:]
    potted = [b for b, _, _ in st.pots if b != B.WHITE]
    frames = [*d.since_rest, st]
    if not d.params.stroke_from_unseen_pot or not potted:
        return False
    # a ball the table was last seen resting with (every ball still), that left rest before
    # it went down
    run = frames[:-1]
    starts = [(k, b) for b, _, t in st.pots if b in potted
              and (k := run_start(d, run, b)) is not None and t >= run[k - 1].t
              and steady_run(run, b, k, d.params.unseen_pot_sightings,
                             d.params.unseen_pot_speed_mm_s)]
    if not starts:
        return False
    k, ball = min(starts)
    first, before_frame = frames[k], frames[k - 1]
    before = {**before_frame.pos, **{b: p for b, p in d.last_rest_pos.items()
                                     if b not in first.moving and b in before_frame.pos}}
    t0 = before_frame.t + 0.5 / d.fps
    note = (f"no stroke was seen to start (the cue ball hidden from the camera), but "
            f"{balls_words(potted)} went into a pocket and stayed gone: a stroke is taken "
            f"from {the_ball(ball)} leaving its place at {first.t:.2f} s; check that a stroke "
            "was played and which ball the cue ball hit first")
    d.stroke = Stroke(t0=t0, before=before, review=[*d.pending_review, note],
                      white_speeds=[float("inf")] * (d.params.carry_frames + 1),
                      white_seen=False)
    d.pending_review, d.replacing = [], False
    d.white_rest_frames, d.white_gone = 0, None
    d.stroke.events.append(Event(EventType.STRIKE, round(t0, 4), (B.WHITE,),
                                 confidence=d.params.unseen_strike_confidence))
    d.stroke.record(before_frame)
    for r in frames[k:]:
        d.stroke.record(r)
        d.stroke.white_seen |= B.WHITE in r.visible and B.WHITE in r.moving
        for b in d._in_order(r.moving - {B.WHITE}, r):
            if b not in d.stroke.started:
                d.stroke.started[b] = r.t
                d._contact(b, r)
    d._pots_and_departures(d.stroke, st)
    return True

