"""The view monitor reads its cushion-edge profiles from crops around the samples (for speed):
the values must be those of the whole picture blurred, at the picture's edges too."""

import cv2
import numpy as np

from calibration.monitor import _profiles


def _whole_picture(img: np.ndarray, grid: np.ndarray) -> np.ndarray:
    gray = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    return cv2.remap(gray, grid[..., 0], grid[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def test_profiles_from_crops_are_the_whole_pictures():
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (360, 640, 3), np.uint8)
    # runs of samples along lines, some reaching over the picture's edges, one wholly outside
    starts = rng.uniform([-20, -20], [660, 380], (40, 2))
    starts[0] = (-200, -200)
    normals = rng.normal(size=(40, 2))
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    offs = np.arange(-10.0, 10.5, 0.5)
    grid = (starts[:, None, :] + offs[None, :, None] * normals[:, None, :]).astype(np.float32)
    want = _whole_picture(img, grid)
    got = _profiles(img, grid)
    assert np.array_equal(got, want)
    assert (got[0] == 0).all() and (want[0] == 0).all()
