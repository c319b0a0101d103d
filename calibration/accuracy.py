"""How good an automatic calibration is: the cushion fit (mm), the markings held out of the
fit (the profile's ``accuracy``), and the words the user reads about it.

Moved out of :mod:`calibration.auto` (which re-exports every name) so that
:mod:`calibration.multiframe` can measure a camera fitted over many frames the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from calibration.finder import MAX_FIT_ERROR_MM, TableNotFound
from calibration.focal import focal_check, focal_spread
from calibration.markings import (
    POOR_MAX_MM,
    POOR_MEDIAN_MM,
    Markings,
    assign_faces,
    holdout,
    marking_errors,
)
from calibration.table import (
    STANDARD_BAULK_LINE_MM,
    STANDARD_BLACK_FROM_TOP_MM,
    STANDARD_D_RADIUS_MM,
    TableGeometry,
)

#: The markings only check the cushion-fitted camera (it is kept) when they lie within this
#: distance of the table's (median, mm): their own reading is about that precise (3.0 with the
#: detector's ball centres; docs/ACCURACY.md "Spot balls at their outline's centre").
MARKINGS_AGREE_MM = 1.5
#: ... on a table whose markings were scaled from the full-size table's (``--table-size``),
#: plus this fraction of its length: where the maker of a smaller table drew its baulk line
#: and D is not known to the mm (a lab table of 1881 mm: baulk line 3-4 mm, D radius 3 mm from
#: the scaled places, read through projected rings and balls to 7-11 mm).
SCALED_MARKINGS_FRACTION = 0.005


@dataclass(frozen=True)
class VerdictParams:
    """How the profile's reported figure (``accuracy.reported_mm``) and its verdict
    (``accuracy.poor``) are made from what was measured (:func:`judge`).

    The markings held out of the fit lie along the table's long centre line and on the baulk
    line, and a TV camera stands behind one end on that line: a focal length traded against
    the camera's distance, or a cushion edge read a few millimetres off its nose that bends
    the fit, moves the whole bed while those markings stay put. On the development TV clips
    and stills (seeds 0-5 and 20-35, 20-45 degree lenses) the ball grid over the bed was up to
    2.7 times as far off as the held-out markings said (6.9 mm against 2.6). The cameras the
    picture cannot tell apart (:func:`calibration.focal.focal_check`, the focal length
    either side of the fitted one) show it: the reported figure adds their spread.

    Attributes:
        focal_share: share of the focal check's ball uncertainty (median over the bed, mm)
            counted in the reported figure where the focal length was fitted. 0.5: on those
            development clips and stills, the held-out median and half the uncertainty
            (root of the sum of squares) was never below 0.7 of the truth (the held-out
            median alone: down to 0.38), and at most 2.7 times above it.
        spread_share: share of the spread over plausible lenses
            (:func:`calibration.focal.focal_spread`) counted where the focal length was
            assumed (a lens error shows at the table's ends, about a third of it at a typical
            ball).
        poor_mm: a held-out median above this (mm) makes the calibration poor
            (:data:`calibration.markings.POOR_MEDIAN_MM`); a reported figure above it, a
            warning (``poor_lens``).
    """

    focal_share: float = 0.5
    spread_share: float = 1.0 / 3.0
    poor_mm: float = POOR_MEDIAN_MM


#: The verdict's tunables.
VERDICT = VerdictParams()


def fit_ok(fit: dict[str, float], table: TableGeometry) -> bool:
    """Whether :func:`check_fit` passes ``fit``."""
    try:
        check_fit(fit, table)
    except TableNotFound:
        return False
    return True


def check_fit(fit: dict[str, float], table: TableGeometry) -> None:
    """Refuse a camera whose cushion lines miss the table model (mm, :func:`cushion_fit`)."""
    if fit["median"] > MAX_FIT_ERROR_MM:
        raise TableNotFound(f"the cushion lines do not fit a table of {table.length:.0f} x "
                            f"{table.width:.0f} mm (median {fit['median']:.0f} mm off); check "
                            "--table-size or give the corners by hand (calibrate --points)")
    if fit["worst_side"] > 2 * MAX_FIT_ERROR_MM:
        raise TableNotFound(f"one cushion line is {fit['worst_side']:.0f} mm off the table model "
                            "while the others fit: it is hidden or misread (a projected ring, a "
                            "cue along it); use another frame, or give the corners by hand "
                            "(calibrate --points)")


def cushion_fit(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry) -> dict[str, float]:
    """Fit error (mm) of a camera: the cushion-edge points (one (N, 2) px array per side)
    mapped to the nose plane, their distance to the nearest cushion face: median, max, count,
    and the worst side's own median (the overall median can hide one side, such as a near
    cushion under a score bar, that a refit outvoted)."""
    errs, sides = [], []
    for e in edges:
        pts = cam.image_to_plane(e, table.cushion_height)
        d = np.minimum.reduce([np.abs(pts[:, 0]), np.abs(pts[:, 0] - table.width),
                               np.abs(pts[:, 1]), np.abs(pts[:, 1] - table.length)])
        errs.extend(d.tolist())
        sides.append(float(np.median(d)))
    errs_a = np.array(errs)
    return {"median": round(float(np.median(errs_a)), 2), "max": round(float(errs_a.max()), 2),
            "n": len(errs_a), "worst_side": round(max(sides), 2)}


def side_errors(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry) -> list[float]:
    """Median distance (mm) of each side's edge points from its cushion face under ``cam``."""
    faces = [(0, 0.0), (0, table.width), (1, 0.0), (1, table.length)]
    out = []
    for e, k in zip(edges, assign_faces(cam, edges, table), strict=True):
        on = cam.image_to_plane(e, table.cushion_height)
        ax, v = faces[k]
        out.append(float(np.median(np.abs(on[:, ax] - v))))
    return out


