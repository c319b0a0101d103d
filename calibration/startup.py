"""Starting on a video as it comes: the camera from the best of the first seconds.

Frame 0 alone is a poor picture to calibrate from on real footage: the striker is often down
on a shot over a cushion, the referee in front of the table, a caption over the cloth. The
start reads a window of the first seconds (:data:`START_WINDOW_S`), tries a calibration on
frames spread over it and keeps the one whose cushions fit best
(:func:`calibration.auto.calibrate_best`, as the one-shot pot watcher does over a clip). When
no frame of the window shows the table (the video opens on a close-up, the crowd, a caption
card), the next window is tried, up to :data:`START_SEARCH_S`; the frames before the window
that calibrated are not refereed.

The same frames then teach the run this view: the frames that show it (the others are a cut
inside the window) are the reference of the view monitor and the pictures the ball detector
learns the cloth and the colours from. :func:`working_scale` picks the detector's working
scale from how small the balls look.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from calibration.auto import calibrate_best
from calibration.finder import TableNotFound
from calibration.markings import BallFinder
from calibration.profile import Calibration
from calibration.table import TableGeometry

#: Seconds of video the calibration is chosen from (the first window).
START_WINDOW_S = 2.0
#: Frames tried for a calibration, spread over a window (potwatch's "best of 8").
START_SAMPLES = 8
#: How far into the video a table is looked for before giving up, s.
START_SEARCH_S = 12.0
#: The detector works at half resolution unless the smallest ball of the view would then be
#: less than this radius, px (a 720p TV main camera: about 7 px at full size for the
#: farthest balls).
MIN_WORKING_RADIUS_PX = 4.5


class NoTableAtStart(RuntimeError):
    """No frame of the first :data:`START_SEARCH_S` seconds shows a table; the message says
    why (the first frame's reason)."""


@dataclass
class StartWindow:
    """Where refereeing starts.

    Attributes:
        frames: the window's frames (any objects with ``.index`` and ``.image``), in order;
            refereeing starts with the first of them.
        calibration: the camera.
        samples: BGR frames of the window that were tried (those that showed the table).
        skipped: frames read before the window (no table in them): not refereed.
        tried: frames a calibration was tried on.
    """

    frames: list
    calibration: Calibration
    samples: list[np.ndarray] = field(default_factory=list)
    skipped: int = 0
    tried: int = 0


def spread(n: int, k: int) -> np.ndarray:
    """``k`` indices spread evenly over ``range(n)`` (both ends included), without repeats."""
    return np.unique(np.linspace(0, max(0, n - 1), max(1, k)).round().astype(int))


def find_start(frames: Iterator, fps: float, table: TableGeometry,
               calibration: Calibration | None = None, window_s: float = START_WINDOW_S,
               search_s: float = START_SEARCH_S, samples: int = START_SAMPLES,
               ball_finder: BallFinder | None = None) -> StartWindow:
    """Read the first window of ``frames`` (an iterator of frames with ``.index`` and
    ``.image``) and calibrate from the best of ``samples`` frames spread over it; with a
    ``calibration`` given, only the window is read (its frames still teach the view).
    ``ball_finder``: finds the balls for the markings and the orientation
    (:func:`calibration.auto.calibrate_image`).

    Raises:
        NoTableAtStart: no window within ``search_s`` seconds gave a calibration, or the
            video has no frame.
    """
    per_window = max(1, int(round(window_s * fps)))
    windows = max(1, int(np.ceil(search_s / window_s)))
    skipped = tried = 0
    first_error: str | None = None
    for _ in range(windows):
        window = []
        for f in frames:
            window.append(f)
            if len(window) >= per_window:
                break
        if not window:
            break
        picked = [window[i].image for i in spread(len(window), samples)]
        if calibration is not None:
            return StartWindow(window, calibration, picked, skipped, 0)
        tried += len(picked)
        try:
            cal = calibrate_best(picked, table, ball_finder=ball_finder)
        except TableNotFound as exc:
            first_error = first_error or str(exc)
            skipped += len(window)
            continue
        return StartWindow(window, cal, picked, skipped, tried)
    if first_error is None and not skipped:
        raise NoTableAtStart("the video has no readable frame")
    raise NoTableAtStart(f"no table found in the first {skipped / fps:.1f} s ({tried} frames "
                         f"tried; the first said: {first_error})")


def smallest_ball_radius_px(cal: Calibration) -> float:
    """The apparent radius (px, full size) of a ball at the table's four corners and centre,
    the smallest of them (the far end of an oblique view)."""
    t = cal.table
    r = t.ball_radius
    places = np.array([[r * 2, r * 2], [t.width - 2 * r, 2 * r], [t.width - 2 * r, t.length - 2 * r],
                       [2 * r, t.length - 2 * r], [t.width / 2, t.length / 2]])
    out = []
    for p in places:
        c = cal.to_image(p[None], r)[0]
        # a sphere images as a circle at the scale of the less foreshortened direction
        dx = np.linalg.norm(cal.to_image(p[None] + [[r, 0]], r)[0] - c)
        dy = np.linalg.norm(cal.to_image(p[None] + [[0, r]], r)[0] - c)
        out.append(max(dx, dy))
    return float(min(out))


def working_scale(cal: Calibration) -> float:
    """The ball detector's working scale for this camera: 0.5, or 1.0 where half size would
    make the smallest ball less than :data:`MIN_WORKING_RADIUS_PX` in radius."""
    return 0.5 if 0.5 * smallest_ball_radius_px(cal) >= MIN_WORKING_RADIUS_PX else 1.0
