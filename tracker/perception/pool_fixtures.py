"""White fixtures: lamp reflections that read as a pool cue ball and never move.

A dim phone video of a pool table (the 9-ball clearance, issue 33) shows the lamp's reflection
on a cushion's rail and in a pocket's jaws as small white discs the detector takes for balls,
and the colour identity for the cue ball. Whenever the real cue ball is hidden (a player
leaning over it) the cue ball's track jumps to such a reflection, and strokes then begin and
end on it. A cue ball is struck in every stroke; a reflection stays where it is through
stroke after stroke. :class:`StillWhites` watches the detections that claim the cue ball and
calls one a fixture once it has stayed put through ``fixture_strokes`` strokes (stretches in
which at least ``stroke_balls`` balls moved); the pool tracker then drops it
(:meth:`tracker.perception.pool_track.PoolTracker.settle_cue`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class StillWhiteParams:
    """The fixture watch's tunables.

    Attributes:
        same_mm: a claimant within this many mm of a watched place is the same thing.
        fixture_strokes: a place that held a white claimant before and after this many
            strokes, never moving, is a fixture.
        stroke_balls: a stretch of motion is a stroke when at least this many balls moved in
            it (a ball's jitter or a hand is not a stroke).
        forget_s: a watched place not seen for this long is forgotten, s.
    """

    same_mm: float = 15.0
    fixture_strokes: int = 3
    stroke_balls: int = 2
    forget_s: float = 5.0


@dataclass
class _Place:
    """A place where a white claimant was seen (mm), when last (tick), whether it was there
    when the stroke under way began, and through how many strokes it stayed."""

    pos: np.ndarray
    seen: int
    armed: bool = False
    strokes: int = 0


@dataclass
class StillWhites:
    """Watches the cue ball's claimants for fixtures (see the module).

    Args:
        fps: frames per second; params: the tunables.
    """

    fps: float
    params: StillWhiteParams = field(default_factory=StillWhiteParams)

    def __post_init__(self) -> None:
        self.places: list[_Place] = []
        self.tick = 0
        self.moving = False
        self.most_moving = 0

    def fixtures(self) -> list[np.ndarray]:
        """The places (mm) known to be fixtures."""
        return [p.pos for p in self.places if p.strokes >= self.params.fixture_strokes]

    def is_fixture(self, mm: np.ndarray) -> np.ndarray:
        """Which of the positions ``mm`` (N, 2) lie on a known fixture (N,) bool."""
        fx = self.fixtures()
        if not fx or not len(mm):
            return np.zeros(len(mm), bool)
        d = np.linalg.norm(np.asarray(mm, float)[:, None, :] - np.asarray(fx)[None], axis=2)
        return d.min(1) <= self.params.same_mm

    def saw(self, claims_mm: np.ndarray) -> None:
        """The positions (N, 2) mm of this frame's cue-ball claimants."""
        for p in np.asarray(claims_mm, float).reshape(-1, 2):
            near = [q for q in self.places if np.linalg.norm(q.pos - p) <= self.params.same_mm]
            if near:
                near[0].seen = self.tick
            else:
                self.places.append(_Place(p.copy(), self.tick))

    def step(self, n_moving: int) -> None:
        """End of a frame in which ``n_moving`` balls were moving: a stroke's start arms the
        places seen now, its end counts it for the armed places still seen."""
        if n_moving and not self.moving:
            for q in self.places:
                q.armed = q.seen == self.tick
            self.most_moving = 0
        self.most_moving = max(self.most_moving, n_moving)
        if self.moving and not n_moving:
            stroke = self.most_moving >= self.params.stroke_balls
            for q in self.places:
                if q.armed and q.seen == self.tick and stroke:
                    q.strokes += 1
                q.armed = False
        self.moving = bool(n_moving)
        old = self.tick - self.params.forget_s * self.fps
        self.places = [q for q in self.places if q.seen >= old or q.strokes >=
                       self.params.fixture_strokes]
        self.tick += 1