def markings_agree_mm(table: TableGeometry) -> float:
    """How near (mm, median) the markings must lie to where the cushion-fitted camera puts
    them for that camera to be kept: :data:`MARKINGS_AGREE_MM` on a table with the standard
    markings; more by :data:`SCALED_MARKINGS_FRACTION` of the length where they were scaled
    from the full-size table's (a table of another size: where its maker drew them is not known to the mm)."""
    standard = (table.baulk_line == STANDARD_BAULK_LINE_MM and table.d_radius == STANDARD_D_RADIUS_MM
                and table.black_from_top == STANDARD_BLACK_FROM_TOP_MM)
    return MARKINGS_AGREE_MM if standard else MARKINGS_AGREE_MM + SCALED_MARKINGS_FRACTION * table.length


def measure_accuracy(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                     kn: tuple[float, float], marks: Markings, fit_focal: bool,
                     side_w: list[float], fitted: bool = True) -> dict[str, Any]:
    """The profile's ``accuracy``: the hold-out errors of the markings (each left out of the
    fit in turn, mm; where the camera was not fitted to the markings, their errors under it:
    the fit never saw them), which markings were found, the spread over plausible lenses
    where the focal length was assumed, and the figure to report with a verdict."""
    if not marks.groups:
        held = {}
    elif fitted:
        held = holdout(cam, edges, table, kn, marks, fit_focal, side_w)
    else:
        held = marking_errors(cam, table, marks)
    acc: dict[str, Any] = {"markings": marks.summary(), "fitted_to_markings": fitted,
                           "holdout_mm": {k: round(v, 1) for k, v in held.items()}}
    if held:
        vals = np.array(list(held.values()))
        acc["holdout_median_mm"] = round(float(np.median(vals)), 1)
        acc["holdout_max_mm"] = round(float(vals.max()), 1)
    else:
        acc["holdout_median_mm"] = acc["holdout_max_mm"] = None
    acc["independent"] = bool(held)
    acc["focal_spread_mm"] = None if fit_focal else focal_spread(cam, edges, table, kn, marks, side_w)
    if fit_focal:
        acc["focal"] = focal_check(cam, edges, table, kn, marks, side_w)
    return judge(acc, table)


def judge(acc: dict[str, Any], table: TableGeometry, p: VerdictParams = VERDICT) -> dict[str, Any]:
    """``acc`` (the profile's ``accuracy`` with its held-out markings, ``focal_spread_mm`` and
    ``focal`` measured) with its reported figure and verdict set: ``reported_mm``, the root of
    the sum of squares of the held-out median and the lens's share (:class:`VerdictParams`);
    ``poor`` where the held-out median is above ``p.poor_mm`` or the worst held-out marking
    above :data:`calibration.markings.POOR_MAX_MM` (each plus the slack of a table whose
    markings were scaled); ``poor_lens`` (a warning in words, not the verdict) where the
    reported figure alone is above ``p.poor_mm``. Returns ``acc``."""
    base = acc.get("holdout_median_mm")
    spread = (acc.get("focal_spread_mm") or 0.0) * p.spread_share
    focal = ((acc.get("focal") or {}).get("uncertain_mm") or 0.0) * p.focal_share
    acc["reported_mm"] = None if base is None else round(float(math.hypot(base, spread, focal)), 1)
    # a table of another size: its markings were placed by scaling the full-size table's, and
    # where its maker drew them is known only to about this much; the figure is an upper bound
    slack = markings_agree_mm(table) - MARKINGS_AGREE_MM
    acc["markings_scaled"] = slack > 0
    held = bool(acc.get("independent"))
    by_markings = held and (base > p.poor_mm + slack or acc["holdout_max_mm"] > POOR_MAX_MM + slack)
    by_lens = held and not by_markings and acc["reported_mm"] > p.poor_mm + slack
    acc["poor"] = bool(by_markings)
    # a warning only: letting it call the calibration poor (its second chance, the frames
    # preferred over it) refused 3 real broadcast stills and called 12 more poor
    # (docs/ACCURACY.md, "The TV camera's self-check against what its markings cannot see")
    acc["poor_lens"] = bool(by_lens)
    return acc


def accuracy_notes(acc: dict[str, Any]) -> list[str]:
    """What the user should read about the accuracy, in words."""
    if not acc.get("independent"):
        return ["no table markings found (baulk line, D, colours on their spots): the accuracy "
                "could not be checked independently; the cushion fit error is not an accuracy"]
    n = len(acc["holdout_mm"])
    text = (f"markings held out of the fit ({n}) land {acc['holdout_median_mm']:.1f} mm (median), "
            f"{acc['holdout_max_mm']:.1f} mm (worst) from where the table has them")
    if acc.get("markings_scaled"):
        text += ("; this table's markings were scaled from the full-size table's, and where its "
                 "maker drew them is not known to the mm: an upper bound")
    if acc.get("poor_lens"):
        text += (f"; but this view does not pin the lens's zoom down against the camera's "
                 f"distance, so balls may be about {acc['reported_mm']:.0f} mm off")
    if acc["poor"]:
        return [f"WARNING: poor calibration: {text}; check the rectified picture, try another "
                "frame or give --points"]
    if acc.get("poor_lens"):
        return [f"WARNING: the calibration may be poor: {text}; check the rectified picture or "
                "give --hfov"]
    return [text]
