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
from calibration.limits import IMAGE_SIDE_PX, PROFILE_MAX_BYTES, within
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
            used, ``focal_spread_mm`` where the focal length was assumed, ``focal`` where it
            was fitted (whether the view measured it: :func:`calibration.focal.focal_check`),
            ``reported_mm`` and ``poor``. Empty for manual profiles and for profiles written before it existed.
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
    #: what an automatic calibration fitted (``calibration.multiframe.FrameEvidence``): its
    #: frame's cushion edges and markings, for a refit over many frames; not saved.
    evidence: Any = field(default=None, repr=False, compare=False)

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
        """Read a profile, checking every field against docs/CALIBRATION.md and the limits of
        :mod:`calibration.limits`.

        Raises:
            CalibrationError: missing or unreadable file, not UTF-8 JSON, not a JSON object,
                missing or malformed fields, numbers that cannot be (NaN, a 10^12-pixel image,
                a pose that is not a rotation), unknown version. Never anything else.
        """
        p = Path(path)
        d = _read_json_object(p)
        if "version" not in d:  # another JSON file (a camera's truth, a match set-up)
            raise CalibrationError(f"{p}: not a calibration profile (it has no version); give "
                                   "the JSON file `snooker-tracker calibrate` wrote")
        if d.get("version") != PROFILE_VERSION:
            raise CalibrationError(f"{p}: profile version {_short(d.get('version'))}, this "
                                   f"program reads version {PROFILE_VERSION}; make a new one with "
                                   "`snooker-tracker calibrate`")
        try:
            size = _image_size(d.get("image_size"))
            t = _field(d, "table", dict)
            table = TableGeometry.of_size(t.get("length"), t.get("width"),
                                          t.get("ball_diameter", 52.5))
            lens, pose = _field(d, "lens", dict), _field(d, "camera_pose", dict)
            K = _matrix(lens.get("K"), (3, 3), "lens.K")
            if not (K[0, 0] > 0 and K[1, 1] > 0 and np.allclose(K[2], (0, 0, 1))):
                raise ValueError("lens.K is not a camera matrix (positive focal lengths, last "
                                 "row 0 0 1)")
            dist = _matrix(lens.get("dist"), None, "lens.dist")
            if dist.ndim != 1 or len(dist) not in DIST_LENGTHS:
                raise ValueError("lens.dist must hold 4 or 5 numbers (k1, k2, p1, p2[, k3]: "
                                 "OpenCV's model)")
            dist = np.concatenate([dist, np.zeros(5 - len(dist))])
            R = _matrix(pose.get("R"), (3, 3), "camera_pose.R")
            if not np.allclose(R @ R.T, np.eye(3), atol=1e-4) or np.linalg.det(R) < 0:
                raise ValueError("camera_pose.R is not a rotation matrix")
            tvec = _matrix(pose.get("t"), (3,), "camera_pose.t")
            fit = d.get("fit_error_mm", {})
            notes = d.get("notes", [])
            if not isinstance(fit, dict) or not isinstance(notes, list):
                raise ValueError("fit_error_mm must be an object and notes a list")
            accuracy = _accuracy(d.get("accuracy"))
            cam = CameraModel(size, K, dist, R, tvec)
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{p}: malformed profile: {exc}; make a new one with "
                                   "`snooker-tracker calibrate` (format: docs/CALIBRATION.md)"
                                   ) from None
        return cls(size, table, cam, fit, str(d.get("method", "auto")),
                   str(d.get("orientation", "markings")), str(d.get("focal", "estimated")),
                   [str(n) for n in notes], accuracy)

    def check_image_size(self, size: tuple[int, int] | None, what: str) -> None:
        """Refuse pictures of another size than the profile's (its pixels would be wrong).

        Args:
            size: (w, h) px of the pictures (None: unknown, nothing to check).
            what: the pictures, for the message (a video's path).

        Raises:
            CalibrationError: the sizes differ (the message says what to do).
        """
        if size is None or tuple(size) == tuple(self.image_size):
            return
        w, h = self.image_size
        raise CalibrationError(
            f"the calibration profile was made for {w}x{h} pictures but {what} is "
            f"{size[0]}x{size[1]}: its pixels would land in the wrong places; calibrate this "
            f"video (snooker-tracker calibrate VIDEO --out PROFILE) or leave out --calibration")


