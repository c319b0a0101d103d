"""Where a ball at rest that vanished was sent: struck so hard by a moving ball that the camera
never saw it move (:func:`struck_towards`, asked by :class:`tracker.perception.track.Tracker`
for a ball gone the moment another ball's path reached it)."""

from __future__ import annotations

import numpy as np

from calibration.table import TableGeometry
from tracker.perception.paths import cushion_ahead
from tracker.perception.trackstate import OFF_TABLE, TrackerConfig


def struck_towards(table: TableGeometry, pocket_xy: dict[str, np.ndarray], cfg: TrackerConfig,
                   fps: float, ball: str, p: np.ndarray,
                   paths: dict[str, np.ndarray]) -> tuple[str, str | None] | None:
    """Where a ball at rest at ``p`` (mm) that vanished was sent, if another ball's path
    over the last frames (``paths``: ball -> (K, 2) mm) came within contact distance of it:
    (pocket, None) when the line of centres at that moment points within the cone of a
    pocket; (:data:`OFF_TABLE`, cushion) when it points at a cushion near enough to jump
    unseen; else None."""
    reach = 2 * table.ball_radius + cfg.contact_slack_mm
    best: tuple[float, np.ndarray] | None = None
    for other, path in paths.items():
        if other == ball or len(path) < 2 or np.linalg.norm(path[-1] - path[0]) < 2 * table.ball_radius:
            continue  # only a ball going fast (a diameter in a few frames) sends another out of sight
        for a, b in zip(path[:-1], path[1:], strict=True):
            ab = b - a
            L2 = float(ab @ ab)
            u = 0.0 if L2 == 0 else float(np.clip((p - a) @ ab / L2, 0.0, 1.0))
            q = a + u * ab
            d = float(np.linalg.norm(p - q))
            if d <= reach and (best is None or d < best[0]):
                best = (d, q)
            if d <= reach:
                break  # the first approach along the path is the contact
    if best is None or best[0] < 1e-6:
        return None
    direction = (p - best[1]) / best[0]
    cos_max, name = -2.0, None
    for n, c in pocket_xy.items():
        v = c - p
        cos = float(v @ direction / (np.linalg.norm(v) + 1e-9))
        if cos > cos_max:
            cos_max, name = cos, n
    if cos_max >= np.cos(np.radians(cfg.vanish_cone_deg)) and name is not None:
        return name, None
    # no pocket ahead: it may have jumped the cushion it was sent at, if that is near
    # enough to reach unseen (two frames at the fastest a ball goes)
    reach_off = 2.0 * cfg.max_speed_mm_s / fps
    hit = cushion_ahead(table, pocket_xy, p, direction)
    return (OFF_TABLE, hit[0]) if hit is not None and hit[1] <= reach_off else None
