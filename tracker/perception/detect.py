"""Ball detection on the calibrated table region: colour and shape, no learned weights.

Per frame: pixels that are not cloth (chroma far from the learned cloth colour, or much darker
than the cloth's shadows) inside the table region form blobs; a blob of one ball's size is a
ball, a larger one is split at the peaks of its distance transform (touching clusters), and a
blob whose interior is much wider than a ball (a player's body, an arm) yields no ball.
Centres are refined on the full-resolution frame and mapped to the table with the parallax
correction. Each ball gets one of eight colour classes with a confidence.

The detector works on a frame downscaled by ``scale`` (default 0.5) for speed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.profile import Calibration

CLASSES = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black")
#: A pixel whose chroma (|a - a_cloth| + |b - b_cloth| in 8-bit Lab) exceeds this is not cloth.
FG_CHROMA = 22
#: A pixel darker than this fraction of the cloth's lightness is not cloth (the black ball).
FG_DARK = 0.45
#: A ball whose colour is close to the cloth's (a green on a blue-green or green cloth) is
#: found as a ball-sized disc (about 0.7 radii) whose mean difference from the cloth, in
#: lightness relative to the cloth's (per WEAK_LIGHTNESS) plus chroma (per WEAK_CHROMA, 8-bit
#: Lab), reaches WEAK_SCORE, away from everything the ordinary mask found. Bare cloth, its nap,
#: the lamps' fall-off and sensor noise reach about 0.1 in lightness and 8 in chroma on such a
#: disc (measured on the harder synthetic world's draws); such balls 0.15-0.8 and 9-21.
WEAK_LIGHTNESS = 0.12
WEAK_CHROMA = 12.0
WEAK_SCORE = 2.0
#: A blob that the foreground's opening erased is kept whole when it is small and compact (a
#: ball close to the cloth's colour shows only scattered parts), unless at least this share
#: of it is far brighter or darker than the cloth and it spans at least GLYPH_MIN_EXTENT
#: times the opening's disc: a ball that bright or dark and that big holds the disc, and so
#: stands the opening; such a blob is thin strokes (the figures of a score bar laid over the
#: table, each smaller than a ball: harder world, overhead 5).
GLYPH_LIGHT_SHARE = 0.5
GLYPH_MIN_EXTENT = 1.2
#: A dark greyish patch in a pocket's zone that lies wholly on the calibrated bed is the
#: pocket's (a sliver of its hole or of the shadow under its rim, where the calibrated bed
#: takes the pocket in), masked as fixture, when no disc of HOLE_MIN_BALL_CORE_RADII local
#: ball radii fits in it and either it keeps within HOLE_EDGE_REACH_RADII of the bed's edge
#: or less than HOLE_BALL_RIM_SHARE of its outline borders other non-cloth: a ball's dark
#: part too thin to hold a ball's core (its shaded side, the contact shadow between touching
#: balls) lies against that ball's lit part or the ball it touches, and reaches further in
#: from the cushion than a ball's radius (a contact shadow lies about a radius from the
#: cushion even between two balls touching it), where the dark face of a cushion that the
#: calibrated bed takes in hugs the bed's edge and borders the rest of that face.
#: Measured at the working scale (1 px round the patch): the 9-ball clearance's near corner
#: pocket, two slivers of 0.08 and 0.12 radii bordering 0 % and 14 % other non-cloth; lab
#: still 15's black 0.42 radii; the contact shadows and shaded sides in the jaws of
#: without_halo 1.png and 2.png 0.18-0.30 radii bordering 45-85 %, the nearest of those
#: bordering a third or more 1.19 radii in from the bed's edge; the cushion faces beside the
#: corner pockets of the synthetic overhead view (the bench's seed 7, where a player's arm
#: reaching in over that corner joined them and was split into balls) 0.27 radii thick, 0.8
#: radii in from the edge, bordering 56-76 %.
HOLE_MIN_BALL_CORE_RADII = 0.3
HOLE_BALL_RIM_SHARE = 1 / 3
HOLE_EDGE_REACH_RADII = 1.0
#: A ball's centre is the centroid of its pixels' difference from the cloth (:meth:`_refine`).
#: That centroid is the ball's only when the ball makes most of the difference: where the
#: weights within 1.15 radii of it add up to less than LOW_CONTRAST_SHARE of that disc, the
#: ball is nearly the cloth's colour (a green on a blue-green cloth) and its grey shadow
#: pulls the centroid toward it; once its colour is judged, such a ball is placed by fitting
#: a disc of its radius to its colour instead (:meth:`BallDetector._fit_discs`): the disc,
#: within DISC_FIT_REACH_RADII of the centroid, whose pixels are most like that colour
#: rather than the local cloth, each pixel's vote clipped to DISC_FIT_CLIP (squared feature
#: distance) so a highlight or a shadow counts no more than a pixel of plain cloth.
#: Measured on the lab stills (every ball found within a radius of its label): the greens'
#: shares 0.07-0.60, every other colour's 0.68 or more; the 14 labelled greens of
#: with_halo_2 lay 0.23 radii from their labels (median; at most 0.78, counted as not
#: found) by the centroid, 0.06 (at most 0.14) by the disc.
LOW_CONTRAST_SHARE = 0.6
DISC_FIT_REACH_RADII = 0.7
DISC_FIT_CLIP = 0.3
#: A ball's colour is the median over its centre's disc of the pixels no channel of which
#: reaches CLIPPED_LEVEL (8-bit): a core blown out by the lamps is white whatever the ball (a
#: pink under a canopy of lamps read as a second cue ball: harder world, overhead 5; its rim
#: is pink). When fewer than MIN_UNCLIPPED_SHARE of the disc's pixels are left, that share
#: of its least bright pixels (brightest channel) counts: the ball's colour where the lamps
#: blow out least.
CLIPPED_LEVEL = 250
MIN_UNCLIPPED_SHARE = 0.3
#: With the learned classifier, two detections closer than this many local radii on screen are
#: one ball (the more ball-like stays): touching balls one behind the other in a TV view stand
#: about 1.1 radii apart on screen, and the classifier answers "ball" only within about half a
#: radius of a centre.
LEARNED_MIN_SEP = 1.0
#: With the learned classifier, a class's cost is this times -log(probability): a detection
#: below about 4 % for every free class is left unlabelled by :func:`constrained_classes`.
LEARNED_COST_SCALE = 0.08
#: In a blob of several balls, a lit ball shows one specular highlight (the lamps' reflection,
#: on its top half in every view): a bright spot this much (8-bit grey) over its surroundings
#: (a top-hat of 0.8 radii) and at least this bright marks a ball; with the learned classifier
#: each one proposes a centre (touching reds in a real TV pack, 8-10 px across, show no sharp
#: circle, but each shows its highlight).
HIGHLIGHT_CONTRAST = 90
HIGHLIGHT_MIN_GREY = 140
#: Two highlights closer than this many radii are one (the bars of one window-shaped
#: reflection); farther apart, two balls.
HIGHLIGHT_MIN_SEP_RADII = 0.7
#: Where a ball's centre lies below its highlight on screen, in local radii, when no isolated
#: ball of the frame says (the median over the frame's single balls is used when there are
#: some).
HIGHLIGHT_DROP_RADII = 0.55
#: With the learned classifier, a unique colour missing from a still is looked for at the
#: small non-cloth spots the candidates pass over; the network must give the spot at least
#: this probability of being that colour.
MISSING_MIN_PROB = 0.6
#: With the learned classifier, two detections of the same unique colour (white, a colour)
#: closer than this many local radii on screen are one ball and its shadow.
UNIQUE_TWIN_RADII = 1.6
#: With the learned classifier, the cue ball's place is filled first under the game's
#: constraint (cost units, as ``unique_bonus`` of :func:`constrained_classes`): a cream-lit
#: cue ball the network finds as likely the yellow is still the white when no other ball is.
LEARNED_WHITE_BONUS = 0.2
#: With the learned classifier, a detection at least this sure of a unique colour holds it:
#: no other detection of the frame is that colour (:func:`_held_colours_removed`).
UNIQUE_HOLD_PROB = 0.9
#: With the learned classifier and no white in a frame, a candidate the network refuses is
#: the white when the colour prototypes give it at least this probability of being the white
#: (a real cue ball struck hard: a long faint streak).
STREAK_WHITE_PROB = 0.8
#: With the learned classifier, a point the blob search adds (:meth:`BallDetector._search_blobs`)
#: is a ball only when the network's "not a ball" is under this: the shadowed gap under two
#: touching balls of a real TV pack reads 0.4-0.6 "not a ball" and the rest spread over the
#: colours (a false black), a ball the search rightly adds under 0.15.
GRID_MAX_NONE = 0.25


@dataclass
class BallDetections:
    """One frame's detections, struct of arrays (N balls).

    Attributes:
        px: (N, 2) image centres, full-resolution px.
        mm: (N, 2) table positions, mm (parallax corrected).
        radius_px: (N,) apparent radius, px.
        cls: (N,) index into :data:`CLASSES`.
        conf: (N,) colour-class confidence 0..1.
        probs: (N, 8) class probabilities.
        mm_per_px: (N,) table millimetres per image pixel at each ball, along the coarser image
            axis (far balls in an oblique view are coarser, most of all down the image).
        feats: (N, 5) colour features the classes came from (:func:`_feature`), kept so that
            re-labelling under the game's constraint does not measure them again.
        occupancy: optional ``f(mm (M, 2)) -> (M,)``: the share (0..1) of non-cloth pixels in
            a ball-sized disc at each table position in this frame. A ball that vanished from a
            place that now shows bare cloth has left it; one whose place is covered (a player,
            a hand) may still be there.
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

    def __len__(self) -> int:
        return len(self.px)

    def __getitem__(self, mask: np.ndarray) -> BallDetections:
        return BallDetections(self.px[mask], self.mm[mask], self.radius_px[mask], self.cls[mask],
                              self.conf[mask], self.probs[mask], self.mm_per_px[mask],
                              self.feats[mask], self.occupancy)

    @staticmethod
    def empty() -> BallDetections:
        """No detections."""
        z = np.zeros((0,))
        return BallDetections(np.zeros((0, 2)), np.zeros((0, 2)), z, z.astype(int), z,
                              np.zeros((0, 8)), z, np.zeros((0, 5), np.float32))


# Class prototypes: typical colours (OpenCV HSV: H 0..180, S and V 0..255) from the renderer and
# broadcast stills. Learned per camera by :meth:`BallDetector.learn_colours`.
_PROTO_HSV = {
    "white": (30, 20, 235),
    "red": (178, 220, 150),
    "yellow": (26, 210, 225),
    "green": (70, 200, 110),
    "brown": (12, 190, 100),
    "blue": (108, 220, 160),
    "pink": (172, 120, 230),
    "black": (100, 40, 25),
}


