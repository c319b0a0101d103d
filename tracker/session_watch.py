"""Watching a table between frames: is a new frame racked? (:class:`RackWatcher`).

Each look is one refereed picture's ball detections (table millimetres, colour classes). A
look is a *rack* when the game's reds sit in the triangle's places (all but
:attr:`RackParams.reds_missed` of them, no more than :attr:`RackParams.stray_reds` elsewhere),
every colour sits on its spot and the cue ball is in hand (not seen) or in the D. The watcher
says a new frame is racked once looks have been racks for :attr:`RackParams.stable_s` seconds,
a look that is not a rack (a hand placing a ball, a player leaning over, a cut away from the
table) breaking the run only when it lasts longer than :attr:`RackParams.dropout_s`. Other
looks are told apart for the scoreboard (:attr:`RackWatcher.phase`): ``empty`` (no ball seen:
an empty or covered table, the lights off), ``racking`` (balls near their rack places but not
all), ``balls`` (balls about with no rack: a frame under way, practice, balls knocked about).

Mid-frame, a rack counts only after the frame's own rack was seen *broken*
(:attr:`RackWatcher.broken`: most reds gone from the triangle), so a break-off that hardly
moved the pack is never taken for the players re-racking.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.table import TableGeometry
from tracker.perception.detections import CLASSES, BallDetections
from tracker.rules.ballset import BallSet


@dataclass(frozen=True)
class RackParams:
    """The rack watcher's tunables (set on constructed looks and the synthetic match; not tuned
    on test footage).

    Attributes:
        spot_tol_mm: a colour this close to its spot (mm) is on it (the referee's hand places
            it within a few mm; 45 mm also takes a centre measured a few pixels off).
        red_tol_mm: a red this close to one of the triangle's places (mm) is racked.
        reds_missed: racked reds the camera may miss (a tight pack hides one).
        stray_reds: reds seen away from the triangle that a rack may still have (a detection
            of a pocket's shadow, a red being carried to the pack).
        broken_share: the frame's rack counts as broken once fewer than this share of its reds
            are seen in the triangle.
        stable_s: seconds the rack must hold before a new frame starts: short, as the
            break-off may follow the last colour put on its spot within two seconds (the cue
            ball placed, one look, the stroke; the synthetic match's re-racks do); the rack's
            own test (every ball in its place) is what keeps a frame from being invented.
        dropout_s: a stretch of looks that are not racks shorter than this (s) does not restart
            the count (a hand over the pack, a player passing).
        near_mm: a ball this close to a rack place (mm) counts towards ``racking``.
        cleared_s: a frame under way whose table is seen empty this long (s) was given up: its
            balls were taken off by hand (the table cleared after a concession the camera was
            not told of).
    """

    spot_tol_mm: float = 45.0
    red_tol_mm: float = 40.0
    reds_missed: int = 1
    stray_reds: int = 1
    broken_share: float = 0.6
    stable_s: float = 0.8
    dropout_s: float = 0.5
    near_mm: float = 60.0
    cleared_s: float = 2.0


#: The defaults.
RACK_PARAMS = RackParams()


@dataclass(frozen=True)
class RackLook:
    """What one look shows.

    Attributes:
        phase: ``empty``, ``racking``, ``rack`` or ``balls`` (see the module docstring).
        reds_racked: reds seen on the triangle's places.
        colours_spotted: colours seen on their own spots.
        balls: balls seen.
    """

    phase: str
    reds_racked: int
    colours_spotted: int
    balls: int


class RackWatcher:
    """Says when a frame's rack stands on the table (see the module docstring).

    Args:
        table: the table (spots, D).
        rack: the game's set-up positions, mm (the rules' ``setup_positions()``: reds and
            colours, the cue ball in hand).
        balls: the game's balls (which ids are reds, which colours).
        params: the tunables.
    """

    def __init__(self, table: TableGeometry, rack: dict[str, tuple[float, float]],
                 balls: BallSet, params: RackParams = RACK_PARAMS):
        self.table = table
        self.params = params
        self.red_places = np.array([rack[r] for r in balls.reds if r in rack], float).reshape(-1, 2)
        self.colour_spots = {c: np.array(rack[c], float) for c in balls.colours if c in rack
                             and c in CLASSES}
        self.n_reds = len(self.red_places)
        #: the current look's phase
        self.phase = "empty"
        #: the frame's rack was seen broken since :meth:`reset`
        self.broken = False
        self._since: float | None = None
        self._last_rack: float | None = None
        self._empty_since: float | None = None

    def reset(self) -> None:
        """A frame starts: forget the run of racks and whether the rack was broken."""
        self.broken = False
        self._since = self._last_rack = self._empty_since = None

    def look(self, det: BallDetections) -> RackLook:
        """What one picture's detections show (no memory)."""
        p = self.params
        if not len(det):
            return RackLook("empty", 0, 0, 0)
        names = [CLASSES[int(k)] for k in det.cls]
        mm = np.asarray(det.mm, float).reshape(-1, 2)
        red_mm = mm[[n == "red" for n in names]]
        racked, stray = self._reds(red_mm, p.red_tol_mm)
        spotted, off_spot = 0, 0
        for c, spot in self.colour_spots.items():
            at = mm[[n == c for n in names]]
            if not len(at):
                continue
            near = np.linalg.norm(at - spot, axis=1).min()
            spotted += near <= p.spot_tol_mm
            off_spot += near > p.spot_tol_mm
        whites = mm[[n == "white" for n in names]]
        white_ok = all(self.table.in_d(w, tol=self.table.ball_radius) for w in whites)
        if racked >= self.n_reds - p.reds_missed and stray <= p.stray_reds and off_spot == 0 \
                and spotted == len(self.colour_spots) and white_ok:
            return RackLook("rack", racked, spotted, len(det))
        near, _ = self._reds(red_mm, p.near_mm)
        placing = (near + spotted) >= max(2, (self.n_reds + len(self.colour_spots)) // 2)
        return RackLook("racking" if placing else "balls", racked, spotted, len(det))

    def _reds(self, red_mm: np.ndarray, tol: float) -> tuple[int, int]:
        """Reds on distinct triangle places within ``tol`` mm, and the other reds."""
        if not len(red_mm) or not self.n_reds:
            return 0, len(red_mm)
        d = np.linalg.norm(red_mm[:, None, :] - self.red_places[None, :, :], axis=2)
        taken: set[int] = set()
        racked = 0
        for i in np.argsort(d.min(axis=1)):
            free = [j for j in np.argsort(d[i]) if j not in taken and d[i, j] <= tol]
            if free:
                taken.add(int(free[0]))
                racked += 1
        return racked, len(red_mm) - racked

    def update(self, t: float, det: BallDetections) -> bool:
        """Take one refereed picture at ``t`` seconds; True once the rack has stood
        :attr:`RackParams.stable_s` (then the count starts again)."""
        seen = self.look(det)
        self.phase = seen.phase
        p = self.params
        if seen.phase != "empty":
            self._empty_since = None
        elif self._empty_since is None:
            self._empty_since = t
        if self.n_reds and seen.reds_racked < p.broken_share * self.n_reds:
            self.broken = True
        if seen.phase != "rack":
            if self._last_rack is not None and t - self._last_rack > p.dropout_s:
                self._since = self._last_rack = None
            return False
        if self._since is None:
            self._since = t
        self._last_rack = t
        if t - self._since >= p.stable_s:
            self._since = self._last_rack = None
            return True
        return False

    def cleared(self, t: float) -> bool:
        """The table has been seen empty for :attr:`RackParams.cleared_s` up to ``t`` s."""
        return self._empty_since is not None and t - self._empty_since >= self.params.cleared_s

    def unseen(self, t: float) -> None:
        """A picture at ``t`` s that shows no table (a cut away, people in the way): counted as
        a look that is not a rack."""
        p = self.params
        if self._last_rack is not None and t - self._last_rack > p.dropout_s:
            self._since = self._last_rack = None
