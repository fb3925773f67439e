"""A sequence's values on disk in compressed chunks, its frontier statistics, and the run that
grows it.

A **store** is a folder::

    STORE/meta.json              code, depth, dtype, chunk size, checksum, statistics, chunk hashes
    STORE/000000000.zst          heaps 0 .. C-1 (C = the chunk size), zstd-compressed
    STORE/000000001-40000.zst    a last chunk that is not full: heaps C .. C+39,999
    STORE/lock                   held (``fcntl.flock``) by the one run that writes the store

It grows only at its end (:meth:`Store.append`).  Every file is written to a
temporary name, flushed to disk and renamed into place, the chunks before the
metadata, and a chunk that is not full is written under a new name when it
grows: the metadata names exactly the chunks it claims, so a writer killed at
any moment (``kill -9``) leaves a store that opens and holds every heap it
claims; a full disk or an unwritable folder is one :class:`~grundy.errors.StoreError`
and leaves the store as it was.  Each chunk's hash (BLAKE2b of the file) is in
the metadata and zstd's own checksum covers the decompressed values, so a
damaged chunk is reported in one line, never read as values.  A store is read a
chunk at a time (:meth:`Store.read`, :meth:`Store.chunks`), with a few
decompressed chunks cached: memory is a few chunks, never the whole sequence.

The compression is zstandard (python-zstandard): one small, maintained
extension with no dependencies of its own, fast at its default level on these
values (·16's 2^24 heaps, 16 MB as bytes, compress in about 20 ms), and its
frames carry their own checksum.  It is imported on first use, so start-up and
small work never load it.

**Frontier statistics** (:class:`Frontier`) are fed the values block by block,
as a run makes them, and kept in the metadata: at every power of two and at the
end, the largest value and its first heap, the histogram of values, the
sparse engine's mask with its count of rare heaps and the last one, and the
Fletcher-32 checksum that the published programs print (:func:`fletcher32`).

**Runs.**  :func:`grow` is the one driver that ``grundy values`` (and
``grundy.values``) call: it takes the engine's new values as ``(start, block)``
pairs (a :class:`Recorder`) and appends them to the store every checkpoint
interval, when the run ends and when it is interrupted.  ``grundy settle``
grows its own run in place and gives its values to a :class:`Recorder` too.
"""

from __future__ import annotations

import bisect
import contextlib
import errno
import hashlib
import json
import os
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Self

import numpy as np

from .._version import __version__
from ..codes import Code, parse
from ..errors import SequenceFileError, StoreError, UsageError
from ..files import write_whole
from ..interrupts import held_interrupts
from ..value_classes import RareClass, fewest_in, table

try:
    import fcntl
except ImportError:  # not POSIX: no locks
    fcntl = None

FORMAT = 1
"""The store's format (``meta.json``'s ``store``); a store of another format is refused."""
CHUNK = 1 << 20
"""Heaps per chunk of a new store (1 MiB of ``uint8`` values)."""
CACHE = 4
"""Decompressed chunks a store keeps in memory while it is read."""
LEVEL = 3
"""zstd's compression level (its default)."""
SUB = 1 << 16
"""The statistics' grid: the last block of this many heaps where each (value, parity) pair occurred."""
CHECKPOINT_SECONDS = 30.0
WAITING = 1 << 25
"""The most heaps a run holds for its store between checkpoints before it appends them anyway
(a bounded engine hands over copies: they would otherwise cost memory for the interval)."""
META = "meta.json"
LOCK = "lock"
_WORD = 1 << 16
_J = np.arange(_WORD, dtype=np.uint64)


class StoreWarning(UserWarning):
    """Something a run says about its store and goes on (a migrated file, a checkpoint given up)."""


def _warn(message: str) -> None:
    warnings.warn(message, StoreWarning, stacklevel=3)


def fletcher32(values, state: tuple[int, int] = (0, 0)) -> int:
    """Fletcher-32 of ``values`` as 16-bit words, as the published programs compute it.

    ``s0 = (s0 + v) mod 2^16``, ``s1 = (s1 + s0) mod 2^16`` over the values in
    order, result ``(s1 << 16) | s0`` (Beling's ``ogs``; its own loop is the
    tests' twin).  ``state`` is ``(s0, s1)`` after earlier values, so blocks
    combine (:func:`fletcher_step`).
    """
    s0, s1 = fletcher_step(state, np.asarray(values))
    return (s1 << 16) | s0


def fletcher_step(state: tuple[int, int], block: np.ndarray) -> tuple[int, int]:
    """``(s0, s1)`` after ``block`` from ``state``, in numpy passes.

    After ``n`` more values ``b_i``, ``s1`` gains ``n·s0 + Σ (n - i)·b_i`` and
    ``s0`` gains ``Σ b_i``.  Only residues mod 2^16 matter, so uint64 sums may
    wrap, and ``Σ i·b_i`` needs ``i`` mod 2^16 only: the values in rows of
    2^16 are summed by column, and one product with ``0..2^16-1`` finishes it.
    """
    s0, s1 = state
    n = int(block.size)
    if n == 0:
        return s0, s1
    total = int(block.sum(dtype=np.uint64))
    rows = n // _WORD
    weighted = 0
    if rows:
        columns = block[: rows * _WORD].reshape(rows, _WORD).sum(axis=0, dtype=np.uint64)
        weighted = int((_J * columns).sum(dtype=np.uint64))
    rest = block[rows * _WORD :]
    if rest.size:
        weighted += int((_J[: rest.size] * rest).sum(dtype=np.uint64))
    s1 = (s1 + n * s0 + n * total - weighted) % _WORD
    return (s0 + total) % _WORD, s1


def hex32(checksum: int) -> str:
    """A checksum as the published programs print it: upper-case hex, no leading zeros."""
    return f"{checksum:X}"


# ---------------------------------------------------------------- frontier statistics


