"""Long runs as a user runs them: peak memory and time of ``grundy values ... --out STORE``.

Each row is a whole command (start-up included) run in a fresh store; the
table gives its wall and CPU time, its peak resident memory (the process's
own accounting, ``wait4``), the checksum it printed and, where a published
program printed one for the same depth, whether they agree.  The ``vs``
rows run the same command twice, alternating, with the values kept in
memory (``--memory`` large) and in bounded memory (``--memory`` small), and
give the ratio of their medians: what bounded memory costs in time.  Not
part of the test suite::

    python benchmarks/frontier.py                 # the rows with a target, a few minutes
    python benchmarks/frontier.py --deep          # and ·6 to 2^30 (an hour or more)
    python benchmarks/frontier.py --rows vs-167   # rows by name
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

PUBLISHED = {
    ("·354", 10**6): "EE75B6BA",
    ("·6", 1 << 20): "B03F6294",
    ("·6", 1 << 22): "58FB02C6",
    ("·16", 1 << 20): "8C8FE45D",
    ("·16", 1 << 24): "A6D57EB7",
}
"""Checksums printed by the published programs (Beling's ``ogs``, Czajka's ``octal-games``)."""


@dataclass(frozen=True)
class Row:
    name: str
    code: str
    heaps: int
    memory_mb: float | None = None
    """The target: peak resident memory under this many MiB."""
    vs: bool = False
    """Run in bounded memory and with every value in memory, side by side."""
    deep: bool = False


ROWS = (
    Row("mem-167-2^28", "·167", 1 << 28, memory_mb=200),
    Row("mem-6-2^30", "·6", 1 << 30, memory_mb=400, deep=True),
    Row("mem-6-2^26", "·6", 1 << 26),
    Row("vs-167-2^26", "·167", 1 << 26, vs=True),
    Row("vs-6-2^23", "·6", 1 << 23, vs=True),
    Row("vs-16-2^24", "·16", 1 << 24, vs=True),
)
BOUNDED_MB, IN_MEMORY_MB = 16, 1 << 16
"""``--memory`` for the two sides of a ``vs`` row: small enough to bound, large enough not to."""


def run(args: list[str]) -> dict:
    """Run ``grundy ARGS --json`` in a fresh store; its times, peak memory and JSON."""
    where = tempfile.mkdtemp(prefix="grundy-frontier-")
    try:
        command = [sys.executable, "-m", "grundy", *args, "--out", os.path.join(where, "s"), "--json"]
        t0 = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            return {"failed": True, "wall": wall}
        data = json.loads(out)
        return {
            "wall": wall,
            "cpu": usage.ru_utime + usage.ru_stime,
            "mb": usage.ru_maxrss / 1024,
            "checksum": data.get("checksum"),
        }
    finally:
        shutil.rmtree(where, ignore_errors=True)


def verdict(row: Row, result: dict) -> str:
    if result.get("failed"):
        return "FAILED"
    want = PUBLISHED.get((row.code, row.heaps))
    if want is not None and result["checksum"] != want:
        return f"checksum {result['checksum']} != published {want}"
    if row.memory_mb is not None:
        return "meets" if result["mb"] <= row.memory_mb else "MISSES"
    return "-"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deep", action="store_true", help="also the rows of an hour or more")
    parser.add_argument("--rows", help="comma-separated row names")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side of a vs row")
    args = parser.parse_args(argv)
    rows = [r for r in ROWS if (args.deep or not r.deep)]
    if args.rows:
        rows = [r for r in ROWS if r.name in args.rows.split(",")]
    print(f"{'row':16} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'checksum':>9}  verdict")
    for row in rows:
        base = ["values", row.code, "--heaps", str(row.heaps)]
        if not row.vs:
            r = run(base)
            print(f"{row.name:16} {r['wall']:8.1f} {r.get('cpu', 0):8.1f} {r.get('mb', 0):8.0f} "
                  f"{r.get('checksum') or '-':>9}  {verdict(row, r)}", flush=True)
            continue
        sides = {"bounded": [], "in memory": []}
        for _ in range(args.runs):
            sides["bounded"].append(run([*base, "--memory", str(BOUNDED_MB)]))
            sides["in memory"].append(run([*base, "--memory", str(IN_MEMORY_MB)]))
        for side, results in sides.items():
            ok = [r for r in results if not r.get("failed")]
            if not ok:
                print(f"{row.name + ' ' + side:16} FAILED")
                continue
            wall = statistics.median(r["wall"] for r in ok)
            cpu = statistics.median(r["cpu"] for r in ok)
            mb = max(r["mb"] for r in ok)
            sums = {r["checksum"] for r in ok}
            print(f"{row.name:16} {wall:8.1f} {cpu:8.1f} {mb:8.0f} {'/'.join(sums):>9}  {side}")
        pairs = [b["wall"] / m["wall"] for b, m in zip(sides["bounded"], sides["in memory"], strict=True)
                 if not (b.get("failed") or m.get("failed"))]
        same = {r["checksum"] for rs in sides.values() for r in rs if not r.get("failed")}
        print(f"{'':16} bounded/in memory, wall: {statistics.median(pairs):.2f} (median of "
              f"{len(pairs)} pairs); checksums {'agree' if len(same) == 1 else 'DIFFER'}", flush=True)


if __name__ == "__main__":
    main()
