"""A stroke under way: what the stroke detector gathers between a strike and the rest
(:class:`Stroke`), and the questions asked of its tracks (where a ball was when, when a path
came near a ball, whether a ball was alone, which contacts touched nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tracker import balls as B
from tracker.perception.track import TableState
from tracker.records.shot import Event, EventType
from tracker.words import balls_words, the_ball


@dataclass
class Stroke:
    """A stroke under way, as the stroke detector gathers it.

    Attributes:
        t0: the strike's time, s.
        before: where every ball stood before the strike, mm.
        track: per ball, its (time s, (x, y) mm) since the strike's frame.
        started: per ball, when it left rest (s).
        events: the events so far (strike, contacts, pots, departures).
        rest_since: since when every ball has been at rest, s (None: a ball moves).
        review: review notes for its record.
        white_speeds: the cue ball's speeds over its first frames (mm/s; a hand carrying it
            speeds up smoothly).
    """

    t0: float
    before: dict[str, tuple[float, float]]
    track: dict[str, list[tuple[float, tuple[float, float]]]] = field(default_factory=dict)
    started: dict[str, float] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    rest_since: float | None = None
    #: since when every ball has been at rest but those about to be potted (vanished moving
    #: at a pocket's mouth: ``TableState.pending_pots``), s (the early call's rest)
    quiet_since: float | None = None
    review: list[str] = field(default_factory=list)
    white_speeds: list[float] = field(default_factory=list)
    #: balls that left rest with no ball's path near them: ball -> (time s, whether every
    #: ball then moving, the cue ball included, was in view)
    loose: dict[str, tuple[float, bool]] = field(default_factory=dict)
    #: whether the cue ball has been in view since the strike
    white_seen: bool = True
    #: the review note said of a contact inferred from a near pass, by contact
    contact_notes: list[tuple[Event, str]] = field(default_factory=list)

    def record(self, st: TableState) -> None:
        """Add the frame ``st``'s positions to the tracks."""
        for b, p in st.pos.items():
            self.track.setdefault(b, []).append((st.t, p))

    def position_at(self, ball: str, t: float) -> np.ndarray | None:
        """Where ``ball`` was at ``t`` (s) on its track (mm, interpolated; None: no track)."""
        tr = self.track.get(ball)
        if not tr:
            return None
        ts = np.array([x[0] for x in tr])
        ps = np.array([x[1] for x in tr])
        if t <= ts[0]:
            return ps[0]
        return np.array([np.interp(t, ts, ps[:, 0]), np.interp(t, ts, ps[:, 1])])

    def closest(self, other: str, target: np.ndarray, t_a: float,
                 t_b: float) -> tuple[float, float] | None:
        """(distance mm, time s) of the closest approach of ``other``'s path to ``target``
        between ``t_a`` and ``t_b``, or None when it has no track."""
        ts = np.linspace(t_a, t_b, 25)
        best: tuple[float, float] | None = None
        for t in ts:
            p = self.position_at(other, t)
            if p is not None:
                d = float(np.linalg.norm(p - target))
                if best is None or d < best[0]:
                    best = (d, float(t))
        return best

    def crossing(self, other: str, target: np.ndarray, two_r: float, t_a: float,
                 t_b: float, fps: float, slack_mm: float) -> float | None:
        """When (s, between a frame before ``t_a`` and ``t_b``) ``other``'s path first came
        within ``two_r`` + ``slack_mm`` of ``target`` (mm), the crossing of ``two_r``
        interpolated (None: it never did)."""
        ts = np.linspace(t_a - 1.0 / fps, t_b, 25)
        d = []
        for t in ts:
            p = self.position_at(other, t)
            d.append(np.inf if p is None else float(np.linalg.norm(p - target)))
        d = np.array(d)
        inside = np.nonzero(d <= two_r + slack_mm)[0]
        if not len(inside):
            return None
        k = inside[0]
        if k == 0:
            return float(ts[0])
        # linear interpolation of the crossing of 2R
        d0, d1 = d[k - 1], d[k]
        frac = (d0 - two_r) / (d0 - d1) if d0 != d1 else 0.0
        return float(ts[k - 1] + np.clip(frac, 0, 1) * (ts[k] - ts[k - 1]))

    def alone(self, ball: str, until: float, near: float) -> bool:
        """Whether no other ball stood, or passed, within ``near`` (mm) of where ``ball``
        stood before the stroke, up to time ``until`` (s)."""
        s = self
        here = np.asarray(s.before[ball])
        for other, p in s.before.items():
            if other != ball and float(np.linalg.norm(np.asarray(p) - here)) <= near:
                return False
        for other, track in s.track.items():
            if other == ball:
                continue
            pts = np.array([p for t, p in track if t <= until + 1e-6])
            if len(pts) and float(np.min(np.linalg.norm(pts - here, axis=1))) <= near:
                return False
        return True

    def hit_after(self, ball: str, t: float) -> bool:
        """Whether, after ``ball`` vanished at ``t`` (s), it touched a ball, or a ball left rest
        that no seen ball's path reached (as a ball that came back unseen would do)."""
        s = self
        return (any(e.type == EventType.CONTACT and e.t > t and (ball in e.balls or e.confidence < 1)
                    for e in s.events)
                or any(t_l > t for t_l, _ in s.loose.values()))

    def untouched(self, st: TableState, stayed_mm: float) -> None:
        """Drop the contacts of balls that never left their place (``stayed_mm``: :data:`tracker.perception.events.STAYED_MM`): seen at
        rest at ``st`` (the stroke's end) within STAYED_MM of where they stood, and the hitter
        of no contact left. The review note of such a contact goes with it; when it was the
        cue ball's first, a note says so (the first contact is now another)."""
        s = self

        def stayed(ball: str) -> bool:
            return (ball in st.pos and ball in st.visible and ball not in st.moving
                    and ball in s.before and float(np.linalg.norm(
                        np.subtract(st.pos[ball], s.before[ball]))) <= stayed_mm)

        first = min((e for e in s.events if e.type == EventType.CONTACT and B.WHITE in e.balls),
                    key=lambda e: e.t, default=None)
        while True:
            contacts = [e for e in s.events if e.type == EventType.CONTACT]
            hitters = {e.balls[0] for e in contacts}
            drop = [e for e in contacts if e.balls[1] not in hitters and stayed(e.balls[1])]
            if not drop:
                break
            for e in drop:
                s.events = [x for x in s.events if x is not e]
                for c, note in s.contact_notes:
                    if c is e and note in s.review:
                        s.review.remove(note)
        if first is not None and all(e is not first for e in s.events):
            ball = first.balls[1]
            s.review.append(f"{the_ball(ball)} seemed to move as {the_ball(first.balls[0])} passed "
                            f"it at {first.t:.2f} s, but stands where it stood: not taken as hit; "
                            "check which ball the cue ball hit first")


