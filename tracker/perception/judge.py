"""The judge: which candidates are balls, and of which colour. Two strategies behind one
interface (:class:`Judge`): the colour judge (:class:`ColourJudge`, the camera's colour
prototypes) and the learned judge (:class:`tracker.perception.learned_judge.LearnedJudge`,
the crop classifier). A :class:`tracker.perception.detect.BallDetector` holds one; the
judge reads the detector's view, cloth, prototypes and parameters, and never changes them
but through :meth:`Judge.learn_colours`.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from tracker.perception.candidates import Candidates
from tracker.perception.colour import class_cost, class_probs
from tracker.perception.constraint import constrained_classes
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.geometry import TableView
from tracker.perception.missing import find_missing_colour
from tracker.perception.params import ColourLearningParams
from tracker.perception.refine import fit_discs

#: The detector whose parts this works with (:class:`tracker.perception.detect.BallDetector`),
#: named, not imported: detect imports this module (no import cycle, not even for types).
BallDetector = Any


class Judge(Protocol):
    """How a detector judges its candidates.

    Attributes:
        whole_frame: judges a frame as a whole (one detection per unique colour, the white's
            streak when no detection is the white, highlights against the frame's single
            balls): a box of the frame searched alone would be misread.
    """

    whole_frame: bool

    def white_bonus(self, d: BallDetector) -> float | None:
        """The cue ball's own bonus under the game's constraint on a still
        (:func:`tracker.perception.constraint.constrained_classes`); None: as a colour's."""
        ...

    def judge(self, d: BallDetector, frame: np.ndarray, cands: Candidates) -> BallDetections:
        """Detections from the candidates ``cands`` (at least one) of ``frame``."""
        ...

    def class_cost(self, d: BallDetector, det: BallDetections) -> np.ndarray:
        """Cost (N, 8) of each detection being each class, for the game's constraint."""
        ...

    def learn_colours(self, d: BallDetector, frames: list[np.ndarray]) -> None:
        """Set ``d``'s colour prototypes from frames of its camera."""
        ...

    def find_missing(self, d: BallDetector, frame: np.ndarray, det: BallDetections,
                     classes: list[int]) -> BallDetections:
        """``det`` with balls of ``classes`` the candidates missed added."""
        ...


def distinct(view: TableView, px: np.ndarray, feats: np.ndarray, min_sep: float,
             score: np.ndarray | None = None, apart: np.ndarray | None = None,
             apart_radii: float = 0.7) -> np.ndarray:
    """Mask (N,) dropping the darker of two detections closer than ``min_sep`` local radii
    on screen: a ball lit from above shows a bright top and a dark underside, which a
    cluster split can take for two balls (touching balls stand at least ~1.4 radii apart
    on screen even one behind the other in a TV view). ``score`` (N,): keep the higher
    instead of the brighter. ``apart`` (N,) bool: two detections both marked (each
    proposed by a highlight of its own) are two balls when at least ``apart_radii`` apart
    (the same highlight seen from two blobs' windows is one)."""
    keep = np.ones(len(px), bool)
    if len(px) < 2:
        return keep
    r = view.radius_at(px)
    order = np.argsort(-(feats[:, 3] if score is None else score))  # brightest first
    dist = np.linalg.norm(px[:, None, :] - px[None, :, :], axis=2)
    rr = np.maximum(r[:, None], r[None, :])
    close = dist < min_sep * rr
    if apart is not None:
        close &= ~(apart[:, None] & apart[None, :] & (dist >= apart_radii * rr))
    for a_i, a in enumerate(order):
        if keep[a]:  # it drops every later (darker) one close to it
            later = order[a_i + 1:]
            keep[later[close[a, later]]] = False
    return keep


