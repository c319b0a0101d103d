"""Live stream: a sample served from this machine at its own rate, refereed as it comes.

    python bench/live_stream.py [--via http|pipe] [--video sample_videos/overhead_frame.mp4]

ffmpeg (the binary imageio-ffmpeg ships) serves the sample, preceded by PAD_S seconds of its
first frame (a camera that streams before play starts, while the run learns the table), at
its own frame rate (``-re``): over HTTP (``-listen 1``, MPEG-TS, the H.264 copied; the run
reads the URL like a camera's) or as raw BGR frames on a pipe. The run is
``process_video(URL or pipe, ...)`` in this process with the sample's operator inputs.

Measured, on the machine's monotonic clock:

- lag: for every frame processed, the time from its arrival to the end of its processing
  (median, worst): "no backlog" means the lag stays bounded, a frame or two;
- call latency: for every stroke, from the arrival of the frame in which the last ball of
  the stroke stops moving (ground truth of the synthetic clip) to its call printed
  (``on_call``: the early call, docs/LIVE.md "Latency"); the pipeline's own part: from the
  arrival of the frame that made the call to the call; and from the stop to the stroke's
  record in the match store (after the stroke detector's settle time: what the live pages
  show). Calls said again, corrected, are counted.

Writes the "Live stream" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PAD_S = 5.0


def _ffmpeg() -> str:
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()


def padded(video: Path, work: Path, fps: float) -> Path:
    """The video after PAD_S s of its first frame (H.264, a key frame every second)."""
    out = work / f"{video.stem}-padded.mp4"
    if not out.exists():
        subprocess.run([_ffmpeg(), "-loglevel", "error", "-y", "-i", str(video), "-vf",
                        f"tpad=start_duration={PAD_S}:start_mode=clone", "-c:v", "libx264",
                        "-preset", "veryfast", "-crf", "18", "-g", str(int(fps)),
                        "-pix_fmt", "yuv420p", str(out)], check=True)
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _truth(video: Path) -> tuple[dict, float, dict[int, float]]:
    """The clip's truth (its ``.gt.json.gz``), its frame rate and when each stroke's last ball
    stops (stroke -> s)."""
    with gzip.open(video.with_suffix(".gt.json.gz")) as fh:
        gt = json.loads(fh.read())
    fps = float(gt["summary"]["fps"])
    stops: dict[int, float] = {}
    for f in gt["frames"]:
        if any(b["moving"] for b in f["balls"].values()):
            stops[f["shot"]] = f["t"]
    return gt, fps, stops


def fastest_mm_s(gt: dict, fps: float, k: int) -> float:
    """The fastest ball's speed (mm/s, truth) at the video's frame ``k``."""
    if not 0 < k < len(gt["frames"]):
        return float("nan")
    a, b = gt["frames"][k - 1]["balls"], gt["frames"][k]["balls"]
    return max((float(np.hypot(*np.subtract(b[n]["xy"], a[n]["xy"]))) * fps
                for n in b if n in a), default=0.0)


class Watch:
    """What the run does, on the monotonic clock: each frame's arrival and lag (``clock``),
    when each stroke's record reaches the listeners (``grab``) and its call is printed
    (``on_call``)."""

    def __init__(self) -> None:
        from tracker.pipeline import RunListener

        self.arrived: dict[int, float] = {}
        self.lags: list[float] = []
        self.lag_at: list[tuple[float, float]] = []
        self.calls: dict[int, tuple[float, int]] = {}  # shot -> (time printed, frame that made it)
        self.recorded: dict[int, float] = {}  # shot -> time its record reached the listeners
        self.corrected: list[int] = []
        self.startup: list[float] = []
        self.run = None
        watch = self

        class Clock(RunListener):
            def on_frame(self, run, view):
                now = time.monotonic()
                if view.frame.arrived is not None:
                    watch.arrived[view.frame.index] = view.frame.arrived
                    if not watch.startup:  # the first frame waited for the calibration
                        watch.startup.append(now - view.frame.arrived)
                        return
                    watch.lags.append(now - view.frame.arrived)
                    watch.lag_at.append((now - view.frame.arrived, view.frame.t))

        class Grab(RunListener):
            def on_record(self, run, record, decisions):
                watch.run = run
                if getattr(record, "shot", None) and hasattr(record, "events"):
                    watch.recorded.setdefault(record.shot, time.monotonic())

        self.clock, self.grab = Clock(), Grab()

    def on_call(self, text: str) -> None:
        m = re.match(r"(CORRECTED: )?Shot (\d+)", text)
        if not m:
            return
        shot = int(m.group(2))
        if m.group(1):
            self.corrected.append(shot)
        elif self.run is not None and self.run.strokes.prev is not None:
            # the frame in hand: the last one the stroke detector was given
            self.calls.setdefault(shot, (time.monotonic(), self.run.strokes.prev.frame))


def _serve(via: str, src_file: Path, gt: dict, fps: float):  # noqa: ANN202
    """ffmpeg serving ``src_file`` at its own rate, and the run's source reading it."""
    from tracker.sources import CaptureSource, RawPipeSource

    if via == "http":
        url = f"http://127.0.0.1:{_free_port()}/table.ts"
        server = subprocess.Popen([_ffmpeg(), "-loglevel", "error", "-re", "-i", str(src_file),
                                   "-c", "copy", "-f", "mpegts", "-listen", "1", url])
        time.sleep(1.0)
        return server, CaptureSource(url, give_up_s=2.0)  # the served file's end: not a drop
    server = subprocess.Popen([_ffmpeg(), "-loglevel", "error", "-re", "-i", str(src_file),
                               "-f", "rawvideo", "-pix_fmt", "bgr24", "-"],
                              stdout=subprocess.PIPE)
    return server, RawPipeSource(server.stdout, tuple(gt["summary"]["image_size"]), fps)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--via", choices=("http", "pipe"), default="http")
    ap.add_argument("--no-docs", action="store_true", help="print only")
    a = ap.parse_args()

    from tracker.pipeline import inputs_from_log, process_video, spoken_from_log

    video = Path(a.video)
    gt, fps, stops = _truth(video)
    work = Path(tempfile.gettempdir()) / "snooker-live-stream"
    work.mkdir(exist_ok=True)
    src_file = padded(video, work, fps)
    log = video.with_suffix(".log.jsonl")
    watch = Watch()
    server, source = _serve(a.via, src_file, gt, fps)
    t0 = time.monotonic()
    cpu0 = time.process_time()
    with tempfile.TemporaryDirectory() as out:
        res = process_video(source, out, players=("Ann", "Bob"), progress=False,
                            inputs=inputs_from_log(log), spoken=spoken_from_log(log),
                            listeners=[watch.clock, watch.grab], on_call=watch.on_call,
                            on_note=lambda s: print(s, file=sys.stderr))
    wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
    server.wait(timeout=30)
    text = "\n".join(_report(a.via, video, fps, stops, gt, watch, res, wall, cpu)) + "\n"
    print(text)
    if not a.no_docs:
        from tracker.evaluate import replace_section

        replace_section(ROOT / "docs" / "BENCHMARKS.md", "Live stream", text)
    return 0