def _feature(bgr: np.ndarray) -> np.ndarray:
    """Colour features (N, 5) of BGR pixels (N, 3): hue as a vector scaled by saturation (2),
    saturation, value, and the green share G / (R + G + B), which separates a brown from a red
    even where an over-exposed red and a bright brown have almost the same hue. Hue and green
    share fade toward neutral in pixels darker than a third of full value (a black ball
    mirrors the green cloth)."""
    px = np.ascontiguousarray(bgr, np.uint8).reshape(-1, 1, 3)
    hsv = cv2.cvtColor(px, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    h = hsv[:, 0].astype(np.float32) * (2 * np.pi / 180.0)
    s = hsv[:, 1].astype(np.float32) / 255.0
    v = hsv[:, 2].astype(np.float32) / 255.0
    f = px.reshape(-1, 3).astype(np.float32)
    g_share = f[:, 1] / np.maximum(f.sum(1), 1.0)
    # in a very dark pixel hue and shares are noise and the cloth's reflection: fade them
    lit = np.minimum(1.0, 3.0 * v)
    g_share = 1.0 / 3.0 + (g_share - 1.0 / 3.0) * lit
    return np.stack([np.cos(h) * s * lit, np.sin(h) * s * lit, s * 0.5, v * 1.2, g_share * 2.0], axis=1)


def _patch_feature(pixels: np.ndarray) -> np.ndarray:
    """Colour features (5,) of one ball: the median :func:`_feature` of its pixels (P, 3) BGR,
    those blown out by the light left out (:data:`CLIPPED_LEVEL`, :data:`MIN_UNCLIPPED_SHARE`)."""
    pixels = pixels.reshape(-1, 3)
    top = pixels.max(axis=1)
    kept = top < CLIPPED_LEVEL
    if not kept.all():
        least = max(1, int(np.ceil(MIN_UNCLIPPED_SHARE * len(pixels))))
        if kept.sum() >= least:
            pixels = pixels[kept]
        elif least < len(pixels):
            pixels = pixels[np.argpartition(top, least - 1)[:least]]
    return np.median(_feature(pixels), axis=0)


def _patch_features(patches: np.ndarray, feats: np.ndarray | None = None) -> np.ndarray:
    """:func:`_patch_feature` of many patches of one size at once: features (n, 5) of patches
    (n, P, 3) BGR, the same numbers (the median of the kept pixels' features). ``feats``: the
    pixels' :func:`_feature` (n, P, 5) when the caller has them."""
    n, p = patches.shape[:2]
    if feats is None:
        feats = _feature(patches.reshape(-1, 3)).reshape(n, p, 5)
    top = patches.max(axis=2)
    kept = top < CLIPPED_LEVEL
    if kept.all():
        return np.median(feats, axis=1)
    least = max(1, int(np.ceil(MIN_UNCLIPPED_SHARE * p)))
    few = kept.sum(1) < least  # too few left: the least bright share instead
    if few.any() and least < p:
        darkest = np.zeros((int(few.sum()), p), bool)
        np.put_along_axis(darkest, np.argpartition(top[few], least - 1, axis=1)[:, :least], True,
                          axis=1)
        kept[few] = darkest
    elif few.any():
        kept[few] = True
    # the median of each patch's kept features: the left-out ones sorted last
    ranked = np.sort(np.where(kept[:, :, None], feats, np.inf), axis=1)
    count = kept.sum(1)
    rows = np.arange(n)
    lo, hi = ranked[rows, (count - 1) // 2], ranked[rows, count // 2]
    return (lo + hi) / np.float32(2)


def _proto_features() -> np.ndarray:
    """Features (8, 5) of the stock prototypes."""
    hsv = np.array(list(_PROTO_HSV.values()), np.uint8).reshape(-1, 1, 3)
    return _feature(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).reshape(-1, 3))


@dataclass
class ClothMaps:
    """Per-pixel maps (working scale, each (h, w)) derived from a detector's cloth map and
    fixtures, made once per :meth:`BallDetector.learn_cloth` instead of once per frame or box
    (the same values the per-frame arithmetic gave).

    Attributes:
        cloth_l, cloth_a, cloth_b: the cloth map's Lab channels, int16 (8-bit Lab levels).
        dark_level: a pixel whose lightness is under this (float64, ``FG_DARK`` times the
            cloth's) is dark.
        bright_level: ... over this (int16, the cloth's + 60) is bright.
        allowed: uint8 0/1, the table region less the fixtures (where foreground can be).
        cloth_lf, cloth_af, cloth_bf: the cloth map's channels as float32.
        light_den: float32, the cloth's lightness, at least 1 (the faint-ball score's divisor).
        faint_allowed: bool, where a faint ball's peak may be before the frame's own blobs
            and balls are cleared: inside the bed by the clearance and away from the fixtures
            by it (:meth:`BallDetector._faint_balls`).
    """

    cloth_l: np.ndarray
    cloth_a: np.ndarray
    cloth_b: np.ndarray
    dark_level: np.ndarray
    bright_level: np.ndarray
    allowed: np.ndarray
    cloth_lf: np.ndarray
    cloth_af: np.ndarray
    cloth_bf: np.ndarray
    light_den: np.ndarray
    faint_allowed: np.ndarray

    def cut(self, x0: int, y0: int, x1: int, y1: int) -> ClothMaps:
        """The maps inside the box [x0, x1) x [y0, y1) (working-scale px), as views."""
        return ClothMaps(**{k: v[y0:y1, x0:x1] for k, v in self.__dict__.items()})


class BallDetector:
    """Finds balls in frames of one calibrated camera.

    Args:
        cal: the calibration.
        scale: processing scale of the frame (0.5 = half resolution).
    """

    def __init__(self, cal: Calibration, scale: float = 0.5):
        self.cal = cal
        self.scale = scale
        t = cal.table
        w, h = cal.image_size
        self.small = (int(round(w * scale)), int(round(h * scale)))
        # apparent ball radius at the table centre, px (full resolution)
        c = np.array([[t.width / 2, t.length / 2]])
        p0 = cal.to_image(c, t.ball_radius)[0]
        p1 = cal.to_image(c + [[t.ball_radius, 0]], t.ball_radius)[0]
        self.r_px = float(np.linalg.norm(p1 - p0))
        self._r_grid = self._radius_grid()
        # table region: the bed at ball height, grown by a ball radius (balls in the jaws)
        poly_mm = np.array([[-t.ball_radius, -t.ball_radius], [t.width + t.ball_radius, -t.ball_radius],
                            [t.width + t.ball_radius, t.length + t.ball_radius],
                            [-t.ball_radius, t.length + t.ball_radius]])
        dense = np.concatenate([np.linspace(poly_mm[i], poly_mm[(i + 1) % 4], 40) for i in range(4)])
        poly = cal.to_image(dense, t.ball_radius) * scale
        self.region = np.zeros((self.small[1], self.small[0]), np.uint8)
        cv2.fillPoly(self.region, [np.round(poly).astype(np.int32)], 1)
        # the region's rim: a blob crossing it over more than a ball's width comes from outside
        # the table (a player's arm or body, the rest), not from a ball in the jaws
        self.rim = (self.region - cv2.erode(self.region, np.ones((3, 3), np.uint8))).astype(bool)
        bed = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
        dense = np.concatenate([np.linspace(bed[i], bed[(i + 1) % 4], 40) for i in range(4)])
        self.bed = np.zeros_like(self.region)
        cv2.fillPoly(self.bed, [np.round(cal.to_image(dense, t.ball_radius) * scale).astype(np.int32)], 1)
        self.static = np.zeros_like(self.region)
        self._edge: np.ndarray | None = None
        self.pocket_zone = np.zeros_like(self.region)
        for pk in t.pockets.values():
            c_px = cal.to_image(np.array([pk.mouth_centre]), t.ball_radius)[0] * scale
            rad = np.linalg.norm(cal.to_image(np.array([pk.mouth_centre]) + [[pk.mouth_width, 0]],
                                              t.ball_radius)[0] * scale - c_px)
            cv2.circle(self.pocket_zone, (int(c_px[0]), int(c_px[1])), int(rad * 1.3), 1, -1)
        self.cloth_lab: np.ndarray | None = None
        self.cloth_map: np.ndarray | None = None
        #: maps derived from ``cloth_map`` and ``static`` (:meth:`cloth_maps`), and the two
        #: they were made from
        self._maps: ClothMaps | None = None
        self._maps_of: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        #: the table whose pockets' mouths :meth:`can_hold` has, their centres (6, 2) mm and
        #: widths (6,) mm
        self._mouths: tuple[Any, np.ndarray, np.ndarray] | None = None
        #: the last :meth:`foreground`'s picture and its Lab channels (int16), for the faint-ball
        #: search of the same picture
        self._lab_of: np.ndarray | None = None
        self._lab: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: the light or dark thin strokes (bool, working scale) the last :meth:`foreground`
        #: dropped (GLYPH_LIGHT_SHARE), and its picture
        self._strokes: np.ndarray | None = None
        self._strokes_of: np.ndarray | None = None
        k = max(3, int(0.8 * self.r_px * scale) | 1)
        self._open_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        self.protos = _proto_features()
        self.colours_learned = False
        #: a circle found inside a bigger blob is a ball only if its colour is within this
        #: squared feature distance of a learned class (a player's hair or shirt has circles too)
        self.cluster_max_cost = 0.15
        #: the learned crop classifier (:class:`tracker.perception.learned.BallClassifier`)
        #: that judges each candidate (ball or not, which colour) instead of the colour
        #: prototypes; None: the colour detector
        self.classifier = None
        self._blobs: list[tuple[int, int, np.ndarray, float]] = []
        #: which of the last candidates came from the faint-ball search (:meth:`_faint_balls`)
        self._faint = np.zeros(0, bool)
        #: which of the last candidates hardly differ from the cloth (:data:`LOW_CONTRAST_SHARE`):
        #: placed by their colour once it is judged (:meth:`_fit_discs`)
        self._low_contrast = np.zeros(0, bool)
        #: search for balls whose colour is close to the cloth's (:meth:`_faint_balls`)
        self.search_faint = True
        #: with the classifier, also search blobs of several balls for balls the candidates
        #: missed (:meth:`_search_blobs`)
        self.search_blobs = True

    def _radius_grid(self, step: int = 16) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apparent ball radius (full-resolution px) on a grid of image points every ``step``
        px: in an oblique view a near ball is twice the size of a far one."""
        w, h = self.cal.image_size
        xs = np.arange(0, w + step, step, dtype=float)
        ys = np.arange(0, h + step, step, dtype=float)
        gx, gy = np.meshgrid(xs, ys)
        p = np.stack([gx.ravel(), gy.ravel()], 1)
        with np.errstate(all="ignore"):
            m0 = self.cal.ball_to_table(p)
            mx = self.cal.ball_to_table(p + [1.0, 0.0])
            my = self.cal.ball_to_table(p + [0.0, 1.0])
            # a sphere images as a circle at the scale of the direction the tilt does not
            # foreshorten: the finer of the two
            mmpp = np.minimum(np.linalg.norm(mx - m0, axis=1), np.linalg.norm(my - m0, axis=1))
            r = self.cal.table.ball_radius / mmpp
        r = np.where(np.isfinite(r) & (r > 0), r, self.r_px)
        r = np.clip(r, 0.4 * self.r_px, 2.5 * self.r_px)
        return xs, ys, r.reshape(gy.shape)

    def radius_at(self, px: np.ndarray) -> np.ndarray:
        """Apparent ball radius (full-resolution px) at image points (N, 2)."""
        xs, ys, r = self._r_grid
        step = xs[1] - xs[0]
        # (np.minimum / np.maximum: np.clip's own checks cost more than the work here)
        i = np.minimum(np.maximum(np.round(px[:, 1] / step).astype(int), 0), len(ys) - 1)
        j = np.minimum(np.maximum(np.round(px[:, 0] / step).astype(int), 0), len(xs) - 1)
        return r[i, j]

    def _working_radius_at(self, pts: np.ndarray) -> np.ndarray:
        """Apparent ball radius (N,) working-scale px at working-scale points (N, 2)."""
        return self.radius_at(pts / self.scale) * self.scale

    # ------------------------------------------------------------------ set-up
    def learn_cloth(self, frame: np.ndarray, others: list[np.ndarray] | None = None) -> None:
        """Learn the cloth from one frame: its median Lab colour, the per-pixel cloth map
        (:meth:`_cloth_map`), and the fixtures to mask (``static``). ``others``: more frames
        of the same camera (e.g. spread over a clip): what stays non-cloth in every one of
        them inside a pocket's zone is the pocket (the shadow in its jaws), not a ball."""
        small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        lab_img = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
        lab = lab_img.reshape(-1, 3)
        inside = self.bed.ravel().astype(bool)
        self.cloth_lab = np.median(lab[inside], axis=0).astype(np.float32)
        self.cloth_map = self._cloth_map(lab_img)
        # fixtures are not balls: mask what is not cloth outside the bed (pocket fittings,
        # jaws, rails) and the dark greyish pocket holes; a ball inside the bed, even touching
        # a cushion or in the jaws, keeps its pixels on the bed
        fg = self.foreground(small, opened=False)
        li = lab_img.astype(np.int16)
        grey = np.abs(li[..., 1] - 128) + np.abs(li[..., 2] - 128) < 40
        holes = (li[..., 0] < 0.55 * self.cloth_lab[0]) & grey & self.pocket_zone.astype(bool)
        if others:
            always = fg.astype(bool) & self.pocket_zone.astype(bool)
            bed = self.bed.astype(bool)
            for o in others:
                fo = self.foreground(cv2.resize(o, self.small, interpolation=cv2.INTER_AREA),
                                     opened=False).astype(bool)
                if fo[bed].mean() > 0.5:
                    continue  # not this view (a cut to the crowd, a close-up)
                always &= fo
            holes |= always
        static = fg & ((1 - self.bed) | _pocket_parts(holes, self.bed, fg, self._working_radius_at))
        # ... and, along the cushions, long thin non-cloth strips (a cushion face in shadow,
        # seen from a low camera at the far end): longer than three touching balls
        r = self.r_px * self.scale
        k = max(3, int(3 * r) | 1)
        band = (self.bed - cv2.erode(self.bed, np.ones((k, k), np.uint8))).astype(bool)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(fg & band.astype(np.uint8), 8)
        w_, h_ = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
        strip = (np.maximum(w_, h_) > 6.5 * r) & (np.minimum(w_, h_) < 2.5 * r)
        strip[0] = False
        for j in np.nonzero(strip)[0]:
            # a ball against the cushion joins the strip as a bulge thicker than the strip:
            # what survives an opening by a disc wider than the strip is that ball, not fixture
            x, y, ww, hh = stats[j, :4]
            comp = (lab[y:y + hh, x:x + ww] == j).astype(np.uint8)
            thick = stats[j, cv2.CC_STAT_AREA] / max(ww, hh)
            d = max(3, int(max(r, 1.4 * thick)) | 1)
            bulge = cv2.morphologyEx(comp, cv2.MORPH_OPEN,
                                     cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
            static[y:y + hh, x:x + ww] |= comp & (1 - cv2.dilate(bulge, np.ones((3, 3), np.uint8)))
        self.static = cv2.dilate(static, np.ones((3, 3), np.uint8))
        self._edge = None

    def _cloth_map(self, lab_img: np.ndarray, cells: int = 24) -> np.ndarray:
        """The cloth's colour at every pixel (h, w, 3) int16 Lab: the median of each of about
        ``cells`` x ``cells / 2`` cells of the bed (balls are too small to move a cell's
        median), spread smoothly, so that light falling off toward the far end or a corner
        does not read as foreground."""
        h, w = lab_img.shape[:2]
        gx, gy = cells, max(2, cells * h // max(w, 1))
        grid = np.zeros((gy, gx, 3), np.float32)
        have = np.zeros((gy, gx), bool)
        c = self.cloth_lab
        li = lab_img.astype(np.int16)
        # cloth-like pixels only: pocket holes, balls and fittings do not pull a cell's median
        bed = self.bed.astype(bool) & (np.abs(li[..., 1] - c[1]) + np.abs(li[..., 2] - c[2]) < 40) \
            & (np.abs(li[..., 0] - c[0]) < 0.5 * c[0])
        for j in range(gy):
            for i in range(gx):
                ys, ye = j * h // gy, (j + 1) * h // gy
                xs, xe = i * w // gx, (i + 1) * w // gx
                m = bed[ys:ye, xs:xe]
                if m.sum() >= 0.3 * m.size:
                    grid[j, i] = np.median(lab_img[ys:ye, xs:xe][m], axis=0)
                    have[j, i] = True
        if not have.any():
            return np.broadcast_to(self.cloth_lab, (h, w, 3)).astype(np.int16)
        # cells off the bed take their nearest bed cell's colour
        from scipy.ndimage import distance_transform_edt

        _, (iy, ix) = distance_transform_edt(~have, return_indices=True)
        grid = grid[iy, ix]
        return cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.int16)

    def cloth_maps(self) -> ClothMaps:
        """The maps derived from the cloth map and the fixtures (:class:`ClothMaps`), made
        again only when :meth:`learn_cloth` has replaced either."""
        if self._maps is not None and self._maps_of[0] is self.cloth_map \
                and self._maps_of[1] is self.static:
            return self._maps
        c = self.cloth_map
        cl, ca, cb = (np.ascontiguousarray(c[..., i]) for i in range(3))
        cf = c.astype(np.float32)
        r = self.r_px * self.scale
        clear = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (_faint_clearance(r),) * 2)
        self._maps = ClothMaps(
            cloth_l=cl, cloth_a=ca, cloth_b=cb, dark_level=FG_DARK * cl, bright_level=cl + 60,
            allowed=self.region & (1 - self.static),
            cloth_lf=np.ascontiguousarray(cf[..., 0]), cloth_af=np.ascontiguousarray(cf[..., 1]),
            cloth_bf=np.ascontiguousarray(cf[..., 2]), light_den=np.maximum(cf[..., 0], 1.0),
            faint_allowed=cv2.erode(self.bed, clear).astype(bool)
            & ~cv2.dilate(self.static, clear).astype(bool))
        self._maps_of = (self.cloth_map, self.static)
        return self._maps

    # ------------------------------------------------------------------ per frame
    def foreground(self, small: np.ndarray, opened: bool = True) -> np.ndarray:
        """Non-cloth mask (uint8 0/1) of a downscaled frame; ``opened=False`` skips the
        opening that removes thin things."""
        maps = self.cloth_maps()
        lab_l, lab_a, lab_b = (p.astype(np.int16) for p in
                               cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)))
        self._lab_of, self._lab = small, (lab_l, lab_a, lab_b)
        chroma = np.abs(lab_a - maps.cloth_a) + np.abs(lab_b - maps.cloth_b)
        dark = lab_l < maps.dark_level
        bright = lab_l > maps.bright_level
        self._dark = dark & (chroma <= FG_CHROMA)
        fg = ((chroma > FG_CHROMA) | dark | bright).astype(np.uint8) & maps.allowed
        if not opened:
            return fg
        # an opening by a disc of about 0.8 ball radii keeps balls (and their motion-blur
        # streaks) and removes thin things: projected rings, chalk lines, the cue's shaft, the
        # neck between two touching balls ...
        fine = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        out = cv2.morphologyEx(fg, cv2.MORPH_OPEN, self._open_kernel)
        # ... but a ball close to the cloth's colour (the green on a green cloth) shows only
        # scattered parts that the opening would erase: a small, compact blob is kept whole
        n, lab, stats, _ = cv2.connectedComponentsWithStats(fine, 8)
        r = self.r_px * self.scale
        w, h, a = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
        keep = (np.maximum(w, h) <= 2.6 * r) & (a <= 1.5 * np.pi * r * r)
        light = np.bincount(lab[bright | dark], minlength=n)
        k = self._open_kernel.shape[0]
        strokes = (light >= GLYPH_LIGHT_SHARE * a) & (np.maximum(w, h) >= GLYPH_MIN_EXTENT * k)
        strokes[0] = False
        # (the faint-ball search keeps clear of them too: a disc over a figure averages to a
        # faint ball)
        self._strokes = (strokes[lab] & ~out.astype(bool)) if strokes.any() else None
        self._strokes_of = small
        keep &= ~strokes
        keep[0] = False
        return out | keep[lab].astype(np.uint8)

    @staticmethod
    def _blurred_ball(sub: np.ndarray, r: float, area1: float) -> np.ndarray | None:
        """Centre of a blob that is one moving ball smeared by motion blur (a convex streak
        one ball wide), or None."""
        area = sub.sum()
        if area > 5 * area1:
            return None
        cnts, _ = cv2.findContours(sub.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not cnts:
            return None
        c = max(cnts, key=cv2.contourArea)
        if len(c) < 5:
            return None
        (cx, cy), (a1, a2), _ = cv2.minAreaRect(c)
        minor, major = min(a1, a2), max(a1, a2)
        hull_area = cv2.contourArea(cv2.convexHull(c))
        solidity = cv2.contourArea(c) / hull_area if hull_area > 0 else 0
        if 1.4 * r <= minor <= 2.6 * r and major > minor * 1.2 and solidity > 0.88:
            return np.array([cx, cy])
        return None

    def _cluster(self, frame: np.ndarray, x: int, y: int, w_: int, h_: int,
                 sub: np.ndarray, r: float) -> list[np.ndarray]:
        """Ball centres (downscaled px) in a blob of touching balls: circles of about radius
        ``r`` (full-resolution px) found by the gradient Hough transform on the
        full-resolution grey image, kept when their disc is mostly foreground."""
        s = self.scale
        m = int(r)
        X0, Y0 = max(0, int(x / s) - m), max(0, int(y / s) - m)
        X1 = min(frame.shape[1], int((x + w_) / s) + m)
        Y1 = min(frame.shape[0], int((y + h_) / s) + m)
        gray = cv2.cvtColor(frame[Y0:Y1, X0:X1], cv2.COLOR_BGR2GRAY)
        circles = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=1.6 * r, param1=80,
                                   param2=max(6, int(0.6 * r)), minRadius=int(0.75 * r),
                                   maxRadius=int(1.3 * r) + 1)
        out: list[np.ndarray] = []
        if circles is None:
            return out
        for cx, cy, _ in circles[0]:
            sx, sy = (cx + X0) * s - x, (cy + Y0) * s - y
            xi, yi = int(round(sx)), int(round(sy))
            rr = max(1, int(0.6 * r * s))
            win = sub[max(0, yi - rr):yi + rr + 1, max(0, xi - rr):xi + rr + 1]
            if win.size and win.mean() > 0.7:
                out.append(np.array([sx + x, sy + y]))
        return out

    def candidates(self, frame: np.ndarray, small: np.ndarray | None = None,
                   fg: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where balls may be in one BGR frame, before any colour is judged.

        Args:
            small: the frame already downscaled to the working scale (``self.small``, INTER_AREA),
                when the caller has it (:mod:`tracker.perception.change`).
            fg: this detector's last :meth:`foreground` of ``small`` when the caller has it
                (``small`` must then be given too: the faint-ball search reads it).

        Returns:
            (px (N, 2) full-resolution image centres, in_cluster (N,) bool: split from a blob
            of touching balls, fg: the non-cloth mask at the working scale).
        """
        if self.cloth_lab is None:
            self.learn_cloth(frame)
        if small is None:
            small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        if fg is None:  # (given: this detector's last :meth:`foreground` of ``small``)
            fg = self.foreground(small)
        self._blobs = []
        n, lab, stats, cents = cv2.connectedComponentsWithStats(fg, 8)
        if self._edge is None:
            # where something reaching in from outside the table meets the table's area: the
            # region's rim, and the border of the fixtures masked out beside the bed (not at
            # the pockets, where a ball in the jaws touches the fittings)
            self._edge = (cv2.dilate(self.static, np.ones((5, 5), np.uint8)).astype(bool)
                          & ~self.static.astype(bool) & (self.pocket_zone == 0))
        on_rim = np.bincount(lab[self.rim], minlength=n)
        on_edge = np.bincount(lab[self._edge], minlength=n)
        r_local = self._working_radius_at(cents)
        centres: list[np.ndarray] = []
        in_cluster: list[bool] = []
        for k in range(1, n):
            area = stats[k, cv2.CC_STAT_AREA]
            r = float(r_local[k])
            area1 = np.pi * r * r
            if (on_rim[k] > 3 * r and area > 1.5 * area1) or (on_edge[k] > 3 * r and area > 4 * area1):
                # reaches in from outside the table (over the rim, or from fixtures masked
                # beside the bed, which a row of balls along a cushion also touches: only a
                # blob bigger than such a row counts): an occluder, not balls
                continue
            if area < 0.3 * area1 or min(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) < 0.9 * r:
                continue  # too small, or a thin line (cushion shadow, cue, chalk streak)
            if area <= 1.5 * area1:
                w_, h_ = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
                if max(w_, h_) <= 2.6 * r:
                    centres.append(cents[k])
                    in_cluster.append(False)
                    continue
            x, y, w_, h_ = stats[k, :4]
            sub = (lab[y:y + h_, x:x + w_] == k)
            if self._dark[y:y + h_, x:x + w_][sub].mean() > 0.5 and area > 4 * area1:
                continue  # a player's body or arm (dark, wide): an occluder, not balls
            if area > 24 * area1:
                continue  # bigger than the full pack with balls touching it: a player's head
                # or shoulder leaning over the table, whatever its colour
            # touching balls show two or more sharp circles; a ball smeared by motion blur
            # shows none, only a convex streak one ball wide
            circles = self._cluster(frame, x, y, w_, h_, sub, r / self.scale)
            split = len(circles) >= 2
            blur = None if split else self._blurred_ball(sub, r, area1)
            if blur is not None:
                circles = [blur + np.array([x, y], float)]
                flags = [False]
            else:
                # blobs of several balls: the learned classifier searches them too (touching
                # balls a few px across show no sharp circles); not a ball's blur streak
                self._blobs.append((x, y, sub, r))
                # a ball the circle transform missed beside those it found (a dim ball
                # touching a bright one): a ball-sized part of the blob they leave uncovered
                more = _uncovered_balls(sub, [c - [x, y] for c in circles], r) if circles else []
                circles += [m + np.array([x, y], float) for m in more]
                flags = [split or bool(more)] * len(circles)
            centres.extend(circles)
            in_cluster.extend(flags)
        faint = (self._faint_balls(small, fg, lab, stats, centres) if self.search_faint
                 else np.zeros((0, 2)))
        self._faint = np.array([False] * len(centres) + [True] * len(faint), bool)
        self._low_contrast = np.zeros(len(self._faint), bool)
        if not centres and not len(faint):
            return np.zeros((0, 2)), np.zeros(0, bool), fg
        px, share = (self._refine_share(frame, np.array(centres) / self.scale) if centres
                     else (np.zeros((0, 2)), np.zeros(0)))
        # (a faint ball differs from the cloth too little to make the mask: low contrast)
        self._low_contrast[:len(px)] = share < LOW_CONTRAST_SHARE
        self._low_contrast[len(px):] = True
        if len(faint):
            px = np.concatenate([px, self._refine_faint(frame, faint / self.scale)])
        return px, np.array(in_cluster + [False] * len(faint), bool), fg

    def _refine_faint(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        """Full-resolution centres (N, 2) of faint balls found at ``px`` (N, 2): the centroid
        of their difference from the cloth (as in :meth:`_faint_balls`) within 1.2 radii (the
        contact shadow around the ball is even on all sides)."""
        h, w = frame.shape[:2]
        out = px.copy()
        radii = self.radius_at(px)
        mh, mw = self.cloth_map.shape[:2]
        for i, (x, y) in enumerate(px):
            r = float(radii[i])
            R = int(np.ceil(1.5 * r))
            c = self.cloth_map[min(mh - 1, max(0, int(y * self.scale))),
                               min(mw - 1, max(0, int(x * self.scale)))].astype(np.float32)
            for _ in range(2):
                x0, y0 = int(round(x)) - R, int(round(y)) - R
                x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
                if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                    break
                lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
                score = (np.abs(lab[..., 0] - c[0]) / max(float(c[0]), 1.0) / WEAK_LIGHTNESS
                         + (np.abs(lab[..., 1] - c[1]) + np.abs(lab[..., 2] - c[2])) / WEAK_CHROMA)
                yy, xx = np.mgrid[y0:y1, x0:x1]
                wgt = np.maximum(score - 1.0, 0.0) * (((xx - x) ** 2 + (yy - y) ** 2) <= (1.2 * r) ** 2)
                if wgt.sum() < 1e-6:
                    break
                x, y = float((wgt * xx).sum() / wgt.sum()), float((wgt * yy).sum() / wgt.sum())
            out[i] = (x, y)
        return out

    def _faint_balls(self, small: np.ndarray, fg: np.ndarray, labels: np.ndarray,
                     stats: np.ndarray, centres: list[np.ndarray]) -> np.ndarray:
        """Centres (M, 2), working-scale px, of balls the non-cloth mask misses because their
        colour is close to the cloth's (a green ball on a blue-green or green cloth: it differs
        in lightness more than in chroma, lighter where a lamp shines on it, darker in
        shade): ball-sized discs whose mean difference from the cloth map reaches WEAK_SCORE
        (see WEAK_LIGHTNESS, WEAK_CHROMA), clear of the cushions' shadowed faces, of the
        fixtures, of the balls found (``centres``, working-scale px, with their shadows) and of
        the mask's blobs bigger than two balls (``labels``, ``stats`` of ``fg``: players,
        arms, cues)."""
        if self.cloth_map is None:
            return np.zeros((0, 2))
        maps = self.cloth_maps()
        r = self.r_px * self.scale
        clear = _faint_clearance(r)
        big = np.nonzero(stats[:, cv2.CC_STAT_AREA] > 2.0 * np.pi * r * r)[0]
        big = big[big > 0]
        # clear of the fixtures and of the bed's edges (made once: :meth:`cloth_maps`), of the
        # big blobs and of the balls found
        allowed = maps.faint_allowed.copy()
        # the big blobs and the light or dark strokes, kept clear of by one dilation of both
        # (a dilation of a union is the union of the dilations)
        avoid = None
        if len(big):
            is_big = np.zeros(len(stats), np.uint8)
            is_big[big] = 1
            avoid = is_big[labels]
        strokes = self._strokes if self._strokes_of is small else None
        if strokes is not None:
            avoid = strokes.astype(np.uint8) if avoid is None else avoid | strokes
        if avoid is not None:
            allowed &= ~cv2.dilate(avoid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                                   (clear, clear))).astype(bool)
        if centres:
            near = np.zeros(fg.shape, np.uint8)
            for cx, cy in centres:
                cv2.circle(near, (int(round(cx)), int(round(cy))), int(np.ceil(2.5 * r)), 1, -1)
            allowed &= ~near.astype(bool)
        if not allowed.any():
            return np.zeros((0, 2))
        lab = self._lab if self._lab_of is small else None
        if lab is None:  # (not the picture the last :meth:`foreground` saw)
            lab = tuple(cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)))
        lab_l, lab_a, lab_b = (p.astype(np.float32) for p in lab)
        score = (np.abs(lab_l - maps.cloth_lf) / maps.light_den / WEAK_LIGHTNESS
                 + (np.abs(lab_a - maps.cloth_af) + np.abs(lab_b - maps.cloth_bf)) / WEAK_CHROMA)
        k = max(3, int(1.4 * r) | 1)
        # the disc mean at an allowed pixel is a weighted mean of the scores within k // 2 px
        # (the border replicated: nearer still): none of them near WEAK_SCORE, no peak can
        # reach it (the margin covers the float rounding of the mean)
        reach = cv2.dilate(allowed.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
        if score[reach].max() < WEAK_SCORE * (1.0 - 1e-5):
            return np.zeros((0, 2))
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).astype(np.float32)
        mean = cv2.filter2D(score, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
        # local maxima of the disc mean; a ball's is a compact peak: where the mean stays
        # above half the peak (a radius around it, grown by the disc) is under three radii
        # across, where a line or a pool of light spreads further
        win = max(3, int(2 * r) | 1)
        peak = (mean >= cv2.dilate(mean, np.ones((win, win), np.uint8))) & (mean >= WEAK_SCORE) & allowed
        out: list[tuple[float, float]] = []
        h, w = mean.shape
        m = int(np.ceil(3 * r))
        for y, x in zip(*np.nonzero(peak), strict=True):
            if any(abs(x - a) < 2 * r and abs(y - b) < 2 * r for a, b in out):
                continue
            y0, y1, x0, x1 = max(0, y - m), min(h, y + m + 1), max(0, x - m), min(w, x + m + 1)
            half = (mean[y0:y1, x0:x1] >= 0.5 * mean[y, x]).astype(np.uint8)
            _, lab_, st, _ = cv2.connectedComponentsWithStats(half, 8)
            j = lab_[y - y0, x - x0]
            if max(st[j, 2], st[j, 3]) > 3.0 * r + k or st[j, 0] == 0 or st[j, 1] == 0 \
                    or st[j, 0] + st[j, 2] == x1 - x0 or st[j, 1] + st[j, 3] == y1 - y0:
                continue  # a line, a strip or a patch of light: not a ball
            yy, xx = np.mgrid[y0:y1, x0:x1]
            wgt = np.where((xx - x) ** 2 + (yy - y) ** 2 <= r * r, mean[y0:y1, x0:x1], 0.0)
            out.append((float((wgt * xx).sum() / wgt.sum()), float((wgt * yy).sum() / wgt.sum())))
        return np.array(out, float).reshape(-1, 2)

    def detect(self, frame: np.ndarray, small: np.ndarray | None = None) -> BallDetections:
        """Balls in one BGR frame (full resolution); ``small``: see :meth:`candidates`."""
        return self.judge(frame, *self.candidates(frame, small))

    def judge(self, frame: np.ndarray, px: np.ndarray, in_cluster: np.ndarray,
              fg: np.ndarray) -> BallDetections:
        """Detections from candidates (:meth:`candidates`' three results) in ``frame``."""
        if not len(px):
            out = BallDetections.empty()
            out.occupancy = self._occupancy(fg)
            return out
        if self.classifier is not None:
            return self._detect_learned(frame, px, fg, in_cluster)
        feats = self._colour_features(frame, px)
        keep = self._distinct(px, feats)
        if self.colours_learned:
            # a circle split from a blob, or a faint disc, must look like a ball's colour
            doubtful = in_cluster | self._faint
            keep &= ~(doubtful & (self._cost(feats).min(1) > self.cluster_max_cost))
        px, feats = px[keep], feats[keep]
        probs = self._probs(feats)
        cls = probs.argmax(1)
        low = self._low_contrast[keep] if len(self._low_contrast) == len(keep) else keep[:0]
        if self.colours_learned and low.any():
            # a ball nearly the cloth's colour: placed by its colour, not its shadow
            px = self._fit_discs(frame, px, cls, low)
        out = self._detections(px, cls, probs.max(1), probs, feats)
        out.occupancy = self._occupancy(fg)
        return out[self.can_hold(out.mm)]

    def _detect_learned(self, frame: np.ndarray, px: np.ndarray, fg: np.ndarray,
                        in_cluster: np.ndarray) -> BallDetections:
        """Detections from the candidates ``px`` (N, 2) judged by the learned classifier: a
        candidate is a ball when the classifier says so (its "not a ball" share below
        ``classifier.max_none``), its colour class and probabilities are the classifier's; of
        two detections closer than :data:`LEARNED_MIN_SEP` radii the more ball-like one
        stays. Blobs of several balls are searched for more (:meth:`_search_blobs`)."""
        hl = self._highlight_centres(frame, px, in_cluster)
        from_hl = np.r_[np.zeros(len(px), bool), np.ones(len(hl), bool)]
        px = np.concatenate([px, hl])
        p9 = self._white_streak(frame, px, self.classifier.classify(frame, px, self.radius_at(px)))
        none = p9[:, -1]
        keep = none < self.classifier.max_none
        # a circle split from a blob has only the network's word that it is a ball (hair, a
        # hand or knitwear show circles too): "not a ball" must not be its likeliest answer
        split = np.r_[in_cluster, np.zeros(len(hl), bool)]
        keep &= ~(split & (none >= p9[:, :-1].max(1)))
        px, p9, none, from_hl = px[keep], p9[keep], none[keep], from_hl[keep]
        extra, p_extra = self._search_blobs(frame, px) if self.search_blobs else (px[:0], p9[:0])
        if len(extra):
            ok = p_extra[:, -1] < min(self.classifier.max_none, GRID_MAX_NONE)
            px = np.concatenate([px, extra[ok]])
            p9 = np.concatenate([p9, p_extra[ok]])
            none = p9[:, -1]
        feats = self._colour_features(frame, px)
        from_hl = np.r_[from_hl, np.zeros(len(px) - len(from_hl), bool)]
        # a centre under a highlight is preferred to a split or grid point beside it; two
        # highlights are two balls (one ball shows one: :meth:`_spots` merges closer peaks),
        # though in a TV pack a ball's centre stands under a radius below the one behind it
        keep = self._distinct(px, feats, min_sep=LEARNED_MIN_SEP, score=from_hl - none,
                              apart=from_hl)
        px, p9, feats = px[keep], p9[keep], feats[keep]
        probs = p9[:, :-1] / np.maximum(p9[:, :-1].sum(1, keepdims=True), 1e-6)
        keep = _one_per_colour_nearby(px, probs, self.radius_at(px))
        px, probs, feats, none = px[keep], probs[keep], feats[keep], p9[keep, -1]
        out = self._detections(px, probs.argmax(1), probs.max(1), probs, feats)
        inside = self.can_hold(out.mm)
        out, none = out[inside], none[inside]
        held = _held_colours_removed(out.probs)
        # a detection whose classes were held by others, left with one less likely than "not a
        # ball" (the tail of the cue ball's streak, split from it), is no ball
        top = held.argmax(1)
        raw = out.probs[np.arange(len(out)), top] * (1.0 - none)
        ok = (top == out.cls) | (raw >= none)
        out = out[ok]
        out.probs = held[ok]
        out.cls, out.conf = out.probs.argmax(1), out.probs.max(1)
        out.occupancy = self._occupancy(fg)
        return out

    def _white_streak(self, frame: np.ndarray, px: np.ndarray, p9: np.ndarray) -> np.ndarray:
        """The network's probabilities (N, 9) at the candidates ``px`` (N, 2), with the cue ball
        put back when the network sees none: a real cue ball struck hard is a long faint
        streak, unlike the renderer's blur the network learned, and it refuses it. When no
        candidate is a ball most likely the white, the refused candidate whose colour is most
        like the white's prototype (at least :data:`STREAK_WHITE_PROB`) is the white."""
        if not self.colours_learned or not len(px):
            return p9
        ball = p9[:, -1] < self.classifier.max_none
        if (ball & (p9[:, :-1].argmax(1) == 0)).any() or ball.all():
            return p9
        refused = np.nonzero(~ball)[0]
        white = self._probs(self._colour_features(frame, px[refused]))[:, 0]
        i = int(np.argmax(white))
        if white[i] >= STREAK_WHITE_PROB:
            p9 = p9.copy()
            p9[refused[i]] = 0.0
            p9[refused[i], 0] = white[i]
            p9[refused[i], -1] = 1.0 - white[i]
        return p9

    def _highlight_centres(self, frame: np.ndarray, px: np.ndarray,
                           in_cluster: np.ndarray) -> np.ndarray:
        """Ball centres (M, 2) full-resolution px proposed by the specular highlights inside
        blobs of several balls (:data:`HIGHLIGHT_CONTRAST`): each highlight's centre lies
        below it by the median drop of the frame's single balls (candidates ``px`` (N, 2) not
        ``in_cluster`` with a highlight within a radius above them), else by
        :data:`HIGHLIGHT_DROP_RADII` local radii."""
        multi = self._blobs
        if not multi:
            return np.zeros((0, 2))
        s = self.scale
        spots = []
        for x, y, sub, r in multi:
            R = r / s
            X0, Y0 = max(0, int(x / s - R)), max(0, int(y / s - R))
            X1 = min(frame.shape[1], int((x + sub.shape[1]) / s + R))
            Y1 = min(frame.shape[0], int((y + sub.shape[0]) / s + R))
            grey = cv2.cvtColor(frame[Y0:Y1, X0:X1], cv2.COLOR_BGR2GRAY)
            spots.extend(p + [X0, Y0] for p in self._spots(grey, R))
        if not spots:
            return np.zeros((0, 2))
        spots = np.array(spots, float)
        # keep the spots on the blobs themselves
        sm = np.zeros((self.small[1], self.small[0]), bool)
        for x, y, sub, _ in multi:
            sm[y:y + sub.shape[0], x:x + sub.shape[1]] |= sub
        ij = np.clip(np.round(spots * s).astype(int), 0, [self.small[0] - 1, self.small[1] - 1])
        spots = spots[sm[ij[:, 1], ij[:, 0]]]
        drop = self._highlight_drop(frame, px[~in_cluster]) if len(px) else HIGHLIGHT_DROP_RADII
        return spots + np.c_[np.zeros(len(spots)), drop * self.radius_at(spots)]

    @staticmethod
    def _spots(gray: np.ndarray, R: float) -> list[np.ndarray]:
        """Specular highlights (x, y) px in a grey image of balls of radius ``R`` px: peaks of
        the top-hat by a disc of 0.8 radii at least :data:`HIGHLIGHT_CONTRAST` high and
        :data:`HIGHLIGHT_MIN_GREY` bright, at least :data:`HIGHLIGHT_MIN_SEP_RADII` apart."""
        if min(gray.shape) < 3:
            return []
        g = gray.astype(np.float32)
        k = max(3, int(0.8 * R) | 1)
        th = g - cv2.morphologyEx(g, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        th = cv2.GaussianBlur(th, (3, 3), 0)
        peaks = _peaks(np.where((th > HIGHLIGHT_CONTRAST) & (g >= HIGHLIGHT_MIN_GREY), th, 0),
                       HIGHLIGHT_CONTRAST, max(2.0, HIGHLIGHT_MIN_SEP_RADII * R))
        return peaks

    def _highlight_drop(self, frame: np.ndarray, single: np.ndarray) -> float:
        """How far below its highlight a ball's centre lies, in local radii: the median over
        single balls (centres (N, 2) px) of the drop from the brightest spot within a radius
        above each; :data:`HIGHLIGHT_DROP_RADII` when none shows one."""
        drops = []
        for (x, y), R in zip(single, self.radius_at(single), strict=True):
            X0, Y0 = int(x - R), int(y - 1.4 * R)
            if X0 < 0 or Y0 < 0:
                continue
            win = frame[Y0:int(y + 0.2 * R) + 1, X0:int(x + R) + 1]
            if min(win.shape[:2]) < 3:
                continue
            win = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY)
            sp = self._spots(win, R)
            if sp:
                best = max(sp, key=lambda p: win[int(p[1]), int(p[0])])
                drops.append((y - (best[1] + Y0)) / R)
        return float(np.clip(np.median(drops), 0.2, 0.9)) if len(drops) >= 2 else HIGHLIGHT_DROP_RADII

    def _search_blobs(self, frame: np.ndarray, kept: np.ndarray, stride: float = 0.4,
                      min_sep: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Balls the candidates missed inside blobs of several balls: the classifier judges
        points on a grid (every ``stride`` local radii) over each blob; the most ball-like
        points, at least ``min_sep`` radii from every kept detection and from each other,
        are balls (refined like the candidates). Returns (px (M, 2), probabilities (M, 9))."""
        min_sep = LEARNED_MIN_SEP if min_sep is None else min_sep
        pts = []
        for x, y, sub, r in self._blobs:
            step = max(1.0, stride * r)
            ys, xs = np.mgrid[0:sub.shape[0]:step, 0:sub.shape[1]:step]
            ys, xs = ys.ravel(), xs.ravel()
            inside = sub[ys.astype(int), xs.astype(int)]
            pts.append(np.stack([xs[inside] + x, ys[inside] + y], 1) / self.scale)
        if not pts or not sum(len(p) for p in pts):
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        grid = np.concatenate(pts)
        radii = self.radius_at(grid)
        if len(kept):  # a point within min_sep of a kept ball cannot be another ball
            d = np.linalg.norm(grid[:, None, :] - kept[None, :, :], axis=2).min(1)
            grid, radii = grid[d >= min_sep * radii], radii[d >= min_sep * radii]
        if not len(grid):
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        p9 = self.classifier.classify(frame, grid, radii)
        ball = 1.0 - p9[:, -1]
        taken = list(kept)
        out = []
        for i in np.argsort(-ball):
            if ball[i] < 1.0 - self.classifier.max_none:
                break
            if all(np.hypot(*(grid[i] - q)) >= min_sep * radii[i] for q in taken):
                taken.append(grid[i])
                out.append(i)
        if not out:
            return np.zeros((0, 2)), np.zeros((0, 9), np.float32)
        px = self._refine(frame, np.concatenate([kept, grid[out]]))[len(kept):]
        return px, self.classifier.classify(frame, px, self.radius_at(px))

    def class_cost(self, det: BallDetections) -> np.ndarray:
        """Cost (N, 8) of each detection being each class, on the scale of :meth:`_cost` (for
        :func:`constrained_classes`): the prototypes' feature distance, or, with the learned
        classifier, ``-LEARNED_COST_SCALE * log(p)``."""
        if self.classifier is None:
            return self._cost(det.feats)
        return -LEARNED_COST_SCALE * np.log(np.clip(det.probs, 1e-6, 1.0))

    def _occupancy(self, fg: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """``f(mm (M, 2)) -> (M,)``: the share of foreground pixels of ``fg`` (this frame's
        non-cloth mask at the working scale) within 0.6 local ball radii of each table
        position (1.0 outside the image: nothing can be said there)."""
        t = self.cal.table

        def occupancy(mm: np.ndarray) -> np.ndarray:
            mm = np.asarray(mm, float).reshape(-1, 2)
            px = self.cal.to_image(mm, t.ball_radius)
            rads = np.maximum(1.0, 0.6 * self.radius_at(px) * self.scale)
            out = np.ones(len(mm))
            h, w = fg.shape
            for i, ((x, y), r) in enumerate(zip(px * self.scale, rads, strict=True)):
                x0, x1 = int(x - r), int(x + r) + 1
                y0, y1 = int(y - r), int(y + r) + 1
                if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                    continue
                out[i] = float(fg[y0:y1, x0:x1].mean())
            return out

        return occupancy

    def _detections(self, px: np.ndarray, cls: np.ndarray, conf: np.ndarray, probs: np.ndarray,
                    feats: np.ndarray) -> BallDetections:
        """Detections at image centres ``px`` (N, 2): table positions, local radii and
        scale."""
        # local scale: millimetres on the table per image pixel at each ball, along the
        # coarser image axis (in a TV view a pixel down the image spans several times the
        # table distance of a pixel across it, far from the camera); the three sets of
        # points in one call (row by row the same arithmetic as three calls: a third the cost)
        n = len(px)
        allmm = self.cal.ball_to_table(np.concatenate([px, px + [1.0, 0.0], px + [0.0, 1.0]]))
        mm = allmm[:n]
        mm_per_px = np.maximum(np.linalg.norm(allmm[n:2 * n] - mm, axis=1),
                               np.linalg.norm(allmm[2 * n:] - mm, axis=1))
        return BallDetections(px, mm, self.radius_at(px), cls, conf, probs, mm_per_px, feats)

    def _distinct(self, px: np.ndarray, feats: np.ndarray, min_sep: float = 1.2,
                  score: np.ndarray | None = None, apart: np.ndarray | None = None) -> np.ndarray:
        """Mask (N,) dropping the darker of two detections closer than ``min_sep`` local radii
        on screen: a ball lit from above shows a bright top and a dark underside, which a
        cluster split can take for two balls (touching balls stand at least ~1.4 radii apart
        on screen even one behind the other in a TV view). ``score`` (N,): keep the higher
        instead of the brighter. ``apart`` (N,) bool: two detections both marked (each
        proposed by a highlight of its own) are two balls when at least
        :data:`HIGHLIGHT_MIN_SEP_RADII` apart (the same highlight seen from two blobs' windows
        is one)."""
        keep = np.ones(len(px), bool)
        if len(px) < 2:
            return keep
        r = self.radius_at(px)
        order = np.argsort(-(feats[:, 3] if score is None else score))  # brightest first
        dist = np.linalg.norm(px[:, None, :] - px[None, :, :], axis=2)
        rr = np.maximum(r[:, None], r[None, :])
        close = dist < min_sep * rr
        if apart is not None:
            close &= ~(apart[:, None] & apart[None, :] & (dist >= HIGHLIGHT_MIN_SEP_RADII * rr))
        for a_i, a in enumerate(order):
            if keep[a]:  # it drops every later (darker) one close to it
                later = order[a_i + 1:]
                keep[later[close[a, later]]] = False
        return keep

    def can_hold(self, mm: np.ndarray, slack: float = 0.6) -> np.ndarray:
        """Whether a ball's centre can be at each table position (N, 2) mm: at least a radius
        from every cushion nose (less ``slack`` radii for the calibration's error), or in a
        pocket's jaws. A "ball" on the rail or the cushion top is a fixture or a hand."""
        t = self.cal.table
        m = (1.0 - slack) * t.ball_radius
        inside = ((mm[:, 0] >= m) & (mm[:, 0] <= t.width - m)
                  & (mm[:, 1] >= m) & (mm[:, 1] <= t.length - m))
        if self._mouths is None or self._mouths[0] is not t:
            pks = list(t.pockets.values())
            self._mouths = (t, np.array([pk.mouth_centre for pk in pks], float),
                            np.array([pk.mouth_width for pk in pks], float))
        _, centres, widths = self._mouths
        near = np.linalg.norm(mm[:, None, :] - centres[None, :, :], axis=2) <= widths[None, :]
        return inside | near.any(axis=1)

    def _refine(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        """Sub-pixel centres (N, 2) of the balls near ``px`` (N, 2): see :meth:`_refine_share`."""
        return self._refine_share(frame, px)[0]

    def _refine_share(self, frame: np.ndarray, px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sub-pixel centres: the centroid of the non-cloth pixels within 1.15 radii, at full
        resolution, weighted (0..1) by how far from the cloth colour they are.

        Returns:
            (centres (N, 2) full-resolution px, share (N,): the weights' sum over the disc of
            1.15 radii round the last centroid, as a share of that disc's pixels; 1 where
            the disc is cut by the frame's edge or holds almost no weight (no refinement))."""
        h, w = frame.shape[:2]
        out = px.copy()
        share = np.ones(len(px))
        radii = self.radius_at(px)
        mh, mw = self.cloth_map.shape[:2]
        for i, (x, y) in enumerate(px):
            r = float(radii[i])
            R = int(np.ceil(1.3 * r))
            # the cloth's colour here (light falls off toward the far end)
            c = self.cloth_map[min(mh - 1, max(0, int(y * self.scale))),
                               min(mw - 1, max(0, int(x * self.scale)))].astype(np.float32)
            dark, light = c[0] * 0.6, c[0] + 40
            own = (1.15 * r) ** 2
            seen: tuple[int, int, np.ndarray] | None = None  # the last patch's corner, weights
            for _ in range(2):
                x0, y0 = int(round(x)) - R, int(round(y)) - R
                x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
                if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                    break
                if seen is not None and seen[0] == x0 and seen[1] == y0:
                    wgt = seen[2].copy()  # the same patch again: the same colour weights
                else:
                    # how far from the cloth: chroma, darker than its shadows, brighter
                    # than its highlights; weights 0..1 from 12 to 32 levels (in place)
                    lum, a, b = (p.astype(np.float32) for p in
                                 cv2.split(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB)))
                    d = np.abs(a - c[1])
                    d += np.abs(b - c[2])
                    d += np.maximum(0, dark - lum)
                    d += np.maximum(0, lum - light)
                    d -= 12.0
                    d /= 20.0
                    wgt = np.minimum(np.maximum(d, 0), 1)
                    seen = (x0, y0, wgt.copy())
                xx = np.arange(x0, x1)[None, :]
                yy = np.arange(y0, y1)[:, None]
                d_own = (xx - x) ** 2 + (yy - y) ** 2
                in_disc = d_own <= own
                wgt *= in_disc
                # in a cluster, a pixel nearer another ball's centre belongs to that ball
                for j in np.nonzero(np.abs(out[:, 0] - x) + np.abs(out[:, 1] - y) < 3 * r)[0]:
                    if j != i:
                        wgt *= d_own <= (xx - out[j, 0]) ** 2 + (yy - out[j, 1]) ** 2
                s = wgt.sum()
                if s < 1:
                    break
                share[i] = s / max(1, int(in_disc.sum()))
                x, y = (wgt * xx).sum() / s, (wgt * yy).sum() / s
            out[i] = (x, y)
        return out, share

    def _fit_discs(self, frame: np.ndarray, px: np.ndarray, cls: np.ndarray,
                   which: np.ndarray) -> np.ndarray:
        """Centres (N, 2) with those marked by ``which`` (N,) moved to the disc of their local
        radius, within :data:`DISC_FIT_REACH_RADII` of where they were, whose pixels are most
        like their class ``cls`` (N,) (indices into :data:`CLASSES`) rather than the local
        cloth: per pixel, squared feature distance to the cloth minus that to the class
        prototype, clipped to :data:`DISC_FIT_CLIP`; a pixel nearer another centre and more
        like that one's class belongs to that ball (a blue touching the green; not the dark
        shadow beside it, should that have been taken for a ball too). Full-resolution px,
        to a tenth of a pixel (a parabola through the best disc and its neighbours)."""
        out = px.copy()
        h, w = frame.shape[:2]
        radii = self.radius_at(px)
        mh, mw = self.cloth_map.shape[:2]
        for i in np.nonzero(which)[0]:
            r = float(radii[i])
            reach = DISC_FIT_REACH_RADII * r
            H = int(np.ceil(r + reach)) + 2
            x, y = int(round(px[i, 0])), int(round(px[i, 1]))
            if x - H < 0 or y - H < 0 or x + H >= w or y + H >= h:
                continue
            patch = frame[y - H:y + H + 1, x - H:x + H + 1]
            f = _feature(patch.reshape(-1, 3)).reshape(patch.shape[0], patch.shape[1], -1)
            lab = self.cloth_map[min(mh - 1, int(y * self.scale)), min(mw - 1, int(x * self.scale))]
            cloth_bgr = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8).reshape(1, 1, 3),
                                     cv2.COLOR_LAB2BGR)
            cloth = _feature(cloth_bgr.reshape(1, 3))[0]
            own = ((f - self.protos[cls[i]]) ** 2).sum(-1)
            vote = np.clip(((f - cloth) ** 2).sum(-1) - own, -DISC_FIT_CLIP, DISC_FIT_CLIP)
            vote = vote.astype(np.float32)
            yy, xx = np.mgrid[y - H:y + H + 1, x - H:x + H + 1]
            d_own = (xx - px[i, 0]) ** 2 + (yy - px[i, 1]) ** 2
            for j in np.nonzero(np.abs(px[:, 0] - px[i, 0]) + np.abs(px[:, 1] - px[i, 1]) < 4 * r)[0]:
                if j != i:  # (of the same class: every pixel nearer it)
                    nearer = (xx - px[j, 0]) ** 2 + (yy - px[j, 1]) ** 2 < d_own
                    if cls[j] != cls[i]:
                        nearer &= ((f - self.protos[cls[j]]) ** 2).sum(-1) < own
                    vote[nearer] = -DISC_FIT_CLIP
            k = int(np.ceil(r))
            dy, dx = np.mgrid[-k:k + 1, -k:k + 1]
            disc = np.clip(r + 0.5 - np.hypot(dx, dy), 0, 1).astype(np.float32)  # anti-aliased
            score = cv2.filter2D(vote, -1, disc / disc.sum(), borderType=cv2.BORDER_REPLICATE)
            score[d_own > reach * reach] = -np.inf
            iy, ix = np.unravel_index(int(np.argmax(score)), score.shape)
            out[i] = (xx[iy, ix] + _vertex(score[iy, ix - 1:ix + 2]),
                      yy[iy, ix] + _vertex(score[iy - 1:iy + 2, ix]))
        return out

    def _colour_features(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        """Median colour features (N, 5) of the disc of 0.55 radii around each centre (N, 2)."""
        r = max(2, int(0.55 * self.r_px))
        h, w = frame.shape[:2]
        feats = np.zeros((len(px), 5), np.float32)  # (0, 5) when no centre
        ci = np.round(px).astype(int).reshape(-1, 2)
        whole = (ci[:, 0] >= r) & (ci[:, 0] + r < w) & (ci[:, 1] >= r) & (ci[:, 1] + r < h)
        if whole.any():  # the square patches inside the frame, all at once
            off = np.arange(-r, r + 1)
            ys = ci[whole, 1][:, None, None] + off[None, :, None]
            xs = ci[whole, 0][:, None, None] + off[None, None, :]
            patches = frame[ys, xs].reshape(int(whole.sum()), -1, 3)  # (n, side * side, 3)
            # (patches with pixels blown out by the light: without them)
            feats[whole] = _patch_features(
                patches, _feature(patches.reshape(-1, 3)).reshape(len(patches), -1, 5))
        for i in np.nonzero(~whole)[0]:  # cut by the frame's edge
            xi, yi = ci[i]
            patch = frame[max(0, yi - r):min(h, yi + r + 1), max(0, xi - r):min(w, xi + r + 1)]
            if patch.size:
                feats[i] = _patch_feature(patch)
        return feats

    def _probs(self, feats: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 8) from the feature distances to the prototypes."""
        logits = -self._cost(feats) / 0.01
        logits -= logits.max(1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(1, keepdims=True)

    def learn_colours(self, frames: list[np.ndarray] | np.ndarray, iterations: int = 5,
                      spot_tolerance: float = 0.8, spot_bonus: float = 0.3) -> None:
        """Adapt the eight colour prototypes to this camera and light from frames of balls at
        rest (the opening rack, or any layouts seen by the same camera).

        Each round labels every frame's detections with :func:`constrained_classes` (one
        white, at most 15 reds, one of each colour per frame) and moves every class's
        prototype to the mean feature of its balls over all frames; a class never seen keeps
        its prototype. The camera's white balance and exposure move all colours together, so
        a brown that reads almost red under a strong light is still told apart from the reds
        by being, in each frame, the one ball most like the brown. The first round gives
        lightness little weight (exposure moves it most) and ranks the balls within the frame
        (each class's cost less its best ball's cost) instead of trusting the stock prototypes'
        absolute distances. A ball standing on a colour's spot (within ``spot_tolerance``
        radii: the apex red of a rack is two radii from the pink spot) is taken to be that
        colour unless its colour says clearly otherwise: in a frame start or mid-frame most
        colours are on their spots, and this anchors the dark ones (brown, black, a green on
        green cloth) that the features alone confuse under broadcast light. With the learned
        classifier the colours need no learning (:meth:`_protos_from_classifier`).
        """
        if isinstance(frames, np.ndarray):
            frames = [frames]
        if self.classifier is not None:
            self._protos_from_classifier(frames)
            return
        t = self.cal.table
        spot_names = [n for n in CLASSES if n in t.spots]
        spot_xy = np.array([t.spots[n] for n in spot_names], float)
        seen = []
        for f in frames:
            det = self.detect(f)
            if len(det):
                prior = np.zeros((len(det), len(CLASSES)), np.float32)
                d = np.linalg.norm(det.mm[:, None, :] - spot_xy[None], axis=2)
                # within the tolerance, widened where the view is coarse (a far ball in a TV
                # view: a few px are tens of mm), never as far as a racked red from the pink
                tol = np.minimum(1.6 * t.ball_radius,
                                 spot_tolerance * t.ball_radius + 3.0 * det.mm_per_px)
                for j, name in enumerate(spot_names):
                    prior[d[:, j] <= tol, CLASSES.index(name)] = spot_bonus
                seen.append((det.feats, prior))
        if not seen:
            return
        for it in range(iterations):
            sums = np.zeros_like(self.protos)
            counts = np.zeros(len(CLASSES))
            for feats, prior in seen:
                cost = self._cost(feats, 0.2 if it == 0 else 1.0)
                if it == 0:
                    # stock prototypes are only a rough guide: rank within the frame (each
                    # class's place goes to the ball most like it, relative to the others;
                    # the absolute distance breaks ties: when a class has no ball in view, the
                    # ball most like it is often most like its own class too)
                    rel = cost - cost.min(0, keepdims=True)
                    cost = np.where(cost < 0.6, rel + 0.25 * cost, cost)
                # the spot breaks near-ties only: a red on the green spot stays a red
                base = self._cost(feats, 0.2)
                tie = base - base.min(1, keepdims=True) < 0.5
                cls = constrained_classes(cost - prior * tie, unique_bonus=0.1, white_bonus=0.3)
                for k in range(len(CLASSES)):
                    sums[k] += feats[cls == k].sum(0)
                    counts[k] += (cls == k).sum()
            protos = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], self.protos)
            done = np.allclose(protos, self.protos)
            self.protos = protos.astype(np.float32)
            self.colours_learned = True
            if done:
                break

    def _protos_from_classifier(self, frames: list[np.ndarray]) -> None:
        """With the learned classifier the colours need no learning; the prototypes (used by
        :meth:`find_missing`) become the mean features of each class's balls as the
        classifier labels them under the game's constraint."""
        sums = np.zeros_like(self.protos)
        counts = np.zeros(len(CLASSES))
        for f in frames:
            det = self.detect(f)
            if not len(det):
                continue
            cls = constrained_classes(self.class_cost(det))
            for k in range(len(CLASSES)):
                sums[k] += det.feats[cls == k].sum(0)
                counts[k] += (cls == k).sum()
        self.protos = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None],
                               self.protos).astype(np.float32)
        self.colours_learned = True

    def _cost(self, feats: np.ndarray, value_weight: float = 1.0) -> np.ndarray:
        """Squared feature distance (N, 8) of each detection to each class prototype, the
        lightness term scaled by ``value_weight``."""
        w = np.array([1.0, 1.0, 1.0, value_weight, 1.0], np.float32)
        return (((feats[:, None, :] - self.protos[None, :, :]) ** 2) * w).sum(-1)

    def detect_constrained(self, frame: np.ndarray) -> BallDetections:
        """Detections of one still frame labelled under the game's constraint (see
        :func:`constrained_classes`); detections left without a class (more balls of a colour
        than the game has) are dropped."""
        det = self.detect(frame)
        if len(det):
            cls = constrained_classes(self.class_cost(det), white_bonus=(
                None if self.classifier is None else LEARNED_WHITE_BONUS))
            keep = cls >= 0
            det = det[keep]
            det.cls = cls[keep]
            det.conf = det.probs[np.arange(len(det)), det.cls]
        missing = [k for k, name in enumerate(CLASSES) if CAPACITY[name] == 1 and k not in set(det.cls)]
        return self.find_missing(frame, det, missing)

    def find_missing(self, frame: np.ndarray, det: BallDetections, classes: list[int],
                     max_cost: float = 0.15) -> BallDetections:
        """Look for balls of the given classes (indices into :data:`CLASSES`) that the
        cloth-difference mask missed: a green ball on a blue-green cloth differs from it in
        saturation more than in hue. For each class, the disc of 0.6 ball radii whose pixels
        are, on average, nearest that class's prototype is a ball of it when the mean cost is
        under ``max_cost`` and it lies clear of every detection. Returns ``det`` with those
        balls added."""
        if not classes or self.cloth_lab is None:
            return det
        if self.classifier is not None:
            return self._find_missing_learned(frame, det, classes)
        small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        feats = _feature(small.reshape(-1, 3)).reshape(small.shape[0], small.shape[1], -1)
        r = self.r_px * self.scale
        k = max(3, int(1.2 * r) | 1)
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)).astype(np.float32)
        disc /= disc.sum()
        allowed = (self.region & (1 - self.static)).astype(bool)
        found_px, found_cls = [], []
        for c in classes:
            cost = ((feats - self.protos[c]) ** 2).sum(-1)
            mean = cv2.filter2D(cost, -1, disc, borderType=cv2.BORDER_REPLICATE)
            mean[~allowed] = np.inf
            for p in det.px * self.scale:
                cv2.circle(mean, (int(p[0]), int(p[1])), int(1.6 * r), np.inf, -1)
            y, x = np.unravel_index(np.argmin(mean), mean.shape)
            if mean[y, x] < max_cost:
                # the centre: centroid of the pixels of this colour within a radius and a half
                # (the cheapest disc leans toward the lit side)
                cx, cy = float(x), float(y)
                for _ in range(2):
                    x0, y0 = max(0, int(cx - 1.5 * r)), max(0, int(cy - 1.5 * r))
                    win = cost[y0:int(cy + 1.5 * r) + 1, x0:int(cx + 1.5 * r) + 1]
                    yy, xx = np.mgrid[y0:y0 + win.shape[0], x0:x0 + win.shape[1]]
                    m = (win < 3 * max_cost) & ((xx - cx) ** 2 + (yy - cy) ** 2 <= (1.5 * r) ** 2)
                    if m.sum() < 3:
                        break
                    cx, cy = float(xx[m].mean()), float(yy[m].mean())
                found_px.append((cx / self.scale, cy / self.scale))
                found_cls.append(c)
        if not found_px:
            return det
        px = np.array(found_px, float)
        # a ball hardly differing from the cloth (a green on a blue-green cloth: what this
        # search is for): its colour's centroid leans toward its lit side, so it is placed
        # by the disc of its colour (a black in a pocket's jaws is not: its disc would take
        # in the hole)
        n = len(det)
        low = self._refine_share(frame, px)[1] < LOW_CONTRAST_SHARE
        px = self._fit_discs(frame, np.concatenate([det.px, px]),
                             np.concatenate([det.cls, found_cls]).astype(int),
                             np.r_[np.zeros(n, bool), low])[n:]
        probs = np.zeros((len(px), len(CLASSES)))
        probs[np.arange(len(px)), found_cls] = 1.0
        return self._merge(det, self._detections(px, np.array(found_cls), np.full(len(px), 0.5),
                                                  probs, self._colour_features(frame, px)))

    def _find_missing_learned(self, frame: np.ndarray, det: BallDetections,
                              classes: list[int]) -> BallDetections:
        """:meth:`find_missing` with the learned classifier: the places the candidates passed
        over as too small (a green ball on green cloth shows only its highlight as non-cloth)
        are judged by the network, at the spot and a little below it (the centre lies below
        the highlight); each missing class takes the place most likely its colour when that
        is at least :data:`MISSING_MIN_PROB` and it is a ball (see ``classifier.max_none``),
        clear of every detection by 1.6 radii."""
        small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        fine = self.foreground(small, opened=False)
        n, _, stats, cents = cv2.connectedComponentsWithStats(fine, 8)
        if n <= 1:
            return det
        pts = cents[1:] / self.scale
        r = self.radius_at(pts)
        pts = np.concatenate([pts, pts + np.c_[np.zeros(len(pts)), HIGHLIGHT_DROP_RADII * r]])
        r = self.radius_at(pts)
        if len(det):
            clear = np.linalg.norm(pts[:, None] - det.px[None], axis=2).min(1) >= 1.6 * r
            pts, r = pts[clear], r[clear]
        ok = self.can_hold(self.cal.ball_to_table(pts)) if len(pts) else np.zeros(0, bool)
        pts, r = pts[ok], r[ok]
        if not len(pts):
            return det
        p9 = self.classifier.classify(frame, pts, r)
        p9 = np.where((p9[:, -1] < self.classifier.max_none)[:, None], p9, 0.0)
        found, cls = [], []
        for c in classes:
            i = int(np.argmax(p9[:, c]))
            if p9[i, c] >= MISSING_MIN_PROB and all(
                    np.linalg.norm(pts[i] - q) >= 1.6 * r[i] for q in found):
                found.append(pts[i])
                cls.append(c)
        if not found:
            return det
        px = self._refine(frame, np.array(found, float))
        p9 = self.classifier.classify(frame, px, self.radius_at(px))
        probs = p9[:, :-1] / np.maximum(p9[:, :-1].sum(1, keepdims=True), 1e-6)
        cls = np.array(cls)
        return self._merge(det, self._detections(px, cls, probs[np.arange(len(px)), cls], probs,
                                                  self._colour_features(frame, px)))

    @staticmethod
    def _merge(det: BallDetections, extra: BallDetections) -> BallDetections:
        """``det`` with the detections ``extra`` added (``det``'s occupancy kept)."""
        merged = BallDetections(*(np.concatenate([getattr(det, f), getattr(extra, f)])
                                  for f in ("px", "mm", "radius_px", "cls", "conf", "probs",
                                            "mm_per_px", "feats")))
        merged.occupancy = det.occupancy
        return merged


