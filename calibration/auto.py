"""Automatic and manual calibration from one image (see :mod:`calibration.finder`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.finder import (
    DEFAULT_HFOV_DEG,
    Line,
    TableNotFound,
    baulk_evidence,
    cloth_masks,
    cushion_lines,
    estimate_radial,
    intersect,
    outer_quad,
    pose_from_homography,
    undistort_px,
)
from calibration.markings import (
    POOR_MAX_MM,
    POOR_MEDIAN_MM,
    SPOT_OUTLIER_FACTOR,
    SPOT_OUTLIER_MM,
    BallFinder,
    Markings,
    assign_faces,
    colour_score,
    find_markings,
    fit_camera,
    holdout,
    marking_errors,
    no_balls,
)
from calibration.profile import Calibration, CalibrationError
from calibration.table import (
    STANDARD_BAULK_LINE_MM,
    STANDARD_BLACK_FROM_TOP_MM,
    STANDARD_D_RADIUS_MM,
    TableGeometry,
)

#: A calibration whose cushion points miss the model by more than this is refused, mm.
MAX_FIT_ERROR_MM = 25.0
#: The colours decide which end is baulk when their score (:func:`colour_score`, about one
#: point per colour at its own end) reaches this, and beats the other end's by COLOUR_MARGIN.
COLOUR_DECISIVE = 1.5
COLOUR_MARGIN = 2.0
#: A cushion side whose edge points lie this far (mm, median) from the table once the
#: markings hold the camera, and this many times further than the other sides, is misread
#: (the rail's edge taken for the nose) and left out.
SIDE_OUTLIER_MM = 12.0
SIDE_OUTLIER_FACTOR = 3.0
#: The range of lenses tried where the focal length cannot be estimated, degrees of
#: horizontal field of view: the spread of ball positions over it is reported.
FOCAL_RANGE_DEG = (50.0, 80.0)
#: The markings only check the cushion-fitted camera (it is kept) when they lie within this
#: distance of the table's (median, mm): their own reading is about that precise.
MARKINGS_AGREE_MM = 3.0
#: ... on a table whose markings were scaled from the full-size table's (``--table-size``),
#: plus this fraction of its length: where the maker of a smaller table drew its baulk line
#: and D is not known to the mm (a lab table of 1881 mm: baulk line 3-4 mm, D radius 3 mm from
#: the scaled places, read through projected rings and balls to 7-11 mm).
SCALED_MARKINGS_FRACTION = 0.005


def table_corners(table: TableGeometry) -> np.ndarray:
    """Playing-area corners (4, 2) mm in the order (0,0), (W,0), (W,L), (0,L)."""
    return np.array([[0, 0], [table.width, 0], [table.width, table.length], [0, table.length]],
                    float)


def calibrate_image(img: np.ndarray, table: TableGeometry, hfov_deg: float | None = None,
                    lens: tuple[np.ndarray, np.ndarray] | None = None,
                    ball_finder: BallFinder | None = None) -> Calibration:
    """Find the table in ``img`` (BGR) and return its calibration.

    Args:
        img: the frame, BGR uint8.
        table: the table's size.
        hfov_deg: the camera's horizontal field of view if known (used when the view is too
            square-on for the focal length to be estimated).
        lens: (K, dist) from a checkerboard calibration: its radial distortion replaces the
            cushion-straightness estimate and its focal length the assumed field of view.
        ball_finder: finds the balls (the colours on their spots are markings, and say which
            end is baulk); without one only the baulk line and the D are used. The tracker's
            is ``tracker.perception.calibrate.find_colour_balls``.

    Raises:
        TableNotFound: with the step that failed and why.
    """
    if img is None or img.ndim != 3:
        raise TableNotFound("the image could not be read as a colour picture")
    first: TableNotFound | None = None
    for mask in cloth_masks(img):
        try:
            return _calibrate_cloth(img, mask, table, hfov_deg, lens, ball_finder)
        except TableNotFound as exc:
            first = first or exc
    raise first or TableNotFound("no cloth found")


def _calibrate_cloth(img: np.ndarray, mask: np.ndarray, table: TableGeometry,
                     hfov_deg: float | None, lens: tuple[np.ndarray, np.ndarray] | None,
                     ball_finder: BallFinder | None) -> Calibration:
    """:func:`calibrate_image` with the cloth found as ``mask`` (bool (h, w))."""
    h, w = img.shape[:2]
    quad = outer_quad(mask)
    lines, edges = cushion_lines(img, quad, mask=mask)
    if lens is not None:
        K_l, dist_l = np.asarray(lens[0], float), np.asarray(lens[1], float).ravel()
        r = (w / K_l[0, 0]) ** 2
        kn = (float(dist_l[0]) * r, float(dist_l[1]) * r * r if len(dist_l) > 1 else 0.0)
        hfov_deg = hfov_deg or fov_from_focal(float(K_l[0, 0]), w)
    else:
        kn = estimate_radial(edges, (w, h))
    und_edges = [undistort_px(e, kn, (w, h)) for e in edges]
    centre = undistort_px(quad.mean(0)[None], kn, (w, h))[0]
    und_lines = [Line.fit(e, centre) for e in und_edges]
    corners = np.array([intersect(und_lines[i - 1], und_lines[i]) for i in range(4)])
    # the table's corners (0,0), (W,0), (W,L), (0,L) run counter-clockwise on screen
    corners = corners[::-1].copy()
    gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    model = table_corners(table)
    side = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
    oblong = max(side[0] + side[2], side[1] + side[3]) > 1.3 * min(side[0] + side[2], side[1] + side[3])
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
        candidates.append((ev, short_first, rot, cam, focal_ok))
    if not candidates:
        raise TableNotFound("no camera pose puts the camera above the table")
    # a clearly oblong outline fixes which sides are the long cushions, else the pair that
    # converges does (a camera at one end); keep the two candidates that agree, and let the
    # markings choose the baulk end between them
    long_sum = max(side[0] + side[2], side[1] + side[3])
    short_sum = min(side[0] + side[2], side[1] + side[3])

    def angle(i: int) -> float:
        d = corners[(i + 1) % 4] - corners[i]
        return float(np.arctan2(d[1], d[0]))

    def converge(i: int) -> float:  # angle between opposite sides i and i+2, degrees
        a = abs((angle(i) - angle(i + 2) + np.pi) % (2 * np.pi) - np.pi)
        return float(np.degrees(np.pi - a))

    if long_sum > 1.6 * short_sum and any(c[1] for c in candidates):
        candidates = [c for c in candidates if c[1]]
    elif abs(converge(0) - converge(1)) > 5.0:
        # a camera at one end looks along the table: the long cushions converge toward a
        # vanishing point while the short ones stay nearly parallel
        long_pair_is_0 = converge(0) > converge(1)
        # the model's first side (the baulk cushion, short) is image side ``rot``: it must
        # lie on the pair that does not converge (its length on screen says nothing here: the
        # near short cushion can be the longest line in the picture)
        keep = [c for c in candidates if (c[2] % 2 == 0) != long_pair_is_0]
        candidates = keep or candidates
    elif long_sum > 1.3 * short_sum and any(c[1] for c in candidates):
        candidates = [c for c in candidates if c[1]]
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
    notes: list[str] = []
    # the colours standing on their spots say which end is baulk far more surely than faint
    # lines: yellow, brown and green on the baulk line, pink and black at the other end
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
    _, _, rot, cam, focal_ok = candidates[pick]
    corners_fit = cushion_fit(cam, edges, table)
    if corners_fit["median"] > 2 * MAX_FIT_ERROR_MM:
        # the refit polishes a roughly right camera; it does not rescue one the corners put
        # far off (misread cushion lines can fit a wrong camera too)
        raise TableNotFound(f"the cushion lines do not fit a table of {table.length:.0f} x "
                            f"{table.width:.0f} mm (median {corners_fit['median']:.0f} mm off); "
                            "check --table-size or give the corners by hand (calibrate --points)")
    cam = refine_to_cushions(cam, edges, table, kn, fit_focal=focal_ok)
    cam, marks, side_w, fitted = fit_to_markings(img, cam, edges, table, kn, focal_ok, balls)
    if orientation == "convention":
        notes.append("baulk end not clear from the markings: the camera is taken to stand behind "
                     "the black-spot end, as the TV main camera does; check the rectified picture")
    if orientation == "assumed":
        notes.append("baulk line, D and colours on their spots not found: which end is baulk was "
                     "assumed; check the rectified picture")
    if orientation == "uncertain":
        notes.append("which end is baulk is uncertain (faint markings, colours not on their spots): "
                     "check the rectified picture, or give --points")
    if any(wt == 0 for wt in side_w):
        notes.append("one cushion edge disagreed with the markings and was left out of the fit")
    fit = cushion_fit(cam, [e for e, wt in zip(edges, side_w, strict=True) if wt > 0], table)
    if fit["median"] > MAX_FIT_ERROR_MM:
        raise TableNotFound(f"the cushion lines do not fit a table of {table.length:.0f} x "
                            f"{table.width:.0f} mm (median {fit['median']:.0f} mm off); check "
                            "--table-size or give the corners by hand (calibrate --points)")
    if fit["worst_side"] > 2 * MAX_FIT_ERROR_MM:
        raise TableNotFound(f"one cushion line is {fit['worst_side']:.0f} mm off the table model "
                            "while the others fit: it is hidden or misread (a projected ring, a "
                            "cue along it); use another frame, or give the corners by hand "
                            "(calibrate --points)")
    accuracy = measure_accuracy(cam, edges, table, kn, marks, focal_ok, side_w, fitted)
    if not focal_ok:
        notes.append(f"view too square-on to estimate the focal length: {hfov_deg or DEFAULT_HFOV_DEG:.0f}"
                     " degrees field of view assumed (give --hfov if known); balls may be up to "
                     f"{accuracy['focal_spread_mm']:.0f} mm further off for a lens of "
                     f"{FOCAL_RANGE_DEG[0]:.0f}-{FOCAL_RANGE_DEG[1]:.0f} degrees")
    notes.extend(accuracy_notes(accuracy))
    return Calibration((w, h), table, cam, fit, "auto", orientation,
                       "estimated" if focal_ok else "assumed", notes, accuracy)


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


def _strong(marks: Markings) -> bool:
    """Enough markings to hold the camera against one misread cushion."""
    n_spots = len(marks.spots)
    lines = int(len(marks.baulk_line) > 0) + int(len(marks.d_arc) > 0)
    return n_spots >= 3 or (n_spots >= 2 and lines >= 1) or lines >= 2


def fit_to_markings(img: np.ndarray, cam: CameraModel, edges: list[np.ndarray],
                    table: TableGeometry, kn: tuple[float, float], fit_focal: bool,
                    balls: tuple[np.ndarray, list[str]]) -> tuple[CameraModel, Markings, list[float]]:
    """Pull the cushion-fitted camera ``cam`` onto the table's own markings.

    Rounds of: find the markings where the camera expects them (:func:`find_markings`), fit
    the camera to cushions and markings together (:func:`fit_camera`), drop spot balls that
    stand off their spots and, when the markings are strong enough, a cushion side that
    disagrees with them (its edge read on the rail instead of the nose).

    When the cushion-fitted camera already puts the markings within
    :data:`MARKINGS_AGREE_MM` of the table's (median) and no side was left out, it is kept: the
    markings have checked it, and a marking read in the picture (a ball's centre, a chalk
    line's middle) is less precise than some 400 cushion-edge points.

    Returns:
        (camera, markings found, weight per cushion side: 1 used, 0 left out, whether the
        camera was fitted to the markings).
    """
    side_w = [1.0] * len(edges)
    cushion_cam = cam
    marks = Markings()
    for _ in range(3):
        marks = find_markings(img, cam, table, balls)
        if not marks.groups:
            return cam, marks, side_w, False
        cam = fit_camera(cam, edges, table, kn, marks, fit_focal, side_w)
        errs = marking_errors(cam, table, marks)
        med = float(np.median(list(errs.values())))
        off = [c for c in marks.spots
               if errs[f"spot:{c}"] > max(SPOT_OUTLIER_MM, SPOT_OUTLIER_FACTOR * med)]
        if off:
            marks = Markings({c: p for c, p in marks.spots.items() if c not in off},
                             marks.baulk_line, marks.d_arc, off)
            cam = fit_camera(cam, edges, table, kn, marks, fit_focal, side_w)
        if _strong(marks) and all(wt > 0 for wt in side_w):
            se = side_errors(cam, edges, table)
            worst = int(np.argmax(se))
            rest = np.median([e for i, e in enumerate(se) if i != worst])
            if se[worst] > max(SIDE_OUTLIER_MM, SIDE_OUTLIER_FACTOR * rest):
                side_w[worst] = 0.0
                cam = fit_camera(cam, edges, table, kn, marks, fit_focal, side_w)
                continue
        if not off:
            break
    if all(wt > 0 for wt in side_w) and marks.groups:
        before = marking_errors(cushion_cam, table, marks)
        if np.median(list(before.values())) <= markings_agree_mm(table):
            return cushion_cam, marks, side_w, False
    return cam, marks, side_w, bool(marks.groups)


def markings_agree_mm(table: TableGeometry) -> float:
    """How near (mm, median) the markings must lie to where the cushion-fitted camera puts
    them for that camera to be kept: :data:`MARKINGS_AGREE_MM` on a table with the standard
    markings; more by :data:`SCALED_MARKINGS_FRACTION` of the length where they were scaled
    from the full-size table's (a table of another size: where its maker drew them is not known to the mm)."""
    standard = (table.baulk_line == STANDARD_BAULK_LINE_MM and table.d_radius == STANDARD_D_RADIUS_MM
                and table.black_from_top == STANDARD_BLACK_FROM_TOP_MM)
    return MARKINGS_AGREE_MM if standard else MARKINGS_AGREE_MM + SCALED_MARKINGS_FRACTION * table.length


def _with_focal(cam: CameraModel, table: TableGeometry, hfov_deg: float) -> CameraModel:
    """The camera with another focal length, moved along its axis so that the table's
    centre keeps its place and size in the picture (a start for a refit)."""
    w, _ = cam.image_size
    f_new = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    s = f_new / cam.K[0, 0]
    mid = np.array([table.width / 2, table.length / 2, 0.0])
    xc = cam.R @ mid + cam.t
    t_new = xc * np.array([1.0, 1.0, s]) - cam.R @ mid
    t_new[:2] = xc[:2] * s - (cam.R @ mid)[:2]
    K = cam.K.copy()
    K[0, 0] = K[1, 1] = f_new
    ratio = (f_new / cam.K[0, 0]) ** 2
    dist = cam.dist.copy()
    dist[0] *= ratio
    dist[1] *= ratio ** 2
    return CameraModel(cam.image_size, K, dist, cam.R, t_new)


def focal_spread(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                 kn: tuple[float, float], marks: Markings, side_w: list[float]) -> float:
    """Where the focal length cannot be estimated: the largest shift (mm) of a ball on the
    table when the camera is refitted with a lens of each end of :data:`FOCAL_RANGE_DEG`
    instead of the assumed one."""
    grid = np.array([[x, y, table.ball_radius] for x in np.linspace(60, table.width - 60, 6)
                     for y in np.linspace(60, table.length - 60, 10)])
    px = cam.project(grid)
    worst = 0.0
    for fov in FOCAL_RANGE_DEG:
        alt = _with_focal(cam, table, fov)
        alt = fit_camera(alt, edges, table, kn, marks, False, side_w)
        d = np.linalg.norm(alt.ball_centre_to_table(px, table.ball_radius) - grid[:, :2], axis=1)
        worst = max(worst, float(d.max()))
    return round(worst, 1)


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
    acc["focal_spread_mm"] = None if fit_focal else focal_spread(cam, edges, table, kn, marks, side_w)
    base = acc["holdout_median_mm"]
    spread = acc["focal_spread_mm"] or 0.0
    # a lens error shows at the table's ends, about a third of it at a typical ball
    acc["reported_mm"] = None if base is None else round(float(math.hypot(base, spread / 3.0)), 1)
    acc["independent"] = bool(held)
    # a table of another size: its markings were placed by scaling the full-size table's, and
    # where its maker drew them is known only to about this much; the figure is an upper bound
    slack = markings_agree_mm(table) - MARKINGS_AGREE_MM
    acc["markings_scaled"] = slack > 0
    acc["poor"] = bool(held) and (acc["holdout_median_mm"] > POOR_MEDIAN_MM + slack
                                  or acc["holdout_max_mm"] > POOR_MAX_MM + slack)
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
    if acc["poor"]:
        return [f"WARNING: poor calibration: {text}; check the rectified picture, try another "
                "frame or give --points"]
    return [text]


def refine_to_cushions(cam: CameraModel, edges: list[np.ndarray], table: TableGeometry,
                       kn: tuple[float, float], fit_focal: bool) -> CameraModel:
    """The camera (pose, and the focal length when ``fit_focal``) that puts the cushion-edge
    points (``edges``: one (N, 2) px array per side) on the cushion-nose lines best, by a
    robust least-squares fit of the whole camera at once.

    The four-corner homography bends to every error of the worst side (a near cushion half
    hidden by a score bar, edge points pulled by balls against it): it has eight free
    parameters, a real camera with square pixels and a centred principal point only seven.
    Fitting those seven to all the edge points, each side's outliers down-weighted (soft L1,
    2 px scale), lets the three clean sides hold the camera. The lens distortion ``kn``
    (normalised by the image width) stays as estimated. Returns ``cam`` unchanged when the
    fit does not improve the robust cost.
    """
    from scipy.optimize import least_squares

    w, h = cam.image_size
    z = table.cushion_height
    faces = [(0, 0.0), (0, table.width), (1, 0.0), (1, table.length)]  # (axis, value)
    pts, face_of = [], []
    for e in edges:
        if len(e) < 3:
            continue
        on = cam.image_to_plane(e, z)
        k = int(np.argmin([np.median(np.abs(on[:, ax] - v)) for ax, v in faces]))
        pts.append(undistort_px(e, kn, (w, h)))
        face_of.append(np.full(len(e), k))
    if len(pts) < 3:
        return cam
    und = np.concatenate(pts)
    face = np.concatenate(face_of)
    # two points on each face line (the line's ends, at the nose height)
    ends = np.array([[[0, 0, z], [0, table.length, z]], [[table.width, 0, z], [table.width, table.length, z]],
                     [[0, 0, z], [table.width, 0, z]], [[0, table.length, z], [table.width, table.length, z]]])

    def unpack(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        f = math.exp(x[6]) if fit_focal else cam.K[0, 0]
        K = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
        return K, cv2.Rodrigues(x[:3])[0], x[3:6]

    def residuals(x: np.ndarray) -> np.ndarray:
        K, R, t = unpack(x)
        c = ends.reshape(-1, 3) @ R.T + t
        if (c[:, 2] <= 1.0).any():
            return np.full(len(und), 1e4)  # a table corner behind the camera
        pr = (c[:, :2] / c[:, 2:3]) @ K[:2, :2].T + K[:2, 2]
        a, b = pr[0::2], pr[1::2]  # (4, 2) each
        d = b - a
        n = np.stack([-d[:, 1], d[:, 0]], 1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-12)
        return ((und - a[face]) * n[face]).sum(1)

    scale = 2.0  # px: residuals beyond this count less and less

    def robust_cost(r: np.ndarray) -> float:  # least_squares' soft-L1 cost
        return float(scale ** 2 * np.sum(np.sqrt(1 + (r / scale) ** 2) - 1))

    x0 = np.concatenate([cv2.Rodrigues(cam.R)[0].ravel(), cam.t])
    if fit_focal:
        x0 = np.concatenate([x0, [math.log(cam.K[0, 0])]])
    try:
        res = least_squares(residuals, x0, loss="soft_l1", f_scale=scale, x_scale="jac",
                            max_nfev=200)
    except (ValueError, np.linalg.LinAlgError):
        return cam
    if not np.isfinite(res.cost) or res.cost >= robust_cost(residuals(x0)):
        return cam
    K, R, t = unpack(res.x)
    ratio = (K[0, 0] / w) ** 2
    out = CameraModel((w, h), K, np.array([kn[0] * ratio, kn[1] * ratio ** 2, 0, 0, 0]), R, t)
    # a refinement that slides the camera down toward the table's plane, or far from where
    # the corners put it, has found a degenerate fit (lines seen edge-on), not a better camera
    mid = np.array([table.width / 2, table.length / 2, z])
    d0 = float(np.linalg.norm(cam.centre - mid))
    if out.centre[2] - z < 0.5 * (cam.centre[2] - z) or np.linalg.norm(out.centre - cam.centre) > 0.35 * d0:
        return cam
    return out


def calibrate_best(frames: list[np.ndarray], table: TableGeometry, **kwargs: Any) -> Calibration:
    """Calibrate a fixed camera from several of its frames: the frame whose cushion lines fit
    the table best wins (a player leaning over a cushion, or a passing arm, spoils one frame,
    not the camera).

    Args:
        frames: BGR frames of one camera view (e.g. 8 spread over a clip).
        table: the table's size.
        kwargs: passed to :func:`calibrate_image`.

    Raises:
        TableNotFound: when no frame gives a calibration (with the first frame's reason).
    """
    best: Calibration | None = None
    first_error: TableNotFound | None = None
    for img in frames:
        try:
            cal = calibrate_image(img, table, **kwargs)
        except TableNotFound as exc:
            first_error = first_error or exc
            continue
        if best is None or cal.fit_error_mm["median"] < best.fit_error_mm["median"]:
            best = cal
    if best is None:
        raise first_error or TableNotFound("no frames given")
    return best


# ---------------------------------------------------------------------- manual
NAMED_POINTS_HELP = ("corner:baulk_left|baulk_right|top_left|top_right, "
                     "pocket:<pocket name>, spot:<colour>, or explicit [x, y] mm")


def named_point(table: TableGeometry, name: str) -> tuple[float, float, float]:
    """Table position (x, y, z) mm of a named landmark.

    Corners are the cushion-face corners at the nose height; pockets the mouth centres at
    the nose height; spots on the bed.
    """
    kind, _, what = name.partition(":")
    corners = {"baulk_left": (0.0, 0.0), "baulk_right": (table.width, 0.0),
               "top_left": (0.0, table.length), "top_right": (table.width, table.length)}
    if kind == "corner" and what in corners:
        return (*corners[what], table.cushion_height)
    if kind == "pocket" and what in table.pockets:
        return (*table.pockets[what].mouth_centre, table.cushion_height)
    if kind == "spot" and what in table.spots:
        return (*table.spots[what], 0.0)
    raise CalibrationError(f"unknown landmark {name!r}; use {NAMED_POINTS_HELP}")


def calibrate_points(points: Mapping[str, tuple[float, float]] | list, table: TableGeometry,
                     image_size: tuple[int, int], hfov_deg: float | None = None) -> Calibration:
    """Calibration from at least four correspondences.

    Args:
        points: either {landmark name: [u, v] px} or a list of {"px": [u, v], "mm": [x, y]}
            (optionally "z": mm) items.
        table: the table.
        image_size: (w, h).
        hfov_deg: field of view if known (else estimated from the points when the view is
            oblique, or 60 degrees assumed).

    Raises:
        CalibrationError: fewer than four points, degenerate points, or a fit error above
            :data:`MAX_FIT_ERROR_MM`.
    """
    img_pts, world = [], []
    items = points.items() if isinstance(points, Mapping) else [(None, p) for p in points]
    for name, val in items:
        if name is not None:
            world.append(named_point(table, name))
            img_pts.append(val)
        else:
            try:
                world.append((*map(float, val["mm"]), float(val.get("z", 0.0))))
                img_pts.append(val["px"])
            except (KeyError, TypeError, ValueError):
                raise CalibrationError(f"point {val!r} needs 'px': [u, v] and 'mm': [x, y]") from None
    if len(img_pts) < 4:
        raise CalibrationError(f"{len(img_pts)} points given; at least 4 are needed "
                               f"({NAMED_POINTS_HELP})")
    ip = np.asarray(img_pts, float)
    wp = np.asarray(world, float)
    w, h = image_size
    # a homography on the points' mean plane gives a first pose; then the focal length is
    # searched (1-D) with a full PnP at each value, every point at its own height
    z0 = float(np.mean(wp[:, 2]))
    H, _ = cv2.findHomography(wp[:, :2], ip, 0)
    if H is None or abs(np.linalg.det(H)) < 1e-12:
        raise CalibrationError("the points are degenerate (three on a line?)")
    K, R, t, focal_ok = pose_from_homography(H, (w, h), z0, hfov_deg or DEFAULT_HFOV_DEG)

    def pnp(f: float) -> tuple[float, CameraModel]:
        Kf = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
        ok, rvec, tvec = cv2.solvePnP(wp, ip, Kf, None, cv2.Rodrigues(R)[0], t.reshape(3, 1), True,
                                      cv2.SOLVEPNP_ITERATIVE)
        cam_f = CameraModel((w, h), Kf, np.zeros(5), cv2.Rodrigues(rvec)[0], tvec.ravel())
        rms = float(np.sqrt(((cam_f.project(wp) - ip) ** 2).sum(1).mean())) if ok else np.inf
        return rms, cam_f

    if hfov_deg is not None:
        _, cam = pnp((w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0))
    else:
        fs = np.geomspace(0.4 * w, 6 * w, 40)
        scored = [(pnp(f)[0], f) for f in fs]
        rms_best, f_best = min(scored)
        for _ in range(2):
            span = np.geomspace(f_best / 1.08, f_best * 1.08, 15)
            rms_best, f_best = min([(pnp(f)[0], f) for f in span] + [(rms_best, f_best)])
        rms_all = np.array([r for r, _ in scored])
        # the focal length is observable only if a wrong one visibly worsens the fit
        focal_ok = bool(np.median(rms_all) > 3 * rms_best + 0.5)
        f_use = f_best if focal_ok else K[0, 0]
        _, cam = pnp(f_use)
    back = np.array([cam.image_to_plane(ip[i:i + 1], wp[i, 2])[0] for i in range(len(ip))])
    err = np.linalg.norm(back - wp[:, :2], axis=1)
    fit = {"median": round(float(np.median(err)), 2), "max": round(float(err.max()), 2),
           "n": len(err)}
    if fit["max"] > MAX_FIT_ERROR_MM:
        worst = int(np.argmax(err))
        raise CalibrationError(f"the points do not fit one table plane: point {worst + 1} is "
                               f"{err[worst]:.0f} mm off; check it (and --table-size)")
    notes = [] if focal_ok else [f"focal length assumed ({hfov_deg or DEFAULT_HFOV_DEG:.0f} deg)"]
    if len(ip) == 4:
        notes.append("exactly 4 points: the fit error cannot show a wrong point")
    return Calibration((w, h), table, cam, fit, "manual", "given",
                       "estimated" if focal_ok else "assumed", notes)


def fov_from_focal(f: float, width: int) -> float:
    """Horizontal field of view (degrees) of focal length ``f`` px."""
    return math.degrees(2 * math.atan(width / 2.0 / f))
