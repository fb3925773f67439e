"""The dense engine: a numba kernel that looks at every move of every heap.

The mex at heap ``n`` is found as a search.  The values of the moves that leave
at most one heap are marked first; then the least unmarked value ``c`` is the
candidate, and the splits of every ``m = n - k`` (``k`` a split digit) are
tested against it in fixed blocks that LLVM vectorises (a compare and an OR,
no branch).  The scan leaves the block loop only when a block holds ``c``;
that block's values are then all marked, the next candidate is taken, and the
scan starts again.  A candidate that no block holds is ``G(n)``.

Each candidate's scan starts again from the first pair, so a heap with many
candidates compares each pair many times (at ``2^19`` heaps of the crowded
games of 4 digits, about ten times).  From the first heap up to three split
digits there is a second way, the **marked prefix**: where a candidate is
found, every pair up to its block is marked, and the next candidate's scan
starts there; each pair is then compared once and marked at most once, and a
mark is weighed against a compare by :data:`MARK_COST`.  Every :data:`PROBE_EVERY`
heaps one heap is computed each way, their work counted, and the cheaper way
computes the heaps up to the next probe.  Both ways find the same mex, so the
values never depend on the choice, only the time does.

All split digits are scanned together: the pairs ``(a, m - a)`` of
``m = n - k`` for every ``k`` share the load of ``G(a)``, so two split digits
cost one pass over ``a``, not two.  The partner ``G(m - a)`` is read forwards
from a reversed copy ``r[L-1-i] = G(i)``, so that both streams are contiguous.
A digit with ``!`` (two unequal heaps) scans ``a`` to ``(m - 1) // 2``, one
short of the middle, so the equal split ``(m/2, m/2)`` is never looked at
(:mod:`.moves`).

Values live in the smallest unsigned type that holds them; the kernel stops
at the first heap whose value does not fit and the driver promotes the arrays
and goes on (it never wraps).

The values a heap's moves reach are marked in a **stamp table**: entry ``x``
holds the stamp of the last heap that reached ``x``, so that a heap needs no
clearing of its own.  The stamps are 8-bit (:data:`STAMPS`): a crowded game
marks almost every pair it scans, at scattered entries, and the table it
touches is then an eighth of the size it is with 64-bit stamps (``·7246`` to
``2^18`` heaps takes 0.72 of the time it took with them).  Heap ``n`` stamps
``1 + n % STAMPS``, and the table is cleared whenever the stamps begin again,
so no stamp of an earlier round is ever taken for the heap's own.
"""

from __future__ import annotations

import time

import numpy as np

from ..errors import ValueRangeError
from ._jit import kernel
from .chunks import CHUNK_SECONDS, FIRST_CHUNK, next_chunk
from .moves import _mark_small_moves, _split_sizes, split_digits

BLOCK = 128
"""Pairs in the first vectorised block of a scan; a found candidate costs one block of marking."""
BLOCK_MAX = 4096
"""The largest block: later blocks double up to it, so a long scan runs at full vector speed."""

PROBE_EVERY = 64
"""Every this many heaps, one heap is computed by each way of scanning and the cheaper way
is kept until the next probe (module docstring)."""
MARK_COST = 1
"""The weight of a marked pair against a compared pair in the probe, set by timing whole runs,
not by the two operations alone: a mark into the 8-bit stamp table costs a few compares, but the
count of compared pairs leaves out what the plain scan spends besides (each candidate's scan
begins again with a small block).  At 8, the ratio of the two in a microbenchmark, crowded
games took 1.3 to 1.4 times as long (``·7246``, ``·1337``, ``·3351`` to ``2^17``); at 1 no
game measured ran slower than at the others tried (0, 2, 4, 8), beyond the noise."""
STAMPS = 255
"""The stamps of a round of the stamp table, ``1..STAMPS`` (8-bit entries; module docstring).
Read at each call, so that a test can make the rounds short."""
WORK = 7
"""The entries of the kernel's ``work`` scratch: the last probe's two costs, ``PROBE_EVERY``,
``MARK_COST``, the pairs compared and marked since the probe began, and ``STAMPS``."""

DTYPES = (np.uint8, np.uint16, np.uint32)
MAX_VALUE = (1 << 20) - 1
"""The largest value the kernels accept: the stamp tables are this long.

The tables are indexed by the XOR of two values, which stays within them only
when their length is a power of two (checked here at import, and the drivers
size the tables by the next power of two in any case).  The drivers read it
at call time, so a test can lower it to reach the promotion and the
:class:`ValueRangeError` paths cheaply.
"""


