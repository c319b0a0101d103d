"""Detection work in proportion to what changes on the table.

Balls stand still most of the time. :class:`ChangeGatedDetector` keeps, at quarter resolution,
the picture of the table as it was when each part of it was last searched for balls (the
*reference*), and per frame:

- compares the frame with the reference inside the table (a quarter-resolution picture by
  bilinear sampling and its difference, about 0.4 ms at 1080p);
- nothing changed: the last detections stand (a *still* frame);
- something changed in a few places (a ball rolling, the cue, a hand): only boxes around the
  changed pixels, grown by ``GateParams.box_margin_r`` ball radii, are searched again with the same
  detector (:meth:`BallDetector.candidates` on a crop, bit-identical to the full frame's
  working-scale picture there), and their detections replace the old ones there (a *partial*
  frame);
- much changed (a player over the table, the light), or ``GateParams.full_every_s`` has passed since
  the last full search: the whole frame is searched (a *full* frame);
- with the learned detector (a TV view under ``auto``) any change searches the whole frame:
  its judgements are per frame (one detection per unique colour, the white's streak when no
  detection is the white), which a box searched alone gets wrong; still frames stay cheap.

Only the part of a box where the new search is complete is taken from it (its *inner* part,
``GateParams.inner_r`` radii inside the box's edges), and only there does the reference move on: a
ball creeping too slowly to cross ``GateParams.level`` from one frame to the next still
crosses it against the reference, and is searched again. A blob of foreground that runs off a
box's edge grows the box (up to ``GateParams.max_grow`` times; then the whole frame is searched), so
no blob is seen cut in two.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from tracker.perception.candidates import Candidates
from tracker.perception.cloth import Foreground
from tracker.perception.detect import BallDetections, BallDetector
from tracker.perception.params import GateParams

#: The gate's tunables.
GATE = GateParams()


@dataclass
class GateStats:
    """How many frames took each path, and the seconds spent in each."""

    full: int = 0
    partial: int = 0
    still: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"full": 0.0, "partial": 0.0,
                                                                "still": 0.0})

    def as_dict(self) -> dict[str, float]:
        n = self.full + self.partial + self.still
        out: dict[str, float] = {"frames": n, "full": self.full, "partial": self.partial,
                                 "still": self.still}
        for k in ("full", "partial", "still"):
            c = getattr(self, k)
            out[f"{k}_ms"] = 1000.0 * self.seconds[k] / c if c else 0.0
        return out


def gate_thumbnail(frame: np.ndarray, size: tuple[int, int],
                   window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The picture the gate compares (BGR ``frame`` resized to ``size`` (w, h)). With a
    ``window`` (x0, y0, x1, y1, thumbnail px; :func:`thumb_window`) only that part is made
    (bit for bit the same there; zeros outside): the gate looks only inside the table."""
    if window is None:
        return cv2.resize(frame, size, interpolation=cv2.INTER_LINEAR)
    x0, y0, x1, y1 = window
    k = frame.shape[1] // size[0]
    out = np.zeros((size[1], size[0], 3), frame.dtype)
    out[y0:y1, x0:x1] = cv2.resize(frame[k * y0:k * y1, k * x0:k * x1], (x1 - x0, y1 - y0),
                                   interpolation=cv2.INTER_LINEAR)
    return out


