"""Manual calibration: the camera from at least four image points whose places on the table are
known (named landmarks or explicit millimetres), for a view the automatic search cannot read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.finder import DEFAULT_HFOV_DEG, MAX_FIT_ERROR_MM, pose_from_homography
from calibration.profile import Calibration, CalibrationError
from calibration.table import TableGeometry

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
