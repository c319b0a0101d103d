"""The early call (docs/LIVE.md, "Latency"): a stroke's call is said once every ball has
rested EARLY_CALL_S, from the record the stroke would have then; the stroke still ends after
SETTLE_S and its call then is the one recorded, said again only when it differs (a ball that
stopped on a pocket's lip and dropped). Fed tracked frames as the tracker would give them (no
video): a cue ball struck into a red that rolls toward the top right pocket."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.auto import calibrate_image
from calibration.table import STANDARD_TABLE as T
from tracker.perception.events import EARLY_CALL_S, SETTLE_S
from tracker.perception.track import TableState
from tracker.pipeline import RefereeRun
from tracker.records.shot import FrameStart

ROOT = Path(__file__).resolve().parents[1]
FPS = 25.0
WHITE = np.array([889.0, 2500.0])
RED = np.array([1300.0, 3000.0])
POCKET = np.array(T.pockets["top_right"].mouth_centre)
BLACK = (889.0, 3246.0)


@pytest.fixture(scope="module")
def calibration():
    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_miss.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    return calibrate_image(img, T)


class _Table:
    """Tracked frames, one by one, into a run (what RefereeRun.step does after tracking)."""

    def __init__(self, run: RefereeRun):
        self.run, self.k = run, 0
        self.said_at: list[tuple[float, str]] = []
        run.on_call = lambda line: self.said_at.append((self.k / FPS, line))

    def frame(self, pos: dict, moving=(), pots=(), pending=()) -> None:
        self.k += 1
        seen = set(pos) - {b for b, _, _ in pending}
        st = TableState(self.k, self.k / FPS, {b: tuple(map(float, p)) for b, p in pos.items()},
                        set(moving), seen, list(pots), [], [], list(pending))
        self.run.after_tracking(st)

    def rest(self, pos: dict, seconds: float) -> None:
        for _ in range(int(round(seconds * FPS))):
            self.frame(pos)


def _struck_red(table: _Table) -> tuple[dict, float]:
    """The cue ball at rest, struck into the red (it stops dead there); the red rolls toward
    the top right pocket and stops 60 mm short of its mouth. Returns the positions at rest
    and the time (s) the last ball stopped."""
    table.rest({"white": WHITE, "red_01": RED, "black": BLACK}, 1.0)
    u = (RED - WHITE) / np.linalg.norm(RED - WHITE)
    hit = RED - u * T.ball_diameter
    for s in np.linspace(0, 1, 9)[1:]:
        table.frame({"white": WHITE + (hit - WHITE) * s, "red_01": RED, "black": BLACK}, {"white"})
    v = (POCKET - RED) / np.linalg.norm(POCKET - RED)
    stop = POCKET - v * 60.0
    path = [RED + (stop - RED) * (1 - (1 - s) ** 2) for s in np.linspace(0, 1, 16)[1:]]
    for k, p in enumerate(path):
        table.frame({"white": hit, "red_01": p, "black": BLACK},
                    {"red_01", "white"} if k < 3 else {"red_01"})
    return {"white": hit, "red_01": stop, "black": BLACK}, table.k / FPS


def _run(calibration) -> RefereeRun:
    run = RefereeRun(calibration, FPS, ("Ann", "Bob"))
    run._feed(FrameStart(1, ("Ann", "Bob"), "Ann", positions={
        "white": tuple(WHITE), "red_01": tuple(RED), "black": BLACK}))
    return run


def test_the_call_is_said_early_and_not_again_when_it_stands(calibration):
    run = _run(calibration)
    table = _Table(run)
    at_rest, stopped = _struck_red(table)
    table.rest(at_rest, SETTLE_S + 0.5)
    shots = [(t, line) for t, line in table.said_at if line.startswith("Shot 1")]
    assert len(shots) == 1, table.said_at  # said once: the stroke's end said nothing more
    t_said, line = shots[0]
    assert "Ann" in line and "No score" in line
    # the first frame at rest, then EARLY_CALL_S (the frames fall on 1/25 s)
    assert t_said - stopped <= EARLY_CALL_S + 2.5 / FPS < SETTLE_S
    assert len(run.result.shots) == 1 and run.result.shots[0].t_end > t_said
    assert (run.result.early_calls, run.result.early_corrected) == (1, 0)
    assert len([d for d in run.result.decisions if d.get("shot") == 1]) == 1


def test_a_ball_that_drops_after_the_early_call_corrects_it(calibration):
    run = _run(calibration)
    table = _Table(run)
    at_rest, _ = _struck_red(table)
    table.rest(at_rest, EARLY_CALL_S + 0.2)  # called early: no score
    lip = at_rest["red_01"]
    for s in (0.3, 0.7):  # it was hanging on the lip: it drops
        table.frame({**at_rest, "red_01": lip + (POCKET - lip) * s}, {"red_01"})
    gone = {b: p for b, p in at_rest.items() if b != "red_01"}
    table.frame(gone, pots=[("red_01", "top_right", table.k / FPS)])
    table.rest(gone, SETTLE_S + 0.5)
    said = [line for _, line in table.said_at if "Shot 1" in line or "shot 1" in line]
    assert said[0].startswith("Shot 1 (Ann): No score"), said
    assert said[1].startswith("WAIT:") and "moving again" in said[1]
    assert said[2].startswith("CORRECTED: Shot 1 (Ann): 1 (a red)"), said
    assert len(said) == 3
    assert (run.result.early_calls, run.result.early_corrected) == (1, 1)
    # what is recorded is the call at the stroke's end, once
    calls = [d for d in run.result.decisions if d.get("shot") == 1]
    assert len(calls) == 1 and calls[0]["points"] == {"Ann": 1, "Bob": 0}


def test_an_early_call_whose_stroke_never_ends_is_withdrawn(calibration):
    """The video ends between the early call and the stroke's end: nothing is recorded, and
    the call said is withdrawn in so many words."""
    run = _run(calibration)
    table = _Table(run)
    at_rest, _ = _struck_red(table)
    table.rest(at_rest, EARLY_CALL_S + 0.2)
    run.finish(None)
    said = [line for _, line in table.said_at]
    assert said[-2].startswith("Shot 1 (Ann): No score")
    assert said[-1].startswith("WITHDRAWN: the call of shot 1 is not recorded")
    assert run.result.shots == [] and run.result.early_withdrawn == 1


def test_a_ball_vanishing_into_a_pocket_is_called_potted_before_the_pot_is_confirmed(
        calibration):
    """The tracker holds a ball that vanished moving at a pocket's mouth as moving until it
    has stayed unseen ``pot_confirm_s`` (0.4 s; it may rattle out): the early call takes it as
    potted meanwhile, and the stroke's end, with the pot confirmed, says nothing more."""
    run = _run(calibration)
    table = _Table(run)
    table.rest({"white": WHITE, "red_01": RED, "black": BLACK}, 1.0)
    u = (RED - WHITE) / np.linalg.norm(RED - WHITE)
    hit = RED - u * T.ball_diameter
    for s in np.linspace(0, 1, 9)[1:]:
        table.frame({"white": WHITE + (hit - WHITE) * s, "red_01": RED, "black": BLACK}, {"white"})
    for k, s in enumerate(np.linspace(0, 1, 10)[1:]):  # the red rolls into the pocket's mouth
        table.frame({"white": hit, "red_01": RED + (POCKET - RED) * s, "black": BLACK},
                    {"red_01", "white"} if k < 3 else {"red_01"})
    gone_at = table.k / FPS
    pending = [("red_01", "top_right", gone_at)]
    for _ in range(10):  # unseen at the mouth: still "moving" to the tracker, not yet potted
        table.frame({"white": hit, "red_01": POCKET, "black": BLACK}, {"red_01"},
                    pending=pending)
    table.frame({"white": hit, "black": BLACK}, pots=pending)
    table.rest({"white": hit, "black": BLACK}, SETTLE_S + 0.5)
    said = [(t, line) for t, line in table.said_at if "hot 1" in line]
    assert len(said) == 1, said
    t_said, line = said[0]
    assert line.startswith("Shot 1 (Ann): 1 (a red)"), line
    assert t_said - gone_at <= EARLY_CALL_S + 2.5 / FPS  # not after the 0.4 s confirmation
    assert (run.result.early_calls, run.result.early_corrected) == (1, 0)
    assert len(run.result.shots) == 1
