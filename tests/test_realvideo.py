"""Real video as it comes: repeated frames, the first seconds, cuts away from the table and
back, a clip that starts mid-frame. The tests on real frames read ../shared/footage where it
lies (never copied) and skip when it is absent; spliced clips are written to tmp files."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.table import STANDARD_TABLE as T
from tracker.cadence import FrameCadence

FOOTAGE = Path(__file__).resolve().parents[2] / "shared" / "footage"
CLIPS = FOOTAGE / "broadcast-snooker" / "clips"
needs_clips = pytest.mark.skipif(not CLIPS.exists(), reason="shared footage absent")


def _read(path: Path, first: int = 0, last: int | None = None) -> list[np.ndarray]:
    cap = cv2.VideoCapture(str(path))
    out, i = [], 0
    while True:
        ok, img = cap.read()
        if not ok or (last is not None and i > last):
            break
        if i >= first:
            out.append(img)
        i += 1
    cap.release()
    return out


def _write(path: Path, frames: list[np.ndarray], fps: float) -> Path:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
    for f in frames:
        out.write(f)
    out.release()
    return path


# ------------------------------------------------------------------ repeated frames
def _pulldown(n: int, period: int | None) -> list[np.ndarray]:
    """A dot crossing a noisy picture, every ``period``-th frame repeating the one before."""
    rng = np.random.default_rng(1)
    base = rng.integers(60, 120, (360, 640, 3), dtype=np.uint8)
    out, pic = [], 0
    for i in range(n):
        if period and i % period == period - 1 and out:
            out.append(out[-1].copy())
            continue
        img = base.copy()
        # people moving at the side and sensor noise: every picture changes somewhat
        img[:, :40] = rng.integers(0, 255, (360, 40, 3), dtype=np.uint8)
        cv2.circle(img, (40 + 12 * pic, 180), 8, (255, 255, 255), -1)
        out.append(img)
        pic += 1
    return out


def test_repeated_frames_are_found_and_skipped_on_the_picture_clock():
    frames = _pulldown(60, 6)
    cad = FrameCadence.learn(frames, 30.0)
    assert cad.period == 6 and cad.picture_fps == pytest.approx(25.0)
    ticks = [cad.tick(f, i) for i, f in enumerate(frames)]
    repeats = [i for i, t in enumerate(ticks) if t is None]
    assert repeats == list(range(5, 60, 6))
    pics = [t for t in ticks if t is not None]
    assert pics == list(range(len(pics)))  # every new picture, in order, none lost


def test_a_video_without_repeats_is_read_frame_by_frame():
    frames = _pulldown(60, None)
    cad = FrameCadence.learn(frames, 25.0)
    assert cad.period is None and cad.picture_fps == 25.0
    assert [cad.tick(f, i) for i, f in enumerate(frames)] == list(range(60))
    still = [frames[0]] * 30  # a still picture shows no repeats either
    assert FrameCadence.learn(still, 25.0).period is None


@needs_clips
def test_the_broadcast_clips_repeat_one_picture_in_six():
    """Clip 1 is 25 pictures a second published at 30: the cadence is found on the table
    (the ticker under it changes every frame), and the picture clock keeps video time."""
    from calibration.auto import calibrate_best
    from tracker.cadence import table_mask

    frames = _read(CLIPS / "1.mp4")
    cal = calibrate_best(frames[:60:8], T)
    cad = FrameCadence.learn(frames[:60], 30.0, table_mask(cal))
    assert cad.period == 6
    pics = [cad.tick(f, i) for i, f in enumerate(frames)]
    seen = [p for p in pics if p is not None]
    assert seen == sorted(set(seen))
    # the last picture's time on the picture clock is the video's time within two pictures
    assert abs(seen[-1] / cad.picture_fps - (len(frames) - 1) / 30.0) <= 2 / 25.0


# ------------------------------------------------------------------ the view monitor
@needs_clips
def test_the_monitor_keeps_the_main_view_and_drops_other_views():
    """Built on clip 1's first seconds: every main-camera frame of clip 1 (score bar, the
    striker down on the shot, a ticker) is its view; its closing close-up, and main-camera
    frames of other tables (clips 5 and 7: other venues, other framing) are not."""
    from calibration.monitor import ViewMonitor
    from calibration.startup import find_start
    from tracker.sources import Frame

    frames = _read(CLIPS / "1.mp4")
    start = find_start(iter(Frame(i, i / 30, f) for i, f in enumerate(frames)), 30.0, T)
    mon = ViewMonitor(start.calibration, check_every=1, reference=start.samples)
    main = frames[:250:10]
    assert all(mon.signature.same_view(f)[0] for f in main)
    assert not mon.signature.same_view(frames[-1])[0]  # the close-up that ends the clip
    for other in (5, 7):
        for f in _read(CLIPS / f"{other}.mp4", 0, 40)[::20]:
            assert not mon.signature.same_view(f)[0], other


@needs_clips
@pytest.mark.parametrize("monitor_ahead", [True, False])
def test_a_spliced_video_is_refereed_on_its_main_view_only(tmp_path, monitor_ahead):
    """Clip 1, then clip 5 (another table: a cut), then clip 1 again: the frames of clip 5
    are not refereed, refereeing resumes when clip 1 comes back, and the red potted in clip 1
    is called; the same whether the view monitor works ahead on its own thread (with the
    decoder thread, as `process` runs a file) or in the pipeline's loop."""
    from tracker.pipeline import process_video

    one = _read(CLIPS / "1.mp4", 0, 200)
    five = _read(CLIPS / "5.mp4", 0, 29)
    video = _write(tmp_path / "spliced.mp4", one[:90] + five + one[90:], 30.0)
    out = tmp_path / "out"
    res = process_video(video, out, progress=False, detector="colour",
                        decode_thread=monitor_ahead)
    board = json.loads((out / "scoreboard.json").read_text())
    away = board["not_refereed"]
    assert len(away) == 1
    t0, t1 = away[0]
    assert abs(t0 - 90 / 30) <= 0.1 and abs(t1 - 120 / 30) <= 0.1
    assert 28 <= res.not_refereed_frames <= 32
    pots = [e.ball for s in res.shots for e in s.events if e.type == "pot"]
    assert [b.split("_")[0] for b in pots] == ["red"]


# ------------------------------------------------------------------ a clip that starts mid-frame
@needs_clips
def test_a_clip_that_starts_mid_frame_is_taken_up_from_the_table_seen(tmp_path):
    """Clip 1 opens late in a frame (three reds, the six colours, the striker down on the
    cue ball): the frame starts from that layout, and the log says the start was observed
    and what was seen (counted by eye on its first frame: 3 reds, 6 colours, the white)."""
    from tracker.pipeline import process_video
    from tracker.records.parse import read_log

    out = tmp_path / "out"
    process_video(CLIPS / "1.mp4", out, progress=False, max_frames=70)
    start = json.loads((out / "decisions.jsonl").read_text().splitlines()[0])
    note = " ".join(start["notes"])
    assert "the video starts mid-frame" in note and "3 reds" in note
    assert "colours the yellow, the green, the brown, the blue, the pink and the black" in note
    recs = [rec for _, rec in read_log(out / "match.log.jsonl")]
    pos = recs[0].positions
    assert sum(b.startswith("red") for b in pos) == 3 and "white" in pos and len(pos) == 10
