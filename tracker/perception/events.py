"""Events from the tracked table: strokes, contacts, pots, end of stroke -> shot records.

A stroke starts when the cue ball leaves rest fast (a hand placing it moves it slowly, or
carries it while it is hidden); its first contact is the first object ball to leave rest, at
the sub-frame moment the cue ball's path comes within 2R of it; later contacts are found the
same way against the nearest moving ball. Pots come from the tracker. The stroke ends when
every ball has been at rest for ``SETTLE_S``; its shot record then goes to the referee.
:meth:`StrokeDetector.preview` gives the record a stroke would have if it ended now (for the
early call, after ``EARLY_CALL_S`` of rest).
"""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from calibration.table import TableGeometry
from tracker import balls as B
from tracker.perception.cushions import CushionView, cushion_error, cushion_hits
from tracker.perception.sightings import (
    contacts_by_paths,
    lost_near_pockets,
    order_first_contacts,
    unseen_contact_note,
    unseen_first_contact,
)
from tracker.perception.strike import (
    before_strike,
    came_to_nothing,
    carried_by_hand,
    detection_jumped,
    held_unseen,
    met_in_rack,
    pushed_from_rest,
    struck_while_hidden,
)
from tracker.perception.stroke import (
    Stroke,
    StrokeParams,
    after_first_contact,
    moved_between_strokes,
)
from tracker.perception.track import TableState
from tracker.perception.unseen_stroke import stroke_from_pot
from tracker.records.shot import Event, EventType, Shot
from tracker.words import balls_words, cushion_words, the_ball

#: The defaults (:class:`StrokeParams`); the two times the referee and the run use, by name.
STROKE_PARAMS = StrokeParams()
SETTLE_S = STROKE_PARAMS.settle_s
EARLY_CALL_S = STROKE_PARAMS.early_call_s
#: How many of the last frames the detector keeps (:attr:`StrokeDetector.recent`): the strike's
#: frame, the two before it, and two more for a cue ball unseen just before it is seen moving.
RECENT_FRAMES = 5


