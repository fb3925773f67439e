"""Settling a code: compute deeper until its reading is certified (docs/periodicity.md).

The values grow in place in one buffer (:class:`~grundy.engine.sparse.SparseRun`),
so no depth is ever held twice.  Depths grow geometrically: to twice the
depth when there is no reading, else to the reading's own window, where a
right reading is certified (the window ``2s + 2p + t`` of a reading at depth
``d`` is at most ``2d + t``, so doubling could compute up to twice the heaps
needed).  Each step is at least ``1/16`` of the depth, so that false readings
whose windows lie just beyond the depth cannot make the steps tiny.

With ``out`` the values are kept in a store (:mod:`grundy.engine.store`, the one
checkpoint of every run; an old ``OUT.npy`` + ``OUT.json`` is migrated into
one): appended every ``checkpoint_seconds``, when the run ends, and when it is
interrupted (Ctrl-C, or SIGTERM in the command), so a run stopped that way or
by ``kill -9`` resumes from there and a finished one answers again at once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..codes import Code, parse
from ..errors import Interrupted, UsageError

if TYPE_CHECKING:
    import numpy as np

    from .periods import Reading

MAX_HEAPS = 10**8
FIRST_DEPTH = 1024


@dataclass(frozen=True)
class Settlement:
    """The outcome of :func:`settle`: the reading at the depth reached and the run's statistics.

    ``reused`` is the number of heaps taken from ``out``; ``stats`` the sparse
    engine's statistics (None for codes it does not cover); ``checksum`` the
    Fletcher-32 of the values, as the published programs print it
    (:func:`grundy.engine.store.fletcher32`).
    """

    code: Code
    heaps: int
    reading: Reading | None
    stats: object | None
    max: int
    seconds: float
    reused: int = 0
    checksum: str = ""

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
            "checksum": self.checksum,
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
        from ..present.notebook import settlement_html

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
    checkpoint_seconds: float | None = None,
    on_depth: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[np.ndarray], None] | None = None,
    on_status: Callable | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> Settlement:
    """Compute ``code`` deeper until its reading is certified.

    Parameters
    ----------
    code : the code (``"·156"`` or a :class:`~grundy.codes.Code`).
    max_heaps : give up (not settled) once this many heaps are known (default 10^8).
    out : keep the values in the store ``OUT`` and resume from it (an old ``OUT.npy`` +
        ``OUT.json`` is migrated into one, ``on_warning`` says so).
    seconds : give up once this process has spent this much CPU time on the code.
    checkpoint_seconds : how often ``out`` is brought up to date (default 30 s).
    on_depth, on_chunk, on_status : progress callbacks: ``on_depth(depth, done)`` as each
        stage starts, ``on_chunk(values)`` and ``on_status(status)`` as the engine advances.

    Examples
    --------
    >>> settle("·156")
    <Settlement ·156: period 349 from heap 3,479, certified (window 7,659)>
    """
    import numpy as np

    from ..engine.store import CHECKPOINT_SECONDS, Store

    code = parse(code)
    max_heaps = MAX_HEAPS if max_heaps is None else max_heaps
    if not isinstance(max_heaps, (int, np.integer)) or max_heaps < 1:
        raise UsageError(f"max_heaps must be a whole number of at least 1, not {max_heaps!r}")
    if seconds is not None and not seconds > 0:
        raise UsageError(f"seconds must be positive, not {seconds!r}")
    every = CHECKPOINT_SECONDS if checkpoint_seconds is None else checkpoint_seconds
    if out is None:
        return _settle(code, max_heaps, None, seconds, every, on_depth, on_chunk, on_status)
    with Store.writer(out, code, on_warning=on_warning) as store:
        return _settle(code, max_heaps, store, seconds, every, on_depth, on_chunk, on_status)


def _settle(code, max_heaps, store, seconds, every, on_depth, on_chunk, on_status):
    """:func:`settle` on an open store (or none): the values grow in one buffer, and the store,
    when there is one, gets every new block (:class:`~grundy.engine.store.Recorder`)."""
    import numpy as np

    from ..engine.sparse import SparseRun, statistics
    from ..engine.store import Recorder, fletcher32, hex32
    from .periods import reading

    start, cpu0 = time.perf_counter(), time.process_time()
    have = 0 if store is None else len(store)
    prefix = store.read(0, min(have, max_heaps)) if have else None
    reused = 0 if prefix is None else int(prefix.size)
    try:
        run = SparseRun(code, max_heaps, prefix)
    except MemoryError:
        raise UsageError(f"max_heaps {max_heaps:,} does not fit in memory") from None
    rec = None
    if store is not None:
        store.note_engine("sparse" if run.applies else "dense")
        rec = Recorder(code, store, every=every)
    latest = [run.values]

    def so_far() -> np.ndarray:
        """The longest values known: the run's, or the dense stretch it is computing."""
        return max(run.values, latest[0], key=len)

    def chunk(values: np.ndarray) -> None:
        latest[0] = values
        if rec is not None:
            rec.follow(values)
        if on_chunk is not None:
            on_chunk(values)
        if seconds is not None and time.process_time() - cpu0 >= seconds:
            raise _Budget

    def status(s) -> None:
        if rec is not None:
            rec.status(s)
        if on_status is not None:
            on_status(s)

    depth = min(max_heaps, max(FIRST_DEPTH, reused))
    try:
        while True:
            if on_depth is not None:
                on_depth(depth, run.n)
            values = run.extend(depth, chunk, status)[:depth]
            found = reading(values, code)
            if (found is not None and found.certified) or depth == max_heaps:
                break
            depth = next_depth(depth, found, max_heaps)
    except _Budget:
        values = so_far()
        found = reading(values, code)
    except KeyboardInterrupt:
        if rec is None:
            raise Interrupted(f"settling {code} was interrupted") from None
        rec.flush()
        raise Interrupted(f"settling {code} was interrupted: {len(store):,} heaps are kept in "
                          f"{store.path}; run it again to resume") from None  # fmt: skip
    if rec is not None:
        rec.flush()
    whole = rec is not None and rec.frontier.n == values.size
    checksum = rec.frontier.checksum if whole else hex32(fletcher32(values))
    stats = statistics(code, values, run.mask) if run.applies else None
    return Settlement(code, int(values.size), found, stats, int(np.max(values)),
                      time.perf_counter() - start, reused, checksum)
