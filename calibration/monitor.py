"""Watching the calibrated view on video: camera moved (re-calibrate) and cuts (frames not
refereed until a view of the whole table returns).

A frame shows the calibrated view when the outline of its cloth lies where the calibrated
view's outline lies (:class:`ViewSignature`): the cloth's own colour, learned from the first
frames, is thresholded, and the reference outline's points (the cloth's outer edge along the
four cushions, where the first frames agree) must find a cloth edge within
:data:`OUTLINE_TOLERANCE_PX` on every side. A player leaning over a cushion hides a stretch of
one side; a score bar, a caption or a ticker lies off the cloth and changes nothing; a
close-up, the crowd, another camera's angle or a replay's wipe moves or removes the outline
on most sides.

When the outline does not match, the frame may still show the whole table through a camera
that moved or zoomed, or through another camera (an overhead one, say): a new calibration is
tried on it, and accepted when it fits and the balls it sees lie where balls were
(``recalibrated``: not another table, :data:`SAME_TABLE_SHARE`). Otherwise the frame is ``lost``:
not refereed until a view comes back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.auto import calibrate_image
from calibration.camera import CameraModel
from calibration.finder import TableNotFound
from calibration.markings import BallFinder
from calibration.profile import Calibration

#: Working width of the view check, px (the frame is scaled to it).
WORK_WIDTH = 640
#: A reference outline point is matched when a cloth edge of the frame lies this close, px at
#: :data:`WORK_WIDTH` (about 2 px at 720p, 3 at 1080p).
OUTLINE_TOLERANCE_PX = 1.5
#: A side of the table is in place when at least this share of its outline points match. A
#: side with no outline points in the signature (its cushion's outer edge outside the
#: picture: a camera framed tight on the table) is not asked for, so long as at least
#: :data:`MIN_SIDES_SEEN` sides are (the synthetic pool world's overhead camera on seed 4
#: put one end's edge off the picture, and every frame of the clip was "lost").
MIN_SIDE_MATCH = 0.15
MIN_SIDES_SEEN = 3
#: The view is the calibrated one when, over the four sides, at least this share of the
#: outline points match (a player leaning over a cushion, or the referee in front of the
#: table, hides up to about a third of the outline on the real broadcast clips).
MIN_VIEW_MATCH = 0.6
#: A person between the camera and the table (a player leaning over a near cushion, down on a
#: shot along it) hides whole stretches of the outline, over the 40 % that
#: :data:`MIN_VIEW_MATCH` allows, and may hide most of a side; what is not hidden is exactly in
#: place. A camera moved or another view moves every side. So the view is also the calibrated
#: one when at least :data:`OCCLUDED_MIN_MATCH` of the outline is in place and at least
#: :data:`OCCLUDED_WHOLE_SIDES` sides are each at least :data:`OCCLUDED_WHOLE_SIDE` in place.
#: (The real 9-ball clearance, development: 105 of 2915 frames were lost in 8 stretches with
#: a player over a near cushion, shares 0.57-0.70 with two sides at 0.88-1.0; the same frames
#: moved by 3 working px keep two sides at most 0.83, by 6 px the share falls to 0.09-0.12.)
OCCLUDED_MIN_MATCH = 0.5
OCCLUDED_WHOLE_SIDE = 0.85
OCCLUDED_WHOLE_SIDES = 2
#: The outline is looked for within this distance of where the calibration puts the cloth's
#: outer edge (the cushion top, ``cushion_depth`` outside the nose), px at WORK_WIDTH.
OUTLINE_BAND_PX = 8.0
#: The outline check looks at strips round each side's outline points, this far beyond them,
#: px at WORK_WIDTH: the 3 x 3 blur and erosion and an edge within the tolerance reach 3 px,
#: so a point's verdict is the whole picture's.
STRIP_MARGIN_PX = 4
#: The picture is checked at once, between the regular checks, when its thumbnail
#: (:data:`THUMB_SIZE`) changes by this much (mean grey levels) from the last frame's: a cut.
CUT_CHANGE = 10.0
THUMB_SIZE = (32, 18)
#: The thumbnail averages a grid of this many samples per thumbnail pixel along each axis
#: (a nearest-pixel pick first: an area average over a whole 1080p frame cost 3.4 ms a frame).
THUMB_SAMPLES = 8
#: A new calibration on a frame that does not match is accepted below this fit error, mm.
MAX_RECALIBRATION_FIT_MM = 8.0
#: The views a monitor has calibrated and remembers (the newest first): a picture that shows
#: one of them again is taken back at once with its calibration, without the same-table check
#: (a camera knocked and put back while the balls were re-racked; a broadcast cutting back to
#: a camera it left). Four: the first view, and knocks or cameras since, each a few kB.
KNOWN_VIEWS = 4
#: A new calibration is taken as a view of the same table (a camera bumped or zoomed, another
#: camera on it) only when at least this share of the balls it finds lie within
#: :data:`SAME_TABLE_BALL_MM` of a ball found in the last frame of the old view: a stroke
#: moves a few balls, another table's layout is another. (Another table seen by its own main
#: camera fits as well as this one's: on the real broadcast clips the table's corners of two
#: matches lie 13 to 33 px apart at 720p.) Balls on the colours' spots are left out: every
#: table has them. Not checked without a ball finder.
SAME_TABLE_SHARE = 0.5
#: See :data:`SAME_TABLE_SHARE`, mm.
SAME_TABLE_BALL_MM = 60.0
#: Kept for the edge test of the cushion noses (:meth:`ViewMonitor.alignment`).
EDGE_TOLERANCE_PX = 2.5
#: A calibration whose cushion fit is worse than this (median, mm) was made on a poor picture
#: (the start's frames: a player leaning over a cushion, the break's arm across the far end;
#: the real 9-ball clearance's start fits 9.6 mm, its near long cushion ~30 px out, where a
#: picture of the same view 20 s later fits 5.4 mm): while it is in force, the monitor tries
#: the view itself again on later pictures of it (:meth:`ViewMonitor._better_view`) ...
BETTER_VIEW_FIT_MM = 6.0
#: ... every this many seconds of video (each try costs about 0.6 s of one core at 1080p) ...
BETTER_VIEW_EVERY_S = 3.0
#: ... at most this many times in a run ...
BETTER_VIEW_TRIES = 12
#: ... and takes a new calibration of the same view when its median fit error is at most this
#: share of the one in force and no side of it fits worse.
BETTER_VIEW_GAIN = 0.7


@dataclass(frozen=True)
class ViewStatus:
    """What the monitor says about one frame.

    Attributes:
        frame: frame index.
        state: ``ok`` (calibrated view), ``recalibrated`` (the camera moved or another camera
            shows the whole table: a new calibration is in force from this frame), ``lost``
            (no view of the whole table: not refereed).
        alignment: share of the reference outline found in place (0..1).
        calibration: the new calibration (``recalibrated`` only; None otherwise), carried with
            the verdict so that a monitor working ahead of the pipeline on its own thread
            hands over the calibration of this frame, not a later one.
        same_picture: (``recalibrated`` only) the new calibration is a better fit of the view
            already in force (:meth:`ViewMonitor._better_view`): the camera did not move, so
            each ball still stands where it was in the picture and is only read again through
            the new calibration (:func:`reread_ball`); False: another view.
    """

    frame: int
    state: str
    alignment: float
    calibration: Calibration | None = field(default=None, repr=False, compare=False)
    same_picture: bool = False

    @property
    def refereed(self) -> bool:
        """Whether calls may be made on this frame."""
        return self.state != "lost"


def cloth_hsv(frames: Sequence[np.ndarray], bed: np.ndarray) -> np.ndarray:
    """Median (hue, saturation, value) of the saturated bed pixels of ``frames`` (BGR at the
    working size; ``bed`` bool mask)."""
    px = np.concatenate([cv2.cvtColor(f, cv2.COLOR_BGR2HSV)[bed] for f in frames])
    sat = px[px[:, 1] > 25]
    return np.median(sat if len(sat) > 50 else px, axis=0).astype(np.float32)


def cloth_pixels(img: np.ndarray, hsv0: np.ndarray) -> np.ndarray:
    """Pixels (uint8 0/1) of BGR ``img`` that have the cloth's colour ``hsv0`` (hue within 12,
    saturation above 45 %, value above 30 % of the cloth's; as :func:`calibration.finder.cloth_mask`)."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(img, (3, 3), 0), cv2.COLOR_BGR2HSV).astype(np.int16)
    dh = np.abs(hsv[..., 0] - int(hsv0[0]))
    dh = np.minimum(dh, 180 - dh)
    return ((dh < 12) & (hsv[..., 1] > 0.45 * hsv0[1]) & (hsv[..., 2] > 0.3 * hsv0[2])).astype(np.uint8)


