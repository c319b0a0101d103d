"""Which frame's calibration a clip keeps (calibration.auto.calibrate_best) when some frames'
calibrations are second-chance refits (issue 31): a refit, fitted to three cushion sides and
checked by markings that may all lie at the other end, wins only where no frame gave a first
fit that is not poor (real broadcast clip 11: a refit put the near cushion 100 mm out)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import calibration.auto as auto
from calibration.table import STANDARD_TABLE as T


def _cal(median_mm: float, poor: bool = False, refit: bool = False) -> SimpleNamespace:
    accuracy = {"poor": poor, **({"second_chance": {"first_holdout_median_mm": 27.0}} if refit else {})}
    return SimpleNamespace(fit_error_mm={"median": median_mm}, accuracy=accuracy)


def _best(monkeypatch: pytest.MonkeyPatch, cals: list[SimpleNamespace]) -> SimpleNamespace:
    """calibrate_best over one stand-in frame per calibration, each frame 'calibrating' to it."""
    frames = [np.full((4, 4, 3), i, np.uint8) for i in range(len(cals))]
    monkeypatch.setattr(auto, "calibrate_image", lambda img, table, **kw: cals[int(img[0, 0, 0])])
    return auto.calibrate_best(frames, T)


def test_refit_loses_to_a_sound_first_fit_with_a_larger_cushion_error(monkeypatch):
    whole, refit = _cal(0.87), _cal(0.62, refit=True)
    assert _best(monkeypatch, [refit, whole]) is whole


def test_refit_kept_where_every_first_fit_is_poor(monkeypatch):
    refit = _cal(0.9, refit=True)
    assert _best(monkeypatch, [_cal(0.5, poor=True), refit, _cal(0.7, poor=True)]) is refit


def test_without_refits_the_best_cushion_fit_wins_poor_or_not(monkeypatch):
    # the choice as it always was when no second chance ran
    poor_but_tight = _cal(0.4, poor=True)
    assert _best(monkeypatch, [_cal(0.8), poor_but_tight, _cal(0.6)]) is poor_but_tight
