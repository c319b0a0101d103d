"""The camera commands: ``calibrate`` (find the table; write a profile), ``checkerboard``
(a lens from checkerboard pictures) and ``pots`` (the pots of a one-shot clip)."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from pathlib import Path

from tracker.cli.common import (
    DETECTORS,
    EXIT_MISSING,
    UserError,
    number_arg,
    one_line,
    output_file,
    read_json_option,
    table_from_args,
)


def _lens(path: str | None):
    """(K, dist) of a ``--lens`` file (UserError if it is not one)."""
    import numpy as np

    if not path:
        return None
    if not Path(path).is_file():
        raise UserError(f"--lens {path}: no such file; make one with `snooker-tracker "
                        "checkerboard IMAGES --out LENS.json`")
    d = read_json_option("--lens", path)
    try:
        K = np.asarray(d["K"], float)  # type: ignore[index]
        dist = np.asarray(d["dist"], float)  # type: ignore[index]
        if K.shape != (3, 3) or dist.ndim != 1 or not (np.isfinite(K).all()
                                                      and np.isfinite(dist).all()):
            raise ValueError("K must be 3x3 and dist a list of finite numbers")
    except KeyError as exc:
        raise UserError(f"--lens {path}: not a lens file (no {exc.args[0]!r}: a lens file "
                        "holds K and dist); make one with `snooker-tracker checkerboard`") from None
    except (TypeError, ValueError) as exc:
        raise UserError(f"--lens {path}: not a lens file ({exc}); make one with "
                        "`snooker-tracker checkerboard`") from None
    return K.tolist(), dist.tolist()


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Calibrate from an image or a video frame; write the profile and a rectified picture."""
    import cv2

    from calibration.auto import calibrate_points
    from calibration.finder import TableNotFound
    from calibration.io import MediaError, read_frame
    from calibration.limits import HFOV_DEG
    from calibration.profile import CalibrationError
    from calibration.rectify import overlay, rectified
    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image

    out = output_file("--out", args.out, force=args.force)
    hfov = number_arg("--hfov", args.hfov, HFOV_DEG, "degrees")
    if args.frame is not None and args.frame < 0:
        raise UserError(f"--frame {args.frame}: frame numbers start at 0")
    table = table_from_args(args.table_size, args.ball_diameter) or TableGeometry.standard()
    points = read_json_option("--points", args.points) if args.points else None
    if points is not None and not isinstance(points, (dict, list)):
        raise UserError("--points must be a JSON object of named landmarks or a list of "
                        '{"px": [u, v], "mm": [x, y]} items (docs/CALIBRATION.md)')
    lens = _lens(args.lens)
    try:
        img = read_frame(args.source, args.frame)
        h, w = img.shape[:2]
        if points is not None:
            try:
                cal = calibrate_points(points, table, (w, h), hfov)
            except CalibrationError as exc:
                raise CalibrationError(f"--points: {exc}") from None
            except (TypeError, KeyError, IndexError, ValueError) as exc:
                raise CalibrationError(f"--points: malformed points ({one_line(exc, 120)}); "
                                       "see docs/CALIBRATION.md") from None
        else:
            cal = calibrate_image(img, table, hfov, lens=lens)
    except TableNotFound as exc:
        hint = "" if "--points" in str(exc) else "; give the corners by hand with --points"
        raise UserError(f"no table found: {exc}{hint} (docs/CALIBRATION.md)") from None
    except (MediaError, CalibrationError) as exc:
        raise UserError(f"cannot calibrate: {exc}") from None
    stem = out.with_suffix("")
    try:
        cal.save(out)
        cv2.imwrite(str(stem) + ".rectified.png", rectified(img, cal))
        cv2.imwrite(str(stem) + ".overlay.jpg", overlay(img, cal))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    summary = {"profile": str(out), "rectified": str(stem) + ".rectified.png",
               "fit_error_mm": cal.fit_error_mm, "method": cal.method,
               "orientation": cal.orientation, "focal": cal.focal, "notes": cal.notes}
    print(json.dumps(summary))
    return 0