def thumb_window(region: np.ndarray, frame_size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The part of the gate's thumbnail worth making (x0, y0, x1, y1, thumbnail px): the
    bounding box of ``region`` (the table, a thumbnail-size mask) and a pixel round it; None
    (make it all) when the frame (``frame_size`` (w, h) px) is not a whole number of times the
    thumbnail in both directions, the one case where a part is bit for bit the whole's."""
    h, w = region.shape
    fw, fh = frame_size
    if fw % w or fh % h or fw // w != fh // h or not region.any():
        return None
    ys, xs = np.nonzero(region)
    return (max(0, int(xs.min()) - 1), max(0, int(ys.min()) - 1), min(w, int(xs.max()) + 2),
            min(h, int(ys.max()) + 2))


def gate_view(detector: BallDetector) -> tuple[tuple[int, int], np.ndarray,
                                                tuple[int, int, int, int] | None]:
    """What the gate of ``detector`` looks at: its thumbnail's size (w, h: half the working
    scale), the table region at that size (uint8 0/255) and the part of the thumbnail made
    (:func:`thumb_window`)."""
    w, h = detector.small
    size = (w // 2, h // 2)
    region = cv2.resize(detector.region, size, interpolation=cv2.INTER_NEAREST) * np.uint8(255)
    return size, region, thumb_window(region, detector.cal.image_size)


class ChangeGatedDetector:
    """Wraps a :class:`BallDetector`: same detections, work only where the table changed.

    Args:
        detector: the detector (its cloth learned: :meth:`BallDetector.learn_cloth`).
        fps: frames per second (for ``GateParams.full_every_s``).
        params: the gate's tunables.
    """

    def __init__(self, detector: BallDetector, fps: float, params: GateParams = GATE):
        self.det = detector
        self.params = params
        self.full_every = max(1, int(round(params.full_every_s * fps)))
        self.settle_every = max(1, int(round(params.settle_every_s * fps)))
        self.fps = fps
        #: frames left of a new rack's settling (:meth:`settle`)
        self.settling = 0
        self.thumb_size, self.region, self.window = gate_view(detector)
        self.table_rect = _table_rect(detector, params.full_margin_r)
        self.ref: np.ndarray | None = None
        self.fg: np.ndarray | None = None
        self.last: BallDetections | None = None
        self.since_full = 0
        self.stats = GateStats()
        #: the last frame's path (``full``, ``partial``, ``still``; None before the first)
        self.last_kind: str | None = None

    # ---------------------------------------------------------------- a new rack
    def settle(self) -> None:
        """A new frame starts on a new rack: nothing seen of the last frame's table stands.
        The next frame is searched whole, and then the whole frame at least every
        ``GateParams.settle_every_s`` for ``GateParams.settle_s`` or until :meth:`settled`:
        balls nudged against the pack while the rack settles are found where they came to
        rest before the break-off."""
        self.ref = None
        self.settling = max(1, int(round(self.params.settle_s * self.fps)))

    def settled(self) -> None:
        """The frame's first stroke has started: back to the usual ``full_every_s``."""
        self.settling = 0

    # ---------------------------------------------------------------- per frame
    def detect(self, frame: np.ndarray, thumb: np.ndarray | None = None,
               window: tuple[int, int, int, int] | None = None) -> BallDetections:
        """Balls in one BGR frame (full resolution), as :meth:`BallDetector.detect` finds them.
        ``thumb``: the frame's :func:`gate_thumbnail` at this gate's ``thumb_size`` and
        ``window``, when made already (one made for another gate is made again)."""
        import time

        t0 = time.perf_counter()
        d = self.det
        if thumb is None or thumb.shape[1::-1] != self.thumb_size or window != self.window:
            thumb = gate_thumbnail(frame, self.thumb_size, self.window)
        self.since_full += 1
        every = self.full_every
        if self.settling:
            self.settling -= 1
            every = self.settle_every
        kind = "full"
        if self.ref is None or self.since_full >= every or d.fresh:
            out = self._full(frame, thumb)
        else:
            changed = self._changed(thumb)
            if cv2.countNonZero(changed) < self.params.min_pixels:
                kind, out = "still", self._still()
            elif d.judge_by.whole_frame:
                # the learned detector judges a frame as a whole (one detection per unique
                # colour, the white's streak when no detection is the white, highlights
                # against the frame's single balls): a box searched alone misreads balls
                # (the TV sample clip's score came out wrong), so it searches the whole frame
                out = self._full(frame, thumb)
            else:
                rects = self._rects(changed, frame.shape)
                res = None if rects is None else self._partial(frame, thumb, rects)
                kind, out = ("partial", res) if res is not None else ("full", self._full(frame, thumb))
        self.last_kind = kind
        setattr(self.stats, kind, getattr(self.stats, kind) + 1)
        self.stats.seconds[kind] += time.perf_counter() - t0
        return out

    def _changed(self, thumb: np.ndarray) -> np.ndarray:
        """uint8 mask (quarter resolution) of the table's pixels that differ from the reference."""
        _, over = cv2.threshold(cv2.absdiff(thumb, self.ref), self.params.level, 255, cv2.THRESH_BINARY)
        # grey of the per-channel verdicts: non-zero where any channel changed
        return cv2.cvtColor(over, cv2.COLOR_BGR2GRAY) & self.region

    def _full(self, frame: np.ndarray, thumb: np.ndarray) -> BallDetections:
        d = self.det
        if self.table_rect is None or d.fresh:  # (the first search after the cloth is learned
            cands = d.candidates(frame)        # looks at the whole picture)
        else:
            x0, y0, x1, y1 = rect = self.table_rect
            cands = self._search(frame, list(rect))
            fg = np.zeros((d.small[1], d.small[0]), np.uint8)
            fg[y0:y1, x0:x1] = cands.fg
            cands = replace(cands, fg=fg)
        out = d.judge(frame, cands)
        self.ref, self.fg, self.last, self.since_full = thumb, cands.fg, out, 0
        return out

    def _still(self) -> BallDetections:
        last = self.last
        out = last[np.ones(len(last), bool)]
        out.occupancy = last.occupancy
        return out

    def _rects(self, changed: np.ndarray, shape: tuple[int, ...]) -> list[list[int]] | None:
        """Boxes (x0, y0, x1, y1) in working-scale px (even, inside the frame) around the
        changed pixels, merged where they overlap; None when they cover too much."""
        s = self.det.scale
        r_small = self.det.r_px * s
        m = int(np.ceil(self.params.box_margin_r * r_small))  # working-scale px
        # components on a grid of cell x cell quarter-resolution pixels (any changed: changed)
        h, w = changed.shape
        cell = self.params.cell
        hc, wc = -(-h // cell), -(-w // cell)
        padded = cv2.copyMakeBorder(changed, 0, hc * cell - h, 0, wc * cell - w,
                                    cv2.BORDER_CONSTANT, value=0)
        # the mean of 255s and 0s over a cell is non-zero where any pixel changed
        cells = cv2.resize(padded, (wc, hc), interpolation=cv2.INTER_AREA)
        n, _, stats, _ = cv2.connectedComponentsWithStats(cells, 8)
        H, W = self.det.small[1], self.det.small[0]
        q = 2 * cell  # working-scale px per cell
        rects = []
        for k in range(1, n):
            x, y, cw, ch = stats[k, :4]
            rects.append([max(0, q * x - m), max(0, q * y - m), min(W, q * (x + cw) + m),
                          min(H, q * (y + ch) + m)])
        rects = _merge(rects)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in rects) > self.params.full_share * W * H:
            return None
        return rects

    def _partial(self, frame: np.ndarray, thumb: np.ndarray,
                 rects: list[list[int]]) -> BallDetections | None:
        """Search the boxes again; None when that would not be complete (search it all)."""
        d = self.det
        s = d.scale
        H, W = d.small[1], d.small[0]
        r_small = d.r_px * s
        grow = max(2, int(2 * round(self.params.grow_r * r_small / 2)))
        fg = self.fg.copy()
        parts: list[Candidates] = []
        done = []
        for rect in rects:
            # grow the box until no foreground runs off it, looking only at the foreground
            # (the search's own first step, the same pixels), then search the box once
            for k in range(self.params.max_grow + 1):
                view = d.cut(*rect)
                small_box = self._crop_small(frame, rect)
                fg_box = view.foreground(small_box)
                sides = _cut_sides(fg_box.mask, rect, W, H)
                if not sides:
                    break
                step = grow << k
                for i in sides:
                    rect[i] = max(0, rect[i] - step) if i < 2 else min((W, H)[i - 2], rect[i] + step)
            else:
                return None
            box = self._search(frame, rect, view, fg_box, small_box)
            x0, y0, x1, y1 = rect
            fg[y0:y1, x0:x1] = box.fg
            # only where this box's search is complete (boxes may overlap once grown)
            inner = self._inner(rect, W, H)
            parts.append(box[_inside(box.px * s, [inner])])
            done.append(inner)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in _merge(done)) > self.params.full_share * W * H:
            return None
        new = d.judge(frame, Candidates.merge(parts, fg))
        inner = done
        old = self.last
        keep = ~_inside(old.px * s, inner)
        if len(new) and keep.any():
            dist = np.linalg.norm(old.px[:, None, :] - new.px[None, :, :], axis=2)
            keep &= ~(dist < self.params.same_ball_r * old.radius_px[:, None]).any(1)
        out = BallDetections.merge([old[keep], new], new.occupancy)
        ref = self.ref.copy()
        for x0, y0, x1, y1 in inner:  # the reference moves on where the search is complete
            qx0, qy0, qx1, qy1 = (x0 + 1) // 2, (y0 + 1) // 2, x1 // 2, y1 // 2
            ref[qy0:qy1, qx0:qx1] = thumb[qy0:qy1, qx0:qx1]
        self.ref, self.fg, self.last = ref, fg, out
        return out

    def _crop_small(self, frame: np.ndarray, rect: list[int]) -> np.ndarray:
        """The box's working-scale picture: the full frame's there, bit for bit (area
        averaging by a whole factor from an even offset)."""
        x0, y0, x1, y1 = rect
        inv = int(round(1 / self.det.scale))
        return cv2.resize(frame[y0 * inv:y1 * inv, x0 * inv:x1 * inv], (x1 - x0, y1 - y0),
                          interpolation=cv2.INTER_AREA)

    def _search(self, frame: np.ndarray, rect: list[int], view: BallDetector | None = None,
                fg: Foreground | None = None, small: np.ndarray | None = None) -> Candidates:
        """Candidates in one box, in the whole frame's pixels (their ``fg`` the box's).
        ``view``, ``fg`` and ``small``: the box's detector (:meth:`BallDetector.cut`) that has
        just found the box's foreground ``fg`` in its working-scale picture ``small`` (neither
        is made again)."""
        x0, y0, x1, y1 = rect
        inv = int(round(1 / self.det.scale))
        if view is None or fg is None or small is None:
            view, fg, small = self.det.cut(*rect), None, self._crop_small(frame, rect)
        cands = view.candidates(frame[y0 * inv:y1 * inv, x0 * inv:x1 * inv], small, fg)
        return cands.moved(x0, y0, inv)

    def _inner(self, rect: list[int], W: int, H: int) -> list[int]:
        """The part of a box (working-scale px) where its search is complete."""
        m = int(np.ceil(self.params.inner_r * self.det.r_px * self.det.scale))
        x0, y0, x1, y1 = rect
        return [x0 + m if x0 > 0 else 0, y0 + m if y0 > 0 else 0,
                x1 - m if x1 < W else W, y1 - m if y1 < H else H]


def _table_rect(detector: BallDetector, margin_r: float) -> list[int] | None:
    """The box (x0, y0, x1, y1, working-scale px; x0 and y0 even) a full search of ``detector``'s
    frames looks at: its table region's bounding box and ``margin_r`` radii
    (``GateParams.full_margin_r``) round it; None when that is nearly the whole frame (the whole is searched)."""
    ys, xs = np.nonzero(detector.region)
    if not len(xs):
        return None
    W, H = detector.small
    m = int(np.ceil(margin_r * detector.view.max_radius_px * detector.scale))
    x0, y0 = max(0, int(xs.min()) - m) & ~1, max(0, int(ys.min()) - m) & ~1
    x1, y1 = min(W, int(xs.max()) + 1 + m), min(H, int(ys.max()) + 1 + m)
    if (x1 - x0) * (y1 - y0) > 0.9 * W * H:
        return None
    return [x0, y0, x1, y1]


def _inside(p: np.ndarray, rects: list[list[int]]) -> np.ndarray:
    """Mask (N,) of points (N, 2) inside any of the boxes."""
    out = np.zeros(len(p), bool)
    for x0, y0, x1, y1 in rects:
        out |= (p[:, 0] >= x0) & (p[:, 0] < x1) & (p[:, 1] >= y0) & (p[:, 1] < y1)
    return out


def _cut_sides(fg: np.ndarray, rect: list[int], W: int, H: int) -> list[int]:
    """Sides of a box (0 left, 1 top, 2 right, 3 bottom) that foreground runs off, the frame's
    edges excepted."""
    x0, y0, x1, y1 = rect
    out = []
    if x0 > 0 and fg[:, 0].any():
        out.append(0)
    if y0 > 0 and fg[0, :].any():
        out.append(1)
    if x1 < W and fg[:, -1].any():
        out.append(2)
    if y1 < H and fg[-1, :].any():
        out.append(3)
    return out


def _merge(rects: list[list[int]]) -> list[list[int]]:
    """Boxes merged until none overlaps another."""
    rects = [list(r) for r in rects]
    merged = True
    while merged:
        merged = False
        for i in range(len(rects)):
            for j in range(i + 1, len(rects)):
                a, b = rects[i], rects[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    rects[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    del rects[j]
                    merged = True
                    break
            if merged:
                break
    return rects
