"""Which way round the table is: the four camera poses the table's outline allows (one per
choice of the baulk cushion), narrowed by the outline's shape, then chosen by the baulk line
and the D, and by the colours standing on their spots (see :func:`calibration.auto.calibrate_image`).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.finder import DEFAULT_HFOV_DEG, baulk_evidence, pose_from_homography
from calibration.markings import BallFinder, colour_score, no_balls
from calibration.table import TableGeometry

#: The colours decide which end is baulk when their score (:func:`colour_score`, about one
#: point per colour at its own end) reaches this, and beats the other end's by COLOUR_MARGIN.
COLOUR_DECISIVE = 1.5
COLOUR_MARGIN = 2.0


class PoseCandidate(NamedTuple):
    """One way round the table.

    Attributes:
        evidence: the baulk line and D seen under this pose (:func:`baulk_evidence`).
        short_first: the image sides taken as the short cushions are the shorter pair.
        rot: which image side is the baulk cushion (0-3).
        cam: the camera of this pose.
        focal_ok: the focal length could be estimated (else the field of view is assumed).
    """

    evidence: float
    short_first: bool
    rot: int
    cam: CameraModel
    focal_ok: bool


def table_corners(table: TableGeometry) -> np.ndarray:
    """Playing-area corners (4, 2) mm in the order (0,0), (W,0), (W,L), (0,L)."""
    return np.array([[0, 0], [table.width, 0], [table.width, table.length], [0, table.length]],
                    float)


def side_lengths(corners: np.ndarray) -> list[float]:
    """Length (px) of each side of the outline, side i from corner i to corner i+1."""
    return [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]


def is_oblong(side: list[float]) -> bool:
    """One pair of opposite sides is more than 1.3 times as long as the other on screen."""
    return max(side[0] + side[2], side[1] + side[3]) > 1.3 * min(side[0] + side[2], side[1] + side[3])


def pose_candidates(gray: np.ndarray, corners: np.ndarray, table: TableGeometry,
                    kn: tuple[float, float], hfov_deg: float | None,
                    size: tuple[int, int]) -> list[PoseCandidate]:
    """Each of the four ways round whose camera stands above the table.

    Args:
        gray: the blurred grey image, float32 (h, w).
        corners: (4, 2) undistorted outline corners (px), counter-clockwise on screen.
        table: the table.
        kn: radial distortion normalised by the image width.
        hfov_deg: the field of view assumed when the focal length cannot be estimated.
        size: (w, h) px.
    """
    w, h = size
    model = table_corners(table)
    side = side_lengths(corners)
    oblong = is_oblong(side)
    candidates = []
    for rot in range(4):
        img_pts = np.roll(corners, -rot, axis=0)
        H = cv2.getPerspectiveTransform(model.astype(np.float32), img_pts.astype(np.float32))
        K, R, t, focal_ok = pose_from_homography(H, (w, h), table.cushion_height,
                                                 hfov_deg or DEFAULT_HFOV_DEG)
        ratio = (K[0, 0] / w) ** 2
        cam = CameraModel((w, h), K, np.array([kn[0] * ratio, kn[1] * ratio ** 2, 0, 0, 0]), R, t)
        if cam.centre[2] <= 0:
            continue
        ev = baulk_evidence(gray, cam, table, robust=oblong)
        short_first = (side[rot % 4] + side[(rot + 2) % 4]) < (side[(rot + 1) % 4] + side[(rot + 3) % 4])
        candidates.append(PoseCandidate(ev, short_first, rot, cam, focal_ok))
    return candidates


def _side_angle(corners: np.ndarray, i: int) -> float:
    d = corners[(i + 1) % 4] - corners[i]
    return float(np.arctan2(d[1], d[0]))


def _converge(corners: np.ndarray, i: int) -> float:
    """The angle between opposite sides i and i+2, degrees."""
    a = abs((_side_angle(corners, i) - _side_angle(corners, i + 2) + np.pi) % (2 * np.pi) - np.pi)
    return float(np.degrees(np.pi - a))


def narrow_by_shape(candidates: list[PoseCandidate], corners: np.ndarray) -> list[PoseCandidate]:
    """The candidates the outline's shape allows: a clearly oblong outline fixes which sides
    are the long cushions, else the pair that converges does (a camera at one end); the two
    that agree are kept, and the markings choose the baulk end between them."""
    side = side_lengths(corners)
    long_sum = max(side[0] + side[2], side[1] + side[3])
    short_sum = min(side[0] + side[2], side[1] + side[3])
    along: list[PoseCandidate] = []
    if abs(_converge(corners, 0) - _converge(corners, 1)) > 5.0:
        # a camera at one end looks along the table: the long cushions converge toward a
        # vanishing point while the short ones stay nearly parallel
        long_pair_is_0 = _converge(corners, 0) > _converge(corners, 1)
        # the model's first side (the baulk cushion, short) is image side ``rot``: it must
        # lie on the pair that does not converge (its length on screen says nothing here: the
        # near short cushion can be the longest line in the picture)
        along = [c for c in candidates if (c[2] % 2 == 0) != long_pair_is_0]
    if long_sum > 1.6 * short_sum and any(c[1] for c in candidates):
        by_length = [c for c in candidates if c[1]]
        # a long lens behind one end shortens the long cushions until the short pair is the
        # longer on screen: where the pair that converges gives a camera of one focal length
        # and the longer pair does not (the outline is not a table seen that way), trust it
        if along and any(c.focal_ok for c in along) and not any(c.focal_ok for c in by_length):
            return along
        return by_length
    if along:
        return along
    if long_sum > 1.3 * short_sum and any(c[1] for c in candidates):
        return [c for c in candidates if c[1]]
    return candidates


def pick_by_markings(candidates: list[PoseCandidate], oblong: bool, table: TableGeometry
                     ) -> tuple[int, str, np.ndarray, float]:
    """The candidate the baulk line and D choose: (its index, how the end was decided:
    ``markings``, ``convention`` or ``assumed``, every candidate's evidence, the second best
    evidence)."""
    evs = np.array([c[0] for c in candidates])
    best = int(np.argmax(evs))
    orientation = "markings"
    second = np.sort(evs)[-2] if len(evs) > 1 else 0.0
    along = not oblong and len(candidates) == 2
    conventional = [i for i, c in enumerate(candidates) if c[3].centre[1] > table.length]
    if along and conventional and evs[best] < 2.0 * evs[conventional[0]]:
        # a camera looking along the table from one end: unless the markings clearly say
        # otherwise, it is the TV main camera behind the black-spot end (baulk far away)
        pick = conventional[0]
        orientation = "markings" if conventional[0] == best else "convention"
    elif len(evs) < 2 or evs[best] < 1.25 * second:
        # markings not visible: trust the aspect ratio, baulk end assumed
        shorts = [i for i, c in enumerate(candidates) if c[1]]
        pick = shorts[0] if shorts else 0
        orientation = "assumed"
    else:
        pick = best
    return pick, orientation, evs, second


def pick_by_colours(img: np.ndarray, candidates: list[PoseCandidate], pick: int, orientation: str,
                    evs: np.ndarray, second: float, table: TableGeometry,
                    ball_finder: BallFinder | None
                    ) -> tuple[int, str, list[str], tuple[np.ndarray, list[str]]]:
    """The colours standing on their spots say which end is baulk far more surely than faint
    lines (yellow, brown and green on the baulk line, pink and black at the other end).

    Returns:
        (the candidate chosen, how the end was decided, notes, the balls found: (N, 2) px
        centres and their colour names).
    """
    notes: list[str] = []
    balls = ball_finder(img, candidates[pick][3], table) if ball_finder else no_balls()
    colour = [colour_score(c[3], table, *balls) for c in candidates]
    by_colour = int(np.argmax(colour))
    col_second = sorted(colour)[-2] if len(colour) > 1 else 0.0
    if colour[by_colour] >= COLOUR_DECISIVE and colour[by_colour] - col_second >= COLOUR_MARGIN:
        if by_colour == pick:
            orientation = "markings+colours" if orientation == "markings" else "colours"
        else:
            if orientation == "markings":
                notes.append("the baulk line and D seemed to say the other end is baulk; the colours "
                             "on their spots decided")
            pick, orientation = by_colour, "colours"
    elif orientation == "markings" and len(evs) > 1 and evs[pick] < 2.0 * second and \
            colour[pick] < col_second:
        # faint lines, and the few colours seen lean the other way: do not claim certainty
        orientation = "uncertain"
    return pick, orientation, notes, balls


def orientation_notes(orientation: str, side_w: list[float], hidden: list[bool]) -> list[str]:
    """What the calibration says about how the baulk end was decided and a side left out
    (``hidden``: the sides a score bar hides, :mod:`calibration.graphics`)."""
    notes = []
    if orientation == "convention":
        notes.append("baulk end not clear from the markings: the camera is taken to stand behind "
                     "the black-spot end, as the TV main camera does; check the rectified picture")
    if orientation == "assumed":
        notes.append("baulk line, D and colours on their spots not found: which end is baulk was "
                     "assumed; check the rectified picture")
    if orientation == "uncertain":
        notes.append("which end is baulk is uncertain (faint markings, colours not on their spots): "
                     "check the rectified picture, or give --points")
    if any(hidden):
        notes.append("the cushion nearest the camera (under the score bar, or its edge not clear) "
                     "was left out of the fit: the other cushions and the table's markings place "
                     "the camera")
    elif any(wt == 0 for wt in side_w):
        notes.append("one cushion edge disagreed with the markings and was left out of the fit")
    return notes


def takes_same_end(a: CameraModel, b: CameraModel, table: TableGeometry) -> bool:
    """Whether two cameras of one view take the same end as baulk: the middle of ``a``'s baulk
    cushion lands nearer ``b``'s than ``b``'s top cushion in the picture."""
    ends = np.array([[table.width / 2.0, 0.0, 0.0], [table.width / 2.0, table.length, 0.0]])
    pa, pb = a.project(ends[:1])[0], b.project(ends)
    return bool(np.linalg.norm(pa - pb[0]) < np.linalg.norm(pa - pb[1]))


def majority_end(cams: list[CameraModel], table: TableGeometry) -> list[int]:
    """The indices of the cameras (several frames of one view) that take the end most of them
    take as baulk; every index when the two ends are tied. One frame whose colours were misread
    can turn the table end for end (real broadcast clip 2, development: 6 of 7 frames baulk
    far, 2 turned by colours named on balls not on the table)."""
    same = [i for i, c in enumerate(cams) if takes_same_end(c, cams[0], table)]
    other = [i for i in range(len(cams)) if i not in same]
    if len(same) == len(other):
        return list(range(len(cams)))
    return same if len(same) > len(other) else other
