"""When the cue ball was struck, and when it was a hand: the stroke detector's tests at a
strike (:class:`tracker.perception.events.StrokeDetector`), as functions of the frames it keeps.

- :func:`before_strike`: the frame whose balls must all have been at rest for the cue ball,
  now seen moving, to have been struck.
- :func:`held_unseen`: a ball the tracker calls moving but has not seen over the last frames,
  held at one place: no sign that it moves (it does not stop a strike).
- :func:`struck_while_hidden`: a cue ball hidden at rest and seen again away from its place,
  going on fast along one line: struck while hidden, not put down by hand.
- :func:`carried_by_hand`: a "stroke" whose cue ball keeps speeding up: a hand carrying it.
- :func:`detection_jumped`: a "stroke" whose cue ball moved in one picture only: its
  detection jumped.
- :func:`pushed_from_rest` and :func:`came_to_nothing`: a soft stroke whose cue ball is seen
  standing while the balls beside it leave rest; dropped if they went nowhere.
- :func:`met_in_rack`: a break's cue ball not followed into a frozen rack met the rack's ball
  nearest where it stood.
"""

from __future__ import annotations

import numpy as np

from tracker import balls as B
from tracker.perception.stroke import Stroke, StrokeParams
from tracker.perception.track import TableState
from tracker.records.shot import Event, EventType
from tracker.words import the_ball


def before_strike(recent: list[TableState], prev: TableState) -> TableState:
    """The frame of ``recent`` (the last frames, the newest, where the cue ball is seen
    moving, last; ``prev`` the one before it) whose balls must all have been at rest for the
    cue ball to have been struck: two frames back (a ball it hits may show its motion a frame
    before the cue ball does), and one further back for each picture just before in which the
    cue ball was not seen (a hard stroke's blur: TV lens clips under 30 degrees, seed 2, where
    the cue over the pack moved two reds' detections the picture before the strike and the
    white was lost in the next)."""
    if len(recent) < 3:
        return prev
    back = 3
    while back < len(recent) and B.WHITE not in recent[-back + 1].visible:
        back += 1
    return recent[-back]


def held_unseen(recent: list[TableState], ball: str) -> bool:
    """Whether ``ball`` was unseen in every frame of ``recent`` (the detector's last frames,
    :data:`tracker.perception.events.RECENT_FRAMES`) and held at one place all the while: the
    tracker may still call it moving (a ball in the pack whose detection jumped and was then
    lost is held "struck out of sight" for up to three seconds while its place stays covered),
    but nothing shows it moving, so it does not stop a strike (TV lens clips under 30 degrees,
    seed 4: a red at the far end lost so from 1.2 s to 4.2 s, the break-off at 3.8 s taken
    0.4 s late, from a cue ball already past the pack, "played from outside the D")."""
    if len(recent) < 2 or ball not in recent[-1].pos:
        return False
    here = recent[-1].pos[ball]
    return all(ball not in r.visible and r.pos.get(ball) == here for r in recent)


def struck_while_hidden(rest: TableState, seen: TableState, st: TableState, fps: float,
                        params: StrokeParams) -> tuple[float, tuple[float, float]] | None:
    """When and where (s, mm; as ``TableState.emerged``) the cue ball was first seen again
    (``seen``) after hiding at rest (its place held in ``rest``, the frame before), when at
    ``st`` (the next frame) it goes on along the same line (``hidden_strike_cone_deg``) at
    ``hidden_strike_speed_mm_s`` or more: struck while hidden, not put down by hand (a hand
    lets a ball stand where it sets it down). None otherwise."""
    if not all(B.WHITE in x.pos for x in (rest, seen, st)):
        return None
    p0, p1, p2 = (np.asarray(x.pos[B.WHITE], float) for x in (rest, seen, st))
    a, b = p1 - p0, p2 - p1
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0 or nb * fps < params.hidden_strike_speed_mm_s:
        return None
    if float(a @ b) / (na * nb) < np.cos(np.radians(params.hidden_strike_cone_deg)):
        return None
    return seen.t, (float(p1[0]), float(p1[1]))


