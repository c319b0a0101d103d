"""What the benches share, written once: decoding a file alone (the physical limit a pipeline
rate is set against), ``process`` on a real clip as a user runs it, a clip's operator inputs,
the cameras the synthetic benches render through, the exact camera as a profile, matching the
strokes found to the truth's, and the "Measured ..." line every section starts with
(:func:`bench.runinfo.run_info` gives its parts).

Nothing here measures on its own; a bench imports it (``sys.path`` holding the repository root,
as every bench sets it).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: A stroke of the truth is matched to a stroke found whose start lies within this (s) of
#: its strike.
MATCH_S = 0.5


def decode_only(path: Path) -> tuple[int, float, float]:
    """Decode every frame of the file ``path`` with OpenCV and nothing else: (frames,
    wall-clock seconds, CPU seconds of this process, all threads)."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    n, t0, c0 = 0, time.perf_counter(), time.process_time()
    while cap.read()[0]:
        n += 1
    cap.release()
    return n, time.perf_counter() - t0, time.process_time() - c0


def process_real_clip(path: Path, out_dir: Path | None, pool: bool = False,
                      listeners: Sequence[Any] = ()) -> Any:
    """``process`` on a real clip with the options of a plain ``snooker-tracker process VIDEO
    --out DIR`` (automatic calibration, detector ``auto``); a pool clip with its table's size
    (``POOL_TABLE_MM``). Returns the :class:`tracker.listeners.ProcessResult`.

    Raises:
        tracker.pipeline.VideoError: the clip could not be refereed (the message says why).
    """
    from calibration.table import TableGeometry
    from tracker.footage_eval import POOL_TABLE_MM
    from tracker.pipeline import process_video

    table = TableGeometry(*POOL_TABLE_MM) if pool else None
    more = {"listeners": list(listeners)} if listeners else {}
    return process_video(path, out_dir, table=table, progress=False, **more)


def operator_inputs(log: Path | None) -> dict[str, Any]:
    """The operator's inputs and spoken nominations of a clip's match log (``NAME.log.jsonl``
    beside a rendered clip), as ``process_video`` keywords; none when there is no log."""
    from tracker.pipeline import inputs_from_log, spoken_from_log

    if log is None or not log.exists():
        return {}
    return {"inputs": inputs_from_log(log), "spoken": spoken_from_log(log)}


def named_camera(name: str) -> Any:
    """The stock synthetic camera ``overhead`` or ``broadcast`` over the standard table."""
    from calibration.camera import CameraModel
    from calibration.table import STANDARD_TABLE as T

    if name not in ("overhead", "broadcast"):
        raise SystemExit(f"unknown camera {name!r}: use overhead or broadcast")
    return (CameraModel.overhead(T.length, T.width) if name == "overhead"
            else CameraModel.broadcast(T.length, T.width))


def true_profile(camera: Any, table: Any) -> Any:
    """A calibration profile holding the exact camera a clip was rendered with (what
    perception does when the camera is right)."""
    from calibration.profile import Calibration

    return Calibration(tuple(camera.image_size), table, camera, {"median": 0.0, "max": 0.0},
                       method="manual", orientation="markings", focal="estimated",
                       notes=["the synthetic world's own camera"])


def match_strokes(truth_t: Sequence[float], found_t: Sequence[float], within: float = MATCH_S,
                  nearest: bool = True) -> list[int | None]:
    """For each truth stroke (its strike time, s, in order) the index of the found stroke
    (start times ``found_t``, s) matched to it, or None: an unmatched found stroke within
    ``within`` s, the nearest one (``nearest``) or the first in time order; each found
    stroke is matched once."""
    used: set[int] = set()
    out: list[int | None] = []
    for t in truth_t:
        near = [k for k, f in enumerate(found_t) if k not in used and abs(f - t) <= within]
        if nearest:
            k = min(near, key=lambda k: abs(found_t[k] - t), default=None)
        else:
            k = near[0] if near else None
        if k is not None:
            used.add(k)
        out.append(k)
    return out


def measured(run: dict[str, Any], more: str = "") -> str:
    """The line a section starts with, from :func:`bench.runinfo.run_info`: ``Measured DATE on
    MACHINE[more], commit `C`, by `COMMAND` (S s).``"""
    took = f" ({run['seconds']} s)" if "seconds" in run else ""
    return (f"Measured {run['date']} on {run['machine']}{more}, commit `{run['commit']}`, by "
            f"`{run['command']}`{took}.")
