"""The calibration profile: image px <-> table mm, with the lens and the camera pose.

Profile file (JSON, ``version`` 1; documented in ``docs/CALIBRATION.md``)::

    {
      "version": 1,
      "image_size": [w, h],
      "table": {"length": mm, "width": mm, "ball_diameter": mm, ...},
      "homography_image_to_table": 3x3,   # undistorted px -> table mm on the bed (z = 0)
      "lens": {"model": "opencv", "K": 3x3, "dist": [k1, k2, p1, p2, k3]},
      "camera_pose": {"R": 3x3, "t": [mm]} | null,
      "fit_error_mm": {"median": mm, "max": mm, "n": points, "worst_side": mm (auto)},
      "method": "auto" | "manual",
      "orientation": "markings" | "colours" | "markings+colours" | "convention" | "assumed" | "uncertain" | "given",
      "orientation_certain": bool,
      "focal": "estimated" | "assumed",
      "notes": [...],
      "accuracy": {...} | absent   # auto: hold-out errors of the markings (docs/CALIBRATION.md)
    }
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraModel
from calibration.table import TableGeometry

PROFILE_VERSION = 1


class CalibrationError(ValueError):
    """A profile that cannot be read or a calibration that does not fit."""


@dataclass
class Calibration:
    """Maps image pixels to table millimetres and back.

    Attributes:
        image_size: (w, h) px.
        table: the table model.
        camera: intrinsics, distortion and pose. Always present: a manual calibration without a
            pose has a camera whose pose comes from the homography with an assumed focal length.
        fit_error_mm: median and max residual of the fit, mm.
        method, orientation, focal: how it was obtained.
        notes: what the user should know.
        accuracy: (automatic calibration) the independent accuracy: each marking (a colour on
            its spot, the baulk line, the D) left out of the fit in turn and measured, mm
            (``holdout_mm``, ``holdout_median_mm``, ``holdout_max_mm``), which markings were
            used, ``focal_spread_mm`` where the focal length was assumed, ``reported_mm`` and
            ``poor``. Empty for manual profiles and for profiles written before it existed.
    """

    image_size: tuple[int, int]
    table: TableGeometry
    camera: CameraModel
    fit_error_mm: dict[str, float] = field(default_factory=dict)
    method: str = "auto"
    orientation: str = "markings"
    focal: str = "estimated"
    notes: list[str] = field(default_factory=list)
    accuracy: dict[str, Any] = field(default_factory=dict)

    @property
    def orientation_certain(self) -> bool:
        """True when the baulk end was seen (markings, colours on their spots) or given."""
        return self.orientation in ("markings", "colours", "markings+colours", "given")

    @property
    def homography_image_to_table(self) -> np.ndarray:
        """3x3, undistorted px -> table mm on the bed (z = 0)."""
        H = np.linalg.inv(self.camera.homography_plane_to_image(0.0))
        return H / H[2, 2]

    def to_table(self, px: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Image points (N, 2) px -> table (N, 2) mm on the plane at height ``z`` (mm)."""
        return self.camera.image_to_plane(np.atleast_2d(px), z)

    def ball_to_table(self, px: np.ndarray) -> np.ndarray:
        """Image centres of balls (N, 2) -> table positions (N, 2) mm, parallax corrected."""
        return self.camera.ball_centre_to_table(np.atleast_2d(px), self.table.ball_radius)

    def to_image(self, mm: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Table points (N, 2) mm at height ``z`` -> image (N, 2) px."""
        p = np.atleast_2d(np.asarray(mm, float))
        return self.camera.project(np.hstack([p, np.full((len(p), 1), z)]))

    # ------------------------------------------------------------------ files
    def to_dict(self) -> dict[str, Any]:
        """JSON form (the profile file)."""
        cam = self.camera
        return {
            "version": PROFILE_VERSION,
            "image_size": list(self.image_size),
            "table": self.table.to_dict(),
            "homography_image_to_table": self.homography_image_to_table.tolist(),
            "lens": {"model": "opencv", "K": cam.K.tolist(), "dist": cam.dist.tolist()},
            "camera_pose": {"R": cam.R.tolist(), "t": cam.t.tolist()},
            "fit_error_mm": self.fit_error_mm,
            "method": self.method,
            "orientation": self.orientation,
            "focal": self.focal,
            "notes": self.notes,
            "orientation_certain": self.orientation_certain,
            "accuracy": self.accuracy,
        }

    def save(self, path: str | Path) -> None:
        """Write the profile (JSON)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1))

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a profile.

        Raises:
            CalibrationError: missing file, bad JSON, missing fields, unknown version.
        """
        p = Path(path)
        if not p.exists():
            raise CalibrationError(f"{p}: no such calibration profile; make one with "
                                   "`snooker-tracker calibrate IMAGE --out PROFILE`")
        try:
            d = json.loads(p.read_text())
        except json.JSONDecodeError as exc:
            raise CalibrationError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if d.get("version") != PROFILE_VERSION:
            raise CalibrationError(f"{p}: profile version {d.get('version')!r}, this program reads "
                                   f"version {PROFILE_VERSION}")
        try:
            t = d["table"]
            table = TableGeometry.of_size(t["length"], t["width"], t.get("ball_diameter", 52.5))
            lens, pose = d["lens"], d["camera_pose"]
            cam = CameraModel(tuple(d["image_size"]), np.asarray(lens["K"], float),
                              np.asarray(lens["dist"], float), np.asarray(pose["R"], float),
                              np.asarray(pose["t"], float))
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{p}: malformed profile ({exc}); see docs/CALIBRATION.md") from None
        return cls(tuple(d["image_size"]), table, cam, d.get("fit_error_mm", {}),
                   d.get("method", "auto"), d.get("orientation", "markings"),
                   d.get("focal", "estimated"), list(d.get("notes", [])),
                   dict(d.get("accuracy") or {}))
