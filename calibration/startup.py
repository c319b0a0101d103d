"""Starting on a video as it comes: the camera from the best of the first seconds.

Frame 0 alone is a poor picture to calibrate from on real footage: the striker is often down
on a shot over a cushion, the referee in front of the table, a caption over the cloth. The
start reads a window of the first seconds (:data:`START_WINDOW_S`), tries a calibration on
frames spread over it and keeps the one whose cushions fit best
(:func:`calibration.auto.calibrate_best`, as the one-shot pot watcher does over a clip). When
no frame of the window shows the table (the video opens on a close-up, the crowd, a caption
card), the next window is tried, up to :data:`START_SEARCH_S`; the frames before the window
that calibrated are not refereed.

A start whose cushions fit poorly (a player over the table in every picture of the window:
the real 9-ball clearance's start fits 9.6 mm, where a picture of the same view 20 s on fits
5.4 mm) is calibrated again, before any frame is refereed, on pictures further on in a video
file that show the same view (:func:`better_start`): the camera stands still, so the better
fit holds from the first frame (the view monitor's later refit, :class:`ViewMonitor`, comes
too late for the strokes already refereed).

The same frames then teach the run this view: the frames that show it (the others are a cut
inside the window) are the reference of the view monitor and the pictures the ball detector
learns the cloth and the colours from. :func:`working_scale` picks the detector's working
scale from how small the balls look.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.auto import calibrate_best, calibrate_image
from calibration.finder import TableNotFound
from calibration.markings import BallFinder
from calibration.monitor import BETTER_VIEW_FIT_MM, BETTER_VIEW_GAIN, ViewSignature, same_end
from calibration.profile import Calibration
from calibration.table import TableGeometry

#: Seconds of video the calibration is chosen from (the first window).
START_WINDOW_S = 2.0
#: Frames tried for a calibration, spread over a window (potwatch's "best of 8").
START_SAMPLES = 8
#: Frames tried on a live source, whose frames go by while the calibration is worked out
#: (each try costs about 0.6 s of one core at 1080p; a hall camera's view is steady).
START_SAMPLES_LIVE = 2
#: How far into the video a table is looked for before giving up, s.
START_SEARCH_S = 12.0
#: A start calibration fitting the cushions worse than :data:`BETTER_VIEW_FIT_MM` (median) is
#: tried again on a picture of a video file every this many seconds ...
LOOK_AHEAD_EVERY_S = 5.0
#: ... up to this far into it (each try about 0.6 s of one core at 1080p), s; a try is taken
#: when it shows the same view and fits as the view monitor's refit asks
#: (:data:`BETTER_VIEW_GAIN`, no side worse).
LOOK_AHEAD_S = 30.0
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


def better_start(cal: Calibration, pictures: Iterable[np.ndarray],
                 reference: Sequence[np.ndarray],
                 ball_finder: BallFinder | None = None) -> Calibration:
    """``cal`` (found on the start window's pictures ``reference``, BGR), or a better
    calibration of the same view from one of ``pictures`` (BGR, later in the video; read only
    as far as needed) when ``cal`` was found automatically and fits the cushions worse than
    :data:`BETTER_VIEW_FIT_MM` (median mm): the first picture that shows the same view (its
    cloth outline where the start's is: :meth:`ViewSignature.same_view`) and calibrates to a
    median fit at most :data:`BETTER_VIEW_GAIN` of the start's with no side worse, turned to
    the start's ends (:func:`same_end`); ``cal`` when none does."""
    fit = cal.fit_error_mm
    if cal.method != "auto" or fit.get("median", 0.0) <= BETTER_VIEW_FIT_MM or not reference:
        return cal
    signature = ViewSignature.build(cal, reference)
    for img in pictures:
        if not signature.same_view(img)[0]:
            continue  # a player across the outline, a cut: not this view's picture
        try:
            new = calibrate_image(img, cal.table, ball_finder=ball_finder)
        except (TableNotFound, cv2.error, ValueError, np.linalg.LinAlgError):
            continue
        got = new.fit_error_mm
        if (got.get("median", 99.0) <= BETTER_VIEW_GAIN * fit["median"]
                and got.get("worst_side", 99.0) <= fit.get("worst_side", 99.0)):
            return same_end(cal, new)
    return cal


def pictures_ahead(path: str, fps: float, every_s: float = LOOK_AHEAD_EVERY_S,
                   until_s: float = LOOK_AHEAD_S) -> Iterator[np.ndarray]:
    """Pictures (BGR) of the video file ``path`` every ``every_s`` seconds from ``every_s``
    to ``until_s``, each read when asked for (a second reader of the file: the run's own
    frames are not touched); ends early where the video does."""
    cap = cv2.VideoCapture(str(path))
    try:
        t = every_s
        while t <= until_s + 1e-9 and cap.isOpened():
            cap.set(cv2.CAP_PROP_POS_FRAMES, int(round(t * fps)))
            ok, img = cap.read()
            if not ok:
                return
            yield img
            t += every_s
    finally:
        cap.release()
