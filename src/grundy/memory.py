"""Whether a request for ``N`` heaps fits in memory, decided before anything is allocated.

A sequence of ``N`` heaps holds at least one byte a heap (values are stored in
the smallest unsigned type), so a request whose values alone exceed the memory
available now is refused with the number of bytes it needs, instead of ending
in numpy's allocation error (or a swap storm) minutes later.  Where the memory
available cannot be read, the bound is :data:`FALLBACK_BYTES`.
"""

from __future__ import annotations

import os
import sys

from .errors import UsageError

BYTES_PER_HEAP = 1
"""The least a heap costs: one ``uint8`` value (wider types cost more)."""

FALLBACK_BYTES = 1 << 40
"""The bound (1 TiB) used where neither ``/proc/meminfo`` nor ``os.sysconf`` answers."""

MAX_HEAPS = sys.maxsize
"""The most elements one numpy array may have on this platform (``intp``'s largest value)."""


def available_bytes() -> int:
    """Memory available now: ``MemAvailable`` on Linux, else physical memory, else the fallback."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return FALLBACK_BYTES


def human_bytes(n: int) -> str:
    """``n`` bytes in binary units (``931.3 GiB``)."""
    if n < 1024:
        return f"{n:,} B"
    units = ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB")
    size, k = n / 1024, 0
    while size >= 1024 and k < len(units) - 1:
        size, k = size / 1024, k + 1
    return f"{size:,.1f} {units[k]}"


def check_heaps(heaps: int, available: int | None = None) -> None:
    """Refuse (:class:`UsageError`) ``heaps`` heaps whose values alone would not fit in memory."""
    need = int(heaps) * BYTES_PER_HEAP
    if heaps > MAX_HEAPS:
        raise UsageError(
            f"{heaps:,} heaps need {need:,} bytes ({human_bytes(need)}) for their values, "
            f"beyond the largest array numpy can make ({MAX_HEAPS:,} elements)"
        )
    free = available_bytes() if available is None else available
    if need > free:
        raise UsageError(
            f"{heaps:,} heaps need {need:,} bytes ({human_bytes(need)}) for their values alone, "
            f"more than the {human_bytes(free)} of memory available"
        )