@dataclass(frozen=True)
class FrontierRecord:
    """A run's statistics at ``heaps`` heaps (heaps ``0..heaps-1``).

    ``histogram[v]`` counts the heaps worth ``v``; ``checksum`` is the
    Fletcher-32 of the values (:func:`fletcher32`).  ``mask`` and ``position``
    are the sparse engine's rare class there: the mask in use, or where it ran
    dense (no mask paid) the best one for the values so far, as
    :class:`~grundy.engine.sparse.SparseStats` reports it; ``rare_heaps`` and
    ``last_rare`` count heaps ``1..heaps-1`` in that class.  The four are None
    where no sparse engine ran (another engine, values migrated from a file).
    """

    heaps: int
    max: int
    argmax: int
    histogram: tuple[int, ...]
    checksum: str
    mask: int | None = None
    position: bool | None = None
    rare_heaps: int | None = None
    last_rare: int | None = None

    def to_dict(self) -> dict:
        out = asdict(self)
        out["histogram"] = list(self.histogram)
        return out


class Frontier:
    """The streaming accumulator of a run's statistics (:class:`FrontierRecord`).

    :meth:`feed` takes consecutive blocks of values, :meth:`status` the sparse
    engine's statuses (its mask), in any order.  It keeps the histogram of
    (value, heap parity) pairs, the last :data:`SUB`-block where each pair
    occurred, the checksum and the maximum, so that a record at any depth costs
    no second pass: the rare count of any class comes from the pairs, and its
    last rare heap from one block read back through :attr:`read` (heaps before
    the block being fed).  A power of two reached before the engine has said
    which mask made it waits for the next status; a record a killed run left
    waiting takes the last mask that run reported.  Without ``powers`` it keeps
    no record at the powers of two, only the one at the end (:meth:`summary`):
    a survey, which reads only that, spares choosing a class at each of them.
    """

    def __init__(self, code: Code | str, powers: bool = True):
        from .sparse import applies, split_parity

        self.code = parse(code)
        self.powers = powers
        self.applies = applies(self.code)
        self.pi = split_parity(self.code) if self.applies else None
        self.n = 0
        self.s = (0, 0)
        self.top = -1
        self.argmax = -1
        self.pairs = np.zeros((2, 1), dtype=np.int64)
        self.last_sub = np.full((2, 1), -1, dtype=np.int64)
        self.records: list[FrontierRecord] = []
        self.pending: list[dict] = []
        self.masks: list[dict] = []
        self.known = 0
        self.read: Callable[[int, int], np.ndarray] | None = None
        self._hand: tuple[int, np.ndarray] | None = None

    # ------------------------------------------------------------ feeding

    def feed(self, start: int, block: np.ndarray) -> None:
        """Add the values of heaps ``start .. start+len(block)-1`` (``start`` = heaps fed so far)."""
        if start != self.n:
            raise UsageError(f"the statistics hold {self.n:,} heaps: a block must start there, "
                             f"not at {start:,}")  # fmt: skip
        b = np.asarray(block)
        self._hand = (start, b)
        try:
            if not self.powers:
                if b.size:
                    self._piece(b)
                return
            i = 0
            while i < b.size:
                power = 1 << self.n.bit_length()
                stop = min(b.size, i + power - self.n)
                self._piece(b[i:stop])
                if self.n == power:
                    self._cut()
                i = stop
        finally:
            self._hand = None

    def _piece(self, b: np.ndarray) -> None:
        x = self.n
        top = int(b.max())
        if top > self.top:
            self.top, self.argmax = top, x + int(b.argmax())
        if top >= self.pairs.shape[1]:
            size = max(top + 1, 2 * self.pairs.shape[1])
            self.pairs = np.pad(self.pairs, ((0, 0), (0, size - self.pairs.shape[1])))
            self.last_sub = np.pad(self.last_sub, ((0, 0), (0, size - self.last_sub.shape[1])),
                                   constant_values=-1)  # fmt: skip
        self.s = fletcher_step(self.s, b)
        k = 0
        while k < b.size:
            x0 = x + k
            end = min(b.size, k + SUB - x0 % SUB)
            self._count(x0, b[k:end])
            k = end
        self.n = x + b.size

    def _count(self, x0: int, b: np.ndarray) -> None:
        """Count the pairs of heaps ``x0 ..`` (one :data:`SUB`-block) and mark where they occurred."""
        j = x0 // SUB
        for q in (0, 1):
            part = b[(x0 & 1) ^ q :: 2]
            if part.size:
                h = np.bincount(part)
                self.pairs[q, : h.size] += h
                self.last_sub[q, : h.size][h > 0] = j

    def _snapshot(self) -> dict:
        return {"heaps": self.n, "max": self.top, "argmax": self.argmax,
                "histogram": self.pairs.sum(axis=0)[: self.top + 1].tolist(),
                "checksum": self.checksum, "pairs": self.pairs.copy(),
                "last_sub": self.last_sub.copy()}  # fmt: skip

    def _cut(self) -> None:
        snap = self._snapshot()
        if self.known >= self.n:
            self.records.append(self._resolve(snap, self._entry_at(self.n - 1)))
        else:
            self.pending.append(snap)

    # ------------------------------------------------------------ the engine's masks

    def status(self, heaps: int, mask: RareClass | None, sparse: bool = True) -> None:
        """Heaps up to ``heaps`` were computed with ``mask`` (None: dense), by the sparse engine
        when ``sparse``, by another when not."""
        if heaps <= self.known:
            return
        entry = {"from": self.known, "mask": None if mask is None else int(mask.mask),
                 "position": bool(mask is not None and mask.position),
                 "sparse": bool(sparse and self.applies)}  # fmt: skip
        if not self.masks or {**self.masks[-1], "from": entry["from"]} != entry:
            self.masks.append(entry)
        self.known = heaps
        while self.pending and self.pending[0]["heaps"] <= heaps:
            self.records.append(self._resolve(self.pending.pop(0), entry))

    def _entry_at(self, heap: int) -> dict | None:
        i = bisect.bisect_right([e["from"] for e in self.masks], heap) - 1
        return self.masks[i] if i >= 0 else None

    def _resolve(self, snap: dict, entry: dict | None) -> FrontierRecord:
        base = {k: snap[k] for k in ("heaps", "max", "argmax", "checksum")}
        base["histogram"] = tuple(snap["histogram"])
        if entry is None or not entry["sparse"]:
            return FrontierRecord(**base)
        pairs, h = snap["pairs"], snap["heaps"]
        if entry["mask"] is None:
            cls = self._best(pairs, h)
        else:
            cls = RareClass(entry["mask"], 0, entry["position"])
        rare = self._rare_pairs(cls, pairs.shape[1])
        count = int(pairs[rare].sum()) - int(rare[0, 0])  # heap 0 is never counted
        return FrontierRecord(**base, mask=cls.mask, position=cls.position, rare_heaps=count,
                              last_rare=self._last_rare(cls, rare, snap["last_sub"], h))

    def _rare_pairs(self, cls: RareClass, size: int) -> np.ndarray:
        """``rare[q, v]``: whether a heap of parity ``q`` worth ``v`` lies in the engine's class."""
        p = table(cls.mask, size).astype(bool)
        if not cls.position:
            return np.stack([~p, ~p])
        shift = bool(self.pi)
        return np.stack([p == shift, p != shift])

    def _best(self, pairs: np.ndarray, heaps: int) -> RareClass:
        """The class :func:`grundy.engine.sparse.best_mask` picks for heaps ``1..heaps-1``, from the
        pairs (:func:`grundy.value_classes.fewest_in`, which counts from the same histogram)."""
        even, odd = pairs[0].copy(), pairs[1]
        even[0] -= 1
        seen = np.flatnonzero(even + odd)
        size = 2
        while size <= (int(seen[-1]) if seen.size else 0):
            size *= 2
        flat = np.zeros(2 * size, dtype=np.int64)
        flat[: min(size, even.size)] = even[:size]
        flat[size : size + min(size, odd.size)] = odd[:size]
        return fewest_in(flat, 0, split_parity=self.pi)[0]

    def _last_rare(self, cls, rare: np.ndarray, last_sub: np.ndarray, heaps: int) -> int | None:
        j = int(last_sub[rare].max(initial=-1))
        if j < 0:
            return None
        lo, hi = max(j * SUB, 1), min((j + 1) * SUB, heaps)  # no rare heap lies past block j
        if lo >= hi:
            return None
        values = self._values(lo, hi)
        p = table(cls.mask, int(values.max()) + 1)[values]
        if cls.position:
            p ^= (np.arange(lo, hi) & 1).astype(np.uint8) ^ np.uint8(self.pi)
        hits = np.flatnonzero(p == 0)
        return int(lo + hits[-1]) if hits.size else None

    def _values(self, a: int, b: int) -> np.ndarray:
        """Heaps ``a..b-1``: from the block being fed, and before it through :attr:`read`."""
        start, block = self._hand if self._hand is not None else (self.n, None)
        parts = []
        if a < start:
            if self.read is None:
                raise UsageError("these statistics cannot read back the values they were fed")
            parts.append(np.asarray(self.read(a, min(b, start))))
        if b > start:
            parts.append(block[max(a, start) - start : b - start])
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    # ------------------------------------------------------------ results

    def summary(self) -> FrontierRecord | None:
        """The record at the depth fed so far (None before any value), with the latest mask known."""
        if self.n == 0:
            return None
        if self.records and self.records[-1].heaps == self.n:
            return self.records[-1]
        if self.known >= self.n:
            entry = self._entry_at(self.n - 1)
        else:
            entry = self.masks[-1] if self.masks else None
        return self._resolve(self._snapshot(), entry)

    def history(self) -> list[FrontierRecord]:
        """The records at every power of two reached, and at the end when that is not one."""
        out = list(self.records)
        last = self.masks[-1] if self.masks else None
        out += [self._resolve(snap, last) for snap in self.pending]
        end = self.summary()
        if end is not None and (not out or out[-1].heaps != end.heaps):
            out.append(end)
        return out

    @property
    def checksum(self) -> str:
        """The Fletcher-32 of the values fed so far (:func:`hex32`)."""
        return hex32((self.s[1] << 16) | self.s[0])

    # ------------------------------------------------------------ state in the metadata

    def state(self) -> dict:
        """Everything needed to go on feeding, as JSON (kept in a store's metadata)."""
        size = self.top + 1
        return {
            "heaps": self.n, "s0": self.s[0], "s1": self.s[1], "max": self.top, "argmax": self.argmax,
            "pairs": self.pairs[:, :size].tolist(), "last_sub": self.last_sub[:, :size].tolist(),
            "records": [r.to_dict() for r in self.records],
            "pending": [{**{k: v for k, v in p.items() if k not in ("pairs", "last_sub")},
                         "pairs": p["pairs"].tolist(), "last_sub": p["last_sub"].tolist()}
                        for p in self.pending],
            "masks": self.masks, "known": self.known,
        }  # fmt: skip

    @classmethod
    def from_state(cls, code: Code | str, state: dict, read=None) -> Frontier:
        """The accumulator :meth:`state` described.  Records a killed run left waiting for their
        mask take the last mask it reported (a new run's first mask may be another)."""
        f = cls(code)
        f.read = read
        f.n, f.s = int(state["heaps"]), (int(state["s0"]), int(state["s1"]))
        f.top, f.argmax = int(state["max"]), int(state["argmax"])
        f.pairs = np.asarray(state["pairs"], dtype=np.int64).reshape(2, -1)
        f.last_sub = np.asarray(state["last_sub"], dtype=np.int64).reshape(2, -1)
        if f.pairs.shape[1] == 0:
            f.pairs, f.last_sub = np.zeros((2, 1), np.int64), np.full((2, 1), -1, np.int64)
        f.records = [FrontierRecord(**{**r, "histogram": tuple(r["histogram"])}) for r in state["records"]]
        f.masks = list(state["masks"])
        f.known = int(state["known"])
        last = f.masks[-1] if f.masks else None
        for p in state["pending"]:
            snap = {**p, "pairs": np.asarray(p["pairs"], np.int64).reshape(2, -1),
                    "last_sub": np.asarray(p["last_sub"], np.int64).reshape(2, -1)}  # fmt: skip
            f.records.append(f._resolve(snap, last))
        f.known = max(f.known, f.n) if f.masks else f.known
        return f

    @classmethod
    def of(cls, code: Code | str, values: np.ndarray) -> Frontier:
        """The statistics of ``values`` alone (no engine said which mask made them)."""
        f = cls(code)
        f.status(len(values), None, sparse=False)
        f.feed(0, values)
        return f


