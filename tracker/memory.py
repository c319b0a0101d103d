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
Fixing the threshold costs about 19 % more CPU at 1080p (every picture mapped and zeroed
anew), so it is asked for (``process --steady-memory``), not the default.

The default instead gives the heap's free pages back at quiet moments (:class:`HeapTrimmer`,
glibc's ``malloc_trim``): while the table is still, at most once every
:attr:`TrimParams.every_s` seconds. The holes between pictures that made the steps are free
memory, so a trim gives them back; pictures freed since are reused from the heap as glibc
does by itself, without the cost of mapping each one anew.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
import time
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



@dataclass(frozen=True)
class TrimParams:
    """When the heap's free pages are given back to the system (:class:`HeapTrimmer`).

    Attributes:
        every_s: at most one trim in this many seconds (wall clock). A trim costs a walk of
            the heap (well under a millisecond) and, later, the page faults of the memory
            it gave back when the heap grows again (a few ms for a queue of pictures), so
            once every few seconds is next to nothing; ``inf``: never (glibc's own).
        pad_bytes: free memory left at the top of each heap after a trim (``malloc_trim``'s
            argument).
    """

    every_s: float = 2.0
    pad_bytes: int = 0


#: When the default run gives back its heap's free pages (read when a run starts).
TRIM = TrimParams()


def _glibc_malloc_trim():
    """glibc's ``malloc_trim`` (None: not Linux with glibc)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    if not hasattr(libc, "gnu_get_libc_version"):  # glibc only (musl has neither)
        return None
    trim.argtypes = (ctypes.c_size_t,)
    trim.restype = ctypes.c_int
    return trim


class HeapTrimmer:
    """Gives the C heap's free pages back to the system at quiet moments, rate-limited
    (:class:`TrimParams`); does nothing where glibc is not the C library. ``trims`` counts
    the trims done and ``seconds`` the time they took (s)."""

    def __init__(self, params: TrimParams | None = None):
        self.params = params if params is not None else TRIM
        self._trim = _glibc_malloc_trim() if self.params.every_s != float("inf") else None
        self._last = time.monotonic()
        self.trims = 0
        self.seconds = 0.0

    @property
    def active(self) -> bool:
        """Whether trims are done at all (glibc, and not turned off)."""
        return self._trim is not None

    def quiet(self) -> bool:
        """A quiet moment (the table still): trims when ``every_s`` has passed since the last
        trim (or the run's start); returns whether it trimmed."""
        if self._trim is None:
            return False
        now = time.monotonic()
        if now - self._last < self.params.every_s:
            return False
        self._trim(int(self.params.pad_bytes))
        self._last = time.monotonic()
        self.trims += 1
        self.seconds += self._last - now
        return True