def cmd_checkerboard(args: argparse.Namespace) -> int:
    """Lens calibration from checkerboard pictures."""
    from calibration.checkerboard import CheckerboardError, calibrate_lens
    from calibration.io import MediaError, read_frame

    out = output_file("--out", args.out)
    try:
        cols, rows = (int(v) for v in args.inner.lower().split("x"))
    except ValueError:
        raise UserError(f"--inner must look like 9x6 (inner corners), got {args.inner!r}") from None
    if not (2 <= cols <= 100 and 2 <= rows <= 100):
        raise UserError(f"--inner {args.inner}: a board has 2 to 100 inner corners each way")
    if not (math.isfinite(args.square) and 0 < args.square <= 1000):
        raise UserError(f"--square must be the square's side in mm (0 to 1000), got {args.square}")
    try:
        images = [read_frame(p) for p in args.images]
        lens = calibrate_lens(images, (cols, rows), args.square)
    except (MediaError, CheckerboardError) as exc:
        raise UserError(one_line(exc)) from None
    try:
        out.write_text(json.dumps(lens.to_dict(), indent=1))
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    print(json.dumps({"lens": args.out, "rms_px": round(lens.rms_px, 3), "views": lens.views}))
    return 0


def cmd_pots(args: argparse.Namespace) -> int:
    """Pots in a clip of one shot (a replay): ball, pocket and time of each, as JSON."""
    from calibration.limits import DETECTOR_SCALE
    from calibration.profile import Calibration, CalibrationError
    from tracker.perception.learned import LearnedUnavailable
    from tracker.perception.potwatch import ClipError, watch_pots

    number_arg("--scale", args.scale, DETECTOR_SCALE)
    try:
        cal = Calibration.load(args.calibration) if args.calibration else None
        res = watch_pots(args.video, calibration=cal, scale=args.scale, detector=args.detector)
    except LearnedUnavailable as exc:
        raise UserError(one_line(exc), EXIT_MISSING) from None
    except (ClipError, CalibrationError) as exc:
        raise UserError(one_line(exc)) from None
    print(json.dumps({"video": args.video, "frames": res.frames,
                      "potted": bool(res.object_pots()),
                      "pots": [{"ball": b, "pocket": p, "t": round(t, 3)} for b, p, t in res.pots],
                      "calibration_fit_mm": res.calibration.fit_error_mm.get("median")
                      if res.calibration else None}, indent=1))
    return 0


def add_calibrate_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``calibrate`` subcommand's arguments (``add``: makes a subparser by name)."""
    c = add("calibrate", help="find the table in an image or video; write a profile")
    c.add_argument("source", help="image or video file")
    c.add_argument("--out", required=True, help="profile to write (JSON)")
    c.add_argument("--table-size", help="playing area LENGTHxWIDTH in mm (default 3569x1778)")
    c.add_argument("--ball-diameter", type=float, help="mm (default 52.5)")
    c.add_argument("--points", help="manual correspondences: a JSON file or inline JSON "
                                    "(docs/CALIBRATION.md)")
    c.add_argument("--hfov", type=float, help="camera horizontal field of view, degrees, if known")
    c.add_argument("--frame", type=int, help="video frame to use (default: the middle one)")
    c.add_argument("--lens", help="lens file from `snooker-tracker checkerboard`")
    c.add_argument("--force", action="store_true", help="replace the profile if it exists")
    c.set_defaults(func=cmd_calibrate)


def add_checkerboard_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``checkerboard`` subcommand's arguments (``add``: makes a subparser by name)."""
    cb = add("checkerboard", help="lens calibration from checkerboard pictures")
    cb.add_argument("images", nargs="+", help="pictures of the board in different poses")
    cb.add_argument("--inner", default="9x6", help="inner corners COLUMNSxROWS (default 9x6)")
    cb.add_argument("--square", type=float, default=25.0, help="square size, mm")
    cb.add_argument("--out", required=True, help="lens file to write (JSON)")
    cb.set_defaults(func=cmd_checkerboard)


def add_pots_parser(add: Callable[..., argparse.ArgumentParser]) -> None:
    """The ``pots`` subcommand's arguments (``add``: makes a subparser by name)."""
    po = add("pots", help="pots in a clip of one shot (a replay): ball, pocket, time")
    po.add_argument("video", help="video file")
    po.add_argument("--calibration", help="calibration profile (default: the best of 8 frames)")
    po.add_argument("--scale", type=float, default=1.0,
                    help="detector working scale (1.0 for 720p, 0.5 for 1080p)")
    po.add_argument("--detector", choices=DETECTORS, default="auto",
                    help="ball detector: colour, learned (the ONNX crop classifier) or auto "
                         "(default: learned on a TV-angle view, colour overhead)")
    po.set_defaults(func=cmd_pots)
