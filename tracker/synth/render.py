"""Render the table as a camera sees it (numpy + OpenCV).

The static part (cloth with texture and markings, cushions, rails, pockets, uneven light,
vignetting) is ray-cast once per camera: every pixel's ray is cut with the cloth plane
(z = 0) and with the cushion-nose plane (z = 33.3 mm), and a top-down texture is sampled with
``cv2.remap``. Per frame only the balls are ray-traced, each in its own small image box:
lit spheres (two lamps, diffuse + specular highlight) whose centres sit at z = R, with contact
shadows on the cloth (and, when the style asks, the shadows each lamp casts beside the ball:
:mod:`tracker.synth.shadows`), motion blur for moving balls, occluders (player, arm, cue, hands),
sensor noise. Video compression happens in the writer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableGeometry
from tracker.synth.shadows import darkening, shadow_extent

#: Ball colours, linear-ish RGB 0..1 (chosen against broadcast stills).
BALL_RGB: dict[str, tuple[float, float, float]] = {
    "white": (0.93, 0.92, 0.86), "red": (0.72, 0.05, 0.05), "yellow": (0.95, 0.80, 0.10),
    "green": (0.05, 0.45, 0.20), "brown": (0.42, 0.22, 0.10), "blue": (0.05, 0.22, 0.70),
    "pink": (0.95, 0.48, 0.58), "black": (0.04, 0.04, 0.05),
}
CLOTH_RGB = (0.10, 0.58, 0.10)
RAIL_RGB = (0.09, 0.07, 0.08)
FITTING_RGB = (0.85, 0.78, 0.62)
TEXTURE_MM_PER_PX = 2.0
RAIL_WIDTH_MM = 180.0


def ball_colour(ball: str) -> tuple[float, float, float]:
    """RGB of a ball id (``red_07`` -> red)."""
    return BALL_RGB["red" if ball.startswith("red") else ball]


@dataclass
class RenderStyle:
    """Appearance knobs.

    Attributes:
        noise_sigma: sensor noise, 8-bit levels.
        light_unevenness: 0..1, how much darker the cloth is away from the lamps.
        vignetting: 0..1 darkening at the image corners.
        exposure_s: shutter time for motion blur, s.
        seed: random seed of the texture and noise.
        chalk_marks: number of blue chalk smudges on the cloth (distractors).
        projected_rings: number of bright projected rings on the cloth, as in the lab footage.

    Appearance randomisation (for the learned detector's training data; the defaults leave
    every render as it was):

    Attributes:
        lamps: lamp positions ``(x, y, z)``, x and y as fractions of the table's width and
            length, z in mm above the cloth; empty: the two stock lamps (0.5, 0.3 / 0.7, 1100).
        ambient: light a ball receives from everywhere (0..1 of its colour).
        lamp_strength: diffuse light per lamp (0..1 of the ball's colour).
        lamp_spread_mm: how far the lamps' light reaches on the cloth (Gaussian sigma, mm).
        cloth_rgb: the cloth's colour, RGB 0..1 (None: the stock green).
        colour_temperature_k: the scene light's colour temperature against a camera balanced
            for 6500 K (3000: warm, orange; 9000: cold, blue; 0: neutral).
        exposure: overall gain of the picture (1: as rendered).
        blur_sigma: Gaussian blur of the whole picture, px (defocus, a soft lens).
        jpeg_quality: JPEG compression of each frame (1..100; 0: none).
        score_bar: draw a broadcast score bar over the bottom of the picture.
        logo: draw a channel logo (a half-transparent badge with letters) in a top corner.

    Real faults turned into properties (docs/SYNTHETIC.md, "The harder world"; the defaults
    leave every render as it was):

    Attributes:
        cast_shadow: share (0..1) of the cloth's light that comes straight from the lamps, so
            the darkness of the shadow each lamp casts beside a ball where that lamp gives
            all the light (0: contact shadows only, as before).
        lamp_size_mm: each lamp's glowing width, mm: how soft the cast shadows' edges are.
        shadow_grey: 0..1, how much of the cloth's colour a cast shadow loses (the lamps'
            light is what shows the cloth's colour: a projector over the lab's teal cloth).
        ball_rgb: ball colours replacing the stock ones, ``(name, (r, g, b))`` pairs, RGB
            0..1 (``red`` for every red): a green nearly the cloth's colour, a navy blue.
        fitting_rgb: the pocket fittings' colour, RGB 0..1 (None: the stock leather).
        specular: brightness of the balls' lamp highlights (0.9: stock; more blows them out).
    """

    noise_sigma: float = 2.5
    light_unevenness: float = 0.25
    vignetting: float = 0.25
    exposure_s: float = 0.012
    seed: int = 0
    chalk_marks: int = 0
    projected_rings: int = 0
    lamps: tuple[tuple[float, float, float], ...] = ()
    ambient: float = 0.28
    lamp_strength: float = 0.55
    lamp_spread_mm: float = 1400.0
    cloth_rgb: tuple[float, float, float] | None = None
    colour_temperature_k: float = 0.0
    exposure: float = 1.0
    blur_sigma: float = 0.0
    jpeg_quality: int = 0
    score_bar: bool = False
    logo: bool = False
    cast_shadow: float = 0.0
    lamp_size_mm: float = 200.0
    shadow_grey: float = 0.0
    ball_rgb: tuple[tuple[str, tuple[float, float, float]], ...] = ()
    fitting_rgb: tuple[float, float, float] | None = None
    specular: float = 0.9


@dataclass
class Occluder:
    """A polygon in world mm (N, 3) filled with a colour (BGR 0..255), drawn over the table."""

    points: np.ndarray
    bgr: tuple[int, int, int]


class Renderer:
    """Renders frames of one camera over one table."""

    def __init__(self, camera: CameraModel, table: TableGeometry, style: RenderStyle | None = None):
        self.camera = camera
        self.table = table
        self.style = style or RenderStyle()
        self.rng = np.random.default_rng(self.style.seed)
        w, h = camera.image_size
        self.size = (w, h)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        px = np.stack([xs.ravel() + 0.5, ys.ravel() + 0.5], axis=1) - 0.5
        rays = camera.pixel_rays(px).astype(np.float32)
        self.rays = rays.reshape(h, w, 3)
        c = camera.centre
        self.cam_centre = c.astype(np.float32)
        s0 = (0.0 - c[2]) / rays[:, 2]
        self.plane_xy = (c[:2] + rays[:, :2] * s0[:, None]).reshape(h, w, 2).astype(np.float32)
        lamps = self.style.lamps or ((0.5, 0.3, 1100.0), (0.5, 0.7, 1100.0))
        self.lamps = np.array([[table.width * fx, table.length * fy, z] for fx, fy, z in lamps],
                              np.float32)
        self.cloth_rgb = self.style.cloth_rgb or CLOTH_RGB
        self.ball_rgb = {**BALL_RGB, **dict(self.style.ball_rgb)}
        #: pixels where the camera sees the bed's cloth (the cast shadows fall there only)
        self.cloth_px = np.zeros((h, w), bool)
        # the picture's colour gains (BGR): light colour and exposure; None when neutral, so
        # the stock renders stay byte for byte what they were
        gains = np.array(kelvin_gains(self.style.colour_temperature_k)[::-1]) * self.style.exposure
        self._gains = None if np.allclose(gains, 1.0) else gains.astype(np.float32)
        self._bar = score_bar(self.size, self.style.seed) if self.style.score_bar else None
        self._logo = channel_logo(self.size, self.style.seed) if self.style.logo else None
        self.gain = self._gain_map()
        self.background = self._background()
        self._noise = [self.rng.normal(0, self.style.noise_sigma, (h, w, 3)).astype(np.int16)
                       for _ in range(4)]

    # ------------------------------------------------------------------ static part
    def _gain_map(self) -> np.ndarray:
        """Per-pixel light gain: lamp fall-off on the table times lens vignetting (h, w)."""
        w, h = self.size
        xy = self.plane_xy
        g = np.zeros((h, w), np.float32)
        for lamp in self.lamps:
            d2 = (xy[..., 0] - lamp[0]) ** 2 + (xy[..., 1] - lamp[1]) ** 2
            g += np.exp(-d2 / (2 * self.style.lamp_spread_mm ** 2))
        g = g / g.max()
        g = 1.0 - self.style.light_unevenness * (1.0 - g)
        yy, xx = np.mgrid[0:h, 0:w]
        r = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)) / math.sqrt(2)
        vig = 1.0 - self.style.vignetting * r ** 2
        return (g * vig).astype(np.float32)

    def _texture(self) -> tuple[np.ndarray, float, float]:
        """Top-down texture of the table (BGR float), its origin in mm (x0, y0)."""
        t = self.table
        k = TEXTURE_MM_PER_PX
        x0, y0 = -RAIL_WIDTH_MM, -RAIL_WIDTH_MM
        W = int((t.width + 2 * RAIL_WIDTH_MM) / k)
        H = int((t.length + 2 * RAIL_WIDTH_MM) / k)
        tex = np.empty((H, W, 3), np.float32)
        tex[:] = RAIL_RGB[::-1]
        # wood grain
        grain = cv2.GaussianBlur(self.rng.normal(0, 0.03, (H, 1)).astype(np.float32), (1, 9), 0)
        tex *= 1.0 + grain.reshape(H, 1, 1)

        def to_px(x: float, y: float) -> tuple[int, int]:
            return int(round((x - x0) / k)), int(round((y - y0) / k))

        # the cushion rubber (slightly darker cloth), the pocket fittings (leather / brass) over
        # the rail and the cushion ends at the jaws, then the bed, which they never cover
        cush = np.array(self.cloth_rgb[::-1]) * 0.8
        d = t.cushion_depth
        cv2.rectangle(tex, to_px(-d, -d), to_px(t.width + d, t.length + d), cush.tolist(), -1)
        for p in t.pockets.values():
            fx, fy = p.fall
            cv2.circle(tex, to_px(fx, fy), int(round(115 / k)),
                       (self.style.fitting_rgb or FITTING_RGB)[::-1], -1, cv2.LINE_AA)
        cv2.rectangle(tex, to_px(0, 0), to_px(t.width, t.length), self.cloth_rgb[::-1], -1)
        # cloth nap texture
        noise = self.rng.normal(0, 1, (H // 2, W // 2)).astype(np.float32)
        noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 1.5), (W, H))
        tex *= (1.0 + 0.035 * noise)[..., None]
        # distractors: chalk smudges and projected rings
        for _ in range(self.style.chalk_marks):
            cx_, cy_ = self.rng.uniform(50, t.width - 50), self.rng.uniform(50, t.length - 50)
            ax = int(self.rng.uniform(6, 14) / k)
            cv2.ellipse(tex, to_px(cx_, cy_), (ax, max(1, ax // 2)), float(self.rng.uniform(0, 180)),
                        0, 360, (0.55, 0.45, 0.25), -1, cv2.LINE_AA)
        for _ in range(self.style.projected_rings):
            cx_, cy_ = self.rng.uniform(150, t.width - 150), self.rng.uniform(150, t.length - 150)
            cv2.circle(tex, to_px(cx_, cy_), int(self.rng.uniform(40, 120) / k), (0.9, 0.9, 0.9), 2,
                       cv2.LINE_AA)
        # markings: baulk line and D (thin, lighter)
        line = (np.array(self.cloth_rgb[::-1]) * 1.9).tolist()
        cv2.line(tex, to_px(0, t.baulk_line), to_px(t.width, t.baulk_line), line, 1, cv2.LINE_AA)
        cx, cy = to_px(t.centre_x, t.baulk_line)
        r = int(round(t.d_radius / k))
        cv2.ellipse(tex, (cx, cy), (r, r), 0, 180, 360, line, 1, cv2.LINE_AA)
        for sx, sy in t.spots.values():
            cv2.circle(tex, to_px(sx, sy), 2, line, -1, cv2.LINE_AA)
        # the holes behind the mouths
        for p in t.pockets.values():
            fx, fy = p.fall
            rr = int(round(p.mouth_width * 0.62 / k))
            cv2.circle(tex, to_px(fx, fy), rr, (0.02, 0.02, 0.02), -1, cv2.LINE_AA)
        # diamonds on the rails
        for i in range(1, 8):
            yy = t.length * i / 8
            for xx in (-RAIL_WIDTH_MM * 0.55, t.width + RAIL_WIDTH_MM * 0.55):
                cv2.circle(tex, to_px(xx, yy), 5, (0.75, 0.85, 0.9), -1, cv2.LINE_AA)
        return tex, x0, y0

    def _background(self) -> np.ndarray:
        """The empty table as this camera sees it, BGR uint8 (h, w, 3)."""
        tex, x0, y0 = self._texture()
        k = TEXTURE_MM_PER_PX
        c = self.camera.centre
        rays = self.rays
        s_top = (self.table.cushion_height - c[2]) / rays[..., 2]
        top_xy = c[:2] + rays[..., :2] * s_top[..., None]
        t = self.table

        def outside(p: np.ndarray) -> np.ndarray:
            return (p[..., 0] < 0) | (p[..., 0] > t.width) | (p[..., 1] < 0) | (p[..., 1] > t.length)

        # the ray meets the cushion top (nose plane) outside the bed: rail or cushion top;
        # it passes the nose inside the bed but would reach the cloth under the cushion: it
        # sees the cushion's face, in shadow below the nose.
        on_rail_top = outside(top_xy)
        under_nose = ~on_rail_top & outside(self.plane_xy)
        in_pocket = np.zeros_like(under_nose)
        for p in t.pockets.values():
            in_pocket |= np.hypot(top_xy[..., 0] - p.fall[0], top_xy[..., 1] - p.fall[1]) < p.mouth_width
        under_nose &= ~in_pocket
        self.cloth_px = ~on_rail_top & ~outside(self.plane_xy)
        xy = np.where(on_rail_top[..., None], top_xy, self.plane_xy)
        # pockets are holes: look through them to the cloth-level texture
        map_x = ((xy[..., 0] - x0) / k).astype(np.float32)
        map_y = ((xy[..., 1] - y0) / k).astype(np.float32)
        img = cv2.remap(tex, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=(0.08, 0.08, 0.09))
        img[under_nose] = np.array(self.cloth_rgb[::-1], np.float32) * 0.3
        img *= self.gain[..., None]
        return np.clip(img * 255.0, 0, 255).astype(np.uint8)

    # ------------------------------------------------------------------ balls
    def ball_box(self, centre: np.ndarray) -> tuple[int, int, int, int] | None:
        """Pixel box (x0, y0, x1, y1) containing the image of a ball centred at ``centre``."""
        r = self.table.ball_radius
        off = np.array([[dx, dy, dz] for dx in (-r, r) for dy in (-r, r) for dz in (-r, r)])
        pts = self.camera.project(centre[None, :] + off)
        x0, y0 = np.floor(pts.min(0)).astype(int) - 2
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 3
        w, h = self.size
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _shade(self, ball: str, centre: np.ndarray, box: tuple[int, int, int, int]
               ) -> tuple[np.ndarray, np.ndarray]:
        """Colour (BGR 0..1) and coverage alpha of one sphere in its box."""
        x0, y0, x1, y1 = box
        d = self.rays[y0:y1, x0:x1]
        oc = self.cam_centre - centre.astype(np.float32)
        r = self.table.ball_radius
        b = (d * oc).sum(-1)
        cc = (oc * oc).sum() - r * r
        disc = b * b - cc
        # distance of the ray from the centre, for an anti-aliased edge
        perp = np.sqrt(np.maximum((oc * oc).sum() - b * b, 0))
        px_mm = np.linalg.norm(oc) / self.camera.K[0, 0]
        alpha = np.clip((r - perp) / px_mm + 0.5, 0, 1).astype(np.float32)
        tt = -b - np.sqrt(np.maximum(disc, 0))
        p = self.cam_centre + d * tt[..., None]
        n = (p - centre) / r
        base = self._surface_colour(ball, n)
        lit = np.full(n.shape[:2], self.style.ambient, np.float32)
        spec = np.zeros(n.shape[:2], np.float32)
        view = -d
        for lamp in self.lamps:
            ldir = lamp - p
            ldir /= np.linalg.norm(ldir, axis=-1, keepdims=True)
            lit += self.style.lamp_strength * np.clip((n * ldir).sum(-1), 0, 1)
            hv = ldir + view
            hv /= np.linalg.norm(hv, axis=-1, keepdims=True)
            spec += np.clip((n * hv).sum(-1), 0, 1) ** 60
        col = base * lit[..., None] + self.style.specular * spec[..., None]
        return col, alpha

    def _surface_colour(self, ball: str, normals: np.ndarray) -> np.ndarray:
        """The ball's own colour, BGR 0..1, where its surface has the outward ``normals``
        (h, w, 3): one colour (3,) for a snooker ball; a subclass may paint the surface
        (h, w, 3), as the pool balls' stripes and numbers (:mod:`tracker.synth.pool_render`)."""
        return np.array(self.ball_rgb["red" if ball.startswith("red") else ball][::-1], np.float32)

    def _shadow(self, img: np.ndarray, centre: np.ndarray) -> None:
        """Darken the cloth under and around a ball (contact shadow)."""
        r = self.table.ball_radius
        pts = self.camera.project(np.array([[centre[0] + dx, centre[1] + dy, 0.0]
                                            for dx in (-2.2 * r, 2.2 * r) for dy in (-2.2 * r, 2.2 * r)]))
        w, h = self.size
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 1, (w, h))
        if x1 <= x0 or y1 <= y0:
            return
        xy = self.plane_xy[y0:y1, x0:x1]
        d2 = ((xy[..., 0] - centre[0]) ** 2 + (xy[..., 1] - centre[1]) ** 2) / (r * r)
        f = 1.0 - 0.55 * np.exp(-d2 * 1.3)
        img[y0:y1, x0:x1] = (img[y0:y1, x0:x1] * f[..., None]).astype(np.uint8)

    def _cast_shadow(self, img: np.ndarray, centre: np.ndarray) -> None:
        """Darken (and grey) the cloth where the ball at ``centre`` (3,) mm hides the lamps
        (:func:`tracker.synth.shadows.darkening`), by ``style.cast_shadow`` where it hides
        all the light; in place on ``img`` (BGR uint8)."""
        st = self.style
        ext = shadow_extent(centre, self.lamps.astype(np.float64), self.table.ball_radius,
                            st.lamp_size_mm)
        if ext is None:
            return
        xa, ya, xb, yb = ext
        pts = self.camera.project(np.array([[xa, ya, 0.0], [xa, yb, 0.0], [xb, ya, 0.0], [xb, yb, 0.0]]))
        w, h = self.size
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - 2, 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + 3, (w, h))
        if x1 <= x0 or y1 <= y0:
            return
        on = self.cloth_px[y0:y1, x0:x1]
        if not on.any():
            return
        xy = self.plane_xy[y0:y1, x0:x1][on].astype(np.float64)
        dark = darkening(xy, centre, self.lamps.astype(np.float64), self.table.ball_radius,
                         st.lamp_size_mm, st.lamp_spread_mm)
        if not (dark > 1e-3).any():
            return
        region = img[y0:y1, x0:x1]
        px = region[on].astype(np.float32)
        grey = px.mean(1, keepdims=True)
        mix = (st.shadow_grey * dark)[:, None]
        px = (px * (1.0 - mix) + grey * mix) * (1.0 - st.cast_shadow * dark)[:, None]
        region[on] = np.clip(px + 0.5, 0, 255).astype(np.uint8)

    def render(
        self,
        balls: Mapping[str, tuple[float, float]],
        velocities: Mapping[str, tuple[float, float]] | None = None,
        occluders: list[Occluder] | None = None,
        noise_index: int = 0,
        heights: Mapping[str, float] | None = None,
        smear: Mapping[str, np.ndarray] | None = None,
    ) -> np.ndarray:
        """One frame, BGR uint8 (h, w, 3).

        Args:
            balls: ball id -> (x, y) mm of the balls on the table (centres at z = R).
            velocities: ball id -> (vx, vy) mm/s, for motion blur.
            occluders: polygons drawn over the table (player, cue, hands).
            noise_index: which precomputed noise pattern to add.
            heights: ball id -> z of the centre in mm (a ball lifted by hand); default R.
            smear: ball id -> (S, 2) centres (mm) at S instants over the exposure (NaN: not on
                the table then, potted): motion blur along that path instead of along the
                velocity; a ball there part of the exposure is drawn part-transparent.
        """
        img = self.background.copy()
        r = self.table.ball_radius
        vel = velocities or {}
        hts = heights or {}
        centres = {b: np.array([x, y, hts.get(b, r)], np.float64) for b, (x, y) in balls.items()}
        for c in centres.values():
            if c[2] <= r + 1:
                self._shadow(img, c)
        if self.style.cast_shadow > 0:
            for c in centres.values():
                self._cast_shadow(img, c)
        paths = smear or {}
        for b, path in paths.items():
            seen = path[np.isfinite(path[:, 0])]
            if b not in centres and len(seen):
                # potted by the frame's moment, still on the table early in its exposure
                centres[b] = np.array([*seen[-1], hts.get(b, r)], np.float64)
        order = sorted(centres, key=lambda b: -float(self.camera.depth(centres[b][None])[0]))
        for b in order:
            self._draw_ball(img, b, centres[b], paths.get(b), vel)
        return self._finish(img, occluders, noise_index)

    def _draw_ball(self, img: np.ndarray, b: str, c: np.ndarray, path: np.ndarray | None,
                   vel: Mapping[str, tuple[float, float]]) -> None:
        """Draw ball ``b`` with centre ``c`` (x, y, z mm) into ``img`` (BGR, in place), blurred
        along its ``path`` over the exposure (:meth:`render`'s ``smear``) or its velocity."""
        if path is not None:
            subs, n_sub = self._path_samples(path, c[2])
        else:
            v = np.array(vel.get(b, (0.0, 0.0)))
            speed = float(np.hypot(*v))
            blur_mm = speed * self.style.exposure_s
            n_sub = 1 if blur_mm < 2.0 else min(8, int(blur_mm / 4.0) + 2)
            subs = [c + np.array([*(v * self.style.exposure_s * (k / max(n_sub - 1, 1) - 0.5)), 0.0])
                    for k in range(n_sub)] if n_sub > 1 else [c]
        if not subs:
            return
        boxes = [self.ball_box(s) for s in subs]
        boxes = [bx for bx in boxes if bx is not None]
        if not boxes:
            return
        bx = (min(q[0] for q in boxes), min(q[1] for q in boxes),
              max(q[2] for q in boxes), max(q[3] for q in boxes))
        acc_c = np.zeros((bx[3] - bx[1], bx[2] - bx[0], 3), np.float32)
        acc_a = np.zeros((bx[3] - bx[1], bx[2] - bx[0]), np.float32)
        for s in subs:
            col, a = self._shade(b, s, bx)
            acc_c += col * a[..., None]
            acc_a += a
        acc_c /= n_sub
        acc_a /= n_sub
        g = self.gain[bx[1]:bx[3], bx[0]:bx[2], None] ** 0.5
        region = img[bx[1]:bx[3], bx[0]:bx[2]].astype(np.float32)
        out = region * (1 - acc_a[..., None]) + np.clip(acc_c * g * 255.0, 0, 255)
        img[bx[1]:bx[3], bx[0]:bx[2]] = np.clip(out, 0, 255).astype(np.uint8)

    def _finish(self, img: np.ndarray, occluders: list[Occluder] | None,
                noise_index: int) -> np.ndarray:
        """The picture after the balls: occluders, the camera's gains, the score bar and logo,
        blur, noise (pattern ``noise_index``) and JPEG compression."""
        for occ in occluders or []:
            pts = self.camera.project(occ.points)
            cv2.fillPoly(img, [np.round(pts).astype(np.int32)], occ.bgr, cv2.LINE_AA)
        if self._gains is not None:
            img = np.clip(img.astype(np.float32) * self._gains, 0, 255).astype(np.uint8)
        if self._bar is not None:
            bar, at = self._bar
            img[at[1]:at[1] + bar.shape[0], at[0]:at[0] + bar.shape[1]] = bar
        if self._logo is not None:
            logo, alpha, (x, y) = self._logo
            h_, w_ = alpha.shape
            region = img[y:y + h_, x:x + w_].astype(np.float32)
            img[y:y + h_, x:x + w_] = (region * (1 - alpha[..., None])
                                       + logo * alpha[..., None]).astype(np.uint8)
        if self.style.blur_sigma > 0:
            img = cv2.GaussianBlur(img, (0, 0), self.style.blur_sigma)
        if self.style.noise_sigma > 0:
            noise = self._noise[noise_index % len(self._noise)]
            img = np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        if self.style.jpeg_quality > 0:
            ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(self.style.jpeg_quality)])
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return img

    @staticmethod
    def _path_samples(path: np.ndarray, z: float, step_mm: float = 3.0
                      ) -> tuple[list[np.ndarray], int]:
        """Sphere centres (x, y, z) to average for a ball whose centre went along ``path``
        ((S, 2) mm, NaN where it was not on the table) over the exposure, and the count to
        divide by: consecutive points closer than ``step_mm`` are thinned (a ball at rest part
        of the exposure), more are interpolated between points further apart (at most 24),
        each standing for its share of the exposure."""
        n = len(path)
        seen = np.isfinite(path[:, 0])
        pts = path[seen]
        if len(pts) == 0:
            return [], 1
        seg = np.linalg.norm(np.diff(pts, axis=0), axis=1) if len(pts) > 1 else np.zeros(0)
        length = float(seg.sum())
        k = int(np.clip(np.ceil(length / step_mm) + 1, 1, 24))
        if k == 1:
            return [np.array([pts[0, 0], pts[0, 1], z])], max(1, round(n / len(pts)))
        # resample the seen part evenly in time (the path's points are evenly spaced in time)
        u = np.linspace(0.0, len(pts) - 1.0, k)
        xs = np.interp(u, np.arange(len(pts)), pts[:, 0])
        ys = np.interp(u, np.arange(len(pts)), pts[:, 1])
        total = max(k, int(round(k * n / len(pts))))  # the unseen share of the exposure
        return [np.array([x, y, z]) for x, y in zip(xs, ys, strict=True)], total

    def occluder_mask(self, occluders: list[Occluder]) -> np.ndarray:
        """Boolean mask (h, w) of the pixels the occluders cover."""
        w, h = self.size
        mask = np.zeros((h, w), np.uint8)
        for occ in occluders:
            pts = self.camera.project(occ.points)
            cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
        return mask.astype(bool)