class StrokeDetector:
    """Turns the sequence of :class:`TableState` into :class:`Shot` records."""

    def __init__(self, table: TableGeometry, fps: float, position_error_mm: float = 2.0,
                 touching_gap_mm: float = 0.5, cushion_view: CushionView | None = None,
                 params: StrokeParams = STROKE_PARAMS):
        #: the tunables (:class:`tracker.perception.stroke.StrokeParams`)
        self.params = params
        self.table = table
        self.fps = fps
        self.position_error_mm = position_error_mm
        #: how finely the camera sees each cushion (None: ``position_error_mm`` everywhere)
        self.cushion_view = cushion_view
        self.touching_gap_mm = touching_gap_mm
        self.prev: TableState | None = None
        self.stroke: Stroke | None = None
        self.n_shots = 0
        self.last_rest_pos: dict[str, tuple[float, float]] = {}
        self.white_rest_frames = 0
        #: how many frames in a row the cue ball has been held at its place unseen
        self.white_hidden_frames = 0
        #: the last frames fed (the newest last; :data:`RECENT_FRAMES`)
        self.recent: list[TableState] = []
        #: the frame before the cue ball, hidden at rest a while, was seen again away from its
        #: place, and its rest count then: taken as put down by hand unless the next picture
        #: shows it going on as a struck ball (:meth:`_struck_while_hidden`)
        self.white_reappeared: tuple[TableState, int] | None = None
        #: the last stroke ended with its cue ball out of sight: its rest counts only from when
        #: it is seen again (it may be rolling on unseen: TV under 30 degrees, seed 2)
        self.white_lost = False

        self.since_rest: list[TableState] = []  #: frames since all rested (unseen_stroke.py)
        #: (t s, position mm) where the settled cue ball last left rest, while it moves
        self.white_left: tuple[float, tuple[float, float]] | None = None
        #: (time s, position mm) where the settled cue ball was last seen, while it is unseen
        self.white_gone: tuple[float, tuple[float, float]] | None = None
        #: review notes gathered between strokes, for the next shot record
        self.pending_review: list[str] = []
        #: where each ball stood at the end of the last stroke (mm), to see balls moved between
        #: strokes; balls taken off or put back by hand since are dropped from it
        self.after_last: dict[str, tuple[float, float]] = {}
        #: the referee is putting balls back (after a miss) until the next stroke: balls moved
        #: between strokes are his doing, not noted
        self.replacing = False

    def update(self, st: TableState) -> Shot | None:
        """Feed one frame; returns a shot record when a stroke has just ended."""
        prev = self.prev
        self.prev = st
        self.recent = (self.recent + [st])[-RECENT_FRAMES:]
        if prev is None:
            return None
        if self.stroke is None:
            self._between_strokes(prev, st)
            return None
        self.since_rest = []
        return self._during_stroke(prev, st)

    # --- the public interface for the run (the referee and the pipeline) -------------------
    @property
    def under_way(self) -> bool:
        """Whether a stroke is under way (struck, not yet ended)."""
        return self.stroke is not None

    @property
    def quiet_since(self) -> float | None:
        """Since when (s) every ball of the stroke under way has been at rest, balls about to
        be potted aside (:meth:`stirring`); None: no stroke, or a ball still moving."""
        return self.stroke.quiet_since if self.stroke is not None else None

    @property
    def last_state(self) -> TableState | None:
        """The last tracked frame fed (:meth:`update`), None before the first."""
        return self.prev

    def note_for_review(self, note: str) -> None:
        """A review note for the stroke under way, or when none is, for the next one."""
        if self.stroke is not None:
            self.stroke.review.append(note)
        else:
            self.pending_review.append(note)

    def note_for_next_stroke(self, note: str) -> None:
        """A review note for the next stroke to start."""
        self.pending_review.append(note)

    # --- between strokes: waiting for a strike ---------------------------------------------
    def _between_strokes(self, prev: TableState, st: TableState) -> None:
        """One frame with no stroke under way: balls moved by hand noted, the cue ball's rest
        counted, and a stroke started when it is struck (seen, or unseen), or taken from an
        object ball's pot when its strike was hidden."""
        if stroke_from_pot(self, prev, st):
            return
        if not st.moving:
            self._moved_between_strokes(st)
            self.last_rest_pos = dict(st.pos)
        # the cue ball at rest (hidden by the player addressing it counts as at rest); a
        # hand moving it, or its return from a pocket, starts the count again
        self.white_lost &= B.WHITE not in st.visible
        if (B.WHITE in st.pos and B.WHITE not in st.moving and B.WHITE not in st.appeared
                and not self.white_lost):
            self.white_rest_frames += 1
        elif B.WHITE not in st.moving:
            self.white_rest_frames = 0
        if B.WHITE not in st.moving:
            self.white_left = None
        elif self.white_left is None and B.WHITE in prev.pos:
            self.white_left = (prev.t, prev.pos[B.WHITE])
        settled_before = self.white_rest_frames > int(self.params.white_rest_s * self.fps)
        if B.WHITE in st.visible or B.WHITE not in st.pos or st.moving & {B.WHITE}:
            self.white_gone = None
        elif self.white_gone is None and B.WHITE in prev.visible and settled_before:
            self.white_gone = (prev.t, st.pos[B.WHITE])
        if self._unseen_strike(prev, st):
            return
        hidden_long = self.white_hidden_frames > self.params.hidden_hand_s * self.fps
        self.white_hidden_frames = (self.white_hidden_frames + 1 if B.WHITE in st.pos
                                    and B.WHITE not in st.visible else 0)
        if B.WHITE in st.moving and B.WHITE in prev.pos and B.WHITE in st.pos:
            if hidden_long and B.WHITE not in prev.visible and B.WHITE not in st.emerged:
                # picked up and now put down by hand elsewhere (ball in hand), not struck,
                # unless the next picture shows it going on struck (_struck_while_hidden)
                self.white_reappeared = (prev, self.white_rest_frames)
                self.white_rest_frames = 0
                return
            self._strike(prev, st)

    def _strike(self, prev: TableState, st: TableState) -> None:
        """The cue ball moves at ``st``: start a stroke if it was struck (fast enough, or
        gently into a ball, from rest, everything else at rest just before)."""
        v = (np.array(st.pos[B.WHITE]) - np.array(prev.pos[B.WHITE])) * self.fps
        # struck while hidden at rest (a player addressing it): followed again from its
        # second sighting out of hiding; the first says its speed and the strike's time
        hidden = st.emerged.get(B.WHITE)
        seen, self.white_reappeared = self.white_reappeared, None
        if hidden is None and seen is not None and seen[0] in self.recent[-4:-2]:
            hidden = struck_while_hidden(seen[0], prev, st, self.fps, self.params)
            if hidden is not None:
                self.white_rest_frames = seen[1]  # its rest before it hid counts
        if hidden is not None:
            v = ((np.array(st.pos[B.WHITE]) - np.array(hidden[1]))
                 / max(st.t - hidden[0], 1e-6))
        # the cue ball may hit a ball within the first frame, and that ball may show
        # its motion a frame before the cue ball does: what matters is that
        # everything was at rest just before
        first = before_strike(self.recent, prev)
        others_still = not self._stirred(first) or not self._stirred(prev)
        if prev.moving and not first.moving:
            prev = first
        settled = self.white_rest_frames >= int(self.params.white_rest_s * self.fps)
        speed = float(np.linalg.norm(v))
        soft = speed <= self.params.strike_speed_mm_s
        if soft and B.WHITE in first.pos:
            # it may stop dead at the contact: its speed over the frame before counts
            speed = max(speed, float(np.linalg.norm(np.subtract(prev.pos[B.WHITE],
                                                                first.pos[B.WHITE]))) * self.fps)
        struck = not soft or (speed > self.params.soft_strike_speed_mm_s
                              and bool(st.moving - {B.WHITE}))
        if struck and others_still and settled:
            self._start_stroke(prev, st, hidden, soft, speed)

    def _stirred(self, st: TableState) -> set[str]:
        """The balls but the cue ball moving at ``st`` and seen more than ``still_jump_mm``
        from where they last rested (a detection that jumped a few mm is not a ball set
        moving), but those held unseen at one place over the last frames (:func:`held_unseen`)."""
        rest, jump = self.last_rest_pos, self.params.still_jump_mm
        return {b for b in st.moving - {B.WHITE}
                if (b not in rest or b not in st.pos
                    or float(np.linalg.norm(np.subtract(st.pos[b], rest[b]))) > jump)
                and not held_unseen(self.recent, b)}

    def _start_stroke(self, prev: TableState, st: TableState,
                      hidden: tuple[float, tuple[float, float]] | None, soft: bool,
                      speed: float) -> None:
        """Start the stroke struck between ``prev`` and ``st`` (``hidden``: struck while
        hidden, ``TableState.emerged``; ``soft``: a gentle strike; ``speed`` mm/s): its
        strike, the frames so far recorded, the contacts of balls already moving."""
        before = dict(self.last_rest_pos) or dict(prev.pos)
        before[B.WHITE] = prev.pos[B.WHITE]
        t0 = prev.t + 0.5 / self.fps
        if hidden is not None:
            t0 = hidden[0] - 0.5 / self.fps  # within the frame before it was seen
        elif soft and self.white_left is not None:
            # it has been rolling gently since it left rest
            t0 = min(t0, self.white_left[0] + 0.5 / self.fps)
            before[B.WHITE] = self.white_left[1]
        self.white_rest_frames = 0
        self.stroke = Stroke(t0=t0, before=before, review=self.pending_review,
                              white_speeds=[speed])
        self.pending_review, self.replacing = [], False
        self.stroke.events.append(Event(EventType.STRIKE, round(self.stroke.t0, 4), (B.WHITE,)))
        for r in self.recent[self.recent.index(prev):] if prev in self.recent else [prev, st]:
            self.stroke.record(r)
        if hidden is not None:
            self._out_of_hiding(*hidden, before[B.WHITE])
        for r in self.recent[self.recent.index(prev) + 1:] if prev in self.recent else [st]:
            for b in self._in_order(r.moving - {B.WHITE}, r):
                if b not in self.stroke.started:
                    self.stroke.started[b] = r.t
                    self._contact(b, r)

    # --- during a stroke --------------------------------------------------------------------
    def _during_stroke(self, prev: TableState, st: TableState) -> Shot | None:
        """One frame of the stroke under way: its tracks, contacts, pots, departures; ended
        (its record returned) once every ball has rested ``SETTLE_S`` (a ball about to be
        potted counted at rest: ``StrokeParams.settle_through_pots``) and no pot is pending."""
        s = self.stroke
        assert s is not None
        self.stroke.record(st)
        s.white_seen |= B.WHITE in st.visible
        if carried_by_hand(s, prev, st, self.fps, self.params):
            # a hand carrying the cue ball, not a stroke: wait for it to be set down
            self.stroke = None
            self.white_rest_frames = 0
            return None
        if detection_jumped(s, st, self.fps, self.params):
            # its detection jumped to something beside it: no stroke; it rests where now seen
            self.stroke = None
            self.white_rest_frames = 0
            return None
        for b in self._in_order(st.moving - {B.WHITE}, st):
            if b not in s.started:
                s.started[b] = st.t
                self._contact(b, st)
        self._pots_and_departures(s, st)
        if self.stirring(st):
            s.quiet_since = None
        elif s.quiet_since is None:
            s.quiet_since = st.t
        still = not (self.stirring(st) if self.params.settle_through_pots else st.moving)
        if still:
            s.rest_since = s.rest_since if s.rest_since is not None else st.t
            if st.t - s.rest_since >= self.params.settle_s and not st.moving:
                if came_to_nothing(s, st, self.params.push_min_travel_mm):
                    self.stroke = None  # the cue over a ball beside it, not a push
                    return None
                return self._finish(st)
        else:
            s.rest_since = None
        return None

    def _pots_and_departures(self, s: Stroke, st: TableState) -> None:
        """The pots and departures from the table of ``st`` (a ball called off the table
        that is seen again before the stroke ends was hidden: its departure dropped)."""
        for ball, pocket, t in st.pots:
            s.events.append(Event(EventType.POT, round(t, 4), (ball,), pocket=pocket))
        for ball, t, cushion in st.off:
            s.events.append(Event(EventType.OFF_TABLE, round(t, 4), (ball,), cushion=cushion or None,
                                  confidence=self.params.off_table_confidence))
        for ball in set(st.appeared) - {b for b, _, _ in st.off}:
            # a ball called off the table that is seen again before the stroke ends was hidden
            # (not one put on its spot by the referee the moment it is called off)
            gone = [e for e in s.events if e.type == EventType.OFF_TABLE and e.ball == ball]
            if gone:
                s.events = [e for e in s.events if e not in gone]
                s.review.append(f"{the_ball(ball)} disappeared at the {cushion_words(gone[0].cushion)} "
                                f"at {gone[0].t:.2f} s but came back: it did not leave the table")

    @staticmethod
    def stirring(st: TableState) -> set[str]:
        """The balls moving in ``st`` but those about to be potted (vanished moving at a
        pocket's mouth, not back: the tracker confirms the pot after ``pot_confirm_s``)."""
        return st.moving - {b for b, _, _ in st.pending_pots}

    def resting_for(self, t: float) -> float | None:
        """How long (s) every ball has been at rest at time ``t`` during a stroke, balls about
        to be potted aside (:meth:`stirring`) (None: no stroke under way, or a ball still
        moving)."""
        s = self.stroke
        if s is None or s.quiet_since is None:
            return None
        return t - s.quiet_since

    def preview(self, st: TableState) -> Shot:
        """The record the stroke under way would have if it ended at ``st``, the balls about
        to be potted (``st.pending_pots``) potted (the stroke itself goes on: this detector
        is not changed)."""
        assert self.stroke is not None
        keep = {id(self.table): self.table, id(self.cushion_view): self.cushion_view}
        ahead = copy.deepcopy(self, keep)
        gone = {b for b, _, _ in st.pending_pots}
        for ball, pocket, t in st.pending_pots:
            ahead.stroke.events.append(Event(EventType.POT, round(t, 4), (ball,), pocket=pocket))
        if gone:
            st = replace(st, pos={b: p for b, p in st.pos.items() if b not in gone},
                         moving=st.moving - gone, pending_pots=[])
        return ahead._finish(st)

    def _in_order(self, balls: set[str], st: TableState,
                  white: tuple[float, float] | None = None) -> list[str]:
        """Balls that left rest in the same frame, nearest first to the cue ball (``white``,
        or where it is in ``st``), then by name: which of them it reached first, and a
        processing order that does not depend on the process's string hashing."""
        w = white if white is not None else st.pos.get(B.WHITE)
        rest = self.stroke.before if self.stroke is not None else self.last_rest_pos

        def key(b: str) -> tuple[float, str]:
            p = rest.get(b, st.pos.get(b))
            d = float(np.linalg.norm(np.subtract(p, w))) if p is not None and w is not None else 0.0
            return d, b

        return sorted(balls, key=key)

    def _unseen_strike(self, prev: TableState, st: TableState) -> bool:
        """Start a stroke whose cue ball was never seen moving: it vanished from rest (a
        streak too faint to detect) and, within ``unseen_strike_s``, an object ball within its
        reach leaves rest with nothing moving the frame before. The strike and the first
        contact (the first ball to move) are inferred, with confidences below one and a note."""
        if prev.moving or not (st.moving - {B.WHITE}):
            return False
        pushed = self.white_gone is None
        if pushed and not self._pushed(prev, st):
            return False
        t_seen, w = self.white_gone or (prev.t, st.pos[B.WHITE])
        dt = st.t - t_seen
        movers = self._in_order(st.moving - {B.WHITE}, st, w)
        reach = self.table.ball_diameter + (self.params.push_reach_mm if pushed else
                                            self.params.max_cue_speed_mm_s * dt)
        rest = self.last_rest_pos
        if dt > self.params.unseen_strike_s or not pushed_from_rest(w, movers, rest, reach):
            return False
        before = dict(rest) or dict(prev.pos)
        before[B.WHITE] = w
        t0 = t_seen + 0.5 / self.fps
        self.white_rest_frames = 0
        self.white_gone = None
        how = ("it was seen standing" if pushed else f"it vanished from its place at {t_seen:.2f} s")
        note = (f"the cue ball was not seen moving ({how}): a stroke is taken from "
                f"{balls_words(movers)} starting to move at {st.t:.2f} s; check that a stroke was played")
        self.stroke = Stroke(t0=t0, before=before, review=[*self.pending_review, note],
                              white_speeds=[float("inf")] * (self.params.carry_frames + 1),
                              white_seen=False, pushed=pushed)
        self.pending_review, self.replacing = [], False
        self.stroke.events.append(Event(EventType.STRIKE, round(t0, 4), (B.WHITE,),
                                        confidence=self.params.unseen_strike_confidence))
        self.stroke.record(prev)
        self.stroke.record(st)
        for b in movers:
            self.stroke.started[b] = st.t
            self._contact(b, st)
        return True

    def _pushed(self, prev: TableState, st: TableState) -> bool:
        """Whether ``st`` may be a push the cue ball hardly moved in: settled, seen standing,
        balls leaving rest now (beyond ``still_jump_mm``), none the picture before."""
        settled = self.white_rest_frames >= int(self.params.white_rest_s * self.fps)
        return (settled and B.WHITE in st.visible and B.WHITE in st.pos and B.WHITE not in
                st.moving and bool(self._stirred(st)) and not self._stirred(prev))

    def _out_of_hiding(self, t1: float, p1: tuple[float, float], rest: tuple[float, float]) -> None:
        """The new stroke's cue ball was struck while hidden at ``rest`` and first seen again
        at ``p1`` (mm) at ``t1`` (s) (``TableState.emerged``): its track is its place until
        the frame before, then that sighting (the tracker held its place until now)."""
        s = self.stroke
        assert s is not None
        later = [x for x in s.track.get(B.WHITE, []) if x[0] > t1 + 1e-6]
        s.track[B.WHITE] = [(t1 - 1.0 / self.fps, rest), (t1, p1), *later]

    def _contact(self, ball: str, st: TableState) -> None:
        """The ball left rest at this frame: who hit it, and when (sub-frame)."""
        s = self.stroke
        assert s is not None
        rest = np.array(s.before.get(ball, st.pos[ball]))
        two_r = self.table.ball_diameter
        t_prev = st.t - 1.0 / self.fps
        best: tuple[float, str, float] | None = None
        nearest: tuple[float, str, float] | None = None  # (closest approach mm, ball, t)
        # a ball that has left the table (potted, off) hits nothing more: its track's last
        # place, by a pocket, is no path
        gone = {e.ball for e in s.events if e.type in (EventType.POT, EventType.OFF_TABLE)
                and e.t < t_prev - 1.0 / self.fps}
        for other in [B.WHITE, *s.started]:
            if other == ball or other in gone:
                continue
            # when did the other ball's path come within 2R of this ball's rest position?
            t_c = s.crossing(other, rest, two_r, t_prev - 1.0 / self.fps, st.t, self.fps,
                             self.params.contact_slack_mm)
            if t_c is None:
                approach = s.closest(other, rest, t_prev - 2.0 / self.fps, st.t)
                if approach is not None and (nearest is None or approach[0] < nearest[0]):
                    nearest = (approach[0], other, approach[1])
                continue
            gap = abs(t_c - t_prev)
            if best is None or gap < best[0]:
                best = (gap, other, t_c)
        confidence, note = 1.0, ""
        if (best is None and nearest is not None
                and nearest[0] <= two_r + self.params.contact_infer_mm):
            d_min, other, t_c = nearest
            confidence = round(float(np.clip(1.0 - (d_min - two_r - self.params.contact_slack_mm)
                                             / self.params.contact_infer_mm, 0.2, 0.9)), 2)
            best = (0.0, other, t_c)
            note = (f"{the_ball(other)} seems to have hit {the_ball(ball)} at {t_c:.2f} s, but its "
                    f"path passed {d_min - two_r:.0f} mm from touching it: check that they touched")
            s.review.append(note)
        prev = self.recent[-2] if len(self.recent) >= 2 else st
        in_view = all(b in st.visible and b in prev.visible
                      for b in [B.WHITE, *s.started] if b != ball and b in st.pos)
        white_hit = any(e.type == EventType.CONTACT and B.WHITE in e.balls for e in s.events)
        if best is None and not white_hit and met_in_rack(self.stroke, ball, st.t, self.fps, self.table.ball_diameter, self.params):
            return
        if best is None and not in_view and not white_hit and B.WHITE not in st.visible:
            # the cue ball is not in view (struck too fast to be seen) and has hit nothing yet:
            # the first ball to move is taken as its first contact
            t_c = max(st.t - 1.0 / self.fps, s.t0 + 1e-4)
            s.events.append(Event(EventType.CONTACT, round(t_c, 4), (B.WHITE, ball),
                                  confidence=self.params.unseen_contact_confidence))
            s.review.append(unseen_contact_note(ball, t_c))
            return
        if best is None:
            # moved with nothing near it: a disturbance or an undetected contact (decided when
            # the stroke ends, from where it stood and where it stops)
            s.loose[ball] = (st.t, in_view)
            return
        _, other, t_c = best
        t_c = max(t_c, s.t0 + 1e-4)  # no contact before the strike
        contact = Event(EventType.CONTACT, round(t_c, 4), (other, ball), confidence=confidence)
        s.events.append(contact)
        if note:
            s.contact_notes.append((contact, note))

    def cushion_hits(self, track: list[tuple[float, tuple[float, float]]],
                     ball: str) -> list[Event]:
        """Cushion contacts of one ball from its track [(t s, (x, y) mm)] over a stroke
        (:func:`tracker.perception.cushions.cushion_hits`, within this camera's error)."""
        return cushion_hits(self.table, track, ball, lambda face, at: cushion_error(
            self.cushion_view, self.position_error_mm, face, at, self.params.cushion_error_px))

    def touching_doubts(self, before: dict[str, tuple[float, float]]) -> list[str]:
        """Review notes for balls whose gap to the cue ball at the strike is too close to the
        touching threshold to call from the measured positions: the gap of two centres each
        known to ``position_error_mm`` is known to about twice that. The engine decides
        touching from the positions; these strokes are marked for a referee to confirm."""
        if B.WHITE not in before:
            return []
        w = np.array(before[B.WHITE])
        tol = 2.0 * self.position_error_mm
        out = []
        for b, p in before.items():
            if b == B.WHITE:
                continue
            gap = float(np.linalg.norm(np.array(p) - w)) - self.table.ball_diameter
            if abs(gap - self.touching_gap_mm) <= tol:
                out.append(f"the cue ball and {the_ball(b)} are {gap:.1f} mm apart, too close to "
                           "tell from the picture whether they touch (within "
                           f"{tol:.1f} mm of {self.touching_gap_mm} mm): check if touching")
        return out

    def end_now(self, note: str) -> Shot | None:
        """End the stroke in progress with what was seen so far (the picture cut away from
        the table, or the video ended, before every ball came to rest), ``note`` added for
        review; None when no stroke is in progress."""
        if self.stroke is None or self.prev is None:
            return None
        self.stroke.review.append(note)
        return self._finish(self.prev)

    def referee_replacing(self) -> None:
        """The operator chose to have the balls replaced (after a miss): until the next stroke,
        balls moved between strokes are the referee's doing and are not noted for review."""
        self.replacing = True

    def _moved_between_strokes(self, st: TableState) -> None:
        """Note, for the next shot, balls at rest that stand elsewhere than where the last
        stroke left them, with no stroke made (a player's sleeve, or the referee's hand),
        unless the referee is replacing balls."""
        if self.replacing:
            self.after_last = dict(st.pos)
            return
        note = moved_between_strokes(self.after_last, st, self.params.between_strokes_move_mm)
        if note is not None:
            self.pending_review.append(note)

    def _finish(self, st: TableState) -> Shot:
        s = self.stroke
        assert s is not None
        contacts_by_paths(s, self.table.ball_diameter, self.params, self.fps)
        s.untouched(st, self.params.stayed_mm, self.params.stayed_px)
        unseen_first_contact(s, self.fps, self.params)
        order_first_contacts(s, self.fps, self.params, self.table.ball_diameter)
        s.events.extend(s.disturbances(st, self.params, self.fps, self.table.ball_diameter))
        self.white_lost = B.WHITE not in st.visible
        if not s.white_seen and not any(e.ball == B.WHITE for e in s.events
                                        if e.type in (EventType.POT, EventType.OFF_TABLE)):
            s.review.append("the cue ball was not seen after the strike: if it is not where it "
                            "stood, it was potted or left the table (a foul); check")
        for e in [e for e in s.events if e.type == EventType.OFF_TABLE]:
            if s.hit_after(e.ball, e.t):
                # balls were hit after it vanished with no ball seen reaching them: it came back
                # unseen (a fast ball off a cushion near the camera, lost in its blur)
                s.events.remove(e)
                s.review.append(f"{the_ball(e.ball)} disappeared at the {cushion_words(e.cushion)} at "
                                f"{e.t:.2f} s but balls were hit after that: not called off the "
                                "table; check")
            else:
                s.review.append(f"{the_ball(e.ball)} disappeared at the {cushion_words(e.cushion)} at "
                                f"{e.t:.2f} s and was not seen again: off the table? Check")
        self.stroke = None
        self.n_shots += 1
        for ball, track in s.track.items():
            moved = [x for x in track if x[0] >= s.t0 - 1e-6]
            s.events.extend(self.cushion_hits(moved, ball))
        events = sorted(after_first_contact(s.events), key=lambda e: e.t)
        contacts = [e for e in events if e.type == EventType.CONTACT and B.WHITE in e.balls]
        if len(contacts) >= 2 and contacts[1].t - contacts[0].t < self.params.review_simultaneous_s:
            hit = [next((b for b in c.balls if b != B.WHITE), c.ball) for c in contacts[:2]]
            s.review.append(f"the cue ball seemed to hit {balls_words(hit)} at the same moment "
                            f"({(contacts[1].t - contacts[0].t) * 1000:.0f} ms apart): check "
                            "which it hit first")
        events.append(Event(EventType.AT_REST, round(st.t, 4)))
        s.review.extend(lost_near_pockets(s, st, self.table, self.params.lost_near_pocket_mm))
        before = {b: p for b, p in s.before.items()}
        s.review.extend(self.touching_doubts(before))
        after = dict(st.pos)
        self.last_rest_pos = dict(st.pos)
        self.after_last = dict(st.pos)
        return Shot(shot=self.n_shots, events=tuple(events), positions_before=before,
                    positions_after=after, t_start=round(s.t0, 4), t_end=round(st.t, 4),
                    needs_review=tuple(s.review))
