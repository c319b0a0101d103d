"""The whole chain on a video: calibration -> detection -> tracking -> events -> referee.

``process_video`` reads the video frame by frame, calls every stroke as it ends, and writes
the match log (frame start and shot records, JSONL), the decisions (JSONL) and the final
scoreboard into the output folder as it goes, so a crash keeps everything called so far.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2

from calibration.auto import calibrate_image
from calibration.finder import TableNotFound
from calibration.monitor import ViewMonitor
from calibration.profile import Calibration
from calibration.table import TableGeometry
from tracker import balls as B
from tracker.perception.detect import BallDetector
from tracker.perception.events import StrokeDetector
from tracker.perception.track import Tracker
from tracker.records.parse import record_to_dict
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Shot
from tracker.rules.explain import explain
from tracker.rules.match import Match
from tracker.rules.snooker import RuleError


class VideoError(RuntimeError):
    """The video cannot be processed; the message says why and what to do."""


@dataclass
class StageTimes:
    """Seconds spent per stage (for the benchmark)."""

    decode: float = 0.0
    detect: float = 0.0
    track: float = 0.0
    events: float = 0.0
    referee: float = 0.0
    monitor: float = 0.0
    frames: int = 0

    def fps(self) -> dict[str, float]:
        """Frames per second of each stage and of the whole pipeline."""
        total = self.decode + self.detect + self.track + self.events + self.referee + self.monitor
        out = {k: (self.frames / v if v > 0 else float("inf"))
               for k, v in self.__dict__.items() if k != "frames"}
        out["total"] = self.frames / total if total > 0 else float("inf")
        return out


@dataclass
class ProcessResult:
    """What a processed video produced."""

    shots: list[Shot] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    score: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    not_refereed_frames: int = 0
    times: StageTimes = field(default_factory=StageTimes)


def _sanitize(shot: Shot, on_table: frozenset[str]) -> Shot:
    """Drop what the referee's state contradicts (a ball it knows is off the table), with a
    review note, instead of stopping the match."""
    notes = list(shot.needs_review)

    def keep_pos(p: dict | None) -> dict | None:
        if p is None:
            return None
        out = {}
        for b, v in p.items():
            if b == B.WHITE or b in on_table or B.is_colour(b):
                out[b] = v
            else:
                notes.append(f"tracker has {b} on the table; the referee has it off: ignored")
        return out

    events = []
    for e in shot.events:
        if any(b != B.WHITE and b not in on_table for b in e.balls):
            notes.append(f"{e.type} event with a ball off the table ({', '.join(e.balls)}): ignored")
            continue
        events.append(e)
    return replace(shot, events=tuple(events), positions_before=keep_pos(shot.positions_before),
                   positions_after=keep_pos(shot.positions_after), needs_review=tuple(dict.fromkeys(notes)))


def process_video(path: str | Path, out_dir: str | Path, calibration: Calibration | None = None,
                  players: tuple[str, str] = ("A", "B"), table: TableGeometry | None = None,
                  progress: bool = True, on_call: Callable[[str], None] | None = None,
                  max_frames: int | None = None,
                  inputs: list[tuple[int, OperatorInput]] | None = None,
                  spoken: dict[int, dict[str, Any]] | None = None) -> ProcessResult:
    """Referee a video; see the module docstring.

    Args:
        inputs: operator inputs (option after a foul, concession, ...) as (n, input): applied
            just before the n-th stroke the camera sees.
        spoken: per stroke number, what the camera cannot see: ``nomination``, ``free_ball``,
            ``operator`` (judgements), merged into that stroke's record.

    Raises:
        VideoError: unreadable video, or no table in its first frames (with the reason).
    """
    from tqdm import tqdm

    p = Path(path)
    if not p.exists():
        raise VideoError(f"{p}: no such file")
    cap = cv2.VideoCapture(str(p))
    if not cap.isOpened():
        raise VideoError(f"{p}: cannot open the video (unsupported codec or damaged file)")
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    n_frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) or None
    ok, first = cap.read()
    if not ok or first is None:
        raise VideoError(f"{p}: the video has no readable frame")
    table = table or (calibration.table if calibration else TableGeometry.standard())
    if calibration is None:
        try:
            calibration = calibrate_image(first, table)
        except TableNotFound as exc:
            raise VideoError(f"no table found in the first frame: {exc}; give --calibration "
                             "PROFILE (see `snooker-tracker calibrate`)") from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    calibration.save(out / "calibration.json")
    detector = BallDetector(calibration)
    detector.learn_cloth(first)
    detector.learn_colours([first])  # this camera's colours, anchored on the spots
    tracker = Tracker(calibration.table, fps)
    # a centre is known to about a pixel (table millimetres per pixel at the table's centre)
    strokes = StrokeDetector(calibration.table, fps,
                             position_error_mm=max(1.5, calibration.table.ball_radius / detector.r_px))
    monitor = ViewMonitor(calibration, check_every=max(1, int(fps // 2)))
    match = Match()
    result = ProcessResult()
    start = None
    for _n, inp in list(inputs or []):
        if isinstance(inp, FrameStart):
            start = replace(inp, players=players if players != ("A", "B") else inp.players)
            inputs = [x for x in inputs if x[1] is not inp]
            break
    if start is None:
        start = _observed_start(detector, tracker, first, players)
    if start.positions:
        tracker.seed(start.positions)
    log = open(out / "match.log.jsonl", "w", encoding="utf-8")  # noqa: SIM115 - written as we go
    dec_file = open(out / "decisions.jsonl", "w", encoding="utf-8")  # noqa: SIM115

    def emit(res: dict[str, Any]) -> None:
        dec_file.write(json.dumps(res) + "\n")
        dec_file.flush()
        result.decisions.append(res)
        if on_call:
            on_call(explain(res))

    log.write(json.dumps(record_to_dict(start)) + "\n")
    for r in match.feed(start):
        emit(r)
    times = result.times
    total = min(n_frames or 0, max_frames or 10**9) or None
    bar = tqdm(total=total, desc="process", unit="frame", disable=not progress)
    frame_idx = 0
    img = first
    try:
        while True:
            t_a = time.perf_counter()
            if frame_idx > 0:
                ok, img = cap.read()
                if not ok or img is None:
                    break
            t_b = time.perf_counter()
            times.decode += t_b - t_a
            status = monitor.update(frame_idx, img)
            t_c = time.perf_counter()
            times.monitor += t_c - t_b
            if not status.refereed:
                result.not_refereed_frames += 1
            else:
                det = detector.detect(img)
                t_d = time.perf_counter()
                times.detect += t_d - t_c
                st = tracker.update(frame_idx, det)
                t_e = time.perf_counter()
                times.track += t_e - t_d
                shot = strokes.update(st)
                t_f = time.perf_counter()
                times.events += t_f - t_e
                if shot is not None:
                    for n, inp in inputs or []:
                        if n == shot.shot and isinstance(inp, OperatorInput):
                            if inp.kind == InputKind.OPTION and inp.choice == "replace":
                                strokes.referee_replacing()  # his hands will move balls
                            log.write(json.dumps(record_to_dict(inp)) + "\n")
                            for r in match.feed(inp):
                                emit(r)
                    if spoken and shot.shot in spoken:
                        shot = replace(shot, **spoken[shot.shot])
                    shot = _sanitize(shot, match.state.on_table)
                    try:
                        outs = match.feed(shot)
                    except RuleError as exc:
                        outs = [{"shot": shot.shot, "error": str(exc), "needs_review": True}]
                    result.shots.append(shot)
                    log.write(json.dumps(record_to_dict(shot)) + "\n")
                    log.flush()
                    for r in outs:
                        emit(r)
                    if match.state.frame_over:
                        break
                times.referee += time.perf_counter() - t_f
            times.frames += 1
            frame_idx += 1
            bar.update(1)
            if max_frames and frame_idx >= max_frames:
                break
    finally:
        bar.close()
        cap.release()
        log.close()
        st_ = match.state
        result.frames = frame_idx
        result.score = dict(zip(st_.players, st_.scores, strict=True)) if st_ else {}
        board = {"scoreboard": True, "score": result.score, "frame_over": bool(st_ and st_.frame_over),
                 "shots": len(result.shots), "frames": frame_idx,
                 "not_refereed_frames": result.not_refereed_frames}
        dec_file.write(json.dumps(board) + "\n")
        dec_file.close()
        (out / "scoreboard.json").write_text(json.dumps(board, indent=1))
    return result


def inputs_from_log(path: str | Path) -> list[tuple[int, OperatorInput | FrameStart]]:
    """Operator inputs of a match log (JSONL), each tied to the stroke that follows it; a
    frame_start line (players, breaker, the layout when the video starts mid-frame) too."""
    from tracker.records.parse import read_log

    out: list[tuple[int, OperatorInput | FrameStart]] = []
    n_shots = 0
    for _, rec in read_log(path):
        if isinstance(rec, Shot):
            n_shots += 1
        elif isinstance(rec, (OperatorInput, FrameStart)):
            out.append((n_shots + 1, rec))
    return out


def spoken_from_log(path: str | Path) -> dict[int, dict[str, Any]]:
    """What the referee heard or judged per stroke in a match log (nomination, free-ball
    nomination, operator judgements), by stroke number: merged into the camera's records."""
    from tracker.records.parse import read_log

    out: dict[int, dict[str, Any]] = {}
    n_shots = 0
    for _, rec in read_log(path):
        if isinstance(rec, Shot):
            n_shots += 1
            said = {k: v for k, v in (("nomination", rec.nomination), ("free_ball", rec.free_ball))
                    if v is not None}
            if rec.operator.miss is not None or rec.operator.fouls or rec.operator.not_a_stroke:
                said["operator"] = rec.operator
            if said:
                out[n_shots] = said
    return out


def _observed_start(detector: BallDetector, tracker: Tracker, first, players) -> FrameStart:
    """The frame start as the camera sees it: the standard rack (white in hand) when the
    table shows one, else the observed layout (the video starts mid-frame)."""
    st = tracker.update(0, detector.detect(first))
    tracker.reset()
    n_red = sum(1 for b in st.pos if B.is_red(b))
    colours = sum(1 for b in st.pos if B.is_colour(b))
    if n_red >= 15 and colours == 6 and B.WHITE not in st.pos:
        return FrameStart(1, players, breaker=players[0])
    return FrameStart(1, players, breaker=players[0], positions=dict(st.pos))
