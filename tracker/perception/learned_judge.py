"""The learned judge: a crop classifier (:class:`tracker.perception.learned.BallClassifier`)
says of each candidate whether it is a ball and of which colour, with the highlights of
blobs of several balls and a grid over those blobs as more places to ask it
(:class:`tracker.perception.params.LearnedParams`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tracker.perception.candidates import Blob, Candidates
from tracker.perception.colour import class_probs
from tracker.perception.constraint import (
    constrained_classes,
    held_colours_removed,
    one_per_colour_nearby,
)
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.highlights import highlight_centres
from tracker.perception.judge import distinct
from tracker.perception.missing import find_missing_learned
from tracker.perception.refine import refine

#: The detector whose parts this works with (:class:`tracker.perception.detect.BallDetector`),
#: named, not imported: detect imports this module (no import cycle, not even for types).
BallDetector = Any


class LearnedJudge:
    """The learned judge (see the module docstring).

    Args:
        classifier: the crop classifier (``classify(frame, px, radii) -> (N, 9)``: the eight
            colour classes, then "not a ball").
    """

    whole_frame = True

    def __init__(self, classifier: Any):
        self.classifier = classifier

    def white_bonus(self, d: BallDetector) -> float | None:
        """``LearnedParams.white_bonus``: a cream-lit cue ball is the white."""
        return d.params.learned.white_bonus

    def judge(self, d: BallDetector, frame: np.ndarray, cands: Candidates) -> BallDetections:
        """Detections from the candidates ``cands`` judged by the learned classifier: a
        candidate is a ball when the classifier says so (its "not a ball" share below
        ``params.learned.max_none``), its colour class and probabilities are the classifier's; of
        two detections closer than ``params.learned.min_sep`` radii the more ball-like one
        stays. Blobs of several balls are searched for more (:meth:`_search_blobs`)."""
        p = d.params.learned
        px, in_cluster = cands.px, cands.in_cluster
        hl = highlight_centres(d.view, frame, px, in_cluster, cands.blobs, p)
        from_hl = np.r_[np.zeros(len(px), bool), np.ones(len(hl), bool)]
        px = np.concatenate([px, hl])
        p9 = self._white_streak(d, frame, px, self.classifier.classify(frame, px, d.view.radius_at(px)))
        none = p9[:, -1]
        keep = none < p.max_none
        # a circle split from a blob has only the network's word that it is a ball (hair, a
        # hand or knitwear show circles too): "not a ball" must not be its likeliest answer
        split = np.r_[in_cluster, np.zeros(len(hl), bool)]
        keep &= ~(split & (none >= p9[:, :-1].max(1)))
        px, p9, none, from_hl = px[keep], p9[keep], none[keep], from_hl[keep]
        extra, p_extra = (self._search_blobs(d, frame, px, cands.blobs) if p.search_blobs
                          else (px[:0], p9[:0]))
        if len(extra):
            ok = p_extra[:, -1] < min(p.max_none, p.grid_max_none)
            px = np.concatenate([px, extra[ok]])
            p9 = np.concatenate([p9, p_extra[ok]])
            none = p9[:, -1]
        feats = d.colour_features(frame, px)
        from_hl = np.r_[from_hl, np.zeros(len(px) - len(from_hl), bool)]
        # a centre under a highlight is preferred to a split or grid point beside it; two
        # highlights are two balls (one ball shows one: ``highlights.spots_in`` merges closer
        # peaks), though in a TV pack a ball's centre stands under a radius below the one
        # behind it
        keep = distinct(d.view, px, feats, min_sep=p.min_sep, score=from_hl - none, apart=from_hl,
                        apart_radii=p.highlight_min_sep_radii)
        px, p9, feats = px[keep], p9[keep], feats[keep]
        probs = p9[:, :-1] / np.maximum(p9[:, :-1].sum(1, keepdims=True), 1e-6)
        keep = one_per_colour_nearby(px, probs, d.view.radius_at(px), p.unique_twin_radii, d.capacity)
        px, probs, feats, none = px[keep], probs[keep], feats[keep], p9[keep, -1]
        out = d.detections(px, probs.argmax(1), probs.max(1), probs, feats)
        inside = d.view.can_hold(out.mm, d.params.candidates.hold_slack_radii)
        out, none = out[inside], none[inside]
        held = held_colours_removed(out.probs, p.unique_hold_prob, d.capacity)
        # a detection whose classes were held by others, left with one less likely than "not a
        # ball" (the tail of the cue ball's streak, split from it), is no ball
        top = held.argmax(1)
        raw = out.probs[np.arange(len(out)), top] * (1.0 - none)
        ok = (top == out.cls) | (raw >= none)
        out = out[ok]
        out.probs = held[ok]
        out.cls, out.conf = out.probs.argmax(1), out.probs.max(1)
        out.occupancy = d.view.occupancy(cands.fg)
        return out

    def _white_streak(self, d: BallDetector, frame: np.ndarray, px: np.ndarray,
                      p9: np.ndarray) -> np.ndarray:
        """The network's probabilities (N, 9) at the candidates ``px`` (N, 2), with the cue ball
        put back when the network sees none: a real cue ball struck hard is a long faint
        streak, unlike the renderer's blur the network learned, and it refuses it. When no
        candidate is a ball most likely the white, the refused candidate whose colour is most
        like the white's prototype (at least ``streak_white_prob``) is the white."""
        if not d.colours_learned or not len(px):
            return p9
        ball = p9[:, -1] < d.params.learned.max_none
        if (ball & (p9[:, :-1].argmax(1) == 0)).any() or ball.all():
            return p9
        refused = np.nonzero(~ball)[0]
        white = class_probs(d.colour_features(frame, px[refused]), d.protos)[:, 0]
        i = int(np.argmax(white))
        if white[i] >= d.params.learned.streak_white_prob:
            p9 = p9.copy()
            p9[refused[i]] = 0.0
            p9[refused[i], 0] = white[i]
            p9[refused[i], -1] = 1.0 - white[i]
        return p9

    def _search_blobs(self, d: BallDetector, frame: np.ndarray, kept: np.ndarray,
                      blobs: list[Blob], min_sep: float | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Balls the candidates missed inside ``blobs`` of several balls: the classifier judges
        points on a grid (every ``LearnedParams.grid_stride_radii`` local radii) over each blob; the most ball-like
        points, at least ``min_sep`` radii from every kept detection and from each other,
        are balls (refined like the candidates). Returns (px (M, 2), probabilities (M, 9))."""
        min_sep = d.params.learned.min_sep if min_sep is None else min_sep
        stride = d.params.learned.grid_stride_radii
        pts = []
        for x, y, sub, r in blobs:
            step = max(1.0, stride * r)
            ys, xs = np.mgrid[0:sub.shape[0]:step, 0:sub.shape[1]:step]
            ys, xs = ys.ravel(), xs.ravel()
            inside = sub[ys.astype(int), xs.astype(int)]
            pts.append(np.stack([xs[inside] + x, ys[inside] + y], 1) / d.view.scale)
        if not pts or not sum(len(p) for p in pts):
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        grid = np.concatenate(pts)
        radii = d.view.radius_at(grid)
        if len(kept):  # a point within min_sep of a kept ball cannot be another ball
            near = np.linalg.norm(grid[:, None, :] - kept[None, :, :], axis=2).min(1)
            grid, radii = grid[near >= min_sep * radii], radii[near >= min_sep * radii]
        if not len(grid):
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        p9 = self.classifier.classify(frame, grid, radii)
        ball = 1.0 - p9[:, -1]
        taken = list(kept)
        out = []
        for i in np.argsort(-ball):
            if ball[i] < 1.0 - d.params.learned.max_none:
                break
            if all(np.hypot(*(grid[i] - q)) >= min_sep * radii[i] for q in taken):
                taken.append(grid[i])
                out.append(i)
        if not out:
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        px = refine(d.view, d.cloth.cloth_map, frame, np.concatenate([kept, grid[out]]))[len(kept):]
        return px, self.classifier.classify(frame, px, d.view.radius_at(px))

    def learn_colours(self, d: BallDetector, frames: list[np.ndarray]) -> None:
        """With the learned classifier the colours need no learning; the prototypes (used by
        :meth:`~tracker.perception.detect.BallDetector.find_missing`) become the mean features of each class's balls as the
        classifier labels them under the game's constraint."""
        sums = np.zeros_like(d.protos)
        counts = np.zeros(len(CLASSES))
        for f in frames:
            det = d.detect(f)
            if not len(det):
                continue
            cls = constrained_classes(self.class_cost(d, det), cap=d.capacity)
            for k in range(len(CLASSES)):
                sums[k] += det.feats[cls == k].sum(0)
                counts[k] += (cls == k).sum()
        d.protos = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None],
                            d.protos).astype(np.float32)
        d.colours_learned = True

    def class_cost(self, d: BallDetector, det: BallDetections) -> np.ndarray:
        """``-cost_scale * log(p)`` of the classifier's probabilities."""
        return -d.params.learned.cost_scale * np.log(np.clip(det.probs, 1e-6, 1.0))

    def find_missing(self, d: BallDetector, frame: np.ndarray, det: BallDetections,
                     classes: list[int]) -> BallDetections:
        return find_missing_learned(d, self.classifier, frame, det, classes)
