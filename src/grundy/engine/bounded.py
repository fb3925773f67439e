"""The sparse-space method in bounded memory: a run that keeps only what the method reads.

A heap's sparse-space work reads three kinds of values (:mod:`.sparse`):

- ``G(m - x)`` for every rare heap ``x``: heaps at most ``x_last + k`` back,
  ``x_last`` the last rare heap and ``k`` the largest digit;
- the moves that leave one heap: at most ``k`` back;
- the scan's pairs ``(a, m - a)``: small ``a`` (the first heaps) against the
  most recent heaps; a scan seldom goes far, but it may (a new rare heap is
  proved only after every pair).

So a :class:`BoundedRun` keeps the first ``head`` heaps (for the scans) and a
**tail** of the most recent ones, at least ``x_last + k + 2`` and at least
``tail`` heaps, in one array addressed by the heap number: the array spans
every heap of the run as address space, but the heaps between the head and
the tail are handed back to the operating system (``madvise``) once they have
been passed on to the run's sink (the store), so they cost no memory.  The
scan of :func:`_fill_window` reads only the heaps kept and stops at the edge;
a heap whose scan would go further is computed from the sink's copy
(:meth:`BoundedRun._from_store`), by every move, chunk by chunk.  Mask
choices work from the histogram of (value, heap parity) pairs that the run
keeps (:func:`grundy.value_classes.fewest_in`); a new mask rebuilds the rare list
from the store.  Where no mask pays, the dense method needs every value:
such a stretch is computed in memory while it lies within the head, and
refused past it.

The values are bit-identical to the in-memory engine's whatever the head
and tail (the tests compare them); only the order of the scans differs
(forward only: the scan from both ends reads the middle).
"""

from __future__ import annotations

import ctypes
import mmap
import time
from collections.abc import Callable

import numpy as np

from .. import value_classes
from ..errors import UsageError
from . import smallest_dtype, sparse
from ._jit import kernel
from .chunks import CHUNK_SECONDS, FIRST_CHUNK, next_chunk
from .moves import _mark_small_moves, _split_sizes, split_digits
from .sparse import _mark_rare

HEAD = 1 << 25
"""Heaps kept from the start by default (the scans' small ``a``)."""
TAIL = 1 << 22
"""The fewest recent heaps kept by default."""
_PAGE = mmap.PAGESIZE
_MAP_NORESERVE = 0x4000
_MADV_DONTNEED = 4


# ---------------------------------------------------------------- memory


