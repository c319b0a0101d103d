"""A harder synthetic world, drawn at random where real footage (and an independent synthetic
world) showed ours to be too kind.

One draw (:func:`draw`) picks, from a seed:

- the camera (:func:`random_camera`): an overhead hall camera over either way round, or a TV
  main camera behind either end (baulk or black-spot), at any height from low to steep; a
  horizontal field of view of 50-80 degrees, framed so that the table and its rails fill the
  picture with a margin; barrel distortion; 1920x1080 or 1280x720; or (kind ``tv-zoom``,
  :func:`tv_zoom_camera`, issue 31) a broadcast zoom behind either end, 20-90 degrees,
  1.5-6 m up and 2-8 m back, always under a score bar;
- the look (:func:`random_style`): cloth greens, blue-greens or tournament blue; warm to cold
  light, even to uneven, from a lamp layout (the stock pair, a canopy grid, three along, one
  off-centre lamp); a shutter of 1/500 to 1/50 s; noise, soft focus, JPEG; a broadcast score
  bar and a channel logo over the picture;
- the players (:func:`random_outfit`): waistcoats, shirt sleeves (white too), skin, cue;
- the timing (always): each strike at a random moment within a frame interval, and motion blur
  integrated over the exposure along the true path (a strike or a pot inside the exposure);
- the real faults found so far (:func:`random_faults`, docs/SYNTHETIC.md's table of each
  fault, its property and where it was seen): shadows cast beside every ball away from the
  lamps, a green nearly the cloth's colour, a navy blue, dark pocket fittings, blown
  highlights, projected rings; drawn from a stream of their own, so the camera, look and
  players of a seed are what they were before these were added.

Tunables are the ranges below, named in one place.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE, TableGeometry
from tracker.synth.render import CLOTH_RGB, RenderStyle

#: Horizontal field of view of every camera drawn, degrees.
HFOV_DEG = (50.0, 80.0)
#: Picture sizes (w, h) px, drawn with equal chances.
IMAGE_SIZES = ((1920, 1080), (1280, 720))
#: Margin of the picture around the table and its rails (1: touching the border).
MARGIN = (1.03, 1.2)
#: Rails kept in the picture beyond the cushions, mm.
RAIL_IN_VIEW_MM = 120.0
#: TV camera: elevation of its line of sight above the cloth, degrees (low to steep), and how
#: far it turns from the long centre line (its eye to one side), degrees.
TV_ELEVATION_DEG = (22.0, 60.0)
TV_YAW_DEG = 6.0
#: TV zoom camera (kind ``tv-zoom``, issue 31): horizontal field of view, degrees; eye height
#: above the floor-level cloth plane and distance back from the end cushion, mm; how far it
#: turns off the long centre line (degrees) and aims off the table centre (mm, across, along).
TV_ZOOM_HFOV_DEG = (20.0, 90.0)
TV_ZOOM_HEIGHT_MM = (1500.0, 6000.0)
TV_ZOOM_BACK_MM = (2000.0, 8000.0)
TV_ZOOM_SIDE_MM = 250.0
TV_ZOOM_AIM_MM = (40.0, 150.0)
#: ... the table and RAIL_IN_VIEW_MM of rail inside the picture with at least this margin
#: (1: touching the border), and filling at least FILL of its width or height (a broadcast
#: zoom frames the table; draws that do not are drawn again).
TV_ZOOM_MARGIN = 1.03
TV_ZOOM_FILL = 0.6
#: Overhead camera: how far (mm) its eye and the point it looks at stand off the table centre.
OVERHEAD_OFFSET_MM = (200.0, 80.0)
#: Radial distortion k1 (barrel: negative) and k2, per camera kind.
K1 = {"overhead": (-0.16, 0.0), "tv": (-0.10, 0.0)}
K2 = (0.0, 0.04)
#: Shutter times, s (1/500 to 1/50 s), and instants sampled over each exposure.
EXPOSURE_S = (0.002, 0.02)
EXPOSURE_SAMPLES = 9
#: Cloth families, RGB 0..1 ranges (low, high) per channel, with their chances.
CLOTHS: dict[str, tuple[float, tuple[tuple[float, float], ...]]] = {
    "green": (0.5, ((0.03, 0.16), (0.38, 0.66), (0.04, 0.22))),
    "blue-green": (0.3, ((0.0, 0.08), (0.38, 0.55), (0.28, 0.48))),
    "tournament blue": (0.2, ((0.0, 0.10), (0.24, 0.40), (0.52, 0.75))),
}
#: Diffuse light on a ball from all the lamps together (shared among them; the stock pair
#: gives 1.1), of its colour.
LAMP_LIGHT = (0.8, 1.4)
#: Light colour temperature, K (0: neutral, with this chance).
KELVIN = (3000.0, 9000.0)
NEUTRAL_LIGHT_CHANCE = 0.25
#: Chances of the graphics over the picture.
SCORE_BAR_CHANCE = 0.5
LOGO_CHANCE = 0.5
#: Chance of a white shirt sleeve (the rest: dark or coloured).
WHITE_SLEEVE_CHANCE = 0.3

# Real faults as properties (:func:`random_faults`; where each was seen: docs/SYNTHETIC.md).
#: Share of the cloth's light straight from the lamps (how dark a ball's cast shadow is),
#: the lamps' glowing width (mm: how soft its edge is), how much colour the shadow loses.
CAST_SHADOW = (0.25, 0.7)
LAMP_SIZE_MM = (60.0, 400.0)
SHADOW_GREY = (0.0, 0.6)
#: Chance of a green nearly the cloth's colour (the lab's teal green on its teal cloth): the
#: cloth's own colour, its saturation times LOW_CONTRAST_SATURATION, its brightness times
#: LOW_CONTRAST_LIGHT.
LOW_CONTRAST_CHANCE = 0.35
LOW_CONTRAST_SATURATION = (1.3, 2.2)
LOW_CONTRAST_LIGHT = (0.75, 1.05)
#: Chance of a navy blue (a dark blue on a dark or blue cloth), its colour's range per channel.
NAVY_CHANCE = 0.25
NAVY_RGB = ((0.0, 0.05), (0.03, 0.12), (0.18, 0.40))
#: Chance of dark pocket fittings (black leather or a dark fascia at the jaws), their grey.
DARK_FITTINGS_CHANCE = 0.4
DARK_FITTING_GREY = (0.03, 0.15)
#: Chance of lamp highlights bright enough to blow a ball's core out, their brightness (the
#: stock 0.9).
BLOWN_HIGHLIGHT_CHANCE = 0.3
BLOWN_SPECULAR = (1.5, 3.0)
#: Chance of a projector's light over the table (the lab's): one lamp high above, off to a
#: side (x, y as fractions of the table, z mm), the balls lit evenly by the room (ambient,
#: lamp light on the balls), the cloth washed grey by its light (share of grey), its shadows
#: greyer and darker (cast shadow, shadow grey).
PROJECTOR_CHANCE = 0.15
PROJECTOR_AT = ((0.2, 0.8), (0.2, 0.8), (1500.0, 3000.0))
PROJECTOR_AMBIENT = (0.5, 0.7)
PROJECTOR_BALL_LIGHT = (0.3, 0.5)
PROJECTOR_WASH = (0.2, 0.5)
PROJECTOR_SHADOW = (0.35, 0.6)
PROJECTOR_SHADOW_GREY = (0.5, 0.9)
#: Chance of rings projected on the cloth (the lab's projector), how many.
PROJECTED_RINGS_CHANCE = 0.2
PROJECTED_RINGS = (2, 10)


@dataclass
class WorldDraw:
    """One random draw of the harder world.

    Attributes:
        seed: the seed it came from.
        kind: ``overhead`` or ``tv``.
        camera: the camera (its exact model is the truth a profile can be made from).
        style: the render style.
        outfit: BGR colours of the players' parts (see :class:`tracker.synth.world.World`).
        exposure: (shutter s, instants) for the world's motion blur.
        about: what was drawn, in words and figures (for bench tables).
    """

    seed: int
    kind: str
    camera: CameraModel
    style: RenderStyle
    outfit: dict[str, tuple[int, int, int]]
    exposure: tuple[float, int]
    about: dict[str, Any] = field(default_factory=dict)


def _fit_distance(direction: np.ndarray, target: np.ndarray, up: tuple[float, float, float],
                  size: tuple[int, int], hfov: float, margin: float, t: TableGeometry,
                  dist: tuple[float, ...]) -> CameraModel:
    """The camera looking at ``target`` from along the unit ``direction`` (target -> eye) at
    the distance where the table and RAIL_IN_VIEW_MM of rail fill the picture with ``margin``
    (bisection on the distance; distortion left out of the fit)."""
    r = RAIL_IN_VIEW_MM
    pts = np.array([[x, y, z] for x in (-r, t.width + r) for y in (-r, t.length + r)
                    for z in (0.0, t.cushion_height)])
    half_w = math.tan(math.radians(hfov) / 2.0) / margin
    half_h = half_w * size[1] / size[0]

    def camera(d: float) -> CameraModel:
        eye = target + direction * d
        return CameraModel.look_at(tuple(eye), tuple(target), up, size, hfov, dist)

    def fits(d: float) -> bool:
        c = camera(d)
        p = pts @ c.R.T + c.t
        if (p[:, 2] <= 100.0).any():
            return False
        xn, yn = p[:, 0] / p[:, 2], p[:, 1] / p[:, 2]
        return bool(np.abs(xn).max() <= half_w and np.abs(yn).max() <= half_h)

    lo, hi = 500.0, 30000.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return camera(hi)


def random_camera(rng: np.random.Generator, kind: str, t: TableGeometry = STANDARD_TABLE,
                  hfov_deg: tuple[float, float] | None = None) -> tuple[CameraModel, dict[str, Any]]:
    """A camera of ``kind`` (``overhead``, ``tv`` or ``tv-zoom``; ``hfov_deg``: the lens band
    of a ``tv-zoom``, degrees) seeing the whole table, and what was drawn.

    Raises:
        ValueError: an unknown kind.
    """
    if kind == "tv-zoom":
        return tv_zoom_camera(rng, t, hfov_deg)
    if kind not in ("overhead", "tv"):
        raise ValueError(f"unknown camera kind {kind!r}: overhead, tv or tv-zoom")
    size = IMAGE_SIZES[int(rng.integers(len(IMAGE_SIZES)))]
    hfov = float(rng.uniform(*HFOV_DEG))
    margin = float(rng.uniform(*MARGIN))
    dist = (float(rng.uniform(*K1[kind])), float(rng.uniform(*K2)), 0.0, 0.0, 0.0)
    centre = np.array([t.width / 2, t.length / 2, 0.0])
    if kind == "overhead":
        baulk_left = bool(rng.random() < 0.5)
        eye_off = rng.normal(0, OVERHEAD_OFFSET_MM[0], 2)
        target = centre + [*rng.normal(0, OVERHEAD_OFFSET_MM[1], 2), 0.0]
        direction = np.array([*(eye_off / 3000.0), 1.0])  # tilted a few degrees at most
        direction /= np.linalg.norm(direction)
        up = (-1.0, float(rng.normal(0, 0.03)), 0.0) if baulk_left else (1.0, float(rng.normal(0, 0.03)), 0.0)
        cam = _fit_distance(direction, target, up, size, hfov, margin, t, dist)
        about = {"end": "baulk left" if baulk_left else "baulk right"}
    else:
        behind_baulk = bool(rng.random() < 0.5)
        elev = math.radians(float(rng.uniform(*TV_ELEVATION_DEG)))
        yaw = math.radians(float(rng.uniform(-TV_YAW_DEG, TV_YAW_DEG)))
        sign = -1.0 if behind_baulk else 1.0
        target = centre + [float(rng.normal(0, 30)), float(rng.normal(0, 80)), 0.0]
        direction = np.array([math.sin(yaw) * math.cos(elev), sign * math.cos(yaw) * math.cos(elev),
                              math.sin(elev)])
        cam = _fit_distance(direction, target, (0.0, 0.0, 1.0), size, hfov, margin, t, dist)
        about = {"end": "behind baulk" if behind_baulk else "behind the black spot",
                 "elevation_deg": round(math.degrees(elev), 1)}
    about.update({"size": f"{size[0]}x{size[1]}", "hfov_deg": round(hfov, 1),
                  "height_mm": round(float(cam.centre[2])), "k1": round(dist[0], 3)})
    return cam, about


def _framing(cam: CameraModel, t: TableGeometry) -> tuple[float, float]:
    """How the table and RAIL_IN_VIEW_MM of rail sit in ``cam``'s picture: (margin: the
    picture's half-size over the farthest point's distance from the centre, the larger of the
    two axes' ratios; below 1 it is cut off or behind the camera, fill: the larger share of the
    picture's width or height the table spans)."""
    r = RAIL_IN_VIEW_MM
    pts = np.array([[x, y, z] for x in (-r, t.width + r) for y in (-r, t.length + r)
                    for z in (0.0, t.cushion_height)])
    if (cam.depth(pts) <= 100.0).any():
        return 0.0, 0.0
    p = cam.project(pts)
    w, h = cam.image_size
    half = np.array([w / 2.0, h / 2.0])
    off = np.abs(p - half).max(0)
    span = (p.max(0) - p.min(0)) / np.array([w, h])
    return float(np.min(half / np.maximum(off, 1e-9))), float(span.max())


