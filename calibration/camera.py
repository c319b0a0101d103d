"""A pinhole camera with lens distortion, looking at the table.

World frame: the canonical table frame (mm), ``x`` across, ``y`` up the table, ``z`` up from
the cloth. A ball's centre is at ``z = R`` (26.25 mm), which is why the plane homography
misplaces it off-axis (parallax): :meth:`CameraModel.ball_centre_to_table` corrects that.

Distortion uses OpenCV's model and order ``(k1, k2, p1, p2, k3)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np


def _normalize(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics, distortion and pose.

    Attributes:
        image_size: (width, height) px.
        K: 3x3 intrinsic matrix.
        dist: (5,) distortion coefficients k1, k2, p1, p2, k3.
        R: 3x3 rotation world -> camera.
        t: (3,) translation world -> camera, mm (``X_cam = R @ X_world + t``).
    """

    image_size: tuple[int, int]
    K: np.ndarray
    dist: np.ndarray = field(default_factory=lambda: np.zeros(5))
    R: np.ndarray = field(default_factory=lambda: np.eye(3))
    t: np.ndarray = field(default_factory=lambda: np.zeros(3))

    # ------------------------------------------------------------------ constructors
    @staticmethod
    def intrinsics(image_size: tuple[int, int], hfov_deg: float) -> np.ndarray:
        """K for a centred principal point and square pixels with a horizontal field of view."""
        w, h = image_size
        f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
        return np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])

    @classmethod
    def look_at(
        cls,
        eye: tuple[float, float, float],
        target: tuple[float, float, float],
        up: tuple[float, float, float],
        image_size: tuple[int, int],
        hfov_deg: float,
        dist: tuple[float, ...] = (0, 0, 0, 0, 0),
    ) -> CameraModel:
        """A camera at ``eye`` (mm) looking at ``target``; ``up`` is the world direction that
        appears upward in the image."""
        eye_v = np.asarray(eye, float)
        fwd = _normalize(np.asarray(target, float) - eye_v)
        right = _normalize(np.cross(fwd, np.asarray(up, float)))
        down = np.cross(fwd, right)
        R = np.stack([right, down, fwd])  # rows: camera x (right), y (down), z (forward)
        t = -R @ eye_v
        return cls(image_size, cls.intrinsics(image_size, hfov_deg), np.asarray(dist, float), R, t)

    @classmethod
    def overhead(cls, length: float, width: float, image_size: tuple[int, int] = (1920, 1080),
                 height_mm: float | None = None, margin: float = 1.1,
                 dist: tuple[float, ...] = (-0.08, 0.02, 0, 0, 0)) -> CameraModel:
        """The hall camera: straight down over the table centre, the table's length across
        the image (baulk on the left), framed with ``margin`` around the playing area."""
        w_px, h_px = image_size
        height = 3000.0 if height_mm is None else height_mm
        half_len = length / 2.0 * margin
        half_wid = width / 2.0 * margin
        f = min((w_px / 2) / half_len, (h_px / 2) / half_wid) * height
        hfov = 2 * math.degrees(math.atan((w_px / 2) / f))
        eye = (width / 2.0, length / 2.0, height)
        return cls.look_at(eye, (width / 2.0, length / 2.0, 0.0), (-1.0, 0.0, 0.0), image_size,
                           hfov, dist)

    @classmethod
    def broadcast(cls, length: float, width: float, image_size: tuple[int, int] = (1920, 1080),
                  dist: tuple[float, ...] = (-0.02, 0, 0, 0, 0)) -> CameraModel:
        """The TV main camera: elevated behind the top (black-spot) cushion, looking down the
        table toward baulk (the D at the far end, as in broadcast footage)."""
        eye = (width / 2.0, length + 3300.0, 3000.0)
        target = (width / 2.0, length * 0.62, 0.0)
        return cls.look_at(eye, target, (0.0, 0.0, 1.0), image_size, 38.0, dist)

    # ------------------------------------------------------------------ geometry
    @property
    def centre(self) -> np.ndarray:
        """Camera centre in world mm, shape (3,)."""
        return -self.R.T @ self.t

    def distort_normalized(self, xn: np.ndarray) -> np.ndarray:
        """Apply lens distortion to normalized coordinates (N, 2)."""
        k1, k2, p1, p2, k3 = self.dist
        x, y = xn[:, 0], xn[:, 1]
        r2 = x * x + y * y
        radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd, yd], axis=1)

    def undistort_normalized(self, xd: np.ndarray, iterations: int = 8) -> np.ndarray:
        """Invert :meth:`distort_normalized` by fixed-point iteration (N, 2)."""
        if not np.any(self.dist):  # no distortion: every iteration gives xd back
            return np.array(xd, float)
        k1, k2, p1, p2, k3 = self.dist
        tangential = p1 != 0 or p2 != 0
        u, v = xd[:, 0], xd[:, 1]
        x, y = u.copy(), v.copy()
        # (the columns apart and the terms whose coefficient is zero left out: the same numbers
        # as the whole formula, which adds exact zeros for them, at a fraction of the cost)
        for _ in range(iterations):
            r2 = x * x + y * y
            radial = 1 + k1 * r2
            if k2 != 0:
                radial = radial + k2 * r2 * r2
            if k3 != 0:
                radial = radial + k3 * r2 * r2 * r2
            if tangential:
                dx = 2 * p1 * x * y + p2 * (r2 + 2 * x ** 2)
                dy = p1 * (r2 + 2 * y ** 2) + 2 * p2 * x * y
                x, y = (u - dx) / radial, (v - dy) / radial
            else:
                x, y = u / radial, v / radial
        return np.stack([x, y], axis=1)

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) mm -> pixels (N, 2), distortion included."""
        p = np.atleast_2d(np.asarray(points, float))
        cam = p @ self.R.T + self.t
        xn = cam[:, :2] / cam[:, 2:3]
        xd = self.distort_normalized(xn)
        return xd @ self.K[:2, :2].T + self.K[:2, 2]

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the optical axis of world points (N, 3), mm."""
        p = np.atleast_2d(np.asarray(points, float))
        return (p @ self.R.T + self.t)[:, 2]

    def pixel_rays(self, px: np.ndarray) -> np.ndarray:
        """Unit ray directions in world coordinates (N, 3) through pixels (N, 2)."""
        p = np.atleast_2d(np.asarray(px, float))
        xd = (p - self.K[:2, 2]) / np.array([self.K[0, 0], self.K[1, 1]])
        xn = self.undistort_normalized(xd)
        d_cam = np.concatenate([xn, np.ones((len(xn), 1))], axis=1)
        d = d_cam @ self.R  # R^T applied to row vectors
        return d / np.linalg.norm(d, axis=1, keepdims=True)

    def image_to_plane(self, px: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Intersect pixel rays (N, 2) with the horizontal plane at height ``z`` -> (N, 2) mm."""
        d = self.pixel_rays(px)
        c = self.centre
        s = (z - c[2]) / d[:, 2]
        return c[:2] + d[:, :2] * s[:, None]

    def ball_centre_to_table(self, px: np.ndarray, ball_radius: float) -> np.ndarray:
        """Table position (mm) of balls whose image centres are ``px`` (N, 2): the ray is cut at
        the plane of ball centres, z = R (parallax corrected)."""
        return self.image_to_plane(px, ball_radius)

    def homography_plane_to_image(self, z: float = 0.0) -> np.ndarray:
        """3x3 homography from table mm on the plane ``z`` to undistorted pixels."""
        M = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.R[:, 2] * z + self.t])
        return M / M[2, 2]

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        return {"image_size": list(self.image_size), "K": self.K.tolist(),
                "dist": self.dist.tolist(), "R": self.R.tolist(), "t": self.t.tolist()}

    @classmethod
    def from_dict(cls, d: dict) -> CameraModel:
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(d["image_size"]), np.asarray(d["K"], float), np.asarray(d["dist"], float),
                   np.asarray(d["R"], float), np.asarray(d["t"], float))
