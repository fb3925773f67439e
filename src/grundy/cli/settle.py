"""``grundy settle``: compute deeper until the reading is certified (SPEC.md §3, §4, §9).

The values grow in place in one buffer (:class:`~grundy.engine.sparse.SparseRun`),
so no depth is ever held twice.  Depths grow geometrically: to twice the
depth when there is no reading, else to the reading's own window, where a
right reading is certified (the window ``2s + 2p + t`` of a reading at depth
``d`` is at most ``2d + t``, so doubling could compute up to twice the heaps
needed).  Each step is at least ``1/16`` of the depth, so that false readings
whose windows lie just beyond the depth cannot make the steps tiny.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import click
import numpy as np

from ..codes import Code
from ..engine.sparse import SparseRun, SparseStats
from ..errors import UsageError
from ..periods import Reading, reading
from .common import CODE, HEAPS, cli, emit_json, progress

MAX_HEAPS = 10**8
FIRST_DEPTH = 1024


@dataclass(frozen=True)
class Settlement:
    """The outcome of :func:`settle`: the reading at the depth reached and the run's statistics."""

    code: Code
    heaps: int
    reading: Reading | None
    stats: SparseStats | None
    max: int
    seconds: float

    @property
    def settled(self) -> bool:
        """Whether the reading at :attr:`heaps` is certified (a theorem, SPEC.md §3)."""
        return self.reading is not None and self.reading.certified

    def to_dict(self) -> dict:
        """The JSON form: the keys of the issue, and ``position`` (whether the class of
        ``mask`` also depends on the heap's parity, the position variant)."""
        r = self.reading if self.settled else None
        s = self.stats
        return {
            "code": str(self.code),
            "t": self.code.t,
            "heaps": self.heaps,
            "settled": self.settled,
            "start": r.start if r else None,
            "period": r.period if r else None,
            "window": r.window if r else None,
            "mask": s.mask if s else None,
            "position": s.position if s else None,
            "rare_heaps": s.rare_heaps if s else None,
            "last_rare": s.last_rare if s else None,
            "max": self.max,
            "seconds": round(self.seconds, 3),
        }


def next_depth(depth: int, found: Reading | None, max_heaps: int) -> int:
    """The depth after ``depth``: see the module docstring."""
    if found is None:
        return min(max_heaps, 2 * depth)
    return min(max_heaps, max(found.window, depth + depth // 16))


def settle(
    code: Code, max_heaps: int = MAX_HEAPS, *, on_depth=None, on_chunk=None, on_status=None
) -> Settlement:
    """Compute ``code`` deeper until the reading is certified or ``max_heaps`` heaps are known.

    ``on_depth(depth, done)`` is called as each stage starts; ``on_chunk`` and
    ``on_status`` as in :meth:`SparseRun.extend`.
    """
    start = time.perf_counter()
    try:
        run = SparseRun(code, max_heaps)
    except MemoryError:
        raise UsageError(f"--max-heaps {max_heaps:,} does not fit in memory") from None
    depth = min(max_heaps, FIRST_DEPTH)
    while True:
        if on_depth is not None:
            on_depth(depth, run.n)
        values = run.extend(depth, on_chunk, on_status)
        found = reading(values, code)
        if (found is not None and found.certified) or depth == max_heaps:
            break
        depth = next_depth(depth, found, max_heaps)
    seconds = time.perf_counter() - start
    return Settlement(code, depth, found, run.stats(), int(np.max(values)), seconds)


@cli.command(name="settle")
@click.argument("code", type=CODE)
@click.option(
    "--max-heaps",
    type=HEAPS,
    default=MAX_HEAPS,
    show_default=True,
    help="Give up (not settled) once this many heaps are known.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def settle_command(code, max_heaps, as_json):
    """Compute CODE deeper and deeper until its period is certified (Guy–Smith window)."""
    with progress(FIRST_DEPTH, f"{code}", unit="heaps") as update:
        result = settle(
            code,
            max_heaps,
            on_depth=lambda depth, done: update(done, total=depth),
            on_chunk=lambda values: update(values.size),
            on_status=lambda status: update(status.heaps, str(status)),
        )
    if as_json:
        emit_json(result.to_dict())
        return
    r, s = result.reading, result.stats
    click.echo(f"code      {code}   (t = {code.t})")
    if result.settled:
        click.echo(
            f"settled   period {r.period:,} from heap {r.start:,}, certified: "
            f"window {r.window:,} (tight {r.tight_window:,})"
        )
    else:
        seen = f"the reading is period {r.period:,} from heap {r.start:,}" if r else "no reading"
        click.echo(f"unsettled within {max_heaps:,} heaps: {seen}")
    click.echo(f"heaps     {result.heaps:,} computed in {result.seconds:.2f} s")
    click.echo(f"largest   {result.max}")
    if s:
        last = "none" if s.last_rare is None else f"the last at heap {s.last_rare:,}"
        click.echo(
            f"sparse    mask {s.mask}{'+position' if s.position else ''}, "
            f"{s.rare_heaps:,} rare heaps, {last}"
        )
