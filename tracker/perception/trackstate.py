"""The tracker's data: its behaviour knobs (:class:`TrackerConfig`), one ball's track
(:class:`Slot`) and one frame's result (:class:`TableState`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tracker.perception.constraint import SURE_CONF
from tracker.perception.detections import BallDetections

#: Where a ball went that left the table (in place of a pocket name while it is pending).
OFF_TABLE = "off_table"


@dataclass(frozen=True)
class TrackerConfig:
    """Behaviour of the tracker.

    Attributes:
        rest_speed_mm_s: below this speed a ball is at rest (noise is ~1 mm per frame).
        pot_distance_mm: a moving ball that vanishes with its path since last seen (as far as
            its speed takes it meanwhile) passing this close to a pocket mouth is potted.
        min_class_conf: detections less sure of their colour than this only fill red slots
            (:data:`tracker.perception.constraint.SURE_CONF`).
        rest_frames: frames below the rest speed before a ball counts as at rest.
        gate_jump_mm: how far a ball may go in one frame beyond its predicted motion (a ball
            at rest struck hard moves up to ~200 mm in a 25 fps frame).
        rest_jitter_mm: a ball at rest whose detection stays this close to its rest position
            has not moved (detection noise in clusters is a few mm).
        pot_confirm_s: a ball that vanished near a pocket must stay unseen this long to count
            as potted (a ball rattling in the jaws, or passing a fitting, comes back).
        max_speed_mm_s: the fastest a ball travels (a hard break-off is about 7 m/s): a ball
            unseen for a few frames may reappear this much further per frame.
        contact_slack_mm: a ball at rest that vanishes when a moving ball's path of the last
            frames came within two radii plus this (blurred centres are off by a few cm in a
            TV view) has been struck.
        vanish_cone_deg: a struck ball that vanished heads for the pocket whose bearing is
            within this angle of its line of centres (none: it is hidden, not potted).
        vanish_confirm_s: such a ball must stay unseen this long, its place showing cloth, to
            count as potted (no pocket approach was seen, so the wait is longer).
        empty_occupancy: a place whose ball-sized disc has less than this share of non-cloth
            pixels is bare cloth.
        off_speed_mm_s: a ball that vanishes at a cushion, away from the pockets, moving toward
            it at least this fast may have jumped it (slower balls cannot leave the bed); it is
            off the table once unseen for ``vanish_confirm_s`` with its place bare.
        relocate_frames: a white or colour unseen for more than this many frames is taken to
            be wherever its colour is next seen standing still for this many frames (put back
            by hand, replaced after a miss).
        path_frames: a ball that vanishes at a pocket is potted only if it had been followed
            this many frames since it was put or first found on the table (a sleeve over a
            pocket, read as the black the moment it stood still, is not followed that long).
        path_cone_deg: ... and only if its last frames' motion heads for the pocket's mouth
            within this angle (a hand or a cue passing over the mouth goes any way), or it was
            last seen in the mouth moving on into the pocket (a ball running along a cushion
            into a corner passes the mouth's centre before it drops).
        resume_s: a white or colour that went unseen while moving (behind a player, merged
            with another ball) and is seen again moving within this time is the same ball
            going on (not a ball put down by hand, which must stand still to be taken).
        resume_reach_mm: ... when seen again within this distance of where it was last seen.
        emerge_frames: a white or colour hidden while at rest for longer than
            ``relocate_frames`` (a player addressing it: the cue and the arm merged with it in
            the picture, or the body in front of it) that is seen again moving away from where
            it stood was struck while hidden: it is followed from there at once (a ball put
            down by hand is taken only once it stands still). First seen within this many
            frames' travel at ``max_speed_mm_s`` of where it stood, then, within as many
            frames, further on along the same line.
        emerge_cone_deg: ... its second sighting's step within this angle of the line from
            where it stood to its first (a struck ball runs straight; a hand or a sleeve
            of its colour wanders, or stands).
        emerge_far_speed_mm_s: a ball struck while hidden may stay out of view for several
            pictures after the strike (the player's body between a camera behind him and a
            hard break-off: TV lens clips, 30-45 degrees, seed 0, first seen 1.7 m on). It may
            then be first seen further than ``emerge_frames``' travel from where it stood,
            as far as ``max_speed_mm_s`` takes it in the pictures it was unseen, if its
            second sighting goes on along the line at least this fast (a hand carrying a
            ball of its colour is slower).
        remeasure_radii: a ball at rest whose detection jumps, from one picture to the next,
            from its rest place to a place more than the rest jitter but less than this many
            ball radii away, with no ball moving within ``remeasure_clear_mm`` of it, may be
            the picture re-measured rather than the ball moving: a video coded with long groups
            of pictures (H.264) can leave part of a still table as it was coded during a hand's
            motion until the next key frame corrects it, often many balls at once. It is held
            at its rest place (not moving) while the next pictures decide.
        remeasure_px: ... or, where the view is coarse, less than this many pixels of the
            picture at the ball (a long lens's far end: 1 px is 8-10 mm, and a ball at rest
            whose detection shifts 3-4 px when the picture is searched again is not moving;
            TV lens clips, 30-45 degrees, seed 1: three balls at once, one of them 41 mm).
        remeasure_frames: ... if its detection then stays within the rest jitter of the new
            place for this many pictures, the new place is its rest place (no movement, so no
            contact and no disturbance); if it goes on, it moves (its start this many pictures
            late at most).
        remeasure_clear_mm: ... a ball moving this close (now or on its last frames' path) may
            have struck it: then it moves at once (a hard-struck ball covers ~280 mm a frame).
        pot_reach_s: a moving ball that vanishes near a pocket is potted only if, at its last
            speed, it reaches the pocket's mouth (its centre within half the mouth and a radius
            of the mouth's centre) within this time: a slow ball that vanishes short of the
            mouth (missed by the detector at the far end, beside dark fittings) would have been
            seen for many more pictures before dropping; it is hidden, not potted.
        pot_reach_slack_mm: ... the distance it may be short of that by anyway (the position
            error of a ball seen in the jaws), or ``pot_reach_slack_px`` pixels where the view
            is coarser.
        pot_reach_slack_px: ... in pixels of the picture at the ball's last sighting.
        regroup_lost_frames: a detection of a group's colour that no track explains, standing
            still this many pictures, takes up the ball of the group held unseen nearest it
            (:mod:`tracker.perception.regroup`); 0: off (snooker's reds); the pool tracker
            sets it.
    """

    rest_speed_mm_s: float = 40.0
    pot_distance_mm: float = 140.0
    min_class_conf: float = SURE_CONF
    rest_frames: int = 3
    gate_jump_mm: float = 250.0
    rest_jitter_mm: float = 4.0
    pot_confirm_s: float = 0.4
    relocate_frames: int = 5
    max_speed_mm_s: float = 7000.0
    contact_slack_mm: float = 35.0
    vanish_cone_deg: float = 45.0
    vanish_confirm_s: float = 1.0
    empty_occupancy: float = 0.25
    off_speed_mm_s: float = 800.0
    path_frames: int = 3
    path_cone_deg: float = 60.0
    resume_s: float = 1.0
    resume_reach_mm: float = 600.0
    emerge_frames: int = 2
    emerge_cone_deg: float = 20.0
    emerge_far_speed_mm_s: float = 1500.0
    remeasure_radii: float = 1.0
    remeasure_px: float = 5.0
    remeasure_frames: int = 2
    remeasure_clear_mm: float = 500.0
    pot_reach_s: float = 0.12
    pot_reach_slack_mm: float = 20.0
    pot_reach_slack_px: float = 3.0
    regroup_lost_frames: int = 0


@dataclass
class Slot:
    """One ball's track."""

    ball: str
    pos: np.ndarray | None = None
    vel: np.ndarray = field(default_factory=lambda: np.zeros(2))
    on_table: bool = False
    seen: bool = False
    moving: bool = False
    still_frames: int = 0
    rest_sum: np.ndarray = field(default_factory=lambda: np.zeros(2))
    rest_n: int = 0
    last_frame: int = -1
    potted_pocket: str | None = None
    potted_t: float | None = None
    uncertainty: float = 0.0
    reloc: np.ndarray | None = None
    reloc_n: int = 0
    trail: list[np.ndarray] = field(default_factory=list)
    vanished: bool = False
    off_cushion: str | None = None
    appeared_frame: int = -1
    #: whether it was moving when it went unseen (see ``TrackerConfig.resume_s``)
    lost_moving: bool = False
    #: (frame, mm) where a ball hidden at rest was first seen again away from its place,
    #: while it waits to be seen moving on (see ``TrackerConfig.emerge_frames``)
    emerge: tuple[int, np.ndarray] | None = None
    #: (frame, mm, pictures since) where a ball at rest was first seen after a small jump with
    #: no ball moving near it, while the next pictures tell a re-measure from a movement (see
    #: ``TrackerConfig.remeasure_radii``)
    held: tuple[int, np.ndarray, int] | None = None
    #: table mm per picture pixel where it was last seen (0: not known)
    mm_per_px: float = 0.0


@dataclass
class TableState:
    """One frame after tracking: the 22 slots (positions mm, flags)."""

    frame: int
    t: float
    pos: dict[str, tuple[float, float]]
    moving: set[str]
    visible: set[str]
    pots: list[tuple[str, str, float]]
    appeared: list[str]
    #: balls that left the table over a cushion this frame: (ball, time s, cushion name)
    off: list[tuple[str, float, str]] = field(default_factory=list)
    #: balls that vanished moving at a pocket's mouth and are not back yet, not yet potted
    #: (``pot_confirm_s`` not passed): (ball, pocket, time s it would be potted at); they
    #: are in ``moving`` until then
    pending_pots: list[tuple[str, str, float]] = field(default_factory=list)
    #: balls hidden at rest followed again this frame, seen moving on out of hiding (struck
    #: while hidden: ``TrackerConfig.emerge_frames``): ball -> (time s, position mm) where it
    #: was first seen again (``pos`` held its place until now)
    emerged: dict[str, tuple[float, tuple[float, float]]] = field(default_factory=dict)
    #: table mm per picture pixel where each ball was last seen (a ball absent: not known)
    mm_per_px: dict[str, float] = field(default_factory=dict)


@dataclass
class UpdateStep:
    """One :meth:`tracker.perception.track.Tracker.update`'s working state.

    Attributes:
        frame: the frame number; det: its detections; dt: seconds per frame.
        used: (N,) which detections a slot has taken.
        assigned: ball -> the index of its detection.
        relocated: unique balls taken where their colour stood still (put back by hand).
        emerged: balls hidden at rest seen moving on out of hiding: ball -> (frame, mm) first
            seen.
        pots, off, appeared: what :class:`TableState` reports of this frame.
        paths: ball -> (K, 2) mm: where each ball seen now went over the last frames.
        stirring: ball -> (K, 2) mm: the balls moving before this picture (where they were,
            and where their motion takes them) and the balls at rest whose detection left their
            place by more than a re-measure (``TrackerConfig.remeasure_radii``) now.
    """

    frame: int
    det: BallDetections
    dt: float
    used: np.ndarray
    assigned: dict[str, int] = field(default_factory=dict)
    relocated: set[str] = field(default_factory=set)
    emerged: dict[str, tuple[int, np.ndarray]] = field(default_factory=dict)
    pots: list[tuple[str, str, float]] = field(default_factory=list)
    off: list[tuple[str, float, str]] = field(default_factory=list)
    appeared: list[str] = field(default_factory=list)
    paths: dict[str, np.ndarray] = field(default_factory=dict)
    stirring: dict[str, np.ndarray] = field(default_factory=dict)
