"""Kernel pieces shared by the engines: the moves of heap ``n`` that need no scan.

Marking the moves that leave at most one heap, and listing the sizes
``m = n - k`` that a split digit ``k`` cuts in two, are the same in every
engine; only what is done with the splits differs.

**Unequal splits.**  A split digit reaches a kernel as one int64 word of the
``split`` array (:func:`split_digits`): ``k``, plus ``1 << 32`` when the digit
carries ``!`` (its two heaps must differ).  :func:`_split_sizes` keeps that
bit on each size it writes, ``m | u << 32``, so an entry ``e`` of ``ms``
gives the size ``m = e & 0xFFFFFFFF`` and the last pair ``(a, m - a)`` of a
scan, ``a = ((e & 0xFFFFFFFF) - (e >> 32)) >> 1``: ``m // 2``, or
``(m - 1) // 2`` when the heaps must differ.  A kernel that scans
``1 <= a <=`` that never meets the equal split ``(m/2, m/2)`` of a ``!``
digit; one that walks the rare heaps ``x < m`` skips ``x = m/2`` itself.
For codes without ``!`` every word is the plain ``k`` and every entry the
plain ``m``, and the kernels spell the arithmetic out where it runs (a call
to a helper for it cost ``·16`` a fifth of its time).
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel

UNEQUAL_BIT = 32
"""The bit of a ``split`` word (and of an ``ms`` entry) that says the two heaps must differ."""


def split_digits(code) -> np.ndarray:
    """The split digits of ``code`` as the kernels take them: ``k``, plus ``1 << 32`` for a ``!``
    digit (module docstring)."""
    return np.asarray(
        [k | (int(k in code.unequal) << UNEQUAL_BIT) for k in code.split_two], dtype=np.int64
    )


@kernel(inline="always")
def _mark_small_moves(g, n, take_all, leave_one, seen, stamp):
    """Stamp the values of the moves from ``n`` that leave no heap or one heap.

    Inlined by numba into every kernel that calls it: once a fifth kernel called it, the
    ahead-of-time build stopped inlining it into the sparse kernel, and ``·744`` to ``2^20``
    heaps took 1.07 of its time, each heap paying a call.
    """
    for k in take_all:
        if n == k:
            seen[0] = stamp
    for k in leave_one:
        if n - k >= 1:
            seen[g[n - k]] = stamp


@kernel
def _split_sizes(n, split, ms):
    """Write into ``ms`` each ``m = n - k`` of a split digit that can split it (``m >= 2``, or
    ``m >= 3`` when its heaps must differ), with the digit's bit 32 kept; return how many."""
    nm = 0
    for e in split:
        if e >> 32:
            m = n - (e & 0xFFFFFFFF)
            if m >= 3:
                ms[nm] = m | (1 << 32)
                nm += 1
        elif n - e >= 2:
            ms[nm] = n - e
            nm += 1
    return nm
