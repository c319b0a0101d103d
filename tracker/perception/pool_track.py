"""The pool tracker: the cue ball and the numbered balls followed, each named by its identity.

:class:`PoolTracker` holds a :class:`tracker.perception.track.Tracker` over
:func:`tracker.perception.pool_identity.seen_balls` (the cue ball matched alone, the object
balls followed by position as snooker's reds are) and names each followed object ball: every
frame a ball at rest votes, with the logs of its detection's identity probabilities
(:attr:`BallDetections.identity`), for the numbers it may be (the votes of two balls whose
tracks may have crossed over fade); while every ball rests the
names are given again by a one-to-one assignment maximising the votes (so a name never
changes during a stroke: pots, contacts and cushions are reported by the name the ball had
when the stroke began; but a ball potted or gone off the table whose track may have crossed
another's is named, when the stroke ends, by the name its track holds once the balls left on
the table are named again at rest: :meth:`named_pots`; one that went down alone keeps its
name). A frame's reading counts by how well the ball is seen (half hidden behind a nearer ball
it counts nothing: :func:`hidden_shares`). Its :meth:`update` returns the :class:`TableState` under the pool ball
set's ids (``white``, ``1``..``15``), what the stroke detector and the pool rules take.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_ball_on import BallOnParams, potted_number
from tracker.perception.pool_cue import drop_glimpse, free_cue_place, object_claims
from tracker.perception.pool_fixtures import StillWhites
from tracker.perception.pool_hidden import hidden_shares
from tracker.perception.pool_identity import LABELS, object_balls, seen_balls
from tracker.perception.regroup import standing_at
from tracker.perception.track import Tracker
from tracker.perception.trackstate import TableState, TrackerConfig
from tracker.records.shot import EventType, Shot
from tracker.rules.ballset import BallSet
from tracker.words import the_ball


@dataclass(frozen=True)
class PoolTrackParams:
    """The naming's tunables.

    Attributes:
        match_radii: a followed ball takes the identity of the detection within this many ball
            radii of its position (mm).
        vote_floor: a frame's vote for a number is the log of its probability over this floor
            (probabilities below it count as it: 0); so a ball read surely as one number, frame
            after frame, counts strongly against its being another (a naive Bayes' sum of log
            probabilities), where a sum of probabilities lets a long-seen ball outvote a
            sure one. A frame's vote is at most ``-log(vote_floor)`` (6.9).
        seed_votes: the votes a ball seeded with a known name starts with for that name, in
            frames of a sure reading.
        decay: each frame the votes are multiplied by this (old evidence fades: about 10 s at
            25 fps to halve).
        crossing_radii: two followed object balls, one of them moving, whose centres are
            within this many ball radii (two ball widths) may have had their tracks crossed
            over (a crowd, the break: the tracker follows by position) ...
        crossing_decay: ... so each frame they are, the votes of both are multiplied by this:
            what a track saw before may be the other ball's; where it comes to rest the ball's
            own votes soon outweigh it. A ball struck alone, from rest into a pocket, keeps
            what it showed at rest (its name by elimination stays sure).
        rename_margin: the balls are named again only when the new names' votes (summed log
            probabilities) beat those of the names held by more than this (nats: 1 is odds of
            e to 1), so a ball followed keeps its name while the evidence wavers between two.
        ball_on: a game whose ball on is the lowest-numbered (nine-ball): the first ball
            potted in a stroke is named by the likeliest naming of every ball in play and the
            game's prior that the pot was of the lowest ball on (:meth:`lowest_on`,
            :mod:`tracker.perception.pool_ball_on`): where the colours cannot tell balls apart
            (the red 3 and maroon 7, the blue 2, green 6 and black 8 of a dim phone video), the
            player aimed at the ball on.
        hidden_full, hidden_none: a frame's reading counts by how well the ball is seen: a
            ball partly hidden behind a nearer one (its image disc overlapped by the disc of a
            ball lower in the picture, by this share of its diameter: :func:`hidden_shares`)
            counts fully up to ``hidden_full``, not at all from ``hidden_none``, linearly
            between. From the side camera on red cloth (bench/pool_synth.py eight-ball side
            seed 0, the learned classifier) a ball's reading was right in 98 % of frames when
            unhidden, 89 % when 0.15-0.3 hidden, 67 % at 0.3-0.5 and 53 % beyond (the 11 read as
            the 7 in 266 hidden frames); from overhead no ball hides another.
        cue_sure, cue_jump_mm: while the cue ball moves, a cue-ball claim more than
            ``cue_jump_mm`` from where it is heading (one frame on) that reads as the cue ball
            below ``cue_sure`` is another ball (the game's "one cue ball" gave the claim to the
            next whitest ball when the cue ball was hidden), and an object-ball detection
            within ``cue_jump_mm`` of there that reads as the cue ball at least ``cue_sure`` is
            the cue ball (from the side the moving cue ball, unseen for two pictures, came
            back read as an object ball, 0.81 the cue ball, while the 11 at rest 360 mm away,
            0.51, held the claim: the cue ball's track moved to the 11 for the rest of the
            rack, and a stroke was lost; bench/pool_synth.py eight-ball side seed 4).
        cue_lost_side_radii: a moving cue ball that no detection near where it heads claims is
            carried on by the detection there that no followed object ball explains, not
            behind it and at most this many ball radii to the side of its line of motion
            (:meth:`_cue_going_on`): partly hidden, the cue ball reads as another ball and its
            centre off its line (the real 9-ball clearance, 52.5 s: read as the 11 and the 15,
            2.7 radii to the side, the first picture after it was lost).
        stayed_radii, stayed_from_radii: a ball potted in a stroke is still on the table when
            at the stroke's end a ball rests within ``stayed_radii`` ball radii of where it
            stood before, one that stood ``stayed_from_radii`` or more away before (or was not
            seen) and that no ball touched in the stroke (:meth:`_still_there`): a ball sent
            there would have been hit (a contact), a cue ball stopped by the contact rests
            two radii short of the object ball's place and is not asked about.
        regroup_frames: an object-ball detection no track explains, standing still this many
            pictures, takes up the object ball held unseen nearest it (its track lost:
            :mod:`tracker.perception.regroup`, ``TrackerConfig.regroup_lost_frames``); 0: off.

        cue_place_sure, cue_place_frames: a cue ball not yet followed (in hand) seen standing,
            read as the cue ball at least ``cue_place_sure``, within 1.5 ball radii of where an
            object ball's track stands unseen for at least ``cue_place_frames`` pictures, is the
            cue ball there: that track is dropped (:func:`tracker.perception.pool_cue.free_cue_place`). One picture of the
            cue ball carried in by hand read as an object ball started an object track at its
            place; the object track could not take the cue ball's later pictures and the cue
            ball's track could not start where another ball stood, so the cue ball was never
            followed and the break was not found (bench/pool_synth.py eight-ball overhead seed
            12, red cloth, development).
        claim_followed_frames: while the cue ball is not seen (or not on the table), a
            detection claiming to be it within a ball radius of where an object ball's track
            stands at rest, seen there in at least this many pictures, is that object ball
            (:func:`tracker.perception.pool_cue.object_claims`). From the side a stripe at
            rest showing its white side read as the cue ball (0.85); when the cue ball went out of view, the cue
            ball's track took the stripe, and the cue ball, back in view, was followed as an
            object ball: two strokes were not found (bench/pool_synth.py eight-ball side seed
            12, development). Pictures at its place, not since the track began: a rack ball's
            track that jumped to the cue ball carried in by hand would else keep it (nine-ball
            side seed 11, development).
        glimpse_radii: an object ball's track seen in one picture only, the picture the moving
            cue ball was not seen in, within this many ball radii of the cue ball's line from
            its sighting before to its sighting after, was that cue ball's blurred picture
            read as an object ball: the track is dropped (:func:`tracker.perception.pool_cue.drop_glimpse`). Left, it was
            "struck too hard to see" by the cue ball and called potted in a pocket 700 mm away,
            on the break (bench/pool_synth.py eight-ball side seed 11, development).
    """

    match_radii: float = 1.0
    vote_floor: float = 1e-3
    seed_votes: float = 5.0
    decay: float = 0.9973
    crossing_radii: float = 4.0
    crossing_decay: float = 0.3
    rename_margin: float = 1.0
    ball_on: BallOnParams = BallOnParams()
    hidden_full: float = 0.15
    hidden_none: float = 0.5
    cue_sure: float = 0.7
    cue_jump_mm: float = 200.0
    cue_lost_side_radii: float = 3.0
    stayed_radii: float = 1.0
    stayed_from_radii: float = 4.0
    regroup_frames: int = 10

    cue_place_sure: float = 0.9
    cue_place_frames: int = 3
    claim_followed_frames: int = 25
    glimpse_radii: float = 2.0


class PoolTracker:
    """Follows the balls of a pool game and names them (see the module).

    Args:
        table: the table; fps: frames per second; config: the tracker's behaviour.
        balls: the pool ball set (:func:`tracker.rules.ballset.pool_balls`).
        params: the naming's tunables.
        lowest_first: the game's ball on is the lowest-numbered on the table (nine-ball):
            its potted balls are named with that in mind (:meth:`lowest_on`).
    """

    def __init__(self, table: TableGeometry, fps: float, config: TrackerConfig | None = None,
                 balls: BallSet | None = None, params: PoolTrackParams | None = None,
                 lowest_first: bool = False):
        from tracker.rules.ballset import pool_balls

        self.balls = balls or pool_balls()
        self.params = params or PoolTrackParams()
        self.lowest_first = lowest_first
        self.table = table
        self.numbers = object_balls(self.balls)
        # a lost object ball is taken up where one stands unexplained (tracker/perception/regroup.py)
        config = replace(config or TrackerConfig(), regroup_lost_frames=self.params.regroup_frames)
        self.inner = Tracker(table, fps, config, balls=seen_balls(self.balls))
        self.slots_ids = tuple(b for b in self.inner.balls.ids if b != "white")
        self._cols = [LABELS.index(n) for n in self.numbers]
        self.reset()

    def reset(self) -> None:
        """Forget every track and every name."""
        self.inner.reset()
        self.still = StillWhites(self.inner.fps)
        self.votes = np.zeros((len(self.slots_ids), len(self.numbers)))
        #: the same readings summed as probabilities (slot x number): how plainly a ball shows
        #: its number against another (:meth:`name_certainty`), where :attr:`votes` (logs) name
        self.seen = np.zeros_like(self.votes)
        self.names = dict(zip(self.slots_ids, self.numbers, strict=True))
        #: slot -> (the name it was reported potted or off the table under, every slot's name
        #: then), until the stroke's record is named again (:meth:`named_pots`)
        self.gone_as: dict[str, tuple[str, dict[str, str]]] = {}
        #: the slots whose tracks may have crossed another's (:meth:`_crossings`) since the
        #: last stroke's record was named: only such a ball potted may have gone down under
        #: another's name
        self.crossed: set[str] = set()
        #: the names of the balls potted in the strokes' records so far (:meth:`named_pots`):
        #: the balls no longer on for the game (a track lost outside any stroke, its ball
        #: taken for gone, pots nothing)
        self.potted: set[str] = set()
        self._last_pos: dict[str, np.ndarray] = {}
        #: the slots gone (potted, off the table) in the last picture tracked
        self.last_gone: list[str] = []
        #: (frame, mm): the cue ball's last sighting before the current picture
        self._cue_before: tuple[int, np.ndarray] | None = None

    def seed(self, positions: dict[str, tuple[float, float]]) -> None:
        """Start from a known layout (pool ball id -> mm): each named ball takes a slot with
        that name (and ``seed_votes`` for it)."""
        self.reset()
        inner: dict[str, tuple[float, float]] = {}
        for i, number in enumerate(self.numbers):
            if number in positions:
                slot = self.slots_ids[i]
                inner[slot] = positions[number]
                self.votes[i, i] = self.params.seed_votes * -np.log(self.params.vote_floor)
                self.seen[i, i] = self.params.seed_votes
        if "white" in positions:
            inner["white"] = positions["white"]
        self.inner.seed(inner)

    def settle_cue(self, det: BallDetections) -> BallDetections:
        """``det`` with one cue ball when several detections claim it (an over-exposed yellow
        reads white): the claimant nearest where the cue ball was followed is the cue ball,
        the others object balls. Unchanged when one claims it or the cue ball's place is not
        known (the game's constraint then settles it on colour alone). A claimant on a white
        fixture (a lamp's reflection that stayed put through strokes:
        :mod:`tracker.perception.pool_fixtures`) is dropped first."""
        white, red = CLASSES.index("white"), CLASSES.index("red")
        det = object_claims(self, det)
        claims = np.nonzero(det.cls == white)[0]
        self.still.saw(det.mm[claims])
        fixed = np.zeros(len(det), bool)
        fixed[claims] = self.still.is_fixture(det.mm[claims])
        if fixed.any():
            det = det[~fixed]
            claims = np.nonzero(det.cls == white)[0]
        s = self.inner.slots["white"]
        if s.pos is not None and s.on_table and s.moving and det.identity is not None:
            det = self._cue_where_heading(det, s.pos + s.vel / self.inner.fps)
            claims = np.nonzero(det.cls == white)[0]
        if len(claims) < 2 or s.pos is None or not s.on_table:
            return det
        near = claims[int(np.argmin(np.linalg.norm(det.mm[claims] - s.pos, axis=1)))]
        out = det[np.ones(len(det), bool)]
        others = claims[claims != near]
        out.cls = out.cls.copy()
        out.conf = out.conf.copy()
        out.cls[others] = red
        out.conf[others] = out.probs[others, red]
        return out

    def _cue_where_heading(self, det: BallDetections, ahead: np.ndarray) -> BallDetections:
        """``det`` with the cue-ball claims of a moving cue ball heading to ``ahead`` (mm)
        settled by where they are and how surely they read as the cue ball
        (:attr:`PoolTrackParams.cue_sure`, ``cue_jump_mm``)."""
        white, red = CLASSES.index("white"), CLASSES.index("red")
        cue = det.identity[:, LABELS.index("cue")]
        near = np.linalg.norm(det.mm - ahead, axis=1) <= self.params.cue_jump_mm
        claims = det.cls == white
        demote = claims & ~near & (cue < self.params.cue_sure)
        promote = ~claims & near & (cue >= self.params.cue_sure)
        if not (claims & near & ~demote).any() and not promote.any():
            promote = self._cue_going_on(det, ahead, near & ~claims)
        if not demote.any() and not promote.any():
            return det
        out = det[np.ones(len(det), bool)]
        out.cls, out.conf = out.cls.copy(), out.conf.copy()
        out.cls[demote], out.conf[demote] = red, out.probs[demote, red] if len(out.probs) else 1.0
        out.cls[promote], out.conf[promote] = white, cue[promote]
        return out

    def _cue_going_on(self, det: BallDetections, ahead: np.ndarray,
                      near: np.ndarray) -> np.ndarray:
        """(N,) bool: the detection that carries on a moving cue ball seen nowhere near where
        it heads (``ahead``, mm): of the detections ``near`` there, the nearest no followed
        object ball explains (none within two radii of an object ball's place) not behind the
        cue ball and near its line of motion (``cue_lost_side_radii``). A cue ball partly
        hidden (passing behind a player's legs, in the shade of a sleeve) reads as another
        ball: an object-ball track took it up and the cue ball stayed hidden where it was lost,
        so its next stroke was not seen to start (the real 9-ball clearance, 52.5 s)."""
        out = np.zeros(len(det), bool)
        s = self.inner.slots["white"]
        reach = 2.0 * self.table.ball_radius
        placed = [o.pos for b, o in self.inner.slots.items()
                  if b != "white" and o.on_table and o.pos is not None]
        cand = [i for i in np.nonzero(near)[0]
                if not placed or min(float(np.linalg.norm(det.mm[i] - q)) for q in placed) > reach]
        speed = float(np.linalg.norm(s.vel))
        if speed <= 0:
            return out
        along = s.vel / speed
        side_max = self.params.cue_lost_side_radii * self.table.ball_radius
        d = det.mm[cand] - s.pos
        ahead_mm, side_mm = d @ along, np.abs(d[:, 1] * along[0] - d[:, 0] * along[1])
        ok = [i for i, a, b in zip(cand, ahead_mm, side_mm, strict=True)
              if a >= -self.table.ball_radius and b <= side_max]
        if ok:
            out[min(ok, key=lambda i: float(np.linalg.norm(det.mm[i] - ahead)))] = True
        return out

    def update(self, frame: int, det: BallDetections) -> TableState:
        """Track one frame's detections (classes ``white`` / ``red``, :attr:`identity` set by
        :meth:`tracker.perception.pool_identity.PoolIdentity.relabel`) and name the balls."""
        free_cue_place(self, frame, det)
        st = drop_glimpse(self, frame, self.inner.update(frame, det))
        self.still.step(len(st.moving))
        self._vote(st, det)
        if not st.moving:
            self._name()
        self.last_gone = [b for b, _, _ in st.pots] + [b for b, _, _ in st.off]
        for slot in self.last_gone:
            if slot != "white":
                self.gone_as[slot] = (self.name_of(slot), dict(self.names))
        return self._named(st)

    def after_strokes(self, shot: Shot | None, stroke_seen: bool) -> Shot | None:
        """After the stroke detector took this picture's state: the stroke that ended on it
        (``shot``, None: none) with its pots named (:meth:`named_pots`); when no stroke was
        under way before or after the picture (``stroke_seen`` False), the balls gone in it
        released (:meth:`release_unrecorded`)."""
        if not stroke_seen:
            self.release_unrecorded()
        return None if shot is None else self.named_pots(shot)

    def release_unrecorded(self) -> None:
        """The object balls this picture's state had go down (:meth:`update`) went with no
        stroke to take their pot (none under way, none started from it: the run tells): they
        are lost balls in play, not potted (a track followed a player's sleeve into a
        pocket). Their slots may take up a ball standing unexplained again
        (``Tracker.released``, :mod:`tracker.perception.regroup`), and their names are free."""
        for slot in self.last_gone:
            if slot != "white":
                self.inner.released.add(slot)
                self.gone_as.pop(slot, None)
        self.last_gone = []

    def named_pots(self, shot: Shot) -> Shot:
        """The stroke's record ``shot`` with each object ball potted (or gone off the table)
        during it named by the name its track holds now, the stroke ended: two balls' tracks
        can cross over in a crowd (the break), so the track that went down carried the other
        ball's name while moving; once the balls left rest, the one-to-one naming by their
        votes (:meth:`_name`) gives the name back to the ball still on the table: the potted
        one then takes the name left over for its track by that naming when a ball in play
        had that name when it went down (the tracks of three balls may have gone round: the 5
        potted under the 9's name, the 9 followed as the 4, the 4 as the 5, in nine-ball
        overhead seed 3's break), else the name the ball left had then. Only a ball whose
        track may have crossed another's during the stroke (:attr:`crossed`) is named again:
        one that went down alone was the ball it was named at rest (from the side on red cloth
        the 11 left on the table read as the 15 after the 15 was potted alone, and took the
        pot). Contacts keep the names the balls had when struck. A pot of a ball still where
        it stood is dropped first (:meth:`_still_there`)."""
        shot = self._still_there(shot)
        rename: dict[str, str] = {}
        for slot, (was, then) in self.gone_as.items():
            if slot not in self.crossed:
                continue  # it went down alone: it was the ball it was named while at rest
            holder = next((s for s, n in self.names.items() if n == was and s != slot), None)
            if (holder is not None and holder not in self.gone_as
                    and self.inner.slots[holder].on_table and then[holder] != was):
                left = self.names[slot]  # the name the naming at rest left for its track
                played = any(n == left and self.inner.slots[s].pos is not None
                             for s, n in then.items())
                rename[was] = left if played and left != was else then[holder]
        gone_now = {s: rename.get(was, was) for s, (was, _) in self.gone_as.items()}
        self.gone_as, self.crossed = {}, set()
        if rename:
            gone = (EventType.POT, EventType.OFF_TABLE)
            shot = replace(shot, events=tuple(
                replace(e, balls=tuple(rename.get(b, b) for b in e.balls))
                if e.type in gone else e for e in shot.events))
        if self.lowest_first:
            shot = self.lowest_on(shot, gone_now)
        self.potted |= {e.balls[0] for e in shot.events if e.type == EventType.POT}
        return shot

    def _still_there(self, shot: Shot) -> Shot:
        """``shot`` without the pots of balls still where they stood: where a potted ball
        rested before the stroke (within ``stayed_radii`` ball radii) a ball rests at its end
        that stood elsewhere before (``stayed_from_radii`` or more away, or nowhere) and that
        no ball touched in the stroke (a ball sent there is hit; a track that jumped there, as
        a player's sleeve was followed, may read a cushion on the way): the potted ball's track left with
        a player walking past (a hand, a sleeve read as the ball) and the ball, seen again
        where it was, was taken up by another track (the real 9-ball clearance, 32.8 s: the 6
        "potted" in a corner while it stood where it was). That track takes the ball's name,
        the gone track the other's, and the record says so for review. Where no track took
        the ball up (every slot in use) but a detection no track explains has stood still
        there ``regroup_frames`` pictures (:func:`tracker.perception.regroup.standing_at`),
        the pot is dropped too, and the gone slot is released to take it up (the clearance's
        7 at 13.3 s: its track jumped 400 mm to a hand at the near corner, the 7 stayed)."""
        before, after = shot.positions_before or {}, shot.positions_after or {}
        hit = {b for e in shot.events if e.type == EventType.CONTACT for b in e.balls}
        near = self.params.stayed_radii * self.table.ball_radius
        away = self.params.stayed_from_radii * self.table.ball_radius
        void: dict[str, str] = {}
        for e in shot.events:
            x = e.balls[0] if e.type == EventType.POT and e.balls else "white"
            if x == "white" or x not in before:
                continue
            p = np.asarray(before[x], float)
            for y, q in after.items():
                if (y not in (x, "white") and y not in hit and y not in void.values()
                        and float(np.linalg.norm(np.asarray(q, float) - p)) <= near
                        and (y not in before
                             or float(np.linalg.norm(np.asarray(before[y], float) - p)) >= away)):
                    void[x] = y
                    break
            else:  # no track there, but a detection stands there unexplained
                if standing_at(self.inner, p, near, self.params.regroup_frames):
                    void[x] = ""
        if not void:
            return shot
        for x, y in void.items():
            gone = next((g for g, (n, _) in self.gone_as.items() if n == x), None)
            held = next((h for h, n in self.names.items() if n == y and h != gone), None)
            if gone is not None and not y:  # its slot takes the ball up there again
                self.inner.released.add(gone)
                self.gone_as.pop(gone)
            if gone is None or held is None:
                continue
            self.names[held], self.names[gone] = x, y
            self.gone_as[gone] = (y, self.gone_as[gone][1])
        back = {y: x for x, y in void.items()}
        notes = tuple(f"{the_ball(x)} was taken for potted but is still where it stood (a player "
                      "passing by was followed instead): not called potted; check" for x in void)
        return replace(shot, events=tuple(e for e in shot.events
                                          if not (e.type == EventType.POT and e.balls[0] in void)),
                       positions_after={back.get(b, b): q for b, q in after.items()},
                       needs_review=(*shot.needs_review, *notes))

    def lowest_on(self, shot: Shot, gone_now: dict[str, str]) -> Shot:
        """``shot`` (a stroke just ended; ``gone_now``: slot -> name of the balls potted or off
        the table in it) with its first potted ball named by the likeliest naming of every
        ball in play, among the numbers not potted in an earlier stroke's record (a track lost
        outside any stroke potted nothing), and the odds that a nine-ball pot is of the lowest
        ball on
        (:func:`tracker.perception.pool_ball_on.potted_number`, checked against the colours
        of the balls left on the table); the ball on the table that held that name takes the
        potted ball's old one, in the record and from now on."""
        pots = [e.balls[0] for e in shot.events if e.type == EventType.POT]
        potted = next((s for s, n in gone_now.items() if pots and n == pots[0]), None)
        if potted is None:
            return shot
        gone = {e.balls[0] for e in shot.events if e.type in (EventType.POT, EventType.OFF_TABLE)}
        in_play = [s for s in self.slots_ids
                   if gone_now.get(s) in gone or self.inner.slots[s].on_table]
        free = [k for k, n in enumerate(self.numbers) if n not in self.potted]
        if self.numbers.index(self.names[potted]) not in free:
            return shot
        rows = [self.slots_ids.index(s) for s in in_play]
        c = potted_number(self.seen, self.numbers, self.slots_ids.index(potted), rows, free,
                          self.params.ball_on)
        own, new = self.names[potted], self.numbers[c]
        if new == own:
            return shot
        holder = next((s for s, n in self.names.items() if n == new and s != potted), None)
        if holder is not None:
            self.names[holder] = own
        self.names[potted] = new
        swap = {own: new, new: own}
        return replace(shot, events=tuple(replace(e, balls=tuple(swap.get(x, x) for x in e.balls))
                                          for e in shot.events))

    def _vote(self, st: TableState, det: BallDetections) -> None:
        """Each visible ball at rest adds its detection's identity probabilities."""
        self.votes *= self.params.decay
        self.seen *= self.params.decay
        self._crossings(st)
        self._note_crossed(st)
        if det.identity is None or not len(det):
            return
        reach = self.params.match_radii * self.table.ball_radius
        lo, hi = self.params.hidden_full, self.params.hidden_none
        weight = np.clip((hi - hidden_shares(det.px, det.radius_px)) / max(hi - lo, 1e-9), 0, 1)
        for i, slot in enumerate(self.slots_ids):
            if slot not in st.visible or slot in st.moving:
                continue
            d = np.linalg.norm(det.mm - np.asarray(st.pos[slot]), axis=1)
            j = int(np.argmin(d))
            if d[j] <= reach:
                p = np.maximum(det.identity[j, self._cols], self.params.vote_floor)
                self.votes[i] += weight[j] * np.log(p / self.params.vote_floor)
                self.seen[i] += weight[j] * det.identity[j, self._cols]

    def _crossings(self, st: TableState) -> None:
        """Votes faded for the object balls whose tracks may have crossed over this frame
        (:attr:`PoolTrackParams.crossing_radii`)."""
        here = [i for i, b in enumerate(self.slots_ids) if b in st.pos]
        if not (set(st.moving) - {"white"}) or len(here) < 2:
            return
        pos = np.array([st.pos[self.slots_ids[i]] for i in here], float)
        moving = np.array([self.slots_ids[i] in st.moving for i in here])
        near = (np.linalg.norm(pos[:, None] - pos[None], axis=2)
                <= self.params.crossing_radii * self.table.ball_radius)
        np.fill_diagonal(near, False)
        near &= moving[:, None] | moving[None, :]
        hit = np.asarray(here)[near.any(axis=1)]
        self.votes[hit] *= self.params.crossing_decay
        self.seen[hit] *= self.params.crossing_decay

    def _note_crossed(self, st: TableState) -> None:
        """Add to :attr:`crossed` the object balls moving (or moved since the frame before)
        within ``crossing_radii`` of another object ball, now or in the frame before: the
        tracker follows by position, so their tracks may have been swapped (as early as the
        frame they left rest side by side)."""
        pos = {b: np.asarray(p, float) for b, p in st.pos.items() if b in self.names}
        last, self._last_pos = self._last_pos, pos
        reach = self.params.crossing_radii * self.table.ball_radius
        moved = {b for b, p in pos.items()
                 if b in st.moving or (b in last and float(np.linalg.norm(p - last[b])) > 1.0)}
        for b in moved:
            for o, p in pos.items():
                if o == b or o in self.crossed and b in self.crossed:
                    continue
                near = float(np.linalg.norm(p - pos[b])) <= reach or (
                    b in last and o in last and float(np.linalg.norm(last[o] - last[b])) <= reach)
                if near:
                    self.crossed.update((b, o))

    def _name(self) -> None:
        """The names by a one-to-one assignment maximising the votes, among the balls still
        in play: a ball gone (potted, off the table) keeps its name, and no ball on the table
        takes it (the referee has it off the table) -- once its stroke's record is named: until
        then a ball gone in this stroke whose track may have crossed another's is named with
        the others (:meth:`named_pots`)."""
        lost = self.inner.released
        gone = {i for i, slot in enumerate(self.slots_ids)
                if (s := self.inner.slots[slot]).pos is not None and not s.on_table
                and slot not in lost
                and (slot not in self.gone_as or slot not in self.crossed)}
        rows = [i for i in range(len(self.slots_ids)) if i not in gone]
        taken = {self.names[self.slots_ids[i]] for i in gone}
        cols = [k for k, n in enumerate(self.numbers) if n not in taken]
        if not rows or not cols:
            return
        votes = self.votes[np.ix_(rows, cols)]
        r_ix, c_ix = linear_sum_assignment(-votes)
        now = [cols.index(k) if (k := self.numbers.index(self.names[self.slots_ids[i]])) in cols
               else -1 for i in rows]
        held = sum(votes[r, c] for r, c in enumerate(now) if c >= 0)
        if votes[r_ix, c_ix].sum() <= held + self.params.rename_margin:
            return  # the names held are about as likely: a tracked ball keeps its name
        names = dict(self.names)
        for r, c in zip(r_ix, c_ix, strict=True):
            names[self.slots_ids[rows[r]]] = self.numbers[cols[c]]
        self.names = names

    def name_of(self, slot: str) -> str:
        """The pool ball id of a slot (``white`` stays ``white``)."""
        return self.names.get(slot, slot)

    def _named(self, st: TableState) -> TableState:
        """``st`` with the slots' names."""
        n = self.name_of
        return replace(
            st, pos={n(b): p for b, p in st.pos.items()}, moving={n(b) for b in st.moving},
            visible={n(b) for b in st.visible}, pots=[(n(b), k, t) for b, k, t in st.pots],
            appeared=[n(b) for b in st.appeared], off=[(n(b), t, c) for b, t, c in st.off],
            pending_pots=[(n(b), k, t) for b, k, t in st.pending_pots],
            emerged={n(b): v for b, v in st.emerged.items()},
            mm_per_px={n(b): v for b, v in st.mm_per_px.items()})

    def name_certainty(self, name: str) -> float:
        """How sure the naming is that the ball called ``name`` is that ball: its readings
        (:attr:`seen`, probabilities summed) for the name against those for its likeliest
        other name, 0.5 (as likely the other) ..
        1 (no other name has a vote); 1 for the cue ball, 0.5 for a name no slot holds."""
        if name == "white":
            return 1.0
        slots = [i for i, s in enumerate(self.slots_ids) if self.names.get(s) == name]
        if not slots:
            return 0.5
        v = self.seen[slots[0]]
        own = float(v[self.numbers.index(name)])
        rival = float(np.delete(v, self.numbers.index(name)).max(initial=0.0))
        return own / (own + rival) if own + rival > 0 else 0.5

    def surely_named(self, shot: Shot) -> Shot:
        """``shot`` with each contact's and pot's confidence no higher than how sure the naming
        is of the balls it names (:meth:`name_certainty`): a foul that rests on which ball was
        hit first, or a rack won by the ball potted, is called only when the camera can tell
        the balls apart."""
        events = tuple(
            replace(e, confidence=min([e.confidence, *(self.name_certainty(b) for b in e.balls)]))
            if e.type in (EventType.CONTACT, EventType.POT) else e for e in shot.events)
        return replace(shot, events=events)

