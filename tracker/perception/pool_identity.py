"""Pool identity: which pool ball (the cue ball, 1..15) each detected ball is, or none.

The detector finds balls on the cloth as it does for snooker (:mod:`tracker.perception.
candidates`, :mod:`~tracker.perception.judge`); for a pool game each detection is then given
its pool identity here, from one of two sources:

- the colour identity (:func:`colour_identity`): the WPA colours (1 yellow, 2 blue, 3 red,
  4 purple, 5 orange, 6 green, 7 maroon, 8 black; 9..15 the same colours as a band on a white
  ball; the cue ball white) read from the pixels of the ball's disc, its tunables in
  :class:`PoolColourParams`;
- the learned pool classifier (:class:`PoolClassifier`) when ``models/pool_classifier.onnx``
  is present: crops made as :func:`tracker.perception.learned.crops` makes them, 17 labels.

:class:`PoolIdentity` puts them together: it relabels a frame's detections into the two
classes the tracker follows for pool (the cue ball ``white``; every object ball ``red``, the
class of balls that look alike and are followed by position) and keeps the identity
probabilities (N, 17) in :attr:`BallDetections.identity` for
:class:`tracker.perception.pool_track.PoolTracker`, which names each followed ball.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tracker.perception.detections import CLASSES, BallDetections
from tracker.rules.ballset import POOL_COLOURS, BallSet

#: The identities, in the order of the pool classifier's outputs and of
#: :attr:`BallDetections.identity`'s columns.
LABELS = ("cue", *(str(i) for i in range(1, 16)), "none")

#: The solids that read black under a dim light (blue, purple, green, maroon).
DARK_SOLIDS = (2, 4, 6, 7)

#: The learned pool classifier's file (``poolcam``'s contract; absent: the colour identity).
MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "pool_classifier.onnx"


def is_pool(balls: BallSet) -> bool:
    """Whether ``balls`` are pool balls (looks ``solid_*`` / ``stripe_*``)."""
    return any(look.startswith(("solid_", "stripe_")) for look in balls.looks.values())


def object_balls(balls: BallSet) -> tuple[str, ...]:
    """The numbered balls of a pool ball set, in number order."""
    return tuple(sorted((b for b in balls.ids if b.isdigit()), key=int))


def seen_balls(balls: BallSet) -> BallSet:
    """What the tracker follows for the pool ball set ``balls``: the cue ball ``white`` and one
    slot ``o1``..``oN`` per numbered ball, all looking ``red`` (followed by position, named by
    :class:`tracker.perception.pool_track.PoolTracker`)."""
    slots = tuple(f"o{i}" for i in range(1, len(object_balls(balls)) + 1))
    looks = {"white": "white", **{s: "red" for s in slots}}
    return BallSet(("white",), slots, (), {b: 0 for b in looks}, looks)


@dataclass(frozen=True)
class PoolColourParams:
    """The colour identity's tunables (OpenCV HSV: hue 0..180, saturation and value 0..255).

    Attributes:
        disc_radii: the ball's pixels are those within this many radii of its centre.
        white_s_max, white_v_min: a pixel at most this saturated and at least this bright is
            white (the cue ball, a stripe's white, a highlight).
        dark_v_max: a pixel at most this bright is dark (the 8; a ball's shadowed side).
        hues: each colour's hue (the WPA colours under a white light).
        hue_sigma: hue spread (hue units) of one colour.
        maroon_v_max: a red-hued ball whose coloured pixels' median value is below this is the
            maroon (7), above it the red (3); ``maroon_v_soft`` the width of that step.
        cue_white_min: a ball whose disc is at least this share white is the cue ball ...
        stripe_white_min: ... from this share up to ``cue_white_min`` a stripe, below it a
            solid; ``white_soft``: the width (share) of each soft step.
        black_dark_min: a ball whose disc is at least this share dark (and little coloured)
            is the 8.
        none_score: the score of "not a ball" (a ball scoring less on every identity is none).
        blown_v_min: a pale pixel at least this bright is blown out by the lamp (an
            over-exposed yellow shows a white core in a yellow rim) and left out of the shares
            ... unless ``blown_max_share`` or more of the disc is (the cue ball under a
            strong light).
        balance: adapt to the picture's light (:func:`scene_light`): the whitest ball of the
            picture (the cue ball, a stripe's band of white) sets the white balance, and a
            pixel is white only when it is about as neutral as that ball's white.
        balance_gain_max: the white balance lifts a colour channel at most this many times.
            1.0 (no colour gains, the white and dark thresholds still the picture's own), set
            on the development units: gains up to 1.6 named more of the clearance's balls
            right (13 of 24 labelled detections against 10) but the albertomors development
            frames' white balls are warm, and their 8 then read blue (2 of 6 eights named).
        white_bright_v: a disc's pixels at least this bright show its white, if it has any
            (for :func:`scene_light`) ...
        white_bright_min: ... and a disc with at least this share of them may be the whitest.
        white_s_margin: a pixel is white when its saturation is at most the whitest ball's
            own (after the balance) plus this (and never above ``white_s_max``): a yellow
            blown pale by a dim phone camera is not as neutral as the cue ball beside it.
        dark_ratio, dark_v_floor: with ``balance``, a pixel is dark when at most
            ``dark_ratio`` times as bright as the darkest ball's shadowed side (its 30th
            percentile value), within ``dark_v_floor`` .. ``dark_v_max`` (a dim picture's
            maroon and purple are darker than a bright one's, not black).
        dark_colour_share: a ball that reads black keeps this much of its score for the
            dark colours (the 2, 4, 6, 7), split evenly, plus more the less dark it is than
            the darkest ball (``black_soft`` value units for a factor e): under a dim light
            the blue, green and black read alike, and the tracker's one-to-one naming then
            gives the 8 to the darkest.
    """

    disc_radii: float = 0.8
    white_s_max: int = 110
    white_v_min: int = 150
    dark_v_max: int = 60
    hues: dict[str, float] = field(default_factory=lambda: {
        "yellow": 27.0, "blue": 110.0, "red": 2.0, "purple": 140.0, "orange": 13.0,
        "green": 70.0, "maroon": 2.0})
    hue_sigma: float = 9.0
    maroon_v_max: float = 120.0
    maroon_v_soft: float = 20.0
    cue_white_min: float = 0.5
    stripe_white_min: float = 0.08
    white_soft: float = 0.06
    black_dark_min: float = 0.45
    none_score: float = 0.02
    blown_v_min: int = 250
    blown_max_share: float = 0.5
    balance: bool = True
    balance_gain_max: float = 1.0
    white_bright_v: int = 150
    white_bright_min: float = 0.3
    white_s_margin: int = 45
    dark_ratio: float = 2.0
    dark_v_floor: int = 30
    dark_colour_share: float = 0.2
    black_soft: float = 6.0


#: The default colour identity tunables.
POOL_COLOUR = PoolColourParams()


def _step(x: np.ndarray | float, at: float, soft: float) -> np.ndarray:
    """A soft step 0 -> 1 at ``at`` (logistic, ``soft`` wide)."""
    return 1.0 / (1.0 + np.exp(-(np.asarray(x, float) - at) / max(soft, 1e-6)))


@dataclass(frozen=True)
class SceneLight:
    """The light of one picture as its balls show it.

    Attributes:
        gains: (3,) BGR multipliers that make the whitest ball's white neutral (1, 1, 1:
            no balance).
        white_s_max: the saturation (0..255) up to which a balanced pixel is white.
        dark_v_max: the value (0..255) up to which a pixel is dark.
        darkest_v: the darkest ball's shadowed side (30th percentile value; 0: unknown).
    """

    gains: np.ndarray
    white_s_max: float
    dark_v_max: float
    darkest_v: float = 0.0


def _hsv(bgr: np.ndarray) -> np.ndarray:
    """Pixels (P, 3) BGR -> (P, 3) HSV (OpenCV ranges)."""
    return cv2.cvtColor(np.clip(bgr, 0, 255).astype(np.uint8).reshape(-1, 1, 3),
                        cv2.COLOR_BGR2HSV).reshape(-1, 3)


def scene_light(discs: list[np.ndarray], p: PoolColourParams = POOL_COLOUR) -> SceneLight:
    """The picture's light from its balls' disc pixels (each (P, 3) BGR): the disc whose
    bright pixels (value >= ``white_bright_v``, at least ``white_bright_min`` of it) are the
    least saturated is the whitest ball; the median of those pixels, its channels below 250
    (not clipped by the sensor), gives gains that make it grey, at most ``balance_gain_max``.
    No ball with white (or ``balance`` off): no balance, the fixed ``white_s_max``."""
    none = SceneLight(np.ones(3), float(p.white_s_max), float(p.dark_v_max))
    if not p.balance:
        return none
    darkest = _darkest(discs, np.ones(3))
    dark_v = float(np.clip(p.dark_ratio * darkest, p.dark_v_floor, p.dark_v_max))
    none = SceneLight(np.ones(3), float(p.white_s_max), dark_v, darkest)
    best, best_s = None, np.inf
    for d in discs:
        if len(d) < 4:
            continue
        bright = d[d.max(1) >= p.white_bright_v]
        if len(bright) < p.white_bright_min * len(d):
            continue
        s = float(np.median(_hsv(bright)[:, 1]))
        if s < best_s:
            best, best_s = bright, s
    if best is None:
        return none
    unclipped = best[best.max(1) < 250]
    ref = np.median(unclipped if len(unclipped) >= 3 else best, axis=0).astype(float)
    gains = np.clip(ref.max() / np.maximum(ref, 1.0), 1.0, p.balance_gain_max)
    s_ref = float(np.median(_hsv(best * gains)[:, 1]))
    darkest = _darkest(discs, gains)
    dark_v = float(np.clip(p.dark_ratio * darkest, p.dark_v_floor, p.dark_v_max))
    return SceneLight(gains, min(float(p.white_s_max), s_ref + p.white_s_margin), dark_v,
                      darkest)


def _darkest(discs: list[np.ndarray], gains: np.ndarray) -> float:
    """The darkest ball's shadowed side: the least over the discs (each (P, 3) BGR, balanced
    by ``gains``) of their pixels' 30th percentile value (0: no disc)."""
    shadows = [float(np.percentile((d * gains).clip(0, 255).max(1), 30))
               for d in discs if len(d) >= 4]
    return min(shadows, default=0.0)


def disc_shares(hsv: np.ndarray, p: PoolColourParams = POOL_COLOUR,
                light: SceneLight | None = None) -> tuple[float, ...]:
    """One ball's disc pixels (P, 3) HSV -> (white share, dark share, coloured share, the
    coloured pixels' circular mean hue (0..180), their median value 0..255, the disc's 30th
    percentile value 0..255). ``light``: the picture's (:func:`scene_light`; None: the
    parameters' fixed thresholds)."""
    ws = p.white_s_max if light is None else light.white_s_max
    dv = p.dark_v_max if light is None else light.dark_v_max
    shadow = float(np.percentile(hsv[:, 2], 30)) if len(hsv) else 0.0
    h, s, v = (hsv[:, k].astype(np.float32) for k in range(3))
    blown = (v >= p.blown_v_min) & (s <= ws)
    if blown.mean() < p.blown_max_share:  # the lamp's highlight, not the ball's white
        h, s, v = h[~blown], s[~blown], v[~blown]
    white = (s <= ws) & (v >= p.white_v_min)
    dark = (v <= dv) & ~white
    coloured = ~white & ~dark
    n = max(len(h), 1)
    if coloured.any():
        ang = h[coloured] * (2 * np.pi / 180.0)
        w = s[coloured]
        mean = np.arctan2((np.sin(ang) * w).sum(), (np.cos(ang) * w).sum())
        hue = float((mean % (2 * np.pi)) * 180.0 / (2 * np.pi))
        value = float(np.median(v[coloured]))
    else:
        hue, value = 0.0, 0.0
    return white.sum() / n, dark.sum() / n, coloured.sum() / n, hue, value, shadow


def identity_from_shares(shares: tuple[float, ...], p: PoolColourParams = POOL_COLOUR,
                         light: SceneLight | None = None) -> np.ndarray:
    """Identity probabilities (17,) over :data:`LABELS` from :func:`disc_shares` (``light``:
    the picture's, for how much darker than the darkest ball this one is)."""
    white, dark, coloured, hue, value, shadow = shares
    cue = _step(white, p.cue_white_min, p.white_soft)
    stripe = _step(white, p.stripe_white_min, p.white_soft) * (1.0 - cue)
    solid = (1.0 - stripe) * (1.0 - cue)
    black = _step(dark, p.black_dark_min, p.white_soft) * _step(-coloured, -0.35, p.white_soft)
    lit = 1.0 - black
    maroon = 1.0 - _step(value, p.maroon_v_max, p.maroon_v_soft)
    out = np.zeros(len(LABELS))
    out[0] = cue
    out[8] = solid * black
    if light is not None and light.darkest_v > 0:  # a black ball may be a dim blue or green
        eight = float(np.exp(-max(shadow - light.darkest_v, 0.0) / p.black_soft))
        spread = p.dark_colour_share + (1.0 - p.dark_colour_share) * (1.0 - eight)
        out[8] = solid * black * (1.0 - spread)
        for number in DARK_SOLIDS:
            out[number] = solid * black * spread / len(DARK_SOLIDS)
    for number, colour in POOL_COLOURS.items():
        if number == 8:
            continue
        d = abs(hue - p.hues[colour])
        d = min(d, 180.0 - d)
        near = float(np.exp(-0.5 * (d / p.hue_sigma) ** 2))
        if colour == "red":
            near *= 1.0 - maroon
        elif colour == "maroon":
            near *= maroon
        out[number] += solid * lit * near
        out[number + 8] = stripe * lit * near
    out[-1] = p.none_score
    return out / out.sum()


def colour_identity(frame: np.ndarray, px: np.ndarray, radius_px: np.ndarray,
                    params: PoolColourParams = POOL_COLOUR) -> np.ndarray:
    """The colour identity (N, 17) over :data:`LABELS` of the balls centred at ``px`` (N, 2)
    full-resolution px with apparent radii ``radius_px`` (N,) px in the BGR ``frame``."""
    discs = disc_pixels(frame, px, radius_px, params)
    light = scene_light(discs, params)
    out = np.zeros((len(px), len(LABELS)))
    for i, patch in enumerate(discs):
        if not len(patch):
            out[i, -1] = 1.0
            continue
        hsv = _hsv(patch * light.gains)
        out[i] = identity_from_shares(disc_shares(hsv, params, light), params, light)
    return out


def disc_pixels(frame: np.ndarray, px: np.ndarray, radius_px: np.ndarray,
                params: PoolColourParams = POOL_COLOUR) -> list[np.ndarray]:
    """The BGR pixels (P, 3) float within ``disc_radii`` radii of each centre ``px`` (N, 2)
    px, radii ``radius_px`` (N,) px (empty where the disc is outside the picture)."""
    h, w = frame.shape[:2]
    out = []
    for (x, y), r in zip(np.asarray(px, float), np.asarray(radius_px, float), strict=True):
        rr = max(2.0, params.disc_radii * float(r))
        x0, x1 = max(0, int(x - rr)), min(w, int(x + rr) + 1)
        y0, y1 = max(0, int(y - rr)), min(h, int(y + rr) + 1)
        if x1 <= x0 or y1 <= y0:
            out.append(np.zeros((0, 3)))
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        inside = (xx - x) ** 2 + (yy - y) ** 2 <= rr * rr
        out.append(frame[y0:y1, x0:x1][inside].astype(float))
    return out


class PoolClassifier:
    """The learned pool classifier (``models/pool_classifier.onnx``): crops (N, 3, S, S)
    float32 BGR 0..1 spanning ``crop_span_radii`` local radii -> logits (N, 17) over
    :data:`LABELS`, read from the model's metadata like
    :class:`tracker.perception.learned.BallClassifier`.

    Raises:
        tracker.perception.learned.LearnedUnavailable: onnxruntime missing, the file missing
            or unreadable, or its labels not :data:`LABELS`.
    """

    def __init__(self, path: str | Path = MODEL_PATH):
        from tracker.perception.learned import LearnedUnavailable

        try:
            import onnxruntime as ort
        except ImportError:
            raise LearnedUnavailable("the pool classifier needs onnxruntime") from None
        path = Path(path)
        if not path.is_file():
            raise LearnedUnavailable(f"no pool classifier at {path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads, opts.inter_op_num_threads, opts.log_severity_level = 1, 1, 3
        try:
            self.session = ort.InferenceSession(str(path), opts,
                                                providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types
            raise LearnedUnavailable(f"{path}: not a readable ONNX model ({exc})") from None
        meta = self.session.get_modelmeta().custom_metadata_map
        self.size = int(meta.get("crop_size", 32))
        self.span = float(meta.get("crop_span_radii", 4.0))
        labels = tuple(json.loads(meta["labels"])) if "labels" in meta else LABELS
        if labels != LABELS:
            raise LearnedUnavailable(f"{path}: labels {labels} are not the pool labels")
        self.input = self.session.get_inputs()[0].name

    def classify(self, frame: np.ndarray, px: np.ndarray, radii: np.ndarray) -> np.ndarray:
        """Probabilities (N, 17) over :data:`LABELS` of the balls at ``px`` (N, 2)."""
        from tracker.perception.learned import crops, to_input

        if not len(px):
            return np.zeros((0, len(LABELS)))
        logits = self.session.run(None, {self.input: to_input(
            crops(frame, px, radii, self.size, self.span))})[0]
        logits = logits - logits.max(1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(1, keepdims=True)


def load_pool_classifier(path: str | Path = MODEL_PATH) -> PoolClassifier | None:
    """The learned pool classifier, or None when it is absent or cannot be read."""
    from tracker.perception.learned import LearnedUnavailable

    try:
        return PoolClassifier(path)
    except LearnedUnavailable:
        return None


class PoolIdentity:
    """Gives a frame's detections their pool identity.

    Args:
        classifier: the learned pool classifier, or None (the colour identity alone).
        params: the colour identity's tunables.

    Attributes:
        source: in words, what names the balls (for the run's profile).
    """

    def __init__(self, classifier: PoolClassifier | None = None,
                 params: PoolColourParams = POOL_COLOUR):
        self.classifier = classifier
        self.params = params
        self.source = ("the learned pool classifier" if classifier is not None else
                       "the pool ball colours")

    def probabilities_at(self, frame: np.ndarray, px: np.ndarray, radius_px: np.ndarray
                         ) -> np.ndarray:
        """Identity probabilities (N, 17) over :data:`LABELS` of the balls centred at ``px``
        (N, 2) px, apparent radii ``radius_px`` (N,) px, in the BGR ``frame``."""
        if self.classifier is not None:
            return self.classifier.classify(frame, px, radius_px)
        return colour_identity(frame, px, radius_px, self.params)

    def probabilities(self, frame: np.ndarray, det: BallDetections) -> np.ndarray:
        """Identity probabilities (N, 17) over :data:`LABELS` of ``det`` in ``frame``."""
        return self.probabilities_at(frame, det.px, det.radius_px)

    def relabel(self, frame: np.ndarray, det: BallDetections) -> BallDetections:
        """``det`` in the tracker's pool classes (``white`` the cue ball, ``red`` an object
        ball), with :attr:`BallDetections.identity` set. A detection the learned classifier
        finds most likely no ball is dropped; the colour identity drops none (the detector
        has judged it a ball: a colour the table's light makes unlike every pool colour is
        still a ball)."""
        if not len(det):
            det.identity = np.zeros((0, len(LABELS)))
            return det
        ident = self.probabilities(frame, det)
        if self.classifier is not None:
            keep = ident.argmax(1) != len(LABELS) - 1
            det, ident = det[keep], ident[keep]
        cue = ident[:, 0]
        objects = ident[:, 1:-1].sum(1)
        ball = np.maximum(cue + objects, 1e-9)
        probs = np.zeros((len(det), len(CLASSES)))
        white, red = CLASSES.index("white"), CLASSES.index("red")
        probs[:, white], probs[:, red] = cue / ball, objects / ball
        out = BallDetections(det.px, det.mm, det.radius_px, probs.argmax(1), probs.max(1), probs,
                             det.mm_per_px, det.feats, det.occupancy)
        out.identity = ident
        return out


def class_cost(det: BallDetections, scale: float = 0.05) -> np.ndarray:
    """Cost (N, 8) of each pool-relabelled detection being each class (for the game's
    constraint): ``-scale * log p`` on the white and red columns, the others out of reach."""
    p = np.clip(det.probs, 1e-6, 1.0) if det.probs.size else np.full((len(det), len(CLASSES)), 1e-6)
    cost = -scale * np.log(p)
    cost[:, [k for k, n in enumerate(CLASSES) if n not in ("white", "red")]] = 10.0
    return cost
