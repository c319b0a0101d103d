"""Live sources: raw frames on a pipe, stream gaps, the skipping policy, and a short live pipe
refereed end to end (tracker/live.py)."""

import io
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tracker.live import FEED, may_skip
from tracker.perception.track import TableState
from tracker.pipeline import process_video
from tracker.sources import Frame, FrameSource, RawPipeSource, SourceEnd

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_videos" / "overhead_free_ball.mp4"


def test_raw_pipe_gives_whole_frames_and_says_when_one_is_cut():
    w, h = 8, 6
    frames = [np.full((h, w, 3), i, np.uint8) for i in range(3)]
    data = b"".join(f.tobytes() for f in frames)
    src = RawPipeSource(io.BytesIO(data), (w, h), fps=10)
    got = list(src)
    assert [int(f.image[0, 0, 0]) for f in got] == [0, 1, 2]
    assert got[2].t == pytest.approx(0.2) and src.end.reason == "complete"
    cut = RawPipeSource(io.BytesIO(data[:-5]), (w, h), fps=10)
    assert len(list(cut)) == 2 and cut.end.reason == "truncated" and "--size" in cut.end.message


def _state(pos, moving=()):
    return TableState(0, 0.0, pos, set(moving), set(pos), [], [])


def test_skipping_policy_never_skips_moving_balls_or_a_cue_ball_by_another():
    apart = {"white": (300.0, 300.0), "red_1": (900.0, 1800.0)}
    assert may_skip(_state(apart), FEED.max_lag_s / 2) == (False, False)  # not behind
    assert may_skip(_state(apart), FEED.max_lag_s * 2) == (True, False)
    assert may_skip(None, FEED.max_lag_s * 2) == (False, False)  # not started
    near = {"white": (300.0, 300.0), "red_1": (340.0, 320.0)}
    assert may_skip(_state(near), FEED.max_lag_s * 2) == (False, False)  # it may be struck
    assert may_skip(_state(apart, ["red_1"]), FEED.max_lag_s * 2) == (False, False)
    assert may_skip(_state(apart, ["red_1"]), FEED.hard_lag_s * 2) == (True, True)  # counted as forced


class _GappySource(FrameSource):
    """The first frames of a sample as a recorded stream that lost 1 s before frame 20."""

    def __init__(self, n: int):
        super().__init__()
        self.name, self.fps, self.n = "fake camera", 25.0, n

    def frames(self):
        cap = cv2.VideoCapture(str(SAMPLE))
        idx = 0
        for i in range(self.n):
            ok, img = cap.read()
            gap = 1.0 if i == 20 else 0.0
            idx += 25 if gap else 0
            yield Frame(idx, idx / self.fps, img, gap_s=gap)
            idx += 1
        self.end = SourceEnd("complete", self.n)


def test_a_stream_gap_is_marked_not_refereed(tmp_path):
    res = process_video(_GappySource(30), tmp_path, progress=False)
    assert res.gaps == [(pytest.approx(20 / 25), pytest.approx(45 / 25))]
    assert res.not_refereed_frames == 25
    board = json.loads((tmp_path / "scoreboard.json").read_text())
    assert board["live"]["gaps_s"] == [[0.8, 1.8]]


class _PacedCamera:
    """A camera on a pipe: the sample's first picture held still, then the sample's first
    ``play`` pictures, each written at the sample's own rate (25 fps), never faster. A late write (the
    reader was slow) is not made up for by a burst: a camera goes on at its own pace. The
    still opening lasts until ``go`` is set (the run says it referees), so that however long
    the start takes on a loaded machine, play starts after it, as an operator starts play."""

    def __init__(self, pipe, go: threading.Event, play: int, give_up_s: float = 120.0):
        self.pipe, self.go, self.play, self.give_up_s = pipe, go, play, give_up_s
        self.still_frames = 0
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._feed, name="camera", daemon=True)

    def _feed(self) -> None:
        cap = cv2.VideoCapture(str(SAMPLE))
        try:
            ok, first = cap.read()
            assert ok, SAMPLE
            period = 1.0 / cap.get(cv2.CAP_PROP_FPS)
            due = time.monotonic()
            give_up = due + self.give_up_s
            img: np.ndarray | None = first
            played = 1
            while img is not None and played <= self.play:
                self.pipe.write(img.tobytes())
                due = max(due + period, time.monotonic())
                time.sleep(max(0.0, due - time.monotonic()))
                if not self.go.is_set() and time.monotonic() < give_up:
                    self.still_frames += 1  # still waiting: the same picture again
                    continue
                ok, img = cap.read()
                img, played = (img if ok else None), played + 1
        except BaseException as exc:  # a broken pipe: the run ended; the test says why
            self.error = exc
        finally:
            cap.release()
            self.pipe.close()


