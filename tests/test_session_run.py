"""A run is a table's session (issue 28): RefereeRun driven frame by frame with constructed
detections (no video): a frame conceded on the console, the table cleared, balls knocked
about, the re-rack starting frame 2 with the breaker rotated, a re-rack before frame 2 is over
taken as the concession of the player behind (marked for review), the match over at its
best-of, the next match from the queue; the JSONL files and the scoreboard see every frame."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.auto import calibrate_image
from calibration.monitor import ViewStatus
from calibration.table import STANDARD_TABLE as T
from tracker.outputs.board import Board
from tracker.outputs.jsonl import DECISIONS_NAME, LOG_NAME, JsonlOutputs
from tracker.perception.detections import CLASSES, BallDetections
from tracker.pipeline import FrameChecks, RefereeRun
from tracker.records.shot import Event, EventType, InputKind, OperatorInput, Shot
from tracker.rules.registry import get_ruleset
from tracker.session import TableSession
from tracker.session_setup import MatchSetup, parse_then
from tracker.sources import Frame

ROOT = Path(__file__).resolve().parents[1]
FPS = 5.0
RACK = get_ruleset("snooker").setup_positions()
SCATTERED = {**{f"red_{i:02d}": ((137.0 * i) % 1600 + 90, (411.0 * i) % 3300 + 120)
                for i in range(1, 12)},
             **{c: RACK[c] for c in ("yellow", "green", "brown", "blue", "pink", "black")},
             "white": (700.0, 900.0)}


@pytest.fixture(scope="module")
def first():
    """The first picture of a real overhead clip (the camera learnt from it)."""
    cap = cv2.VideoCapture(str(ROOT / "sample_videos" / "overhead_miss.mp4"))
    ok, img = cap.read()
    cap.release()
    assert ok
    return img


@pytest.fixture(scope="module")
def calibration(first):
    return calibrate_image(first, T)


def dets(balls: dict) -> BallDetections:
    names = ["red" if b.startswith("red") else b for b in balls]
    mm = np.array(list(balls.values()), float).reshape(-1, 2)
    n = len(names)
    return BallDetections(mm.copy(), mm, np.full(n, 10.0),
                          np.array([CLASSES.index(c) for c in names], int), np.ones(n))


class Table:
    """Pictures into a run: each shows ``balls`` (the detector replaced by what is shown)."""

    def __init__(self, run: RefereeRun, image: np.ndarray):
        self.run, self.k, self.showing = run, 0, dets({})
        self.image = image
        run.detect = lambda image, checks=None: self.showing

    def show(self, balls: dict, seconds: float, refereed: bool = True,
             moved_to=None) -> None:  # noqa: ANN001 - moved_to: the camera's new Calibration
        """``balls`` for ``seconds`` (``refereed`` False: the view lost; ``moved_to``: the
        first picture recalibrated to that camera)."""
        self.showing = dets(balls)
        for i in range(int(round(seconds * FPS))):
            status = ViewStatus(self.k, "ok" if refereed else "lost", 1.0)
            if moved_to is not None and i == 0:
                status = ViewStatus(self.k, "recalibrated", 1.0, moved_to)
            self.run.step(Frame(self.k, self.k / FPS, self.image), 0.0,
                          FrameChecks(status, None, 0.0))
            self.k += 1


def stroke(run: RefereeRun, events: tuple[Event, ...]) -> None:
    """A stroke's record, called as the stroke detector's would be."""
    run.strokes.n_shots += 1
    run._referee(Shot(shot=run.strokes.n_shots, events=events))


def pot_red(t: float, red: str = "red_03") -> tuple[Event, ...]:
    return (Event(EventType.STRIKE, t, balls=("white",)),
            Event(EventType.CONTACT, t + 0.5, balls=("white", red)),
            Event(EventType.POT, t + 1.0, balls=(red,), pocket="top_left"))


def session_run(calibration, tmp_path, setup: MatchSetup) -> tuple[RefereeRun, Board]:
    board = Board()

    class BoardListener(JsonlOutputs):
        def on_record(self, run, record, decisions):
            super().on_record(run, record, decisions)
            for d in decisions:
                board.update(d)

    run = RefereeRun(calibration, FPS, setup.players,
                     listeners=[BoardListener(tmp_path, calibration)])
    run.session = TableSession(setup=setup)
    return run, board


def test_frame_after_frame_then_the_next_match(calibration, first, tmp_path):
    setup = MatchSetup(("Ann", "Bob"), best_of=3, then=(parse_then("Cy,Di best-of 1"),))
    run, board = session_run(calibration, tmp_path, setup)
    table = Table(run, first)
    run.begin(first)
    assert run.in_frame and board.state == "playing" and board.best_of == 3

    # frame 1: Ann breaks, then concedes on the console: frame to Bob
    table.show(RACK, 1.0)
    run.submit(OperatorInput(InputKind.CONCEDE))
    table.show(RACK, 0.2)
    assert run.frame_over and board.frames_won == {"Ann": 0, "Bob": 1}
    assert not run.session_over  # best of 3: the session goes on

    # the table cleared, people in the way, balls knocked about: no frame starts
    table.show({}, 3.0)
    table.show(SCATTERED, 2.0, refereed=False)
    table.show(SCATTERED, 6.0)
    assert run.match.frames_started == 1 and run.session.phase == "between frames"

    # re-racked: frame 2 starts once the rack stands, Bob breaks (rotation)
    table.show(RACK, 3.6)
    assert run.in_frame and run.match.state.frame == 2
    # the change gate settles on the new rack: its next picture searched whole, and the
    # whole frame again at the settling rate until the first stroke
    RefereeRun.detect(run, first)
    assert run.gate is not None and run.gate.settling > 0 and run.gate.stats.full == 1
    assert run.match.state.player == "Bob" and board.frame == 2 and board.state == "playing"

    # frame 2: the pack broken, Bob pots a red (1-0 to Bob), then the players re-rack
    table.show(SCATTERED, 1.0)
    stroke(run, pot_red(30.0))
    assert run.match.state.scores == (0, 1)
    table.show(RACK, 3.6)
    # taken as Ann's concession (behind 0-1): Bob wins 2-0, the match is over; the next
    # match (Cy v Di) starts on that rack
    assert run.match.players == ("Cy", "Di") and run.in_frame
    assert board.players == ["Cy", "Di"] and board.frames_won == {"Cy": 0, "Di": 0}

    decisions = [json.loads(x) for x in (tmp_path / DECISIONS_NAME).read_text().splitlines()]
    ends = [d for d in decisions if "frame_end" in d]
    assert [(d["frame_end"], d["winner"]) for d in ends] == [(1, "Bob"), (2, "Bob")]
    assert ends[1]["match_over"] and ends[1]["match_winner"] == "Bob"
    conceded = [d for d in decisions if d.get("input") == "concede" and d.get("accepted")]
    assert any("taken as Ann's concession" in n for n in conceded[-1]["notes"])
    starts = [d for d in decisions if "frame_start" in d]
    assert [(d["frame_start"], d["breaker"]) for d in starts] == [
        (1, "Ann"), (2, "Bob"), (1, "Cy")]
    log = [json.loads(x) for x in (tmp_path / LOG_NAME).read_text().splitlines()]
    assert [r["frame"] for r in log if r["type"] == "frame_start"] == [1, 2, 1]
    assert any(r["type"] == "input" and "re-racked" in r.get("note", "") for r in log)


def test_level_scores_and_a_rerack_is_a_stalemate_not_a_concession(calibration, first, tmp_path):
    run, _ = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob"), best_of=3))
    table = Table(run, first)
    run.begin(first)
    table.show(SCATTERED, 1.0)
    stroke(run, (Event(EventType.STRIKE, 3.0, balls=("white",)),
                 Event(EventType.CONTACT, 3.5, balls=("white", "red_01")),
                 Event(EventType.CUSHION, 4.0, balls=("red_01",))))  # a safety: 0-0
    table.show(RACK, 3.6)
    assert run.in_frame and run.match.state.frame == 1 and run.match.frames_finished == 0
    said = [d for d in run.result.decisions if d.get("input") == "stalemate"]
    assert said and said[0]["accepted"] and "check" in " ".join(said[0]["notes"])


def test_a_table_waiting_for_a_match_starts_nothing_until_a_rack(calibration, first, tmp_path):
    run, board = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob")))
    run.session.wait = True
    table = Table(run, first)
    assert run.begin(first) is None
    table.show({}, 5.0)
    run.submit(OperatorInput(InputKind.CONCEDE))  # a console key pressed: refused, not logged
    table.show(SCATTERED, 10.0)  # practice, balls knocked about: no frame, no call
    assert run.match.state is None and run.result.decisions == [] and board.state == "waiting"
    assert not (tmp_path / LOG_NAME).read_text()
    assert run.summary()["state"] == "waiting"
    table.show(RACK, 3.6)
    assert run.in_frame and board.state == "playing"


def test_one_frame_ends_the_session_as_before(calibration, first, tmp_path):
    run, _ = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob")))
    table = Table(run, first)
    run.begin(first)
    table.show(RACK, 0.4)
    run.submit(OperatorInput(InputKind.CONCEDE))
    table.show(RACK, 0.2)
    assert run.frame_over and run.session_over


def test_a_six_red_frame_looks_for_six_reds(calibration, first, tmp_path):
    setup = MatchSetup(("Ann", "Bob"), ruleset="snooker-6-reds")
    run, _ = session_run(calibration, tmp_path, setup)
    run.begin(first)
    assert run.detector.capacity["red"] == 6 and len(run.tracker.balls.reds) == 6
    assert run.strokes.touching_gap_mm == run.match.rules.options.touching_gap_mm


def test_the_camera_knocked_mid_frame_the_frame_carries_on(calibration, first, tmp_path):
    """The view lost (the camera knocked), then found again and recalibrated: those pictures
    are not refereed, the frame goes on with its tracks and scores, the new view's detector
    still looks for the game's six reds, and no re-rack or frame is invented."""
    run, _ = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob"), best_of=3,
                                                           ruleset="snooker-6-reds"))
    table = Table(run, first)
    run.begin(first)
    rack6 = get_ruleset("snooker-6-reds").setup_positions()
    table.show(rack6, 1.0)
    broken = {**{b: p for b, p in SCATTERED.items() if not b.startswith("red")},
              "red_01": (300.0, 2000.0), "red_02": (1400.0, 2900.0)}
    table.show(broken, 1.0)
    stroke(run, (Event(EventType.STRIKE, 3.0, balls=("white",)),
                 Event(EventType.CONTACT, 3.5, balls=("white", "red_01")),
                 Event(EventType.CUSHION, 4.0, balls=("red_01",))))
    tracker, scores = run.tracker, run.match.state.scores
    table.show(broken, 2.0, refereed=False)              # knocked: the view is lost
    table.show(broken, 1.0, moved_to=calibration)        # found again, recalibrated
    assert run.in_frame and run.match.state.frame == 1 and run.match.state.scores == scores
    assert run.tracker is tracker and run.result.not_refereed_frames == 10
    assert run.detector.capacity["red"] == 6
    assert len(run.segments.away(FPS)) == 1
    assert run.match.frames_started == 1