# ---------------------------------------------------------------- the store


def _zstd():
    import zstandard

    return zstandard


def store_path(path: str | os.PathLike) -> Path:
    """The store's folder: ``path`` without a ``.npy``/``.json`` suffix (the names ``--out``
    took before stores, so ``--out s.npy`` still means ``s``)."""
    p = Path(path)
    return p.with_suffix("") if p.suffix in (".npy", ".json") else p


def is_store(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a store's folder (it holds ``meta.json``)."""
    return (store_path(path) / META).is_file()


def stored_heaps(path: str | os.PathLike) -> int:
    """How many heaps the store at ``path`` holds (0 for none, or one that cannot be read):
    where a progress bar of a resumed run starts."""
    try:
        return int(_read_meta(store_path(path)).get("depth", 0)) if is_store(path) else 0
    except (SequenceFileError, TypeError, ValueError):
        return 0


def _unsigned(block) -> np.ndarray:
    b = np.asarray(block)
    if b.ndim != 1 or (b.size and b.dtype.kind not in "ui"):
        raise UsageError("a store holds one-dimensional arrays of whole numbers")
    if b.size and b.dtype.kind == "i" and int(b.min()) < 0:
        raise UsageError("a store holds values of at least 0")
    return b


def _smallest(top: int) -> np.dtype:
    for dt in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise UsageError(f"value {top} does not fit 32 bits")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Store:
    """A sequence's values on disk (module docstring): ``len``, ``read(a, b)``, ``s[n]``,
    ``s[a:b]``, ``chunks()``, and for a writer ``append(block)``.

    Open one with :meth:`open` (to read) or :meth:`writer` (to grow it: locked,
    created, or migrated from an old ``PATH.npy`` + ``PATH.json``); a writer is a
    context manager that unlocks the store when it ends.
    """

    def __init__(self, path: Path, meta: dict, fd: int | None = None):
        self.path = path
        self._fd = fd
        self._failed = False
        self._cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self._tail = np.zeros(0, dtype=np.uint8)
        self._load(meta)

    def _load(self, meta: dict) -> None:
        where = self.path / META
        try:
            if meta.get("store") != FORMAT:
                raise SequenceFileError(f"{where} has store format {meta.get('store')!r}; "
                                        f"this version reads format {FORMAT}")  # fmt: skip
            self.code = parse(meta["code"])
            self.depth = int(meta["depth"])
            self.chunk = int(meta["chunk"])
            self.dtype = np.dtype(meta["dtype"])
            self.entries = [str(e) for e in meta["chunks"]]
            self.engine = str(meta.get("engine", "?"))
            self.version = str(meta.get("version", "?"))
            stats = meta.get("statistics")
        except (KeyError, TypeError, ValueError) as exc:
            why = " ".join(str(exc).split()) or type(exc).__name__
            raise SequenceFileError(f"{where} does not describe a store ({why})") from None
        if (self.dtype.kind != "u" or self.depth < 0 or self.chunk < 1
                or len(self.entries) != -(-self.depth // self.chunk)):  # fmt: skip
            raise SequenceFileError(f"{where} does not describe a store (depth {self.depth}, "
                                    f"chunk {self.chunk}, {len(self.entries)} chunks)")  # fmt: skip
        self.frontier = None
        if isinstance(stats, dict) and stats.get("heaps") == self.depth:
            try:
                self.frontier = Frontier.from_state(self.code, stats, self.read)
            except (KeyError, TypeError, ValueError):
                self.frontier = None
        if self.frontier is None:
            self.frontier = self._recount()

    def _recount(self) -> Frontier:
        """Statistics fed from the values themselves (metadata without usable statistics)."""
        f = Frontier(self.code)
        f.read = self.read
        f.status(self.depth, None, sparse=False)
        for start, block in self.chunks():
            f.feed(start, block)
        return f

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | os.PathLike, code: Code | str | None = None) -> Store:
        """The store at ``path``, to read; refuses one of another ``code`` than asked."""
        p = store_path(path)
        store = cls(p, _read_meta(p))
        store._check_code(code)
        return store

    @classmethod
    def writer(
        cls,
        path: str | os.PathLike,
        code: Code | str,
        *,
        chunk: int = CHUNK,
        on_warning: Callable[[str], None] | None = None,
    ) -> Store:
        """The store at ``path`` for ``code``, locked for this process to grow.

        A missing store is created (``chunk`` heaps a chunk); an old
        ``PATH.npy`` + ``PATH.json`` of the same code is migrated into a new
        store at ``PATH`` (``on_warning`` says so; the old files are left as
        they were).  Another run writing it, another code, a damaged store, a
        folder that holds something else or cannot be written: one error.
        """
        from ..sequence import Sequence, paths

        code = parse(code)
        p = store_path(path)
        if not isinstance(chunk, (int, np.integer)) or chunk < 1:
            raise UsageError(f"a chunk holds at least 1 heap, not {chunk!r}")
        if p.exists() and not p.is_dir():
            raise StoreError(f"{p} is a file, not a store (a store is a folder)")
        legacy = None
        if not is_store(p):
            npy, _ = paths(p)
            if npy.exists():
                legacy = Sequence.load(p)
                if legacy.code != code:
                    raise SequenceFileError(f"{npy} holds {legacy.code}, not {code}")
            if p.is_dir() and any(q.name != LOCK for q in p.iterdir()):
                raise SequenceFileError(f"{p} is a folder that holds no store: give a new or empty folder")
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the store {p} ({_why(exc)})") from None
        fd = _lock(p)
        try:
            if is_store(p):
                store = cls(p, _read_meta(p), fd)
                store._check_code(code)
                store._open_tail()
                store._tidy()
                return store
            meta = {"store": FORMAT, "code": str(code), "t": code.t, "depth": 0, "chunk": int(chunk),
                    "dtype": "uint8", "chunks": [], "engine": "none", "version": __version__}  # fmt: skip
            store = cls(p, meta, fd)
            store._write_meta()
        except BaseException:
            os.close(fd)
            raise
        if legacy is not None:
            store.frontier.status(legacy.depth, None, sparse=False)
            store.append(legacy.values)
            npy, side = paths(p)
            (on_warning or _warn)(f"migrated {npy} ({legacy.depth:,} heaps) into the store {p}; "
                       f"{npy.name} and {side.name} are left as they were")  # fmt: skip
        return store

    def _check_code(self, code) -> None:
        if code is not None and self.code != parse(code):
            raise SequenceFileError(f"{self.path} holds {self.code}, not {parse(code)}")

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Release the lock (a writer); the store stays readable."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # ------------------------------------------------------------ reading

    def __len__(self) -> int:
        return self.depth

    def __repr__(self) -> str:
        return f"<Store {self.path}: {self.code}, {self.depth:,} heaps in {len(self.entries)} chunks>"

    @property
    def checksum(self) -> str:
        """The Fletcher-32 of every value stored (:func:`fletcher32`)."""
        return self.frontier.checksum

    def read(self, a: int, b: int) -> np.ndarray:
        """Heaps ``a..b-1`` as a numpy array of the store's type, read chunk by chunk."""
        if not (isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer))
                and 0 <= a <= b <= self.depth):  # fmt: skip
            raise UsageError(f"a store of {self.depth:,} heaps reads 0 <= a <= b <= {self.depth:,}, "
                             f"not {a!r}..{b!r}")  # fmt: skip
        out = np.empty(int(b - a), dtype=self.dtype)
        if b == a:
            return out
        for k in range(a // self.chunk, (b - 1) // self.chunk + 1):
            lo = k * self.chunk
            values = self._chunk(k)
            x0, x1 = max(a, lo), min(b, lo + values.size)
            out[x0 - a : x1 - a] = values[x0 - lo : x1 - lo]
        return out

    def __getitem__(self, index):
        if isinstance(index, slice):
            heaps = range(*index.indices(self.depth))
            if not heaps:
                return np.zeros(0, dtype=self.dtype)
            lo, hi = min(heaps[0], heaps[-1]), max(heaps[0], heaps[-1]) + 1
            return self.read(lo, hi)[heaps.start - lo :: heaps.step][: len(heaps)]
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"a store is indexed by heaps or slices, not {type(index).__name__}")
        n = int(index) + (self.depth if index < 0 else 0)
        if not 0 <= n < self.depth:
            raise IndexError(f"heap {index} is not in a store of {self.depth:,} heaps")
        return int(self.read(n, n + 1)[0])

    def chunks(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, np.ndarray]]:
        """``(first heap, values)`` for each chunk from heap ``start`` to ``stop`` (default: all)."""
        stop = self.depth if stop is None else min(stop, self.depth)
        x = start
        while x < stop:
            y = min(stop, (x // self.chunk + 1) * self.chunk)
            yield x, self.read(x, y)
            x = y

    def frontier_at(self, heaps: int) -> Frontier:
        """The statistics of heaps ``0..heaps-1``: the store's own at its depth, else fed again
        from the chunks (with the masks the runs reported), a chunk at a time."""
        if heaps == self.depth:
            return self.frontier
        if not 0 <= heaps <= self.depth:
            raise UsageError(f"a store of {self.depth:,} heaps has no statistics at {heaps!r} heaps")
        f = Frontier(self.code)
        f.read = self.read
        f.masks = [e for e in self.frontier.masks if e["from"] < heaps]
        f.known = min(self.frontier.known, heaps)
        for start, block in self.chunks(0, heaps):
            f.feed(start, block)
        return f

    def verify(self) -> None:
        """Read every chunk, so that a damaged one is reported now (one error) rather than later."""
        for k in range(len(self.entries)):
            self._chunk(k, cache=False)

    def _name(self, k: int, n: int) -> str:
        return f"{k:09d}.zst" if n == self.chunk else f"{k:09d}-{n}.zst"

    def _size(self, k: int) -> int:
        return min(self.chunk, self.depth - k * self.chunk)

    def _chunk(self, k: int, cache: bool = True) -> np.ndarray:
        """Chunk ``k``'s values in its own type (verified once, then cached)."""
        n = self._size(k)
        if self._fd is not None and k == len(self.entries) - 1 and self._tail.size == n:
            return self._tail
        if k in self._cache:
            self._cache.move_to_end(k)
            return self._cache[k]
        try:
            values = self._decode(k, n)
        except SequenceFileError:
            if self._fd is not None or not self._grown():
                raise
            return self._chunk(k, cache)
        if cache:
            self._cache[k] = values
            while len(self._cache) > CACHE:
                self._cache.popitem(last=False)
        return values

    def _grown(self) -> bool:
        """Whether a writer has grown the store since this reader opened it (its last chunk, not
        full then, has a new name now): if so, read the metadata again."""
        try:
            meta = _read_meta(self.path)
        except SequenceFileError:
            return False
        if not isinstance(meta.get("depth"), int) or meta["depth"] <= self.depth:
            return False
        self._load(meta)
        self._cache.clear()
        return True

    def _decode(self, k: int, n: int) -> np.ndarray:
        name = self._name(k, n)
        where = f"{self.path}: chunk {k:,} (heaps {k * self.chunk:,}..{k * self.chunk + n - 1:,})"
        try:
            data = (self.path / name).read_bytes()
        except FileNotFoundError:
            raise SequenceFileError(f"{where} is missing ({name})") from None
        except OSError as exc:
            raise SequenceFileError(f"{where} cannot be read ({_why(exc)})") from None
        kind, _, digest = self.entries[k].partition(":")
        if hashlib.blake2b(data, digest_size=16).hexdigest() != digest:
            raise SequenceFileError(f"{where} is damaged: its hash does not match {META}")
        try:
            raw = _zstd().ZstdDecompressor().decompress(data)
            values = np.frombuffer(raw, dtype=np.dtype(kind))
        except (_zstd().ZstdError, TypeError, ValueError) as exc:
            raise SequenceFileError(f"{where} is damaged ({exc})") from None
        if values.size != n:
            raise SequenceFileError(f"{where} is damaged: it holds {values.size:,} values, not {n:,}")
        return values

    # ------------------------------------------------------------ writing

    def append(self, block) -> None:
        """Add heaps ``len(self) .. len(self)+len(block)-1``: chunks, then the metadata, each
        written atomically; the statistics are fed the block.  Raises :class:`StoreError` (the
        store keeps what it held) when the disk is full or the folder cannot be written."""
        self.extend([block])

    def extend(self, blocks) -> None:
        """Append consecutive ``blocks`` as :meth:`append` does, with one metadata for them all."""
        if self._fd is None:
            raise UsageError(f"{self.path} is open for reading: use Store.writer to grow it")
        if self._failed:
            raise StoreError(f"{self.path} failed to write: open it again to go on")
        blocks = [b for b in map(_unsigned, blocks) if b.size]
        if blocks:
            with held_interrupts():
                self._append(blocks)

    def _append(self, blocks: list[np.ndarray]) -> None:
        top = max(int(b.max()) for b in blocks)
        dtype = max(self.dtype, _smallest(top), key=lambda d: d.itemsize)
        start, c = self.depth, self.chunk
        k0 = start // c
        entries = self.entries[:k0]
        written: list[str] = []
        buf = np.empty(c, dtype=dtype)
        fill = start % c
        buf[:fill] = self._tail[:fill]
        x = start
        try:
            for b in blocks:
                i = 0
                while i < b.size:
                    take = min(b.size - i, c - fill)
                    buf[fill : fill + take] = b[i : i + take]
                    fill, i = fill + take, i + take
                    if fill == c:
                        entries.append(self._write_chunk(len(entries), buf, written))
                        fill = 0
                self.frontier.feed(x, b)
                x += b.size
            if fill:
                entries.append(self._write_chunk(len(entries), buf[:fill], written))
            self._write_meta(depth=x, dtype=dtype, entries=entries)
        except OSError as exc:
            self._failed = True
            for name in written:
                (self.path / name).unlink(missing_ok=True)
            full = " (the disk is full)" if exc.errno == errno.ENOSPC else ""
            raise StoreError(f"cannot write the store {self.path} ({_why(exc)}){full}: "
                             f"it keeps its {start:,} heaps") from None  # fmt: skip
        except BaseException:
            self._failed = True
            raise
        old = self._name(k0, start % c) if start % c else None
        self.depth, self.dtype, self.entries = x, dtype, entries
        self._tail = buf[:fill].copy()
        self._cache.pop(k0, None)
        if old is not None:
            (self.path / old).unlink(missing_ok=True)

    def _write_chunk(self, k: int, values: np.ndarray, written: list[str]) -> str:
        data = _zstd().ZstdCompressor(level=LEVEL, write_checksum=True).compress(values.tobytes())
        name = self._name(k, values.size)
        write_whole(self.path / name, data)
        written.append(name)
        return f"{values.dtype.str.lstrip('<>|=')}:{hashlib.blake2b(data, digest_size=16).hexdigest()}"

    def _write_meta(self, *, depth=None, dtype=None, entries=None) -> None:
        depth = self.depth if depth is None else depth
        meta = {
            "store": FORMAT, "code": str(self.code), "t": self.code.t, "depth": depth,
            "dtype": (self.dtype if dtype is None else dtype).name, "chunk": self.chunk,
            "checksum": self.frontier.checksum if depth else None,
            "engine": self.engine, "version": __version__, "updated": time.time(),
            "statistics": self.frontier.state(),
            "chunks": self.entries if entries is None else entries,
        }  # fmt: skip
        _sync_dir(self.path)
        write_whole(self.path / META, json.dumps(meta, separators=(",", ":")).encode())
        _sync_dir(self.path)

    def note_engine(self, engine: str) -> None:
        """Record the engine that grows the store (written with the next metadata)."""
        self.engine = engine

    def _open_tail(self) -> None:
        """Keep a writer's last chunk in memory when it is not full (it is rewritten as it grows)."""
        if self.depth % self.chunk:
            self._tail = self._decode(len(self.entries) - 1, self.depth % self.chunk)

    def _tidy(self) -> None:
        """Remove what a killed writer left behind: temporary files and chunks the metadata
        does not name."""
        names = {self._name(k, self._size(k)) for k in range(len(self.entries))} | {META, LOCK}
        for q in self.path.iterdir():
            if q.name not in names and (q.name.endswith(".zst") or q.name.endswith(".tmp")):
                q.unlink(missing_ok=True)

    def remove(self) -> None:
        """Delete the store (a writer): the metadata first, so that what is left claims nothing."""
        if self._fd is None:
            raise UsageError(f"{self.path} is open for reading: only its writer removes it")
        (self.path / META).unlink(missing_ok=True)
        for q in self.path.iterdir():
            if q.name != LOCK:
                q.unlink(missing_ok=True)
        (self.path / LOCK).unlink(missing_ok=True)
        self.close()
        with contextlib.suppress(OSError):  # another run has just taken the folder for a store
            self.path.rmdir()


def _read_meta(p: Path) -> dict:
    where = p / META
    try:
        meta = json.loads(where.read_text())
    except FileNotFoundError:
        raise SequenceFileError(f"no store at {p} (no {META})") from None
    except (OSError, ValueError) as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise SequenceFileError(f"{where} is not readable metadata ({why})") from None
    if not isinstance(meta, dict):
        raise SequenceFileError(f"{where} does not describe a store")
    return meta


def _lock(p: Path) -> int:
    """An open descriptor holding ``p/lock`` exclusively; another holder is a StoreError."""
    if fcntl is None:
        raise StoreError("this system has no file locks: a store cannot be written safely")
    lock = p / LOCK
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot write the store {p} ({_why(exc)})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.fstat(fd).st_ino == os.stat(lock).st_ino
        except FileNotFoundError:
            same = False
        except BlockingIOError:
            os.close(fd)
            raise StoreError(f"another run is writing the store {p}") from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"cannot lock the store {p} ({_why(exc)})") from None
        if same:  # not a lock that its holder has just deleted with its store
            return fd
        os.close(fd)


def _sync_dir(p: Path) -> None:
    fd = os.open(p, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- runs


class Recorder:
    """Where a run's new values go: ``(start, block)`` pairs and the engine's statuses.

    With a ``store``, blocks wait in memory (views of the engine's values, no
    copy) and are appended every ``every`` seconds (:meth:`tick`), once
    :data:`WAITING` heaps wait, and on :meth:`flush` (at the end of a run,
    and when it is interrupted); the store's own :class:`Frontier` is fed as
    they are.  Without one, the
    statistics are fed at once.  ``sparse`` says whether the engine reports its
    mask (:meth:`status`); for other engines the statistics record none.  A
    ``disposable`` store (the cache's) that cannot be written is given up
    with one ``on_warning``, and the run goes on without it.
    """

    def __init__(self, code, store: Store | None, *, every: float = CHECKPOINT_SECONDS,
                 sparse: bool = True, disposable: bool = False, powers: bool = True,
                 on_warning: Callable[[str], None] = _warn):  # fmt: skip
        self.store = store
        self.stored = store
        self.frontier = store.frontier if store is not None else Frontier(code, powers)
        self.frontier.read = self.read
        self.every = every
        self.sparse = sparse
        self.disposable = disposable
        self.on_warning = on_warning
        self.pending: list[tuple[int, np.ndarray]] = []
        self.end = len(store) if store is not None else 0
        self.last = time.monotonic()

    def block(self, start: int, block: np.ndarray) -> None:
        """The values of heaps ``start ..`` (consecutive with the blocks before)."""
        if start != self.end:
            raise UsageError(f"a run's blocks follow one another: expected heap {self.end:,}, not {start:,}")
        if not block.size:
            return
        self.pending.append((start, block))
        self.end = start + block.size
        if not self.sparse:
            self.frontier.status(self.end, None, sparse=False)
        if self.store is None:
            self.frontier.feed(start, block)
        elif self.end - self.pending[0][0] >= WAITING:
            self.flush()

    def follow(self, values: np.ndarray) -> None:
        """The engine's values so far (its ``on_chunk``): the heaps past :attr:`end` become a
        block, appended when a checkpoint is due.  ``grow`` and ``settle`` both checkpoint so."""
        if values.size > self.end:
            self.block(self.end, values[self.end :])
        self.tick()

    def status(self, status) -> None:
        """The sparse engine's :class:`~grundy.engine.sparse.Status` (its ``on_status``): which mask
        made its heaps; a checkpoint when one is due."""
        self.frontier.status(status.heaps, status.mask)
        self.tick()

    def tick(self) -> None:
        """Append what waits when a checkpoint is due."""
        if self.store is not None and time.monotonic() - self.last >= self.every:
            self.flush()

    def flush(self) -> None:
        """Append every waiting block to the store (nothing without one)."""
        self.last = time.monotonic()
        if self.store is None:
            return
        try:
            held = len(self.store)  # an interrupt may have come just after an append
            self.store.extend([b[max(0, held - s) :] for s, b in self.pending if s + b.size > held])
            self.pending.clear()
        except StoreError as exc:
            if not self.disposable:
                raise
            self.on_warning(f"{exc}: no more checkpoints")
            self._let_go()

    def finish(self, keep: bool = True) -> None:
        """The run is over: append what waits (``keep``), or only count it in the statistics (a
        disposable store about to be deleted: its last values are never written)."""
        if keep:
            self.flush()
        else:
            self._let_go()

    def _let_go(self) -> None:
        """Go on without the store: the blocks that wait are fed to the statistics alone."""
        self.store = None
        for start, block in self.pending:
            if start + block.size > self.frontier.n:
                self.frontier.feed(self.frontier.n, block[self.frontier.n - start :])

    def read(self, a: int, b: int) -> np.ndarray:
        """Heaps ``a..b-1`` of the run: from the store, and from the blocks that wait."""
        parts = []
        held = len(self.stored) if self.stored is not None else 0
        if a < held:
            parts.append(self.stored.read(a, min(b, held)))
        starts = [s for s, _ in self.pending]
        i = max(0, bisect.bisect_right(starts, max(a, held)) - 1)
        for start, block in self.pending[i:]:
            lo, hi = max(a, held, start), min(b, start + block.size)
            if lo < hi:
                parts.append(block[lo - start : hi - start])
        if not parts:
            return np.zeros(0, dtype=np.uint8)
        return parts[0] if len(parts) == 1 else np.concatenate(parts)


@dataclass
class Grown:
    """What :func:`grow` did: the values in memory (None when nothing was computed), the heaps
    the store already held, the engine, its sparse statistics, and the run's frontier."""

    values: np.ndarray | None
    reused: int
    engine: str
    stats: object | None
    frontier: Frontier


MEMORY = 1 << 28
"""Bytes of values a run keeps in memory by default (:func:`grow`): 256 MiB."""


def in_memory(code: Code, heaps: int, memory: int = MEMORY) -> bool:
    """Whether a run of ``heaps`` heaps keeps every value in memory: when they fit in ``memory``
    bytes (two a heap, the type most codes reach), or when no bounded run applies (a code with
    no sparse-space method needs every value)."""
    from . import sparse

    return heaps * 2 <= memory or not sparse.applies(code)


def bounded_sizes(memory: int = MEMORY) -> tuple[int, int]:
    """The head and the least tail (in heaps) of a bounded run kept in about ``memory`` bytes
    (:mod:`grundy.engine.bounded`): an eighth and a sixty-fourth, at least 2^16 heaps each."""
    return max(1 << 16, memory // 8), max(1 << 16, memory // 64)


def grow(
    store: Store | None,
    code: Code | str,
    heaps: int,
    *,
    engine: str = "auto",
    memory: int = MEMORY,
    every: float = CHECKPOINT_SECONDS,
    on_chunk: Callable[[np.ndarray], None] | None = None,
    on_status: Callable | None = None,
    disposable: bool = False,
    powers: bool = True,
    mask: RareClass | None = None,
    on_warning: Callable[[str], None] = _warn,
) -> Grown:
    """Grow ``store`` (a writer, or None for no store) to ``heaps`` heaps: the one driver of runs.

    Only the heaps the store lacks are computed; a store already as deep
    computes nothing.  The engine's values go to a :class:`Recorder` as
    ``(start, block)`` pairs; they are appended every ``every`` seconds, at
    the end (not to a ``disposable`` store, the cache's, deleted when the run
    ends, unless the run was bounded), and when the run is interrupted
    (Ctrl-C, or SIGTERM turned into one), so ``kill -9`` loses at most
    ``every`` seconds of work.  ``on_chunk(values_so_far)`` and
    ``on_status(status)`` follow the engine.  Without a store, ``powers=False`` keeps the
    statistics at the end only (:class:`Frontier`).  ``mask`` forces the sparse engine's mask
    (``engine="sparse"``): the values do not depend on it, so a run under another mask checks
    the first.

    A run into a store of its own (not ``disposable``: a run without a store
    named by the user keeps its values in memory, and is refused where they
    would not fit) whose values would not fit in ``memory`` bytes
    (:func:`in_memory`) is bounded (:class:`grundy.engine.bounded.BoundedRun`):
    it keeps the first heaps and a tail, reads the rest back from the store,
    and returns no values (``Grown.values`` is None: read the store); it
    calls ``on_status``, never ``on_chunk``, since it holds no values so far.
    """
    from ..memory import check_heaps
    from . import choose, compute_with_stats, sparse

    code = parse(code)
    have = len(store) if store is not None else 0
    name = choose(code, engine)
    if store is not None and have >= heaps:
        return Grown(None, have, store.engine, None, store.frontier)
    bounded = store is not None and not disposable and name == "sparse" and not in_memory(code, heaps, memory)
    if not bounded:
        check_heaps(heaps)
    elif heaps > sparse.HEAP_LIMIT:
        raise UsageError(f"{heaps:,} heaps are beyond the sparse engine's reach: its rare heaps are "
                         f"numbered below 2^43 ({sparse.HEAP_LIMIT:,})")
    if store is not None:
        store.note_engine(name)
    rec = Recorder(code, store, every=every, sparse=name == "sparse", disposable=disposable,
                   powers=powers, on_warning=on_warning)  # fmt: skip

    def chunk(values: np.ndarray) -> None:
        rec.follow(values)
        if on_chunk is not None:
            on_chunk(values)

    def status(s) -> None:
        rec.status(s)
        if on_status is not None:
            on_status(s)

    try:
        if bounded:
            values, stats = None, _bounded(code, heaps, rec, have, memory, status, mask)
        else:
            prefix = store.read(0, have) if have else None
            values, stats = compute_with_stats(code, heaps, engine=engine, prefix=prefix,
                                               on_chunk=chunk, on_status=status, mask=mask)  # fmt: skip
            if values.size > rec.end:
                rec.block(rec.end, values[rec.end :])
    except KeyboardInterrupt:
        rec.flush()
        raise
    rec.finish(keep=not disposable)
    return Grown(values, have, name, stats, rec.frontier)


def _bounded(code: Code, heaps: int, rec: Recorder, have: int, memory: int, status, mask=None):
    """Run the bounded engine from the ``have`` heaps stored to ``heaps``, its blocks to ``rec``
    (under ``mask`` when one is forced)."""
    from .bounded import BoundedRun

    head, tail = bounded_sizes(memory)

    def sink(start: int, block: np.ndarray) -> None:
        rec.block(start, block)
        rec.tick()

    run = BoundedRun(code, sink, rec.read, have, head=head, tail=tail, mask=mask)
    try:
        run.extend(heaps, on_status=status)
        return run.stats()
    finally:
        run.close()


__all__ = [
    "CHUNK", "FORMAT", "MEMORY", "Frontier", "FrontierRecord", "Grown", "Recorder", "Store", "StoreWarning",
    "fletcher32", "fletcher_step", "grow", "hex32", "in_memory", "is_store",
    "store_path", "stored_heaps",
]