#: How many balls of each class a frame of snooker can hold.
CAPACITY = {"white": 1, "red": 15, "yellow": 1, "green": 1, "brown": 1, "blue": 1, "pink": 1,
            "black": 1}


def constrained_classes(cost: np.ndarray, reject_cost: float = 0.25,
                        unique_bonus: float = 0.1, white_bonus: float | None = None) -> np.ndarray:
    """Colour classes under the game's constraint: at most :data:`CAPACITY` balls of each class,
    by a minimum-cost assignment of detections to class slots.

    Args:
        cost: (N, 8) squared feature distances to the class prototypes.
        reject_cost: cost of leaving a detection unlabelled (not a ball of any free class).
        unique_bonus: cost taken off for filling the white's or a colour's one place: the ball
            most like the brown is the brown even when it is nearer the reds' prototype, while
            a red far from the brown stays a red when the brown is off the table.
        white_bonus: the white's own bonus, when it differs (a frame of play has the cue ball
            in it: a cream-lit white is still the white when no yellow is on the table).

    Returns:
        (N,) class index per detection, -1 where it is left unlabelled.
    """
    from scipy.optimize import linear_sum_assignment

    n = len(cost)
    cols = [k for k, name in enumerate(CLASSES) for _ in range(CAPACITY[name])]
    bonus = np.array([unique_bonus if CAPACITY[CLASSES[k]] == 1 else 0.0 for k in cols])
    if white_bonus is not None:
        bonus[[i for i, k in enumerate(cols) if CLASSES[k] == "white"]] = white_bonus
    big = np.concatenate([cost[:, cols] - bonus, np.full((n, n), reject_cost)], axis=1)
    rows, picked = linear_sum_assignment(big)
    out = np.full(n, -1, int)
    for r, c in zip(rows, picked, strict=True):
        if c < len(cols):
            out[r] = cols[c]
    return out


