"""The pool crop maker (train/make_pool_crops.py): labels from the renderer's truth in the
contract's order, ball crops centred on balls, "none" crops not."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "train"))

import make_pool_crops as mpc  # noqa: E402


def test_labels_are_the_contracts():
    assert ("cue", *[str(i) for i in range(1, 16)], "none") == mpc.LABELS
    assert [mpc.pool_label(b) for b in ("white", "1", "8", "15")] == [0, 1, 8, 15]


def test_one_camera_of_crops():
    d = mpc.generate(1, 2, seed=3)
    x, y, src = d["x"], d["y"], d["source"]
    assert x.shape[1:] == (mpc.CROP_SIZE, mpc.CROP_SIZE, 3) and len(x) == len(y) == len(src)
    assert y.min() >= 0 and y.max() <= mpc.NONE
    balls = (y != mpc.NONE) & (src == 0)
    none = y == mpc.NONE
    assert balls.sum() >= 4 and none.sum() >= 4
    # a ball fills the middle of its crop: the middle differs from the corners (the cloth
    # around it) far more than in a "none" crop of cloth, cushion or pocket
    c = mpc.CROP_SIZE // 2
    mid = x[:, c - 2:c + 2, c - 2:c + 2].reshape(len(x), -1, 3).mean(1)
    corners = np.concatenate([x[:, :3, :3], x[:, :3, -3:], x[:, -3:, :3], x[:, -3:, -3:]], 1)
    contrast = np.abs(mid - corners.reshape(len(x), -1, 3).mean(1)).sum(1)
    assert np.median(contrast[balls]) > 2 * np.median(contrast[none])
