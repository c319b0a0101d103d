"""Watching the calibrated view on video: camera moved (re-calibrate) and broadcast cuts
(frames not refereed until the calibrated view returns)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.auto import calibrate_image
from calibration.finder import TableNotFound
from calibration.profile import Calibration

#: A cushion edge counts as in place when found within this many pixels of the prediction.
EDGE_TOLERANCE_PX = 2.5
#: Fraction of edge samples that must be in place for the view to count as the calibrated one.
MIN_ALIGNMENT = 0.55


@dataclass(frozen=True)
class ViewStatus:
    """What the monitor says about one frame.

    Attributes:
        frame: frame index.
        state: ``ok`` (calibrated view), ``recalibrated`` (the camera moved; a new calibration
            is in force from this frame), ``lost`` (not the calibrated view: not refereed).
        alignment: fraction of cushion-edge samples found where the calibration predicts them.
    """

    frame: int
    state: str
    alignment: float

    @property
    def refereed(self) -> bool:
        """Whether calls may be made on this frame."""
        return self.state != "lost"


#: Edge samples whose profiles are read from one crop of the picture (a run of neighbours
#: along a cushion: a crop a little larger than their few square centimetres).
PROFILE_CHUNK = 8
#: Pixels around a chunk's samples kept in its crop: the blur's reach (4 px at sigma 1) and
#: the bilinear sample's (1 px), with room to spare.
PROFILE_MARGIN_PX = 8


def _profiles(img: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Grey levels (N, M) of ``img`` (BGR) blurred by a Gaussian of sigma 1 px, sampled
    bilinearly at ``grid`` (N, M, 2) image px (0 outside the picture). Only crops around runs of
    :data:`PROFILE_CHUNK` samples are converted and blurred, not the whole picture: the values
    are those of the whole picture blurred (each crop reaches :data:`PROFILE_MARGIN_PX` beyond
    its samples, further than the blur and the sampling look; a crop at the picture's edge
    ends where the picture does)."""
    h, w = img.shape[:2]
    out = np.zeros(grid.shape[:2], np.float32)
    m = PROFILE_MARGIN_PX
    for i in range(0, len(grid), PROFILE_CHUNK):
        g = grid[i:i + PROFILE_CHUNK]
        x0 = int(np.clip(np.floor(g[..., 0].min()) - m, 0, w))
        y0 = int(np.clip(np.floor(g[..., 1].min()) - m, 0, h))
        x1 = int(np.clip(np.ceil(g[..., 0].max()) + m + 1, 0, w))
        y1 = int(np.clip(np.ceil(g[..., 1].max()) + m + 1, 0, h))
        if x1 - x0 < 1 or y1 - y0 < 1:
            continue  # wholly outside the picture: zeros
        crop = img[y0:y1, x0:x1]
        # a crop that starts inside the picture is sampled where the picture's own pixels
        # are: a sample beyond the picture's edge reads 0 (as the whole picture's would)
        gray = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32),
                                (0, 0), 1.0)
        out[i:i + len(g)] = cv2.remap(gray, g[..., 0] - np.float32(x0), g[..., 1] - np.float32(y0),
                                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                      borderValue=0)
    return out


class ViewMonitor:
    """Checks every ``check_every`` frames that the cushion edges are where the calibration
    puts them; re-calibrates when the camera has moved; marks frames lost otherwise."""

    def __init__(self, calibration: Calibration, check_every: int = 5, samples_per_side: int = 40):
        self.cal = calibration
        self.check_every = max(1, check_every)
        self.samples = samples_per_side
        self.last = ViewStatus(-1, "ok", 1.0)
        self.history: list[ViewStatus] = []
        self._prepare()

    def _prepare(self) -> None:
        t = self.cal.table
        corners = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
        pts, normals = [], []
        centre = np.array([t.width / 2, t.length / 2])
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            for s in np.linspace(0.1, 0.9, self.samples):
                if abs(s - 0.5) < 0.06:
                    continue
                p = a + (b - a) * s
                inward = p + (centre - p) / np.linalg.norm(centre - p) * 20.0
                img_p = self.cal.to_image(p[None], t.cushion_height)[0]
                img_q = self.cal.to_image(inward[None], t.cushion_height)[0]
                n = img_q - img_p
                norm = np.linalg.norm(n)
                if norm < 1e-6:
                    continue
                pts.append(img_p)
                normals.append(n / norm)
        self._pts = np.array(pts)
        self._normals = np.array(normals)

    def alignment(self, img: np.ndarray) -> float:
        """Fraction of cushion-edge samples whose strongest step lies within
        :data:`EDGE_TOLERANCE_PX` of the calibrated position."""
        offs = np.arange(-10.0, 10.5, 0.5)
        grid = self._pts[:, None, :] + offs[None, :, None] * self._normals[:, None, :]
        prof = _profiles(img, grid.astype(np.float32))
        sg = np.gradient(prof, axis=1)
        g = np.abs(sg)
        # as in the finder: the step down into the shadow under the nose when there is one
        down = np.where(sg < 0, g, 0.0)
        use_down = down.max(axis=1) >= 0.5 * g.max(axis=1)
        peak = np.where(use_down, offs[np.argmax(down, axis=1)], offs[np.argmax(g, axis=1)])
        strong = g.max(axis=1) > 4.0
        return float(np.mean(strong & (np.abs(peak) <= EDGE_TOLERANCE_PX)))

    def update(self, frame: int, img: np.ndarray) -> ViewStatus:
        """Status of ``frame`` (checked every ``check_every`` frames, else the last verdict)."""
        if self.history and frame - self.history[-1].frame < self.check_every:
            st = ViewStatus(frame, "lost" if self.last.state == "lost" else "ok", self.last.alignment)
            return st
        score = self.alignment(img)
        if score >= MIN_ALIGNMENT:
            st = ViewStatus(frame, "ok", score)
        else:
            st = self._try_recalibrate(frame, img, score)
        self.last = st
        self.history.append(st)
        return st

    def _try_recalibrate(self, frame: int, img: np.ndarray, score: float) -> ViewStatus:
        try:
            new = calibrate_image(img, self.cal.table)
        except TableNotFound:
            return ViewStatus(frame, "lost", score)
        if new.fit_error_mm.get("median", 99.0) > 5.0:
            return ViewStatus(frame, "lost", score)
        old_cal = self.cal
        self.cal = new
        self._prepare()
        new_score = self.alignment(img)
        if new_score < MIN_ALIGNMENT:
            self.cal = old_cal
            self._prepare()
            return ViewStatus(frame, "lost", score)
        return ViewStatus(frame, "recalibrated", new_score)
