"""A two-frame match for the TV page tests, written through the real run and store writer.

Ann v Bob, best of 3. Frame 1: the bundled frame sample's log (6 strokes, a foul at stroke 2
and the offender asked to play again), then Ann, at the table, concedes: Bob wins it 6-5.
Frame 2 (Bob breaks, the rotation), taken up with Ann 130 - Bob 0 (``start_points``): the same
six strokes again, Bob now playing what Ann played (numbered 7-12, 60 s later on the video's
clock). The referee's calls are the program's own (:class:`tracker.pipeline.RefereeRun`); the
store is written by :class:`tracker.outputs.store.StoreWriter`; console requests reach the run
through :class:`tracker.server.live.ConsoleBridge`, as in a running ``process --serve``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from helpers import feed_as_seen, sample_camera

from tracker.outputs.store import StoreWriter
from tracker.pipeline import RefereeRun
from tracker.records.parse import read_log, record_from_dict, record_to_dict
from tracker.records.shot import FrameStart, InputKind, OperatorInput, Shot
from tracker.server.live import ConsoleBridge

ROOT = Path(__file__).resolve().parents[1]
FRAME_LOG = ROOT / "sample_videos" / "overhead_frame.log.jsonl"
MISS_VIDEO = ROOT / "sample_videos" / "overhead_miss.mp4"
#: Frame 2's strokes come this much later (s) on the video's clock than frame 1's.
FRAME_2_LATER_S = 60.0


def _later(shot: Shot, strokes: int, dt: float) -> Shot:
    """The stroke renumbered ``strokes`` on and ``dt`` s later."""
    d = record_to_dict(shot)
    d["shot"] += strokes
    d["t_start"], d["t_end"] = d["t_start"] + dt, d["t_end"] + dt
    for e in d["events"]:
        e["t"] += dt
    out = record_from_dict(d)
    assert isinstance(out, Shot)
    return out


def two_frame_records() -> list:
    """The records of the match (see the module docstring), in order."""
    frame = [rec for _, rec in read_log(FRAME_LOG)]
    start = frame[0]
    assert isinstance(start, FrameStart)
    n = sum(isinstance(r, Shot) for r in frame)
    second = [replace(start, frame=2, breaker="Bob", best_of=3,
                      start_points={"Ann": 130, "Bob": 0})]
    second += [_later(r, n, FRAME_2_LATER_S) if isinstance(r, Shot) else r for r in frame[1:]]
    return [replace(start, best_of=3), *frame[1:], OperatorInput(InputKind.CONCEDE), *second]


def two_frame_run(folder: Path) -> tuple[RefereeRun, StoreWriter, ConsoleBridge]:
    """The match called through a run writing ``folder/match.sqlite``; returns the run (still
    running: the console can correct its last stroke), its writer and console bridge."""
    writer = StoreWriter(folder / "match.sqlite", "test")
    run = RefereeRun(sample_camera(MISS_VIDEO), 25.0, ("Ann", "Bob"), listeners=[writer])
    writer.start(run)
    bridge = ConsoleBridge(writer)
    run.listeners.append(bridge)
    feed_as_seen(run, two_frame_records())
    return run, writer, bridge


def take_console(run: RefereeRun, bridge: ConsoleBridge) -> None:
    """The run takes the console's requests waiting in the store, as before its next picture."""
    bridge.on_frame(run, None)
    run.take_inputs()