def _edges(mask: np.ndarray) -> np.ndarray:
    """The boundary pixels (bool) of a 0/1 mask."""
    return (mask - cv2.erode(mask, np.ones((3, 3), np.uint8))).astype(bool)


def _outline_found(small: np.ndarray, hsv0: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Whether a cloth edge of BGR picture ``small`` (working scale) lies within
    :data:`OUTLINE_TOLERANCE_PX` of each point ``p`` (N, 2) int px in it: (N,) bool."""
    edge = _edges(cloth_pixels(small, hsv0))
    dist = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
    return dist[p[:, 1], p[:, 0]] <= OUTLINE_TOLERANCE_PX


@dataclass
class ViewSignature:
    """What the calibrated view looks like: the cloth's colour and its outline.

    Attributes:
        scale: working px per frame px.
        hsv: the cloth's colour (hue, saturation, value).
        points: (N, 2) reference outline points, working px.
        side: (N,) which side of the table (0..3) each point is on.
    """

    scale: float
    hsv: np.ndarray
    points: np.ndarray
    side: np.ndarray = field(repr=False)

    @classmethod
    def build(cls, cal: Calibration, frames: Sequence[np.ndarray]) -> ViewSignature:
        """The signature of the view of ``cal`` from some of its frames (BGR, full size): the
        cloth's colour on the bed, and the outline of the cloth where most frames agree (a
        player passing in one frame does not count), near where the calibration puts the
        cloth's outer edge."""
        w, h = cal.image_size
        scale = WORK_WIDTH / float(w)
        size = (WORK_WIDTH, int(round(h * scale)))
        small = [cv2.resize(f, size, interpolation=cv2.INTER_AREA) for f in frames]
        t = cal.table
        bed_q = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
        bed = np.zeros(size[::-1], np.uint8)
        cv2.fillPoly(bed, [np.round(outline_px(cal, bed_q, 0.0) * scale).astype(np.int32)], 1)
        hsv = cloth_hsv(small, bed.astype(bool))
        votes = np.mean([cloth_pixels(f, hsv) for f in small], axis=0) >= 0.5
        mask = _largest_filled(votes.astype(np.uint8))
        d = t.cushion_depth
        outer = outline_px(cal, bed_q + np.array([[-d, -d], [d, -d], [d, d], [-d, d]]),
                            t.cushion_height) * scale
        pts = np.argwhere(_edges(mask))[:, ::-1].astype(float)
        dist, side = _distance_to_polygon(pts, outer)
        keep = dist <= OUTLINE_BAND_PX
        return cls(scale, hsv, pts[keep], side[keep])

    def match(self, img: np.ndarray) -> tuple[float, np.ndarray]:
        """(share of the outline points in place, per side (4,)) in BGR frame ``img``.

        Only strips round each side's outline points are looked at (about a fifth of the
        picture from overhead), each scaled down from the frame on its own: when the frame is
        a whole number of times the working size, that is bit for bit the whole picture's
        verdict (each working pixel is the area average of its own block of frame pixels, and
        :data:`STRIP_MARGIN_PX` keeps the points clear of the strips' edges)."""
        if not len(self.points):
            return 0.0, np.zeros(4)
        h, w = img.shape[:2]
        size = (int(round(w * self.scale)), int(round(h * self.scale)))
        p = np.round(self.points).astype(int)
        p[:, 0] = np.clip(p[:, 0], 0, size[0] - 1)
        p[:, 1] = np.clip(p[:, 1], 0, size[1] - 1)
        k = w // size[0]
        if w == k * size[0] and h == k * size[1]:
            ok = np.zeros(len(p), bool)
            for side, (x0, y0, x1, y1) in self._strips(p, size):
                small = cv2.resize(img[k * y0:k * y1, k * x0:k * x1], (x1 - x0, y1 - y0),
                                   interpolation=cv2.INTER_AREA)
                sel = self.side == side
                ok[sel] = _outline_found(small, self.hsv, p[sel] - (x0, y0))
        else:
            ok = _outline_found(cv2.resize(img, size, interpolation=cv2.INTER_AREA), self.hsv, p)
        per_side = np.array([ok[self.side == s].mean() if np.any(self.side == s) else 0.0
                             for s in range(4)])
        return float(ok.mean()), per_side

    def _strips(self, p: np.ndarray, size: tuple[int, int]) -> list[tuple[int, tuple[int, ...]]]:
        """(side, its strip (x0, y0, x1, y1) working px) for each side with outline points
        ``p`` (N, 2) working px: their bounding box and :data:`STRIP_MARGIN_PX` round it,
        inside the picture of ``size`` (w, h)."""
        m = STRIP_MARGIN_PX
        out = []
        for side in range(4):
            q = p[self.side == side]
            if len(q):
                out.append((side, (max(0, int(q[:, 0].min()) - m), max(0, int(q[:, 1].min()) - m),
                                   min(size[0], int(q[:, 0].max()) + m + 1),
                                   min(size[1], int(q[:, 1].max()) + m + 1))))
        return out

    def same_view(self, img: np.ndarray) -> tuple[bool, float]:
        """(whether ``img`` shows this view, the share of the outline in place)."""
        share, per_side = self.match(img)
        seen = [s for s in range(4) if np.any(self.side == s)]
        if len(seen) < MIN_SIDES_SEEN:
            return False, share  # too few sides in the picture to check (either way below)
        whole = share >= MIN_VIEW_MATCH and per_side[seen].min() >= MIN_SIDE_MATCH
        hidden = (share >= OCCLUDED_MIN_MATCH
                  and int((per_side >= OCCLUDED_WHOLE_SIDE).sum()) >= OCCLUDED_WHOLE_SIDES)
        return bool(whole or hidden), share


