"""Whether a calibration profile given to a run fits the video's picture
(:func:`profile_fit_share`, :func:`check_profile_fits`).

A profile made for another camera or another table, of the same picture size, loads without
fault and would be refereed through: balls placed where they are not, most of them not seen,
calls that are wrong without a word. So the profile's bed (the playing area inside the cushion
noses) is drawn into the start's pictures and laid over the cloth seen there: the largest
region of the cloth's colour (the colour taken from the middle of the bed the profile draws,
within the tolerances of :func:`calibration.monitor.cloth_pixels`). The share is their
intersection over their union: about 0.9 for a profile of the picture's own camera (the
cushions' cloth lies outside the bed), about 0.5 for a camera of another view of the same
table (the bundled samples' overhead and TV cameras swapped). Below
:attr:`ProfileFitParams.min_share` on every picture looked at, the run is refused in one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.monitor import cloth_hsv, cloth_pixels, outline_px
from calibration.profile import Calibration


@dataclass(frozen=True)
class ProfileFitParams:
    """How a given profile is checked against the picture.

    Attributes:
        work_width: the picture is scaled to this width first, px.
        edge_points: points along each side of the bed drawn through the profile (its lens's
            distortion bends the sides).
        centre_share: the cloth's colour is the median of the bed's middle, this share of its
            size about its centre.
        close_px: gaps in the cloth (the balls, the lines, a cue) up to this size are closed
            before its largest region is taken, px at ``work_width``.
        min_share: the profile fits when the bed and the cloth overlap at least this much
            (intersection over union) on one of the pictures looked at. Chosen on the
            bundled samples (0.91 with their own cameras, 0.50-0.53 with the overhead and TV
            cameras swapped) and checked on development units (docs/ACCURACY.md, "A live
            pipe under load, sizes, bad input to process (branch sturdy)"): the real clips'
            own start calibrations 0.83-0.90, synthetic stills' own cameras 0.85-0.92. Only a
            camera of another kind of view is caught: another draw of the same kind of camera
            often fits 0.7-0.9.
    """

    work_width: int = 640
    edge_points: int = 40
    centre_share: float = 0.5
    close_px: int = 5
    min_share: float = 0.7


#: How a given profile is checked against the picture.
PROFILE_FIT = ProfileFitParams()


class ProfileDoesNotFit(ValueError):
    """The profile given does not fit the video's picture; the message says so and what to do."""


def _bed_outline(cal: Calibration, shrink: float, n: int) -> np.ndarray:
    """The bed's outline drawn through ``cal`` (4n, 2) px, shrunk about the bed's centre by
    ``shrink`` (1: the whole bed)."""
    t = cal.table
    corners = np.array([[0.0, 0.0], [t.width, 0.0], [t.width, t.length], [0.0, t.length]])
    centre = corners.mean(axis=0)
    return outline_px(cal, centre + shrink * (corners - centre), 0.0, n)


def _polygon_mask(shape: tuple[int, int], px: np.ndarray, width: int) -> np.ndarray:
    """A 0/1 mask of ``shape`` inside the polygon ``px`` (points far outside the picture are
    held a few picture widths out, so a bed drawn behind the camera stays a polygon)."""
    mask = np.zeros(shape, np.uint8)
    held = np.clip(np.nan_to_num(px, nan=-4.0 * width), -4 * width, 5 * width)
    cv2.fillPoly(mask, [np.round(held).astype(np.int32)], 1)
    return mask


def profile_fit_share(cal: Calibration, image: np.ndarray,
                      params: ProfileFitParams = PROFILE_FIT) -> float:
    """How well ``cal``'s bed lies on the cloth of ``image`` (BGR, the profile's size):
    intersection over union of the bed drawn through the profile and the largest region of
    the cloth's colour, 0..1 (see the module docstring)."""
    h, w = image.shape[:2]
    k = params.work_width / w
    small = cv2.resize(image, (params.work_width, max(1, int(round(h * k)))),
                       interpolation=cv2.INTER_AREA)
    bed = _polygon_mask(small.shape[:2], _bed_outline(cal, 1.0, params.edge_points) * k,
                        params.work_width).astype(bool)
    middle = _polygon_mask(small.shape[:2], _bed_outline(cal, params.centre_share,
                                                         params.edge_points) * k,
                           params.work_width).astype(bool)
    if not bed.any() or middle.sum() < 50:
        return 0.0  # the profile puts the table outside the picture
    cloth = cloth_pixels(small, cloth_hsv([small], middle))
    cloth = cv2.morphologyEx(cloth, cv2.MORPH_CLOSE, np.ones((params.close_px,) * 2, np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(cloth)
    if n < 2:
        return 0.0
    region = labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return float((bed & region).sum() / (bed | region).sum())


def check_profile_fits(cal: Calibration, images: Sequence[np.ndarray], name: str,
                       params: ProfileFitParams = PROFILE_FIT) -> float:
    """The best :func:`profile_fit_share` of ``cal`` over ``images`` (the start's pictures:
    a player over the table in one hides less in another).

    Raises:
        ProfileDoesNotFit: below ``params.min_share`` on every picture (``name``: the video's).
    """
    best = max((profile_fit_share(cal, img, params) for img in images), default=0.0)
    if best < params.min_share:
        raise ProfileDoesNotFit(
            f"{name}: the calibration profile does not fit this video's picture (the table it "
            f"describes and the cloth seen overlap {100 * best:.0f} %, a fitting profile's about "
            "90 %): it "
            "was made for another camera or another table; calibrate this video (snooker-tracker "
            "calibrate VIDEO --out PROFILE) or leave --calibration out")
    return best
