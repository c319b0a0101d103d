"""The pool crops' harder world: what the real albertomors pictures have and the plain synthetic
pool world (:mod:`tracker.synth.pool_render`) lacked, added to the training draw of
``train/make_pool_crops.py``.

Seen on the development clips' labelled boxes (``bench/pool_classifier.py``; docs/ACCURACY.md
"Pool classifier (issue 33)"), against crops of the plain world:

- **the cloth in the ball**: a real ball's glossy surface mirrors the bright cloth round it, so
  the black 8 wears a teal sheen and the cue ball a cyan-green cast (both read as the green
  stripe 14); the plain balls are lit by lamps alone. :class:`GlossyPoolRenderer` adds the
  environment's reflection (the cloth below the horizon, a dim room above), stronger towards the
  ball's rim (a Fresnel-like curve), and a broad second highlight (a large lamp or a canopy, not a point).
- **the video's look**: the real frames are broadcast video scaled to 1024 x 576: soft (made
  from fewer pixels), colour smeared wider than brightness (chroma subsampling), compressed,
  with whites gone cream (white balance), colours paler and contrast lower than the renders'.
  :func:`video_look` draws each of these per camera (:class:`VideoLook`).

The ball's size in pixels (real radii 8.5 to 14 px) is inside the plain draw's range, and the
crops' centring error already has its jitter (``make_ball_crops.frame_samples``: 0.15 radius,
radius off by 8 %), so neither is changed here. Every draw is general (ranges wide round what a
camera does), not one clip's look; nothing real is used to make the crops.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker.synth.pool_render import PoolRenderer


@dataclass(frozen=True)
class Gloss:
    """How glossy the pool balls are (:class:`GlossyPoolRenderer`).

    Attributes:
        cloth_reflection: share of the cloth's colour a ball mirrors head-on (0..1); towards its
            rim it rises to ``rim_reflection`` as (1 - cos)^3 of the
            angle between the view and the surface (a softened Schlick curve).
        rim_reflection: share mirrored at the rim, 0..1.
        room_level: brightness (0..1, grey) of what the upper half mirrors: the room, the canopy.
        broad_specular: strength of the broad highlight (0: none), added to the lamps' sharp one.
        broad_exponent: its Phong exponent (small: wide, a large lamp's reflection).
    """

    cloth_reflection: float = 0.08
    rim_reflection: float = 0.5
    room_level: float = 0.15
    broad_specular: float = 0.15
    broad_exponent: float = 12.0


def random_gloss(rng: np.random.Generator) -> Gloss:
    """A random :class:`Gloss`: from a matt, worn set to a new, polished one."""
    return Gloss(cloth_reflection=float(rng.uniform(0.03, 0.2)),
                 rim_reflection=float(rng.uniform(0.2, 0.7)),
                 room_level=float(rng.uniform(0.05, 0.35)),
                 broad_specular=float(rng.uniform(0.0, 0.4)),
                 broad_exponent=float(rng.uniform(5.0, 25.0)))


class GlossyPoolRenderer(PoolRenderer):
    """A :class:`PoolRenderer` whose balls mirror the cloth and the room (:class:`Gloss`).

    Args:
        camera, table, style, look: as :class:`PoolRenderer`.
        gloss: the balls' gloss (:class:`Gloss` defaults when not given).
    """

    def __init__(self, *args, gloss: Gloss | None = None, **kwargs):
        self.gloss = gloss or Gloss()
        self._normals: np.ndarray | None = None
        super().__init__(*args, **kwargs)

    def _surface_colour(self, ball: str, normals: np.ndarray) -> np.ndarray:
        """As the pool renderer's, keeping the ``normals`` (h, w, 3) for :meth:`_shade`."""
        self._normals = normals
        return super()._surface_colour(ball, normals)

    def _shade(self, ball: str, centre: np.ndarray, box: tuple[int, int, int, int]
               ) -> tuple[np.ndarray, np.ndarray]:
        """The lamp-lit colour (BGR 0..1, (h, w, 3)) and coverage of the renderer, plus the
        mirrored cloth and room and the broad highlight."""
        col, alpha = super()._shade(ball, centre, box)
        n = self._normals
        x0, y0, x1, y1 = box
        d = self.rays[y0:y1, x0:x1]
        g = self.gloss
        cos_view = np.clip(-(d * n).sum(-1), 0.0, 1.0)
        fresnel = g.cloth_reflection + (g.rim_reflection - g.cloth_reflection) * (1 - cos_view) ** 3
        refl = d - 2 * (d * n).sum(-1, keepdims=True) * n  # the mirrored ray
        down = refl[..., 2] < 0
        cloth = np.array(self.cloth_rgb[::-1], np.float32)
        env = np.where(down[..., None], cloth, np.float32(g.room_level))
        col = col * (1 - fresnel[..., None]) + env * fresnel[..., None]
        if g.broad_specular > 0:
            spec = np.zeros(n.shape[:2], np.float32)
            for lamp in self.lamps:
                ldir = lamp - (centre + n * self.table.ball_radius)
                ldir /= np.linalg.norm(ldir, axis=-1, keepdims=True)
                hv = ldir - d
                hv /= np.linalg.norm(hv, axis=-1, keepdims=True)
                spec += np.clip((n * hv).sum(-1), 0, 1) ** g.broad_exponent
            col = col + g.broad_specular * spec[..., None] / len(self.lamps)
        return col.astype(np.float32), alpha


@dataclass(frozen=True)
class VideoLook:
    """What broadcast video does to a picture (:func:`video_look`), drawn per camera.

    Attributes:
        source_scale: the picture was made from this share of its pixels across and scaled
            up (1: full resolution; 0.5: from a picture half as wide).
        chroma_scale: colour kept at this share of the resolution (0.5: 4:2:0; smaller: the
            smear of a low bit rate).
        gains_bgr: white balance, the picture's gain per channel (B, G, R).
        saturation: colour kept, 1 as rendered, below 1 paler.
        contrast: about mid-grey, 1 as rendered.
        gamma: output = input ** gamma (below 1 lifts the shadows).
        jpeg_quality: a last compression (0: none), 1..100.
    """

    source_scale: float = 1.0
    chroma_scale: float = 1.0
    gains_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)
    saturation: float = 1.0
    contrast: float = 1.0
    gamma: float = 1.0
    jpeg_quality: int = 0