def _one_per_colour_nearby(px: np.ndarray, probs: np.ndarray, radii: np.ndarray,
                           within: float = UNIQUE_TWIN_RADII) -> np.ndarray:
    """Mask (N,) dropping the less sure of two detections within ``within`` local radii on
    screen that both read as the same colour of which the game has one ball: one ball and
    its own shadowed underside (a real TV ball's shadow under it reads as a second ball of
    its colour). Reds, of which there are many, touch."""
    keep = np.ones(len(px), bool)
    cls = probs.argmax(1)
    order = np.argsort(-probs.max(1))
    for a_i, a in enumerate(order):
        if not keep[a] or CAPACITY[CLASSES[cls[a]]] != 1:
            continue
        for b in order[a_i + 1:]:
            if (keep[b] and cls[b] == cls[a]
                    and np.linalg.norm(px[a] - px[b]) < within * max(radii[a], radii[b])):
                keep[b] = False
    return keep


def _held_colours_removed(probs: np.ndarray, hold: float = UNIQUE_HOLD_PROB) -> np.ndarray:
    """Class probabilities (N, 8) under the game's constraint: a colour of which the game has
    one ball, held by a detection at least ``hold`` sure of it, is not the colour of any other
    detection of the frame; their probabilities are renormalised over the rest (a real cue ball
    lit cream, as likely the yellow as the white to the network, is the white when the yellow
    stands elsewhere)."""
    out = probs.astype(np.float64).copy()
    for k, name in enumerate(CLASSES):
        if CAPACITY[name] != 1 or not len(out):
            continue
        i = int(np.argmax(probs[:, k]))
        if probs[i, k] >= hold:
            others = np.arange(len(out)) != i
            out[others, k] = 0.0
    out /= np.maximum(out.sum(1, keepdims=True), 1e-9)
    return out.astype(probs.dtype)


