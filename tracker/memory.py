"""The C allocator set for a long day of full-size pictures (issue 28's soak).

Every frame of a 720p video is a 2.7 MB picture, decoded on one thread and let go on another.
glibc's ``malloc`` serves such blocks with ``mmap`` and gives them back to the system when they
are freed, but only until the first such block is freed: it then raises its threshold to that
block's size (the "dynamic mmap threshold"), and from then on pictures come from its heaps,
where the holes left between blocks of different lives are kept. A run's resident memory then
climbs in steps that are never given back: the soak (``bench/soak.py``) measured +49 MB when a
knocked camera was re-calibrated (the new calibration's work on the view monitor's thread) and
+16 % over a day, while the memory Python and numpy hold (``tracemalloc``) stayed flat.

Setting the threshold turns the dynamic threshold off: blocks of :attr:`AllocatorParams.
mmap_threshold_bytes` and more are mapped and given back as soon as they are freed, so the
resident memory follows what the run holds. Only glibc on Linux is changed; elsewhere (and
when the person running it has set ``MALLOC_MMAP_THRESHOLD_`` themselves) nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from dataclasses import dataclass

#: glibc's ``mallopt`` parameter number for the mmap threshold (malloc.h ``M_MMAP_THRESHOLD``)
_M_MMAP_THRESHOLD = -3


@dataclass(frozen=True)
class AllocatorParams:
    """How the C allocator is set for a run.

    Attributes:
        mmap_threshold_bytes: blocks this large and larger are mapped on their own and given
            back to the system when freed: whole pictures (2.7 MB at 720p, 6.2 MB at 1080p)
            and more. The smaller working pictures stay on the heap, which reuses them
            frame after frame: with glibc's own starting value (128 KiB) fixed, every one of
            them was mapped and zeroed anew, and the first match of the synthetic match video
            took 74 s of system time instead of 12 (57 s to 118 s on the wall).
    """

    mmap_threshold_bytes: int = 2 * 2**20


ALLOCATOR = AllocatorParams()

_done = False


def steady_allocator(params: AllocatorParams = ALLOCATOR) -> bool:
    """Fix glibc's mmap threshold for this process (see the module docstring), once; returns
    whether it is fixed (False: not glibc, or the environment sets it already)."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        version = libc.gnu_get_libc_version  # glibc only (musl has neither)
    except (OSError, AttributeError):
        return False
    version.restype = ctypes.c_char_p
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    _done = bool(mallopt(_M_MMAP_THRESHOLD, int(params.mmap_threshold_bytes)))
    return _done