def check_capacity(cap: int) -> int:
    """``cap`` if it is a power of two minus one (a table of ``cap + 1`` holds any XOR), else raise."""
    if cap < 1 or (cap + 1) & cap:
        raise ValueError(f"a value capacity must be a power of two minus one, not {cap}")
    return cap


check_capacity(MAX_VALUE)


def new_table(cap: int) -> np.ndarray:
    """A stamp table for values up to ``cap`` (8-bit stamps, module docstring)."""
    return np.zeros(table_size(cap), dtype=np.uint8)


@kernel
def _stamp(seen, n, stamps):
    """The stamp of heap ``n`` in the stamp table ``seen``: ``1 + n % stamps``; a new round
    begins with the table cleared (module docstring)."""
    stamp = 1 + n % stamps
    if stamp == 1:
        seen[:] = 0
    return stamp


def table_size(cap: int) -> int:
    """The length of a stamp table for values up to ``cap``: every XOR of two of them, and one more."""
    return (1 << int(cap).bit_length()) + 1


def check_prefix(prefix: np.ndarray, code, max_value: int) -> None:
    """Refuse known values the kernels cannot hold (above ``max_value``)."""
    if prefix.size and int(prefix.max()) > max_value:
        raise ValueRangeError(
            f"the values given for {code} reach {int(prefix.max())}, "
            f"above {max_value}, the largest value supported"
        )


@kernel
def _block_has(g, r, offs, nk, a0, a1, c, top):
    """Whether some split ``(a, m_j - a)`` with ``a0 <= a < a1`` is worth ``c``.

    Branch-free so that it vectorises: ``G(a) ^ c ^ G(m - a)`` is zero exactly
    at a split worth ``c``, and the minimum over the block is taken in the
    values' own type (``top`` is that type's largest value).
    """
    acc = top
    if nk == 1:
        o0 = offs[0]
        for a in range(a0, a1):
            acc = min(acc, g[a] ^ c ^ r[o0 + a])
    elif nk == 2:
        o0 = offs[0]
        o1 = offs[1]
        for a in range(a0, a1):
            x = g[a] ^ c
            acc = min(acc, min(x ^ r[o0 + a], x ^ r[o1 + a]))
    else:
        o0 = offs[0]
        o1 = offs[1]
        o2 = offs[2]
        for a in range(a0, a1):
            x = g[a] ^ c
            acc = min(acc, min(x ^ r[o0 + a], min(x ^ r[o1 + a], x ^ r[o2 + a])))
    return acc == 0


@kernel
def _mark_block(g, r, offs, nk, a0, a1, seen, stamp):
    for j in range(nk):
        o = offs[j]
        for a in range(a0, a1):
            seen[g[a] ^ r[o + a]] = stamp


@kernel
def _splits_have(g, r, ms, L, c, top, seen, stamp, offs, block, block_max, work):
    """Whether a split of some ``m`` in ``ms`` is worth ``c``; marks the block where it is.

    Split digits are taken three at a time; within a group the common range
    ``1 <= a <= min(top)`` is scanned in vectorised blocks that start small
    (a present candidate is usually found early) and double up to
    ``block_max``; the few extra pairs of the larger ``m`` are tested one by one.
    An entry of ``ms`` carries its digit's ``!`` (:mod:`.moves`): ``top`` is
    ``m // 2``, or ``(m - 1) // 2`` when the heaps must differ.
    """
    one = np.uint64(1)
    for j0 in range(0, ms.shape[0], 3):
        nk = min(3, ms.shape[0] - j0)
        hmin = _group(ms, j0, nk, L, offs)
        a0, a1 = _find(g, r, offs, nk, one, hmin, c, top, block, block_max, work)
        if a1:
            _mark_block(g, r, offs, nk, a0, a1, seen, stamp)
            return True
        if _tail_has(g, r, ms, j0, nk, offs, hmin, c):
            return True
    return False


@kernel
def _find(g, r, offs, nk, a0, hmin, c, top, block, block_max, work):
    """The first block ``[a0, a1)`` from ``a0`` (blocks of ``block`` pairs doubling up to
    ``block_max``) whose splits hold ``c``, or ``(0, 0)``; counts the pairs compared in
    ``work[4]``."""
    one = np.uint64(1)
    size = np.uint64(block)
    while a0 <= hmin:
        a1 = min(a0 + size, hmin + one)
        work[4] += np.int64(a1 - a0) * nk
        if _block_has(g, r, offs, nk, a0, a1, c, top):
            return a0, a1
        a0 = a1
        size = min(size + size, np.uint64(block_max))
    return np.uint64(0), np.uint64(0)


