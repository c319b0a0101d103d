"""The real faults found so far as properties of the harder synthetic world
(``tracker/synth/randomise.py``, ``tracker/synth/shadows.py``; docs/SYNTHETIC.md's table), and
what the world then predicts: the lab's teal green pulled toward its grey cast shadow, fixed
by the disc fit; a green placed on a long shadow; projected rings seen at an angle.

No pooltool needed: single pictures rendered with numpy and OpenCV.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest
from helpers import cue_ball_layout, exact_camera_detector, nearest_detection

from calibration.camera import CameraModel
from calibration.table import STANDARD_TABLE as T
from tracker.perception.params import DEFAULT as PERCEPTION_DEFAULTS
from tracker.synth import randomise
from tracker.synth.randomise import draw
from tracker.synth.render import Renderer, RenderStyle
from tracker.synth.shadows import darkening

R = T.ball_radius


# ---------------------------------------------------------------------- the shadows
def test_a_lamp_casts_the_shadow_away_from_itself_as_far_as_its_height_says():
    """One small lamp 1 m above the cloth and 1.2 m to one side of a ball: the shadow's
    darkness-weighted middle lies on the line from the lamp's foot through the ball, beyond the
    ball, where the ray from the lamp through the ball's centre meets the cloth (within 2 mm;
    the ellipse's middle lies a little past that point); a lamp twice as high casts it nearer;
    its umbra hides the whole lamp (darkening 1)."""
    centre = np.array([900.0, 1800.0, R])
    xs, ys = np.meshgrid(np.arange(800.0, 1000.0, 0.5), np.arange(1700.0, 1900.0, 0.5))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    offsets = []
    for h in (1000.0, 2000.0):
        lamp = np.array([[centre[0] - 1200.0, centre[1], h]])
        d = darkening(pts, centre, lamp, R, 10.0, 1400.0)
        mid = (pts * d[:, None]).sum(0) / d.sum()
        expect = lamp[0, :2] + (centre[:2] - lamp[0, :2]) * h / (h - R)
        assert mid[1] == pytest.approx(centre[1], abs=0.5)
        assert 0.0 <= mid[0] - expect[0] < 2.0
        assert d.max() == pytest.approx(1.0)
        offsets.append(mid[0] - centre[0])
    assert offsets[0] > 1.8 * offsets[1] > 0


def test_cast_shadows_darken_the_cloth_beside_the_ball_and_nothing_else():
    """Rendered: with ``cast_shadow`` the cloth on the side away from the one lamp darkens
    (by about the strength asked, in the umbra), the side toward it does not; the rails
    beyond the cushion never do (a ball against the cushion, its lamp across the table)."""
    cam = CameraModel.overhead(T.length, T.width, image_size=(1280, 720))
    ball = (600.0, 1800.0)
    lamp = ((0.9, 0.5, 600.0),)  # 1 m to the right, low: the shadow reaches 1.9 R left
    flat = RenderStyle(seed=1, noise_sigma=0.0, lamps=lamp)
    shade = dataclasses.replace(flat, cast_shadow=0.5, lamp_size_mm=20.0)
    a = Renderer(cam, T, flat).render({"white": ball}).astype(float)
    b = Renderer(cam, T, shade).render({"white": ball}).astype(float)
    sides = np.array([[ball[0] - 1.6 * R, ball[1], 0.0], [ball[0] + 1.6 * R, ball[1], 0.0]])
    (bx, by), (nx, ny) = cam.project(sides).round().astype(int)
    assert b[by, bx].sum() / a[by, bx].sum() == pytest.approx(0.5, abs=0.08)
    assert np.array_equal(a[ny, nx], b[ny, nx])
    # a ball against the left cushion, its lamp far right: the shadow reaches the rail's line
    edge = {"white": (R + 1.0, 1800.0)}
    r2 = Renderer(cam, T, shade)
    a2 = Renderer(cam, T, flat).render(edge).astype(float)
    b2 = r2.render(edge).astype(float)
    changed = np.abs(a2 - b2).sum(-1) > 0
    assert changed.any() and r2.cloth_px[changed].all()


def test_stock_styles_have_no_cast_shadows_and_render_as_before():
    """The defaults add nothing: a style asking for no cast shadows renders byte for byte
    the same whatever its shadow softness and greyness (the shadow code is not run), and the
    stock colours stay when no ball colour is replaced."""
    cam = CameraModel.overhead(T.length, T.width, image_size=(640, 360))
    base = Renderer(cam, T, RenderStyle(seed=2)).render(cue_ball_layout())
    other = Renderer(cam, T, RenderStyle(seed=2, lamp_size_mm=900.0, shadow_grey=1.0, ball_rgb=())
                     ).render(cue_ball_layout())
    assert np.array_equal(base, other)
    assert RenderStyle().cast_shadow == 0.0


# ---------------------------------------------------------------------- the draws
def test_the_faults_leave_a_seeds_camera_look_and_players_as_they_were():
    """The faults come from a stream of their own: with or without them (or forcing one),
    a seed's camera, outfit and every style field the faults do not set are the same."""
    fault_fields = {"cast_shadow", "lamp_size_mm", "shadow_grey", "ball_rgb", "fitting_rgb", "specular",
                    "projected_rings", "lamps", "ambient", "lamp_strength", "cloth_rgb"}
    for seed, kind in ((0, "overhead"), (4, "tv"), (9, "overhead")):
        plain = draw(seed, kind, faults=False)
        for d in (draw(seed, kind), draw(seed, kind, low_contrast=True, projector=True)):
            assert np.allclose(d.camera.R, plain.camera.R) and d.outfit == plain.outfit
            for f in dataclasses.fields(RenderStyle):
                if f.name not in fault_fields:
                    assert getattr(d.style, f.name) == getattr(plain.style, f.name), f.name
        assert plain.style.cast_shadow == 0.0 and plain.style.ball_rgb == ()
        assert draw(seed, kind).style.cast_shadow >= randomise.CAST_SHADOW[0]


