"""Settling a code: compute deeper until its reading is certified (docs/periodicity.md).

The values grow in place in one buffer (:class:`~grundy.engine.sparse.SparseRun`),
so no depth is ever held twice.  Depths grow geometrically: to twice the
depth when there is no reading, else to the reading's own window, where a
right reading is certified (the window ``2s + 2p + t`` of a reading at depth
``d`` is at most ``2d + t``, so doubling could compute up to twice the heaps
needed).  Each step is at least ``1/16`` of the depth, so that false readings
whose windows lie just beyond the depth cannot make the steps tiny.

With ``out`` the values are kept on disk (``OUT.npy`` + ``OUT.json``, the
format of :class:`~grundy.sequence.Sequence`): saved every
``checkpoint_seconds``, when the run ends, and when it is interrupted, so a
run stopped by Ctrl-C or ``kill -9`` resumes from there and a finished one
answers again at once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .codes import Code, parse
from .errors import Interrupted, UsageError

if TYPE_CHECKING:
    import numpy as np

    from .periods import Reading

MAX_HEAPS = 10**8
FIRST_DEPTH = 1024
CHECKPOINT_SECONDS = 30.0


@dataclass(frozen=True)
class Settlement:
    """The outcome of :func:`settle`: the reading at the depth reached and the run's statistics.

    ``reused`` is the number of heaps taken from ``out``; ``stats`` the sparse
    engine's statistics (None for codes it does not cover).
    """

    code: Code
    heaps: int
    reading: Reading | None
    stats: object | None
    max: int
    seconds: float
    reused: int = 0

    @property
    def settled(self) -> bool:
        """Whether the reading at :attr:`heaps` is certified (a theorem, docs/periodicity.md)."""
        return self.reading is not None and self.reading.certified

    def to_dict(self) -> dict:
        """The JSON form; ``position`` says whether the class of ``mask`` also depends on the
        heap's parity (the position variant)."""
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
            "reused": self.reused,
        }

    def summary(self) -> str:
        """One sentence: the certificate, or how far the code got."""
        r = self.reading
        if self.settled:
            return (f"{self.code}: period {r.period:,} from heap {r.start:,}, certified "
                    f"(window {r.window:,})")
        seen = f"reading period {r.period:,} from heap {r.start:,}" if r else "no reading"
        return f"{self.code}: not settled within {self.heaps:,} heaps ({seen})"

    def __repr__(self) -> str:
        return f"<Settlement {self.summary()}>"

    def _repr_html_(self) -> str:
        from .present.notebook import settlement_html

        return settlement_html(self)


def next_depth(depth: int, found: Reading | None, max_heaps: int) -> int:
    """The depth after ``depth``: see the module docstring."""
    if found is None:
        return min(max_heaps, 2 * depth)
    return min(max_heaps, max(found.window, depth + depth // 16))


class _Budget(Exception):
    """Raised from a chunk callback when the CPU budget is spent."""


def settle(
    code: Code | str,
    max_heaps: int | None = None,
    out: str | os.PathLike | None = None,
    *,
    seconds: float | None = None,
    checkpoint_seconds: float = CHECKPOINT_SECONDS,
    on_depth: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[np.ndarray], None] | None = None,
    on_status: Callable | None = None,
) -> Settlement:
    """Compute ``code`` deeper until its reading is certified.

    Parameters
    ----------
    code : the code (``"·156"`` or a :class:`~grundy.codes.Code`).
    max_heaps : give up (not settled) once this many heaps are known (default 10^8).
    out : keep the values at ``OUT.npy`` + ``OUT.json`` and resume from them.
    seconds : give up once this process has spent this much CPU time on the code.
    on_depth, on_chunk, on_status : progress callbacks: ``on_depth(depth, done)`` as each
        stage starts, ``on_chunk(values)`` and ``on_status(status)`` as the engine advances.

    Examples
    --------
    >>> settle("·156")
    <Settlement ·156: period 349 from heap 3,479, certified (window 7,659)>
    """
    import numpy as np

    from .checkpoint import load_existing
    from .engine.sparse import SparseRun, statistics
    from .periods import reading
    from .sequence import Sequence

    code = parse(code)
    max_heaps = MAX_HEAPS if max_heaps is None else max_heaps
    if not isinstance(max_heaps, (int, np.integer)) or max_heaps < 1:
        raise UsageError(f"max_heaps must be a whole number of at least 1, not {max_heaps!r}")
    if seconds is not None and not seconds > 0:
        raise UsageError(f"seconds must be positive, not {seconds!r}")
    start, cpu0 = time.perf_counter(), time.process_time()
    kept = None if out is None else load_existing(out, code)
    prefix = None if kept is None else kept.values[:max_heaps]
    reused = 0 if prefix is None else int(prefix.size)
    try:
        run = SparseRun(code, max_heaps, prefix)
    except MemoryError:
        raise UsageError(f"max_heaps {max_heaps:,} does not fit in memory") from None
    latest = [run.values]
    saved = [time.monotonic(), reused]

    def so_far() -> np.ndarray:
        """The longest values known: the run's, or the dense stretch it is computing."""
        return max(run.values, latest[0], key=len)

    def save(values: np.ndarray) -> None:
        if out is not None and values.size > saved[1]:
            Sequence(code, values.copy(), "sparse").save(out)
            saved[:] = [time.monotonic(), values.size]

    def chunk(values: np.ndarray) -> None:
        latest[0] = values
        if on_chunk is not None:
            on_chunk(values)
        if time.monotonic() - saved[0] >= checkpoint_seconds:
            save(values)
        if seconds is not None and time.process_time() - cpu0 >= seconds:
            raise _Budget

    depth = min(max_heaps, max(FIRST_DEPTH, reused))
    try:
        while True:
            if on_depth is not None:
                on_depth(depth, run.n)
            values = run.extend(depth, chunk, on_status)[:depth]
            found = reading(values, code)
            if (found is not None and found.certified) or depth == max_heaps:
                break
            depth = next_depth(depth, found, max_heaps)
    except _Budget:
        values = so_far()
        found = reading(values, code)
    except KeyboardInterrupt:
        save(so_far())
        where = f": the values so far are kept at {out}; run it again to resume" if out else ""
        raise Interrupted(f"settling {code} was interrupted{where}") from None
    save(values)
    stats = statistics(code, values, run.mask) if run.applies else None
    return Settlement(code, int(values.size), found, stats, int(np.max(values)),
                      time.perf_counter() - start, reused)
