"""A long day's memory (issue 28's soak): pictures let go are given back to the system
(tracker/memory.py), and the start window's frames are not held all day."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tracker.pipeline.process import let_go

ROOT = Path(__file__).resolve().parents[1]

#: A run's pictures in a child process: one 720p picture freed (glibc then raises its mmap
#: threshold to a picture's size), 60 made, all let go but the newest; prints how many MB
#: the process's resident memory grew.
_PICTURES = """
import sys
import numpy as np
if sys.argv[1] == "steady":
    from tracker.memory import steady_allocator
    assert steady_allocator()
from tracker.memory import HeapTrimmer, TrimParams
trimmer = HeapTrimmer(TrimParams(every_s=0.0))
def rss_mb():
    status = open("/proc/self/status").read().split("VmRSS:")[1]
    return int(status.split()[0]) / 1024
base = rss_mb()
first = np.ones(1280 * 720 * 3, np.uint8)
del first
pictures = [np.ones(1280 * 720 * 3, np.uint8) for _ in range(60)]
newest = pictures[-1]
del pictures
if sys.argv[1] == "trimmed":
    assert trimmer.quiet() and trimmer.trims == 1
print(rss_mb() - base)
"""


def _grown_mb(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", _PICTURES, mode], cwd=ROOT, check=True,
                         capture_output=True, text=True, env={"PATH": "", "PYTHONPATH": str(ROOT)})
    return float(out.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_pictures_let_go_are_given_back_to_the_system():
    """60 pictures (158 MB) let go but the newest: with the allocator as it comes, their
    memory stays with the process (the heap cannot shrink under the newest); once
    :func:`steady_allocator` has fixed the threshold, about one picture's worth is left."""
    as_it_comes, steady = _grown_mb("plain"), _grown_mb("steady")
    assert as_it_comes > 100.0
    assert steady < 12.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator only")
def test_a_trim_at_a_quiet_moment_gives_the_freed_pictures_back():
    """The same 60 pictures with the allocator as it comes, then one trim (the default run's
    quiet moment, :class:`tracker.memory.HeapTrimmer`): the freed pictures' memory is given
    back, about the newest picture's worth is left."""
    assert _grown_mb("trimmed") < 12.0


def test_trims_are_rate_limited():
    """No trim before ``every_s`` has passed since the last (or the run's start); none at all
    when turned off."""
    from tracker.memory import HeapTrimmer, TrimParams

    slow = HeapTrimmer(TrimParams(every_s=3600.0))
    assert not slow.quiet() and slow.trims == 0
    off = HeapTrimmer(TrimParams(every_s=float("inf")))
    assert not off.active and not off.quiet()
    if slow.active:  # glibc
        eager = HeapTrimmer(TrimParams(every_s=0.0))
        assert eager.quiet() and eager.quiet() and eager.trims == 2


def test_the_start_windows_frames_are_handed_on_in_order_and_let_go():
    """The frames come in order and the list no longer holds those handed on."""
    frames = list(range(5))
    it = let_go(frames)
    assert [next(it), next(it)] == [0, 1]
    assert sorted(frames) == [2, 3, 4]
    assert list(it) == [2, 3, 4] and frames == []