def test_each_fault_is_drawn_about_as_often_as_its_chance():
    """Over 800 draws (both camera kinds) each fault appears near its chance (within 0.06,
    three standard errors; the low-contrast green on the green and blue-green cloths only: a
    green nearly a blue cloth's colour would be a blue)."""
    n = 800
    seen: Counter[str] = Counter()
    greenish = 0
    for seed in range(n // 2):
        for kind in ("overhead", "tv"):
            d = draw(seed, kind)
            for name in d.about["faults"].split("+"):
                seen[name] += 1
            greenish += d.about["cloth"] != "tournament blue"
    for name, chance, of in (("projector light", randomise.PROJECTOR_CHANCE, n),
                             ("navy blue", randomise.NAVY_CHANCE, n),
                             ("dark fittings", randomise.DARK_FITTINGS_CHANCE, n),
                             ("blown highlights", randomise.BLOWN_HIGHLIGHT_CHANCE, n),
                             ("projected rings", randomise.PROJECTED_RINGS_CHANCE, n),
                             ("low-contrast green", randomise.LOW_CONTRAST_CHANCE, greenish)):
        assert seen[name] / of == pytest.approx(chance, abs=0.06), name


# ---------------------------------------------------------------------- what it predicts
def test_the_world_predicts_the_labs_green_pulled_toward_its_shadow_and_the_fit_fixing_it():
    """The lab's fault, predicted: the first cases of ``bench/low_contrast.py`` (the harder
    world's overhead draws of seeds 0-3 under a projector's light, the green nearly the cloth's
    colour; seed 2's blue cloth has none) are each a low-contrast ball as the detector judges
    it (share under LOW_CONTRAST_SHARE: the lab's greens 0.07-0.60), found with and without
    the disc fit; without it the centroid is pulled toward the cast shadow at least as far as
    the lab's (median 0.2 radii or more; the lab: 0.23), the fit at least halves that (the lab:
    0.06). Measured: 0.27 without, 0.11 with. Fails with the shadows off (``cast_shadow`` 0:
    0.11 without) or the fit broken."""
    from bench.low_contrast import measure

    res = measure([0, 1, 2, 3])
    assert [r["seed"] for r in res["rows"]] == [0, 1, 3]
    share = PERCEPTION_DEFAULTS.refine.low_contrast_share
    assert all(r["with"]["share"] < share for r in res["rows"])
    assert res["without"]["found"] == res["with"]["found"] == 3
    assert res["without"]["median_radii"] >= 0.2
    assert res["with"]["median_radii"] <= 0.5 * res["without"]["median_radii"]


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a prediction of the harder world, not fixed: the green "
                   "is placed on its shadow")
