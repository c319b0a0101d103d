"""What an idle live table costs per frame at 1080p25, looking at every picture or at one in
``FeedParams.idle_stride``.

    python bench/idle_table.py [--seconds 20] [--write-doc]

The idle table: the bundled sample's table as its last stroke left it (no rack, no match
set: ``process --wait``), held still for ``--seconds`` with sensor-like noise (ffmpeg
``noise``, H.264 ``veryfast``, a key frame every 10 s, as the samples), played as a live
camera at its own pace (a live :class:`tracker.sources.FrameSource` decoding the clip with
OpenCV, one frame every 1/25 s). For each stride (1: every picture, as before; the default)
a run of ``process_video`` on it, and the CPU seconds of each of its threads from /proc
from 2 s (the table learnt) to 2 s before the end (the camera still reading): the camera's
reading and decoding, the pipeline's own thread, the others (OpenCV's workers); per frame the
camera gave in that time. Also the pictures looked at and those let go. Writes the "An idle table" section of
docs/BENCHMARKS.md with ``--write-doc``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tracker.live as live  # noqa: E402
from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.listeners import RunListener  # noqa: E402
from tracker.pipeline import process_video  # noqa: E402
from tracker.sources import Frame, FrameSource, SourceEnd  # noqa: E402

SECTION = "## An idle table (live, 1080p25)"
SAMPLE = ROOT / "sample_videos" / "overhead_frame.mp4"
TCK = os.sysconf("SC_CLK_TCK")


def _ffmpeg() -> str:
    import imageio_ffmpeg

    return imageio_ffmpeg.get_ffmpeg_exe()


def idle_clip(work: Path, seconds: float) -> Path:
    """The sample's last picture held ``seconds`` with noise (H.264 1080p25)."""
    cap = cv2.VideoCapture(str(SAMPLE))
    cap.set(cv2.CAP_PROP_POS_FRAMES, cap.get(cv2.CAP_PROP_FRAME_COUNT) - 5)
    ok, img = cap.read()
    cap.release()
    assert ok, "the sample cannot be read"
    cv2.imwrite(str(work / "last.png"), img)
    out = work / "idle.mp4"
    subprocess.run([_ffmpeg(), "-loglevel", "error", "-y", "-loop", "1", "-i",
                    str(work / "last.png"), "-t", f"{seconds}", "-r", "25", "-vf",
                    "noise=alls=4:allf=t,format=yuv420p", "-c:v", "libx264", "-preset",
                    "veryfast", "-g", "250", str(out)], check=True)
    return out


class PacedCamera(FrameSource):
    """A video file given as a live camera: decoded by OpenCV (one thread) at its own pace."""

    live = True

    def __init__(self, path: Path):
        super().__init__()
        self.path, self.name, self.fps = path, "idle camera", 25.0

    def frames(self):
        cap = cv2.VideoCapture(str(self.path), cv2.CAP_FFMPEG, [cv2.CAP_PROP_N_THREADS, 1])
        t0, i = time.monotonic(), 0
        while True:
            ok, img = cap.read()
            if not ok:
                break
            time.sleep(max(0.0, t0 + i / self.fps - time.monotonic()))
            yield Frame(i, i / self.fps, img, arrived=time.monotonic())
            i += 1
        cap.release()
        self.end = SourceEnd("complete", i)


def thread_cpu() -> dict[str, float]:
    """CPU seconds of each live thread of this process, by name."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict[str, float] = {}
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/stat") as fh:
            f = fh.read().rsplit(")", 1)[1].split()
        name = names.get(int(tid), "other")
        out[name] = out.get(name, 0.0) + (int(f[11]) + int(f[12])) / TCK
    return out


class Meter(RunListener):
    """Thread CPU from the first picture looked at from ``after`` s to the last before
    ``until`` s (the camera's thread still reading)."""

    def __init__(self, after: float, until: float):
        self.after, self.until, self.a, self.b = after, until, None, None

    def on_frame(self, run, view):
        if self.after <= view.frame.t < self.until:
            now = (view.frame.index, thread_cpu())
            if self.a is None:
                self.a = now
            self.b = now


def one_run(clip: Path, stride: int, seconds: float) -> dict:
    live.FEED = replace(live.FEED, idle_stride=stride)
    meter = Meter(2.0, seconds - 2.0)
    res = process_video(PacedCamera(clip), None, wait=True, progress=False, listeners=[meter])
    (i0, a), (i1, b) = meter.a, meter.b
    n = max(1, i1 - i0)
    ms = {k: 1000 * (b.get(k, 0.0) - a.get(k, 0.0)) / n for k in b}
    return {"stride": stride, "frames": res.frames, "looked": res.times.frames,
            "idle": res.idle_frames, "skipped": res.skipped_frames, "calls": len(res.decisions),
            "read_ms": ms.get("frame-feed", 0.0), "main_ms": ms.get("MainThread", 0.0),
            "other_ms": sum(v for k, v in ms.items() if k not in ("frame-feed", "MainThread"))}


def section(rows: list[dict], seconds: float) -> str:
    lines = [SECTION, "", f"Measured {datetime.date.today()} on {platform.machine()} with 2 cores "
             f"(shared with other work), commit `{run_info('')['commit']}`, by `python bench/idle_table.py "
             f"--seconds {seconds:g} --write-doc`: the bundled sample's table as its last stroke "
             "left it (no rack, no match: `process --wait`), held still with noise and given as "
             "a live camera at 25 fps (decoded by OpenCV on one thread); CPU per frame the "
             "camera gave, from 2 s to 2 s before the end, per thread.", "",
             "| stride | pictures looked at / let go | calls | reading + decoding (ms) | "
             "pipeline (ms) | other threads (ms) | total (ms) |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        total = r["read_ms"] + r["main_ms"] + r["other_ms"]
        lines.append(f"| {r['stride']} | {r['looked']} / {r['idle']} | {r['calls']} | "
                     f"{r['read_ms']:.2f} | {r['main_ms']:.2f} | {r['other_ms']:.2f} | "
                     f"{total:.2f} |")
    if len(rows) == 2:
        pa, pb = (r["main_ms"] + r["other_ms"] for r in rows)
        a, b = pa + rows[0]["read_ms"], pb + rows[1]["read_ms"]
        lines += ["", f"Looking at one picture in {rows[1]['stride']} while idle, the pipeline's "
                  f"own work falls from {pa:.2f} to {pb:.2f} ms a frame and the table's whole "
                  f"cost from {a:.2f} to {b:.2f} ms ({100 * (1 - b / a):.0f} % less); what is "
                  "left is reading and decoding the stream, which every picture needs (an H.264 "
                  "picture depends on those before it). Nothing was called in either run."]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    default = live.FEED.idle_stride
    with tempfile.TemporaryDirectory() as work:
        clip = idle_clip(Path(work), args.seconds)
        rows = [one_run(clip, 1, args.seconds), one_run(clip, default, args.seconds)]
    text = section(rows, args.seconds)
    print(text)
    if args.write_doc:
        replace_section(ROOT / "docs" / "BENCHMARKS.md", SECTION.removeprefix("## "), text)


if __name__ == "__main__":
    main()