def carried_by_hand(s: Stroke, prev: TableState, st: TableState, fps: float,
                    params: StrokeParams) -> bool:
    """Whether the stroke ``s``'s cue ball has sped up over its first frames with nothing else
    moving: carried by a hand (smoothly accelerated, frame after frame), not struck (full
    speed from the first whole frame after the strike on). Keeps its speeds in
    ``s.white_speeds`` (mm/s)."""
    if (len(s.white_speeds) > params.carry_frames or B.WHITE not in st.pos
            or B.WHITE not in prev.pos):
        return False
    if set(st.moving) - {B.WHITE} or s.started:
        s.white_speeds = [float("inf")] * (params.carry_frames + 1)  # it has hit something
        return False
    v = float(np.linalg.norm(np.subtract(st.pos[B.WHITE], prev.pos[B.WHITE]))) * fps
    s.white_speeds.append(v)
    w = s.white_speeds
    if len(w) >= 2 and w[1] >= params.hand_start_speed_mm_s:
        # already too fast for a hand
        s.white_speeds = [float("inf")] * (params.carry_frames + 1)
        return False
    if len(w) < params.carry_frames:
        return False
    ratio, margin = params.carry_speedup
    late_ratio, late_margin = params.carry_late_speedup
    return bool(w[-1] > ratio * w[0] + margin and w[-2] > w[0]
                and w[-1] > late_ratio * w[1] + late_margin and w[2] > w[1])


def pushed_from_rest(white: tuple[float, float], movers: list[str],
                     rest: dict[str, tuple[float, float]], reach_mm: float) -> list[str]:
    """Which of ``movers`` (balls set moving, in the order they moved) stood within
    ``reach_mm`` (mm, centre to centre) of the cue ball at ``white`` (mm) in ``rest`` (where
    each ball last rested): the balls a push it hardly moved in may have set moving."""
    return [b for b in movers if b in rest
            and float(np.linalg.norm(np.subtract(rest[b], white))) <= reach_mm]


def came_to_nothing(s: Stroke, st: TableState, min_travel_mm: float) -> bool:
    """Whether a stroke taken from balls beside the cue ball leaving rest (``s.pushed``) set
    none of them anywhere: at its end (``st``) each ball it started stands within
    ``min_travel_mm`` of where it stood (a ball gone from the table went somewhere)."""
    if not s.pushed:
        return False
    return all(b in st.pos and b in s.before
               and float(np.linalg.norm(np.subtract(st.pos[b], s.before[b]))) < min_travel_mm
               for b in s.started)


def detection_jumped(s: Stroke, st: TableState, fps: float, params: StrokeParams) -> bool:
    """Whether the stroke ``s``'s cue ball, now seen at rest with no other ball moved and
    nothing potted or gone, moved in one picture only, faster than a ball that touches nothing
    can stop within a picture (``StrokeParams.free_decel_mm_s2``): its detection jumped, no
    ball was struck (a struck ball slows over many pictures)."""
    if (st.moving or B.WHITE not in st.visible or s.started or not s.white_speeds
            or any(e.type != EventType.STRIKE for e in s.events)):
        return False
    track = [p for _, p in s.track.get(B.WHITE, [])]
    steps = [float(np.linalg.norm(np.subtract(b, a))) for a, b in zip(track, track[1:], strict=False)]
    moved = [d for d in steps if d > params.still_jump_mm]
    return len(moved) == 1 and s.white_speeds[0] > params.free_decel_mm_s2 / fps


def met_in_rack(s: Stroke, ball: str, t: float, fps: float, ball_diameter: float,
                params: StrokeParams) -> bool:
    """``ball`` left rest at time ``t`` (s) with no followed path near it, the cue ball of
    stroke ``s`` having hit nothing yet: when it belongs to a rack
    (:attr:`StrokeParams.rack_min_balls` frozen together) and the strike was at most
    ``unseen_strike_s`` ago, the cue ball met the rack's ball nearest where it stood (the first
    it reaches; a break's apex), looked for across ``rack_holes`` balls the camera did not find,
    recorded on ``s`` with ``rack_contact_confidence`` and a note (``fps``: pictures a second;
    ``ball_diameter`` mm). Whether it was so taken."""
    rack = s.rack_of(ball, ball_diameter + params.rack_gap_mm)
    if (len(rack) < params.rack_min_balls or B.WHITE not in s.before
            or t - s.t0 > params.unseen_strike_s):
        return False
    w = np.asarray(s.before[B.WHITE], float)
    rack = s.rack_of(ball, (1 + params.rack_holes) * ball_diameter + params.rack_gap_mm)
    met = min(sorted(rack), key=lambda b: float(np.linalg.norm(np.subtract(s.before[b], w))))
    t_c = max(t - 1.0 / fps, s.t0 + 1e-4)
    contact = Event(EventType.CONTACT, round(t_c, 4), (B.WHITE, met),
                    confidence=params.rack_contact_confidence)
    s.events.append(contact)
    s.rack_contacts.append(contact)
    s.review.append(f"the cue ball was not followed into the rack: {the_ball(met)}, the "
                    f"rack's ball nearest it, is taken as the ball it hit first ({t_c:.2f} s)")
    if met != ball:
        s.events.append(Event(EventType.CONTACT, round(t_c, 4), (met, ball),
                              confidence=params.rack_contact_confidence))
    return True