def tv_zoom_camera(rng: np.random.Generator, t: TableGeometry = STANDARD_TABLE,
                   hfov_deg: tuple[float, float] | None = None) -> tuple[CameraModel, dict[str, Any]]:
    """A broadcast zoom behind either end (TV_ZOOM_*): lens (``hfov_deg``, degrees, a band
    within TV_ZOOM_HFOV_DEG; default all of it), height and distance back drawn at random,
    aimed near the table's centre, drawn again until the table is in the picture
    (TV_ZOOM_MARGIN) and framed by it (TV_ZOOM_FILL). Returns (camera, what was drawn)."""
    size = IMAGE_SIZES[int(rng.integers(len(IMAGE_SIZES)))]
    for _ in range(5000):
        hfov = float(rng.uniform(*(hfov_deg or TV_ZOOM_HFOV_DEG)))
        height = float(rng.uniform(*TV_ZOOM_HEIGHT_MM))
        back = float(rng.uniform(*TV_ZOOM_BACK_MM))
        behind_baulk = bool(rng.random() < 0.5)
        dist = (float(rng.uniform(*K1["tv"])) * (hfov / 90.0) ** 2, float(rng.uniform(*K2)) * (hfov / 90.0) ** 4,
                0.0, 0.0, 0.0)
        y_eye = -back if behind_baulk else t.length + back
        eye = (t.width / 2 + float(rng.uniform(-TV_ZOOM_SIDE_MM, TV_ZOOM_SIDE_MM)), y_eye, height)
        aim = (t.width / 2 + float(rng.normal(0, TV_ZOOM_AIM_MM[0])),
               t.length / 2 + float(rng.normal(0, TV_ZOOM_AIM_MM[1])), 0.0)
        cam = CameraModel.look_at(eye, aim, (0.0, 0.0, 1.0), size, hfov, dist)
        margin, fill = _framing(cam, t)
        if margin >= TV_ZOOM_MARGIN and fill >= TV_ZOOM_FILL:
            break
    else:  # pragma: no cover - the ranges always allow a framing
        raise RuntimeError("no TV zoom framing found")
    return cam, {"end": "behind baulk" if behind_baulk else "behind the black spot",
                 "size": f"{size[0]}x{size[1]}", "hfov_deg": round(hfov, 1),
                 "height_mm": round(height), "back_mm": round(back), "k1": round(dist[0], 3)}


