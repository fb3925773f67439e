"""A check of computed values by the definition of Grundy values, vectorised but kernel-free.

``G(n)`` must be the mex of the values of the moves from ``n``.  Checking that
at every heap proves the whole sequence by induction, at the cost of one numpy
pass per heap: far cheaper than the plain-Python reference at depths of ten
thousand heaps, and sharing no code with the engines.
"""

from __future__ import annotations

import numpy as np

from grundy.codes import Code, parse


def wrong_heaps(code: Code | str, values) -> list[int]:
    """The heaps ``n`` whose value is not the mex of their options' values (two-heap moves)."""
    code = parse(code)
    if code.hexadecimal:
        raise ValueError("three-heap moves are not covered here; use the reference engine")
    g = np.asarray(values, dtype=np.int64)
    bad = []
    for n in range(1, g.size):
        options = []
        for k in code.take_all:
            if k == n:
                options.append(np.zeros(1, np.int64))
        for k in code.leave_one:
            if 1 <= k < n:
                options.append(g[n - k : n - k + 1])
        for k in code.split_two:
            m = n - k
            if m >= 2:
                a = np.arange(1, m // 2 + 1)
                if k in code.unequal:  # '!': the two heaps must differ
                    a = a[a != m - a]
                options.append(g[a] ^ g[m - a])
        seen = np.unique(np.concatenate(options)) if options else np.zeros(0, np.int64)
        gaps = np.flatnonzero(seen != np.arange(seen.size))
        mex = int(gaps[0]) if gaps.size else int(seen.size)
        if mex != g[n]:
            bad.append(n)
    return bad
