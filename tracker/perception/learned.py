"""The learned ball classifier: a small CNN, run through onnxruntime, that judges each
candidate the colour detector proposes (a ball or not, and which colour).

The colour detector (:mod:`tracker.perception.detect`) finds where balls may be (non-cloth
blobs, circles in clusters, motion-blur streaks) and is good at it; what it gets wrong on a TV
view is the judgement: a white ball near the camera shaded grey read as the black, a player's
black sleeve read as the black ball, a cluster circle refused as "not ball-coloured". Here a
crop of each candidate, scaled by the local apparent ball radius so that a far 5 px ball and
a near 20 px one look alike, goes through the network, which answers nine probabilities: the
eight colour classes of :data:`tracker.perception.detections.CLASSES` and "not a ball". The
detections keep the colour detector's :class:`BallDetections` form, so tracking and events
are unchanged.

No torch at run time: the weights are an ONNX file (``models/ball_classifier.onnx``, its card
``models/ball_classifier.md``); training is ``train/train_ball_classifier.sh`` (the ``train``
extra).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.profile import Calibration
from tracker.perception.detections import CLASSES

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
#: The committed model: shipped in the package (``tracker/perception/models``, a link to the
#: checkout's ``models/`` that a wheel build copies), else the checkout's.
MODEL_PATH = next((p for p in (Path(__file__).resolve().parent / "models" / "ball_classifier.onnx",
                               ROOT / "models" / "ball_classifier.onnx") if p.is_file()),
                  ROOT / "models" / "ball_classifier.onnx")


@dataclass(frozen=True)
class ClassifierParams:
    """The crop classifier's contract with its trained model, and when it is used.

    Attributes:
        crop_size: crop side, px: the network's input is ``crop_size`` x ``crop_size`` x 3.
            The training (``train/train_ball_classifier.py``) writes it into the model, whose
            own value then holds.
        crop_span_radii: a crop spans this many ball radii across, centred on the candidate
            (the ball fills half); written into the model likewise.
        labels: the classifier's answers: the eight colour classes of
            :data:`tracker.perception.detections.CLASSES`, in their order, then "not a ball"
            (a model trained to other labels is refused).
        threads: onnxruntime threads (1: the pipeline is one process per camera).
        oblique_ratio: a camera looks at the table at a slant (a TV main camera, where the
            learned judge is the better: docs/PERCEPTION.md) when the apparent ball radius at
            one end of the table is more than this times the other end's (1.3: 30 %) ...
        oblique_probe_radii: ... measured on the long axis this many ball radii in from each
            end cushion.

    What the judge then does with the answers (how sure "not a ball" must be, the blob search)
    is the detector's :class:`tracker.perception.params.LearnedParams`.
    """

    crop_size: int = 24
    crop_span_radii: float = 4.0
    labels: tuple[str, ...] = (*CLASSES, "none")
    threads: int = 1
    oblique_ratio: float = 1.3
    oblique_probe_radii: float = 3.0


#: The classifier's contract and use.
CLASSIFIER = ClassifierParams()
#: Detector names for ``--detector``.
DETECTORS = ("colour", "learned", "auto")


class LearnedUnavailable(ValueError):
    """The learned detector cannot run here; the message says why and what to do."""


def crops(frame: np.ndarray, px: np.ndarray, radii: np.ndarray, size: int | None = None,
          span: float | None = None) -> np.ndarray:
    """Square crops around image points, each scaled so that it spans ``span`` local ball
    radii: (N, size, size, 3) uint8 BGR.

    Args:
        frame: BGR image (h, w, 3) uint8, full resolution.
        px: (N, 2) centres, px.
        radii: (N,) apparent ball radius at each centre, px.
        size, span: the crop's side (px) and span (radii); :data:`CLASSIFIER`'s when not given.
    """
    size = CLASSIFIER.crop_size if size is None else size
    span = CLASSIFIER.crop_span_radii if span is None else span
    out = np.empty((len(px), size, size, 3), np.uint8)
    for i, ((x, y), r) in enumerate(zip(np.asarray(px, float), np.asarray(radii, float), strict=True)):
        k = size / (span * max(float(r), 0.5))  # output px per input px
        # maps the input point (x, y) to the crop's centre
        m = np.array([[k, 0.0, size / 2.0 - 0.5 - k * x], [0.0, k, size / 2.0 - 0.5 - k * y]])
        interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
        out[i] = cv2.warpAffine(frame, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out


def to_input(batch: np.ndarray) -> np.ndarray:
    """Crops (N, s, s, 3) uint8 BGR -> the network's input (N, 3, s, s) float32 in 0..1."""
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), np.float32) / 255.0