def random_style(rng: np.random.Generator, seed: int) -> tuple[RenderStyle, dict[str, Any]]:
    """Random appearance (cloth, light, shutter, picture quality, graphics) and what was drawn."""
    names = list(CLOTHS)
    chances = np.array([CLOTHS[n][0] for n in names])
    cloth_name = names[int(rng.choice(len(names), p=chances / chances.sum()))]
    cloth = tuple(float(rng.uniform(lo, hi)) for lo, hi in CLOTHS[cloth_name][1])
    layout = int(rng.integers(4))
    if layout == 0:
        lamps, lamp_name = ((0.5, 0.3, 1100.0), (0.5, 0.7, 1100.0)), "two lamps"
    elif layout == 1:
        z = float(rng.uniform(900, 1600))
        lamps = tuple((fx, fy, z) for fx in (0.25, 0.75) for fy in (0.15, 0.38, 0.62, 0.85))
        lamp_name = "canopy of eight"
    elif layout == 2:
        z = float(rng.uniform(800, 1400))
        lamps, lamp_name = tuple((0.5, fy, z) for fy in (0.2, 0.5, 0.8)), "three along"
    else:
        lamps = ((float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.3, 0.7)), float(rng.uniform(900, 2000))),)
        lamp_name = "one off-centre lamp"
    kelvin = 0.0 if rng.random() < NEUTRAL_LIGHT_CHANCE else float(rng.uniform(*KELVIN))
    style = RenderStyle(
        noise_sigma=float(rng.uniform(1.0, 4.5)), light_unevenness=float(rng.uniform(0.05, 0.5)),
        vignetting=float(rng.uniform(0.0, 0.4)), exposure_s=float(rng.uniform(*EXPOSURE_S)),
        seed=seed, chalk_marks=int(rng.integers(0, 5)), lamps=lamps,
        ambient=float(rng.uniform(0.2, 0.45)),
        lamp_strength=float(rng.uniform(*LAMP_LIGHT) / len(lamps)),
        lamp_spread_mm=float(rng.uniform(900, 2600)), cloth_rgb=cloth,  # type: ignore[arg-type]
        colour_temperature_k=kelvin, exposure=float(rng.uniform(0.8, 1.2)),
        blur_sigma=float(rng.uniform(0.3, 1.0)) if rng.random() < 0.3 else 0.0,
        jpeg_quality=int(rng.integers(45, 92)) if rng.random() < 0.5 else 0,
        score_bar=bool(rng.random() < SCORE_BAR_CHANCE), logo=bool(rng.random() < LOGO_CHANCE))
    about = {"cloth": cloth_name, "lamps": lamp_name,
             "light": "neutral" if kelvin == 0 else f"{kelvin:.0f} K",
             "unevenness": round(style.light_unevenness, 2),
             "shutter_s": round(style.exposure_s, 4),
             "graphics": "+".join(n for n, on in (("score bar", style.score_bar), ("logo", style.logo))
                                  if on) or "none"}
    return style, about


