"""The stroke detector's tunables (:class:`StrokeParams`), and a stroke under way: what the
detector gathers between a strike and the rest (:class:`Stroke`), and the questions asked of
its tracks (where a ball was when, when a path came near a ball, whether a ball was alone,
which contacts touched nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from tracker import balls as B
from tracker.perception.cushions import CUSHION_ERROR_PX
from tracker.perception.track import TableState
from tracker.records.shot import Event, EventType
from tracker.words import balls_words, not_hit_note, the_ball


@dataclass(frozen=True)
class StrokeParams:
    """The stroke detector's tunables (:class:`tracker.perception.events.StrokeDetector`), each
    with its reason; times in s, distances in mm, speeds in mm/s."""

    #: The cue ball leaving rest faster than this (mm/s) is a stroke, not a hand.
    strike_speed_mm_s: float = 350.0
    #: A softer start still is a stroke when another ball starts moving with it (the cue ball
    #: rolled gently into a ball beside it: a hand does not set other balls moving), mm/s.
    soft_strike_speed_mm_s: float = 80.0
    #: The cue ball must have stood still this long before a stroke (a hand placing it never
    #: lets it rest first), s.
    white_rest_s: float = 0.3
    #: A "stroke" whose cue ball keeps speeding up over its first frames, before it touches
    #: anything, is a hand carrying it (the referee replacing it): a struck ball only slows down.
    #: Frames watched, and the growth of speed (ratio, plus mm/s for the noise) that vetoes it.
    carry_frames: int = 4
    carry_speedup: tuple[float, float] = (1.3, 150.0)
    #: ... and it must still be speeding up after its second frame by this ratio, plus mm/s: a
    #: strike falls anywhere between two frames, so a struck ball's first frame may show only a
    #: fraction of a frame's motion (a slow first "speed"), but from its second frame on it only
    #: slows down (a ball struck high gains a few per cent while it slides), where a hand keeps
    #: accelerating it.
    carry_late_speedup: tuple[float, float] = (1.1, 40.0)
    #: ... unless it already goes this fast over its first whole frame (mm/s): a hand setting a
    #: ball down or carrying it does not reach it within a frame or two of lifting it, a struck
    #: ball does at once (on a TV view the far end's coarse positions make a struck ball's
    #: speed jitter by a third from frame to frame, which the speed-up test alone would read as a
    #: hand: real broadcast clips 7 and 11).
    hand_start_speed_mm_s: float = 2000.0
    #: A struck cue ball that touches nothing slows at most this fast (cloth friction while it
    #: slides, about 2 m/s^2, with a margin), mm/s^2: one that moved in a single picture (by more
    #: than ``still_jump_mm``), faster than this stops within a picture, then stood, with
    #: nothing else moved, was no ball struck but its detection jumping (the player's body hiding it and something white beside it read as it:
    #: TV lens clips under 30 degrees, seed 0, 66 mm in one picture at 2.48 s, an invented "no
    #: contact" foul before the break-off).
    free_decel_mm_s2: float = 5000.0
    #: A cue ball hidden at rest longer than this (picked up: ball in hand after a pool foul),
    #: then seen again away from its place, moving, without the tracker having seen it come
    #: out of hiding struck (``TableState.emerged``), is being put down by hand, not struck:
    #: its rest is counted again from there. The tracker follows a ball struck while hidden
    #: for more than its ``relocate_frames`` (5 frames, 0.2 s at 25 fps) through ``emerged``;
    #: shorter hidings (a cue passing over it) are strikes as before, s.
    hidden_hand_s: float = 0.3
    #: ... but one seen again already going on along one line at least this fast (mm/s, on its
    #: second sighting) was struck while hidden, not put down: a player addressing it from
    #: behind, between a TV camera and the ball, hides it for a second before a break-off
    #: (TV lens clips, 30-45 degrees, seed 2: hidden 0.9 s, first seen 186 mm on at 4.6 m/s).
    #: A hand setting a ball down lets it stand (the tracker's ``emerge_far_speed_mm_s``).
    hidden_strike_speed_mm_s: float = 1500.0
    #: ... its second step within this angle of its first (a struck ball runs straight), deg.
    hidden_strike_cone_deg: float = 20.0
    #: A ball the tracker calls moving at a strike, but seen within this many mm of where it
    #: rested, does not stop the strike from being a stroke (everything else must be at rest
    #: before a stroke): its detection jumped (a re-measure of a ball at rest, a neighbour's
    #: shadow), it was not set moving. A ball at rest in the synthetic pool world jumped 9 mm
    #: at the far end of an overhead view the frame before a strike, and the stroke was
    #: missed (bench/pool_synth.py eight-ball overhead seed 1), mm.
    still_jump_mm: float = 15.0
    #: All balls at rest this long ends the stroke, s.
    settle_s: float = 0.6
    #: Count a ball that vanished moving at a pocket's mouth (``TableState.pending_pots``) as
    #: at rest for ``settle_s`` from the moment it vanished, not from when the tracker confirms
    #: the pot ``pot_confirm_s`` later; the stroke still ends only once no pot is pending (a
    #: ball seen again moves, and the rest starts over). When a pot is the stroke's last
    #: motion this calls it ``pot_confirm_s`` (0.4 s) sooner, with the same record: the
    #: bundled sample's worst call came 1.0 s after its balls stopped (issue 28, hallcall).
    settle_through_pots: bool = True
    #: All balls at rest (by the tracker's measure) this long and the stroke's call is given
    #: early, from the record the stroke would have if it ended then
    #: (:meth:`tracker.perception.events.StrokeDetector.preview`);
    #: the stroke still ends after ``SETTLE_S``, and the call made then is the one that counts
    #: (said again, corrected, only when it differs), s.
    early_call_s: float = 0.1
    #: Contacts fitted closer in time than this are reported for review (simultaneous?), s.
    review_simultaneous_s: float = 0.01
    #: The cue ball's first two contacts fitted less than a picture apart (both balls left
    #: rest in the same picture, or the cue ball's path, drawn straight between pictures, cut
    #: the corner it turned at the first) are ordered by when each ball left where it stood,
    #: its distance from there over its first ``depart_sightings`` sightings fitted back to
    #: zero (a struck ball leaves at once at its full speed), when both balls left faster than
    #: ``depart_min_speed_mm_s`` and the two moments differ by more than ``depart_margin_s``
    #: (bench/pool_synth.py eight-ball side seed 3 stroke 4: the cue ball met the 10 at
    #: 31.961 s and the 8 at 31.996 s, its path drawn from its place before the strike across
    #: the picture it was missed in passed the 8 first; fitted back, the 10 left at 31.959 s
    #: and the 8 at 31.994 s). Sightings, mm/s, s.
    depart_sightings: int = 3
    depart_min_speed_mm_s: float = 100.0
    depart_margin_s: float = 0.005
    #: A ball's path within 2R plus this of a ball that then leaves rest touched it, mm.
    contact_slack_mm: float = 12.0
    #: When no path came that close (far balls in a TV view are known to a few cm, and a fast
    #: ball's blurred centre lags), the nearest path within 2R plus this is taken as the contact,
    #: with a confidence below one and a note for review, mm.
    contact_infer_mm: float = 80.0
    #: How sure a ball that vanished at a cushion and never came back has left the table (it was
    #: not seen going: marked for review).
    off_table_confidence: float = 0.7
    #: A ball that moved with no ball's path near it is disturbed (a foul by the striker) when it
    #: was alone (no ball at rest or moving within 2R + ``contact_infer_mm`` of it before it moved),
    #: is seen at rest at the end of the stroke, and ended at least this far from where it stood,
    #: mm (an occluded ball's detection shifts while covered, then comes back).
    disturb_min_mm: float = 20.0
    #: ... and at most this far: a hand, a cue or a sleeve nudges a ball; a ball sent further was
    #: struck by a ball the camera did not follow (a cue ball lost in the far end of a TV view), mm.
    disturb_max_mm: float = 300.0
    #: How sure such a disturbance is (the touch itself, by a hand, cue or sleeve, is not seen).
    disturb_confidence: float = 0.8
    #: A settled cue ball that vanishes (struck too fast to be seen: a faint streak) and, within
    #: this time, is followed by an object ball leaving rest with nothing else moving before, was
    #: struck: the stroke is inferred, s.
    unseen_strike_s: float = 0.5
    #: The fastest a struck cue ball travels, mm/s: the object ball must be within reach of it.
    #: A hard pool break sends the cue ball at 9-13 m/s (a professional's up to about 15 m/s;
    #: the synthetic pool world's 7 m/s cue gives it 11.8 m/s: bench/pool_synth.py
    #: --break-speed 7, where 8 m/s here missed every break), a snooker break-off about 7.
    max_cue_speed_mm_s: float = 15000.0
    #: A ball taken to have left rest at a contact that, when the stroke ends, stands within this
    #: many mm of where it stood and set no ball moving itself was not touched: on a TV view a ball
    #: passing in front of a ball at rest hides part of it, and the rest ball's centre jumps a
    #: few pixels (tens of mm at the far end) for a frame or two, which the tracker reads as it
    #: leaving rest; a struck ball moves, or (frozen against another) passes its motion on. A ball
    #: no stroke touched ends within 1.1 mm of where it stood in 95 % of cases, 2.4 mm in 99 %;
    #: the cue ball's real first object balls moved at least 8 mm, the four passed by and taken
    #: for its first 0.5-1.1 mm (TV bot frames, bench/first_contact.py broadcast 5 90 at
    #: e64125c), mm.
    stayed_mm: float = 2.5
    #: ... or within this many pixels of the picture at the ball, where that is more: at the far
    #: end of a long lens 1 px is 8-10 mm, and a ball at rest there ends a few mm from where it
    #: stood untouched (TV lens clips, 30-45 degrees, seed 0: the black 4.0 mm, 0.45 px, taken
    #: for the break-off's first contact, "hit the black first").
    stayed_px: float = 0.5
    #: A ball that left rest with no tracked path near it is taken as hit by the cue ball (or a
    #: ball moving before it) whose sightings, joined by straight lines across the pictures it
    #: was missed in, passed within 2R plus ``contact_slack_mm`` of where it stood in this time
    #: before it moved: a fast cue ball lost in its blur for a few pictures (4 m/s is 160 mm a
    #: picture) has a track that stands still and jumps (overhead seed 1 of
    #: bench/tv_lens_clips.py, stroke 3: "no contact" called), s
    #: (:func:`tracker.perception.sightings.path_contact`).
    path_contact_unseen_s: float = 0.4
    #: How sure such a contact is (its moment is inferred across unseen pictures).
    path_contact_confidence: float = 0.9
    #: A ball that moved in the stroke and is still out of sight at its end, last seen this
    #: close to a pocket's mouth, is noted for review (not called potted: it vanished short of
    #: the mouth at its speed, :attr:`tracker.perception.trackstate.TrackerConfig.pot_reach_s`),
    #: mm.
    lost_near_pocket_mm: float = 200.0
    #: How sure an inferred strike, and a first contact taken as "the first ball to move", are.
    unseen_strike_confidence: float = 0.7
    unseen_contact_confidence: float = 0.5
    #: A ball at rest within a ball's width plus this (mm) of the settled cue ball, seen leaving
    #: rest with nothing moving the picture before while the cue ball is seen standing, was set
    #: moving by a soft stroke whose cue ball moved too little to be seen moving (TV lens clips,
    #: 30-45 degrees, seed 1: the white pushed 17 mm into the pack, within its rest jitter at the
    #: far end; the stroke was lost and 9 reds "moved between strokes").
    push_reach_mm: float = 40.0
    #: ... such a stroke stands only if a ball it set moving ends at least this far (mm) from
    #: where it stood (or leaves the table): the cue passing over a ball beside the cue ball
    #: moves its detection a few pictures, and it stays where it was.
    push_min_travel_mm: float = 100.0
    #: A cue ball whose approach to a rack (this many balls or more, each within 2R plus
    #: ``rack_gap_mm`` of another: frozen together) was not followed (a hard break: the cue
    #: ball lost in its blur, seen again only once it came back off the rack), while a ball
    #: of the rack leaves rest within ``unseen_strike_s`` of the strike, met the rack's ball
    #: nearest where it stood (the apex on a break), not the first ball seen to move: the
    #: whole rack moves as one, and the balls at its back, free to go, show it first while
    #: the apex, hemmed in, hardly moves (bench/pool_synth.py nine-ball overhead seed 2 at
    #: 4.5 m/s: the cue ball unseen for four pictures, the back balls moving 0.08 s before
    #: the 1 it met, and the break called "no contact"). Balls, mm, and how sure that contact is.
    rack_min_balls: int = 3
    rack_gap_mm: float = 15.0
    #: The ball met is looked for across this many balls the camera did not find in the rack
    #: (a gap of one ball's width more per ball): merged balls of a rack are found as fewer
    #: balls, and the apex was cut off from the rest by the hole the missed 3 left
    #: (bench/pool_synth.py nine-ball overhead seed 11, development: "hit the 4 first").
    rack_holes: int = 1
    rack_contact_confidence: float = 0.85
    #: A ball at rest between strokes that ends this far from where it stood, moved by no stroke,
    #: is reported for review (disturbed by a player, or moved by the referee?), mm.
    between_strokes_move_mm: float = 20.0
    #: An object ball potted (the tracker's pot confirmed: it went into a pocket's mouth and
    #: stayed gone) while no stroke was under way was still potted by a stroke, one the camera
    #: did not see start (the player between the camera and the cue ball: the real 9-ball
    #: clearance's 4 at 40.6 s): the stroke is inferred from the frame the ball left rest
    #: (:func:`tracker.perception.unseen_stroke.stroke_from_pot`) ...
    stroke_from_unseen_pot: bool = True
    #: ... among the frames kept since every ball last rested, at most this long, s; when the
    #: ball was seen on its way in at least this many frames, each sighting no further from the
    #: one before than this speed carries a ball (a track that jumped to a player's sleeve and
    #: went into a pocket with it: the clearance's "7" at 56.5 s, 770 mm in a picture), mm/s
    #: (the tracker's ``max_speed_mm_s``).
    since_rest_s: float = 10.0
    unseen_pot_sightings: int = 3
    unseen_pot_speed_mm_s: float = 7000.0
    #: ... and when it was seen resting before it left, with the whole table still, or in at
    #: least this many frames kept (a lost ball taken up where it stood while a player's hand
    #: moved on the rail: the clearance's 9 at 92-93 s).
    unseen_pot_rest_frames: int = 10
    #: A ball against a cushion is known to this many image pixels along the cushion's normal
    #: (:func:`tracker.perception.cushions.cushion_error`).
    cushion_error_px: float = CUSHION_ERROR_PX


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
    #: per ball, its (time s, (x, y) mm) in the pictures it was seen in (not the tracker's
    #: held or guessed places while unseen: :mod:`tracker.perception.sightings`)
    sighted: dict[str, list[tuple[float, tuple[float, float]]]] = field(default_factory=dict)
    #: the cue ball's contact with a rack whose approach was not followed (the ball it met
    #: may hardly move: its motion passes through the rack), kept when the stroke ends
    rack_contacts: list[Event] = field(default_factory=list)
    #: the stroke was taken from balls beside the cue ball leaving rest while it was seen
    #: standing (a push it hardly moved in): dropped if none of them went anywhere
    #: (:func:`tracker.perception.strike.came_to_nothing`)
    pushed: bool = False

    def record(self, st: TableState) -> None:
        """Add the frame ``st``'s positions to the tracks."""
        for b, p in st.pos.items():
            self.track.setdefault(b, []).append((st.t, p))
            if b in st.visible:
                self.sighted.setdefault(b, []).append((st.t, p))

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

    def disturbances(self, st: TableState, params: StrokeParams, fps: float,
                     ball_diameter: float) -> list[Event]:
        """Disturbed events for the balls that moved with no ball near them (``loose``): alone
        before they moved, every moving ball in view then, seen at rest at ``st`` (the
        stroke's end), and between ``params.disturb_min_mm`` and ``disturb_max_mm`` from where
        they stood (``fps``: pictures a second; ``ball_diameter``: mm). The others keep a
        review note."""
        s = self
        out = []
        for ball, (t, in_view) in s.loose.items():
            moved = (float(np.linalg.norm(np.subtract(st.pos[ball], s.before[ball])))
                     if ball in st.pos and ball in s.before else 0.0)
            if (in_view and ball in s.before and ball in st.visible
                    and params.disturb_min_mm <= moved <= params.disturb_max_mm
                    and s.alone(ball, t, ball_diameter + params.contact_infer_mm)):
                t_move = t - 1.0 / fps
                out.append(Event(EventType.DISTURBED, round(t_move, 4), (ball,),
                                 confidence=params.disturb_confidence))
                s.review.append(f"{the_ball(ball)} moved {moved:.0f} mm at {t_move:.2f} s with no "
                                "ball near it: disturbed by the striker (a foul)? Check who moved it")
            else:
                s.review.append(f"{the_ball(ball)} moved at {t:.2f} s with no ball near it: "
                                "check what moved it")
        return out

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

    def rack_of(self, ball: str, gap_mm: float) -> set[str]:
        """The object balls frozen together with ``ball`` before the stroke: those joined to it
        through balls whose centres were at most ``gap_mm`` apart (mm; the cue ball left out).
        A snooker colour is no ball of the rack (the reds are racked; the pink stands on its
        spot a few millimetres from the apex red, and taking it as the ball met called the
        synthetic match's break-off "the cue ball hit the pink first")."""
        pos = {b: np.asarray(p, float) for b, p in self.before.items()
               if b != B.WHITE and b not in B.COLOURS}
        if ball not in pos:
            return set()
        rack, todo = {ball}, [ball]
        while todo:
            here = pos[todo.pop()]
            for b, p in pos.items():
                if b not in rack and float(np.linalg.norm(p - here)) <= gap_mm:
                    rack.add(b)
                    todo.append(b)
        return rack

    def hit_after(self, ball: str, t: float) -> bool:
        """Whether, after ``ball`` vanished at ``t`` (s), it touched a ball, or a ball left rest
        that no seen ball's path reached (as a ball that came back unseen would do)."""
        s = self
        return (any(e.type == EventType.CONTACT and e.t > t and (ball in e.balls or e.confidence < 1)
                    for e in s.events)
                or any(t_l > t for t_l, _ in s.loose.values()))

    def untouched(self, st: TableState, stayed_mm: float, stayed_px: float = 0.0) -> None:
        """Drop the contacts of balls that never left their place (``stayed_mm``,
        :attr:`StrokeParams.stayed_mm`): seen at rest at ``st`` (the stroke's end) within
        ``stayed_mm`` of where they stood (or ``stayed_px`` pixels at the ball, where more), and
        the hitter of no contact left. The review note of such a contact goes with it; when it was the
        cue ball's first, a note says so (the first contact is now another)."""
        s = self

        def stayed(ball: str) -> bool:
            near = max(stayed_mm, stayed_px * st.mm_per_px.get(ball, 0.0))
            return (ball in st.pos and ball in st.visible and ball not in st.moving
                    and ball in s.before and float(np.linalg.norm(
                        np.subtract(st.pos[ball], s.before[ball]))) <= near)

        first = min((e for e in s.events if e.type == EventType.CONTACT and B.WHITE in e.balls),
                    key=lambda e: e.t, default=None)
        while True:
            contacts = [e for e in s.events if e.type == EventType.CONTACT]
            hitters = {e.balls[0] for e in contacts}
            drop = [e for e in contacts if e.balls[1] not in hitters and stayed(e.balls[1])
                    and all(e is not r for r in s.rack_contacts)]
            if not drop:
                break
            for e in drop:
                s.events = [x for x in s.events if x is not e]
                for c, note in s.contact_notes:
                    if c is e and note in s.review:
                        s.review.remove(note)
        if first is not None and all(e is not first for e in s.events):
            ball = first.balls[1]
            s.review.append(not_hit_note(ball, first.balls[0], first.t))


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
