"""What the run's memory settings cost (issue 28's soak: ``tracker/memory.py``, the read-ahead
queues of ``tracker/live.py``).

    python bench/allocator.py [VIDEO] [--repeats 2] [--max-frames N]

Runs ``snooker-tracker process VIDEO`` (default: the bundled sample) in child processes, each
setting in turn, ``--repeats`` times:

- before: the default until issue 28's second soak stop: read-ahead queues of 320 MiB / 48
  frames each, glibc's allocator as it comes (no trims);
- the default: short read-ahead queues (``FeedParams``) and the heap's free pages given back
  while the table is still (``HeapTrimmer``, ``TrimParams``);
- the default without trims (what the trims alone cost);
- steady: ``--steady-memory`` (glibc's mmap threshold fixed) with the short queues.

It prints each run's wall-clock, user and system CPU seconds and the peak resident memory
(the child's own ``wait4`` figures), then the medians per setting, and whether every setting
made the same calls (``decisions.jsonl`` byte for byte). Measured, not asserted: the machine
is shared, quote the medians of one invocation.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tracker" / "examples" / "overhead_frame.mp4"
_MAIN = "import sys; from tracker.cli import main; sys.exit(main())"
_OLD_QUEUES = ("import dataclasses, tracker.live as L; L.FEED = dataclasses.replace(L.FEED, "
               "look_ahead_bytes=320 * 2**20, look_ahead_max_frames=48); ")
_NO_TRIM = ("import dataclasses, tracker.memory as M; M.TRIM = dataclasses.replace(M.TRIM, "
            "every_s=float('inf')); ")
#: setting: (code run in the child, extra ``process`` options)
SETTINGS: dict[str, tuple[str, list[str]]] = {
    "before (320 MiB / 48-frame queues, no trims)": (_OLD_QUEUES + _NO_TRIM + _MAIN, []),
    "default (short queues, trims while still)": (_MAIN, []),
    "short queues, no trims": (_NO_TRIM + _MAIN, []),
    "short queues, --steady-memory": (_MAIN, ["--steady-memory"]),
}


def one_run(code: str, video: Path, out: Path, flags: list[str]) -> tuple[float, float, float,
                                                                          float]:
    """``process video --out out`` in a child: (wall s, user s, system s, peak resident MB)."""
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-c", code, "process", str(video), "--out", str(out),
                          "--quiet", *flags], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    err = p.stderr.read() if p.stderr else ""
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    if p.returncode:
        raise SystemExit(f"process failed on {video}: {err.strip().splitlines()[-1:]}")
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("video", nargs="?", type=Path, default=SAMPLE)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--max-frames", type=int, default=None,
                    help="referee only the first N frames of the video")
    args = ap.parse_args()
    extra = ["--max-frames", str(args.max_frames)] if args.max_frames else []
    rows: dict[str, list[tuple[float, float, float, float]]] = {k: [] for k in SETTINGS}
    calls: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeats):
            for name, (code, flags) in SETTINGS.items():
                out = Path(tmp) / "run"
                rows[name].append(one_run(code, args.video, out, [*flags, *extra]))
                calls[name] = (out / "decisions.jsonl").read_bytes()
                shutil.rmtree(out)
                w, u, s, m = rows[name][-1]
                print(f"{name}, run {rep + 1}: wall {w:.1f} s, user {u:.1f} s, system {s:.1f} s,"
                      f" peak {m:.0f} MB", flush=True)
    print("| setting | wall s | user s | system s | CPU s | peak resident MB |")
    print("|---|---|---|---|---|---|")
    for name, runs in rows.items():
        w, u, s, m = (statistics.median(x) for x in zip(*runs, strict=True))
        print(f"| {name} | {w:.1f} | {u:.1f} | {s:.1f} | {u + s:.1f} | {m:.0f} |")
    print("calls equal:", len(set(calls.values())) == 1)


if __name__ == "__main__":
    main()
