"""Camera geometry for ball detection: where the table is in the picture, how big a ball
looks at each pixel, and from image centres to table positions.

A :class:`TableView` is made once per calibration; :meth:`TableView.cut` gives the view of one
box of the picture (the change gate searches boxes), whose masks are the whole view's there
and whose radii are those of the whole picture's pixels.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from calibration.profile import Calibration
from tracker.perception.params import ApparentCentreParams


class TableView:
    """The table as one calibrated camera sees it, at the working scale.

    Attributes:
        cal: the calibration.
        scale: processing scale of the frame (0.5 = half resolution).
        small: the working-scale picture's size (w, h) px.
        r_px: apparent ball radius at the table centre, full-resolution px.
        region: uint8 0/1 (h, w) working scale: the bed at ball height grown by a ball radius
            (balls in the jaws).
        rim: bool: the region's outermost pixels (a blob crossing it over more than a ball's
            width comes from outside the table).
        bed: uint8 0/1: the bed at ball height.
        pocket_zone: uint8 0/1: 1.3 mouth widths round each pocket's mouth.
        offset: (2,) full-resolution px of this view's corner in the whole picture (zero but
            for a :meth:`cut`).
    """

    def __init__(self, cal: Calibration, scale: float = 0.5,
                 apparent: ApparentCentreParams | None = None):
        self.cal = cal
        self.scale = scale
        #: how a ball's image centre is moved to its centre's position (oblique views)
        self.apparent = apparent or ApparentCentreParams()
        t = cal.table
        w, h = cal.image_size
        self.small = (int(round(w * scale)), int(round(h * scale)))
        c = np.array([[t.width / 2, t.length / 2]])
        p0 = cal.to_image(c, t.ball_radius)[0]
        p1 = cal.to_image(c + [[t.ball_radius, 0]], t.ball_radius)[0]
        self.r_px = float(np.linalg.norm(p1 - p0))
        self._r_grid = self._radius_grid()
        self.offset: np.ndarray | None = None
        r = t.ball_radius
        self.region = self._fill(np.array([[-r, -r], [t.width + r, -r], [t.width + r, t.length + r],
                                           [-r, t.length + r]]))
        self.rim = (self.region - cv2.erode(self.region, np.ones((3, 3), np.uint8))).astype(bool)
        self.bed = self._fill(np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]],
                                       float))
        self.pocket_zone = np.zeros_like(self.region)
        for pk in t.pockets.values():
            c_px = cal.to_image(np.array([pk.mouth_centre]), t.ball_radius)[0] * scale
            rad = np.linalg.norm(cal.to_image(np.array([pk.mouth_centre]) + [[pk.mouth_width, 0]],
                                              t.ball_radius)[0] * scale - c_px)
            cv2.circle(self.pocket_zone, (int(c_px[0]), int(c_px[1])), int(rad * 1.3), 1, -1)
        #: the table whose pockets' mouths :meth:`can_hold` has, their centres (6, 2) mm and
        #: widths (6,) mm
        self._mouths: tuple[object, np.ndarray, np.ndarray] | None = None

    def _fill(self, quad_mm: np.ndarray) -> np.ndarray:
        """uint8 0/1 working-scale mask of the table quadrilateral ``quad_mm`` (4, 2) at ball
        height (its sides sampled densely: the lens bends them)."""
        t = self.cal.table
        dense = np.concatenate([np.linspace(quad_mm[i], quad_mm[(i + 1) % 4], 40) for i in range(4)])
        out = np.zeros((self.small[1], self.small[0]), np.uint8)
        cv2.fillPoly(out, [np.round(self.cal.to_image(dense, t.ball_radius) * self.scale)
                           .astype(np.int32)], 1)
        return out

    def _radius_grid(self, step: int = 16) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Apparent ball radius (full-resolution px) on a grid of image points every ``step``
        px: in an oblique view a near ball is twice the size of a far one."""
        w, h = self.cal.image_size
        xs = np.arange(0, w + step, step, dtype=float)
        ys = np.arange(0, h + step, step, dtype=float)
        gx, gy = np.meshgrid(xs, ys)
        p = np.stack([gx.ravel(), gy.ravel()], 1)
        with np.errstate(all="ignore"):
            m0 = self.cal.ball_to_table(p)
            mx = self.cal.ball_to_table(p + [1.0, 0.0])
            my = self.cal.ball_to_table(p + [0.0, 1.0])
            # a sphere images as a circle at the scale of the direction the tilt does not
            # foreshorten: the finer of the two
            mmpp = np.minimum(np.linalg.norm(mx - m0, axis=1), np.linalg.norm(my - m0, axis=1))
            r = self.cal.table.ball_radius / mmpp
        r = np.where(np.isfinite(r) & (r > 0), r, self.r_px)
        r = np.clip(r, 0.4 * self.r_px, 2.5 * self.r_px)
        return xs, ys, r.reshape(gy.shape)

    @property
    def max_radius_px(self) -> float:
        """The largest apparent ball radius anywhere in the picture, full-resolution px."""
        return float(self._r_grid[2].max())

    def radius_at(self, px: np.ndarray) -> np.ndarray:
        """Apparent ball radius (full-resolution px) at image points (N, 2) of this view."""
        if self.offset is not None:
            px = px + self.offset
        xs, ys, r = self._r_grid
        step = xs[1] - xs[0]
        # (np.minimum / np.maximum: np.clip's own checks cost more than the work here)
        i = np.minimum(np.maximum(np.round(px[:, 1] / step).astype(int), 0), len(ys) - 1)
        j = np.minimum(np.maximum(np.round(px[:, 0] / step).astype(int), 0), len(xs) - 1)
        return r[i, j]

    def working_radius_at(self, pts: np.ndarray) -> np.ndarray:
        """Apparent ball radius (N,) working-scale px at working-scale points (N, 2)."""
        return self.radius_at(pts / self.scale) * self.scale

    def cut(self, x0: int, y0: int, x1: int, y1: int) -> TableView:
        """The view of the box [x0, x1) x [y0, y1) (working-scale px) alone: its masks cut to
        the box, its radii those of the whole picture's pixels there."""
        out = object.__new__(TableView)
        out.__dict__.update(self.__dict__)
        out.small = (x1 - x0, y1 - y0)
        for name in ("region", "rim", "bed", "pocket_zone"):
            setattr(out, name, getattr(self, name)[y0:y1, x0:x1])
        inv = int(round(1 / self.scale))
        base = np.zeros(2) if self.offset is None else self.offset
        out.offset = base + np.array([x0 * inv, y0 * inv], float)
        return out

    def can_hold(self, mm: np.ndarray, slack: float) -> np.ndarray:
        """Whether a ball's centre can be at each table position (N, 2) mm: at least a radius
        from every cushion nose (less ``slack`` radii for the calibration's error:
        :attr:`tracker.perception.params.CandidateParams.hold_slack_radii`), or in a pocket's
        jaws. A "ball" on the rail or the cushion top is a fixture or a hand."""
        t = self.cal.table
        m = (1.0 - slack) * t.ball_radius
        inside = ((mm[:, 0] >= m) & (mm[:, 0] <= t.width - m)
                  & (mm[:, 1] >= m) & (mm[:, 1] <= t.length - m))
        if self._mouths is None or self._mouths[0] is not t:
            pks = list(t.pockets.values())
            self._mouths = (t, np.array([pk.mouth_centre for pk in pks], float),
                            np.array([pk.mouth_width for pk in pks], float))
        _, centres, widths = self._mouths
        near = np.linalg.norm(mm[:, None, :] - centres[None, :, :], axis=2) <= widths[None, :]
        return inside | near.any(axis=1)

    def locate(self, px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Table positions (N, 2) mm of image centres ``px`` (N, 2), and the local scale (N,):
        millimetres on the table per image pixel at each ball, along the coarser image axis
        (in a TV view a pixel down the image spans several times the table distance of a
        pixel across it, far from the camera)."""
        # the three sets of points in one call (row by row the same arithmetic as three
        # calls: a third the cost)
        n = len(px)
        allmm = self.cal.ball_to_table(np.concatenate([px, px + [1.0, 0.0], px + [0.0, 1.0]]))
        mm = allmm[:n]
        mm_per_px = np.maximum(np.linalg.norm(allmm[n:2 * n] - mm, axis=1),
                               np.linalg.norm(allmm[2 * n:] - mm, axis=1))
        return oblique_shift(mm, self.cal.camera.centre, self.cal.table.ball_radius,
                             self.apparent), mm_per_px

    def occupancy(self, fg: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """``f(mm (M, 2)) -> (M,)``: the share of foreground pixels of ``fg`` (a frame's
        non-cloth mask at the working scale) within 0.6 local ball radii of each table
        position (1.0 outside the image: nothing can be said there)."""
        t = self.cal.table

        def occupancy(mm: np.ndarray) -> np.ndarray:
            mm = np.asarray(mm, float).reshape(-1, 2)
            px = self.cal.to_image(mm, t.ball_radius)
            rads = np.maximum(1.0, 0.6 * self.radius_at(px) * self.scale)
            out = np.ones(len(mm))
            h, w = fg.shape
            for i, ((x, y), r) in enumerate(zip(px * self.scale, rads, strict=True)):
                x0, x1 = int(x - r), int(x + r) + 1
                y0, y1 = int(y - r), int(y + r) + 1
                if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                    continue
                out[i] = float(fg[y0:y1, x0:x1].mean())
            return out

        return occupancy


def oblique_shift(mm: np.ndarray, eye: np.ndarray, ball_radius: float,
                  p: ApparentCentreParams) -> np.ndarray:
    """Ball positions (N, 2) mm found from image centres, moved away from the camera at
    ``eye`` (3,) mm where it sees them obliquely: the image centre of a ball seen from
    elevation e is taken as the projection of a point ``drop`` mm below its centre, so the
    position moves ``drop / tan(e)`` mm along the ground away from the camera, with ``drop``
    ``p.drop_mm`` at ``p.full_below_deg`` or lower, none from ``p.none_above_deg`` up
    (:class:`tracker.perception.params.ApparentCentreParams`). Returns a new array."""
    mm = np.asarray(mm, float).reshape(-1, 2)
    if p.drop_mm == 0.0 or len(mm) == 0:
        return mm
    away = mm - eye[:2]
    ground = np.linalg.norm(away, axis=1)
    height = float(eye[2]) - ball_radius
    if height <= 0.0:
        return mm
    elev = np.degrees(np.arctan2(height, ground))
    share = np.clip((p.none_above_deg - elev) / (p.none_above_deg - p.full_below_deg), 0.0, 1.0)
    if not share.any():
        return mm
    step = p.drop_mm * share * ground / height  # drop / tan(elevation)
    return mm + away / np.maximum(ground, 1e-9)[:, None] * step[:, None]
