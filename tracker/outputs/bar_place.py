"""Where the overlay video's score bar goes: at the bottom, at the top, or (``auto``) at the
bottom unless the broadcaster's own graphic is there.

A broadcast picture often carries the broadcaster's score bar in its lower band; the overlay
video's bar drawn there would hide it. ``auto`` looks at the first :attr:`BarParams.window_s`
seconds of the picture: a broadcaster's graphic is lettering and boxes that stay exactly where
they are, so its band holds many upright edges (the strokes of letters and digits, the ends
of boxes) that are there in every sampled picture at the same place with the same brightness.
The cloth has no such edges, a moving player's are not in the same place twice, and the
table's cushions and the floor give far fewer. When the lower band's share of such pixels
reaches :attr:`BarParams.graphic_density`, the bar goes to the top.

Measured on the development split's broadcast clips (docs/ACCURACY.md, "The overlay video's
score bar"): share 0.027-0.062 in the nine clips with a lower-band graphic, 0.008 in the one
without, 0.009-0.013 on the bundled samples (no graphic).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: The placements ``process --overlay-bar`` takes.
PLACES = ("auto", "bottom", "top")


@dataclass(frozen=True)
class BarParams:
    """Where the score bar goes, and how ``auto`` finds a broadcaster's graphic.

    Attributes:
        place: ``bottom``, ``top`` or ``auto`` (see the module docstring).
        band_frac: the lower (and upper) band's height, as a fraction of the picture's; the
            bar and the foul line above it fill about 12 % at the bottom.
        window_s: ``auto`` decides from this much video (s) at the start; the pictures of
            that time are held until it has decided.
        samples: pictures compared (evenly spread over the window).
        edge_min: an upright edge: a horizontal brightness change (Sobel, 3x3) at least this
            large (grey levels per pixel, 0-255 picture).
        static_range: a pixel stays the same: its grey level differs by less than this across
            the samples (grey levels; allows for compression noise).
        graphic_density: the share of the band's pixels that are still, upright edges in
            every sample from which the band is taken to carry a graphic.
    """

    place: str = "auto"
    band_frac: float = 0.15
    window_s: float = 1.0
    samples: int = 6
    edge_min: float = 80.0
    static_range: float = 20.0
    graphic_density: float = 0.02

    def __post_init__(self) -> None:
        if self.place not in PLACES:
            raise ValueError(f"the score bar goes at the {', '.join(PLACES[1:])} or auto, "
                             f"not {self.place!r}")


def still_edge_share(images: Sequence[np.ndarray], where: str, params: BarParams) -> float:
    """The share (0-1) of the band's pixels that are an upright edge in every one of
    ``images`` and keep their brightness across them.

    Args:
        images: pictures of the same camera, BGR uint8, each (H, W, 3).
        where: ``bottom`` or ``top``: which band.
        params: the band's height and the thresholds.
    """
    h = images[0].shape[0]
    band = max(1, int(round(h * params.band_frac)))
    rows = slice(h - band, h) if where == "bottom" else slice(0, band)
    greys = [cv2.cvtColor(im[rows], cv2.COLOR_BGR2GRAY).astype(np.float32) for im in images]
    stack = np.stack(greys)
    still = (stack.max(axis=0) - stack.min(axis=0)) < params.static_range
    for g in greys:
        still &= np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)) >= params.edge_min
    return float(still.mean())


def free_band(images: Sequence[np.ndarray], params: BarParams = BarParams()) -> str:
    """``bottom``, unless the lower band of ``images`` carries a still graphic: then ``top``
    (for ``auto``; a set place is returned as it is). ``images``: as :func:`still_edge_share`;
    evenly spread samples of them are compared."""
    if params.place != "auto":
        return params.place
    if len(images) == 0:
        return "bottom"
    pick = np.linspace(0, len(images) - 1, min(params.samples, len(images))).round().astype(int)
    chosen = [images[i] for i in sorted(set(pick.tolist()))]
    share = still_edge_share(chosen, "bottom", params)
    return "top" if share >= params.graphic_density else "bottom"
