"""Snooker (and pool) table geometry in the canonical table frame.

Canonical frame (see ``docs/ARCHITECTURE.md``): millimetres, origin at the baulk-left corner
of the playing area (the cushion faces), ``x`` across the table (0 .. width), ``y`` up the
table from the baulk cushion (0 .. length). "Left" is the left as seen by a player standing
behind the baulk cushion, so the yellow spot (right-hand corner of the D) has the larger ``x``.

Sources:
- WPBSA Rules of Snooker, Section 1 Rule 1 (``shared/rules/sources/003_*.txt``): playing area
  3569 x 1778 mm, baulk line 737 mm from the baulk cushion face, D radius 292 mm, black spot
  324 mm from the top cushion face, blue spot at the centre, pink spot midway between the blue
  spot and the top cushion face; ball diameter 52.5 mm (S3 R1(a)).
- Pocket mouths and jaws are not given in the rules (they "conform to the templates authorised
  by the WPBSA"). The figures here are a **stated approximation** of championship tables:
  corner mouth 86 mm between the cushion noses with jaws cut at 45 degrees to the pocket
  axis, middle mouth 98 mm with jaws nearly square to the cushion, cushion 50 mm deep,
  nose radius 8 mm. They are configurable.

Other table sizes (home 10 ft, 8 ft, the 1881 x 943 mm lab table of the shared footage) keep
the same proportions as the rules' older fractional definitions unless given explicitly:
baulk line at length/4.843, D radius width/6.09, black spot length/11.015 from the top.

Pool tables (:meth:`TableGeometry.pool`, 7, 8 and 9 ft) use the same frame with the head rail
at ``y = 0``: the head string in place of the baulk line, no D, the foot spot in place of the
black spot; their figures and sources are in that method.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from calibration.limits import check_table

#: The WPBSA full-size playing area, millimetres.
STANDARD_LENGTH_MM = 3569.0
STANDARD_WIDTH_MM = 1778.0
STANDARD_BALL_DIAMETER_MM = 52.5
STANDARD_BAULK_LINE_MM = 737.0
STANDARD_D_RADIUS_MM = 292.0
STANDARD_BLACK_FROM_TOP_MM = 324.0
#: WPA pool ball diameter (2 1/4 in), mm.
POOL_BALL_DIAMETER_MM = 57.15
#: WPA: each sight's centre lies 3 11/16 in outside the cushion nose, mm.
POOL_SIGHT_OFFSET_MM = 93.7

POCKET_NAMES = (
    "baulk_left",
    "baulk_right",
    "middle_left",
    "middle_right",
    "top_left",
    "top_right",
)


@dataclass(frozen=True)
class Pocket:
    """One pocket.

    Attributes:
        name: one of :data:`POCKET_NAMES`.
        kind: ``"corner"`` or ``"middle"``.
        mouth_a, mouth_b: the two cushion-nose points of the mouth, mm, shape (2,).
        fall: a point inside the pocket (the centre of the fall), mm, shape (2,).
        mouth_width: distance between the nose points, mm.
        capture: polygon of the region a ball centre enters when it drops (mouth line outward).
    """

    name: str
    kind: str
    mouth_a: tuple[float, float]
    mouth_b: tuple[float, float]
    fall: tuple[float, float]
    mouth_width: float
    capture: Polygon = field(compare=False, repr=False)

    @property
    def mouth_centre(self) -> tuple[float, float]:
        """Midpoint of the mouth line, mm."""
        return (
            (self.mouth_a[0] + self.mouth_b[0]) / 2.0,
            (self.mouth_a[1] + self.mouth_b[1]) / 2.0,
        )


@dataclass(frozen=True)
class TableGeometry:
    """A snooker table: playing area, markings, spots, pockets and cushions, in mm.

    Build the standard table with :meth:`standard` and other sizes with :meth:`of_size`.
    """

    length: float = STANDARD_LENGTH_MM
    width: float = STANDARD_WIDTH_MM
    ball_diameter: float = STANDARD_BALL_DIAMETER_MM
    baulk_line: float = STANDARD_BAULK_LINE_MM
    d_radius: float = STANDARD_D_RADIUS_MM
    black_from_top: float = STANDARD_BLACK_FROM_TOP_MM
    corner_mouth: float = 86.0
    middle_mouth: float = 98.0
    cushion_depth: float = 50.0
    nose_radius: float = 8.0
    #: Height of the cushion nose above the bed, mm (about 63.5 % of the ball diameter: the
    #: nose meets the ball just above its centre). Calibration fits the cushion lines here.
    cushion_height: float = 33.3

    # ------------------------------------------------------------------ constructors
    @classmethod
    def standard(cls) -> TableGeometry:
        """The WPBSA 12 ft table (3569 x 1778 mm, 52.5 mm balls)."""
        return cls()

    @classmethod
    def of_size(
        cls, length: float, width: float, ball_diameter: float = STANDARD_BALL_DIAMETER_MM
    ) -> TableGeometry:
        """A table of another size with markings scaled from the full-size proportions.

        Args:
            length: playing-area length (baulk cushion to top cushion), mm.
            width: playing-area width, mm.
            ball_diameter: mm.

        Raises:
            ValueError: a size outside :mod:`calibration.limits` (the message names it).
        """
        length, width, ball_diameter = check_table(length, width, ball_diameter)
        k_len = length / STANDARD_LENGTH_MM
        k_wid = width / STANDARD_WIDTH_MM
        k_ball = ball_diameter / STANDARD_BALL_DIAMETER_MM
        return cls(
            length=length,
            width=width,
            ball_diameter=ball_diameter,
            baulk_line=STANDARD_BAULK_LINE_MM * k_len,
            d_radius=STANDARD_D_RADIUS_MM * k_wid,
            black_from_top=STANDARD_BLACK_FROM_TOP_MM * k_len,
            corner_mouth=86.0 * k_ball,
            middle_mouth=98.0 * k_ball,
            cushion_height=33.3 * k_ball,
        )

    @classmethod
    def pool(cls, feet: int = 9) -> TableGeometry:
        """A pool table of ``feet`` (7, 8 or 9) ft: no baulk line or D, but the head string at
        a quarter of the length (stored as ``baulk_line``) and the foot spot a quarter from the
        foot rail (``black_from_top``); ``d_radius`` is 0.

        Figures (inches converted at 25.4 mm):
        - WPA Equipment Specifications, playing surface between the cushion noses: 9 ft
          100 x 50 in (2540 x 1270 mm), 8 ft 92 x 46 in (2336.8 x 1168.4 mm). The WPA
          sanctions only those two; the 7 ft "bar box" 78 x 39 in (1981.2 x 990.6 mm) is the
          common commercial size (BCA), not a WPA figure.
        - WPA balls 2 1/4 in (57.15 mm); corner pocket mouth 4 1/2 to 4 5/8 in, side pocket
          mouth 5 to 5 1/8 in between the cushion noses: the middle of each range is used
          (115.9 and 128.6 mm) on every size.
        - 002 8.1 Parts of the Table: head string and foot string each bound a quarter of the
          length; the foot spot is where the foot string meets the long string.

        Raises:
            ValueError: ``feet`` is not 7, 8 or 9.
        """
        sizes = {9: (2540.0, 1270.0), 8: (2336.8, 1168.4), 7: (1981.2, 990.6)}
        if feet not in sizes:
            raise ValueError(f"a pool table is 7, 8 or 9 ft, not {feet!r}")
        length, width = sizes[feet]
        return cls(length=length, width=width, ball_diameter=POOL_BALL_DIAMETER_MM,
                   baulk_line=length / 4.0, d_radius=0.0, black_from_top=length / 4.0,
                   corner_mouth=115.9, middle_mouth=128.6, cushion_height=36.3)

    @property
    def head_string(self) -> float:
        """Pool: the head string's distance from the head rail's cushion nose, mm (the
        ``baulk_line`` figure; a quarter of the length on :meth:`pool` tables)."""
        return self.baulk_line

    @property
    def foot_spot(self) -> tuple[float, float]:
        """Pool: the foot spot (the long string meets the foot string), mm."""
        return (self.centre_x, self.length - self.black_from_top)

    def diamonds(self, rail_offset: float = POOL_SIGHT_OFFSET_MM) -> dict[str, tuple[float, float]]:
        """Pool: the 18 sights (diamonds) on the rails, mm: they mark quarters of the width
        and eighths of the length between the cushion noses (002 8.1), none at the side
        pockets; each sits ``rail_offset`` mm outside the cushion nose (WPA: 3 11/16 in).

        Returns:
            name -> (x, y): ``head_1..3`` and ``foot_1..3`` (x from the left), ``left_1..6``
            and ``right_1..6`` (y from the head rail).
        """
        w, length, o = self.width, self.length, rail_offset
        out: dict[str, tuple[float, float]] = {}
        for k in (1, 2, 3):
            out[f"head_{k}"] = (k * w / 4.0, -o)
            out[f"foot_{k}"] = (k * w / 4.0, length + o)
        for i, k in enumerate((1, 2, 3, 5, 6, 7), start=1):
            out[f"left_{i}"] = (-o, k * length / 8.0)
            out[f"right_{i}"] = (w + o, k * length / 8.0)
        return out

    # ------------------------------------------------------------------ basic figures
    @property
    def ball_radius(self) -> float:
        """Ball radius R, mm (26.25 on the standard table)."""
        return self.ball_diameter / 2.0

    @property
    def centre_x(self) -> float:
        """The long centre line, mm."""
        return self.width / 2.0

    @property
    def cushion_faces(self) -> tuple[tuple[int, float, float, str], ...]:
        """The four cushion faces as (axis 0 = x / 1 = y, face coordinate mm, sign of the
        inward normal, name): left, right (long sides), baulk, top."""
        return ((0, 0.0, 1.0, "left"), (0, self.width, -1.0, "right"),
                (1, 0.0, 1.0, "baulk"), (1, self.length, -1.0, "top"))

    def cushion_label(self, face: str, y: float) -> str:
        """The name of the cushion ``face`` (of :attr:`cushion_faces`) where a ball at ``y``
        (mm) meets it: ``baulk``, ``top``, or a long side and its half (``left_baulk``,
        ``right_top``...)."""
        if face in ("baulk", "top"):
            return face
        return f"{face}_{'baulk' if y < self.length / 2 else 'top'}"

    @cached_property
    def spots(self) -> dict[str, tuple[float, float]]:
        """The six colour spots, mm, keyed by colour name."""
        cx = self.centre_x
        blue_y = self.length / 2.0
        return {
            "yellow": (cx + self.d_radius, self.baulk_line),
            "green": (cx - self.d_radius, self.baulk_line),
            "brown": (cx, self.baulk_line),
            "blue": (cx, blue_y),
            "pink": (cx, (blue_y + self.length) / 2.0),
            "black": (cx, self.length - self.black_from_top),
        }

    def in_d(self, point: tuple[float, float] | np.ndarray, tol: float = 0.0) -> bool:
        """True when the ball centre ``point`` (mm) is on or inside the D lines (S3 R5).

        Args:
            point: (x, y) mm.
            tol: extra margin in mm granted beyond the lines (measurement error).
        """
        x, y = float(point[0]), float(point[1])
        if y > self.baulk_line + tol:
            return False
        return math.hypot(x - self.centre_x, y - self.baulk_line) <= self.d_radius + tol

    def d_distance_outside(self, point: tuple[float, float] | np.ndarray) -> float:
        """How far, mm, a centre lies outside the D (0 when inside)."""
        x, y = float(point[0]), float(point[1])
        r = math.hypot(x - self.centre_x, y - self.baulk_line)
        out_arc = max(0.0, r - self.d_radius)
        out_line = max(0.0, y - self.baulk_line)
        if out_line > 0 and r <= self.d_radius:
            return out_line
        if out_line > 0:
            return math.hypot(out_arc, out_line) if out_arc else out_line
        return out_arc

    def d_positions(self, spacing: float = 8.0) -> np.ndarray:
        """Candidate cue-ball centres covering the D, boundary included.

        Returns:
            array of shape (N, 2), mm: a square grid of ``spacing`` inside the D plus points
            every ``spacing`` along the arc and along the baulk line.
        """
        cx, by, r = self.centre_x, self.baulk_line, self.d_radius
        xs = np.arange(cx - r, cx + r + 1e-9, spacing)
        ys = np.arange(by - r, by + 1e-9, spacing)
        gx, gy = np.meshgrid(xs, ys)
        grid = np.stack([gx.ravel(), gy.ravel()], axis=1)
        inside = (grid[:, 1] <= by) & (np.hypot(grid[:, 0] - cx, grid[:, 1] - by) <= r)
        n_arc = max(8, int(math.pi * r / spacing))
        ang = np.linspace(math.pi, 2 * math.pi, n_arc + 1)
        arc = np.stack([cx + r * np.cos(ang), by + r * np.sin(ang)], axis=1)
        line = np.stack([xs, np.full_like(xs, by)], axis=1)
        pts = np.concatenate([grid[inside], arc, line], axis=0)
        # Keep the cue ball wholly on the bed.
        keep = (pts[:, 1] >= self.ball_radius) & (pts[:, 0] >= self.ball_radius)
        keep &= pts[:, 0] <= self.width - self.ball_radius
        return pts[keep]

    # ------------------------------------------------------------------ pockets, cushions
    @cached_property
    def pockets(self) -> dict[str, Pocket]:
        """The six pockets keyed by name (approximated mouths; see the module docstring)."""
        w, length = self.width, self.length
        a = self.corner_mouth / math.sqrt(2.0)  # nose distance from the corner on each face
        h = self.middle_mouth / 2.0
        deep = self.cushion_depth
        out: dict[str, Pocket] = {}

        def corner(name: str, cx: float, cy: float, sx: float, sy: float) -> Pocket:
            # sx, sy: +1/-1, the direction from the corner into the table.
            ma = (cx + sx * a, cy)
            mb = (cx, cy + sy * a)
            fall = (cx - sx * 0.35 * a, cy - sy * 0.35 * a)
            cap = Polygon([ma, mb, (cx - sx * deep, cy + sy * a), (cx - sx * deep, cy - sy * deep),
                           (cx + sx * a, cy - sy * deep)])
            return Pocket(name, "corner", ma, mb, fall, self.corner_mouth, cap.convex_hull)

        out["baulk_left"] = corner("baulk_left", 0.0, 0.0, 1, 1)
        out["baulk_right"] = corner("baulk_right", w, 0.0, -1, 1)
        out["top_left"] = corner("top_left", 0.0, length, 1, -1)
        out["top_right"] = corner("top_right", w, length, -1, -1)
        my = length / 2.0
        for name, x, sx in (("middle_left", 0.0, 1), ("middle_right", w, -1)):
            ma, mb = (x, my - h), (x, my + h)
            fall = (x - sx * 0.6 * h, my)
            cap = Polygon([ma, mb, (x - sx * deep, my + h), (x - sx * deep, my - h)])
            out[name] = Pocket(name, "middle", ma, mb, fall, self.middle_mouth, cap)
        return out

    @cached_property
    def cushions(self) -> Polygon:
        """Cushion rubber and jaws as one shapely geometry (outside the playing area).

        Each cushion runs between the noses of the two pockets at its ends. Corner jaws are
        cut at 45 degrees to the pocket axis, so the opening narrows into the pocket; middle
        jaws are cut square, so the opening keeps its width. Noses are rounded.
        """
        w, length = self.width, self.length
        a = self.corner_mouth / math.sqrt(2.0)
        h = self.middle_mouth / 2.0
        d = self.cushion_depth
        my = length / 2.0
        k = 0.5 * d  # how far the corner jaw leans into the pocket over the cushion depth
        parts = [
            # baulk and top cushions (y < 0 and y > length)
            Polygon([(a, 0), (w - a, 0), (w - a + k, -d), (a - k, -d)]),
            Polygon([(a, length), (w - a, length), (w - a + k, length + d), (a - k, length + d)]),
        ]
        for x0, sx in ((0.0, -1.0), (w, 1.0)):
            parts.append(Polygon([(x0, a), (x0, my - h), (x0 + sx * d, my - h),
                                  (x0 + sx * d, a - k)]))
            parts.append(Polygon([(x0, my + h), (x0, length - a), (x0 + sx * d, length - a + k),
                                  (x0 + sx * d, my + h)]))
        shape = unary_union(parts)
        r = self.nose_radius
        return shape.buffer(-r).buffer(r) if r > 0 else shape

    def on_bed(self, point: tuple[float, float], tol: float = 1.0) -> bool:
        """True if a ball centre at ``point`` lies where a resting ball can be (mm)."""
        x, y = point
        r = self.ball_radius - tol
        return r <= x <= self.width - r and r <= y <= self.length - r

    def pocket_at(self, point: tuple[float, float], margin: float = 0.0) -> str | None:
        """Name of the pocket whose capture region holds ``point``, or None."""
        p = Point(point)
        for name, pocket in self.pockets.items():
            if pocket.capture.buffer(margin).contains(p):
                return name
        return None

    def to_dict(self) -> dict[str, float]:
        """Plain figures, for profiles and docs."""
        return {
            "length": self.length,
            "width": self.width,
            "ball_diameter": self.ball_diameter,
            "baulk_line": self.baulk_line,
            "d_radius": self.d_radius,
            "black_from_top": self.black_from_top,
            "corner_mouth": self.corner_mouth,
            "middle_mouth": self.middle_mouth,
            "cushion_height": self.cushion_height,
        }


STANDARD_TABLE = TableGeometry.standard()
