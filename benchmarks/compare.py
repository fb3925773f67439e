"""This version of ``grundy`` against an earlier one, side by side: wall time, CPU time, peak memory.

Every row runs as a whole command (``python -m grundy ...``, start-up
included) for both versions, alternating, several times; the table gives
medians and the ratio this/base, with the target the row must meet.  The
ratio is the median of the ratios of the runs taken in pairs (this run over
the base's run just before it), so that the machine's speed drifting from
one pair to the next cancels out.  The
machine may be shared and noisy, which is why both versions run in the same
loop, and why the small rows (a fraction of a second, most of it start-up)
run three times as often; CPU time (user + system) is printed beside wall time because it is
less disturbed by other work.  Not part of the test suite.

The earlier version lives in its own environment, installed (not editable)::

    git worktree add /tmp/base 70972ac
    python -m venv /tmp/base-venv && /tmp/base-venv/bin/pip install /tmp/base
    taskset -c 0 python benchmarks/compare.py --base /tmp/base-venv/bin/python
    python benchmarks/compare.py --base /tmp/base-venv/bin/python --quick   # small rows only

This version runs from the checkout with the native kernels its install
built (``python -m grundy.engine.build`` remakes them after an edit); the
table's first line says whether they were current, else the JIT ran.  Its
modules are byte-compiled first, as ``pip install`` did the base's: where
``PYTHONDONTWRITEBYTECODE`` is set (as on these machines) every command would
otherwise compile its sources, about 50 ms of a small one.
``taskset -c 0`` gives the one-core figures (the targets are one-core);
without it, the commands may use both cores.  ``--rows`` picks rows by name.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Row:
    name: str
    args: tuple[str, ...]
    ratio: float | None
    """The target: this version's median wall time over the base's, at most this."""
    wall: float | None = None
    """The target: this version's median wall time in seconds, under this."""
    big: bool = False
    fresh: bool = False
    """Run with an empty numba cache (a first run after a fresh install)."""
    small: bool = False
    """A small command: its peak memory must stay under SMALL_COMMAND_MB."""


ROWS = (
    Row("help", ("--help",), None, wall=0.2, small=True),
    Row("values-137-1000", ("values", "·137", "--heaps", "1000", "--json"), 0.25, wall=0.3, small=True),
    Row("values-354-1e6", ("values", "·354", "--heaps", "1000000"), 0.4),
    Row("settle-16", ("settle", "·16"), 0.35),
    Row("settle-354", ("settle", "·354"), 0.7, big=True),
    Row("values-6-2^22", ("values", "·6", "--heaps", str(1 << 22)), 0.5, big=True),
    Row("values-16-2^24", ("values", "·16", "--heaps", str(1 << 24)), 0.5, big=True),
    Row("values-6-2^20", ("values", "·6", "--heaps", str(1 << 20)), None, big=True),
    Row("values-6-2^23", ("values", "·6", "--heaps", str(1 << 23)), None, big=True),
    Row("values-16-2^20", ("values", "·16", "--heaps", str(1 << 20)), None),
    Row("survey-fresh", ("survey", "--digits", "3", "--heaps", "2400"), None, wall=10.0, fresh=True),
    Row("values-1337-2^19", ("values", "·1337", "--heaps", str(1 << 19)), None, big=True),
    Row("values-7246-2^18", ("values", "·7246", "--heaps", str(1 << 18)), None, big=True),
    Row("values-0604-2^18", ("values", "·0604", "--heaps", str(1 << 18)), None, big=True),
)
"""Rows with a target (the ratio to 70972ac, a wall time) and, without one (verdict ``-``), the
other depths at which the published C++ and Rust programs were timed against 70972ac, and
crowded games (rare heaps a third of all, dense throughout): ``·1337`` (one split digit), where
the dense kernel's marked prefix pays, and ``·7246`` and ``·0604`` (three and two), where its
shared split sets do."""
SMALL_COMMAND_MB = 80
SMALL_RUNS = 3
"""The small rows run this many times ``--runs``: cheap, and their medians are the noisiest."""


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mb: float
    rc: int


