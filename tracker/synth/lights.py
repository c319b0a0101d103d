"""The hall's lights failing over a video: dimmed for a while, or flickering (issue 28's session
faults), laid over any frame source so that the same footage can be refereed with and without
the fault and the calls compared (``tests/test_lights.py``, ``bench/lights.py``).

Three faults, each over its own stretch of seconds:

* dimmed: every pixel times ``dim_gain`` (a dimmer turned down, a tube failing);
* flickering: the brightness alternates frame to frame between ``flicker_gains`` (a failing
  tube or a mains-frequency beat against the camera's frame rate);
* banding: on the flickering frames, horizontal bands as a rolling shutter records 50/100 Hz
  lights (gain ``1 - banding * (1 + sin(2 pi row / band_period_px + phase)) / 2``, the phase
  moving from frame to frame).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from tracker.sources import Frame, FrameSource


@dataclass(frozen=True)
class LightsFault:
    """When and how much the lights fail.

    Attributes:
        dim_s: (from, to) seconds of the source during which the lights are dimmed; None: never.
        dim_gain: brightness while dimmed (0.5: half the light).
        flicker_s: (from, to) seconds during which the lights flicker; None: never.
        flicker_gains: the two brightnesses a flickering light alternates between, frame by frame.
        banding: depth of the rolling-shutter bands on flickering frames (0: none, 0.3: the
            darkest rows get 30 % less light).
        band_period_px: height of one band, px of the frame.
    """

    dim_s: tuple[float, float] | None = None
    dim_gain: float = 0.5
    flicker_s: tuple[float, float] | None = None
    flicker_gains: tuple[float, float] = (1.0, 0.6)
    banding: float = 0.0
    band_period_px: float = 180.0

    def row_gains(self, t: float, index: int, height: int) -> np.ndarray | None:
        """The light's gain on each row (``height``,) float32 for the frame ``index`` at ``t``
        seconds; None where the lights are as they should be."""
        gain = np.ones(height, np.float32)
        touched = False
        if self.dim_s is not None and self.dim_s[0] <= t < self.dim_s[1]:
            gain *= self.dim_gain
            touched = True
        if self.flicker_s is not None and self.flicker_s[0] <= t < self.flicker_s[1]:
            gain *= self.flicker_gains[index % 2]
            if self.banding > 0:
                rows = np.arange(height, dtype=np.float32)
                phase = 2.0 * np.pi * ((index * 0.37) % 1.0)
                wave = np.sin(2.0 * np.pi * rows / self.band_period_px + phase)
                gain *= (1.0 - self.banding * (1.0 + wave) / 2.0).astype(np.float32)
            touched = True
        return gain if touched else None

    def apply(self, image: np.ndarray, t: float, index: int) -> np.ndarray:
        """``image`` (BGR uint8, (H, W, 3)) as the camera records it under the failing
        lights at ``t`` s (frame ``index``): a new picture, or ``image`` itself when the
        lights are fine."""
        gain = self.row_gains(t, index, image.shape[0])
        if gain is None:
            return image
        lit = image.astype(np.float32) * gain[:, None, None]
        return np.clip(lit + 0.5, 0, 255).astype(np.uint8)


class LightsSource(FrameSource):
    """``source``'s frames with the lights failing as ``fault`` says; everything else
    (name, rate, size, length, how it ended) is the source's own."""

    def __init__(self, source: FrameSource, fault: LightsFault):
        super().__init__()
        self.source, self.fault = source, fault
        self.name, self.fps, self.size = source.name, source.fps, source.size
        self.total, self.live = source.total, source.live

    def frames(self) -> Iterator[Frame]:
        inner = iter(self.source)
        try:
            for f in inner:
                if self._stop:
                    break
                yield Frame(f.index, f.t, self.fault.apply(f.image, f.t, f.index), f.gap_s,
                            f.arrived)
        finally:
            close = getattr(inner, "close", None)
            if close is not None:
                close()
            self.end = self.source.end

    def stop(self) -> None:
        super().stop()
        self.source.stop()

    def close(self) -> None:
        self.source.close()