class _Mapping:
    """An anonymous mapping that reserves address space only (Linux ``MAP_NORESERVE``): the
    pages cost memory once written, and again nothing once handed back."""

    def __init__(self, nbytes: int):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.libc.mmap.restype = ctypes.c_void_p
        self.libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_int, ctypes.c_long)
        self.libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
        self.libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        self.nbytes = max(_PAGE, -(-nbytes // _PAGE) * _PAGE)
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_NORESERVE
        address = self.libc.mmap(None, self.nbytes, mmap.PROT_READ | mmap.PROT_WRITE, flags, -1, 0)
        if address in (None, ctypes.c_void_p(-1).value):
            raise MemoryError(f"no address space for {self.nbytes:,} bytes of values")
        self.address = address

    def array(self, size: int, dtype) -> np.ndarray:
        buffer = (ctypes.c_uint8 * self.nbytes).from_address(self.address)
        return np.frombuffer(buffer, dtype=dtype, count=size)

    def release(self, lo: int, hi: int) -> None:
        """Hand bytes ``lo .. hi`` back (whole pages inside them); they read as zero afterwards."""
        lo = -(-lo // _PAGE) * _PAGE
        hi = hi // _PAGE * _PAGE
        if hi > lo:
            self.libc.madvise(self.address + lo, hi - lo, _MADV_DONTNEED)

    def close(self) -> None:
        if self.address is not None:
            self.libc.munmap(self.address, self.nbytes)
            self.address = None


def mapped(size: int, dtype) -> tuple[np.ndarray, _Mapping]:
    """A zeroed array of ``size`` entries that reserves memory only as it is written."""
    mapping = _Mapping(size * np.dtype(dtype).itemsize)
    return mapping.array(size, dtype), mapping


# ---------------------------------------------------------------- kernels


@kernel
def _cross_window(g, ms, nm, need, stamp, missing, head, base):
    """Cross off ``need`` along the pairs ``(a, m - a)`` of every entry of ``ms[:nm]``, in
    increasing ``a``, reading only heaps below ``head`` and from ``base`` on.

    Returns ``(missing, edge)``: ``edge`` is true when values are still
    missing and a pair lay outside the heaps kept.  An entry is ``m``, with
    bit 32 when its heaps must differ (:mod:`.moves`: the last pair is then
    ``(m - 1) // 2``).  Two split digits share the load of ``G(a)`` up to the
    shorter one's last pair, as in :func:`.sparse._cross_off`; more go one
    after the other.  Indices are unsigned, as there, so that numba emits no
    negative-index fix-up.
    """
    one = np.uint64(1)
    m0 = np.uint64(ms[0] & 0xFFFFFFFF)
    last0 = ((ms[0] & 0xFFFFFFFF) - (ms[0] >> 32)) >> 1
    t0 = np.uint64(min(last0, head - 1, (ms[0] & 0xFFFFFFFF) - base))
    edge = t0 < np.uint64(last0)
    if nm == 1:
        for a in range(one, t0 + one):
            v = g[a] ^ g[m0 - a]
            if need[v] == stamp:
                need[v] = 0
                missing -= 1
                if missing == 0:
                    return 0, False
        return missing, edge
    start = one
    if nm == 2:
        m1 = np.uint64(ms[1] & 0xFFFFFFFF)
        last1 = ((ms[1] & 0xFFFFFFFF) - (ms[1] >> 32)) >> 1
        t1 = np.uint64(min(last1, head - 1, (ms[1] & 0xFFFFFFFF) - base))
        edge = edge or t1 < np.uint64(last1)
        for a in range(one, min(t0, t1) + one):
            ga = g[a]
            v = ga ^ g[m0 - a]
            w = ga ^ g[m1 - a]
            if need[v] == stamp:
                need[v] = 0
                missing -= 1
                if missing == 0:
                    return 0, False
            if need[w] == stamp:
                need[w] = 0
                missing -= 1
                if missing == 0:
                    return 0, False
        start = min(t0, t1) + one
    for j in range(nm):
        m = np.uint64(ms[j] & 0xFFFFFFFF)
        last = ((ms[j] & 0xFFFFFFFF) - (ms[j] >> 32)) >> 1
        top = np.uint64(min(last, head - 1, (ms[j] & 0xFFFFFFFF) - base))
        edge = edge or top < np.uint64(last)
        for a in range(start, top + one):
            v = g[a] ^ g[m - a]
            if need[v] == stamp:
                need[v] = 0
                missing -= 1
                if missing == 0:
                    return 0, False
    return missing, edge


@kernel(
    native="UniTuple(i8, 3)(V, i8, i8, i8[::1], i8[::1], i8[::1], u1[::1], i8, i8, i8[::1], i8, "
    "i8[::1], i8[::1], i8, i8[::1], i8, i8)"
)
def _fill_window(
    g, n0, n1, take_all, leave_one, split, cls, sigma, pi, rk, nr, seen, need, cap, ms,
    head, base,
):  # fmt: skip
    """Compute ``g[n]`` for ``n0 <= n < n1`` as :func:`.sparse._fill` does, reading only heaps
    below ``head`` and from ``base`` on (module docstring).

    Returns ``(stop, nr, status)``: status 0 when heaps to ``stop`` are done
    (``stop`` < ``n1`` after a new rare heap: the driver may have to keep
    more of the tail), 1 when heap ``stop``'s scan needs heaps not kept, 2
    when its value exceeds ``cap``.  ``rk`` must have room for one more.
    """
    for n in range(n0, n1):
        stamp = n + 1
        _mark_small_moves(g, n, take_all, leave_one, seen, stamp)
        nm = _split_sizes(n, split, ms)
        _mark_rare(g, rk, nr, ms, nm, seen, stamp)
        cpar = 1 ^ (sigma & ((n ^ pi) & 1))
        c = 0
        missing = 0
        while c <= cap:
            free = np.int64(seen[c] != stamp)
            if free & np.int64(cls[c] == cpar):
                break
            need[c] = stamp * free
            missing += free
            c += 1
        if missing and nm:
            missing, edge = _cross_window(g, ms, nm, need, stamp, missing, head, base)
            if edge:
                return n, nr, 1
        value = c
        if missing:
            value = 0
            while need[value] != stamp:
                value += 1
        if value > cap:
            return n, nr, 2
        g[n] = value
        if missing:
            rk[nr] = (n << 20) | value
            return n + 1, nr + 1, 0
    return n1, nr, 0


# ---------------------------------------------------------------- driver


Source = Callable[[int, int], np.ndarray]
"""``read(a, b)``: the values of heaps ``a .. b-1`` from the store the run feeds."""
Sink = Callable[[int, np.ndarray], None]
"""``sink(start, block)``: new values of heaps ``start .. start + len(block) - 1``, in order."""


def _pairs(block: np.ndarray, start: int, size: int) -> np.ndarray:
    """The (value, heap parity) histogram of heaps ``start ..`` (from heap 1) of ``block``."""
    h = np.zeros(2 * size, dtype=np.int64)
    lo = max(0, 1 - start)
    even = (start + lo) % 2 == 0
    first, second = block[lo::2], block[lo + 1 :: 2]
    h[:size] += np.bincount(first if even else second, minlength=size)[:size]
    h[size:] += np.bincount(second if even else first, minlength=size)[:size]
    return h


class BoundedRun:
    """A sparse-space run that passes every value to ``sink`` and keeps only what it reads.

    ``read`` gives back values already passed on (the store); ``known``
    heaps are there at the start (the run resumes after them).  ``head`` and
    ``tail`` are heap counts (module docstring).  ``mask`` forces one mask
    (tests: the values must not depend on it).
    """

    def __init__(self, code, sink: Sink, read: Source, known: int = 0, *, head: int = HEAD,
                 tail: int = TAIL, mask=None):
        if not sparse.applies(code):
            raise UsageError(f"{code} has no sparse-space method (it needs two-heap moves and no "
                             "three-heap ones): its values need all of memory")
        if head < 2 or tail < 2:
            raise UsageError("a bounded run keeps at least 2 heaps at the head and in the tail")
        self.code, self.sink, self.read = code, sink, read
        self.head, self.tail_min = int(head), int(tail)
        self.kmax = max((*code.take_all, *code.leave_one, *code.split_two), default=0)
        self.moves = (np.asarray(code.take_all, dtype=np.int64),
                      np.asarray(code.leave_one, dtype=np.int64), split_digits(code))
        self.pi = sparse.split_parity(code)
        self.forced = mask
        self.n = 0
        self.base = 0
        self.capacity = 0
        self.g = np.zeros(0, dtype=np.uint8)
        self.mapping = None
        self.pairs = np.zeros(4, dtype=np.int64)
        self.max, self.argmax = 0, 0
        self.mask = None
        self.rk = np.zeros(1024, dtype=np.int64)
        self.nr = 0
        self.chosen_at = self.rare_at_choice = 0
        self.fallbacks = 0
        self.freed = 0
        self.seen = self.need = np.zeros(0, np.int64)
        self.cls, self.cls_mask = np.zeros(0, np.uint8), None
        self.ms = np.zeros(len(code.split_two), np.int64)
        self.emitted = 0
        if known:
            self._resume(known)

    # ----- values kept

    def _allocate(self, capacity: int, dtype) -> None:
        """Move the kept heaps into a fresh mapping of ``capacity`` heaps of ``dtype``."""
        g, mapping = mapped(capacity, dtype)
        if self.n:
            keep = min(self.head, self.n)
            g[:keep] = self.g[:keep]
            g[self.base : self.n] = self.g[self.base : self.n]
        if self.mapping is not None:
            self.mapping.close()
        self.g, self.mapping, self.capacity = g, mapping, capacity
        self.freed = 0

    def _values(self, a: int, b: int) -> np.ndarray:
        """Heaps ``a .. b-1``: from memory where kept (below the head, from the tail's base on),
        else from the store."""
        lo, hi = max(a, self.head), min(b, self.base)
        if lo >= hi:
            return self.g[a:b]
        out = np.empty(b - a, dtype=self.g.dtype)
        out[: lo - a] = self.g[a:lo]
        out[lo - a : hi - a] = self._from_store_range(lo, hi)
        out[hi - a :] = self.g[hi:b]
        return out

    def _chunks(self, step: int = 1 << 22):
        for lo in range(0, self.n, step):
            yield lo, self._values(lo, min(self.n, lo + step))

    def _keep(self) -> int:
        last = int(self.rk[self.nr - 1] >> sparse.VALUE_BITS) if self.nr else 0
        return max(self.tail_min, last + self.kmax + 2)

    def _slide(self) -> None:
        """Keep the tail the rare heaps need, and hand back the heaps between it and the head.

        The tail starts ``x_last + k + 2`` heaps back (at least ``tail``): a
        rare heap found far out moves its start back, and what was handed back
        is read again from the store.
        """
        size = self.g.dtype.itemsize
        base = max(0, min(self.n - self._keep(), self.emitted))
        if base < self.base:
            lo = max(base, self.head)
            if lo < self.base:
                self.g[lo : self.base] = self._from_store_range(lo, self.base)
            self.freed = min(self.freed, lo * size // _PAGE * _PAGE)
            self.base = base
            return
        lo = max(self.freed, -(-self.head * size // _PAGE) * _PAGE)
        hi = base * size // _PAGE * _PAGE
        if hi > lo:
            self.mapping.release(lo, hi)
            self.freed = hi
        self.base = base

    def _from_store_range(self, a: int, b: int) -> np.ndarray:
        out = np.empty(b - a, dtype=self.g.dtype)
        for x in range(a, b, 1 << 22):
            y = min(b, x + (1 << 22))
            out[x - a : y - a] = self.read(x, y)
        return out

    def _emit(self, upto: int, values: np.ndarray | None = None) -> None:
        if upto > self.emitted:
            block = (self.g if values is None else values)[self.emitted : upto]
            self._count(self.emitted, block)
            self.sink(self.emitted, block.copy())
            self.emitted = upto

    def _count(self, start: int, block: np.ndarray) -> None:
        if not block.size:
            return
        top = int(block.max())
        size = self.pairs.size // 2
        while size <= top:
            self.pairs = np.concatenate([self.pairs[:size], np.zeros(size, np.int64),
                                         self.pairs[size:], np.zeros(size, np.int64)])
            size *= 2
        self.pairs += _pairs(block, start, size)
        if top > self.max or start == 0:
            self.max, self.argmax = top, start + int(np.argmax(block))

    # ----- resuming and choosing

    def _resume(self, known: int) -> None:
        """Start after ``known`` heaps of the store: its histogram, head, rare heaps and tail."""
        for lo in range(0, known, 1 << 22):
            self._count(lo, self.read(lo, min(known, lo + (1 << 22))))
        self._allocate(known, smallest_dtype(np.array([self.max])))
        self.g[: min(self.head, known)] = self.read(0, min(self.head, known))
        self.n = self.emitted = self.base = known
        if known <= self.head:
            return
        self._choose(rebuild=True)
        self.base = max(0, known - self._keep())
        self.g[self.base : known] = self.read(self.base, known)

    def _choose(self, rebuild: bool = False) -> None:
        """The mask with the fewest rare heaps, from the histogram; rebuild the rare list if it
        changed (from the store, chunk by chunk)."""
        if self.forced is not None:
            mask = self.forced
        else:
            mask = value_classes.fewest_in(self.pairs, 0, split_parity=self.pi)[0]
        self.chosen_at = self.n
        if mask == self.mask and not rebuild:
            self.rare_at_choice = self.nr
            return
        self.mask = mask
        words = []
        for lo, block in self._chunks():
            heaps = self._rare_in(lo, block)
            words.append((heaps << sparse.VALUE_BITS) | block[heaps - lo].astype(np.int64))
        rare = np.concatenate(words) if words else np.zeros(0, np.int64)
        self.rk = np.zeros(max(1024, 2 * rare.size), dtype=np.int64)
        self.rk[: rare.size] = rare
        self.nr = self.rare_at_choice = int(rare.size)

    def _rare_in(self, start: int, block: np.ndarray) -> np.ndarray:
        """The heaps of ``block`` (heap ``start`` first, heap 0 never) in the run's rare class."""
        klass = value_classes.table(self.mask.mask, int(block.max()) + 1)[block]
        if self.mask.position:
            klass ^= ((np.arange(start, start + block.size) & 1) ^ (self.pi or 0)).astype(np.uint8)
        heaps = np.flatnonzero(klass == 0) + start
        return heaps[heaps >= 1].astype(np.int64)

    def _due(self) -> bool:
        if self.forced is not None:
            return False
        return self.nr >= 2 * self.rare_at_choice + 64 or (
            self.n >= 2 * self.chosen_at and self.nr > self.rare_at_choice
        )

    # ----- computing

    def extend(self, heaps: int, on_status=None, chunk_seconds: float = CHUNK_SECONDS) -> None:
        """Compute up to ``heaps`` heaps, passing each chunk to the sink as it is done."""
        if heaps <= self.n:
            return
        if self.n < self.head:
            self._in_memory(min(heaps, self.head), on_status, chunk_seconds)
        if heaps > self.capacity:
            self._allocate(heaps, self.g.dtype)
        chunk = FIRST_CHUNK
        while self.n < heaps:
            if self._due():
                self._choose()
            t0, n0 = time.perf_counter(), self.n
            self._window_to(min(heaps, self.n + chunk))
            if self.n > n0:
                chunk = next_chunk(self.n - n0, time.perf_counter() - t0, chunk_seconds)
            self._emit(self.n)
            self._slide()
            if on_status is not None:
                on_status(sparse.Status(self.n, self.mask, self.nr))

    def _in_memory(self, heaps: int, on_status, chunk_seconds: float) -> None:
        """The first ``head`` heaps: the in-memory engine, every value kept (it may run dense)."""
        run = sparse.SparseRun(self.code, heaps, self.g[: self.n].copy() if self.n else None,
                               self.forced)

        def on_chunk(values: np.ndarray) -> None:
            self._emit(values.size, values)

        run.extend(heaps, on_chunk, on_status, chunk_seconds)
        self._emit(run.n, run.values)
        self.n = self.base = 0
        self._allocate(max(heaps, self.capacity), run.g.dtype)
        self.g[: run.n] = run.values
        self.n = run.n
        if run.mask is None or self.forced is not None:
            self._choose(rebuild=True)
        else:
            self.mask = run.mask
            self.rk = run.rk.copy()
            self.nr, self.rare_at_choice, self.chosen_at = run.nr, run.rare_at_choice, run.chosen_at

    def _window_to(self, target: int) -> None:
        if self.nr == self.rk.size:
            self.rk = np.concatenate([self.rk, np.zeros_like(self.rk)])
        take_all, leave_one, split = self.moves
        cap = sparse._cap(self.g.dtype)
        size = sparse.dense.table_size(cap)
        if self.seen.size != size:
            self.seen = np.zeros(size, np.int64)
            self.need = np.zeros(size, np.int64)
        if self.cls.size != size or self.cls_mask != self.mask:
            self.cls = value_classes.table(self.mask.mask, size)
            self.cls_mask = self.mask
        stop, self.nr, status = _fill_window(
            self.g, self.n, target, take_all, leave_one, split, self.cls, int(self.mask.position),
            self.pi or 0, self.rk, self.nr, self.seen, self.need, cap, self.ms,
            self.head, self.base,
        )  # fmt: skip
        self.n = stop
        if status == 1:
            self._from_store(stop)
        elif status == 2:
            self._allocate(self.capacity, _wider(self.g.dtype))

    def _from_store(self, n: int) -> None:
        """``G(n)`` by every move, the pairs read chunk by chunk (the scan went past the heaps kept)."""
        self.fallbacks += 1
        take_all, leave_one, split = self.moves
        top = max(self.max, int(self.g[self.emitted : n].max()) if n > self.emitted else 0)
        reached = np.zeros(2 * (1 << top.bit_length()) + 2, dtype=bool)
        for k in take_all:
            if n == k:
                reached[0] = True
        for k in leave_one:
            if n - k >= 1:
                reached[int(self._values(n - k, n - k + 1)[0])] = True
        step = 1 << 22
        for e in split:
            m = n - (int(e) & 0xFFFFFFFF)
            last = (m - (int(e) >> 32)) // 2
            for lo in range(1, last + 1, step):
                hi = min(last + 1, lo + step)
                small = self._values(lo, hi).astype(np.int64)
                large = self._values(m - hi + 1, m - lo + 1)[::-1].astype(np.int64)
                reached[np.bitwise_xor(small, large)] = True
        value = int(np.argmin(reached))
        if value > np.iinfo(self.g.dtype).max:
            self._allocate(self.capacity, _wider(self.g.dtype))
        self.g[n] = value
        cpar = 1 ^ (int(self.mask.position) & ((n ^ (self.pi or 0)) & 1))
        if int(value_classes.table(self.mask.mask, value + 1)[value]) != cpar:
            if self.nr == self.rk.size:
                self.rk = np.concatenate([self.rk, np.zeros_like(self.rk)])
            self.rk[self.nr] = (n << sparse.VALUE_BITS) | value
            self.nr += 1
        self.n = n + 1

    def stats(self) -> sparse.SparseStats:
        """The run's :class:`~.sparse.SparseStats` (the mask in use, its rare heaps)."""
        last = int(self.rk[self.nr - 1] >> sparse.VALUE_BITS) if self.nr else None
        return sparse.SparseStats(self.n, self.mask.mask, self.mask.position, self.nr, last,
                                  self.max, self.argmax)

    def close(self) -> None:
        if self.mapping is not None:
            self.mapping.close()
            self.mapping = None
            self.g = np.zeros(0, dtype=self.g.dtype)


def _wider(dtype):
    i = [np.dtype(d) for d in sparse.DTYPES].index(np.dtype(dtype))
    if i + 1 == len(sparse.DTYPES):
        raise UsageError(f"a value exceeds {sparse.MAX_VALUE}, the largest supported")
    return sparse.DTYPES[i + 1]