class BallClassifier:
    """The ONNX crop classifier.

    Args:
        path: the ONNX file (default the committed model).
        params: the contract and threads (:data:`CLASSIFIER` when not given).

    Raises:
        LearnedUnavailable: onnxruntime missing, or the model file missing or unreadable.
    """

    def __init__(self, path: str | Path = MODEL_PATH, params: ClassifierParams | None = None):
        params = CLASSIFIER if params is None else params
        try:
            import onnxruntime as ort
        except ImportError:
            raise LearnedUnavailable("the learned detector needs onnxruntime (pip install "
                                     "onnxruntime), or use --detector colour") from None
        path = Path(path)
        if not path.is_file():
            raise LearnedUnavailable(f"no learned model at {path}: train it "
                                     "(train/train_ball_classifier.sh) or use --detector colour")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = params.threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        try:
            self.session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise LearnedUnavailable(f"{path}: not a readable ONNX model ({exc}); re-train it or "
                                     "use --detector colour") from None
        meta = self.session.get_modelmeta().custom_metadata_map
        self.size = int(meta.get("crop_size", params.crop_size))
        self.span = float(meta.get("crop_span_radii", params.crop_span_radii))
        self.labels = tuple(json.loads(meta["labels"])) if "labels" in meta else params.labels
        if self.labels != params.labels:
            raise LearnedUnavailable(f"{path}: labels {self.labels} are not {params.labels}; "
                                     "re-train it")
        self.input = self.session.get_inputs()[0].name

    def classify(self, frame: np.ndarray, px: np.ndarray, radii: np.ndarray) -> np.ndarray:
        """Probabilities (N, 9) over the labels (``ClassifierParams.labels``) of the
        candidates at ``px`` (N, 2)."""
        if not len(px):
            return np.zeros((0, len(self.labels)), np.float32)
        x = to_input(crops(frame, px, radii, self.size, self.span))
        logits = self.session.run(None, {self.input: x})[0]
        logits = logits - logits.max(1, keepdims=True)
        p = np.exp(logits)
        return (p / p.sum(1, keepdims=True)).astype(np.float32)


_CACHE: dict[str, BallClassifier] = {}


def load_classifier(path: str | Path = MODEL_PATH) -> BallClassifier:
    """The classifier, loaded once per process (raises :class:`LearnedUnavailable`)."""
    key = str(path)
    if key not in _CACHE:
        _CACHE[key] = BallClassifier(path)
    return _CACHE[key]


def oblique(cal: Calibration) -> bool:
    """Whether the camera looks at the table at a slant (a TV main camera) rather than
    straight down (``ClassifierParams.oblique_ratio``)."""
    t = cal.table
    inset = t.ball_radius * CLASSIFIER.oblique_probe_radii
    ends = np.array([[t.width / 2, inset], [t.width / 2, t.length - inset]])
    r = []
    for c in ends:
        p0 = cal.to_image(c[None], t.ball_radius)[0]
        p1 = cal.to_image(c[None] + [[t.ball_radius, 0]], t.ball_radius)[0]
        r.append(float(np.linalg.norm(p1 - p0)))
    return max(r) > CLASSIFIER.oblique_ratio * min(r)


def resolve(kind: str, cal: Calibration) -> str:
    """The detector ``kind`` (``colour``, ``learned``, ``auto``) resolved for this camera:
    ``auto`` is the learned detector on an oblique view when its model can run here, the
    colour detector otherwise (see docs/PERCEPTION.md for the figures behind it)."""
    if kind not in DETECTORS:
        raise ValueError(f"unknown detector {kind!r}: use one of {', '.join(DETECTORS)}")
    if kind != "auto":
        return kind
    if not oblique(cal):
        return "colour"
    try:
        load_classifier()
    except LearnedUnavailable as exc:
        log.info("auto detector: colour (%s)", exc)
        return "colour"
    return "learned"


def prepared_detector(cal: Calibration, first: np.ndarray, kind: str = "auto", scale: float = 0.5,
                      others: list[np.ndarray] | None = None,
                      colours: list[np.ndarray] | None = None):
    """:func:`make_detector` with the cloth learned from ``first`` (and ``others``, frames of
    the same camera: :meth:`~tracker.perception.detect.BallDetector.learn_cloth`) and the
    colours from ``colours`` (``[first]`` when not given:
    :meth:`~tracker.perception.detect.BallDetector.learn_colours`): a detector ready to use."""
    det = make_detector(cal, kind, scale)
    det.learn_cloth(first, others)
    det.learn_colours([first] if colours is None else colours)
    return det


def make_detector(cal: Calibration, kind: str = "auto", scale: float = 0.5):
    """A :class:`tracker.perception.detect.BallDetector` for this camera, with the learned
    classifier when ``kind`` resolves to ``learned`` (raises :class:`LearnedUnavailable` when
    ``learned`` is asked for and cannot run)."""
    from tracker.perception.detect import BallDetector
    from tracker.perception.learned_judge import LearnedJudge

    judge = LearnedJudge(load_classifier()) if resolve(kind, cal) == "learned" else None
    return BallDetector(cal, scale=scale, judge=judge)
