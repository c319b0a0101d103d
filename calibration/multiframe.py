"""The camera refined over many frames of one fixed view.

One frame shows part of the evidence: a player bent over the table hides a cushion's stretch
and the balls on the spots behind him, the referee another, the score bar the near cushion.
Frames taken a few seconds apart hide different parts. :func:`pool_frames` fits one camera
(pose, and the focal length where the best frame's view estimated it) to the cushion edges
and markings of every frame that shows the same view as the best single frame (the table's
corners within :attr:`PoolParams.same_view_share` of the picture's width): the spot balls
(read at their outline's centre, :mod:`calibration.ballcentre`; balls at rest on their spots
are points 26.25 mm above the bed at known places), the baulk line and the D. A ball at rest
off its spot gives a fixed camera nothing: it stands on the same pixel in every frame, at a
place on the table not known.

The pooled camera is kept only where the markings held out of the fit say it is better:
each marking (a colour on its spot, the baulk line, the D, over all the frames that show it)
is left out of the pooled fit in turn and measured under the camera fitted without it; the
same markings are measured under the best frame's own camera fitted without them (a marking
that frame did not see is held out of its fit anyway). The pooled camera wins when the
median of its held-out errors is below :attr:`PoolParams.gain` times the single frame's, over
the same markings.

Every tunable is in :class:`PoolParams` (:data:`POOL`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from calibration.accuracy import (
    MARKINGS_AGREE_MM,
    accuracy_notes,
    cushion_fit,
    fit_ok,
    judge,
)
from calibration.camera import CameraModel
from calibration.finder import DEFAULT_HFOV_DEG
from calibration.focal import focal_check_with, focal_note
from calibration.markings import (
    FitTargets,
    Markings,
    edge_offsets_px,
    fit_camera,
    fit_targets,
    fit_to_targets,
    marking_errors,
    pool_targets,
    targets_rms,
)
from calibration.profile import Calibration
from calibration.table import TableGeometry


@dataclass(frozen=True)
class PoolParams:
    """How :func:`pool_frames` pools frames.

    Attributes:
        enabled: refine over many frames at all (off: the best single frame, as before). Off
            in the product since 2026-11-28 (lead): against truth from outside it measured no
            gain (synthetic TV clips, ball grid 2.0 -> 2.0 mm), and on the real development
            clip broadcast-snooker-more/main_camera_boxes_burned_in the pooled camera made
            ``process`` call a brown potted that was not (off: no pot, as before).
        same_view_share: a frame is of the same view when its own camera puts the table's
            four corners within this share of the picture's width of where the best frame's
            camera puts them (a cut, a pan or a frame taken the other way round is left out).
        edge_gate_px: a cushion-edge point further than this from its cushion line under the
            best frame's camera is left out of the pooled fit (an arm or a cue over the
            cushion in that frame), px.
        min_frames: pool only from this many frames of the same view (the best one included).
        sound_mm: a best frame whose held-out markings land within this (median, mm) is kept
            as it is: the markings are read about that precisely
            (:data:`calibration.accuracy.MARKINGS_AGREE_MM`), so their check could not tell a
            better camera (and every ``process`` start on a clean view saves the refits).
        gain: the pooled camera is kept when its held-out markings' median is below this
            share of the best single frame's on the same markings.
    """

    enabled: bool = False
    same_view_share: float = 0.015
    edge_gate_px: float = 6.0
    min_frames: int = 2
    sound_mm: float = MARKINGS_AGREE_MM
    gain: float = 1.0


#: The pooling's tunables.
POOL = PoolParams()


@dataclass
class FrameEvidence:
    """What one frame's automatic calibration fitted (px as seen, lens distortion included).

    Attributes:
        edges: cushion-edge points, one (N, 2) px array per side.
        side_w: per side, 1 used by the fit, 0 left out (hidden or misread).
        kn: radial distortion normalised by the image width.
        marks: the markings found (spot balls, baulk line, D).
        fitted: whether that frame's camera was fitted to its markings (else the cushions
            alone, checked by them).
    """

    edges: list[np.ndarray]
    side_w: list[float]
    kn: tuple[float, float]
    marks: Markings = field(default_factory=Markings)
    fitted: bool = False


@dataclass
class PooledFit:
    """The camera fitted over many frames, and the check that decided to keep it.

    Attributes:
        camera: the pooled camera.
        frames: how many frames it pooled.
        holdout_mm: per marking, its median error over the frames (mm) under the pooled
            camera fitted without it.
        single_holdout_mm: the same markings under the best frame's camera fitted without
            them.
        focal: :func:`calibration.focal.focal_check` of the pooled fit where the focal length
            was fitted; else None.
    """

    camera: CameraModel
    frames: int
    holdout_mm: dict[str, float]
    single_holdout_mm: dict[str, float]
    focal: dict[str, Any] | None = None

    @property
    def median_mm(self) -> float:
        """The pooled held-out median, mm."""
        return float(np.median(list(self.holdout_mm.values())))

    @property
    def single_median_mm(self) -> float:
        """The best single frame's held-out median on the same markings, mm."""
        return float(np.median(list(self.single_holdout_mm.values())))


def same_view(a: CameraModel, b: CameraModel, table: TableGeometry, share: float) -> bool:
    """Whether cameras ``a`` and ``b`` put the table's corners (bed level) within ``share`` of
    the picture's width of each other."""
    corners = np.array([[0, 0, 0], [table.width, 0, 0], [table.width, table.length, 0],
                        [0, table.length, 0]], float)
    pa, pb = a.project(corners), b.project(corners)
    if not (np.isfinite(pa).all() and np.isfinite(pb).all()):
        return False
    return float(np.linalg.norm(pa - pb, axis=1).max()) <= share * a.image_size[0]