def test_a_live_pipe_is_refereed_end_to_end(tmp_path):
    # a camera at its own rate: the table still until the run says it referees (on this 2-core
    # machine 4.8 s of the stream alone, 5.7-7.2 s beside two CPU burners), then the first
    # stroke of the sample (struck at 2.32 s, balls at rest at 4.8 s), its first 6.5 s
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    run = subprocess.Popen([sys.executable, "-m", "tracker.cli", "process", "-", "--size",
                            "1920x1080", "--fps", "25", "--out", str(tmp_path), "--quiet",
                            "--no-store"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=False, env=env, cwd=ROOT)
    go, said = threading.Event(), []

    def listen() -> None:
        for line in io.TextIOWrapper(run.stderr, encoding="utf-8", errors="replace"):
            said.append(line)
            if "refereeing from now on" in line:
                go.set()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    camera = _PacedCamera(run.stdin, go, play=int(6.5 * 25))
    camera.thread.start()
    out = run.stdout.read().decode()
    assert run.wait(timeout=180) == 0, "".join(said)
    camera.thread.join(timeout=10)
    listener.join(timeout=10)
    assert go.is_set() and camera.error is None, (camera.error, "".join(said))
    assert "Shot 1" in out, out
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["shots"] == 1 and summary["video_end"] == "complete"
    live = summary.get("live", {})
    assert live.get("skipped_while_moving", 0) == 0 and live.get("dropped_frames", 0) == 0
    # what came before the cue was the still opening, and the stroke all came after it
    assert live.get("startup_skipped", 0) <= camera.still_frames, (summary, camera.still_frames)


class _FakeCap:
    """A capture that gives ``n`` frames, then fails (a stream that drops)."""

    def __init__(self, n: int):
        self.n = n

    def isOpened(self):
        return True

    def get(self, prop):
        return 25.0

    def read(self):
        if self.n <= 0:
            return False, None
        self.n -= 1
        return True, np.zeros((4, 6, 3), np.uint8)

    def release(self):
        pass


def test_a_dropped_stream_is_opened_again_and_the_gap_carried(monkeypatch):
    from tracker import sources

    caps = iter([_FakeCap(3), None, _FakeCap(2)])  # drops after 3 frames, one failed re-open
    monkeypatch.setattr(sources.CaptureSource, "_open", lambda self: next(caps, None))
    monkeypatch.setattr(sources, "SOURCES", replace(sources.SOURCES, reconnect_every_s=0.05))
    src = sources.CaptureSource("rtsp://camera.invalid/stream", give_up_s=1.0)
    got = list(src)
    assert len(got) == 5 and [f.gap_s > 0 for f in got] == [False] * 3 + [True, False]
    assert got[3].gap_s >= 0.1 and got[3].index > 3  # the time lost shows in the numbering
    assert src.end.reason == "lost" and "could not be opened again" in src.end.message


def test_bad_live_arguments_get_one_line(tmp_path, capsys):
    from tracker.cli import main

    assert main(["process", "-", "--out", str(tmp_path)]) == 2
    assert "--size" in capsys.readouterr().err
    assert main(["process", "-", "--size", "1920by1080", "--out", str(tmp_path)]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_work_ahead_hands_over_every_result_in_order_and_raises_the_workers_error():
    from tracker.live import WorkAhead

    seen_on = set()

    def work(x):
        seen_on.add(threading.current_thread().name)
        return x * x

    got = list(WorkAhead(iter(range(50)), work))
    assert [(x, r) for x, r, _ in got] == [(x, x * x) for x in range(50)]
    assert all(s >= 0.0 for _, _, s in got) and seen_on == {"work-ahead"}

    def fails(x):
        if x == 3:
            raise ValueError("bad frame 3")
        return x

    ahead = WorkAhead(iter(range(10)), fails)
    with pytest.raises(ValueError, match="bad frame 3"):
        assert [x for x, _, _ in ahead] == [0, 1, 2]


def test_work_ahead_stops_when_asked_without_reading_the_rest():
    from tracker.live import FEED, WorkAhead

    read = []

    def items():
        for i in range(10_000):
            read.append(i)
            yield i

    ahead = WorkAhead(items(), lambda x: x)
    it = iter(ahead)
    assert next(it)[0] == 0
    ahead.stop()
    assert not ahead._thread.is_alive() and len(read) <= FEED.prefetch_frames + 3