def outline_px(cal: Calibration, quad_mm: np.ndarray, z: float, n: int = 60) -> np.ndarray:
    """A table quadrilateral (4, 2) mm at height ``z`` as a dense image polygon (4n, 2) px."""
    dense = np.concatenate([np.linspace(quad_mm[i], quad_mm[(i + 1) % 4], n, endpoint=False)
                            for i in range(4)])
    return cal.to_image(dense, z)


def _largest_filled(mask: np.ndarray) -> np.ndarray:
    """The largest connected region of a 0/1 mask, its holes filled (0/1 uint8)."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, 8)
    if n < 2:
        return np.zeros_like(mask)
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours((lab == k).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 1, -1)
    return out


def _distance_to_polygon(pts: np.ndarray, poly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distance (N,) of points (N, 2) to a closed dense polygon (4n, 2) made of four sides of
    equal point counts, and the side (0..3) of the nearest polygon point."""
    if not len(pts):
        return np.zeros(0), np.zeros(0, int)
    seg_a, seg_b = poly, np.roll(poly, -1, axis=0)
    ab = seg_b - seg_a
    L2 = np.maximum((ab * ab).sum(1), 1e-9)
    best = np.full(len(pts), np.inf)
    which = np.zeros(len(pts), int)
    per_side = len(poly) // 4
    for k in range(len(poly)):
        u = np.clip(((pts - seg_a[k]) @ ab[k]) / L2[k], 0.0, 1.0)
        d = np.linalg.norm(pts - (seg_a[k] + u[:, None] * ab[k]), axis=1)
        closer = d < best
        best[closer] = d[closer]
        which[closer] = min(3, k // per_side)
    return best, which


def same_end(old: Calibration, new: Calibration) -> Calibration:
    """``new``, a calibration of the view ``old`` calibrates, with the table's ends as ``old``
    has them: where the table's corners of ``new`` lie nearer those of ``old`` turned end for
    end (a pool table has no baulk line or D, so which end is which may be read either way on
    two pictures), ``new`` turned round (x -> W - x, y -> L - y), so positions in table mm
    go on."""
    t = new.table
    quad = np.array([[0, 0], [t.width, 0], [t.width, t.length], [0, t.length]], float)
    a, b = old.to_image(quad, t.cushion_height), new.to_image(quad, t.cushion_height)
    if np.linalg.norm(a - b, axis=1).sum() <= np.linalg.norm(a - np.roll(b, 2, axis=0), axis=1).sum():
        return new
    cam = new.camera
    turned = CameraModel(cam.image_size, cam.K, cam.dist, cam.R @ np.diag([-1.0, -1.0, 1.0]),
                         cam.t + cam.R @ np.array([t.width, t.length, 0.0]))
    return replace(new, camera=turned, orientation=old.orientation)


def reread_ball(old: Calibration, new: Calibration, mm: np.ndarray) -> np.ndarray:
    """Ball positions ``mm`` (N, 2) table mm, read through ``old``, read again through ``new``
    (a calibration of the same picture: :attr:`ViewStatus.same_picture`): each ball centre
    projected into the picture through ``old`` at the height of a ball's centre and taken back
    to the table through ``new``. Returns (N, 2) mm (``mm``'s shape when empty)."""
    p = np.asarray(mm, float).reshape(-1, 2)
    if not len(p):
        return p
    return new.ball_to_table(old.to_image(p, old.table.ball_radius))


class ViewMonitor:
    """Checks every ``check_every`` frames that the frame shows the calibrated view (see the
    module docstring); re-calibrates when the camera has moved or another camera shows the
    whole table; marks frames lost otherwise.

    Args:
        calibration: the camera's calibration.
        check_every: frames between checks (the verdict holds in between).
        reference: frames of the calibrated view (e.g. the first seconds) to learn its
            signature from; by default the first frame checked.
        ball_finder: finds the balls for a new calibration's markings and orientation
            (:func:`calibration.auto.calibrate_image`); the calibration package has none of
            its own.
    """

    def __init__(self, calibration: Calibration, check_every: int = 5,
                 reference: Sequence[np.ndarray] | None = None,
                 ball_finder: BallFinder | None = None, fps: float = 25.0):
        self.cal = calibration
        self.ball_finder = ball_finder
        self.check_every = max(1, check_every)
        self.signature = ViewSignature.build(calibration, reference) if reference else None
        self.last = ViewStatus(-1, "ok", 1.0)
        self.history: list[ViewStatus] = []
        #: earlier views of this run (signature, calibration), newest first
        self.known: list[tuple[ViewSignature, Calibration]] = []
        self._thumb: np.ndarray | None = None
        #: the last frame that showed the view (the layout a new calibration is checked with)
        self._last_seen: np.ndarray | None = None
        #: frames between tries of a better calibration of a poorly fitted view, and the tries
        #: left (:meth:`_better_view`)
        self._better_every = max(1, int(round(BETTER_VIEW_EVERY_S * fps)))
        self._better_left = BETTER_VIEW_TRIES
        self._better_at = 0

    def _cut(self, img: np.ndarray) -> bool:
        """Whether the picture changed at once from the last frame's (a cut, a wipe)."""
        grid = (THUMB_SIZE[0] * THUMB_SAMPLES, THUMB_SIZE[1] * THUMB_SAMPLES)
        picked = cv2.resize(img, grid, interpolation=cv2.INTER_NEAREST)
        thumb = cv2.cvtColor(cv2.resize(picked, THUMB_SIZE, interpolation=cv2.INTER_AREA),
                             cv2.COLOR_BGR2GRAY).astype(np.float32)
        prev, self._thumb = self._thumb, thumb
        return prev is not None and float(np.abs(thumb - prev).mean()) >= CUT_CHANGE

    def update(self, frame: int, img: np.ndarray) -> ViewStatus:
        """Status of ``frame``: checked every ``check_every`` frames and on a sudden change of
        the picture (else the last verdict holds); a lost view is checked on every frame, so
        that refereeing resumes at once."""
        cut = self._cut(img)
        due = not self.history or frame - self.history[-1].frame >= self.check_every
        if not due and not cut and self.last.state != "lost":
            return ViewStatus(frame, "ok", self.last.alignment)
        if self.signature is None:
            self.signature = ViewSignature.build(self.cal, [img])
        same, share = self.signature.same_view(img)
        if same:
            st = self._better_view(frame, img, share) or ViewStatus(frame, "ok", share)
            self._last_seen = img
        elif due or cut:
            st = self._known_view(frame, img) or self._try_recalibrate(frame, img, share)
        else:
            st = ViewStatus(frame, "lost", share)  # a new calibration is tried when due
        self.last = st
        self.history.append(st)
        return st

    def _better_view(self, frame: int, img: np.ndarray, share: float) -> ViewStatus | None:
        """A better calibration of the same view (``recalibrated`` with it), or None: tried
        while the one in force, found automatically, fits the cushions poorly
        (:data:`BETTER_VIEW_FIT_MM`: made on pictures where a player hid part of a cushion), every :data:`BETTER_VIEW_EVERY_S`,
        at most :data:`BETTER_VIEW_TRIES` times; taken when it fits clearly better
        (:data:`BETTER_VIEW_GAIN`, no side worse). The picture matched the view's outline, so
        it is this table: the balls are not compared (:meth:`_same_table`), the old
        calibration may put them tens of mm from where the new one does."""
        fit = self.cal.fit_error_mm
        if (self._better_left <= 0 or frame < self._better_at or self.cal.method != "auto"
                or fit.get("median", 0.0) <= BETTER_VIEW_FIT_MM):
            return None  # (a calibration given by hand is the user's: kept)
        self._better_left -= 1
        self._better_at = frame + self._better_every
        try:
            new = calibrate_image(img, self.cal.table, ball_finder=self.ball_finder)
        except (TableNotFound, cv2.error, ValueError, np.linalg.LinAlgError):
            return None  # not this picture (a player across the table): tried again later
        got = new.fit_error_mm
        if (got.get("median", 99.0) > BETTER_VIEW_GAIN * fit["median"]
                or got.get("worst_side", 99.0) > fit.get("worst_side", 99.0)):
            return None  # (the picture shows the calibrated view: no same-table check)
        new = same_end(self.cal, new)
        self.cal = new  # the signature stays: the view's outline in the picture is the same
        return ViewStatus(frame, "recalibrated", share, new, same_picture=True)

    def _known_view(self, frame: int, img: np.ndarray) -> ViewStatus | None:
        """The view of an earlier calibration shown again (``recalibrated`` with it), or None."""
        for i, (signature, cal) in enumerate(self.known):
            same, share = signature.same_view(img)
            if same:
                del self.known[i]
                self._remember()
                self.cal, self.signature, self._last_seen = cal, signature, img
                return ViewStatus(frame, "recalibrated", share, cal)
        return None

    def _remember(self) -> None:
        """Keep the view now in force among the known ones (at most :data:`KNOWN_VIEWS`)."""
        if self.signature is not None:
            self.known = [(self.signature, self.cal), *self.known][:KNOWN_VIEWS]

    def _try_recalibrate(self, frame: int, img: np.ndarray, share: float) -> ViewStatus:
        try:
            new = calibrate_image(img, self.cal.table, ball_finder=self.ball_finder)
        except TableNotFound:
            return ViewStatus(frame, "lost", share)
        if new.fit_error_mm.get("median", 99.0) > MAX_RECALIBRATION_FIT_MM:
            return ViewStatus(frame, "lost", share)
        signature = ViewSignature.build(new, [img])
        same, new_share = signature.same_view(img)
        if not same or not self._same_table(new, img):
            return ViewStatus(frame, "lost", share)
        self._remember()
        self.cal, self.signature, self._last_seen = new, signature, img
        return ViewStatus(frame, "recalibrated", new_share, new)

    def _same_table(self, new: Calibration, img: np.ndarray) -> bool:
        """Whether ``img`` through the camera ``new`` shows the table last seen through the
        old one: most of the balls it finds off the colours' spots are where balls were
        (:data:`SAME_TABLE_SHARE`); nothing seen off the spots is no contradiction."""
        if self.ball_finder is None or self._last_seen is None:
            return True
        before_px, _ = self.ball_finder(self._last_seen, self.cal.camera, self.cal.table)
        now_px, _ = self.ball_finder(img, new.camera, new.table)
        if len(now_px) == 0:
            return True  # nothing seen that contradicts it
        if len(before_px) == 0:
            return False
        before = self.cal.ball_to_table(before_px)
        now = new.ball_to_table(now_px)
        spots = np.array(list(new.table.spots.values()), float).reshape(-1, 2)
        if len(spots):  # every table has its colours on their spots: they tell nothing
            now = now[np.linalg.norm(now[:, None, :] - spots[None], axis=2).min(axis=1)
                      > SAME_TABLE_BALL_MM]
        if len(now) == 0:
            return True
        nearest = np.linalg.norm(now[:, None, :] - before[None, :, :], axis=2).min(axis=1)
        return float(np.mean(nearest <= SAME_TABLE_BALL_MM)) >= SAME_TABLE_SHARE

    def alignment(self, img: np.ndarray) -> float:
        """Share of the reference outline in place in ``img`` (0..1)."""
        if self.signature is None:
            self.signature = ViewSignature.build(self.cal, [img])
        return self.signature.match(img)[0]
