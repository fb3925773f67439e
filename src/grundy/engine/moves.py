"""Kernel pieces shared by the engines: the moves of heap ``n`` that need no scan.

Marking the moves that leave at most one heap, and listing the sizes
``m = n - k`` that a split digit ``k`` cuts in two, are the same in every
engine; only what is done with the splits differs.
"""

from __future__ import annotations

from ._jit import kernel


@kernel
def _mark_small_moves(g, n, take_all, leave_one, seen, stamp):
    """Stamp the values of the moves from ``n`` that leave no heap or one heap."""
    for k in take_all:
        if n == k:
            seen[0] = stamp
    for k in leave_one:
        if n - k >= 1:
            seen[g[n - k]] = stamp


@kernel
def _split_sizes(n, split, ms):
    """Write into ``ms`` each ``m = n - k >= 2`` (``k`` a split digit); return how many."""
    nm = 0
    for k in split:
        if n - k >= 2:
            ms[nm] = n - k
            nm += 1
    return nm