def _vertex(three: np.ndarray) -> float:
    """Offset (px, within half a pixel) of the top of the parabola through three values
    a pixel apart, from the middle one; 0 where they are not three finite values with the
    middle one highest."""
    if len(three) != 3 or not np.isfinite(three).all():
        return 0.0
    a, b, c = (float(v) for v in three)
    den = a - 2 * b + c
    if den >= 0 or b < a or b < c:
        return 0.0
    return float(np.clip(0.5 * (a - c) / den, -0.5, 0.5))


def _peaks(dist: np.ndarray, min_value: float, min_sep: float) -> list[np.ndarray]:
    """Local maxima of a distance transform, greedily separated by ``min_sep`` px."""
    k = max(3, int(min_sep) | 1)
    dil = cv2.dilate(dist, np.ones((k, k), np.uint8))
    ys, xs = np.nonzero((dist >= dil - 1e-6) & (dist >= min_value))
    order = np.argsort(-dist[ys, xs])
    chosen: list[np.ndarray] = []
    for i in order:
        p = np.array([xs[i], ys[i]], float)
        if all(np.linalg.norm(p - q) >= min_sep for q in chosen):
            chosen.append(p)
    return chosen


def _faint_clearance(r: float) -> int:
    """Side (odd, px) of the disc that keeps the faint-ball search clear of the bed's edges,
    the fixtures and big blobs, for a ball of ``r`` working-scale px: about 4 radii."""
    return max(3, int(4 * r) | 1)