def random_video_look(rng: np.random.Generator) -> VideoLook:
    """A random :class:`VideoLook`; one camera in five keeps the plain render's picture."""
    if rng.random() < 0.2:
        return VideoLook()
    warm = rng.normal(0, 0.08)  # white balance along the warm-cool line, then any tint
    gains = np.exp(np.array([-warm, 0.0, warm]) + rng.normal(0, 0.05, 3))
    return VideoLook(source_scale=float(rng.uniform(0.4, 1.0)) if rng.random() < 0.7 else 1.0,
                     chroma_scale=float(rng.choice([1.0, 0.5, 0.5, 0.35, 0.25])),
                     gains_bgr=tuple(float(v) for v in gains / gains.mean()),
                     saturation=float(rng.uniform(0.55, 1.1)),
                     contrast=float(rng.uniform(0.75, 1.15)),
                     gamma=float(rng.uniform(0.8, 1.2)),
                     jpeg_quality=int(rng.integers(25, 80)) if rng.random() < 0.7 else 0)


def _rescaled(img: np.ndarray, scale: float) -> np.ndarray:
    """``img`` brought down to ``scale`` of its size and back up (bilinear)."""
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(8, round(w * scale)), max(8, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def video_look(img: np.ndarray, look: VideoLook) -> np.ndarray:
    """``img`` (h, w, 3) uint8 BGR as the video ``look`` would have it (a new array)."""
    out = img.astype(np.float32) / 255.0
    out = out * np.array(look.gains_bgr, np.float32)
    grey = out.mean(-1, keepdims=True)
    out = grey + look.saturation * (out - grey)
    out = 0.5 + look.contrast * (out - 0.5)
    out = np.clip(out, 0, 1) ** look.gamma
    out = (out * 255 + 0.5).astype(np.uint8)
    if look.source_scale < 1:
        out = _rescaled(out, look.source_scale)
    if look.chroma_scale < 1:
        ycc = cv2.cvtColor(out, cv2.COLOR_BGR2YCrCb)
        ycc[..., 1:] = _rescaled(ycc[..., 1:], look.chroma_scale)
        out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    if look.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
