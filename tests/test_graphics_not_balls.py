"""Figures of a score bar laid over the table are not balls (the harder world's overhead draw 5:
white figures on a box of about the cloth's colour, over the bed near a cushion, were found as
white balls; the cue ball's colour was then learned from them and no stroke was found)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from bench.common import true_profile
from calibration.table import STANDARD_TABLE as T
from tracker.perception import params as P
from tracker.perception.detect import CLASSES, BallDetector
from tracker.rules.snooker import SnookerRules
from tracker.synth.randomise import draw
from tracker.synth.render import Renderer


def _with_figures():
    """A rendered rack with the cue ball in the D, and white figures written on the cloth
    across the bed near the far cushion (ball-high strokes, each figure smaller than a ball)."""
    d = draw(5, "overhead", faults=False)
    cal = true_profile(d.camera, T)
    layout = SnookerRules().setup_positions()
    layout["white"] = (1000.0, 600.0)
    img = Renderer(d.camera, T, d.style).render(layout, noise_index=0)
    corners = cal.to_image(np.array([[300.0, 3300.0], [1100.0, 3300.0]]), 0.0)
    (x0, y0), (x1, y1) = corners
    box = (int(min(x0, x1)), int(min(y0, y1)) - 12)
    r_px = float(np.median(BallDetector(cal).radius_at(corners)))
    scale = 2.2 * r_px / 22.0  # figures about 1.1 ball diameters high
    written = img.copy()
    cv2.putText(written, "(5) 4 (4)", box, cv2.FONT_HERSHEY_SIMPLEX, scale, (250, 250, 250),
                max(1, int(round(0.35 * r_px))), cv2.LINE_AA)
    size, _ = cv2.getTextSize("(5) 4 (4)", cv2.FONT_HERSHEY_SIMPLEX, scale,
                              max(1, int(round(0.35 * r_px))))
    text = (box[0], box[1] - size[1], box[0] + size[0], box[1] + 4)
    return cal, img, written, text


def _found(cal, img, written):
    det = BallDetector(cal)
    det.learn_cloth(img)
    det.learn_colours([written])
    return det.detect(written)


def _in_box(px, box):
    x0, y0, x1, y1 = box
    return (px[:, 0] >= x0) & (px[:, 0] <= x1) & (px[:, 1] >= y0) & (px[:, 1] <= y1)


def test_figures_written_over_the_bed_are_not_balls_and_the_cue_ball_is_still_white():
    cal, img, written, text = _with_figures()
    found = _found(cal, img, written)
    assert not _in_box(found.px, text).any()
    cue = np.linalg.norm(found.mm - [1000.0, 600.0], axis=1)
    assert cue.min() < 10.0 and CLASSES[found.cls[int(np.argmin(cue))]] == "white"
    # ... and everything else as found on the picture without them
    clean = _found(cal, img, img)
    assert len(found) == len(clean)
    assert np.abs(np.sort(found.mm, axis=0) - np.sort(clean.mm, axis=0)).max() < 1.0


def test_without_the_figures_rule_they_are_found_as_balls(monkeypatch):
    """The rule is what drops them: with it off, figures are found inside the text."""
    fg = replace(P.DEFAULT.foreground, glyph_light_share=2.0)  # no blob can reach it
    monkeypatch.setattr(P, "DEFAULT", replace(P.DEFAULT, foreground=fg))
    cal, img, written, text = _with_figures()
    found = _found(cal, img, written)
    if not _in_box(found.px, text).any():
        pytest.fail("the figures were not found even without the rule: the test shows nothing")
