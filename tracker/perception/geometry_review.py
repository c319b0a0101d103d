"""Calls whose geometry the calibration cannot support, marked for review (issue 31).

A long lens behind one end, or a view whose markings disagree with its fitted camera, can
leave the calibration tens of millimetres off, worst at the far end. A pot is called from
where a ball vanished near a pocket, and a first contact from where two balls' paths met:
on such a calibration those places are guessed. The profile measures its own error (the
table's markings held out of the fit, ``Calibration.accuracy``); where that is above
:attr:`GeometryReviewParams.max_holdout_mm`, :func:`review_geometry` adds a review note to a
stroke with a pot, or with a first contact at the end of the table away from the camera,
so that the call is shown as one to check rather than as certain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from calibration.profile import Calibration
from tracker import balls as B
from tracker.records.shot import EventType, Shot
from tracker.words import pocket_words, the_ball


@dataclass(frozen=True)
class GeometryReviewParams:
    """When a call's geometry is not supported (:func:`review_geometry`).

    Attributes:
        max_holdout_mm: the profile's held-out markings median (mm) above which a pot's
            pocket and a first contact at the far end are not trusted. The calibration's own
            "poor" verdict starts at the same figure (``calibration.markings.POOR_MEDIAN_MM``,
            10 mm): a third of a ball's radius, beyond which a ball at a pocket's jaws and a
            thin contact are no longer told apart by position.
        far_share: the far end is this share of the table's length farthest from the camera
            (only for a camera standing beyond an end of the table; an overhead camera has
            none).
    """

    max_holdout_mm: float = 10.0
    far_share: float = 1.0 / 3.0


GEOMETRY_REVIEW = GeometryReviewParams()


def unsupported(cal: Calibration, p: GeometryReviewParams = GEOMETRY_REVIEW) -> float | None:
    """The calibration's held-out markings median (mm) when it is above
    ``p.max_holdout_mm``, else None (supported, or not measured: no markings found)."""
    held = (cal.accuracy or {}).get("holdout_median_mm")
    return float(held) if held is not None and held > p.max_holdout_mm else None


def far_end(cal: Calibration, y_mm: float, p: GeometryReviewParams = GEOMETRY_REVIEW) -> bool:
    """Whether a point ``y_mm`` along the table lies in its far end from the camera."""
    length = cal.table.length
    cam_y = float(cal.camera.centre[1])
    if 0.0 <= cam_y <= length:
        return False  # a camera over the table: no far end
    far = p.far_share * length
    return y_mm > length - far if cam_y < 0 else y_mm < far


def review_geometry(shot: Shot, cal: Calibration, p: GeometryReviewParams = GEOMETRY_REVIEW) -> Shot:
    """``shot`` with a review note for each pot, and for a first contact at the far end,
    when the calibration cannot support them (:func:`unsupported`); unchanged otherwise."""
    held = unsupported(cal, p)
    if held is None:
        return shot
    why = f"the camera's calibration is poor (the table's markings land {held:.0f} mm off)"
    notes = list(shot.needs_review)
    for e in shot.events:
        if e.type == EventType.POT and e.balls:
            where = f"the {pocket_words(e.pocket)} pocket" if e.pocket else "that pocket"
            notes.append(f"{why}: check that {the_ball(e.balls[0])} went into {where}")
    first = next((e for e in shot.events if e.type == EventType.CONTACT and B.WHITE in e.balls), None)
    if first is not None:
        ball = next((b for b in first.balls if b != B.WHITE), None)
        at = (shot.positions_before or {}).get(ball) if ball else None
        if at is not None and far_end(cal, at[1], p):
            notes.append(f"{why} at the far end: check that the cue ball hit {the_ball(ball)} first")
    return replace(shot, needs_review=tuple(dict.fromkeys(notes)))
