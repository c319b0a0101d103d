"""Ball detection on the calibrated table region: colour and shape, no learned weights (or a
learned crop classifier as the judge).

Per frame: pixels that are not cloth (chroma far from the learned cloth colour, or much darker
than the cloth's shadows) inside the table region form blobs; a blob of one ball's size is a
ball, a larger one is split at its circles (touching clusters), and a blob whose interior is
much wider than a ball (a player's body, an arm) yields no ball. Centres are refined on the
full-resolution frame and mapped to the table with the parallax correction. Each ball gets one
of eight colour classes with a confidence.

:class:`BallDetector` puts the stages together, one module each:

- :mod:`~tracker.perception.geometry`: the camera's view of the table, ball radii, positions;
- :mod:`~tracker.perception.cloth`: the cloth model, the fixtures, a frame's foreground;
- :mod:`~tracker.perception.candidates` (with :mod:`~tracker.perception.faint`): where balls
  may be, returned as :class:`~tracker.perception.candidates.Candidates`;
- :mod:`~tracker.perception.refine`: sub-pixel centres and the disc fit;
- :mod:`~tracker.perception.colour`: colour features and prototypes;
- :mod:`~tracker.perception.judge` / :mod:`~tracker.perception.learned_judge`: which
  candidates are balls of which colour (the colour and the learned judge);
- :mod:`~tracker.perception.constraint`: the game's one-of-each constraint;
- :mod:`~tracker.perception.missing`: the missing-ball search on stills;
- :mod:`~tracker.perception.detections`: the detections container;
- :mod:`~tracker.perception.params`: every stage's tunables.

The detector works on a frame downscaled by ``scale`` (default 0.5) for speed.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from calibration.profile import Calibration
from tracker.perception import params as P
from tracker.perception.candidates import Candidates, find_candidates
from tracker.perception.cloth import Cloth, ClothMaps, Foreground
from tracker.perception.colour import colour_features, proto_features
from tracker.perception.constraint import (
    CAPACITY,
    capacity,
    constrained_classes,
    unique_classes,
)
from tracker.perception.detections import CLASSES, BallDetections
from tracker.perception.geometry import TableView
from tracker.perception.judge import ColourJudge, Judge
from tracker.perception.learned_judge import LearnedJudge
from tracker.perception.params import DetectorParams
from tracker.rules.ballset import BallSet

__all__ = ["CAPACITY", "CLASSES", "BallDetections", "BallDetector", "Candidates", "ClothMaps",
           "Foreground", "constrained_classes"]


class BallDetector:
    """Finds balls in frames of one calibrated camera.

    Args:
        cal: the calibration.
        scale: processing scale of the frame (0.5 = half resolution).
        params: every stage's tunables (:data:`tracker.perception.params.DEFAULT` as it is
            now when not given).
        judge: how candidates are judged (:class:`~tracker.perception.judge.ColourJudge`
            when not given).
        balls: the game's balls (snooker's when not given): how many of each colour class a
            frame can hold.

    Attributes:
        view: the camera's view of the table (:class:`TableView`).
        cloth: the cloth model (:class:`Cloth`).
        protos: (8, 5) the colour prototypes (learned per camera by :meth:`learn_colours`).
        colours_learned: whether they have been.
    """

    def __init__(self, cal: Calibration, scale: float = 0.5, params: DetectorParams | None = None,
                 judge: Judge | None = None, balls: BallSet | None = None):
        self.params = params or P.DEFAULT
        self.view = TableView(cal, scale, self.params.apparent)
        self.cloth = Cloth(self.view, self.params.foreground, self.params.fixtures)
        self.judge_by: Judge = judge or ColourJudge()
        self.capacity = CAPACITY if balls is None else capacity(balls)
        self.protos = proto_features()
        self.colours_learned = False

    # ------------------------------------------------------------------ the parts' names
    @property
    def cal(self) -> Calibration:
        return self.view.cal

    @property
    def scale(self) -> float:
        return self.view.scale

    @property
    def small(self) -> tuple[int, int]:
        """The working-scale picture's size (w, h) px."""
        return self.view.small

    @property
    def r_px(self) -> float:
        """Apparent ball radius at the table centre, full-resolution px."""
        return self.view.r_px

    @property
    def region(self) -> np.ndarray:
        return self.view.region

    @property
    def bed(self) -> np.ndarray:
        return self.view.bed

    @property
    def pocket_zone(self) -> np.ndarray:
        return self.view.pocket_zone

    @property
    def static(self) -> np.ndarray:
        """The fixtures masked out of every frame (:attr:`Cloth.static`)."""
        return self.cloth.static

    @property
    def cloth_lab(self) -> np.ndarray | None:
        return self.cloth.cloth_lab

    @property
    def cloth_map(self) -> np.ndarray | None:
        return self.cloth.cloth_map

    @property
    def classifier(self) -> Any:
        """The learned judge's crop classifier, or None (the colour judge)."""
        return getattr(self.judge_by, "classifier", None)

    @classifier.setter
    def classifier(self, value: Any) -> None:
        self.judge_by = ColourJudge() if value is None else LearnedJudge(value)

    @property
    def fresh(self) -> bool:
        """No whole picture has been searched since the cloth was learned."""
        return self.cloth.fresh

    def radius_at(self, px: np.ndarray) -> np.ndarray:
        """Apparent ball radius (full-resolution px) at image points (N, 2)."""
        return self.view.radius_at(px)

    def can_hold(self, mm: np.ndarray) -> np.ndarray:
        """:meth:`TableView.can_hold` with this detector's slack
        (:attr:`CandidateParams.hold_slack_radii`)."""
        return self.view.can_hold(mm, self.params.candidates.hold_slack_radii)

    # ------------------------------------------------------------------ set-up
    def learn_cloth(self, frame: np.ndarray, others: list[np.ndarray] | None = None) -> None:
        """Learn the cloth from a frame (and ``others`` of the same camera):
        :meth:`Cloth.learn`."""
        self.cloth.learn(frame, others)

    def learn_colours(self, frames: list[np.ndarray] | np.ndarray) -> None:
        """Adapt the colour prototypes to this camera and light from frames of balls at rest
        (:meth:`Judge.learn_colours`: the colour judge learns them under the game's constraint
        and the spots; the learned judge takes each class's mean feature as its network
        labels them)."""
        if isinstance(frames, np.ndarray):
            frames = [frames]
        self.judge_by.learn_colours(self, frames)

    # ------------------------------------------------------------------ per frame
    def foreground(self, small: np.ndarray, opened: bool = True) -> Foreground:
        """The non-cloth pixels of a working-scale picture (:meth:`Cloth.foreground`)."""
        return self.cloth.foreground(small, opened)

    def candidates(self, frame: np.ndarray, small: np.ndarray | None = None,
                   fg: Foreground | None = None) -> Candidates:
        """Where balls may be in one BGR frame, before any colour is judged.

        Args:
            small: the frame already downscaled to the working scale (``self.small``,
                INTER_AREA), when the caller has it.
            fg: :meth:`foreground` of ``small`` when the caller has it (``small`` must then be
                given too).
        """
        if not self.cloth.learned:
            self.learn_cloth(frame)
        if small is None:
            small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        if fg is None:
            fg = self.foreground(small)
        if self.view.offset is None:
            self.cloth.fresh = False
        return find_candidates(self.view, self.cloth, frame, small, fg, self.params)

    def detect(self, frame: np.ndarray, small: np.ndarray | None = None) -> BallDetections:
        """Balls in one BGR frame (full resolution); ``small``: see :meth:`candidates`."""
        return self.judge(frame, self.candidates(frame, small))

    def judge(self, frame: np.ndarray, cands: Candidates) -> BallDetections:
        """Detections from the candidates ``cands`` (:meth:`candidates`) of ``frame``."""
        if not len(cands):
            out = BallDetections.empty()
            out.occupancy = self.view.occupancy(cands.fg)
            return out
        return self.judge_by.judge(self, frame, cands)

    def cut(self, x0: int, y0: int, x1: int, y1: int) -> BallDetector:
        """The detector seeing only the box [x0, x1) x [y0, y1) (working-scale px, x0 and y0
        even): its view and cloth cut to the box, the frames it is given the box's pixels
        (full resolution) and its candidates in the box's pixels."""
        out = object.__new__(BallDetector)
        out.__dict__.update(self.__dict__)
        out.view = self.view.cut(x0, y0, x1, y1)
        out.cloth = self.cloth.cut(out.view, x0, y0, x1, y1)
        return out

    # ------------------------------------------------------------------ for the judges
    def colour_features(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        """Median colour features (N, 5) of the disc of 0.55 radii around each centre (N, 2)
        (:func:`tracker.perception.colour.colour_features`)."""
        return colour_features(frame, px, self.r_px, self.params.colour)

    def detections(self, px: np.ndarray, cls: np.ndarray, conf: np.ndarray, probs: np.ndarray,
                   feats: np.ndarray) -> BallDetections:
        """Detections at image centres ``px`` (N, 2): table positions, local radii and
        scale."""
        mm, mm_per_px = self.view.locate(px)
        return BallDetections(px, mm, self.radius_at(px), cls, conf, probs, mm_per_px, feats)

    def class_cost(self, det: BallDetections) -> np.ndarray:
        """Cost (N, 8) of each detection being each class (for :func:`constrained_classes`):
        the prototypes' feature distance, or, with the learned judge,
        ``-cost_scale * log(p)``."""
        return self.judge_by.class_cost(self, det)

    # ------------------------------------------------------------------ stills
    def detect_constrained(self, frame: np.ndarray) -> BallDetections:
        """Detections of one still frame labelled under the game's constraint (see
        :func:`constrained_classes`); detections left without a class (more balls of a colour
        than the game has) are dropped; a unique colour none is then looked for
        (:meth:`find_missing`)."""
        det = self.detect(frame)
        if len(det):
            cls = constrained_classes(self.class_cost(det), white_bonus=self.judge_by.white_bonus(self),
                                      cap=self.capacity)
            keep = cls >= 0
            det = det[keep]
            det.cls = cls[keep]
            det.conf = det.probs[np.arange(len(det)), det.cls]
        missing = [k for k in unique_classes(self.capacity) if k not in set(det.cls)]
        return self.find_missing(frame, det, missing)

    def find_missing(self, frame: np.ndarray, det: BallDetections,
                     classes: list[int]) -> BallDetections:
        """``det`` with balls of the given classes (indices into :data:`CLASSES`) that the
        candidates missed added (:mod:`tracker.perception.missing`)."""
        if not classes or not self.cloth.learned:
            return det
        return self.judge_by.find_missing(self, frame, det, classes)
