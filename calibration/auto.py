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
    cloth_mask,
    cushion_lines,
    estimate_radial,
    intersect,
    outer_quad,
    pose_from_homography,
    undistort_px,
)
from calibration.profile import Calibration, CalibrationError
from calibration.table import TableGeometry

#: A calibration whose cushion points miss the model by more than this is refused, mm.
MAX_FIT_ERROR_MM = 25.0


def table_corners(table: TableGeometry) -> np.ndarray:
    """Playing-area corners (4, 2) mm in the order (0,0), (W,0), (W,L), (0,L)."""
    return np.array([[0, 0], [table.width, 0], [table.width, table.length], [0, table.length]],
                    float)


def calibrate_image(img: np.ndarray, table: TableGeometry, hfov_deg: float | None = None,
                    lens: tuple[np.ndarray, np.ndarray] | None = None) -> Calibration:
    """Find the table in ``img`` (BGR) and return its calibration.

    Args:
        img: the frame, BGR uint8.
        table: the table's size.
        hfov_deg: the camera's horizontal field of view if known (used when the view is too
            square-on for the focal length to be estimated).
        lens: (K, dist) from a checkerboard calibration: its radial distortion replaces the
            cushion-straightness estimate and its focal length the assumed field of view.

    Raises:
        TableNotFound: with the step that failed and why.
    """
    if img is None or img.ndim != 3:
        raise TableNotFound("the image could not be read as a colour picture")
    h, w = img.shape[:2]
    mask = cloth_mask(img)
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
        chosen = candidates[conventional[0]]
        orientation = "markings" if conventional[0] == best else "convention"
    elif len(evs) < 2 or evs[best] < 1.25 * second:
        # markings not visible: trust the aspect ratio, baulk end assumed
        shorts = [c for c in candidates if c[1]]
        chosen = shorts[0] if shorts else candidates[0]
        orientation = "assumed"
    else:
        chosen = candidates[best]
    _, _, rot, cam, focal_ok = chosen
    corners_fit = cushion_fit(cam, edges, table)
    if corners_fit["median"] > 2 * MAX_FIT_ERROR_MM:
        # the refit polishes a roughly right camera; it does not rescue one the corners put
        # far off (misread cushion lines can fit a wrong camera too)
        raise TableNotFound(f"the cushion lines do not fit a table of {table.length:.0f} x "
                            f"{table.width:.0f} mm (median {corners_fit['median']:.0f} mm off); "
                            "check --table-size or give the corners by hand (calibrate --points)")
    cam = refine_to_cushions(cam, edges, table, kn, fit_focal=focal_ok)
    notes = []
    if orientation == "convention":
        notes.append("baulk end not clear from the markings: the camera is taken to stand behind "
                     "the black-spot end, as the TV main camera does; check the rectified picture")
    if orientation == "assumed":
        notes.append("baulk line and D not found: which end is baulk was assumed; check the "
                     "rectified picture")
    if not focal_ok:
        notes.append(f"view too square-on to estimate the focal length: {hfov_deg or DEFAULT_HFOV_DEG:.0f}"
                     " degrees field of view assumed (give --hfov if known)")
    fit = cushion_fit(cam, edges, table)
    if fit["median"] > MAX_FIT_ERROR_MM:
        raise TableNotFound(f"the cushion lines do not fit a table of {table.length:.0f} x "
                            f"{table.width:.0f} mm (median {fit['median']:.0f} mm off); check "
                            "--table-size or give the corners by hand (calibrate --points)")
    if fit["worst_side"] > 2 * MAX_FIT_ERROR_MM:
        raise TableNotFound(f"one cushion line is {fit['worst_side']:.0f} mm off the table model "
                            "while the others fit: it is hidden or misread (a projected ring, a "
                            "cue along it); use another frame, or give the corners by hand (calibrate --points)")
    return Calibration((w, h), table, cam, fit, "auto", orientation,
                       "estimated" if focal_ok else "assumed", notes)


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