@kernel
def _group(ms, j0, nk, L, offs):
    """Set ``offs`` for the split digits ``ms[j0 : j0 + nk]`` and return the end of the range
    of ``a`` they share (``uint64``)."""
    hmin = ms[j0] & 0xFFFFFFFF
    for j in range(nk):
        e = ms[j0 + j]
        offs[j] = np.uint64(L - 1 - (e & 0xFFFFFFFF))
        hmin = min(hmin, ((e & 0xFFFFFFFF) - (e >> 32)) >> 1)
    return np.uint64(hmin)


@kernel
def _tail_has(g, r, ms, j0, nk, offs, hmin, c):
    """Whether a split worth ``c`` lies past the shared range, among the few extra pairs of the
    larger ``m`` of the group (tested one by one)."""
    one = np.uint64(1)
    for j in range(nk):
        e = ms[j0 + j]
        h = np.uint64(((e & 0xFFFFFFFF) - (e >> 32)) >> 1)
        o = offs[j]
        for a in range(hmin + one, h + one):
            if (g[a] ^ r[o + a]) == c:
                return True
    return False


@kernel
def _splits_from(g, r, ms, L, c, top, seen, stamp, offs, block, block_max, work, prefix):
    """:func:`_splits_have` for up to three split digits, with every pair ``a < prefix`` already
    marked: the scan starts at ``prefix``, and where ``c`` is found every pair up to the end of
    its block is marked.  Returns the new prefix, ``prefix`` itself when only a pair past the
    common range holds ``c``, or 0 when no split is worth ``c``."""
    nk = ms.shape[0]
    hmin = _group(ms, 0, nk, L, offs)
    start = np.uint64(prefix)
    a1 = _find(g, r, offs, nk, start, hmin, c, top, block, block_max, work)[1]
    if a1:
        _mark_block(g, r, offs, nk, start, a1, seen, stamp)
        work[5] += np.int64(a1 - start) * nk
        return np.int64(a1)
    return np.int64(prefix) if _tail_has(g, r, ms, 0, nk, offs, hmin, c) else np.int64(0)


@kernel(native="i8(V, V, i8, i8, i8[::1], i8[::1], i8[::1], u1[::1], i8, V, i8, i8, i8[::1], u8[::1], i8[::1])")
def _fill(g, r, n0, n1, take_all, leave_one, split, seen, cap, cbox, block, block_max, ms, offs, work):
    """Compute ``g[n]`` for ``n0 <= n < n1`` (two-heap moves at most).

    ``r`` is the reversed copy (``r[len(r)-1-i] = g[i]``, ``len(r) >= n1``),
    ``seen`` a stamp table (:func:`new_table`) and ``cbox`` a
    scratch pair of ``g``'s type whose second entry is that type's largest
    value; ``ms`` (as long as ``split``) and ``offs`` (3) are scratch.
    ``work`` (:data:`WORK` entries, ``work[2]`` = :data:`PROBE_EVERY`, ``work[3]`` =
    :data:`MARK_COST`, ``work[6]`` = :data:`STAMPS`) carries the choice of scan from call to call.
    Returns the first heap not computed: ``n1``, or the heap whose value
    exceeds ``cap``.
    """
    L = r.shape[0]
    top = cbox[1]
    every = work[2]
    for n in range(n0, n1):
        stamp = _stamp(seen, n, work[6])
        _mark_small_moves(g, n, take_all, leave_one, seen, stamp)
        nm = _split_sizes(n, split, ms)
        phase = n % every
        work[4] = 0
        work[5] = 0
        prefixed = nm <= 3 and (phase == 1 or (phase > 1 and work[1] < work[0]))
        prefix = 1
        c = 0
        while True:
            while seen[c] == stamp:
                c += 1
            if c > cap:
                return n
            cbox[0] = c
            if nm == 0:
                break
            if prefixed:
                prefix = _splits_from(g, r, ms[:nm], L, cbox[0], top, seen, stamp, offs, block, block_max,
                                      work, prefix)
                if prefix == 0:
                    break
            elif not _splits_have(g, r, ms[:nm], L, cbox[0], top, seen, stamp, offs, block, block_max, work):
                break
            seen[c] = stamp
        if phase < 2:
            work[phase] = work[4] + work[3] * work[5]
        g[n] = c
        r[L - 1 - n] = c
    return n1


