"""The pool tracker: the cue ball and the numbered balls followed, each named by its identity.

:class:`PoolTracker` holds a :class:`tracker.perception.track.Tracker` over
:func:`tracker.perception.pool_identity.seen_balls` (the cue ball matched alone, the object
balls followed by position as snooker's reds are) and names each followed object ball: every
frame a ball at rest votes, with its detection's identity probabilities
(:attr:`BallDetections.identity`), for the numbers it may be; while every ball rests the
names are given again by a one-to-one assignment maximising the votes (so a name never
changes during a stroke: pots, contacts and cushions are reported by the name the ball had
when the stroke began). Its :meth:`update` returns the :class:`TableState` under the pool ball
set's ids (``white``, ``1``..``15``), what the stroke detector and the pool rules take.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy.optimize import linear_sum_assignment

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.pool_fixtures import StillWhites
from tracker.perception.pool_identity import LABELS, object_balls, seen_balls
from tracker.perception.track import Tracker
from tracker.perception.trackstate import TableState, TrackerConfig
from tracker.records.shot import EventType, Shot
from tracker.rules.ballset import BallSet


@dataclass(frozen=True)
class PoolTrackParams:
    """The naming's tunables.

    Attributes:
        match_radii: a followed ball takes the identity of the detection within this many ball
            radii of its position (mm).
        seed_votes: the votes a ball seeded with a known name starts with for that name (a
            frame's vote is at most 1).
        decay: each frame the votes are multiplied by this (old evidence fades: about 10 s at
            25 fps to halve).
        rename_margin: the balls are named again only when the new names' votes beat those
            of the names held by more than this share (a ball followed keeps its name while
            the evidence wavers between two).
    """

    match_radii: float = 1.0
    seed_votes: float = 5.0
    decay: float = 0.9973
    rename_margin: float = 0.1


class PoolTracker:
    """Follows the balls of a pool game and names them (see the module).

    Args:
        table: the table; fps: frames per second; config: the tracker's behaviour.
        balls: the pool ball set (:func:`tracker.rules.ballset.pool_balls`).
        params: the naming's tunables.
    """

    def __init__(self, table: TableGeometry, fps: float, config: TrackerConfig | None = None,
                 balls: BallSet | None = None, params: PoolTrackParams | None = None):
        from tracker.rules.ballset import pool_balls

        self.balls = balls or pool_balls()
        self.params = params or PoolTrackParams()
        self.table = table
        self.numbers = object_balls(self.balls)
        self.inner = Tracker(table, fps, config, balls=seen_balls(self.balls))
        self.slots_ids = tuple(b for b in self.inner.balls.ids if b != "white")
        self._cols = [LABELS.index(n) for n in self.numbers]
        self.reset()

    def reset(self) -> None:
        """Forget every track and every name."""
        self.inner.reset()
        self.still = StillWhites(self.inner.fps)
        self.votes = np.zeros((len(self.slots_ids), len(self.numbers)))
        self.names = dict(zip(self.slots_ids, self.numbers, strict=True))

    def seed(self, positions: dict[str, tuple[float, float]]) -> None:
        """Start from a known layout (pool ball id -> mm): each named ball takes a slot with
        that name (and ``seed_votes`` for it)."""
        self.reset()
        inner: dict[str, tuple[float, float]] = {}
        for i, number in enumerate(self.numbers):
            if number in positions:
                slot = self.slots_ids[i]
                inner[slot] = positions[number]
                self.votes[i, i] = self.params.seed_votes
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
        claims = np.nonzero(det.cls == white)[0]
        self.still.saw(det.mm[claims])
        fixed = np.zeros(len(det), bool)
        fixed[claims] = self.still.is_fixture(det.mm[claims])
        if fixed.any():
            det = det[~fixed]
            claims = np.nonzero(det.cls == white)[0]
        s = self.inner.slots["white"]
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

    def update(self, frame: int, det: BallDetections) -> TableState:
        """Track one frame's detections (classes ``white`` / ``red``, :attr:`identity` set by
        :meth:`tracker.perception.pool_identity.PoolIdentity.relabel`) and name the balls."""
        st = self.inner.update(frame, det)
        self.still.step(len(st.moving))
        self._vote(st, det)
        if not st.moving:
            self._name()
        return self._named(st)

    def _vote(self, st: TableState, det: BallDetections) -> None:
        """Each visible ball at rest adds its detection's identity probabilities."""
        self.votes *= self.params.decay
        if det.identity is None or not len(det):
            return
        reach = self.params.match_radii * self.table.ball_radius
        for i, slot in enumerate(self.slots_ids):
            if slot not in st.visible or slot in st.moving:
                continue
            d = np.linalg.norm(det.mm - np.asarray(st.pos[slot]), axis=1)
            j = int(np.argmin(d))
            if d[j] <= reach:
                self.votes[i] += det.identity[j, self._cols]

    def _name(self) -> None:
        """The names by a one-to-one assignment maximising the votes, among the balls still
        in play: a ball gone (potted, off the table) keeps its name, and no ball on the table
        takes it (the referee has it off the table)."""
        gone = {i for i, slot in enumerate(self.slots_ids)
                if (s := self.inner.slots[slot]).pos is not None and not s.on_table}
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
        if votes[r_ix, c_ix].sum() <= held * (1.0 + self.params.rename_margin):
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
            emerged={n(b): v for b, v in st.emerged.items()})

    def name_certainty(self, name: str) -> float:
        """How sure the naming is that the ball called ``name`` is that ball: its votes for
        the name against those for its likeliest other name, 0.5 (as likely the other) ..
        1 (no other name has a vote); 1 for the cue ball, 0.5 for a name no slot holds."""
        if name == "white":
            return 1.0
        slots = [i for i, s in enumerate(self.slots_ids) if self.names.get(s) == name]
        if not slots:
            return 0.5
        v = self.votes[slots[0]]
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
