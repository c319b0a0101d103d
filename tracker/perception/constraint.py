"""The game's one-of-each constraint on one frame's detections: how many balls of each colour
class the game's ball set has (one white, 15 reds, one of each colour in snooker), and the
labelling that keeps to it.

The counts come from the ruleset's :class:`tracker.rules.ballset.BallSet` (its ``looks``), so
another game's balls need no change here.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from tracker.perception.detections import CLASSES
from tracker.perception.params import LearnedParams
from tracker.rules.ballset import BallSet, snooker_balls


def capacity(balls: BallSet) -> dict[str, int]:
    """How many balls of each of :data:`CLASSES` a frame of the game ``balls`` can hold (0 for
    a class none of its balls looks like)."""
    seen = Counter(balls.looks[b] for b in balls.ids)
    return {name: seen.get(name, 0) for name in CLASSES}


#: A detection at least this sure of its colour (0..1) may be a unique ball (the white, a
#: colour): the tracker's ``TrackerConfig.min_class_conf``, the confidence from which
#: :func:`tracker.perception.unique.settle_unique_classes` counts a claim, and the confidence
#: it gives a detection the game's constraint moved to another class (and the missing-ball
#: search gives a ball it found): the game, not the colour alone, says it, and that is as
#: sure as the tracker needs.
SURE_CONF = 0.5

#: The cost (on the judges' class-cost scale) of calling a detection no ball at all (a cuff, a
#: hand, a fitting): a detection at least this far from every free class is left unlabelled,
#: on a still (:func:`constrained_classes`) and in a contest during play
#: (:func:`tracker.perception.unique.settle_unique_classes`) alike.
REJECT_COST = 0.25

#: How many balls of each class a frame of snooker can hold.
CAPACITY = capacity(snooker_balls())


def unique_classes(cap: dict[str, int] = CAPACITY) -> list[int]:
    """Indices into :data:`CLASSES` of the classes the game has exactly one ball of."""
    return [k for k, name in enumerate(CLASSES) if cap[name] == 1]


def constrained_classes(cost: np.ndarray, reject_cost: float = REJECT_COST,
                        unique_bonus: float = 0.1, white_bonus: float | None = None,
                        cap: dict[str, int] = CAPACITY) -> np.ndarray:
    """Colour classes under the game's constraint: at most ``cap`` balls of each class, by a
    minimum-cost assignment of detections to class slots.

    Args:
        cost: (N, 8) class costs (squared feature distances to the class prototypes, or the
            learned judge's ``-scale * log p``).
        reject_cost: cost of leaving a detection unlabelled (not a ball of any free class).
        unique_bonus: cost taken off for filling the white's or a colour's one place: the ball
            most like the brown is the brown even when it is nearer the reds' prototype, while
            a red far from the brown stays a red when the brown is off the table.
        white_bonus: the white's own bonus, when it differs (a frame of play has the cue ball
            in it: a cream-lit white is still the white when no yellow is on the table).
        cap: balls per class (:func:`capacity`).

    Returns:
        (N,) class index per detection, -1 where it is left unlabelled.
    """
    from scipy.optimize import linear_sum_assignment

    n = len(cost)
    cols = [k for k, name in enumerate(CLASSES) for _ in range(cap[name])]
    bonus = np.array([unique_bonus if cap[CLASSES[k]] == 1 else 0.0 for k in cols])
    if white_bonus is not None:
        bonus[[i for i, k in enumerate(cols) if CLASSES[k] == "white"]] = white_bonus
    big = np.concatenate([cost[:, cols] - bonus, np.full((n, n), reject_cost)], axis=1)
    rows, picked = linear_sum_assignment(big)
    out = np.full(n, -1, int)
    for r, c in zip(rows, picked, strict=True):
        if c < len(cols):
            out[r] = cols[c]
    return out


def one_per_colour_nearby(px: np.ndarray, probs: np.ndarray, radii: np.ndarray,
                          within: float = LearnedParams().unique_twin_radii,
                          cap: dict[str, int] = CAPACITY) -> np.ndarray:
    """Mask (N,) dropping the less sure of two detections within ``within`` local radii on
    screen that both read as the same colour of which the game has one ball: one ball and
    its own shadowed underside (a real TV ball's shadow under it reads as a second ball of
    its colour). Reds, of which there are many, touch."""
    keep = np.ones(len(px), bool)
    cls = probs.argmax(1)
    order = np.argsort(-probs.max(1))
    for a_i, a in enumerate(order):
        if not keep[a] or cap[CLASSES[cls[a]]] != 1:
            continue
        for b in order[a_i + 1:]:
            if (keep[b] and cls[b] == cls[a]
                    and np.linalg.norm(px[a] - px[b]) < within * max(radii[a], radii[b])):
                keep[b] = False
    return keep


def held_colours_removed(probs: np.ndarray, hold: float = LearnedParams().unique_hold_prob,
                         cap: dict[str, int] = CAPACITY) -> np.ndarray:
    """Class probabilities (N, 8) under the game's constraint: a colour of which the game has
    one ball, held by a detection at least ``hold`` sure of it, is not the colour of any other
    detection of the frame; their probabilities are renormalised over the rest (a real cue ball
    lit cream, as likely the yellow as the white to the network, is the white when the yellow
    stands elsewhere)."""
    out = probs.astype(np.float64).copy()
    for k, name in enumerate(CLASSES):
        if cap[name] != 1 or not len(out):
            continue
        i = int(np.argmax(probs[:, k]))
        if probs[i, k] >= hold:
            others = np.arange(len(out)) != i
            out[others, k] = 0.0
    out /= np.maximum(out.sum(1, keepdims=True), 1e-9)
    return out.astype(probs.dtype)