#: Lengths of the distortion vector a profile may hold (k1, k2, p1, p2[, k3]).
DIST_LENGTHS = (4, 5)


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _read_json_object(p: Path) -> dict[str, Any]:
    """The JSON object in file ``p`` (CalibrationError for anything else)."""
    if not p.exists():
        raise CalibrationError(f"{p}: no such calibration profile; make one with "
                               "`snooker-tracker calibrate IMAGE --out PROFILE`")
    if p.is_dir():
        raise CalibrationError(f"{p} is a folder; give the calibration profile (a JSON file)")
    try:
        with p.open("rb") as fh:
            data = fh.read(PROFILE_MAX_BYTES + 1)
        if len(data) > PROFILE_MAX_BYTES:
            raise CalibrationError(f"{p}: {len(data)}+ bytes is not a calibration profile (a "
                                   "few kB); give the JSON file `snooker-tracker calibrate` wrote")
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise CalibrationError(f"{p}: not a calibration profile (not UTF-8 text: a picture or "
                               "a video?); give the JSON file `snooker-tracker calibrate` "
                               "wrote") from None
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot read the profile ({exc.strerror})") from None
    try:
        d = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        why = f"{exc.msg} at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else exc
        raise CalibrationError(f"{p}: not valid JSON ({why}); give the profile "
                               "`snooker-tracker calibrate` wrote") from None
    if not isinstance(d, dict):
        raise CalibrationError(f"{p}: a calibration profile is a JSON object, this file holds "
                               f"a {type(d).__name__}; give the profile `snooker-tracker "
                               "calibrate` wrote")
    return d


def _accuracy(v: Any) -> dict[str, Any]:
    """The profile's ``accuracy`` object (hold-out figures; empty when absent)."""
    if v is None:
        return {}
    if not isinstance(v, dict):
        raise ValueError("accuracy must be a JSON object")
    return dict(v)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _field(d: dict[str, Any], key: str, kind: type) -> Any:
    v = d.get(key)
    if v is None:
        raise ValueError(f"{key} is missing")
    if not isinstance(v, kind):
        raise ValueError(f"{key} must be a JSON {'object' if kind is dict else kind.__name__}")
    return v


def _image_size(v: Any) -> tuple[int, int]:
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)):
        raise ValueError(f"image_size must be [width, height] in pixels, got {_short(v)}")
    for x in v:
        if not within(x, IMAGE_SIDE_PX) or float(x) != int(x):
            raise ValueError(f"image_size {_short(v)}: each side must be a whole number of pixels "
                             f"from {IMAGE_SIDE_PX[0]} to {IMAGE_SIDE_PX[1]}")
    return int(v[0]), int(v[1])


def _all_numbers(v: Any) -> bool:
    """Whether ``v`` is a number or (nested) lists of numbers (booleans are not numbers)."""
    if isinstance(v, list):
        return all(_all_numbers(x) for x in v)
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _matrix(v: Any, shape: tuple[int, ...] | None, name: str) -> np.ndarray:
    """``v`` as a float array of ``shape`` with finite entries (ValueError naming ``name``)."""
    if not _all_numbers(v):
        raise ValueError(f"{name} must be numbers, got {_short(v)}")
    try:
        a = np.asarray(v, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be numbers, got {_short(v)}") from None
    if v is None or (shape is not None and a.shape != shape):
        raise ValueError(f"{name} must be an array of shape {shape}, got {_short(v)}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} holds a number that is not finite (NaN or infinity)")
    return a
