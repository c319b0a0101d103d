"""Builders for tests: states and shots in a few words, detections at table positions, a
detector looking through the exact camera of a rendered picture."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bench.common import true_profile
from calibration.profile import Calibration
from calibration.table import STANDARD_TABLE
from tracker import balls as B
from tracker.perception.detect import CLASSES, BallDetections, BallDetector
from tracker.perception.events import StrokeDetector
from tracker.perception.track import Tracker
from tracker.records.shot import Event, EventType, OperatorFoul, OperatorJudgement, Shot
from tracker.rules.registry import get_ruleset
from tracker.rules.snooker import SnookerRules
from tracker.rules.state import FrameState, Phase

PLAYERS = ("A", "B")


def rules(name: str = "snooker", **options):
    return get_ruleset(name, options or None)


def state(
    phase: Phase = Phase.RED,
    reds: int = 15,
    scores: tuple[int, int] = (0, 0),
    colours: tuple[str, ...] = B.COLOURS,
    positions: dict | None = None,
    striker: int = 0,
    seq: str | None = None,
    ruleset: str = "snooker",
    **kw,
) -> FrameState:
    """A mid-frame state with ``reds`` reds (red_01..) and the given colours on the table."""
    r = rules(ruleset)
    st = r.new_frame(PLAYERS, striker)
    on = frozenset([*B.red_ids(reds), *colours])
    if phase == Phase.SEQ and seq is None:
        seq = next(c for c in B.COLOURS if c in colours)
    return replace(st, phase=phase, on_table=on, scores=scores, seq_colour=seq,
                   positions=positions, cue_in_hand=kw.pop("cue_in_hand", False), shots=5, **kw)


def shot(
    n: int = 1,
    first: tuple[str, ...] | str | None = None,
    pots: tuple[str, ...] = (),
    cue_pot: bool = False,
    off: tuple[str, ...] = (),
    nomination: str | None = None,
    free_ball: str | None = None,
    before: dict | None = None,
    after: dict | None = None,
    extra: tuple[Event, ...] = (),
    miss: bool | None = None,
    fouls: tuple[str, ...] = (),
    touching: tuple[str, ...] | None = None,
    striker: str | None = None,
) -> Shot:
    """A stroke: strike at t=0, first contact(s) at t=0.5, pots from t=1."""
    ev = [Event(EventType.STRIKE, 0.0, ("white",))]
    if isinstance(first, str):
        first = (first,)
    for b in first or ():
        ev.append(Event(EventType.CONTACT, 0.5, ("white", b)))
    ev.extend(extra)
    t = 1.0
    for b in pots:
        ev.append(Event(EventType.POT, t, (b,), pocket="top_left"))
        t += 0.1
    if cue_pot:
        ev.append(Event(EventType.POT, t, ("white",), pocket="baulk_left"))
        t += 0.1
    for b in off:
        ev.append(Event(EventType.OFF_TABLE, t, (b,)))
    ev.sort(key=lambda e: e.t)
    op = OperatorJudgement(miss=miss, fouls=tuple(OperatorFoul(c) for c in fouls))
    return Shot(shot=n, events=tuple(ev), positions_before=before, positions_after=after,
                nomination=nomination, free_ball=free_ball, operator=op, touching=touching,
                striker=striker)


def decide(st: FrameState, sh: Shot, ruleset: str = "snooker", **options):
    return rules(ruleset, **options).decide(st, sh)


def detections_at(points: dict[str, tuple[float, float]]) -> BallDetections:
    """Sure detections of the named balls (``red_03``, ``white`` ...) at table positions (mm),
    their pixels the same numbers (for the tracker, which reads millimetres)."""
    names = list(points)
    mm = np.array([points[n] for n in names], float).reshape(-1, 2)
    cls = np.array([CLASSES.index("red" if n.startswith("red") else n) for n in names], int)
    n = len(names)
    return BallDetections(mm.copy(), mm, np.full(n, 10.0), cls, np.ones(n), np.eye(8)[cls],
                          np.full(n, 1.0))


def track_frames(layout: dict[str, tuple[float, float]] | None, frames: list[dict],
                 fps: float = 25.0, mm_per_px: float = 1.0) -> tuple[list, list]:
    """Feed table positions (mm, one dict of ball name -> (x, y) a picture) through a
    :class:`Tracker` (seeded with ``layout`` unless None) and a :class:`StrokeDetector`, both on
    the standard table at ``fps``, the detections read at ``mm_per_px`` mm a pixel: the
    tracker's states (one a picture) and the shots the detector closed."""
    tracker, strokes = Tracker(STANDARD_TABLE, fps), StrokeDetector(STANDARD_TABLE, fps)
    if layout is not None:
        tracker.seed(layout)
    states, shots = [], []
    for k, pos in enumerate(frames):
        det = detections_at(pos)
        if mm_per_px != 1.0:
            det = replace(det, mm_per_px=np.full(len(det.mm), mm_per_px))
        st = tracker.update(k, det)
        states.append(st)
        shot = strokes.update(st)
        if shot is not None:
            shots.append(shot)
    return states, shots


def cue_ball_layout() -> dict[str, tuple[float, float]]:
    """The snooker set-up (the colours on their spots, the reds racked) with the cue ball at
    (1000, 600) mm."""
    pos = SnookerRules().setup_positions()
    pos["white"] = (1000.0, 600.0)
    return pos


def exact_camera_detector(camera, img: np.ndarray, colours: bool = True) -> BallDetector:
    """A colour detector looking through ``camera``, the exact camera the picture ``img`` (BGR)
    was rendered with (:func:`bench.common.true_profile`, the standard table), the cloth
    learned from ``img`` and, with ``colours``, the colours too."""
    det = BallDetector(true_profile(camera, STANDARD_TABLE))
    det.learn_cloth(img)
    if colours:
        det.learn_colours([img])
    return det


def nearest_detection(found: BallDetections, mm: tuple[float, float]) -> tuple[float, str]:
    """The distance (mm) from the table position ``mm`` to the nearest of the detections
    ``found`` (at least one), and that detection's colour class."""
    dist = np.linalg.norm(found.mm - np.asarray(mm, float), axis=1)
    j = int(np.argmin(dist))
    return float(dist[j]), CLASSES[int(found.cls[j])]


def sample_camera(video) -> Calibration:
    """The camera of a bundled sample video (a path), found from its first picture alone
    (one picture: about 1 s, where ``process`` searches eight)."""
    import cv2

    from calibration.table import TableGeometry
    from tracker.perception.calibrate import calibrate_image

    cap = cv2.VideoCapture(str(video))
    ok, img = cap.read()
    cap.release()
    assert ok, video
    return calibrate_image(img, TableGeometry.standard())


def feed_as_seen(run, records) -> None:
    """Records of a match log through a run (a RefereeRun) as if its camera had made them:
    a frame start and operator inputs as given, each stroke called as it ends."""
    from tracker.records.shot import FrameStart, OperatorInput

    for rec in records:
        if isinstance(rec, FrameStart):
            run._feed(rec)
        elif isinstance(rec, OperatorInput):
            run._apply_input(rec)
        else:
            run._referee(rec)
