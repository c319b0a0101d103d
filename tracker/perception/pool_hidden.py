"""How much of each detected pool ball a nearer ball hides in the picture (a side camera): a
ball's reading counts by how well it is seen (:class:`tracker.perception.pool_track.PoolTracker`,
``PoolTrackParams.hidden_*``)."""

from __future__ import annotations

import numpy as np


def hidden_shares(px: np.ndarray, radius_px: np.ndarray) -> np.ndarray:
    """How much of each detected ball a nearer ball hides: (N,) the largest overlap of its
    image disc (centres ``px`` (N, 2), radii ``radius_px`` (N,), px) with the disc of a ball
    lower in the picture (nearer the camera), as a share of its diameter, 0 (free) .. 1. Balls
    seen from straight above never overlap."""
    n = len(px)
    if n < 2:
        return np.zeros(n)
    px = np.asarray(px, float)
    r = np.asarray(radius_px, float)
    gap = np.linalg.norm(px[:, None] - px[None], axis=2)
    share = (r[:, None] + r[None] - gap) / np.maximum(2.0 * r[:, None], 1e-9)
    nearer = px[None, :, 1] > px[:, None, 1]  # [j, k]: k is lower in the picture than j
    share = np.where(nearer, np.clip(share, 0.0, 1.0), 0.0)
    return share.max(axis=1)