def test_a_green_beside_its_long_cast_shadow_is_placed_on_the_ball():
    """Draw 0 with its real faults: one lamp 1 m above the cloth, 1.5 m from the green's spot,
    casts the stock green's shadow 1.5 radii beside it, dark (the cloth there at 0.41 of its
    light) and greenish-grey. The detector's green is the shadow (10 px off, 43 mm), the ball
    itself is lost: the lab's fault (its teal green pulled toward its grey shadow) at full
    strength. Marked as expected to fail (strict: it fails the run once the detector places
    the green right, so the mark is then taken off)."""
    d = draw(0, "overhead", low_contrast=False)
    img = Renderer(d.camera, T, d.style).render(cue_ball_layout())
    det = exact_camera_detector(d.camera, img)
    dist, cls = nearest_detection(det.detect(img), T.spots["green"])
    assert dist < 12.0 and cls == "green"


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a prediction of the harder world, not fixed: rings "
                   "seen at an angle are found as balls")
def test_projected_rings_seen_from_a_tv_angle_are_no_balls():
    """Draw 1 (TV, 25 degrees up) with its real faults: eight rings projected on the bare
    cloth (the lab's projector; the lab's camera looks straight down). Seen at a low angle
    they are squashed ellipses whose crossings and near sides are ball-sized: 7 balls are
    found on bare cloth. Expected to fail (strict) until the detector refuses them."""
    d = draw(1, "tv")
    assert d.style.projected_rings > 0
    img = Renderer(d.camera, T, d.style).render({})
    det = exact_camera_detector(d.camera, img, colours=False)
    assert len(det.detect(img)) == 0


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a prediction of the harder world, not fixed: under hard "
                   "directional light the disc fit can move a green further off")
def test_the_disc_fit_never_moves_a_green_further_than_its_centroid_under_the_draws_own_lamps():
    """``bench/low_contrast.py 20 --any-light``: the low-contrast green under each draw's own
    lamps (not the projector's even light), its lit side bright, its far side dark beside its
    shadow. The fit helps under the projector (0.35 -> 0.11 radii, median of 8) but not here
    (0.21 -> 0.24 of 11), and on seeds 10, 16 and 18 moves the green 0.75-0.95 radii off where
    the centroid had it 0.15-0.34 off. Seed 16 (three lamps along, 0.34 -> 0.95) is this test;
    expected to fail (strict) until the fit holds there."""
    from bench.low_contrast import case, place_green

    c = case(16, projector=None)
    without, with_fit = place_green(c, False), place_green(c, True)
    assert np.isfinite(without["error_radii"])
    assert with_fit["error_radii"] <= without["error_radii"] + 0.05


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="a prediction of the harder world, not fixed: a cue ball blown white "
                   "under eight lamps reads pink")
def test_under_blown_highlights_the_cue_ball_still_reads_white():
    """Draw 5 (overhead, tournament blue cloth, a canopy of eight lamps) with its real faults:
    highlights 2.9 bright (blown highlights; stock 0.9). The cue ball is found where it is
    but read as pink, like the pink beside it (with the stock highlights and the same
    shadows it reads white; ``tests/test_blown_highlights.py`` has the pink's side of this,
    on the draw without the faults). Expected to fail (strict) until it reads white."""
    d = draw(5, "overhead")
    assert d.style.specular > 2.0
    layout = cue_ball_layout()
    img = Renderer(d.camera, T, d.style).render(layout, noise_index=0)
    det = exact_camera_detector(d.camera, img)
    found = det.detect(img)
    dist, cls = nearest_detection(found, layout["white"])
    assert dist < 10.0 and cls == "white"
