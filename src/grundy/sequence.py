"""A Grundy sequence with its provenance: in memory, or in a store on disk read chunk by chunk.

A :class:`Sequence` holds its values; a :class:`StoredSequence` (what
:func:`load` gives for a store, :mod:`grundy.engine.store`) reads them from the store
as it needs them: its length, ``s[n]``, ``s[a:b]``, largest value, checksum
and reading never load the store whole (the reading streams it,
:func:`streamed_reading`).

:meth:`Sequence.save` writes the single-file form that numpy reads,
``PATH.npy`` plus a JSON sidecar (the form ``--out`` wrote before stores).  The
sidecar records the code, depth, dtype, engine, version and the SHA-256 of the
values (:func:`digest`), so that a file is never misread: a load that does not
match it is refused.  Files are replaced atomically (write, then rename), the
values before the sidecar; a kill between the two renames leaves values longer
than the sidecar says, whose recorded prefix still matches its digest, and
that prefix is what loads.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ._version import __version__
from .codes import Code, parse
from .errors import SequenceFileError, UsageError
from .files import write_whole

FORMAT = 1
"""Sidecar format; a file of another format is refused, not misread."""


DIGEST_BLOCK = 1 << 20
"""Values hashed at a time by :func:`digest`."""


def digest(values: np.ndarray, dtype: np.dtype | type | None = None) -> str:
    """SHA-256 of the values' bytes (C order) in ``dtype``, by default their stored type: the
    sidecar's ``sha256``; in ``uint32``, a survey record's ``values_sha256``, whatever type the
    values were computed in.  Hashed a block at a time, so that a view of a long sequence (a
    store's mapping, a prefix) is never copied whole into another type."""
    return digest_blocks((values[i : i + DIGEST_BLOCK] for i in range(0, len(values), DIGEST_BLOCK)), dtype)


def digest_blocks(blocks: Iterable[np.ndarray], dtype: np.dtype | type | None = None) -> str:
    """:func:`digest` of the values of consecutive ``blocks`` (a store's chunks, say), whatever
    their sizes: the digest of a sequence that is never in memory whole."""
    h = hashlib.sha256()
    for block in blocks:
        h.update(np.ascontiguousarray(block, dtype=dtype).tobytes())
    return h.hexdigest()


def paths(path: str | os.PathLike) -> tuple[Path, Path]:
    """The ``.npy`` and ``.json`` files of a sequence stored at ``path`` (with or without suffix)."""
    p = Path(path)
    if p.suffix in (".npy", ".json"):
        p = p.with_suffix("")
    return p.with_name(p.name + ".npy"), p.with_name(p.name + ".json")


@dataclass(eq=False)
class Sequence:
    """``values[n] = G(n)`` for ``0 <= n < depth`` of ``code``, with the analyses as methods.

    A sequence behaves like its values: ``len(s)``, ``s[n]`` (an ``int``),
    ``s[a:b]`` (a numpy array); ``s.values`` is the array itself.

    Examples
    --------
    >>> s = values("·137", 3000)
    >>> len(s), s[1:10].tolist()
    (3000, [1, 1, 2, 0, 3, 1, 1, 0, 3])
    >>> s.reading()
    <Reading: period 34 from heap 52, certified (window 175)>
    """

    code: Code
    values: np.ndarray
    engine: str = "dense"
    version: str = field(default=__version__)
    _frontier: object = field(default=None, init=False, repr=False)
    """The :class:`~grundy.engine.store.Frontier` of the run that made the values, when there was one."""

    def __len__(self) -> int:
        return int(self.values.size)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.values[index]
        return int(self.values[index])

    def __iter__(self):
        return (int(v) for v in self.values)

    def __repr__(self) -> str:
        head = " ".join(str(int(v)) for v in self[:24])
        more = " …" if self.depth > 24 else ""
        return f"<Sequence {self.code}, {self.depth:,} heaps: {head}{more}; {self._reading_text()}>"

    def _repr_html_(self) -> str:
        from .present.notebook import sequence_html

        return sequence_html(self)

    def _reading_text(self) -> str:
        r = self.reading()
        return f"no reading at depth {self.depth:,}" if r is None else str(r)

    @property
    def depth(self) -> int:
        """The number of heaps known (heaps ``0..depth-1``)."""
        return int(self.values.size)

    @property
    def max(self) -> int:
        """The largest value."""
        return int(self.values.max())

    @property
    def argmax(self) -> int:
        """The first heap worth the largest value."""
        return int(np.argmax(self.values))

    @property
    def checksum(self) -> str:
        """The Fletcher-32 of the values as 16-bit words, in upper-case hex, as the published
        programs print it (:func:`grundy.engine.store.fletcher32`)."""
        return self._statistics().checksum

    def frontier(self) -> list:
        """The frontier statistics (:class:`~grundy.engine.store.FrontierRecord`) at every power of two
        and at the end: the run's own (with the sparse engine's mask) when the values come from
        a run, else computed from the values (no mask)."""
        return self._statistics().history()

    def _statistics(self):
        from .engine.store import Frontier

        f = self._frontier
        if f is None or f.n != self.depth:
            f = self._frontier = Frontier.of(self.code, self.values)
        return f

    # ------------------------------------------------------------ analyses

    def reading(self, depth: int | None = None, *, heap0: bool = False):
        """The pure reading at ``depth`` (default: every heap known), or None
        (:func:`grundy.readings.periods.reading`)."""
        from .readings.periods import reading

        return reading(self.values, self.code, depth, heap0=heap0)

    def arithmetic_reading(self, depth: int | None = None):
        """The arithmetic reading at ``depth``, shown beside the reading, never certified
        (:func:`grundy.readings.periods.arithmetic_reading`)."""
        from .readings.periods import arithmetic_reading

        return arithmetic_reading(self.values, self.code, depth)

    def trajectory(self, *, heap0: bool = False, arithmetic: bool = False):
        """The readings at every depth, the false readings and the certificate
        (:func:`grundy.readings.trajectory.trajectory`)."""
        from .readings.trajectory import trajectory

        return trajectory(self.values, self.code, heap0=heap0, arithmetic=arithmetic)

    def rare(self, mask: int | None = None, parity: int | None = None, **options):
        """Where the heaps of a value class arrive (:func:`grundy.rare.arrivals`).

        Without ``mask`` the class is the one with the fewest heaps: the sparse
        engine's choice, with ``parity`` 0 (the class holding 0); ``parity``
        defaults to 1 (the class XOR respects) when a mask is given.  Options
        (``after``, ``block``, ...) pass on to :func:`grundy.rare.arrivals`;
        ``after`` defaults to a tenth of the heaps, at most 10,000, as on the command line.
        """
        from .rare import arrivals
        from .value_classes import RareClass, fewest

        if mask is None:
            cls = fewest(self.values, 0 if parity is None else parity)[0]
        else:
            cls = RareClass(mask, 1 if parity is None else parity)
        return arrivals(self.code, self.values, cls, **options)

    def counts(self, value: int, **options):
        """Move and split counts of ``value`` at every heap from ``lo`` (default: the cut-off of
        :meth:`rare`, at least 1) on (:func:`grundy.rare.counts`)."""
        from .rare import counts

        return counts(self.code, self.values, value, **options)

    def ledger(self, value: int, **options):
        """Which rare heaps supply ``value`` (:func:`grundy.rare.ledger`)."""
        from .rare import ledger

        return ledger(self.code, self.values, value, **options)

    def to_dict(self, values: bool = True) -> dict:
        """The JSON form: code, t, heaps, max, checksum, and the values unless ``values`` is false."""
        out = {"code": str(self.code), "t": self.code.t, "heaps": self.depth, "max": self.max,
               "checksum": self.checksum}  # fmt: skip
        if values:
            out["values"] = self.values.tolist()
        return out

    def extend(
        self,
        heaps: int,
        *,
        engine: str = "auto",
        on_chunk: Callable[[np.ndarray], None] | None = None,
    ) -> Sequence:
        """This sequence to ``heaps`` heaps, computing only the heaps it lacks (a new
        Sequence; this one if it is already that deep)."""
        from .checks import heaps as checked
        from .engine import choose, compute

        heaps = checked(heaps)
        if heaps <= self.depth:
            return self
        values = compute(self.code, heaps, engine=engine, prefix=self.values, on_chunk=on_chunk)
        return Sequence(self.code, values, choose(self.code, engine))

    def save(self, path: str | os.PathLike) -> Path:
        """Write ``PATH.npy`` and ``PATH.json`` atomically, the single file numpy reads (runs keep
        their values in a store instead, :mod:`grundy.engine.store`); returns the ``.npy`` path."""
        npy, side = paths(path)
        npy.parent.mkdir(parents=True, exist_ok=True)
        values = np.ascontiguousarray(self.values)
        meta = {
            "format": FORMAT,
            "code": str(self.code),
            "depth": self.depth,
            "dtype": values.dtype.name,
            "sha256": digest(values),
            "engine": self.engine,
            "version": self.version,
        }
        write_whole(npy, lambda f: np.save(f, values, allow_pickle=False))
        write_whole(side, json.dumps(meta, indent=1))
        return npy

    @classmethod
    def load(cls, path: str | os.PathLike) -> Sequence:
        """The sequence at ``path``: a store (a :class:`StoredSequence`), else ``PATH.npy`` +
        ``PATH.json`` as :meth:`save` writes them (``PATH.npy`` names the file even beside a store).

        A file that fails its checksum, an empty, truncated or foreign file, values that
        are not unsigned integers (floats, signed or 2-D arrays are refused, never cast)
        and a sidecar that does not describe them all raise :class:`SequenceFileError`.
        """
        from .engine.store import Store, is_store

        if Path(path).suffix not in (".npy", ".json") and is_store(path):
            return StoredSequence(Store.open(path))
        npy, side = paths(path)
        if not side.exists() or not npy.exists():
            raise SequenceFileError(f"no sequence at {npy} (needs {npy.name} and {side.name})")
        try:
            meta = json.loads(side.read_text())
            values = np.load(npy, allow_pickle=False)
            code = parse(meta["code"])
            depth = int(meta["depth"])
            dtype = np.dtype(meta["dtype"])
            sha256 = meta["sha256"]
            fmt = meta.get("format")
        except (OSError, EOFError, ValueError, KeyError, TypeError) as exc:
            why = " ".join(str(exc).split()) or type(exc).__name__
            raise SequenceFileError(f"{npy} is not a readable sequence file ({why})") from None
        if fmt != FORMAT:
            raise SequenceFileError(f"{side} has format {fmt!r}; this version reads format {FORMAT}")
        if not isinstance(values, np.ndarray) or values.ndim != 1 or values.dtype.kind != "u":
            what = (
                f"a {values.ndim}-D array of {values.dtype}"
                if isinstance(values, np.ndarray)
                else "an archive of arrays"
            )
            raise SequenceFileError(
                f"{npy} holds {what}, not the 1-D unsigned integers of a sequence file"
            )
        if dtype.kind != "u" or depth < 0:
            raise SequenceFileError(f"{side} describes no sequence (dtype {dtype}, depth {depth})")
        values = _verified_prefix(values, depth, dtype, sha256)
        if values is None:
            raise SequenceFileError(f"{npy} is corrupt: its values do not match the checksum in {side.name}")
        return Sequence(code, values, meta.get("engine", "dense"), meta.get("version", "?"))


def _verified_prefix(values: np.ndarray, depth: int, dtype: np.dtype, sha256: str):
    """The first ``depth`` values in ``dtype`` if they match the ``sha256`` digest, else None."""
    if values.size < depth:
        return None
    head = values[:depth]
    if head.size and int(head.max()) > np.iinfo(dtype).max:
        return None
    head = head.astype(dtype)
    return head if digest(head) == sha256 else None


def values(
    code: Code | str,
    heaps: int,
    *,
    engine: str = "auto",
    on_chunk=None,
    out: str | os.PathLike | None = None,
    memory: int | None = None,
) -> Sequence:
    """The Grundy values of ``code`` for heaps ``0..heaps-1``, as a :class:`Sequence`.

    ``engine`` is ``auto`` (the fastest that applies), ``dense``, ``sparse`` or
    ``reference``; ``on_chunk(values_so_far)`` is called as the work advances
    (by a run kept in memory).  The run's statistics come with it
    (:meth:`Sequence.frontier`, :attr:`Sequence.checksum`).

    Without ``out`` the values are kept in memory, and ``heaps`` is refused
    (:class:`~grundy.errors.UsageError`) unless it is a whole number of at
    least 1 whose values fit (:mod:`grundy.checks`).  With ``out`` they go to
    the store ``out`` (made, or grown from what it holds, as ``grundy values
    --out`` does): a run whose values would not fit in ``memory`` bytes
    (default :data:`grundy.engine.store.MEMORY`) is bounded, and the result is a
    :class:`StoredSequence` that reads the store.
    """
    from .checks import heaps as checked
    from .checks import whole
    from .engine.store import grow

    code = parse(code)
    if out is not None:
        from .engine.checkpoint import compute_resumable

        return compute_resumable(code, whole(heaps, "the number of heaps", 1), out, engine=engine,
                                 memory=memory)[0]  # fmt: skip
    run = grow(None, code, checked(heaps), engine=engine, on_chunk=on_chunk)
    result = Sequence(code, run.values, run.engine)
    result._frontier = run.frontier
    return result


def load(path: str | os.PathLike) -> Sequence:
    """The sequence stored at ``path``: a store (read chunk by chunk, :class:`StoredSequence`),
    or ``PATH.npy`` + ``PATH.json`` as :meth:`Sequence.save` and earlier versions wrote them."""
    return Sequence.load(path)


class StoredSequence(Sequence):
    """A sequence whose values stay in a store (:class:`grundy.engine.store.Store`), read as needed.

    ``len``, ``s[n]``, ``s[a:b]``, iteration, :attr:`max`, :attr:`argmax`,
    :attr:`checksum`, :meth:`frontier` (from the store's statistics) and
    :meth:`reading`, :meth:`arithmetic_reading` (streamed) read the store a
    chunk at a time.  :attr:`values` loads every value (and keeps them), and so do
    the analyses that need them all: the trajectory, whose own arrays are
    larger than the values, ``rare``, ``counts``, ``ledger``, ``extend``, ``save``.
    """

    def __init__(self, store):
        self.store = store
        self.code = store.code
        self.engine = store.engine
        self.version = store.version
        self._frontier = store.frontier
        self._loaded = None

    @property
    def values(self) -> np.ndarray:
        """Every value, read from the store into memory (one to four bytes a heap), then kept."""
        if self._loaded is None:
            self._loaded = self.store.read(0, len(self.store))
        return self._loaded

    def __len__(self) -> int:
        return len(self.store)

    @property
    def depth(self) -> int:
        return len(self.store)

    def __getitem__(self, index):
        return self.store[index]

    def __iter__(self):
        for _, block in self.store.chunks():
            yield from (int(v) for v in block)

    @property
    def max(self) -> int:
        """The largest value (from the store's statistics)."""
        return self._check_some().top

    @property
    def argmax(self) -> int:
        """The first heap worth the largest value (from the store's statistics)."""
        return self._check_some().argmax

    def _check_some(self):
        if not len(self.store):
            raise UsageError(f"the store {self.store.path} holds no heaps yet")
        return self._frontier

    def _statistics(self):
        return self._frontier

    def reading(self, depth: int | None = None, *, heap0: bool = False):
        """The pure reading at ``depth`` (:func:`grundy.readings.periods.reading`), streamed from the store."""
        from .readings.periods import Reading, tight_window, window

        d = self._depth(depth)
        s, p = streamed_reading(self.store.read, d, 0 if heap0 else 1)
        if s < 0:
            return None
        w = window(s, p, self.code)
        return Reading(s, p, 0, w, tight_window(s, p, self.code), s >= 1 and d >= w)

    def arithmetic_reading(self, depth: int | None = None):
        """The arithmetic reading at ``depth`` (:func:`grundy.readings.periods.arithmetic_reading`),
        streamed from the store; never certified."""
        from .readings.periods import Reading, window

        d = self._depth(depth)
        s, p = streamed_reading(self.store.read, d, 1, arithmetic=True)
        if s < 0:
            return None
        return Reading(s, p, self.store[s + p] - self.store[s], window(s, p, self.code), None, False)

    def _depth(self, depth) -> int:
        n = len(self.store)
        d = n if depth is None else depth
        if not isinstance(d, (int, np.integer)) or not 1 <= d <= n:
            raise UsageError(f"the depth must lie between 1 and {n} (the values known), not {d!r}")
        return int(d)


FAST = 64
"""Comparisons made for a whole block of periods at once before a period is followed alone."""
PERIODS = 1 << 16
"""Periods tried together: the values they compare are one window of about this many heaps."""


def streamed_reading(read, d: int, lo: int, arithmetic: bool = False) -> tuple[int, int]:
    """``(s, p)`` of the reading at depth ``d`` over heaps ``lo..d-1``, or ``(-1, -1)``: the
    answer of the readings kernel (``grundy.readings.periods._reading_at``), reading the values through
    ``read(a, b)`` a window at a time, never all at once.

    The kernel follows each period ``p`` back from heap ``d - 1`` to the start
    ``s_p`` of its stretch.  Here :data:`PERIODS` periods go together: the
    first :data:`FAST` steps of all of them compare the last values with one
    window (numpy, no loop per period), which ends almost every stretch; the
    few periods still matching are followed alone, chunk by chunk.  A
    multiple ``kq`` of a followed period inside ``q``'s stretch starts where
    ``q``'s does (so it never wins) and is not followed.  Memory: a window and
    two chunks.
    """
    top = (d - lo) // 2
    best_s, best_p = -1, -1
    if top < 1:
        return best_s, best_p
    last = d - 1
    fast = min(FAST, d - lo)
    tail = read(d - fast, d).astype(np.int64)
    followed: list[tuple[int, int]] = []
    for p0 in range(1, top + 1, PERIODS):
        p1 = min(top + 1, p0 + PERIODS)
        ps = np.arange(p0, p1, dtype=np.int64)
        a = max(lo, last - (p1 - 1) - (fast - 1))
        window = read(a, last - p0 + 1)
        if arithmetic:
            window = window.astype(np.int64)
        rev = window[::-1]  # rev[(p - p0) + j] = G(d - 1 - p - j)
        saltus = tail[-1] - rev[: ps.size] if arithmetic else None
        starts, alive = _first_steps(rev, tail, ps, last, lo, fast, saltus)
        for k in alive:
            p = int(ps[k])
            if any(p % q == 0 and 2 * q <= p < stretch for q, stretch in followed):
                continue
            salt = int(saltus[k]) if arithmetic else 0
            starts[k] = _follow(read, p, last - p - fast, lo, salt, arithmetic)
            followed.append((p, d - int(starts[k])))
        length = d - starts
        ok = (starts >= 0) & (length >= (3 if arithmetic else 2) * ps)
        if arithmetic:
            ok &= saltus > 0
        if ok.any():
            k = int(np.flatnonzero(ok)[np.argmin(starts[ok])])
            if best_s < 0 or starts[k] < best_s:
                best_s, best_p = int(starts[k]), int(ps[k])
                if best_s == lo:
                    break
    return best_s, best_p


def _first_steps(rev, tail, ps, last, lo, fast, saltus):
    """The first :data:`FAST` comparisons of every period of a block: the starts of the stretches
    they end (``-1`` for the rest) and the periods still matching after them (their indices).

    Step ``j`` compares ``G(d - 1 - j)`` with ``G(d - 1 - p - j)``, a slice of ``rev`` for all
    periods at once; once few periods are left, only theirs are compared.
    """
    size = ps.size
    starts = np.full(size, -1, dtype=np.int64)
    alive = np.ones(size, dtype=bool)
    j = 0
    while j < fast and alive.sum() * 16 > size:
        m = min(size, rev.size - j)
        if m < size:  # these periods' stretches reach heap lo
            starts[m:][alive[m:]] = lo
            alive[m:] = False
        seg = rev[j : j + m]
        same = seg == tail[fast - 1 - j] if saltus is None else tail[fast - 1 - j] - seg == saltus[:m]
        broke = alive[:m] & ~same
        starts[:m][broke] = last - ps[:m][broke] - j + 1
        alive[:m] &= same
        j += 1
    idx = np.flatnonzero(alive)
    while j < fast and idx.size:
        pos = idx + j
        off = pos >= rev.size
        starts[idx[off]] = lo
        idx, pos = idx[~off], pos[~off]
        seg = rev[pos]
        same = seg == tail[fast - 1 - j] if saltus is None else tail[fast - 1 - j] - seg == saltus[idx]
        starts[idx[~same]] = last - ps[idx[~same]] - j + 1
        idx = idx[same]
        j += 1
    return starts, idx


def _follow(read, p: int, i: int, lo: int, saltus: int, arithmetic: bool) -> int:
    """The start of the stretch of period ``p`` known to match from heap ``i + 1`` on: walk back
    from ``i`` in growing steps (up to :data:`PERIODS` heaps) until ``G(x + p) - G(x)`` differs
    from ``saltus`` (or ``lo``)."""
    step = min(4096, PERIODS)
    while i >= lo:
        x0 = max(lo, i - step + 1)
        low, high = read(x0, i + 1), read(x0 + p, i + 1 + p)
        bad = (high.astype(np.int64) - low.astype(np.int64) != saltus) if arithmetic else (high != low)
        hits = np.flatnonzero(bad)
        if hits.size:
            return x0 + int(hits[-1]) + 1
        i = x0 - 1
        step = min(2 * step, PERIODS)
    return lo


__all__ = ["Sequence", "StoredSequence", "digest", "digest_blocks", "load", "paths", "streamed_reading", "values"]