def after_first_contact(events: list[Event]) -> list[Event]:
    """``events`` with a pot or a departure from the table that is timed before the first
    contact of its ball moved just after that contact (1 ms): an object ball struck too hard
    to be seen moving is timed from the frame it was last seen, which can fall a few
    milliseconds before the contact's sub-frame time; it cannot have dropped before it was
    hit."""
    first: dict[str, float] = {}
    for e in events:
        if e.type == EventType.CONTACT:
            for b in e.balls:
                first[b] = min(first.get(b, e.t), e.t)
    out = []
    for e in events:
        if (e.type in (EventType.POT, EventType.OFF_TABLE) and e.ball != B.WHITE
                and e.ball in first and e.t <= first[e.ball]):
            e = replace(e, t=round(first[e.ball] + 0.001, 4))
        out.append(e)
    return out


def moved_between_strokes(after_last: dict[str, tuple[float, float]], st: TableState,
                          move_mm: float) -> str | None:
    """The review note for balls at rest at ``st`` that stand ``move_mm`` or more from where
    the last stroke left them (``after_last``, mm; brought up to date here: balls put back by
    hand or gone dropped, moved ones at their new place), with no stroke made; None: none
    moved."""
    for b in st.appeared:
        after_last.pop(b, None)  # put back by hand (re-spotted, in hand, replaced)
    moved: dict[str, float] = {}
    for b, p in list(after_last.items()):
        if b not in st.pos:
            after_last.pop(b)
            continue
        d = float(np.linalg.norm(np.subtract(st.pos[b], p)))
        if d >= move_mm and b in st.visible:
            moved[b] = d
            after_last[b] = st.pos[b]
    if len(moved) == 1:
        (b, d), = moved.items()
        return (f"{the_ball(b)} moved {d:.0f} mm between strokes (by {st.t:.2f} s) with no "
                "stroke made: touched by a player (a foul), or moved by the referee? Check")
    if moved:
        # several balls at once: more likely a stroke the camera missed than hands
        return (
            f"{len(moved)} balls ({balls_words(sorted(moved))}) moved {min(moved.values()):.0f}-"
            f"{max(moved.values()):.0f} mm between strokes (by {st.t:.2f} s) with no stroke "
            "seen: a stroke the camera missed, or balls moved by hand? Check")
    return None
