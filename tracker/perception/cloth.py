"""The cloth model: the cloth's colour at every pixel, the fixtures to mask (pocket holes,
rails, shadowed cushion faces), and the foreground of a frame (what is not cloth).

:class:`Cloth` is learned from one frame (or a few) of a camera (:meth:`Cloth.learn`);
:meth:`Cloth.foreground` gives a frame's :class:`Foreground`, which the candidate search and
the faint-ball search read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from tracker.perception.geometry import TableView
from tracker.perception.params import FixtureParams, ForegroundParams


@dataclass
class ClothMaps:
    """Per-pixel maps (working scale, each (h, w)) derived from a cloth map and fixtures,
    made once per :meth:`Cloth.learn` instead of once per frame or box (the same values the
    per-frame arithmetic gave).

    Attributes:
        cloth_l, cloth_a, cloth_b: the cloth map's Lab channels, int16 (8-bit Lab levels).
        dark_level: a pixel whose lightness is under this (float64, ``dark`` times the
            cloth's) is dark.
        bright_level: ... over this (int16, the cloth's + ``bright``) is bright.
        allowed: uint8 0/1, the table region less the fixtures (where foreground can be).
        cloth_lf, cloth_af, cloth_bf: the cloth map's channels as float32.
        light_den: float32, the cloth's lightness, at least 1 (the faint-ball score's divisor).
        faint_allowed: bool, where a faint ball's peak may be before the frame's own blobs
            and balls are cleared: inside the bed by the clearance and away from the fixtures
            by it (:func:`tracker.perception.faint.faint_balls`).
    """

    cloth_l: np.ndarray
    cloth_a: np.ndarray
    cloth_b: np.ndarray
    dark_level: np.ndarray
    bright_level: np.ndarray
    allowed: np.ndarray
    cloth_lf: np.ndarray
    cloth_af: np.ndarray
    cloth_bf: np.ndarray
    light_den: np.ndarray
    faint_allowed: np.ndarray

    def cut(self, x0: int, y0: int, x1: int, y1: int) -> ClothMaps:
        """The maps inside the box [x0, x1) x [y0, y1) (working-scale px), as views."""
        return ClothMaps(**{k: v[y0:y1, x0:x1] for k, v in self.__dict__.items()})


@dataclass
class Foreground:
    """One working-scale picture's non-cloth pixels.

    Attributes:
        mask: uint8 0/1 (h, w): not cloth, inside the table region, less the fixtures.
        dark: bool (h, w): dark and not chromatic (a player's dark clothes, a shadow).
        strokes: bool (h, w) or None: light or dark thin strokes the opening dropped (the
            figures of a score bar), kept clear of by the faint-ball search.
        lab: the picture's Lab channels (int16 each).
        small: the picture it was made from.
    """

    mask: np.ndarray
    dark: np.ndarray
    strokes: np.ndarray | None
    lab: tuple[np.ndarray, np.ndarray, np.ndarray]
    small: np.ndarray


def faint_clearance(r: float) -> int:
    """Side (odd, px) of the disc that keeps the faint-ball search clear of the bed's edges,
    the fixtures and big blobs, for a ball of ``r`` working-scale px: about 4 radii."""
    return max(3, int(4 * r) | 1)


class Cloth:
    """The cloth and the fixtures of one camera's table, and each frame's foreground.

    Attributes:
        cloth_lab: (3,) float32 the bed's median Lab colour (None until learned).
        cloth_map: (h, w, 3) int16 Lab: the cloth's colour at every working-scale pixel.
        static: uint8 0/1: the fixtures masked out of every frame's foreground.
        edge: bool: where something reaching in from outside the table meets the table's
            area: the region's rim, and the border of the fixtures masked out beside the bed
            (not at the pockets, where a ball in the jaws touches the fittings).
        fresh: no whole picture has been searched since the cloth was learned.
    """

    def __init__(self, view: TableView, fg: ForegroundParams, fixtures: FixtureParams):
        self.view = view
        self.fg_params = fg
        self.fixture_params = fixtures
        self.cloth_lab: np.ndarray | None = None
        self.cloth_map: np.ndarray | None = None
        self.static = np.zeros_like(view.region)
        self.edge: np.ndarray | None = None
        self.fresh = True
        #: maps derived from ``cloth_map`` and ``static`` (:meth:`maps`), and the two they
        #: were made from
        self._maps: ClothMaps | None = None
        self._maps_of: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        k = max(3, int(0.8 * view.r_px * view.scale) | 1)
        self.open_kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))

    @property
    def learned(self) -> bool:
        """Whether the cloth has been learned."""
        return self.cloth_lab is not None

    def learn(self, frame: np.ndarray, others: list[np.ndarray] | None = None) -> None:
        """Learn the cloth from one frame: its median Lab colour, the per-pixel cloth map
        (:meth:`_cloth_map`), and the fixtures to mask (``static``). ``others``: more frames
        of the same camera (e.g. spread over a clip): what stays non-cloth in every one of
        them inside a pocket's zone is the pocket (the shadow in its jaws), not a ball."""
        v = self.view
        small = cv2.resize(frame, v.small, interpolation=cv2.INTER_AREA)
        lab_img = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
        lab = lab_img.reshape(-1, 3)
        inside = v.bed.ravel().astype(bool)
        self.cloth_lab = np.median(lab[inside], axis=0).astype(np.float32)
        self.cloth_map = self._cloth_map(lab_img)
        # fixtures are not balls: mask what is not cloth outside the bed (pocket fittings,
        # jaws, rails) and the dark greyish pocket holes; a ball inside the bed, even touching
        # a cushion or in the jaws, keeps its pixels on the bed
        fg = self.foreground(small, opened=False).mask
        li = lab_img.astype(np.int16)
        grey = np.abs(li[..., 1] - 128) + np.abs(li[..., 2] - 128) < 40
        holes = (li[..., 0] < 0.55 * self.cloth_lab[0]) & grey & v.pocket_zone.astype(bool)
        if others:
            always = fg.astype(bool) & v.pocket_zone.astype(bool)
            bed = v.bed.astype(bool)
            for o in others:
                fo = self.foreground(cv2.resize(o, v.small, interpolation=cv2.INTER_AREA),
                                     opened=False).mask.astype(bool)
                if fo[bed].mean() > 0.5:
                    continue  # not this view (a cut to the crowd, a close-up)
                always &= fo
            holes |= always
        static = fg & ((1 - v.bed) | pocket_parts(holes, v.bed, fg, v.working_radius_at,
                                                  self.fixture_params))
        static = self._cushion_strips(fg, static)
        self.static = cv2.dilate(static, np.ones((3, 3), np.uint8))
        self.edge = (cv2.dilate(self.static, np.ones((5, 5), np.uint8)).astype(bool)
                     & ~self.static.astype(bool) & (v.pocket_zone == 0))
        self.fresh = True

    def _cushion_strips(self, fg: np.ndarray, static: np.ndarray) -> np.ndarray:
        """``static`` (changed in place) with, along the cushions, the long thin non-cloth
        strips of ``fg`` added (a cushion face in shadow, seen from a low camera at the far
        end): longer than three touching balls."""
        v = self.view
        r = v.r_px * v.scale
        k = max(3, int(3 * r) | 1)
        band = (v.bed - cv2.erode(v.bed, np.ones((k, k), np.uint8))).astype(bool)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(fg & band.astype(np.uint8), 8)
        w_, h_ = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
        strip = (np.maximum(w_, h_) > 6.5 * r) & (np.minimum(w_, h_) < 2.5 * r)
        strip[0] = False
        for j in np.nonzero(strip)[0]:
            # a ball against the cushion joins the strip as a bulge thicker than the strip:
            # what survives an opening by a disc wider than the strip is that ball, not fixture
            x, y, ww, hh = stats[j, :4]
            comp = (lab[y:y + hh, x:x + ww] == j).astype(np.uint8)
            thick = stats[j, cv2.CC_STAT_AREA] / max(ww, hh)
            d = max(3, int(max(r, 1.4 * thick)) | 1)
            bulge = cv2.morphologyEx(comp, cv2.MORPH_OPEN,
                                     cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d)))
            static[y:y + hh, x:x + ww] |= comp & (1 - cv2.dilate(bulge, np.ones((3, 3), np.uint8)))
        return static

    def _cloth_map(self, lab_img: np.ndarray) -> np.ndarray:
        """The cloth's colour at every pixel (h, w, 3) int16 Lab: the median of each of about
        ``map_cells`` x ``map_cells / 2`` cells of the bed (balls are too small to move a
        cell's median), spread smoothly, so that light falling off toward the far end or a
        corner does not read as foreground (:class:`ForegroundParams`)."""
        p = self.fg_params
        cells = p.map_cells
        h, w = lab_img.shape[:2]
        gx, gy = cells, max(2, cells * h // max(w, 1))
        grid = np.zeros((gy, gx, 3), np.float32)
        have = np.zeros((gy, gx), bool)
        c = self.cloth_lab
        li = lab_img.astype(np.int16)
        # cloth-like pixels only: pocket holes, balls and fittings do not pull a cell's median
        bed = self.view.bed.astype(bool) & (
            np.abs(li[..., 1] - c[1]) + np.abs(li[..., 2] - c[2]) < p.map_max_chroma) \
            & (np.abs(li[..., 0] - c[0]) < p.map_max_lightness_share * c[0])
        for j in range(gy):
            for i in range(gx):
                ys, ye = j * h // gy, (j + 1) * h // gy
                xs, xe = i * w // gx, (i + 1) * w // gx
                m = bed[ys:ye, xs:xe]
                if m.sum() >= p.map_min_cloth_share * m.size:
                    grid[j, i] = np.median(lab_img[ys:ye, xs:xe][m], axis=0)
                    have[j, i] = True
        if not have.any():
            return np.broadcast_to(self.cloth_lab, (h, w, 3)).astype(np.int16)
        # cells off the bed take their nearest bed cell's colour
        from scipy.ndimage import distance_transform_edt

        _, (iy, ix) = distance_transform_edt(~have, return_indices=True)
        grid = grid[iy, ix]
        return cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.int16)

    def maps(self) -> ClothMaps:
        """The maps derived from the cloth map and the fixtures (:class:`ClothMaps`), made
        again only when :meth:`learn` has replaced either."""
        if self._maps is not None and self._maps_of[0] is self.cloth_map \
                and self._maps_of[1] is self.static:
            return self._maps
        c = self.cloth_map
        cl, ca, cb = (np.ascontiguousarray(c[..., i]) for i in range(3))
        cf = c.astype(np.float32)
        v = self.view
        r = v.r_px * v.scale
        clear = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (faint_clearance(r),) * 2)
        p = self.fg_params
        self._maps = ClothMaps(
            cloth_l=cl, cloth_a=ca, cloth_b=cb, dark_level=p.dark * cl, bright_level=cl + p.bright,
            allowed=v.region & (1 - self.static),
            cloth_lf=np.ascontiguousarray(cf[..., 0]), cloth_af=np.ascontiguousarray(cf[..., 1]),
            cloth_bf=np.ascontiguousarray(cf[..., 2]), light_den=np.maximum(cf[..., 0], 1.0),
            faint_allowed=cv2.erode(v.bed, clear).astype(bool)
            & ~cv2.dilate(self.static, clear).astype(bool))
        self._maps_of = (self.cloth_map, self.static)
        return self._maps

    def cut(self, view: TableView, x0: int, y0: int, x1: int, y1: int) -> Cloth:
        """The cloth of the box [x0, x1) x [y0, y1) (working-scale px) alone, seen by ``view``
        (this cloth's view cut to the box): its maps cut from the whole picture's (the
        fixtures just outside the box keep the faint-ball search clear of them, as in the
        whole picture's search)."""
        out = object.__new__(Cloth)
        out.__dict__.update(self.__dict__)
        out.view = view
        for name in ("static", "edge", "cloth_map"):
            setattr(out, name, getattr(self, name)[y0:y1, x0:x1])
        out._maps, out._maps_of = self.maps().cut(x0, y0, x1, y1), (out.cloth_map, out.static)
        return out

    def foreground(self, small: np.ndarray, opened: bool = True) -> Foreground:
        """The non-cloth pixels of a working-scale picture; ``opened=False`` skips the
        opening that removes thin things (and the search for strokes)."""
        maps = self.maps()
        p = self.fg_params
        lab = tuple(q.astype(np.int16) for q in cv2.split(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)))
        lab_l, lab_a, lab_b = lab
        chroma = np.abs(lab_a - maps.cloth_a) + np.abs(lab_b - maps.cloth_b)
        dark = lab_l < maps.dark_level
        bright = lab_l > maps.bright_level
        fg = ((chroma > p.chroma) | dark | bright).astype(np.uint8) & maps.allowed
        out = Foreground(fg, dark & (chroma <= p.chroma), None, lab, small)
        if not opened:
            return out
        # an opening by a disc of about 0.8 ball radii keeps balls (and their motion-blur
        # streaks) and removes thin things: projected rings, chalk lines, the cue's shaft, the
        # neck between two touching balls ...
        fine = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        opened_fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, self.open_kernel)
        # ... but a ball close to the cloth's colour (the green on a green cloth) shows only
        # scattered parts that the opening would erase: a small, compact blob is kept whole
        n, labels, stats, _ = cv2.connectedComponentsWithStats(fine, 8)
        r = self.view.r_px * self.view.scale
        w, h, a = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
        keep = (np.maximum(w, h) <= 2.6 * r) & (a <= 1.5 * np.pi * r * r)
        light = np.bincount(labels[bright | dark], minlength=n)
        k = self.open_kernel.shape[0]
        strokes = (light >= p.glyph_light_share * a) & (np.maximum(w, h) >= p.glyph_min_extent * k)
        strokes[0] = False
        # (the faint-ball search keeps clear of them too: a disc over a figure averages to a
        # faint ball)
        out.strokes = (strokes[labels] & ~opened_fg.astype(bool)) if strokes.any() else None
        keep &= ~strokes
        keep[0] = False
        out.mask = opened_fg | keep[labels].astype(np.uint8)
        return out