def _log(setup: MatchSetup) -> list:
    """Frame 1 conceded by Ann (Bob 1-0 up), frame 2 under way: Bob (handicap 7) pots a red."""
    return [setup.first_frame(), OperatorInput(InputKind.CONCEDE), setup.frame_start(2),
            Shot(shot=1, events=pot_red(1.0))]


def test_a_restarted_table_takes_the_match_up_where_it_stood():
    from tracker.session import take_up

    setup = MatchSetup(("Ann", "Bob"), best_of=3, handicap={"Bob": 7},
                       then=(parse_then("Cy,Di best-of 1"),))
    log = _log(setup)
    taken = take_up(log, setup)
    assert taken.setup.frames_won == (0, 1) and taken.setup.score == (0, 8)
    assert taken.setup.breaker == "Bob" and taken.striker == "Bob" and taken.frame == 2
    assert taken.setup.then == setup.then and not taken.between_frames
    # its first frame start is frame 2 as it stood: it replays on its own
    fs = taken.setup.first_frame()
    assert (fs.frame, fs.frames_won, fs.start_points) == (2, {"Ann": 0, "Bob": 1},
                                                          {"Ann": 0, "Bob": 8})
    between = take_up(log[:2], setup)
    assert between.between_frames and between.setup.breaker == "Bob"  # Ann broke frame 1
    assert between.setup.score is None and between.setup.frames_won == (0, 1)
    over = take_up([*log[:3], OperatorInput(InputKind.STRIKER, player="Ann"),
                    OperatorInput(InputKind.CONCEDE)], setup)  # Ann concedes frame 2: 0-2
    assert over.setup.players == ("Cy", "Di") and over.between_frames
    assert take_up([], setup).setup == setup