class ColourJudge:
    """The colour judge: each candidate's colour features against the camera's colour
    prototypes (:mod:`tracker.perception.colour`)."""

    whole_frame = False

    def white_bonus(self, d: BallDetector) -> float | None:
        return None

    def judge(self, d: BallDetector, frame: np.ndarray, cands: Candidates) -> BallDetections:
        p = d.params
        px, in_cluster = cands.px, cands.in_cluster
        feats = d.colour_features(frame, px)
        keep = distinct(d.view, px, feats, p.colour.distinct_min_sep_radii,
                        apart_radii=p.learned.highlight_min_sep_radii)
        if d.colours_learned:
            # a circle split from a blob, or a faint disc, must look like a ball's colour
            doubtful = in_cluster | cands.faint
            keep &= ~(doubtful & (class_cost(feats, d.protos).min(1) > p.colour.cluster_max_cost))
        px, feats = px[keep], feats[keep]
        probs = class_probs(feats, d.protos)
        cls = probs.argmax(1)
        low = cands.low_contrast[keep]
        if d.colours_learned and low.any():
            # a ball nearly the cloth's colour: placed by its colour, not its shadow
            px = fit_discs(d.view, d.cloth.cloth_map, d.protos, frame, px, cls, low, p.refine)
        out = d.detections(px, cls, probs.max(1), probs, feats)
        out.occupancy = d.view.occupancy(cands.fg)
        return out[d.view.can_hold(out.mm, p.candidates.hold_slack_radii)]

    def class_cost(self, d: BallDetector, det: BallDetections) -> np.ndarray:
        """The prototypes' squared feature distance."""
        return class_cost(det.feats, d.protos)

    def learn_colours(self, d: BallDetector, frames: list[np.ndarray]) -> None:
        """Adapt the eight colour prototypes to this camera and light from frames of balls at
        rest (the opening rack, or any layouts seen by the same camera).

        Each round labels every frame's detections under the game's constraint (one white,
        at most 15 reds, one of each colour per frame) and moves every class's prototype to
        the mean feature of its balls over all frames; a class never seen keeps its
        prototype. The camera's white balance and exposure move all colours together, so a
        brown that reads almost red under a strong light is still told apart from the reds
        by being, in each frame, the one ball most like the brown. The first round gives
        lightness little weight (exposure moves it most) and ranks the balls within the frame
        (each class's cost less its best ball's cost) instead of trusting the stock
        prototypes' absolute distances. A ball standing on a colour's spot (within
        ``spot_tolerance_radii``: the apex red of a rack is two radii from the pink spot) is
        taken to be that colour unless its colour says clearly otherwise: in a frame start
        or mid-frame most colours are on their spots, and this anchors the dark ones (brown,
        black, a green on green cloth) that the features alone confuse under broadcast light.
        """
        q = d.params.learning
        seen = _spot_priors(d, frames, q)
        if not seen:
            return
        for it in range(q.iterations):
            sums = np.zeros_like(d.protos)
            counts = np.zeros(len(CLASSES))
            for feats, prior in seen:
                cost = class_cost(feats, d.protos, q.first_round_lightness if it == 0 else 1.0)
                if it == 0:
                    # stock prototypes are only a rough guide: rank within the frame (each
                    # class's place goes to the ball most like it, relative to the others;
                    # the absolute distance breaks ties: when a class has no ball in view, the
                    # ball most like it is often most like its own class too)
                    rel = cost - cost.min(0, keepdims=True)
                    cost = np.where(cost < q.rank_below_cost, rel + q.rank_abs_weight * cost,
                                    cost)
                # the spot breaks near-ties only: a red on the green spot stays a red
                base = class_cost(feats, d.protos, q.first_round_lightness)
                tie = base - base.min(1, keepdims=True) < q.spot_tie_cost
                cls = constrained_classes(cost - prior * tie, unique_bonus=q.unique_bonus,
                                          white_bonus=q.white_bonus, cap=d.capacity)
                for k in range(len(CLASSES)):
                    sums[k] += feats[cls == k].sum(0)
                    counts[k] += (cls == k).sum()
            protos = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], d.protos)
            done = np.allclose(protos, d.protos)
            d.protos = protos.astype(np.float32)
            d.colours_learned = True
            if done:
                break

    def find_missing(self, d: BallDetector, frame: np.ndarray, det: BallDetections,
                     classes: list[int]) -> BallDetections:
        return find_missing_colour(d, frame, det, classes, d.params.colour.missing_max_cost)


def _spot_priors(d: BallDetector, frames: list[np.ndarray], q: ColourLearningParams
                 ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per frame with detections: their features (N, 5) and the bonus (N, 8) of standing on
    a colour's spot (``q.spot_bonus`` for that colour within ``q.spot_tolerance_radii``)."""
    t = d.view.cal.table
    spot_names = [n for n in CLASSES if n in t.spots]
    spot_xy = np.array([t.spots[n] for n in spot_names], float)
    seen = []
    for f in frames:
        det = d.detect(f)
        if len(det):
            prior = np.zeros((len(det), len(CLASSES)), np.float32)
            dist = np.linalg.norm(det.mm[:, None, :] - spot_xy[None], axis=2)
            # within the tolerance, widened where the view is coarse (a far ball in a TV
            # view: a few px are tens of mm), never as far as a racked red from the pink
            tol = np.minimum(q.spot_reach_max_radii * t.ball_radius,
                             q.spot_tolerance_radii * t.ball_radius
                             + q.spot_reach_px * det.mm_per_px)
            for j, name in enumerate(spot_names):
                prior[dist[:, j] <= tol, CLASSES.index(name)] = q.spot_bonus
            seen.append((det.feats, prior))
    return seen
