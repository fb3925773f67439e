"""Small work without numba: the dense method in plain numpy, for a few thousand heaps.

Importing numba and loading its first kernel costs about a second; a command
that asks for a thousand heaps is done in plain numpy in a fraction of that.
Each heap is one vectorised XOR per split digit (``G(a) XOR G(m - a)`` for
every ``a``), a scatter into a stamp table and a search for the first
unstamped entry: linear numpy work per heap, quadratic in all, so it is used
only up to :data:`SMALL_HEAPS` (:func:`grundy.engine.compute` decides).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import ValueRangeError
from . import dense

SMALL_HEAPS = 4096
"""The most heaps computed here when numba is not loaded yet."""
SMALL_HEAPS_HEX = 160
"""The same for codes with three-heap moves (cubic work per heap)."""


def suits(code, heaps: int) -> bool:
    """Whether ``heaps`` heaps of ``code`` are small work."""
    return heaps <= (SMALL_HEAPS_HEX if code.hexadecimal else SMALL_HEAPS)


def run(
    code, heaps: int, prefix: np.ndarray, on_chunk: Callable[[np.ndarray], None] | None = None
) -> np.ndarray:
    """Extend ``prefix`` to ``heaps`` values, as :func:`dense.run` does (same values, same type)."""
    max_value = dense.MAX_VALUE
    dense.check_prefix(prefix, code, max_value)
    g = np.zeros(heaps, dtype=np.int64)
    g[: prefix.size] = prefix
    top = int(prefix.max()) if prefix.size else 0
    stamp = np.full(dense.table_size(max(top, 1)), -1, dtype=np.int64)
    take_all = set(code.take_all)
    for n in range(max(prefix.size, 1), heaps):
        parts = [g[n - k : n - k + 1] for k in code.leave_one if n - k >= 1]
        for k in code.split_two:
            m = n - k
            half = code.split_top(k, m)
            if half >= 1:
                parts.append(g[1 : half + 1] ^ g[m - 1 : m - half - 1 : -1])
        for k in code.split_three:
            parts.extend(_three_heaps(g, n - k))
        if parts:
            stamp[np.concatenate(parts)] = n
        if n in take_all:
            stamp[0] = n
        free = np.flatnonzero(stamp != n)
        value = int(free[0]) if free.size else stamp.size
        if value > max_value:
            raise ValueRangeError(
                f"heap {n} of {code} is worth more than {max_value}, the largest value supported"
            )
        g[n] = value
        if value > top:
            top = value
            if dense.table_size(top) > stamp.size:
                wider = np.full(dense.table_size(top), -1, dtype=np.int64)
                wider[: stamp.size] = stamp
                stamp = wider
    values = g.astype(_smallest(top))
    if on_chunk is not None:
        on_chunk(values)
    return values


def _three_heaps(g: np.ndarray, m: int) -> list[np.ndarray]:
    """The values of every split of ``m`` into three non-empty heaps ``a <= b <= c``."""
    out = []
    for a in range(1, m // 3 + 1):
        rest = m - a
        b_hi = rest // 2
        if b_hi >= a:
            out.append(g[a] ^ g[a : b_hi + 1] ^ g[rest - a : rest - b_hi - 1 : -1])
    return out


def _smallest(top: int) -> np.dtype:
    for dt in dense.DTYPES:
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise ValueRangeError(f"value {top} does not fit 32 bits")