def test_resume_on_a_stream_sets_the_old_files_aside_and_keeps_the_taken_up_match(tmp_path):
    from tracker.cli.session import take_up_live
    from tracker.records.parse import record_to_dict
    from tracker.resume import RunOptions, StoredRecord

    setup = MatchSetup(("Ann", "Bob"), best_of=3, handicap={"Bob": 7})

    class Point:
        records = [StoredRecord(record_to_dict(r)) for r in _log(setup)]

    (tmp_path / "match.log.jsonl").write_text("old\n")
    (tmp_path / "decisions.jsonl").write_text("old\n")
    opts = RunOptions(video="rtsp://cam3/stream", video_bytes=0, players=["Ann", "Bob"],
                      match=setup.to_dict())
    taken, inputs = take_up_live(Point(), setup, opts, tmp_path)
    assert taken.score == (0, 8) and inputs is None  # Bob broke and is at the table
    assert (tmp_path / "match.log.before-restart-1.jsonl").read_text() == "old\n"
    assert not (tmp_path / "match.log.jsonl").exists()
    saved = RunOptions.load(tmp_path)
    assert saved.match["score"] == [0, 8] and saved.match["frames_won"] == [0, 1]


def test_a_table_cleared_mid_frame_is_a_concession_then_the_rack_starts_the_next(
        calibration, first, tmp_path):
    run, board = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob"), best_of=3))
    table = Table(run, first)
    run.begin(first)
    table.show(SCATTERED, 1.0)
    stroke(run, pot_red(3.0, "red_01"))           # Ann pots a red: 1-0
    table.show({}, 1.6)                           # cleared, not yet for long: still on
    assert run.in_frame
    table.show({}, 1.0)
    assert run.frame_over and run.match.state.winner == 0 and board.state == "between frames"
    assert not run.in_frame and run.match.frames_won == {"Ann": 1, "Bob": 0}
    table.show(RACK, 1.2)
    assert run.in_frame and run.match.state.frame == 2 and run.match.state.player == "Bob"


def test_the_scoreboard_says_the_match_is_over_when_it_ends(calibration, first, tmp_path):
    run, _ = session_run(calibration, tmp_path, MatchSetup(("Ann", "Bob")))
    table = Table(run, first)
    run.begin(first)
    assert run.summary()["state"] == "playing"
    run.submit(OperatorInput(InputKind.CONCEDE))
    table.show(SCATTERED, 0.2)
    board = run.summary()
    assert board["state"] == "match over" and board["frames_won"] == {"Ann": 0, "Bob": 1}
