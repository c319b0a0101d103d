"""An idle live table (no frame in play, nothing changing) looks at one picture in
``FeedParams.idle_stride`` and lets the others go; anything changing on the table brings back
every picture (tracker/live.py ``may_rest``, tracker/pipeline/run.py ``RefereeRun.idle``)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2

from tracker.listeners import RunListener
from tracker.live import FEED, may_rest
from tracker.pipeline import process_video
from tracker.sources import Frame, FrameSource, SourceEnd

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_videos" / "overhead_frame.mp4"
N, START, HAND = 150, 50, range(100, 106)  # frames; the start window; a hand on these


class _IdleCamera(FrameSource):
    """A live camera over a table left as the sample's last stroke left it (no rack, no
    match set), a hand passing over the bed on frames ``HAND``. The first ``START`` frames
    come at once (the run learns the table on them); the rest, once the run looks at its
    first picture (:attr:`ready`), at the camera's pace."""

    live = True

    def __init__(self):
        super().__init__()
        cap = cv2.VideoCapture(str(SAMPLE))
        cap.set(cv2.CAP_PROP_POS_FRAMES, cap.get(cv2.CAP_PROP_FRAME_COUNT) - 5)
        ok, self.still = cap.read()
        cap.release()
        assert ok
        self.name, self.fps = "idle camera", 25.0
        self.ready = threading.Event()

    def frames(self):
        h, w = self.still.shape[:2]
        for i in range(N):
            if i == START:
                self.ready.wait(60)
            if i >= START:
                time.sleep(1 / self.fps)
            img = self.still
            if i in HAND:
                img = img.copy()
                x = w // 3 + 40 * (i - HAND.start)
                img[h // 3:h // 3 + 120, x:x + 200] = (60, 90, 160)  # a sleeve
            yield Frame(i, i / self.fps, img)
        self.end = SourceEnd("complete", N)


class _Seen(RunListener):
    def __init__(self, ready: threading.Event):
        self.indexes: list[int] = []
        self.ready = ready

    def on_frame(self, run, view):
        self.indexes.append(view.frame.index)
        self.ready.set()


def test_the_stride_lets_pictures_go_only_when_idle():
    assert FEED.idle_stride > 1
    assert may_rest(True, 1) and not may_rest(True, FEED.idle_stride)
    assert not may_rest(False, 1)  # a frame in play: every picture


def test_an_idle_live_table_looks_at_few_pictures_until_something_changes(tmp_path):
    camera = _IdleCamera()
    seen = _Seen(camera.ready)
    res = process_video(camera, None, wait=True, progress=False, listeners=[seen])
    assert not res.decisions and not res.shots  # nothing invented
    assert res.frames == N and res.skipped_frames == 0 and res.dropped_frames == 0
    idle = [i for i in seen.indexes if START <= i < HAND.start]
    # most pictures after the start window were let go (not those of the hand and after it)
    assert res.idle_frames >= 0.7 * (N - START - 2 * len(HAND) - FEED.idle_stride)
    # between the start and the hand, one picture in idle_stride (after the first still one)
    assert all(i % FEED.idle_stride == 0 for i in idle[3:])
    # the hand is seen on the first picture looked at, then every picture while it moves
    first_hand = next(i for i in seen.indexes if i >= HAND.start)
    assert first_hand < HAND.start + FEED.idle_stride
    assert set(range(first_hand, HAND.stop + 1)) <= set(seen.indexes)
