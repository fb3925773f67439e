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

With two split digits or more there is a third way, the **shared split sets**.  The
values of the splits of ``m`` into two unequal heaps, ``P(m) = {G(a) ^ G(m - a) : a < m - a}``,
do not depend on the heap they are split from: heap ``n`` reads ``P(n - k)`` for every split
digit ``k``, so one set serves heap ``m + k`` for each ``k``.  The kernel marks every split of
``m = n - kmin`` once, into a table of its own in a ring of ``kmax - kmin + 1`` tables, and
takes the mex of the union of the tables of every ``n - k``, the moves that leave at most one
heap, and 0 where a digit without ``!`` splits an even ``m`` into two equal heaps.  A heap then
costs one marked pass over the splits of one ``m``, however many split digits the code has,
where the other two ways mark nearly every split of every digit in the crowded games.  It runs
while the marked prefix marked more splits at the last probes than it would
(:data:`SHARED_COST`), with a probe of the marked prefix now and then (:data:`SHARED_PROBE`).

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
SHARED_COST = 1.0
"""The shared split sets (module docstring) run while the marked prefix marked, at the last
probes (``work[7]``), more than ``SHARED_COST`` times the splits of ``n - kmin`` (the pairs
the shared way marks a heap).  Marks are what both ways pay for; the other ways' compares
cost far less, so the prefix's marks alone decide.  Set by timing runs of this driver, turn
about in one process, on 47 codes of 2 to 4 split digits to 65,536 heaps (docs/values.md):
with the shared sets on every heap, those whose prefix marked at least 0.6 of that took 0.47
to 0.98 of the time, those under 0.5 took 1.4 to 7 times as long; under this rule the crowded
games of 3 split digits took 0.49 to 0.53, those of 2 took 0.74 to 0.88, and no code took
longer beyond the noise (the two above 1.05 in three runs took 1.00 and 1.01 in five).  Read
at each call, so that a test can make the shared way win every probe (a negative weight)."""
SHARED_PROBE = 8
"""While the shared split sets run, one heap in ``SHARED_PROBE * PROBE_EVERY`` is computed by
the marked prefix to keep the probes' mean (:data:`WORK`) up to date: a game whose splits
cease to be marked nearly all (values that thin out deeper) leaves the shared way within a
few of them, at the cost of about one heap in a hundred in a crowded game."""
STAMPS = 255
"""The stamps of a round of the stamp table, ``1..STAMPS`` (8-bit entries; module docstring).
Read at each call, so that a test can make the rounds short."""
WORK = 8
"""The entries of the kernel's ``work`` scratch: the last probe's two costs, ``PROBE_EVERY``,
``MARK_COST``, the pairs compared and marked since the probe began, ``STAMPS``, and the pairs
the marked prefix marked at the last probes, per heap of the depth and times ``2^16``: a mean
in which each probe weighs an eighth, against which the shared split sets weigh themselves
(one heap's marks are often nearly none or nearly all, so one probe says little, and a share
of the depth stays comparable while the depth grows between probes)."""

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
        if phase == 1:
            work[7] += ((work[5] << 16) // n - work[7]) // 8
        g[n] = c
        r[L - 1 - n] = c
    return n1


@kernel
def _split_set(g, r, m, ring, base, top):
    """Mark in the table of ``ring`` at ``base`` (cleared first) the value of every split
    ``(a, m - a)`` of ``m`` with ``a < m - a``; every value is below ``top``, a power of two."""
    ring[base : base + np.uint64(top)] = 0
    o = r.shape[0] - 1 - m
    for a in range(1, (m - 1) // 2 + 1):
        ring[base + (g[a] ^ r[o + a])] = 1


@kernel
def _union_free(ring, bases, nb, v):
    """Whether no table of ``ring`` at the offsets ``bases[:nb]`` holds ``v``."""
    held = np.uint8(0)
    for j in range(nb):
        held |= ring[np.uint64(bases[j]) + v]
    return held == 0


@kernel
def _least_free(ring, bases, nb, seen, stamp, top):
    """The least value that no split set at the offsets ``bases[:nb]`` of ``ring`` holds and
    ``seen`` does not hold with ``stamp``.  The sets are read 64 values at a time, with no
    branch on a value (and unsigned indices, which need no check), so that it vectorises; every
    value is below ``top``, so ``top`` itself is free."""
    b0 = np.uint64(bases[0])
    b1 = np.uint64(bases[min(1, nb - 1)])
    b2 = np.uint64(bases[min(2, nb - 1)])
    c = np.uint64(0)
    end = np.uint64(top)
    while c < end:
        e = min(c + np.uint64(64), end)
        low = np.uint8(1)
        if nb == 0:
            low = np.uint8(0)
        elif nb <= 3:
            for v in range(c, e):
                low = min(low, ring[b0 + v] | ring[b1 + v] | ring[b2 + v])
        else:
            for v in range(c, e):
                u = ring[b0 + v]
                for j in range(1, nb):
                    u |= ring[np.uint64(bases[j]) + v]
                low = min(low, u)
        if low == 0:
            for v in range(c, e):
                if seen[v] != stamp and _union_free(ring, bases, nb, v):
                    return np.int64(v)
        c = e
    return top


@kernel(native="i8(V, V, i8, i8, i8[::1], i8[::1], i8[::1], u1[::1], u1[::1], i8[::1], i8[::1], i8, i8, i8)")
def _fill_shared(g, r, n0, n1, take_all, leave_one, split, seen, ring, held, bases, top, cap, stamps):
    """Compute ``g[n]`` for ``n0 <= n < n1`` from the shared split sets (module docstring).

    ``ring`` holds ``len(held)`` tables of :func:`table_size` entries; table ``m % len(held)``
    holds the values of the splits of ``m`` when ``held[m % len(held)] == m``, and is built
    when it does not, so a call may start at any heap.  ``top`` is a power of two above every
    value of ``g[:n0]``; ``r``, ``seen``, ``cap`` and ``stamps`` are those of :func:`_fill`, and
    ``bases`` is scratch (as long as ``split``).  Returns the first heap not computed: ``n1``, or
    the heap whose value exceeds ``cap``.
    """
    L = r.shape[0]
    slots = held.shape[0]
    width = ring.shape[0] // slots
    kmin, kmax = L, 0
    for e in split:
        kmin = min(kmin, e & 0xFFFFFFFF)
        kmax = max(kmax, e & 0xFFFFFFFF)
    for n in range(n0, n1):
        for m in range(max(0, n - kmax), n - kmin + 1):
            s = m % slots
            if held[s] != m:
                _split_set(g, r, m, ring, np.uint64(s * width), top)
                held[s] = m
        stamp = _stamp(seen, n, stamps)
        _mark_small_moves(g, n, take_all, leave_one, seen, stamp)
        nb = 0
        for e in split:
            m = n - (e & 0xFFFFFFFF)
            if m >= 2 and m % 2 == 0 and not e >> 32:
                seen[0] = stamp
            if m >= 3:
                bases[nb] = (m % slots) * width
                nb += 1
        c = _least_free(ring, bases, nb, seen, stamp, top)
        if c > cap:
            return n
        g[n] = c
        r[L - 1 - n] = c
        while c >= top:
            top += top
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


class _SharedSets:
    """The ring of split sets of :func:`_fill_shared` for one run, made when that way first pays,
    and the driver of that way: it computes stretches of :data:`SHARED_PROBE` probes' heaps,
    each followed by one heap of the marked prefix that keeps the probes' mean up to date."""

    def __init__(self, split: np.ndarray):
        ks = split & 0xFFFFFFFF
        self.kmin, self.slots, self.digits = int(ks.min()), int(ks.max() - ks.min()) + 1, ks.size
        self.ring = None

    def pays(self, work: np.ndarray, n: int) -> bool:
        """Whether the marked prefix marked, at the last probes, more than :data:`SHARED_COST`
        times the splits this way marks at heap ``n``."""
        return SHARED_COST * max(0, (n - self.kmin - 1) // 2) * 65536 < work[7] * n

    def fill(self, g, r, n: int, n1: int, largest: int, scan: tuple) -> tuple[int, bool]:
        """Compute heaps from ``n`` towards ``n1`` while this way pays (``scan``: the arguments of
        :func:`_fill` after the heaps); returns the first heap not computed and whether its value
        exceeds the type's capacity there."""
        take_all, leave_one, split, seen, cap, *_, work = scan
        spread = SHARED_PROBE * int(work[2])
        while n < n1 and self.pays(work, n):
            probe = n - (n - 1) % spread + spread
            end = min(n1, probe)
            stop = _fill_shared(g, r, n, end, take_all, leave_one, split, seen, self.ring, self.held,
                                self.bases, 1 << largest.bit_length(), cap, work[6])  # fmt: skip
            if stop < end:
                return stop, True
            largest = max(largest, int(g[n:stop].max()))
            n = stop
            if n == probe < n1:
                n = _fill(g, r, n, n + 1, *scan)
                if n == probe:
                    return n, True
                largest = max(largest, int(g[probe]))
        return n, False

    def reset(self, cap: int) -> None:
        """Empty tables for values up to ``cap`` (at the first use, and for a wider value type)."""
        self.ring = np.zeros(self.slots * table_size(cap), dtype=np.uint8)
        self.held = np.full(self.slots, -1, dtype=np.int64)
        self.bases = np.zeros(self.digits, dtype=np.int64)


def warm_shared(dtype) -> None:
    """Compile (or load) :func:`_fill_shared` for values of ``dtype``: a short run never takes
    that way, so a survey's warm-up (:func:`grundy.engine.warm_up`) calls this."""
    split, cap = np.array([1, 2], dtype=np.int64), _cap(np.dtype(dtype))
    sets = _SharedSets(split)
    sets.reset(cap)
    g, r, none = np.zeros(8, dtype=dtype), np.zeros(8, dtype=dtype), np.zeros(0, dtype=np.int64)
    _fill_shared(g, r, 1, 8, none, none, split, new_table(cap), sets.ring, sets.held, sets.bases, 1, cap, STAMPS)


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
    shared = _SharedSets(split) if split.size >= 2 and not hexa else None
    largest = int(prefix.max()) if prefix.size else 0
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
            scan = (take_all, leave_one, split, seen, cap, cbox, BLOCK, BLOCK_MAX, ms, offs, work)
            stop, grew = n, False
            if shared is not None and shared.pays(work, n):
                if shared.ring is None:
                    shared.reset(cap)
                stop, grew = shared.fill(g, r, n, n1, largest, scan)
            if not grew and stop < n1:
                stop = _fill(g, r, stop, n1, *scan)
        elapsed = time.perf_counter() - t0
        if stop > n:
            largest = max(largest, int(g[n:stop].max()))
        if stop < n1:
            if dtype == DTYPES[-1]:
                raise ValueRangeError(
                    f"heap {stop} of {code} is worth more than {MAX_VALUE}, the largest value supported"
                )
            dtype = np.dtype(DTYPES[DTYPES.index(dtype.type) + 1])
            g = g.astype(dtype)
            r = r.astype(dtype)
            seen = new_table(_cap(dtype))
            if shared is not None and shared.ring is not None:
                shared.reset(_cap(dtype))
        chunk = next_chunk(stop - n, elapsed, chunk_seconds)
        n = stop
        if on_chunk is not None:
            on_chunk(g[:n])
    return g