def _report(via: str, video: Path, fps: float, stops: dict[int, float], gt: dict,
            watch: Watch, res, wall: float, cpu: float) -> list[str]:  # noqa: ANN001
    """The "Live stream" section's lines."""
    rows = []
    arrived = watch.arrived
    for shot, (t_call, made_by) in sorted(watch.calls.items()):
        stop_idx = int(round((stops.get(shot, 0.0) + PAD_S) * fps))
        if stop_idx not in arrived or made_by not in arrived:
            continue
        rows.append((shot, t_call - arrived[stop_idx], t_call - arrived[made_by],
                     watch.recorded.get(shot, float("nan")) - arrived[stop_idx],
                     fastest_mm_s(gt, fps, made_by - int(round(PAD_S * fps)))))
    e2e = [r[1] for r in rows]
    own = [r[2] for r in rows]
    rec = [r[3] for r in rows]
    lags = watch.lags
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    lines = [
        "## Live stream", "",
        f"Measured {datetime.date.today()} on {platform.machine()} with {os.cpu_count()} cores "
        f"(shared with other work), commit `{commit}`, by `python bench/live_stream.py --via "
        f"{via}`: `{video.name}` after {PAD_S:.0f} s of its first frame, served by ffmpeg at "
        f"its own rate ({fps:.0f} fps, `-re`) "
        + ("over HTTP on 127.0.0.1 (MPEG-TS, H.264 copied), read as a stream URL"
           if via == "http" else "as raw BGR frames on a pipe") + ".", "",
        f"- frames: {res.frames} in {wall:.1f} s wall, {cpu:.1f} s CPU of this process; "
        f"{res.startup_skipped} came while the run learnt the table (before play), "
        f"{res.skipped_frames} skipped to keep up ({res.skipped_forced} while balls moved), "
        f"{res.dropped_frames} dropped unread, not refereed {res.not_refereed_frames}",
        f"- start-up (calibration, learning the cloth and colours) {watch.startup[0]:.1f} s",
        f"- lag from a frame's arrival to the end of its processing: median "
        f"{statistics.median(lags) * 1000:.0f} ms, worst {max(lags) * 1000:.0f} ms "
        f"({len(lags)} frames)",
        "- frames that waited longest (lag s at stream time s): "
        + ", ".join(f"{lg:.2f} at {t:.1f}" for lg, t in sorted(watch.lag_at, reverse=True)[:5]),
        f"- strokes called {len(watch.calls)} (score {res.score}); calls said again, corrected: "
        f"{len(watch.corrected)} (the early call against the stroke's end, docs/LIVE.md)", "",
        "Balls stopped: the frame after which no ball moves at all (the clip's truth); a "
        "negative time is a call made while the last ball still crept, slower than the "
        "tracker's rest speed (40 mm/s): its speed then is in the last column.", "",
        "| stroke | balls stopped → call printed (s) | frame that made the call → call (s) "
        "| balls stopped → record in the store (s) | fastest ball when the call was made "
        "(mm/s, truth) |", "|---|---|---|---|---|"]
    for shot, e, o, r, v in rows:
        lines.append(f"| {shot} | {e:.2f} | {o:.3f} | {r:.2f} | {v:.0f} |")
    if rows:
        lines += [f"| **median / worst** | **{statistics.median(e2e):.2f} / {max(e2e):.2f}** | "
                  f"**{statistics.median(own):.3f} / {max(own):.3f}** | "
                  f"{statistics.median(rec):.2f} / {max(rec):.2f} | |"]
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