def _pocket_parts(holes: np.ndarray, bed: np.ndarray, fg: np.ndarray,
                  radius: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The parts (uint8 0/1, same shape) of the dark pocket-zone mask ``holes`` (bool or 0/1,
    working scale) that are the pocket's, not a ball's part: those that open off the bed
    (``bed``, 0/1: a pocket's hole and the shadow in its jaws lie beyond the bed's edge and
    reach into it only from there), and the slivers wholly on the bed: no disc of
    :data:`HOLE_MIN_BALL_CORE_RADII` ball radii fits in them and either they keep within
    :data:`HOLE_EDGE_REACH_RADII` of the bed's edge or less than :data:`HOLE_BALL_RIM_SHARE`
    of their outline borders other non-cloth (``fg``, 0/1, less ``holes``). A dark patch
    wholly on the bed that holds a ball's core is a ball (the black beside a corner pocket).
    Left unmasked, a sliver joins a ball rolling into the pocket, or an arm reaching in over
    it, into one blob, split into balls. ``radius``: the local ball radius (N,) working-scale
    px at points (N, 2) working-scale px."""
    holes = np.asarray(holes, np.uint8)
    if not holes.any():
        return holes
    n, lab, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    inside = holes.astype(bool)
    on_bed = np.asarray(bed, np.uint8)
    opens = np.zeros(n, bool)
    opens[np.unique(lab[(on_bed == 0) & inside])] = True
    # the widest disc inside each part: its radius is the part's deepest pixel's distance to
    # the nearest pixel outside it, less half a pixel (to that pixel's edge, not its centre)
    depth = cv2.distanceTransform(holes, cv2.DIST_L2, 5)
    core = np.zeros(n)
    np.maximum.at(core, lab[inside], depth[inside])
    core -= 0.5
    # how far in from the bed's edge each part reaches (px)
    from_edge = cv2.distanceTransform(on_bed, cv2.DIST_L2, 5)
    reach = np.zeros(n)
    np.maximum.at(reach, lab[inside], from_edge[inside])
    r = radius(cents)
    thin = (core < HOLE_MIN_BALL_CORE_RADII * r) & ~opens
    thin[0] = False
    other = np.asarray(fg, bool) & ~inside
    h, w = holes.shape
    for k in np.nonzero(thin & (reach > HOLE_EDGE_REACH_RADII * r))[0]:
        x, y, ww, hh = stats[k, :4]
        x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(w, x + ww + 1), min(h, y + hh + 1)
        part = (lab[y0:y1, x0:x1] == k).astype(np.uint8)
        rim = cv2.dilate(part, np.ones((3, 3), np.uint8)).astype(bool) & ~part.astype(bool)
        if rim.any() and other[y0:y1, x0:x1][rim].mean() >= HOLE_BALL_RIM_SHARE:
            thin[k] = False  # against a ball: that ball's shaded side or a contact shadow
    return (opens | thin)[lab].astype(np.uint8)


#: A part of a blob of touching balls that the found circles (discs of a radius) leave
#: uncovered is one more ball when a disc of this many radii fits in it (a ball with a bite
#: taken out where it touches another holds about 0.8 radii; a shadow's crescent or a
#: sliver between circles much less).
UNCOVERED_MIN_RADII = 0.7


def _uncovered_balls(sub: np.ndarray, found: list[np.ndarray], r: float) -> list[np.ndarray]:
    """Centres (x, y) px in ``sub``'s frame of balls of radius ``r`` px inside the blob mask
    ``sub`` (bool (h, w)) left uncovered by the discs of radius ``r`` around the ``found``
    centres (each (2,) px, same frame): peaks of the uncovered part's distance to its edge of
    at least :data:`UNCOVERED_MIN_RADII` radii, a diameter apart."""
    left = sub.astype(np.uint8).copy()
    for cx, cy in found:
        cv2.circle(left, (int(round(cx)), int(round(cy))), int(round(r)), 0, -1)
    if not left.any():
        return []
    dist = cv2.distanceTransform(np.pad(left, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    return _peaks(dist, UNCOVERED_MIN_RADII * r, 2.0 * r)
