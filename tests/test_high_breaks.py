"""High breaks kept on video: the breaks of the statistics at or above the threshold get a
clip cut from the table's video, a store row, and links from the hall and the report."""

from __future__ import annotations

import re
import subprocess
import warnings

import imageio_ffmpeg
import pytest

from tests.hall_fixtures import SAMPLES, HallStore
from tracker.outputs.highbreaks import (
    ClipError,
    HighBreakParams,
    clip_window,
    clips_section,
    cut_clip,
    high_breaks,
    is_file_source,
    keep_high_breaks,
    kept_breaks,
)
from tracker.outputs.report import render
from tracker.stats import Visit

#: stream copy: fast; the bundled samples have a key frame every 10 s
COPY = HighBreakParams(threshold=5, reencode=False)


@pytest.fixture
def day(tmp_path):
    """t2 holds the whole overhead_frame log: Di's break of 6 (strokes 3 to 5, 20.84 s to
    42.31 s of the video)."""
    return HallStore(tmp_path / "hall", t2_records=100)


def _seconds(path) -> float:
    """The clip's duration as its header says it (s)."""
    said = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-i", str(path)],
                          capture_output=True, text=True, check=False).stderr
    h, m, sec = re.search(r"Duration: (\d+):(\d+):([\d.]+)", said).groups()
    return 3600 * int(h) + 60 * int(m) + float(sec)


def test_a_break_at_the_threshold_is_kept_with_its_clip_and_row(day):
    store, rid = day.store, day.runs["t2"]
    assert keep_high_breaks(store, rid, SAMPLES / "overhead_frame.mp4", day.path.parent / "t2"
                            ) == []  # the default threshold, 50: a break of 6 is not kept
    rows = keep_high_breaks(store, rid, SAMPLES / "overhead_frame.mp4", day.path.parent / "t2",
                            COPY)
    assert [(r["player"], r["points"], r["shots"]) for r in rows] == [("Di", 6, [3, 4, 5])]
    clip = day.path.parent / rows[0]["clip"]
    assert rows[0]["clip"] == "t2/breaks/frame1-shot3-Di-6.mp4" and clip.is_file()
    assert (rows[0]["t_start"], round(rows[0]["t_end"], 2)) == (18.84, 43.31)
    # a stream copy starts on the key frame before: the whole break is in it, at most one
    # key-frame interval (10 s) more
    assert 43.31 - 18.84 <= _seconds(clip) <= 43.31 - 18.84 + 10.1
    assert [b["points"] for b in kept_breaks(store)] == [6]
    assert keep_high_breaks(store, rid, SAMPLES / "overhead_frame.mp4", day.path.parent / "t2",
                            COPY) == []  # kept once


def test_a_reencoded_clip_lasts_the_breaks_window(tmp_path):
    brk = Visit(1, "Ann", (4, 5), 57, ("red_01", "black"), 4.5, 6.0, "no score")
    t0, t1 = clip_window(brk, HighBreakParams(pad_before_s=1.5, pad_after_s=0.5))
    assert (t0, t1) == (3.0, 6.5)
    clip = cut_clip(SAMPLES / "overhead_miss.mp4", t0, t1, tmp_path / "b.mp4")
    assert abs(_seconds(clip) - 3.5) < 0.1


def test_breaks_come_from_the_statistics(day):
    log = day.store.log(day.runs["t2"])
    calls = [d["decision"] for d in day.store.decisions(day.runs["t2"])]
    assert [(v.player, v.points) for v in high_breaks(log, calls, HighBreakParams(threshold=1))
            ] == [("Di", 6), ("Cy", 1)]
    assert high_breaks(log, calls, HighBreakParams(threshold=7)) == []


def test_a_clip_that_cannot_be_cut_says_why(tmp_path):
    with pytest.raises(ClipError, match="no such video file"):
        cut_clip(tmp_path / "gone.mp4", 0, 1, tmp_path / "x.mp4")
    with pytest.raises(ClipError, match="before it starts"):
        cut_clip(SAMPLES / "overhead_miss.mp4", 5, 4, tmp_path / "x.mp4")
    assert not is_file_source("rtsp://cam/1") and not is_file_source("0")
    assert is_file_source(SAMPLES / "overhead_miss.mp4")


def test_the_hall_and_the_report_link_the_clip(day, tmp_path):
    keep_high_breaks(day.store, day.runs["t2"], SAMPLES / "overhead_frame.mp4",
                     day.path.parent / "t2", COPY)
    html = render(day.store, day.runs["t2"], day.path.parent)
    assert "href='t2/breaks/frame1-shot3-Di-6.mp4'" in html and "6 by Di" in html
    assert clips_section(day.store, day.runs["t1"], day.path.parent) == ""
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from tracker.server.app import create_app

    client = TestClient(create_app(day.path, "tok"))
    t2 = client.get("/api/hall").json()["tables"][1]
    assert t2["high_breaks"] == [{"player": "Di", "points": 6, "frame": 1,
                                  "clip": "frame1-shot3-Di-6.mp4"}]
    r = client.get("/table/t2/breaks/frame1-shot3-Di-6.mp4")
    assert r.status_code == 200 and r.headers["content-type"] == "video/mp4"
    assert r.content == (day.path.parent / "t2/breaks/frame1-shot3-Di-6.mp4").read_bytes()
    assert client.get("/table/t1/breaks/frame1-shot3-Di-6.mp4").status_code == 404
    assert [b["points"] for b in client.get("/api/table/t2/breaks").json()] == [6]


def test_the_run_keeps_its_breaks_when_it_ends_from_a_file_only(day):
    from types import SimpleNamespace

    from tracker.outputs.highbreaks import HighBreakClips

    writer = SimpleNamespace(run_id=day.runs["t2"])
    live = HighBreakClips(day.path, writer, "rtsp://cam2/stream", day.path.parent / "t2", COPY)
    live.on_end(None, {"video_end": "complete"})
    assert live.kept == [] and kept_breaks(day.store) == []  # a stream: nothing to cut
    clips = HighBreakClips(day.path, writer, str(SAMPLES / "overhead_frame.mp4"),
                           day.path.parent / "t2", COPY)
    clips.on_end(None, {"video_end": "complete"})
    assert [b["points"] for b in clips.kept] == [6]
    assert (day.path.parent / "t2" / "breaks" / "frame1-shot3-Di-6.mp4").is_file()