def run_once(python: str, row: Row, env: dict, scratch: Path) -> Run:
    """One whole command; its own rusage (wait4), so peak memory is this child's alone."""
    args = list(row.args)
    env = dict(env)
    env["GRUNDY_CACHE"] = str(scratch / "cache")
    if row.fresh:
        numba_cache = scratch / "numba"
        shutil.rmtree(numba_cache, ignore_errors=True)
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    if row.name.startswith("survey"):
        db = scratch / "survey.sqlite"
        for p in scratch.glob("survey.sqlite*"):
            p.unlink()
        args += ["--db", str(db)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [python, "-m", "grundy", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        print(f"    {python} {' '.join(args)} exited {proc.returncode}: {err.strip()[-300:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="python of the environment with the earlier version")
    ap.add_argument("--runs", type=int, default=3, help="runs of each row and version (median)")
    ap.add_argument("--quick", action="store_true", help="skip the big rows (about a minute each)")
    ap.add_argument("--rows", nargs="*", help="only these rows (names as printed)")
    args = ap.parse_args()

    compileall.compile_dir(HERE / "src", quiet=1)
    rows = [r for r in ROWS if (not args.quick or not r.big) and (not args.rows or r.name in args.rows)]
    this_env = dict(os.environ, PYTHONPATH=str(HERE / "src"))
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    versions = (("base", args.base, base_env), ("this", sys.executable, this_env))
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for row in rows:  # warm the numba caches and the page cache, untimed (big rows warm themselves)
            if not row.fresh and not row.big:
                for _, python, env in versions:
                    run_once(python, row, env, scratch)
        header = (f"{'row':16} {'base s':>8} {'this s':>8} {'ratio':>6} {'target':>7} "
                  f"{'cpu ratio':>9} {'base MB':>8} {'this MB':>8}  verdict")  # fmt: skip
        native = subprocess.run(
            [sys.executable, "-c", "from grundy.engine import native; print(native.load() is not None)"],
            env=this_env, capture_output=True, text=True, check=False,
        ).stdout.strip()  # fmt: skip
        print(f"medians of {args.runs} runs each ({SMALL_RUNS * args.runs} for small rows), alternating; affinity {sorted(os.sched_getaffinity(0))}; "
              f"this version's native kernels current: {native}")  # fmt: skip
        print(header)
        for row in rows:
            runs: dict[str, list[Run]] = {"base": [], "this": []}
            for _ in range(args.runs * (SMALL_RUNS if row.small else 1)):
                for label, python, env in versions:
                    runs[label].append(run_once(python, row, env, scratch))
            med = {k: Run(*(statistics.median(getattr(r, f) for r in v) for f in ("wall", "cpu", "peak_mb", "rc")))
                   for k, v in runs.items()}  # fmt: skip
            pairs = list(zip(runs["this"], runs["base"], strict=True))
            ratio = statistics.median(t.wall / b.wall for t, b in pairs)
            cpu_ratio = statistics.median(t.cpu / b.cpu if b.cpu else float("nan") for t, b in pairs)
            ok = True
            target = []
            if row.ratio is not None:
                target.append(f"<={row.ratio}")
                ok &= ratio <= row.ratio
            if row.wall is not None:
                target.append(f"<{row.wall}s")
                ok &= med["this"].wall < row.wall
            if row.small:
                ok &= med["this"].peak_mb < SMALL_COMMAND_MB
            verdict = ("meets" if ok else "MISSES") if target else "-"
            if any(r.rc for r in runs["this"]):
                verdict = "FAILED"
            print(f"{row.name:16} {med['base'].wall:8.2f} {med['this'].wall:8.2f} {ratio:6.2f} "
                  f"{','.join(target):>7} {cpu_ratio:9.2f} {med['base'].peak_mb:8.0f} "
                  f"{med['this'].peak_mb:8.0f}  {verdict}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
