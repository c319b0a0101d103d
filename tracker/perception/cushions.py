"""Cushion contacts of a ball's track, and how finely the camera sees each cushion.

:func:`cushion_hits` finds where a ball's motion toward a cushion turns away from it near the
cushion's face; :class:`CushionView` says, per cushion, how many table millimetres an image
pixel spans there and what the cushion hides of a ball against it (a TV camera's far cushion),
so a contact is taken within that error (:func:`cushion_error`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker.records.shot import Event, EventType

#: A ball against a cushion is known to this many image pixels along the cushion's normal
#: (a far cushion of a TV view: a pixel is several mm there; the shading and the cushion's
#: edge move a ball's centre by a pixel or two): its contact is taken within a radius, a
#: frame's travel and this much of the face.
CUSHION_ERROR_PX = 3.0


def cushion_hits(table: TableGeometry, track: list[tuple[float, tuple[float, float]]], ball: str,
                 error_mm: Callable[[str, np.ndarray], float]) -> list[Event]:
    """Cushion contacts of one ball from its track [(t s, (x, y) mm)] over a stroke: its
    motion toward a cushion turns to motion away from it while it is within a radius (plus
    a frame's travel, :data:`CUSHION_ERROR_PX` of position error along the cushion's
    normal, and what the cushion hides of a ball against it, :class:`CushionView`) of that
    cushion's face, away from the pocket mouths. The time is where the incoming path
    reaches a radius from the face. Samples that only repeat the last position (the ball
    unseen for a frame or two while it moved: merged with another, or in a player's
    shadow) are left out, so a turn over an unseen frame is still a turn. ``error_mm(face,
    at)``: :func:`cushion_error` of the camera (mm)."""
    t = table
    r = t.ball_radius
    ts, ps = _seen_samples(track)
    if len(ts) < 3:
        return []
    out: list[Event] = []
    faces = t.cushion_faces
    pockets = [(np.asarray(pk.mouth_centre), 0.5 * pk.mouth_width + r) for pk in t.pockets.values()]
    last_t = -1.0
    vel = np.diff(ps, axis=0) / np.maximum(np.diff(ts), 1e-6)[:, None]  # (K-1, 2) mm/s
    for k in range(1, len(ps) - 1):
        for axis, face, inward, name in faces:
            n_in = -inward * vel[k - 1][axis]  # speed toward the face before sample k
            if n_in < 50.0:
                continue
            # away from it after sample k, or after k+1 (the reflection straddles a frame),
            # or k+2 when the ball seemed to stand at the face in between (a far cushion's
            # coarse pixels)
            j = next((j for j in (k, k + 1, k + 2) if j < len(vel) and inward * vel[j][axis] >= 30.0
                      and all(abs(vel[i][axis]) < 30.0 for i in range(k, j) if j == k + 2)), None)
            if j is None:
                continue
            n_out = inward * vel[j][axis]
            near = ps[k] if inward * (ps[k][axis] - face) <= inward * (ps[j][axis] - face) else ps[j]
            dist = inward * (near[axis] - face)
            step = max(n_in * (ts[k] - ts[k - 1]), n_out * (ts[j + 1] - ts[j]))
            reach = r + 0.6 * step + error_mm(name, near)
            if dist > reach or any(np.linalg.norm(near - m) < reach_m for m, reach_m in pockets):
                continue
            # when the incoming path was a radius from the face
            d_prev = inward * (ps[k - 1][axis] - face)
            tc = ts[k - 1] + np.clip((d_prev - r) / n_in, 0.0, ts[j + 1] - ts[k - 1])
            if tc - last_t < 0.08:
                continue
            label = t.cushion_label(name, float(near[1]))
            out.append(Event(EventType.CUSHION, round(float(tc), 4), (ball,), cushion=label))
            last_t = tc
    return out


def cushion_error(view: CushionView | None, position_error_mm: float, face: str,
                  at: np.ndarray, error_px: float = CUSHION_ERROR_PX) -> float:
    """How far (mm) a ball against cushion ``face`` at table position ``at`` may seem to
    stand beyond a radius from it: ``error_px`` pixels of position error along the face's
    normal (at least ``position_error_mm`` each), plus what the cushion hides (``view``;
    None: ``position_error_mm`` everywhere, nothing hidden)."""
    if view is None:
        return error_px * position_error_mm
    mm_px, hidden = view.at(face, at)
    return error_px * max(position_error_mm, mm_px) + hidden


def _seen_samples(track: list[tuple[float, tuple[float, float]]]) -> tuple[np.ndarray, np.ndarray]:
    """Times (K,) s and positions (K, 2) mm of a stroke's track less the samples that repeat
    the one before exactly (the tracker holds an unseen ball's last position); the last
    sample is kept (the ball at rest)."""
    if not track:
        return np.zeros(0), np.zeros((0, 2))
    ts = np.array([x[0] for x in track], float)
    ps = np.array([x[1] for x in track], float)
    new = np.r_[True, np.any(np.diff(ps, axis=0) != 0, axis=1)]
    new[-1] = True
    return ts[new], ps[new]


@dataclass(frozen=True)
class CushionView:
    """How finely the camera sees a ball against each cushion (for cushion contacts).

    Attributes:
        along: per face name (of ``TableGeometry.cushion_faces``), (coordinates along the
            face (M,) mm, table mm per image pixel along the face's normal there (M,)): a TV
            view's far cushion is seen several times coarser than a near one.
        hidden: per face name, how far (mm) the visible part's centre of a ball against that
            cushion lies from the whole ball's, away from the face: a camera beyond a cushion
            (a TV camera behind one end) sees a ball against it over the cushion's top, with
            its lower part hidden.
    """

    along: dict[str, tuple[np.ndarray, np.ndarray]]
    hidden: dict[str, float]

    def at(self, face: str, at: np.ndarray) -> tuple[float, float]:
        """(mm per px along the normal, hidden mm) for a ball against ``face`` at ``at`` mm."""
        coords, mm_px = self.along[face]
        axis = 0 if face in ("left", "right") else 1
        return float(np.interp(at[1 - axis], coords, mm_px)), self.hidden[face]

    @classmethod
    def from_calibration(cls, cal: Calibration, samples: int = 9) -> CushionView:
        """From a calibration: the image Jacobian at ``samples`` points along each face, a
        ball's radius in from it, and the cushion's shadowing of a sphere (sampled) seen from
        the camera centre."""
        t = cal.table
        r = t.ball_radius
        along, hidden = {}, {}
        for axis, face, inward, name in t.cushion_faces:
            span = t.length if axis == 0 else t.width
            coords = np.linspace(0.0, span, samples)
            pts = np.zeros((samples, 2))
            pts[:, axis] = face + inward * r
            pts[:, 1 - axis] = coords
            px = cal.to_image(pts, r)
            d = [cal.ball_to_table(px + off) - cal.ball_to_table(px) for off in ([1.0, 0.0], [0.0, 1.0])]
            mm_px = np.hypot(d[0][:, axis], d[1][:, axis])
            along[name] = (coords, np.where(np.isfinite(mm_px), mm_px, 0.0))
            hidden[name] = max(_hidden_by_cushion(cal, axis, face, inward, float(m))
                               for m in (0.25 * span, 0.5 * span, 0.75 * span))
        return cls(along, hidden)


def _hidden_by_cushion(cal: Calibration, axis: int, face: float, inward: float, at: float,
                       n: int = 600) -> float:
    """How far (mm, along the face's inward normal) the centre of what the camera sees of a
    ball touching the cushion at ``face`` (coordinate ``at`` along it) lies from the whole
    ball's: the cushion's nose, ``cushion_height`` high, hides the part of a ball below the
    camera's line of sight over it. 0 when the camera is over the bed side of that face."""
    import cv2

    t = cal.table
    r = t.ball_radius
    cam = cal.camera.centre
    if inward * (cam[axis] - face) >= 0:
        return 0.0
    i = np.arange(n) + 0.5
    phi, th = np.arccos(1 - 2 * i / n), np.pi * (1 + 5 ** 0.5) * i
    c = np.zeros(3)
    c[axis], c[1 - axis], c[2] = face + inward * r, at, r
    p = c + r * np.stack([np.cos(th) * np.sin(phi), np.sin(th) * np.sin(phi), np.cos(phi)], 1)
    p = p[((p - c) * (cam - p)).sum(1) > 0]  # the side facing the camera
    s = (face - p[:, axis]) / (cam[axis] - p[:, axis])
    seen = p[:, 2] + (cam[2] - p[:, 2]) * s >= t.cushion_height

    def centre(q: np.ndarray) -> np.ndarray:
        m = cv2.moments(cv2.convexHull(cal.camera.project(q).astype(np.float32)))
        return np.array([[m["m10"] / m["m00"], m["m01"] / m["m00"]]])

    if seen.sum() < 10:
        return 2 * r
    if seen.all():
        return 0.0
    shift = cal.ball_to_table(centre(p[seen]))[0] - cal.ball_to_table(centre(p))[0]
    return max(0.0, float(inward * shift[axis]))