def pocket_parts(holes: np.ndarray, bed: np.ndarray, fg: np.ndarray,
                 radius: Callable[[np.ndarray], np.ndarray],
                 params: FixtureParams | None = None) -> np.ndarray:
    """The parts (uint8 0/1, same shape) of the dark pocket-zone mask ``holes`` (bool or 0/1,
    working scale) that are the pocket's, not a ball's part: those that open off the bed
    (``bed``, 0/1: a pocket's hole and the shadow in its jaws lie beyond the bed's edge and
    reach into it only from there), and the slivers wholly on the bed: no disc of
    ``params.min_ball_core_radii`` ball radii fits in them and either they keep within
    ``edge_reach_radii`` of the bed's edge or less than ``ball_rim_share``
    of their outline borders other non-cloth (``fg``, 0/1, less ``holes``). A dark patch
    wholly on the bed that holds a ball's core is a ball (the black beside a corner pocket).
    Left unmasked, a sliver joins a ball rolling into the pocket, or an arm reaching in over
    it, into one blob, split into balls. ``radius``: the local ball radius (N,) working-scale
    px at points (N, 2) working-scale px."""
    params = params or FixtureParams()
    holes = np.asarray(holes, np.uint8)
    if not holes.any():
        return holes
    n, lab, stats, cents = cv2.connectedComponentsWithStats(holes, connectivity=8)
    inside = holes.astype(bool)
    on_bed = np.asarray(bed, np.uint8)
    opens = np.zeros(n, bool)
    opens[np.unique(lab[(on_bed == 0) & inside])] = True
    # the widest disc inside each part: its radius is the part's deepest pixel's distance to
    # the nearest pixel outside it, less half a pixel (to that pixel's edge, not its centre)
    depth = cv2.distanceTransform(holes, cv2.DIST_L2, 5)
    core = np.zeros(n)
    np.maximum.at(core, lab[inside], depth[inside])
    core -= 0.5
    # how far in from the bed's edge each part reaches (px)
    from_edge = cv2.distanceTransform(on_bed, cv2.DIST_L2, 5)
    reach = np.zeros(n)
    np.maximum.at(reach, lab[inside], from_edge[inside])
    r = radius(cents)
    thin = (core < params.min_ball_core_radii * r) & ~opens
    thin[0] = False
    other = np.asarray(fg, bool) & ~inside
    h, w = holes.shape
    for k in np.nonzero(thin & (reach > params.edge_reach_radii * r))[0]:
        x, y, ww, hh = stats[k, :4]
        x0, y0, x1, y1 = max(0, x - 1), max(0, y - 1), min(w, x + ww + 1), min(h, y + hh + 1)
        part = (lab[y0:y1, x0:x1] == k).astype(np.uint8)
        rim = cv2.dilate(part, np.ones((3, 3), np.uint8)).astype(bool) & ~part.astype(bool)
        if rim.any() and other[y0:y1, x0:x1][rim].mean() >= params.ball_rim_share:
            thin[k] = False  # against a ball: that ball's shaded side or a contact shadow
    return (opens | thin)[lab].astype(np.uint8)
