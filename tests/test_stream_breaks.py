"""High breaks kept on video from a live source: a synthetic stream's pictures (each showing
its frame number) go through the rolling recording while the bundled overhead_frame log is
written to the store as a live run would; Di's break of 6 (strokes 3 to 5) must come out as a
clip of its own pictures, stored and linked like a file's clip, within the disk budget."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np

from tests.hall_fixtures import SAMPLES, HallStore
from tracker.listeners import FrameView
from tracker.outputs.highbreaks import HighBreakClips, HighBreakParams, kept_breaks
from tracker.outputs.report import render
from tracker.outputs.streamclips import (
    RECORDING_DIR,
    RecordingParams,
    StreamBreakClips,
    high_break_listener,
)
from tracker.records.shot import Shot
from tracker.sources import Frame

FPS = 25.0
BITS, BLOCK = 12, 16  # a frame's number drawn as 12 black/white blocks, 16 px wide


def picture(index: int) -> np.ndarray:
    """A small BGR picture whose blocks spell ``index`` in binary (most significant first)."""
    img = np.zeros((64, BITS * BLOCK, 3), np.uint8)
    for b in range(BITS):
        if index >> (BITS - 1 - b) & 1:
            img[:, b * BLOCK:(b + 1) * BLOCK] = 255
    return img


def number(img: np.ndarray) -> int:
    """The frame number a (decoded) picture spells."""
    grey = img.mean(axis=(0, 2))
    return sum(1 << (BITS - 1 - b) for b in range(BITS)
               if grey[b * BLOCK + 4:(b + 1) * BLOCK - 4].mean() > 128)


def decoded_numbers(path) -> list[int]:
    cap = cv2.VideoCapture(str(path))
    out = []
    while True:
        ok, img = cap.read()
        if not ok:
            return out
        out.append(number(img))


def test_a_live_runs_high_break_is_cut_from_its_recording(tmp_path):
    day = HallStore(tmp_path / "hall", t2_records=1)  # the frame start; strokes to come
    rid, out = day.runs["t2"], tmp_path / "hall" / "t2"
    writer = SimpleNamespace(run_id=rid)
    rec = RecordingParams(segment_s=4, disk_mb=0.01, height=0, key_every_s=1.0,
                          queue_frames=4)
    clips = StreamBreakClips(day.path, writer, out, HighBreakParams(threshold=5), rec,
                             hold_s=5.0)
    run = SimpleNamespace(source_fps=FPS)
    index, firsts = 0, []

    def play_to(t: float) -> None:
        nonlocal index
        while index / FPS <= t:
            clips.on_frame(run, FrameView(Frame(index, index / FPS, picture(index)), None))
            clips.recording.wait_written()  # as a live stream's pace would let it
            index += 1
        firsts.append(clips.recording.segments[0].first if clips.recording.segments else 0)

    while day.more:
        rec_ = day.more[0]
        if isinstance(rec_, Shot):
            play_to(rec_.t_end + 0.5)  # a stroke is called once its balls have settled
        day.write_next()
        clips.on_record(run, rec_, [])
    play_to(index / FPS + 2.0)
    recording = clips.recording
    clips.on_end(run, {"video_end": "stopped"})

    assert recording.left_out == 0
    assert recording.deleted > 0  # old pictures were deleted to keep within the budget ...
    assert not (out / RECORDING_DIR).exists()  # ... and the recording is gone at the end
    assert [(r["player"], r["points"], r["shots"]) for r in clips.kept] == [("Di", 6, [3, 4, 5])]
    row = clips.kept[0]
    assert row["clip"] == "t2/breaks/frame1-shot3-Di-6.mp4"
    assert (row["t_start"], round(row["t_end"], 2)) == (18.84, 43.31)
    seen = decoded_numbers(out / "breaks" / "frame1-shot3-Di-6.mp4")
    # ... but the break's own pictures were held: from the key frame at or before 18.84 s
    # (at most 1 s early) to 43.31 s, every frame once, in order
    assert int(18.84 * FPS) - FPS <= seen[0] <= int(18.84 * FPS)
    assert abs(seen[-1] - 43.31 * FPS) <= 1
    assert seen == list(range(seen[0], seen[-1] + 1))
    assert [b["points"] for b in kept_breaks(day.store)] == [6]
    html = render(day.store, rid, day.path.parent)
    assert "href='t2/breaks/frame1-shot3-Di-6.mp4'" in html and "6 by Di" in html


def test_live_sources_get_a_recording_and_files_are_cut_at_the_end(tmp_path):
    writer = SimpleNamespace(run_id=None)
    for source in ("rtsp://cam/1", "0", "-"):
        assert isinstance(high_break_listener(tmp_path / "s", writer, source, tmp_path),
                          StreamBreakClips)
    assert isinstance(high_break_listener(tmp_path / "s", writer, SAMPLES / "overhead_miss.mp4",
                                          tmp_path), HighBreakClips)


def test_a_recording_that_cannot_encode_says_so_and_refuses_its_cuts(tmp_path, monkeypatch):
    import pytest

    import tracker.outputs.streamclips as sc

    monkeypatch.setattr(sc, "_ffmpeg", lambda: str(tmp_path / "no-ffmpeg"))
    rec = sc.RollingRecording(tmp_path / "rec", FPS, RecordingParams(height=0))
    for i in range(3):
        rec.add(i, picture(i))  # the run goes on: nothing raised here
    cut = rec.request_cut(0.0, 0.1, tmp_path / "clip.mp4")
    with pytest.raises(sc.ClipError, match="the recording failed"):
        cut.result(timeout=10)
    rec.close()
    assert rec.failed and not (tmp_path / "rec").exists()
