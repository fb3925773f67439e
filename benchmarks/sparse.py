"""Sparse-space engine benchmark: sparse against dense side by side, then ``settle`` on the long codes.

Ratios are measured side by side in one run (the machine is shared and
noisy); absolute times are for the record.  Not part of the test suite.

    python benchmarks/sparse.py            # everything (about a minute)
    python benchmarks/sparse.py --quick    # the side-by-side ratios only
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from grundy.codes import parse
from grundy.engine import compute, compute_with_stats
from grundy.readings.settle import settle

SIDE_BY_SIDE = (("·354", 1 << 18), ("·16", 1 << 18), ("·6", 1 << 18))
FAR = (("·354", 1_000_000), ("·16", 1 << 20), ("·6", 1 << 20))
SETTLE = ("·127", "·16", "·56", "·376", "·156", "·356", "·644", "·165", "·354")


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the side-by-side ratios only")
    args = ap.parse_args()
    for code in ("·354", "·6", "·127"):
        compute(code, 5000, engine="sparse")
        compute(code, 5000, engine="dense")
    settle(parse("·156"))

    print("side by side, one run each:")
    for code, heaps in SIDE_BY_SIDE:
        t_dense, a = timed(lambda code=code, heaps=heaps: compute(code, heaps, engine="dense"))
        t_sparse, (b, stats) = timed(lambda code=code, heaps=heaps: compute_with_stats(code, heaps, engine="sparse"))
        assert np.array_equal(a, b)
        print(f"  {code:5} {heaps:>10,} heaps  dense {t_dense:7.2f} s  sparse {t_sparse:7.3f} s  "
              f"ratio {t_dense / t_sparse:7.1f}x   mask {stats.mask}, {stats.rare_heaps} rare")  # fmt: skip
    if args.quick:
        return

    print("sparse, far:")
    for code, heaps in FAR:
        t, (_, stats) = timed(lambda code=code, heaps=heaps: compute_with_stats(code, heaps, engine="sparse"))
        print(f"  {code:5} {heaps:>10,} heaps  {t:7.2f} s  max {stats.max} at {stats.argmax:,}  "
              f"mask {stats.mask}{'+position' if stats.position else ''}, "
              f"{stats.rare_heaps} rare, the last at {stats.last_rare:,}")  # fmt: skip

    print("settle:")
    for code in SETTLE:
        r = settle(parse(code))
        d = r.to_dict()
        pos = "+position" if r.stats.position else ""
        print(f"  {code:5} settled {d['settled']!s:5}  period {d['period']:>7,} from {d['start']:>11,}  "
              f"window {d['window']:>11,}  heaps {d['heaps']:>11,}  {d['seconds']:7.2f} s  "
              f"mask {d['mask']}{pos}, {d['rare_heaps']} rare, the last at {d['last_rare']:,}")  # fmt: skip


if __name__ == "__main__":
    main()