def _frame_targets(cam: CameraModel, ev: FrameEvidence, table: TableGeometry, kn: tuple[float, float],
                   marks: Markings, gate_px: float) -> FitTargets:
    """One frame's targets (its markings ``marks``) under ``cam``, edge points further than
    ``gate_px`` from their cushion line left out."""
    t = fit_targets(cam, ev.edges, table, kn, marks, ev.side_w)
    if not len(t.und):
        return t
    return t.keep_edges(np.abs(edge_offsets_px(cam, t, table)) <= gate_px)


def _pooled_fit(start: CameraModel, evs: list[FrameEvidence], table: TableGeometry,
                kn: tuple[float, float], fit_focal: bool, gate_px: float,
                without: str | None = None) -> tuple[CameraModel, FitTargets]:
    """The camera fitted to all frames' evidence (``without``: a marking left out), and the
    pooled targets."""
    parts = [_frame_targets(start, ev, table, kn, ev.marks.without(without) if without else ev.marks,
                            gate_px) for ev in evs]
    targets = pool_targets(parts)
    return fit_to_targets(start, targets, table, kn, fit_focal), targets


def _group_error(cam: CameraModel, evs: list[FrameEvidence], table: TableGeometry, group: str) -> float:
    """A marking's error under ``cam``: the median over the frames that found it, mm."""
    errs = [marking_errors(cam, table, ev.marks)[group] for ev in evs if group in ev.marks.groups]
    return float(np.median(errs))


def pool_frames(best_cam: CameraModel, best: FrameEvidence, others: list[tuple[CameraModel, FrameEvidence]],
                table: TableGeometry, fit_focal: bool, params: PoolParams | None = None) -> PooledFit | None:
    """The camera of ``best`` (the best single frame's camera and evidence) refitted over it
    and the ``others`` (each frame's own camera and evidence) that show the same view.

    Returns:
        the pooled fit when it is better on the markings held out (see the module's notes);
        None when pooling is off, too few frames show the view, no marking was found, or the
        held-out markings do not favour it.
    """
    p = params or POOL
    same = [ev for cam, ev in others if same_view(best_cam, cam, table, p.same_view_share)]
    evs = [best, *same]
    if not p.enabled or len(evs) < p.min_frames:
        return None
    groups = sorted({g for ev in evs for g in ev.marks.groups})
    if not groups:
        return None
    kn = best.kn
    cam, targets = _pooled_fit(best_cam, evs, table, kn, fit_focal, p.edge_gate_px)
    if cam is best_cam:
        return None
    held, single = {}, {}
    for g in groups:
        cam_g, _ = _pooled_fit(cam, evs, table, kn, fit_focal, p.edge_gate_px, without=g)
        held[g] = _group_error(cam_g, evs, table, g)
        own = best_cam
        if best.fitted and g in best.marks.groups:
            own = fit_camera(best_cam, best.edges, table, kn, best.marks.without(g), fit_focal, best.side_w)
        single[g] = _group_error(own, evs, table, g)
    out = PooledFit(cam, len(evs), {g: round(v, 1) for g, v in held.items()},
                    {g: round(v, 1) for g, v in single.items()})
    if not out.median_mm < p.gain * out.single_median_mm:
        return None
    if fit_focal:
        out.focal = focal_check_with(
            cam, table, lambda c: fit_to_targets(c, targets, table, kn, False),
            lambda c: targets_rms(c, targets, table))
    return out


def refine_over_frames(best: Calibration, others: list[Calibration], table: TableGeometry) -> Calibration:
    """``best`` (the best single frame's calibration) refitted over its frame and the
    ``others`` of the same view (:func:`calibration.multiframe.pool_frames`): kept where the
    markings held out of the fit say it is better and its cushions fit (:func:`calibration.accuracy.check_fit`),
    with its held-out figures in ``accuracy`` (``pooled``: how many frames, and the single
    frame's figure on the same markings); else ``best``."""
    ev = getattr(best, "evidence", None)  # None: a manual or a loaded profile
    held = best.accuracy.get("holdout_median_mm")
    if ev is None or not POOL.enabled or (held is not None and held <= POOL.sound_mm):
        return best
    pooled = pool_frames(best.camera, ev, [(c.camera, c.evidence) for c in others
                                           if getattr(c, "evidence", None) is not None],
                         table, best.focal == "estimated")
    if pooled is None:
        return best
    fit = cushion_fit(pooled.camera, [e for e, wt in zip(ev.edges, ev.side_w, strict=True) if wt > 0], table)
    if not fit_ok(fit, table):
        return best
    acc = dict(best.accuracy)
    vals = np.array(list(pooled.holdout_mm.values()))
    acc.update(holdout_mm=pooled.holdout_mm, holdout_median_mm=round(pooled.median_mm, 1),
               holdout_max_mm=round(float(vals.max()), 1), independent=True, fitted_to_markings=True,
               pooled={"frames": pooled.frames, "single_holdout_median_mm": round(pooled.single_median_mm, 1),
                       "single_holdout_mm": pooled.single_holdout_mm})
    focal_text = best.notes[-2:-1]
    if pooled.focal is not None:
        acc["focal"] = pooled.focal
        focal_text = [focal_note(pooled.focal, DEFAULT_HFOV_DEG, None)]
    judge(acc, table)
    notes = best.notes[:-2] + focal_text + [
        f"refined over {pooled.frames} frames of the same view: markings held out land "
        f"{pooled.median_mm:.1f} mm (median) where one frame's camera put them {pooled.single_median_mm:.1f} mm"]
    return Calibration(best.image_size, table, pooled.camera, fit, best.method, best.orientation, best.focal,
                       notes + accuracy_notes(acc), acc, ev)
