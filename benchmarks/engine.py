"""Engine benchmark: the dense kernel against the reference and a plain numba loop.

Ratios are measured side by side in one run (the machines are shared and
noisy); absolute times are for the record.  Not part of the test suite.

    python benchmarks/engine.py            # the full set (about a minute)
    python benchmarks/engine.py --quick    # ratios only, a few seconds
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from grundy.codes import parse
from grundy.engine import _jit, compute, moves
from grundy.engine.reference import grundy_values

_mark_small_moves = _jit.jit(moves._mark_small_moves)
"""The engine's move-marking kernel as a numba dispatcher, which a plain ``@njit`` loop can call."""


@njit(cache=True)
def _plain_loop(g, take_all, leave_one, split):
    """The textbook kernel: mark every option of every heap in a seen array, then mex."""
    seen = np.zeros(1 << 16, dtype=np.int64)
    for n in range(1, g.shape[0]):
        stamp = n + 1
        _mark_small_moves(g, n, take_all, leave_one, seen, stamp)
        for k in split:
            m = n - k
            for a in range(1, m // 2 + 1):
                seen[g[a] ^ g[m - a]] = stamp
        c = 0
        while seen[c] == stamp:
            c += 1
        g[n] = c
    return g


def plain_loop(code, heaps):
    code = parse(code)
    take_all, leave_one, split_two = (np.asarray(ks, dtype=np.int64)
                                      for ks in (code.take_all, code.leave_one, code.split_two))
    return _plain_loop(np.zeros(heaps, dtype=np.int64), take_all, leave_one, split_two)


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="ratios only, small depths")
    args = ap.parse_args()
    _jit.bind()  # the engine's kernels become numba dispatchers that _plain_loop can call
    compute("·137", 100)
    plain_loop("·137", 100)

    print("side by side (best of 3):")
    for code, heaps in (("·137", 3000), ("·354", 3000)):
        t_ref, a = best_of(lambda code=code, heaps=heaps: grundy_values(parse(code), heaps), 1)
        t_dense, b = best_of(lambda code=code, heaps=heaps: compute(code, heaps, engine="dense"))
        assert list(a) == b.tolist()
        print(f"  {code:6} {heaps:>9,} heaps  reference {t_ref:8.3f} s  dense {t_dense:8.4f} s  "
              f"ratio {t_ref / t_dense:8.0f}x")
    for code, heaps in (("·354", 100_000), ("·6", 100_000)):
        t_plain, a = best_of(lambda code=code, heaps=heaps: plain_loop(code, heaps), 1)
        t_dense, b = best_of(lambda code=code, heaps=heaps: compute(code, heaps, engine="dense"), 1)
        assert np.array_equal(a, b)
        print(f"  {code:6} {heaps:>9,} heaps  plain numba loop {t_plain:7.2f} s  dense {t_dense:7.2f} s  "
              f"ratio {t_plain / t_dense:6.1f}x")
    if args.quick:
        return
    print("absolute (one run each):")
    for code, heaps in (("·354", 100_000), ("·354", 1_000_000), ("·6", 100_000)):
        t, v = best_of(lambda code=code, heaps=heaps: compute(code, heaps, engine="dense"), 1)
        print(f"  {code:6} {heaps:>9,} heaps  dense {t:7.2f} s  max {int(v.max())}  dtype {v.dtype}")


if __name__ == "__main__":
    main()
