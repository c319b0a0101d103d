"""Pool balls in the synthetic world: numbered solids, striped balls and the cue ball, drawn
by the snooker renderer's camera, lamps, cloth and shadows (:class:`tracker.synth.render.
Renderer`), on pool tables (:meth:`calibration.table.TableGeometry.pool`).

A pool ball's surface is painted in its own frame, which turns with the ball (an orientation,
a 3 x 3 rotation per ball): a solid (1..8) is its colour all over with the number on a white
circle at two opposite poles; a stripe (9..15) is white with a coloured band round its equator
and the numbers on the band; the cue ball is white, sometimes with small red dots (a
"measles" or spotted cue ball). Whether the number, the band or the white caps show depends
on the orientation, as on a real table. Ball ids are those of :func:`tracker.rules.ballset.
pool_balls`: ``white`` (the cue ball) and ``"1"`` .. ``"15"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableGeometry
from tracker.rules.ballset import POOL_COLOURS
from tracker.synth.render import Renderer, RenderStyle

#: The pool colours (WPA, by name of :data:`tracker.rules.ballset.POOL_COLOURS`), RGB 0..1,
#: chosen against photographs of a standard set.
POOL_RGB: dict[str, tuple[float, float, float]] = {
    "yellow": (0.95, 0.74, 0.06), "blue": (0.06, 0.16, 0.62), "red": (0.80, 0.07, 0.05),
    "purple": (0.30, 0.10, 0.42), "orange": (0.96, 0.40, 0.05), "green": (0.03, 0.40, 0.16),
    "maroon": (0.42, 0.07, 0.07), "black": (0.04, 0.04, 0.05), "white": (0.93, 0.92, 0.86),
}
#: Cloth colours (RGB 0..1) of pool tables: the light "tournament blue" of televised pool
#: (Simonis 860 tournament blue), a darker blue, green, red.
POOL_CLOTHS: dict[str, tuple[float, float, float]] = {
    "tournament_blue": (0.10, 0.52, 0.82), "blue": (0.05, 0.28, 0.62),
    "green": (0.08, 0.50, 0.14), "red": (0.55, 0.06, 0.08),
}
_DIGIT_PX = 48  # side of the number textures, px


@dataclass(frozen=True)
class PoolLook:
    """How the pool balls are painted.

    Attributes:
        stripe_half_width: the band of a striped ball covers the surface within this sine of
            latitude of its equator (0.5: the middle half of the ball's height).
        circle_radius: the white number circle's radius, as the sine of its angular radius
            (0.36: a circle of about 21 mm across on a 57 mm ball).
        digit_height: the number's height as a share of the circle's diameter.
        dot_radius: a cue ball's red dot, sine of its angular radius.
        cue_dots: red dots on a spotted cue ball (0: a plain white cue ball), at the corners of
            an octahedron (6) or of a tetrahedron (4) in the ball's own frame.
        colours: colour name -> RGB 0..1 (:data:`POOL_RGB` when empty); every name of
            :data:`tracker.rules.ballset.POOL_COLOURS` and ``white``.
    """

    stripe_half_width: float = 0.5
    circle_radius: float = 0.36
    digit_height: float = 0.62
    dot_radius: float = 0.12
    cue_dots: int = 0
    colours: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)

    def rgb(self, name: str) -> tuple[float, float, float]:
        """The RGB (0..1) of colour ``name``."""
        return self.colours.get(name, POOL_RGB[name])


def ball_colour_name(ball: str) -> str:
    """The colour name of pool ball id ``ball`` (``white`` for the cue ball)."""
    if ball in ("white", "cue"):
        return "white"
    n = int(ball)
    return POOL_COLOURS[n if n <= 8 else n - 8]


def random_orientation(rng: np.random.Generator) -> np.ndarray:
    """A uniformly random rotation (3, 3) (from a random unit quaternion)."""
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _digit_texture(number: int, height: float) -> np.ndarray:
    """A mask (``_DIGIT_PX`` square, bool) of ``number`` drawn black-on-white, centred, its
    height ``height`` of the side (the unit disc of the number circle spans the side)."""
    img = np.zeros((_DIGIT_PX, _DIGIT_PX), np.uint8)
    text = str(number)
    font = cv2.FONT_HERSHEY_SIMPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = height * _DIGIT_PX / th
    thick = max(1, int(round(scale * 2.2)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = ((_DIGIT_PX - tw) // 2, (_DIGIT_PX + th) // 2)
    cv2.putText(img, text, org, font, scale, 255, thick, cv2.LINE_AA)
    return img > 127


class PoolRenderer(Renderer):
    """A :class:`Renderer` whose balls are pool balls (ids ``white``, ``"1"`` .. ``"15"``).

    Args:
        camera, table, style: as :class:`Renderer` (``table`` usually a pool table).
        look: how the balls are painted (:class:`PoolLook` defaults when not given).
    """

    def __init__(self, camera: CameraModel, table: TableGeometry, style: RenderStyle | None = None,
                 look: PoolLook | None = None):
        self.look = look or PoolLook()
        self._digits = {n: _digit_texture(n, self.look.digit_height) for n in range(1, 16)}
        self._orient: Mapping[str, np.ndarray] = {}
        super().__init__(camera, table, style)

    def render(self, balls: Mapping[str, tuple[float, float]], *args,
               orientations: Mapping[str, np.ndarray] | None = None, **kwargs) -> np.ndarray:
        """:meth:`Renderer.render`, with ``orientations``: ball id -> rotation (3, 3) from
        the ball's own frame to the world's (identity for a ball not named): the band's axis
        is the ball's own z, the numbers sit on its own +x and -x."""
        self._orient = orientations or {}
        return super().render(balls, *args, **kwargs)

    def _surface_colour(self, ball: str, normals: np.ndarray) -> np.ndarray:
        """BGR 0..1 (h, w, 3) of the painted surface at world ``normals`` (h, w, 3)."""
        look = self.look
        rot = self._orient.get(ball)
        m = normals if rot is None else normals @ np.asarray(rot, np.float32)  # own frame
        white = np.array(look.rgb("white")[::-1], np.float32)
        colour = np.array(look.rgb(ball_colour_name(ball))[::-1], np.float32)
        out = np.empty(m.shape, np.float32)
        if ball in ("white", "cue"):
            out[:] = white
            self._paint_dots(out, m)
            return out
        number = int(ball)
        if number <= 8:
            out[:] = colour
        else:
            out[:] = white
            out[np.abs(m[..., 2]) < look.stripe_half_width] = colour
        self._paint_number(out, m, number)
        return out

    def _paint_number(self, out: np.ndarray, m: np.ndarray, number: int) -> None:
        """The number on a white circle at the ball's own +x and -x poles (in place)."""
        rc = self.look.circle_radius
        digit = self._digits[number]
        white = np.array(self.look.rgb("white")[::-1], np.float32)
        for sign in (1.0, -1.0):
            u, v = sign * m[..., 1] / rc, -m[..., 2] / rc  # -x pole seen mirrored: not the 6/9 trap
            inside = (sign * m[..., 0] > 0) & (u * u + v * v < 1.0)
            if not inside.any():
                continue
            out[inside] = white
            col = np.clip(((u + 1) / 2 * _DIGIT_PX).astype(int), 0, _DIGIT_PX - 1)
            row = np.clip(((v + 1) / 2 * _DIGIT_PX).astype(int), 0, _DIGIT_PX - 1)
            ink = inside & digit[row, col]
            out[ink] = 0.05

    def _paint_dots(self, out: np.ndarray, m: np.ndarray) -> None:
        """A spotted cue ball's red dots (in place; none when ``look.cue_dots`` is 0)."""
        if self.look.cue_dots <= 0:
            return
        if self.look.cue_dots >= 6:
            axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)
        else:
            axes = np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], float) / np.sqrt(3)
        red = np.array(self.look.rgb("red")[::-1], np.float32)
        cos_min = np.sqrt(1 - self.look.dot_radius ** 2)
        for a in axes:
            out[(m @ a.astype(np.float32)) > cos_min] = red