def random_outfit(rng: np.random.Generator) -> dict[str, tuple[int, int, int]]:
    """Colours (BGR) of the striker's waistcoat, sleeve, skin and cue, and the placing hand."""
    def bgr(v: np.ndarray) -> tuple[int, int, int]:
        return tuple(int(x) for x in np.clip(v, 0, 255))  # type: ignore[return-value]

    skin = rng.uniform(60, 210) * np.array([0.72, 0.88, 1.0]) + rng.integers(-12, 12, 3)
    body = rng.integers(8, 70, 3) if rng.random() < 0.8 else rng.integers(30, 180, 3)
    if rng.random() < WHITE_SLEEVE_CHANCE:
        sleeve = rng.integers(205, 245) + rng.integers(-8, 8, 3)
    else:
        sleeve = body if rng.random() < 0.5 else rng.integers(10, 200, 3)
    cue = np.array([60, 110, 160]) * rng.uniform(0.5, 1.2)
    return {"body": bgr(body), "arm": bgr(sleeve), "hand": bgr(skin), "cue": bgr(cue),
            "placing": bgr(skin * rng.uniform(0.9, 1.1))}


def low_contrast_green(rng: np.random.Generator, cloth: tuple[float, float, float]
                       ) -> tuple[float, float, float]:
    """A green ball's colour (RGB 0..1) nearly ``cloth``'s: the cloth's hue, more saturated
    (LOW_CONTRAST_SATURATION), about as bright (LOW_CONTRAST_LIGHT), as the lab's teal green
    on its teal cloth."""
    c = np.array(cloth, float)
    grey = c.mean()
    rgb = (grey + (c - grey) * rng.uniform(*LOW_CONTRAST_SATURATION)) * rng.uniform(*LOW_CONTRAST_LIGHT)
    return tuple(float(v) for v in np.clip(rgb, 0.0, 1.0))  # type: ignore[return-value]


