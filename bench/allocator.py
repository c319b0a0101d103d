"""What the run's allocator setting costs (issue 28's soak memory fix, ``tracker/memory.py``).

    python bench/allocator.py [VIDEO] [--repeats 2]

Runs ``snooker-tracker process VIDEO`` (default: the bundled sample) in child processes, in
turn with ``--steady-memory`` (glibc's mmap threshold fixed: whole pictures given back when let
go) and without it (glibc's own dynamic threshold, the default), and
prints each run's wall-clock, user and system CPU seconds and the medians per setting. The
calls are compared too (``decisions.jsonl`` equal). Measured, not asserted: the machine is
shared, quote the medians of one run.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tracker" / "examples" / "overhead_frame.mp4"
SETTINGS = {
    "fixed (process --steady-memory)": "import sys; from tracker.cli import main; sys.exit(main())",
    "glibc's dynamic threshold (the default)": ("import sys; from tracker.cli import main; "
                                                "sys.exit(main())"),
}
#: the extra process options of each setting
FLAGS = {"fixed (process --steady-memory)": ["--steady-memory"],
         "glibc's dynamic threshold (the default)": []}


def one_run(code: str, video: Path, out: Path, flags: list[str]) -> tuple[float, float, float]:
    """``process video --out out`` in a child: (wall s, user s, system s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, "process", str(video), "--out", str(out),
                        *flags],
                       capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if r.returncode:
        raise SystemExit(f"process failed on {video}: {r.stderr.strip().splitlines()[-1:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("video", nargs="?", type=Path, default=SAMPLE)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    rows: dict[str, list[tuple[float, float, float]]] = {k: [] for k in SETTINGS}
    calls: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.repeats):
            for name, code in SETTINGS.items():
                out = Path(tmp) / f"run{len(calls)}"
                rows[name].append(one_run(code, args.video, out, FLAGS[name]))
                calls[name] = (out / "decisions.jsonl").read_bytes()
                shutil.rmtree(out)
                w, u, s = rows[name][-1]
                print(f"{name}, run {rep + 1}: wall {w:.1f} s, user {u:.1f} s, system {s:.1f} s",
                      flush=True)
    for name, runs in rows.items():
        w, u, s = (statistics.median(x) for x in zip(*runs, strict=True))
        print(f"| {name} | {w:.1f} | {u:.1f} | {s:.1f} | {u + s:.1f} |")
    print("calls equal:", len(set(calls.values())) == 1)


if __name__ == "__main__":
    main()
