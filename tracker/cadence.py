"""Repeated frames: video whose frame rate was raised by repeating pictures (pulldown).

TV footage is often made at 25 (or 50) pictures a second and published at 30: one picture
in six is shown twice. On such a clip a rolling ball seems to stop for a frame and then jump
two frames' worth, so its speed reads 0, then double, and a struck cue ball seems to be
carried by a hand (it "speeds up" after the repeat). All twelve broadcast clips of
``../shared/footage/broadcast-snooker`` do this.

:class:`FrameCadence` finds the repeats and gives every new picture its place on the
picture clock (:meth:`FrameCadence.tick`): repeats are skipped, and the others are numbered
at the true picture rate, so that speeds and times are right. A repeat is found by the
pixels that changed since the previous frame: a real picture of a table with players and
broadcast compression changes hundreds of them, a repeat next to none. The cadence is
switched on only when the first seconds show repeats at a steady period (a clip without
them, such as the project's own synthetic video, is read frame by frame as before).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass(frozen=True)
class CadenceParams:
    """The tunables of the repeat finder.

    Attributes:
        size: working size for the change count (w, h px): enough to see a ball move, cheap to
            compute.
        repeat_level: a pixel has changed when its grey level moved by more than this from
            the previous frame (at ``size``): a repeated picture re-encoded stays under it
            almost everywhere. Not the change gate's ``GateParams.level`` (18,
            :mod:`tracker.perception.params`): that compares each colour channel with a
            reference picture, where noise and slow light drift build up.
        repeat_share: a frame is a repeat when it changed at most this share of the usual
            change of the last ``usual_window`` frames (a picture shown twice differs only by
            a few re-encoded pixels).
        min_usual_change_px: the usual change (px) must be at least this for a repeat to be
            told apart: below it the picture is still, and a repeat changes nothing that
            matters.
        usual_window: frames over which the usual change is taken (its upper quartile).
        min_repeats: repeats needed in the first seconds, at a steady period, to switch the
            cadence on ...
        steady_share: ... at least this share of the gaps between them being that period.
    """

    size: tuple[int, int] = (640, 360)
    repeat_level: int = 12
    repeat_share: float = 0.05
    min_usual_change_px: int = 40
    usual_window: int = 6
    min_repeats: int = 3
    steady_share: float = 0.6


#: The repeat finder's tunables.
CADENCE = CadenceParams()
#: Working size for the change count and :func:`table_mask` (w, h px).
CHANGE_SIZE = CADENCE.size


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(cv2.resize(img, CHANGE_SIZE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)


def table_mask(cal, margin_mm: float = 150.0) -> np.ndarray:
    """Where the table is in a frame of the camera ``cal`` (a
    :class:`calibration.profile.Calibration`), at :data:`CHANGE_SIZE`: bool (360, 640), the
    playing area grown by ``margin_mm`` (the cushions and rails). Repeats are looked for
    there: captions and tickers drawn at the output rate change every frame."""
    t = cal.table
    m = margin_mm
    quad = np.array([[-m, -m], [t.width + m, -m], [t.width + m, t.length + m], [-m, t.length + m]])
    dense = np.concatenate([np.linspace(quad[i], quad[(i + 1) % 4], 30) for i in range(4)])
    px = cal.to_image(dense, t.cushion_height)
    w, h = cal.image_size
    px = px * [CHANGE_SIZE[0] / w, CHANGE_SIZE[1] / h]
    out = np.zeros(CHANGE_SIZE[::-1], np.uint8)
    cv2.fillPoly(out, [np.round(px).astype(np.int32)], 1)
    return out.astype(bool)


@dataclass
class FrameCadence:
    """Which frames are repeats, and the picture clock.

    Attributes:
        period: a repeat every ``period`` frames (None: no repeats, every frame is new).
        fps: the source's frame rate.
    """

    fps: float
    period: int | None = None
    mask: np.ndarray | None = field(default=None, repr=False)
    _prev: np.ndarray | None = field(default=None, repr=False)
    _recent: deque = field(default_factory=lambda: deque(maxlen=CADENCE.usual_window), repr=False)
    _count: int = -1
    repeats: int = 0

    @property
    def picture_fps(self) -> float:
        """Pictures per second: the source's rate less the repeats."""
        return self.fps if self.period is None else self.fps * (self.period - 1) / self.period

    def _classify(self, img: np.ndarray) -> tuple[bool, bool]:
        """(whether ``img`` repeats the previous frame, whether the picture is still: too
        little changes from frame to frame for a repeat to be told apart)."""
        g = _grey(img)
        prev, self._prev = self._prev, g
        if prev is None:
            return False, True
        d = cv2.absdiff(g, prev) > CADENCE.repeat_level
        n = int(np.count_nonzero(d & self.mask if self.mask is not None else d))
        # the usual change: the upper quartile of the last frames (repeats among them, at most
        # one in two, do not pull it down; a picture come to rest does within a few frames)
        usual = float(np.percentile(self._recent, 75)) if self._recent else 0.0
        self._recent.append(n)
        still = usual < CADENCE.min_usual_change_px
        return not still and n <= CADENCE.repeat_share * usual, still

    @classmethod
    def learn(cls, frames: Iterable[np.ndarray], fps: float,
              mask: np.ndarray | None = None) -> FrameCadence:
        """The cadence of a source from its first frames (BGR, in order, e.g. two seconds):
        switched on when at least ``CadenceParams.min_repeats`` repeats come at a steady period.
        ``mask``: where to look (:func:`table_mask`; None: the whole picture)."""
        probe = cls(fps, mask=mask)
        at = [i for i, img in enumerate(frames) if probe._classify(img)[0]]
        gaps = np.diff(at)
        if len(at) < CADENCE.min_repeats or not len(gaps):
            return cls(fps, mask=mask)
        period = int(np.median(gaps))
        steady = np.mean(gaps == period) >= CADENCE.steady_share
        return cls(fps, period if period >= 2 and steady else None, mask=mask)

    def tick(self, img: np.ndarray, index: int) -> int | None:
        """The picture number of source frame ``index`` (image ``img``) on the picture
        clock (``picture_fps``), or None when it repeats the previous picture. Frames must
        come in order. Without a cadence the picture number is the frame index."""
        if self.period is None:
            return index
        repeat, still = self._classify(img)
        if repeat:
            self.repeats += 1
            return None
        clock = int(round(index * (self.period - 1) / self.period))
        if still:
            # nothing moves: the clock numbers the picture (repeats cannot be seen here, and
            # a still picture that falls on the last one's number is skipped: nothing is lost)
            if clock <= self._count:
                return None
            self._count = clock
        else:
            # a new picture: the next number, never more than one behind the clock
            self._count = max(self._count + 1, clock - 1)
        return self._count
