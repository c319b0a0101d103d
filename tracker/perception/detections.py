"""One frame's detections: a validated struct of arrays (the detector's output, the tracker's
input), with the colour classes it speaks of."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

#: The colour classes a detection may have (a ball's look: ``BallSet.looks`` values).
CLASSES = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black")

#: The array fields, in order (what :meth:`BallDetections.merge` joins).
ARRAYS = ("px", "mm", "radius_px", "cls", "conf", "probs", "mm_per_px", "feats")


@dataclass
class BallDetections:
    """One frame's detections, struct of arrays (N balls).

    Attributes:
        px: (N, 2) image centres, full-resolution px.
        mm: (N, 2) table positions, mm (parallax corrected).
        radius_px: (N,) apparent radius, px.
        cls: (N,) index into :data:`CLASSES`.
        conf: (N,) colour-class confidence 0..1.
        probs: (N, 8) class probabilities (or (0, 8): none given).
        mm_per_px: (N,) table millimetres per image pixel at each ball, along the coarser image
            axis (far balls in an oblique view are coarser, most of all down the image); or
            (0,): none given.
        feats: (N, 5) colour features the classes came from
            (:func:`tracker.perception.colour.feature`), kept so that re-labelling under the
            game's constraint does not measure them again; or (0, 5): none given.
        occupancy: optional ``f(mm (M, 2)) -> (M,)``: the share (0..1) of non-cloth pixels in
            a ball-sized disc at each table position in this frame. A ball that vanished from a
            place that now shows bare cloth has left it; one whose place is covered (a player,
            a hand) may still be there.
        identity: optional (N, 17) pool identity probabilities over
            :data:`tracker.perception.pool_identity.LABELS` (the cue ball, 1..15, none), set
            for a pool game after the classes are settled (an attribute, not a field: not
            joined by :meth:`merge`, None until set).

    Raises:
        ValueError: arrays of different lengths (the optional three may be empty).
    """

    px: np.ndarray
    mm: np.ndarray
    radius_px: np.ndarray
    cls: np.ndarray
    conf: np.ndarray
    probs: np.ndarray = field(default_factory=lambda: np.zeros((0, 8)))
    mm_per_px: np.ndarray = field(default_factory=lambda: np.zeros((0,)))
    feats: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), np.float32))
    occupancy: Callable[[np.ndarray], np.ndarray] | None = None

    def __post_init__(self) -> None:
        # not a dataclass field: set after the classes are settled, only for a pool game
        self.identity: np.ndarray | None = None
        n = len(self.px)
        if any(len(getattr(self, f)) != n for f in ("mm", "radius_px", "cls", "conf")) or any(
                len(getattr(self, f)) not in (0, n) for f in ("probs", "mm_per_px", "feats")):
            sizes = ", ".join(f"{f} {len(getattr(self, f))}" for f in ARRAYS)
            raise ValueError(f"detections of different lengths ({sizes}): give one row per ball")

    def __len__(self) -> int:
        return len(self.px)

    def __getitem__(self, mask: np.ndarray) -> BallDetections:
        out = BallDetections(self.px[mask], self.mm[mask], self.radius_px[mask], self.cls[mask],
                             self.conf[mask], self.probs[mask], self.mm_per_px[mask],
                             self.feats[mask], self.occupancy)
        if self.identity is not None:
            out.identity = self.identity[mask]
        return out

    @staticmethod
    def empty() -> BallDetections:
        """No detections."""
        z = np.zeros((0,))
        return BallDetections(np.zeros((0, 2)), np.zeros((0, 2)), z, z.astype(int), z,
                              np.zeros((0, 8)), z, np.zeros((0, 5), np.float32))

    @staticmethod
    def merge(parts: Sequence[BallDetections],
              occupancy: Callable[[np.ndarray], np.ndarray] | None = None) -> BallDetections:
        """The detections of ``parts`` one after another (each array joined in order), with
        ``occupancy`` (the parts' own are not joined: say which frame's map holds)."""
        out = BallDetections(*(np.concatenate([getattr(p, f) for p in parts]) for f in ARRAYS))
        out.occupancy = occupancy
        return out
