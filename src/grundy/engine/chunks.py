"""Chunk sizes for the engine drivers.

Kernels run in chunks of about a quarter of a second: long enough to amortise
the call, short enough that progress bars move, checkpoints land on time and
Ctrl-C is answered promptly.  A chunk grows at most fourfold from one to the
next, so a run that starts fast still passes through several chunks (and
checkpoints) instead of jumping to the end in one call.
"""

from __future__ import annotations

CHUNK_SECONDS = 0.25
FIRST_CHUNK = 1024
_GROWTH = 4.0
_SMALLEST, _LARGEST = 64, 1 << 24


def next_chunk(heaps: int, elapsed: float, seconds: float = CHUNK_SECONDS) -> int:
    """The next chunk size, after ``heaps`` heaps took ``elapsed`` seconds."""
    if elapsed <= 0:
        return max(_SMALLEST, min(int(heaps * _GROWTH), _LARGEST))
    scale = min(seconds / elapsed, _GROWTH)
    return int(min(max(heaps * scale, _SMALLEST), _LARGEST))