@kernel(native="i8(V, i8, i8, i8[::1], i8[::1], i8[::1], i8[::1], u1[::1], i8, i8)")
def _fill_hex(g, n0, n1, take_all, leave_one, split, split3, seen, cap, stamps):
    """Compute ``g[n]`` for ``n0 <= n < n1`` by enumerating every move, three-heap ones too.

    Cubic in the depth: hexadecimal codes are read to modest depths.  ``split`` holds the
    words of :func:`.moves.split_digits` (bit 32: the two heaps must differ); ``seen`` is a stamp
    table (:func:`new_table`) and ``stamps`` :data:`STAMPS`.
    """
    for n in range(n0, n1):
        stamp = _stamp(seen, n, stamps)
        _mark_small_moves(g, n, take_all, leave_one, seen, stamp)
        for e in split:
            m = n - (e & 0xFFFFFFFF)
            for a in range(1, ((m - (e >> 32)) >> 1) + 1):
                seen[g[a] ^ g[m - a]] = stamp
        for k in split3:
            m = n - k
            for a in range(1, m // 3 + 1):
                ga = g[a]
                for b in range(a, (m - a) // 2 + 1):
                    seen[ga ^ g[b] ^ g[m - a - b]] = stamp
        c = 0
        while seen[c] == stamp:
            c += 1
        if c > cap:
            return n
        g[n] = c
    return n1


def new_work() -> np.ndarray:
    """The ``work`` scratch of :func:`_fill` (:data:`WORK`): no probe yet, so the first heaps
    up to the first probe scan from the first pair.  :data:`PROBE_EVERY`, :data:`MARK_COST` and
    :data:`STAMPS` are read at each call (a test sets them to reach either way of scanning on
    every heap, or short rounds of stamps)."""
    work = np.zeros(WORK, dtype=np.int64)
    work[2], work[3], work[6] = PROBE_EVERY, MARK_COST, STAMPS
    return work


def _as_kernel_arrays(code):
    ks = (code.take_all, code.leave_one, code.split_three)
    take_all, leave_one, split3 = (np.asarray(k, dtype=np.int64) for k in ks)
    return take_all, leave_one, split_digits(code), split3


def _cap(dtype) -> int:
    return min(int(np.iinfo(dtype).max), MAX_VALUE)


def run(code, heaps, prefix, on_chunk=None, chunk_seconds=CHUNK_SECONDS):
    """Extend ``prefix`` (values of heaps ``0..len(prefix)-1``) to ``heaps`` values.

    Works in chunks of about ``chunk_seconds`` and calls ``on_chunk(values)``
    with the values computed so far after each; promotes the value type when a
    value no longer fits.  Returns the values as a new array.
    """
    check_prefix(prefix, code, MAX_VALUE)
    take_all, leave_one, split, split3 = _as_kernel_arrays(code)
    dtype = np.dtype(prefix.dtype if prefix.size else np.uint8)
    g = np.zeros(heaps, dtype=dtype)
    g[: prefix.size] = prefix
    hexa = split3.size > 0
    r = np.zeros(0 if hexa else heaps, dtype=dtype)
    if not hexa:
        r[heaps - 1 - np.arange(prefix.size)] = prefix
    seen = new_table(_cap(dtype))
    ms = np.zeros(split.size, dtype=np.int64)
    offs = np.zeros(3, dtype=np.uint64)
    work = new_work()
    n = max(prefix.size, 1)
    chunk = FIRST_CHUNK
    while n < heaps:
        n1 = min(heaps, n + chunk)
        cap = _cap(dtype)
        t0 = time.perf_counter()
        if hexa:
            stop = _fill_hex(g, n, n1, take_all, leave_one, split, split3, seen, cap, work[6])
        else:
            cbox = np.array([0, np.iinfo(dtype).max], dtype=dtype)
            stop = _fill(
                g, r, n, n1, take_all, leave_one, split, seen, cap, cbox, BLOCK, BLOCK_MAX, ms, offs, work
            )
        elapsed = time.perf_counter() - t0
        if stop < n1:
            if dtype == DTYPES[-1]:
                raise ValueRangeError(
                    f"heap {stop} of {code} is worth more than {MAX_VALUE}, the largest value supported"
                )
            dtype = np.dtype(DTYPES[DTYPES.index(dtype.type) + 1])
            g = g.astype(dtype)
            r = r.astype(dtype)
            seen = new_table(_cap(dtype))
        chunk = next_chunk(stop - n, elapsed, chunk_seconds)
        n = stop
        if on_chunk is not None:
            on_chunk(g[:n])
    return g
