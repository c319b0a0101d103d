"""Cast shadows beside balls are not balls (issue 31: the harder world's overhead draw 0, one
lamp off to a side, shadow 0.59: the brown's and the yellow's shadows were found as balls,
read as the green and the white, and the cue ball's place went to the yellow's shadow; no
stroke of that clip was found)."""

from __future__ import annotations

import cv2
import numpy as np

from bench.common import true_profile
from calibration.table import STANDARD_TABLE as T
from tracker.perception.castshadow import highlights, shadow_coloured
from tracker.perception.detect import CLASSES, BallDetector
from tracker.perception.params import CastShadowParams, DetectorParams
from tracker.rules.snooker import SnookerRules
from tracker.synth.randomise import draw
from tracker.synth.render import Renderer

WHITE_AT = (1000.0, 600.0)


#: the stage switched on (off in the product since the lead's merge: see CastShadowParams)
ON = DetectorParams(shadows=CastShadowParams(enabled=True))


def _still(params: DetectorParams = ON):
    """(detector with the cloth and colours learned, picture, true layout) of overhead draw 0
    with its cast shadows, the opening layout and the cue ball in the baulk area."""
    d = draw(0, "overhead", faults=True)
    layout = SnookerRules().setup_positions()
    layout["white"] = WHITE_AT
    img = Renderer(d.camera, T, d.style).render(layout, noise_index=0)
    det = BallDetector(true_profile(d.camera, T), params=params)
    det.learn_cloth(img)
    det.learn_colours([img])
    return det, img, layout


def _stray(det: BallDetector, img: np.ndarray, layout: dict) -> list[str]:
    """Detections farther than 1.5 ball radii from every ball (class names): a cast shadow's
    centre lies about 1.8 radii from its ball's (the green, found by its highlight beside its
    shadow, is placed up to 1.3 radii off: its body is the cloth's colour)."""
    found = det.detect(img)
    true = np.array(list(layout.values()))
    far = np.linalg.norm(found.mm[:, None] - true[None], axis=2).min(1) > 1.5 * T.ball_radius
    return [CLASSES[c] for c in found.cls[far]]


def test_no_ball_is_found_in_a_cast_shadow_and_the_cue_ball_reads_white():
    det, img, layout = _still()
    assert _stray(det, img, layout) == []
    found = det.detect(img)
    white = found.mm[found.cls == CLASSES.index("white")]
    assert len(white) == 1 and np.linalg.norm(white[0] - WHITE_AT) < T.ball_radius


def test_with_the_shadows_left_in_they_are_found_as_balls():
    """What the test above guards against (the shadows' removal switched off)."""
    off = DetectorParams(shadows=CastShadowParams(enabled=False))
    det, img, layout = _still(off)
    assert len(_stray(det, img, layout)) >= 2


def _lab(bgr: list[tuple[int, int, int]]) -> tuple[np.ndarray, ...]:
    px = np.array(bgr, np.uint8).reshape(1, -1, 3)
    return tuple(c.astype(np.int16) for c in cv2.split(cv2.cvtColor(px, cv2.COLOR_BGR2LAB)))


def test_shadow_colour_is_the_cloths_darkened_not_a_ball_colour():
    """Pixels measured in the clip: the cloth (42, 132, 20) BGR; shadows beside the brown,
    the yellow and the white; the green ball's body; the black; a yellow, a red, a brown."""
    cloth = (42, 132, 20)
    shadows = [(18, 40, 10), (14, 38, 17), (19, 35, 23), (10, 38, 20)]
    balls = [(4, 12, 12), (30, 200, 230), (30, 30, 170), (40, 70, 120), (200, 200, 200)]
    px = shadows + [(36, 92, 15)] + balls
    got = shadow_coloured(_lab(px), _lab([cloth] * len(px)), CastShadowParams())[0]
    assert got[:4].all()  # every shadow
    assert got[4]  # the green's body is darkened cloth too: only its highlight tells
    assert not got[5:].any()  # black, yellow, red, brown, white


def test_a_highlight_is_a_compact_bright_spot_not_a_chalk_line():
    grey = np.full((40, 60, 3), 60, np.uint8)
    cv2.circle(grey, (15, 20), 2, (250, 250, 250), -1)  # a ball's specular highlight
    grey[:, 45:47] = 200  # a chalk line, as bright over the cloth
    found = highlights(grey, (0, 0, 60, 40), cloth_l=70.0, r=7.0, params=CastShadowParams())
    assert len(found) == 1 and np.linalg.norm(found[0] - (15, 20)) <= 2.0


def test_a_dark_ball_round_its_lighter_number_is_no_shadow():
    """A pool 8 on a light cloth (real pool still, game1_clip3) is the cloth's hue darkened
    all round its number, with no highlight: its dark pixels are centred on the number, not
    beside it, so they stay (``beside_radii``); with that rule off it is lost."""
    at = np.array([[300.0, 1500.0]])  # an empty place on the bed, mm

    def found(params: DetectorParams) -> bool:
        det, img, _ = _still(params)
        c = det.view.cal.to_image(at, T.ball_radius)[0]
        r = det.r_px
        cv2.circle(img, (int(c[0]), int(c[1])), int(round(r)), (13, 40, 6), -1)  # the cloth x 0.3
        cv2.circle(img, (int(c[0]), int(c[1])), int(round(0.45 * r)), (150, 150, 150), -1)
        return bool((np.linalg.norm(det.detect(img).mm - at, axis=1) < T.ball_radius).any())

    assert found(ON)
    assert not found(DetectorParams(shadows=CastShadowParams(enabled=True, beside_radii=0.0)))
