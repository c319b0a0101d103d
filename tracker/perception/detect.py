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

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.profile import Calibration

CLASSES = ("white", "red", "yellow", "green", "brown", "blue", "pink", "black")
#: A pixel whose chroma (|a - a_cloth| + |b - b_cloth| in 8-bit Lab) exceeds this is not cloth.
FG_CHROMA = 22
#: A pixel darker than this fraction of the cloth's lightness is not cloth (the black ball).
FG_DARK = 0.45


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
        mm_per_px: (N,) table millimetres per image pixel at each ball (far balls in an oblique
            view are coarser).
    """

    px: np.ndarray
    mm: np.ndarray
    radius_px: np.ndarray
    cls: np.ndarray
    conf: np.ndarray
    probs: np.ndarray = field(default_factory=lambda: np.zeros((0, 8)))
    mm_per_px: np.ndarray = field(default_factory=lambda: np.zeros((0,)))

    def __len__(self) -> int:
        return len(self.px)

    def __getitem__(self, mask: np.ndarray) -> BallDetections:
        return BallDetections(self.px[mask], self.mm[mask], self.radius_px[mask], self.cls[mask],
                              self.conf[mask], self.probs[mask], self.mm_per_px[mask])

    @staticmethod
    def empty() -> BallDetections:
        """No detections."""
        z = np.zeros((0,))
        return BallDetections(np.zeros((0, 2)), np.zeros((0, 2)), z, z.astype(int), z,
                              np.zeros((0, 8)), z)


# Class prototypes in a "normalised colour" space: (hue cos, hue sin scaled by saturation,
# saturation, value), from the renderer and broadcast stills. Learned per video by
# :meth:`BallDetector.learn_colours` when the opening rack is seen.
_PROTO_HSV = {  # OpenCV HSV: H 0..180, S and V 0..255
    "white": (30, 20, 235),
    "red": (178, 220, 150),
    "yellow": (26, 210, 225),
    "green": (70, 200, 110),
    "brown": (12, 190, 100),
    "blue": (108, 220, 160),
    "pink": (172, 120, 230),
    "black": (100, 40, 25),
}


def _feature(hsv: np.ndarray) -> np.ndarray:
    """Colour features (N, 4) from HSV (N, 3)."""
    h = hsv[:, 0].astype(np.float32) * (2 * np.pi / 180.0)
    s = hsv[:, 1].astype(np.float32) / 255.0
    v = hsv[:, 2].astype(np.float32) / 255.0
    return np.stack([np.cos(h) * s, np.sin(h) * s, s * 0.5, v * 1.2], axis=1)


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
        # table region: the bed at ball height, grown by a ball radius (balls in the jaws)
        poly_mm = np.array([[-t.ball_radius, -t.ball_radius], [t.width + t.ball_radius, -t.ball_radius],
                            [t.width + t.ball_radius, t.length + t.ball_radius],
                            [-t.ball_radius, t.length + t.ball_radius]])
        dense = np.concatenate([np.linspace(poly_mm[i], poly_mm[(i + 1) % 4], 40) for i in range(4)])
        poly = cal.to_image(dense, t.ball_radius) * scale
        self.region = np.zeros((self.small[1], self.small[0]), np.uint8)
        cv2.fillPoly(self.region, [np.round(poly).astype(np.int32)], 1)
        bed = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
        dense = np.concatenate([np.linspace(bed[i], bed[(i + 1) % 4], 40) for i in range(4)])
        self.bed = np.zeros_like(self.region)
        cv2.fillPoly(self.bed, [np.round(cal.to_image(dense, t.ball_radius) * scale).astype(np.int32)], 1)
        self.static = np.zeros_like(self.region)
        self.pocket_zone = np.zeros_like(self.region)
        for pk in t.pockets.values():
            c_px = cal.to_image(np.array([pk.mouth_centre]), t.ball_radius)[0] * scale
            rad = np.linalg.norm(cal.to_image(np.array([pk.mouth_centre]) + [[pk.mouth_width, 0]],
                                              t.ball_radius)[0] * scale - c_px)
            cv2.circle(self.pocket_zone, (int(c_px[0]), int(c_px[1])), int(rad * 1.3), 1, -1)
        self.cloth_lab: np.ndarray | None = None
        self.protos = _feature(np.array(list(_PROTO_HSV.values()), np.float32))

    # ------------------------------------------------------------------ set-up
    def learn_cloth(self, frame: np.ndarray) -> None:
        """Learn the cloth colour (median Lab inside the table region)."""
        small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).reshape(-1, 3)
        inside = self.bed.ravel().astype(bool)
        self.cloth_lab = np.median(lab[inside], axis=0).astype(np.float32)
        # fixtures beside the bed (pocket fittings, jaws) are not balls: mask them out
        fg = self.foreground(small)
        k = max(3, int(0.5 * self.r_px * self.scale) * 2 + 1)
        inner = cv2.erode(self.bed, np.ones((k, k), np.uint8))
        self.static = cv2.dilate(fg & ((1 - inner) | self.pocket_zone), np.ones((3, 3), np.uint8))

    # ------------------------------------------------------------------ per frame
    def foreground(self, small: np.ndarray) -> np.ndarray:
        """Non-cloth mask (uint8 0/1) of a downscaled frame."""
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.int16)
        c = self.cloth_lab
        chroma = np.abs(lab[..., 1] - int(c[1])) + np.abs(lab[..., 2] - int(c[2]))
        dark = lab[..., 0] < FG_DARK * c[0]
        bright = lab[..., 0] > c[0] + 60
        self._dark = dark & (chroma <= FG_CHROMA)
        fg = ((chroma > FG_CHROMA) | dark | bright).astype(np.uint8) & self.region & (1 - self.static)
        return cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))

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
                 sub: np.ndarray) -> list[np.ndarray]:
        """Ball centres (downscaled px) in a blob of touching balls: circles found by the
        gradient Hough transform on the full-resolution grey image, kept when their disc is
        mostly foreground."""
        s = self.scale
        r = self.r_px
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

    def detect(self, frame: np.ndarray) -> BallDetections:
        """Balls in one BGR frame (full resolution)."""
        if self.cloth_lab is None:
            self.learn_cloth(frame)
        small = cv2.resize(frame, self.small, interpolation=cv2.INTER_AREA)
        fg = self.foreground(small)
        r = self.r_px * self.scale
        area1 = np.pi * r * r
        n, lab, stats, cents = cv2.connectedComponentsWithStats(fg, 8)
        centres: list[np.ndarray] = []
        for k in range(1, n):
            area = stats[k, cv2.CC_STAT_AREA]
            if area < 0.3 * area1 or min(stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]) < 0.9 * r:
                continue  # too small, or a thin line (cushion shadow, cue, chalk streak)
            if area <= 1.5 * area1:
                w_, h_ = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
                if max(w_, h_) <= 2.6 * r:
                    centres.append(cents[k])
                    continue
            x, y, w_, h_ = stats[k, :4]
            sub = (lab[y:y + h_, x:x + w_] == k)
            blur = self._blurred_ball(sub, r, area1)
            if blur is not None:
                centres.append(blur + np.array([x, y], float))
                continue
            if self._dark[y:y + h_, x:x + w_][sub].mean() > 0.5 and area > 4 * area1:
                continue  # a player's body or arm (dark, wide): an occluder, not balls
            centres.extend(self._cluster(frame, x, y, w_, h_, sub))
        if not centres:
            return BallDetections.empty()
        px = self._refine(frame, np.array(centres) / self.scale)
        feats = self._colour_features(frame, px)
        probs = self._probs(feats)
        cls = probs.argmax(1)
        conf = probs.max(1)
        mm = self.cal.ball_to_table(px)
        rad = np.full(len(px), self.r_px)
        # local scale: millimetres on the table per image pixel at each ball
        mm_per_px = np.linalg.norm(self.cal.ball_to_table(px + [1.0, 0.0]) - mm, axis=1)
        return BallDetections(px, mm, rad, cls, conf, probs, mm_per_px)

    def _refine(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        """Sub-pixel centres: the centroid of the non-cloth pixels within 1.15 radii, at full
        resolution, weighted by how far from the cloth colour they are."""
        r = self.r_px
        h, w = frame.shape[:2]
        out = px.copy()
        c = self.cloth_lab
        R = int(np.ceil(1.3 * r))
        for i, (x, y) in enumerate(px):
            for _ in range(2):
                x0, y0 = int(round(x)) - R, int(round(y)) - R
                x1, y1 = x0 + 2 * R + 1, y0 + 2 * R + 1
                if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                    break
                lab = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
                d = (np.abs(lab[..., 1] - c[1]) + np.abs(lab[..., 2] - c[2])
                     + np.maximum(0, c[0] * 0.6 - lab[..., 0]) + np.maximum(0, lab[..., 0] - c[0] - 40))
                wgt = np.clip((d - 12.0) / 20.0, 0, 1)
                yy, xx = np.mgrid[y0:y1, x0:x1]
                d_own = (xx - x) ** 2 + (yy - y) ** 2
                wgt *= d_own <= (1.15 * r) ** 2
                # in a cluster, a pixel nearer another ball's centre belongs to that ball
                for j in np.nonzero(np.abs(out[:, 0] - x) + np.abs(out[:, 1] - y) < 3 * r)[0]:
                    if j != i:
                        wgt *= d_own <= (xx - out[j, 0]) ** 2 + (yy - out[j, 1]) ** 2
                s = wgt.sum()
                if s < 1:
                    break
                x, y = (wgt * xx).sum() / s, (wgt * yy).sum() / s
            out[i] = (x, y)
        return out

    def _colour_features(self, frame: np.ndarray, px: np.ndarray) -> np.ndarray:
        r = max(2, int(0.55 * self.r_px))
        h, w = frame.shape[:2]
        feats = []
        for x, y in px:
            xi, yi = int(round(x)), int(round(y))
            patch = frame[max(0, yi - r):min(h, yi + r + 1), max(0, xi - r):min(w, xi + r + 1)]
            if patch.size == 0:
                feats.append(np.zeros(4, np.float32))
                continue
            hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).reshape(-1, 3)
            f = _feature(hsv)
            feats.append(np.median(f, axis=0))
        return np.array(feats, np.float32)

    def _probs(self, feats: np.ndarray) -> np.ndarray:
        d2 = ((feats[:, None, :] - self.protos[None, :, :]) ** 2).sum(-1)
        logits = -d2 / 0.01
        logits -= logits.max(1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(1, keepdims=True)


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
