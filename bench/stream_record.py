"""What the rolling recording for a live table's high-break clips costs, per frame, at 1080p.

    python bench/stream_record.py [--frames 500] [--video sample_videos/overhead_frame.mp4]
                                  [--write-doc]

The sample's first ``--frames`` pictures are decoded first (not counted), then handed one by
one to :class:`tracker.outputs.streamclips.RollingRecording` with its default parameters
(the referee's thread only queues a picture; the recording's thread scales it and writes it
to an ffmpeg process per segment), waiting for each to be written, as a live stream's pace
allows. Counted: CPU seconds of this process (the queueing and the recording's thread:
scaling, piping) and of the ffmpeg children (encoding), per frame; the disk the segments
take per minute of video; and one clip of 20 s cut from them by stream copy (CPU and wall).
Writes the "High-break clips from live streams" section of docs/BENCHMARKS.md with
``--write-doc``.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.runinfo import run_info  # noqa: E402
from tracker.evaluate import replace_section  # noqa: E402
from tracker.outputs.streamclips import DEFAULT_RECORDING, RollingRecording  # noqa: E402

SECTION = "## High-break clips from live streams"


def cpu() -> tuple[float, float]:
    """CPU seconds (user + system) of this process and of its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def measure(video: Path, n: int) -> dict:
    cap = cv2.VideoCapture(str(video))
    fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
    frames = []
    while len(frames) < n:
        ok, img = cap.read()
        if not ok:
            break
        frames.append(img)
    cap.release()
    with tempfile.TemporaryDirectory() as work:
        rec = RollingRecording(Path(work) / "rec", fps)
        (me0, kid0), t0 = cpu(), time.perf_counter()
        for i, img in enumerate(frames):
            rec.add(i, img)
            rec.wait_written()
        seg_bytes = sum(s.bytes for s in rec.segments)
        (me1, kid1), wall = cpu(), time.perf_counter() - t0
        # the last segment is finished by the cut; its bytes are counted after it
        cut_from, cut_to = max(0.0, len(frames) / fps - 20.0), len(frames) / fps
        (me2, kid2), t2 = cpu(), time.perf_counter()
        clip = rec.request_cut(cut_from, cut_to, Path(work) / "clip.mp4").result(timeout=120)
        (me3, kid3), cut_wall = cpu(), time.perf_counter() - t2
        total_bytes = sum(s.bytes for s in rec.segments)
        clip_mb = clip.stat().st_size / 1e6
        rec.close()
    del seg_bytes
    k = len(frames)
    return {"frames": k, "size": f"{frames[0].shape[1]}x{frames[0].shape[0]}", "fps": fps,
            "own_ms": 1000 * (me1 - me0) / k, "ffmpeg_ms": 1000 * (kid1 - kid0 + kid3 - kid2) / k,
            "wall_ms": 1000 * wall / k, "mb_per_min": total_bytes / 1e6 / (k / fps) * 60,
            "cut_cpu_s": (me3 - me2) + (kid3 - kid2), "cut_wall_s": cut_wall,
            "clip_s": cut_to - cut_from, "clip_mb": clip_mb}


def section(r: dict, args: argparse.Namespace) -> str:
    p = DEFAULT_RECORDING
    total = r["own_ms"] + r["ffmpeg_ms"]
    return (
        f"{SECTION}\n\nMeasured {datetime.date.today()} on {platform.machine()} with 2 cores "
        f"(shared with other work), commit `{run_info('')['commit']}`, by `python bench/stream_record.py "
        f"--frames {args.frames} --write-doc`: the first {r['frames']} pictures of "
        f"`{Path(args.video).name}` ({r['size']}, {r['fps']:g} fps) through the rolling "
        f"recording a live table keeps for its high-break clips "
        f"(`tracker/outputs/streamclips.py`, its defaults: {p.segment_s:g} s segments scaled "
        f"to {p.height} lines, libx264 `{p.preset}` crf {p.crf}, a key frame every "
        f"{p.key_every_s:g} s, {p.disk_mb:g} MB on disk at most), each picture written before "
        f"the next is handed over.\n\n"
        f"| per frame | CPU ms |\n|---|---|\n"
        f"| this process (handing over, scaling, piping) | {r['own_ms']:.2f} |\n"
        f"| ffmpeg (encoding) | {r['ffmpeg_ms']:.2f} |\n"
        f"| **together** | **{total:.2f}** |\n\n"
        f"That is {total * r['fps'] / 10:.1f} % of one core at {r['fps']:g} fps "
        f"(the referee's own loop is about 19 ms a frame with decoding, issue 28). Disk: "
        f"{r['mb_per_min']:.1f} MB a minute of video, so the default budget holds about "
        f"{p.disk_mb / max(r['mb_per_min'], 1e-9):.0f} minutes. A {r['clip_s']:.0f} s clip cut "
        f"from the segments (stream copy): {r['cut_cpu_s']:.2f} s of CPU, "
        f"{r['cut_wall_s']:.2f} s wall, {r['clip_mb']:.1f} MB.\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--video", default=str(ROOT / "sample_videos" / "overhead_frame.mp4"))
    ap.add_argument("--frames", type=int, default=500)
    ap.add_argument("--write-doc", action="store_true")
    args = ap.parse_args()
    r = measure(Path(args.video), args.frames)
    text = section(r, args)
    print(text)
    if args.write_doc:
        replace_section(ROOT / "docs" / "BENCHMARKS.md", SECTION.removeprefix("## "), text)


if __name__ == "__main__":
    main()
