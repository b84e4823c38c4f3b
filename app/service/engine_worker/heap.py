"""Keep freed memory in the process instead of handing it back to the kernel (glibc only).

Every engine run allocates the same few megabytes again (the recorded rows, the Result's
matrices) and every reply lands in a new block of that size. glibc's malloc serves a block of
more than M_MMAP_THRESHOLD (128 KB at first, raised by itself as such blocks are freed) with its
own mmap and unmaps it on free, and gives the top of the heap back to the kernel once more than
M_TRIM_THRESHOLD is free there. Either way the next run touches fresh pages, and a fresh page
costs a fault (~6 us in the VMs this was measured on: ~1,400 faults, 8-9 ms, per run on the
960-drive plan). Fixed thresholds keep those pages and reuse them. The cost is that the process
keeps its high-water mark, which the next run needs anyway.

Other C libraries (macOS, Windows, musl) have their own policies and are left alone.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import sys

# mallopt parameters (glibc's malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 32 << 20  # glibc's own ceiling for its dynamic threshold on 64-bit
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD  # what glibc's dynamic rule sets beside it


def keep_freed_memory() -> bool:
    """Fix the thresholds in this process; True if it took effect (glibc), False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def collect_due(threshold: tuple[int, int, int] | None = None) -> int | None:
    """Collect now the generations Python's collector would collect at its next allocation (by
    `threshold`, default gc.get_threshold()); the generation collected, or None. For a process
    that knows it is idle: the collection then does not land on work someone waits for."""
    t0, t1, t2 = threshold or gc.get_threshold()
    c0, c1, c2 = gc.get_count()
    if c0 <= t0:
        return None
    generation = 2 if c1 > t1 and c2 > t2 else 1 if c1 > t1 else 0
    gc.collect(generation)
    return generation