def kelvin_gains(kelvin: float) -> tuple[float, float, float]:
    """RGB gains (each about 0.5..1.5) of light at ``kelvin`` seen by a camera balanced for
    6500 K (Tanner Helland's fit of the black-body colours); 0 gives (1, 1, 1)."""
    if kelvin <= 0:
        return (1.0, 1.0, 1.0)

    def rgb(k: float) -> np.ndarray:
        t = k / 100.0
        r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
        g = (99.4708025861 * math.log(t) - 161.1195681661 if t <= 66
             else 288.1221695283 * (t - 60) ** -0.0755148492)
        b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
        return np.clip(np.array([r, g, b]), 1.0, 255.0)

    g = rgb(kelvin) / rgb(6500.0)
    g = g / g.mean()
    return float(g[0]), float(g[1]), float(g[2])


def score_bar(size: tuple[int, int], seed: int) -> tuple[np.ndarray, tuple[int, int]]:
    """A broadcast score bar (BGR uint8 image) and where it goes (x, y): two names, two
    scores, the frame score, on dark and coloured panels along the bottom of the picture."""
    rng = np.random.default_rng(seed + 7919)
    w, h = size
    bw, bh = int(w * rng.uniform(0.45, 0.8)), int(h * rng.uniform(0.04, 0.07))
    bar = np.empty((bh, bw, 3), np.uint8)
    bar[:] = rng.integers(10, 60, 3)
    panel = rng.integers(60, 230, 3)
    cut = int(bw * rng.uniform(0.35, 0.45))
    bar[:, cut:bw - cut] = panel
    scale = bh / 40.0
    for i, text in enumerate([f"PLAYER {rng.integers(1, 99)}", f"{rng.integers(0, 120)}",
                              f"({rng.integers(0, 10)}) {rng.integers(0, 10)} ({rng.integers(0, 10)})",
                              f"{rng.integers(0, 120)}", f"PLAYER {rng.integers(1, 99)}"]):
        x = int(bw * (0.03 + 0.2 * i))
        cv2.putText(bar, text, (x, int(bh * 0.7)), cv2.FONT_HERSHEY_SIMPLEX, scale, (235, 235, 235),
                    max(1, int(2 * scale)), cv2.LINE_AA)
    at = ((w - bw) // 2, int(h * rng.uniform(0.85, 0.93)))
    at = (at[0], min(at[1], h - bh))
    return bar, at


def channel_logo(size: tuple[int, int], seed: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """A channel logo: (BGR float image, alpha 0..1 (h, w), where it goes (x, y)): a
    half-transparent rounded badge with two to four letters and a "LIVE" tag, in a top corner."""
    rng = np.random.default_rng(seed + 104729)
    w, h = size
    lw, lh = int(w * rng.uniform(0.08, 0.14)), int(h * rng.uniform(0.06, 0.1))
    logo = np.zeros((lh, lw, 3), np.uint8)
    alpha = np.zeros((lh, lw), np.float32)
    colour = rng.integers(40, 255, 3)
    rad = max(2, lh // 4)
    cv2.rectangle(alpha, (rad, 0), (lw - rad, lh - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, rad), (lw - 1, lh - rad), 1.0, -1)
    for cx, cy in ((rad, rad), (lw - rad, rad), (rad, lh - rad), (lw - rad, lh - rad)):
        cv2.circle(alpha, (cx, cy), rad, 1.0, -1)
    logo[:] = colour
    letters = "".join(chr(int(c)) for c in rng.integers(65, 91, int(rng.integers(2, 5))))
    scale = lh / 45.0
    cv2.putText(logo, letters, (int(lw * 0.08), int(lh * 0.62)), cv2.FONT_HERSHEY_DUPLEX, scale,
                (250, 250, 250), max(1, int(2 * scale)), cv2.LINE_AA)
    cv2.putText(logo, "LIVE", (int(lw * 0.1), int(lh * 0.92)), cv2.FONT_HERSHEY_SIMPLEX,
                scale * 0.45, (40, 40, 230), 1, cv2.LINE_AA)
    alpha *= float(rng.uniform(0.55, 0.9))
    logo = logo.astype(np.float32)
    margin_x, margin_y = int(w * rng.uniform(0.02, 0.05)), int(h * rng.uniform(0.03, 0.06))
    x = margin_x if rng.random() < 0.5 else w - lw - margin_x
    return logo, alpha, (x, margin_y)
