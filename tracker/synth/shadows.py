"""Shadows a ball casts on the cloth away from each lamp (the renderer's cast shadows).

A lamp is a glowing disc of ``lamp_size_mm`` at a point ``(x, y, z)`` mm above the cloth; a
ball is a sphere of radius R. A point of the cloth is in a lamp's shadow where the line from
it to the lamp passes within R of the ball's centre; over the penumbra (the lamp's width
seen from the cloth point, scaled to the ball's distance) the lamp is hidden only in part.
How dark the shadow is follows how much of that point's light the lamp gives (its share of
the lamps' pools of light on the cloth) and how much of the cloth's light comes straight
from the lamps at all (``strength``; the rest is light from the room). The long, faint
shadow of a far lamp and the short, dark one of a lamp nearly above the ball both follow.

Units: mm on the table (x across, y along, z up from the cloth); arrays as documented.
"""

from __future__ import annotations

import numpy as np


def shadow_extent(centre: np.ndarray, lamps: np.ndarray, radius: float, lamp_size_mm: float
                  ) -> tuple[float, float, float, float] | None:
    """Box (x0, y0, x1, y1) mm on the cloth holding every lamp's shadow of a ball at
    ``centre`` (3,) mm, lamps (L, 3) mm: the cube round the ball projected from each lamp onto
    the cloth, grown by that lamp's penumbra; None when every lamp is below the ball's top."""
    r = radius
    cube = centre[None, :] + np.array([[dx, dy, dz] for dx in (-r, r) for dy in (-r, r)
                                       for dz in (-r, r)])
    xs: list[float] = []
    ys: list[float] = []
    top = float(centre[2] + r)
    for lamp in lamps:
        if lamp[2] <= top + 1.0:
            continue
        s = lamp[2] / (lamp[2] - cube[:, 2])  # along the ray from the lamp to z = 0
        hit = lamp[None, :2] + (cube[:, :2] - lamp[None, :2]) * s[:, None]
        pen = lamp_size_mm * top / (lamp[2] - top) + 2.0
        xs += [float(hit[:, 0].min() - pen), float(hit[:, 0].max() + pen)]
        ys += [float(hit[:, 1].min() - pen), float(hit[:, 1].max() + pen)]
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def hidden_share(points: np.ndarray, centre: np.ndarray, lamps: np.ndarray, radius: float,
                 lamp_size_mm: float) -> np.ndarray:
    """How much of each lamp the ball hides, seen from each cloth point: (L, N) 0..1.

    Args:
        points: (N, 2) mm, points of the cloth (z = 0).
        centre: (3,) mm, the ball's centre.
        lamps: (L, 3) mm, the lamps' centres.
        radius: the ball's radius, mm.
        lamp_size_mm: each lamp's diameter, mm (0: a point, hard-edged shadows).
    """
    q = np.concatenate([points, np.zeros((len(points), 1))], axis=1)
    out = np.zeros((len(lamps), len(points)), np.float32)
    w = centre[None, :] - q  # (N, 3) from the cloth point to the ball
    for i, lamp in enumerate(lamps):
        v = lamp[None, :] - q
        dist = np.linalg.norm(v, axis=1)
        u = v / np.maximum(dist, 1e-6)[:, None]
        t = (w * u).sum(1)  # the ball's distance along the line to the lamp
        perp = np.sqrt(np.maximum((w * w).sum(1) - t * t, 0.0))
        # the lamp's width seen from the point, at the ball's distance
        pen = lamp_size_mm * t / np.maximum(dist - t, 1.0)
        share = np.clip((radius - perp) / np.maximum(pen, 0.5) + 0.5, 0.0, 1.0)
        out[i] = np.where((t > 0) & (t < dist), share, 0.0)
    return out


def lamp_shares(points: np.ndarray, lamps: np.ndarray, spread_mm: float) -> np.ndarray:
    """Each lamp's share of the light at each cloth point (L, N), summing to 1 over the lamps:
    its pool of light there (a Gaussian of ``spread_mm`` round the point below it, as the
    renderer's light on the cloth) over all the pools."""
    d2 = ((points[None, :, 0] - lamps[:, None, 0]) ** 2
          + (points[None, :, 1] - lamps[:, None, 1]) ** 2)
    g = np.exp(-d2 / (2.0 * spread_mm ** 2))
    return (g / np.maximum(g.sum(0, keepdims=True), 1e-12)).astype(np.float32)


def darkening(points: np.ndarray, centre: np.ndarray, lamps: np.ndarray, radius: float,
              lamp_size_mm: float, spread_mm: float) -> np.ndarray:
    """Share of each cloth point's lamp light (N,) 0..1 that the ball at ``centre`` takes
    away: each lamp's hidden part weighted by its share of the light there."""
    return (hidden_share(points, centre, lamps, radius, lamp_size_mm)
            * lamp_shares(points, lamps, spread_mm)).sum(0)
