"""Where a ball's path leads on the table (for the tracker, :mod:`tracker.perception.track`):
the pocket nearest a straight path, the cushion face a ball meets first, whether a ball that
vanished reaches a pocket's mouth at its speed. Positions in table mm."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from calibration.table import TableGeometry

if TYPE_CHECKING:
    from tracker.perception.trackstate import TrackerConfig


def pocket_on_path(pocket_xy: dict[str, np.ndarray], a: np.ndarray,
                   b: np.ndarray) -> tuple[str, float]:
    """The pocket (of ``pocket_xy``: name -> mouth centre, mm) whose mouth centre comes
    nearest the straight path from ``a`` to ``b`` (mm), and that distance (mm): where a ball last seen at ``a``, heading for ``b``,
    passed closest to a pocket. A ball seen for the last time a frame before the
    mouth at 7 m/s (a red struck hard by another) is 280 mm on by the next frame; its
    path, not that point, says where it dropped."""
    ab = b - a
    span = float(ab @ ab)
    best, dist = "", float("inf")
    for name, m in pocket_xy.items():
        u = 0.0 if span == 0.0 else float(np.clip((m - a) @ ab / span, 0.0, 1.0))
        d = float(np.linalg.norm(a + u * ab - m))
        if d < dist:
            best, dist = name, d
    return best, dist


def cushion_ahead(t: TableGeometry, pocket_xy: dict[str, np.ndarray], p: np.ndarray,
                  direction: np.ndarray) -> tuple[str, float] | None:
    """(name, distance mm) of the cushion face a ball at ``p`` (mm) moving along the unit
    ``direction`` meets first (its centre a radius from the face), or None where that
    point lies within two corner-pocket mouths of a pocket (of ``pocket_xy``, mouth centres in
    mm) on table ``t`` (it would drop, not jump)."""
    hit = cushion_met(t, pocket_xy, p, direction)
    return None if hit is None else (hit[0], hit[1])


def cushion_met(t: TableGeometry, pocket_xy: dict[str, np.ndarray], p: np.ndarray,
                direction: np.ndarray) -> tuple[str, float, float] | None:
    """As :func:`cushion_ahead`, with the share (0..1] of the motion that goes into that face
    (the cosine between ``direction`` and the face's inward normal, reversed): a ball's speed
    into the cushion is its speed times this."""
    best: tuple[str, float, float] | None = None
    for axis, face, inward, name in t.cushion_faces:
        toward = -inward * float(direction[axis])
        if toward <= 1e-6:
            continue
        dist = (inward * (float(p[axis]) - face) - t.ball_radius) / toward
        if best is None or dist < best[1]:
            best = (name, max(0.0, dist), toward)
    if best is None:
        return None
    at = p + direction * best[1]
    if min(np.linalg.norm(at - c) for c in pocket_xy.values()) < 2.0 * t.corner_mouth:
        return None
    return t.cushion_label(best[0], float(at[1])), best[1], best[2]


def reaches_mouth(t: TableGeometry, pocket_xy: dict[str, np.ndarray], pocket: str, p: np.ndarray,
                  v: np.ndarray, mm_per_px: float, cfg: TrackerConfig) -> bool:
    """Whether a moving ball that just vanished, last seen at ``p`` (mm) moving at ``v``
    (mm/s), reaches ``pocket``'s mouth (its centre within half the mouth and a radius of the
    mouth's centre, ``pocket_xy``) within :attr:`TrackerConfig.pot_reach_s`, give or take the
    position error there (``pot_reach_slack_mm``, or ``pot_reach_slack_px`` pixels of
    ``mm_per_px`` mm): only then can it have dropped unseen. A slow ball that vanishes short
    of the mouth went out of the detector's sight on the bed."""
    capture = t.pockets[pocket].mouth_width / 2.0 + t.ball_radius
    short = float(np.linalg.norm(pocket_xy[pocket] - p)) - capture
    slack = max(cfg.pot_reach_slack_mm, cfg.pot_reach_slack_px * mm_per_px)
    return short <= float(np.linalg.norm(v)) * cfg.pot_reach_s + slack