def projector_light(rng: np.random.Generator, cloth: tuple[float, float, float]) -> dict[str, Any]:
    """``RenderStyle`` fields of a projector's light over the table (PROJECTOR_*): one lamp
    high above and off to a side, balls lit evenly, the cloth washed grey, grey shadows."""
    (xa, xb), (ya, yb), (za, zb) = PROJECTOR_AT
    c = np.array(cloth, float)
    wash = rng.uniform(*PROJECTOR_WASH)
    return {"lamps": ((float(rng.uniform(xa, xb)), float(rng.uniform(ya, yb)), float(rng.uniform(za, zb))),),
            "ambient": float(rng.uniform(*PROJECTOR_AMBIENT)),
            "lamp_strength": float(rng.uniform(*PROJECTOR_BALL_LIGHT)),
            "cloth_rgb": tuple(float(v) for v in c * (1 - wash) + c.mean() * wash),
            "cast_shadow": float(rng.uniform(*PROJECTOR_SHADOW)),
            "shadow_grey": float(rng.uniform(*PROJECTOR_SHADOW_GREY))}


def random_faults(rng: np.random.Generator, style: RenderStyle, *, low_contrast: bool | None = None,
                  projector: bool | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The real faults found so far as properties of one draw: ``RenderStyle`` fields to
    replace in ``style`` (cast shadows always; a projector's light, a low-contrast green, a
    navy blue, dark pocket fittings, blown highlights and projected rings each by its chance;
    ``low_contrast`` and ``projector`` True or False force theirs) and what was drawn."""
    out: dict[str, Any] = {"cast_shadow": float(rng.uniform(*CAST_SHADOW)),
                           "lamp_size_mm": float(rng.uniform(*LAMP_SIZE_MM)),
                           "shadow_grey": float(rng.uniform(*SHADOW_GREY))}
    balls: list[tuple[str, tuple[float, float, float]]] = []
    drawn = rng.random(6)
    lit = projector if projector is not None else bool(drawn[5] < PROJECTOR_CHANCE)
    light = projector_light(rng, style.cloth_rgb or CLOTH_RGB)
    if lit:
        out.update(light)
    cloth = out.get("cloth_rgb", style.cloth_rgb or CLOTH_RGB)
    green = low_contrast if low_contrast is not None else bool(drawn[0] < LOW_CONTRAST_CHANCE)
    green = green and cloth[1] >= cloth[2]  # (a green nearly a blue cloth's colour is a blue)
    green_rgb = low_contrast_green(rng, cloth)  # (drawn either way: forcing one changes no other)
    if green:
        balls.append(("green", green_rgb))
    if drawn[1] < NAVY_CHANCE:
        balls.append(("blue", tuple(float(rng.uniform(lo, hi)) for lo, hi in NAVY_RGB)))  # type: ignore[misc]
    if balls:
        out["ball_rgb"] = tuple(balls)
    if drawn[2] < DARK_FITTINGS_CHANCE:
        g = float(rng.uniform(*DARK_FITTING_GREY))
        out["fitting_rgb"] = (g, g * 0.9, g * 0.8)
    if drawn[3] < BLOWN_HIGHLIGHT_CHANCE:
        out["specular"] = float(rng.uniform(*BLOWN_SPECULAR))
    if drawn[4] < PROJECTED_RINGS_CHANCE:
        out["projected_rings"] = int(rng.integers(PROJECTED_RINGS[0], PROJECTED_RINGS[1] + 1))
    about = {**({"lamps": "projector"} if lit else {}), "shadow": round(out["cast_shadow"], 2),
             "faults": "+".join(n for n, on in (
                 ("projector light", lit), ("low-contrast green", green),
                 ("navy blue", drawn[1] < NAVY_CHANCE),
                 ("dark fittings", "fitting_rgb" in out), ("blown highlights", "specular" in out),
                 ("projected rings", "projected_rings" in out)) if on) or "none"}
    return out, about


def draw(seed: int, kind: str, t: TableGeometry = STANDARD_TABLE, *, faults: bool = True,
         low_contrast: bool | None = None, projector: bool | None = None,
         hfov_deg: tuple[float, float] | None = None) -> WorldDraw:
    """The harder world's camera, look and players for ``seed`` (same seed, same draw), with
    the real faults of :func:`random_faults` (``low_contrast``, ``projector``: force those;
    ``faults`` False: none of them, the draw as it was before they were added; ``hfov_deg``:
    a ``tv-zoom``'s lens band, degrees)."""
    stream = {"overhead": 0, "tv": 1, "tv-zoom": 2}.get(kind, 1)
    rng = np.random.default_rng([seed, stream, 12])
    cam, cam_about = random_camera(rng, kind, t, hfov_deg)
    style, style_about = random_style(rng, seed)
    if kind == "tv-zoom":  # a broadcast picture always has its score bar
        style = dataclasses.replace(style, score_bar=True)
        style_about["graphics"] = "+".join(["score bar"] + (["logo"] if style.logo else []))
    outfit = random_outfit(rng)
    fault_kw, fault_about = random_faults(np.random.default_rng([seed, stream, 30]),
                                        style, low_contrast=low_contrast, projector=projector)
    if not faults:
        fault_kw, fault_about = {}, {}
    style = dataclasses.replace(style, **fault_kw)
    return WorldDraw(seed, kind, cam, style, outfit, (style.exposure_s, EXPOSURE_SAMPLES),
                     {**cam_about, **style_about, **fault_about,
                      "sleeve": "white" if min(outfit["arm"]) > 190 else "dark/coloured"})
