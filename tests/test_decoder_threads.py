"""A file decoded beside the pipeline gets one thread fewer than the cores (tracker/live.py,
``FeedParams.cores_left_by_decoder``): the same frames, bit for bit, whatever the decoder's
thread count."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from tracker import live
from tracker.sources import VideoFileSource, open_source

SAMPLE = Path(__file__).resolve().parents[1] / "sample_videos" / "overhead_frame.mp4"


def _first_frames(source, n: int = 6) -> list[np.ndarray]:
    out = []
    for f in source.frames():
        out.append(f.image)
        if len(out) == n:
            break
    source.close()
    return out


def test_one_decoder_thread_gives_the_same_frames_as_the_default():
    one = VideoFileSource(SAMPLE, decode_threads=1)
    assert one._cap.get(cv2.CAP_PROP_N_THREADS) == 1
    default = open_source(SAMPLE)
    for a, b in zip(_first_frames(one), _first_frames(default), strict=True):
        assert np.array_equal(a, b)


def test_the_decoder_leaves_cores_to_the_pipeline_and_keeps_at_least_one_thread(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert live.decode_threads() == 2 - live.FEED.cores_left_by_decoder
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert live.decode_threads() == 1
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert live.decode_threads() == 1


def test_look_ahead_holds_a_budget_of_bytes_within_its_bounds():
    hd = live.look_ahead_frames(1920 * 1080 * 3)
    assert hd == min(live.FEED.look_ahead_max_frames, live.FEED.look_ahead_bytes // (1920 * 1080 * 3))
    uhd = live.look_ahead_frames(3840 * 2160 * 3)
    assert live.FEED.prefetch_frames <= uhd < hd  # a 4K frame is four times the memory
    assert live.look_ahead_frames(64 * 64 * 3) == live.FEED.look_ahead_max_frames
    assert live.look_ahead_frames(10**10) == live.FEED.prefetch_frames


def test_a_file_feed_reads_ahead_as_far_as_its_frame_size_allows():
    source = open_source(SAMPLE)
    feed = live.FrameFeed(source, threaded=False)
    w, h = source.size
    assert feed._q.maxsize == live.look_ahead_frames(w * h * 3) > live.FEED.prefetch_frames
    feed.stop()
    source.close()
