"""The sparse-space engine (Gangolli–Plambeck): exact Grundy values that look at few splits.

A **mask** ``m`` splits values into two classes by the parity of
``popcount(v & m)``: odd values are **common**, even ones **rare**.  XOR adds
parities, so a split whose two parts are common is worth a rare value, and a
common value can only be reached by a move with a rare part or by a move that
leaves at most one heap.  Keeping the list of rare heaps, the value of heap
``n`` is found as follows (Gangolli–Plambeck; Flammenkamp's tables):

1. mark the values of the moves that leave at most one heap, and of every
   split with a rare part (``R`` rare heaps, so ``R`` marks per split digit);
2. ``c``, the least unmarked common value, is reached by no move;
3. the unmarked rare values below ``c`` are the **missing** set ``M``; scan
   the splits in order, crossing off the values they reach, and stop as soon
   as ``M`` is empty: then ``G(n) = c``;
4. a scan that ends with ``M`` non-empty gives ``G(n) = min M``, a new rare heap.

Every step is exact for any mask; a poor mask only makes ``R`` large and the
scans long.  Once rare heaps stop arriving a heap costs about ``R`` marks
plus a short scan, so the work grows linearly with the depth, where the dense
engine's grows quadratically.

**Position variant.**  When every split digit ``k`` has the same parity
``π``, the two parts of a split of ``n - k`` have sizes adding to
``n - π (mod 2)``.  A heap ``x`` may then be classed by
``Q(x) = P(G(x)) XOR σ·(x mod 2)`` with ``P(v) = popcount(v & m) mod 2``
and ``σ = 1``: for two parts with the same ``Q``,
``P(G(a) XOR G(b)) = Q(a) XOR Q(b) XOR σ·((a + b) mod 2) = σ·((n XOR π) mod 2)``,
a parity fixed by ``n``.  So at heap ``n`` the values of parity
``1 XOR σ·((n XOR π) mod 2)`` play the part of the common values (no split of
two common heaps reaches them); a heap worth the candidate ``c`` has
``Q = 1 XOR σπ`` (common), and a heap worth a missing value has ``Q = σπ``
(rare).  With ``σ = 0`` this is the plain method (common means ``P = 1``).
Both are driven by the same kernel through the per-value class table ``P``
and the two bits ``σ``, ``π``.

**Unequal splits.**  A digit with ``!`` (Grundy's game, ``4!·``) has one move
fewer at an even ``m``: the split ``(m/2, m/2)``, worth 0.  The method is
unchanged, because every step is a statement about which moves exist: step 1
marks every existing split with a rare part (the rare heap ``m/2`` is
skipped, :func:`_twin`), step 3 scans every existing pair (the pairs stop at
``(m - 1) // 2``), and ``c`` is reached by no move because every move worth a
common value has a rare part and was marked.  The split digits reach the
kernels as the words of :func:`.moves.split_digits`, bit 32 marking ``!``.

**Choosing the mask.**  For every mask at once, a Walsh–Hadamard transform of
the histogram of values counts the heaps that mask makes rare
(``#rare = (N + Ĥ(m)) / 2``); the position variant is the same transform over
the histogram of (value, heap parity) pairs.  The mask with the fewest rare
heaps is taken, and taken again when the depth doubles or the rare count
doubles.  Where even the best mask leaves so many rare heaps that the dense
kernel is cheaper (``BREAK_EVEN``), that stretch is computed densely.
Three-heap (hexadecimal) moves are not covered by the method: those codes run
dense throughout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import value_classes
from ..errors import UsageError, ValueRangeError
from ..value_classes import RareClass, fewest
from . import dense
from ._jit import kernel
from .chunks import CHUNK_SECONDS, FIRST_CHUNK, next_chunk
from .moves import _mark_small_moves, _split_sizes, split_digits

DTYPES = dense.DTYPES
MAX_VALUE = dense.MAX_VALUE
VALUE_BITS = 20
"""The low bits of a rare-list word that hold the value (the kernels spell it out: no globals)."""
if MAX_VALUE >> VALUE_BITS:
    raise ValueError(f"values up to {MAX_VALUE} do not fit the rare list's {VALUE_BITS} bits")
HEAP_LIMIT = 1 << (63 - VALUE_BITS)
"""The rare list's words hold heaps below this (2^43, about 8.8·10^12): the deepest run there is."""

BREAK_EVEN = 16
"""The sparse kernel runs while the best mask leaves fewer than one rare heap in this many.

A heap costs the sparse kernel about ``R`` ns (``R`` rare heaps: scattered
marks, the scan, the full scans of new rare heaps) and the dense one about
``0.05·n`` ns (vectorised).  Measured side by side on ``·6``, ``·354`` and
``·127`` to ``2^18`` heaps: 16 is as fast as any on the last two and 20%
faster than 40 on ``·6``, whose dense stretch it shortens.
"""
FIRST_CHOICE = 512
"""Heaps computed before the mask is first chosen from their histogram."""
PROBE = 4096
"""Heaps scanned in each order, after each choice of mask, to pick the order of the scans."""
WAYS = {"ends": 2, "forward": 0, "reverse": 1}
"""The orders of the scans of one split digit, as :func:`_cross_off` numbers them (probed in this order)."""
ORDERS = ("auto", *WAYS)


def even_class(mask: int, position: bool = False) -> RareClass:
    """The engine's rare class for ``mask``: its even class (parity 0, which holds 0), with the
    heap's parity for the position variant (docs/sparse-space.md)."""
    return RareClass(mask, 0, position)


@dataclass(frozen=True)
class SparseStats:
    """What a run of the sparse engine reports, comparable to the sparse-space tables.

    ``mask`` (with ``position`` for the position variant) is the mask in use
    at the end; when the dense kernel did the last stretch (no mask paid) it
    is the best mask for all the values, found afterwards.  ``rare_heaps``
    and ``last_rare`` count heaps ``1..heaps-1`` in its rare class; ``max``
    is the largest value, ``argmax`` the first heap worth it.
    """

    heaps: int
    mask: int
    position: bool
    rare_heaps: int
    last_rare: int | None
    max: int
    argmax: int

    @property
    def rare_class(self) -> RareClass:
        """The rare class these statistics count (:func:`even_class`)."""
        return even_class(self.mask, self.position)

    def to_dict(self) -> dict:
        return {
            "mask": self.mask,
            "position": self.position,
            "rare_heaps": self.rare_heaps,
            "last_rare": self.last_rare,
            "max": self.max,
            "argmax": self.argmax,
        }


# ---------------------------------------------------------------- kernel


@kernel
def _mark_rare(g, rk, nr, ms, nm, seen, stamp):
    """Stamp ``G(x) XOR G(m - x)`` for every rare heap ``x < m`` and every ``m`` in ``ms[:nm]``.

    ``rk[i]`` is a rare heap and its value in one word, ``x << 20 | G(x)``
    (:data:`VALUE_BITS`): one load where two arrays took two, about a third
    less time in this, the hottest loop.  ``ms`` decreases; split digits go
    two to a pass (:func:`_mark_two`).  Indices are unsigned so that numba
    emits no negative-index fix-up.  An entry of ``ms`` whose heaps must
    differ (:mod:`.moves`) skips the rare heap ``x = m/2``, if there is one
    (:func:`_mark_one`, :func:`_mark_pair`); the plain entries keep their
    loop here, inline, as before the ``!`` notation: a call a heap less,
    which shows on codes with few rare heaps.
    """
    bits = np.uint64(20)
    low = np.uint64((1 << 20) - 1)
    for j in range(0, nm, 2):
        if j + 1 < nm:
            if (ms[j] | ms[j + 1]) >> 32:
                _mark_pair(g, rk, nr, ms[j + 1], ms[j], seen, stamp, seen, stamp)
            else:
                _mark_two(g, rk, nr, ms[j + 1], ms[j], seen, stamp, seen, stamp)
            continue
        if ms[j] >> 32:
            _mark_one(g, rk, nr, ms[j], seen, stamp)
            continue
        m = np.uint64(ms[j])
        hi = nr
        while hi > 0 and np.uint64(rk[hi - 1]) >> bits >= m:
            hi -= 1
        for i in range(hi):
            e = np.uint64(rk[i])
            seen[(e & low) ^ g[m - (e >> bits)]] = stamp


@kernel
def _mark_one(g, rk, nr, e, seen, stamp):
    """:func:`_mark_rare` for one entry ``e`` of ``ms`` of a ``!`` digit: every rare heap below
    ``m`` but the one at its middle (:func:`_twin`), whose split with itself is no move."""
    bits = np.uint64(20)
    low = np.uint64((1 << 20) - 1)
    m = np.uint64(e & 0xFFFFFFFF)
    hi = nr
    while hi > 0 and np.uint64(rk[hi - 1]) >> bits >= m:
        hi -= 1
    skip = _twin(rk, hi, e)
    for i in range(skip):
        x = np.uint64(rk[i])
        seen[(x & low) ^ g[m - (x >> bits)]] = stamp
    for i in range(skip + 1, hi):
        x = np.uint64(rk[i])
        seen[(x & low) ^ g[m - (x >> bits)]] = stamp


@kernel
def _twin(rk, hi, e):
    """The index in ``rk[:hi]`` of the rare heap ``m/2`` when the entry ``e`` of ``ms`` is an even
    ``m`` whose heaps must differ (its split ``(m/2, m/2)`` is no move), else ``hi``."""
    m = e & 0xFFFFFFFF
    if (e >> 32) == 0 or m & 1:
        return hi
    half = np.uint64(m >> 1)
    lo = 0
    top = hi
    while lo < top:
        mid = (lo + top) >> 1
        if np.uint64(rk[mid]) >> np.uint64(20) < half:
            lo = mid + 1
        else:
            top = mid
    if lo < hi and np.uint64(rk[lo]) >> np.uint64(20) == half:
        return lo
    return hi


@kernel
def _mark_pair(g, rk, nr, small, large, seen, stamp, seen2, stamp2):
    """:func:`_mark_two` for two entries of ``ms`` of which one or both are a ``!`` digit's: apart
    (:func:`_mark_one`) when such an entry has a rare heap at its middle, else in the one pass.
    (Entries without the bit go to :func:`_mark_two` directly: a call less on the hot path.)"""
    if _twin(rk, nr, small) < nr or _twin(rk, nr, large) < nr:
        _mark_one(g, rk, nr, small, seen, stamp)
        _mark_one(g, rk, nr, large, seen2, stamp2)
    else:
        _mark_two(g, rk, nr, small & 0xFFFFFFFF, large & 0xFFFFFFFF, seen, stamp, seen2, stamp2)


@kernel
def _mark_two(g, rk, nr, small, large, seen, stamp, seen2, stamp2):
    """Stamp the splits of ``small`` into ``seen`` and those of ``large > small`` into ``seen2``
    (:func:`_mark_rare`), in one pass over the rare heaps: one load of each serves both, and
    ``large`` finishes alone on the rare heaps that only it can split off.

    Two split digits of one heap share a table; the sparse kernel also gives
    it one split digit of two heaps, ``n`` and ``n + 1``, in two tables.
    ``small`` and ``large`` are sizes (no ``!`` bit: :func:`_mark_pair`).
    """
    bits = np.uint64(20)
    low = np.uint64((1 << 20) - 1)
    m0 = np.uint64(small)
    m1 = np.uint64(large)
    hi = nr
    while hi > 0 and np.uint64(rk[hi - 1]) >> bits >= m0:
        hi -= 1
    for i in range(hi):
        e = np.uint64(rk[i])
        x = e >> bits
        v = e & low
        seen[v ^ g[m0 - x]] = stamp
        seen2[v ^ g[m1 - x]] = stamp2
    for i in range(hi, nr):
        e = np.uint64(rk[i])
        x = e >> bits
        if x < m1:
            seen2[(e & low) ^ g[m1 - x]] = stamp2


@kernel
def _ends_find(g, m0, lo, hi, t):
    """The two-ended scan of :func:`_cross_off` once one value ``t`` is missing: no table, a
    comparison a pair.  Returns the ``lo`` where a pair from either end is worth ``t``, or
    0 when none is."""
    one = np.uint64(1)
    while lo <= hi:
        if (g[lo] ^ g[m0 - lo]) == t or (g[hi] ^ g[m0 - hi]) == t:
            return lo
        lo += one
        hi -= one
    return np.uint64(0)


@kernel
def _cross_off(g, ms, nm, need, stamp, missing, way, scanned):
    """Scan the splits of every ``m`` in ``ms[:nm]``, crossing off the values marked in ``need``.

    Pairs ``(a, m - a)`` are taken in increasing ``a``, all split digits
    together up to the smallest ``m``; the scan stops as soon as nothing is
    missing.  Returns how many values are still missing.  One and two split
    digits (most codes) have loops of their own, with unsigned indices and
    the test for the end only after a hit: the general loop over digits
    costs them up to half their speed.

    With one split digit, ``way`` picks the order: 0 increasing ``a``, 1
    decreasing from ``m // 2``, 2 from both ends at once.  The order changes
    only how soon the scan stops, never what it finds; a missing value is
    often found much sooner from one end than from the other, so both ends
    at once usually stop first (``·16``: 57 pairs a heap instead of 141,
    ``·6``: 1,965 instead of 2,756), but not for every code.  ``scanned[0]``
    counts the pairs of one-digit scans so that the driver can choose.  From
    both ends, once one value is left missing (most heaps of ``·16`` start
    so), :func:`_ends_find` looks for it alone, without the table: a fifth
    less time on ``·16``.  The pairs of an entry of ``ms`` whose heaps must
    differ end at ``(m - 1) // 2`` (:mod:`.moves`): its equal split is
    no move and is never scanned.
    """
    one = np.uint64(1)
    last = ms[nm - 1]  # the smallest m; bit 32 of an entry: its heaps must differ (.moves)
    low = np.uint64(((last & 0xFFFFFFFF) - (last >> 32)) >> 1)
    m0 = np.uint64(ms[0] & 0xFFFFFFFF)
    if nm == 1:
        if way == 0:
            for a in range(one, low + one):
                v = g[a] ^ g[m0 - a]
                if need[v] == stamp:
                    need[v] = 0
                    missing -= 1
                    if missing == 0:
                        scanned[0] += np.int64(a)
                        return 0
        elif way == 1:
            a = low
            while a >= one:
                v = g[a] ^ g[m0 - a]
                if need[v] == stamp:
                    need[v] = 0
                    missing -= 1
                    if missing == 0:
                        scanned[0] += np.int64(low + one - a)
                        return 0
                a -= one
        else:
            lo = one
            hi = low
            while lo <= hi:
                if missing == 1:
                    t = 0
                    while need[t] != stamp:
                        t += 1
                    lo = _ends_find(g, m0, lo, hi, t)
                    if lo == 0:
                        break
                    need[t] = 0
                    scanned[0] += np.int64(lo + lo)
                    return 0
                v = g[lo] ^ g[m0 - lo]
                x = need[v]
                hit = np.int64(x == stamp)
                need[v] = x & (hit - 1)
                missing -= hit
                w = g[hi] ^ g[m0 - hi]
                y = need[w]
                hit = np.int64(y == stamp)
                need[w] = y & (hit - 1)
                missing -= hit
                if missing == 0:
                    scanned[0] += np.int64(lo + lo)
                    return 0
                lo += one
                hi -= one
        scanned[0] += np.int64(low)
        return missing
    if nm == 2:
        m1 = np.uint64(ms[1] & 0xFFFFFFFF)
        for a in range(one, low + one):
            ga = g[a]
            v = ga ^ g[m0 - a]
            w = ga ^ g[m1 - a]
            if need[v] == stamp:
                need[v] = 0
                missing -= 1
                if missing == 0:
                    return 0
            if need[w] == stamp:
                need[w] = 0
                missing -= 1
                if missing == 0:
                    return 0
    else:
        for a in range(one, low + one):
            ga = g[a]
            for j in range(nm):
                v = ga ^ g[np.uint64(ms[j] & 0xFFFFFFFF) - a]
                if need[v] == stamp:
                    need[v] = 0
                    missing -= 1
                    if missing == 0:
                        return 0
    for j in range(nm - 1):
        e = ms[j]
        m = np.uint64(e & 0xFFFFFFFF)
        for a in range(low + one, np.uint64(((e & 0xFFFFFFFF) - (e >> 32)) >> 1) + one):
            v = g[a] ^ g[m - a]
            if need[v] == stamp:
                need[v] = 0
                missing -= 1
                if missing == 0:
                    return 0
    return missing


@kernel(
    native="UniTuple(i8, 2)(V, i8, i8, i8[::1], i8[::1], i8[::1], u1[::1], i8, i8, i8[::1], "
    "i8, i8, i8[::1], i8[::1], i8[::1], i8, i8, i8[::1], i8[::1])"
)
def _fill(
    g, n0, n1, take_all, leave_one, split, cls, sigma, pi, rk, nr, rmax, seen, need, ahead,
    cap, way, scanned, ms,
):  # fmt: skip
    """Compute ``g[n]`` for ``n0 <= n < n1`` by the sparse-space method (two-heap moves at most).

    ``split`` holds the words of :func:`.moves.split_digits` (bit 32: the heaps must differ).
    ``cls[v]`` is ``popcount(v & mask) & 1``; ``sigma``, ``pi`` select the
    position variant (module docstring).  ``rk[:nr]`` are the rare heaps
    in increasing order with their values (:func:`_mark_rare`); new ones are appended.
    ``seen``, ``need`` and ``ahead`` (the next heap's marks, made with this heap's by :func:`_mark_two`) are
    stamp arrays of ``dense.table_size(cap)``.  Returns
    ``(stop, nr)``: ``stop`` is ``n1``, the heap whose value exceeds ``cap``
    (not computed), or the heap after the one that brought the rare count to
    ``rmax``.  ``way`` and ``scanned`` are :func:`_cross_off`'s; ``ms`` is scratch for the split
    sizes, as long as ``split``.
    """
    early = False
    for n in range(n0, n1):
        stamp = n + 1
        table = ahead if early else seen
        _mark_small_moves(g, n, take_all, leave_one, table, stamp)
        nm = _split_sizes(n, split, ms)
        if early:
            early = False
        elif nm == 1 and split.shape[0] == 1 and (split[0] & 0xFFFFFFFF) >= 1 and n + 1 < n1:
            # k >= 1: heap n + 1's splits read only heaps below n, and never heap n: mark them now
            if split[0] >> 32:
                _mark_pair(g, rk, nr, ms[0], ms[0] + 1, seen, stamp, ahead, stamp + 1)
            else:
                _mark_two(g, rk, nr, ms[0], ms[0] + 1, seen, stamp, ahead, stamp + 1)
            early = True
        else:
            _mark_rare(g, rk, nr, ms, nm, seen, stamp)
        cpar = 1 ^ (sigma & ((n ^ pi) & 1))
        c = 0
        missing = 0
        while c <= cap:  # one branch a value: whether a value is marked is not predictable
            free = np.int64(table[c] != stamp)
            if free & np.int64(cls[c] == cpar):
                break
            need[c] = stamp * free
            missing += free
            c += 1
        if missing and nm:
            missing = _cross_off(g, ms, nm, need, stamp, missing, way, scanned)
        value = c
        if missing:
            value = 0
            while need[value] != stamp:
                value += 1
        if value > cap:
            return n, nr
        g[n] = value
        if missing:
            rk[nr] = (n << 20) | value
            nr += 1
            if nr >= rmax:
                return n + 1, nr
    return n1, nr


# ---------------------------------------------------------------- masks


def applies(code) -> bool:
    """Whether the method covers ``code``: it has two-heap moves and no three-heap ones."""
    return bool(code.split_two) and not code.hexadecimal


def split_parity(code) -> int | None:
    """The parity shared by every split digit, or None when they differ (no position variant)."""
    parities = {k & 1 for k in code.split_two}
    return parities.pop() if len(parities) == 1 else None


def best_mask(code, values: np.ndarray) -> tuple[RareClass, int]:
    """The even class (the position variant where the split digits allow it) that makes the
    fewest heaps ``1..len(values)-1`` rare, and that count (:func:`grundy.value_classes.fewest`)."""
    return fewest(values, 0, split_parity=split_parity(code))


def rare_heaps(code, values: np.ndarray, mask: RareClass) -> np.ndarray:
    """The heaps ``x >= 1`` in the rare class ``mask`` (module docstring), in order."""
    pi = split_parity(code)
    if mask.position and pi is None:
        raise UsageError(f"the position variant needs split digits of one parity ({code})")
    return value_classes.rare_heaps(values, mask, 1, pi)


def statistics(code, values: np.ndarray, mask: RareClass | None = None) -> SparseStats:
    """The :class:`SparseStats` of ``values`` for ``mask`` (by default the best mask for them)."""
    if mask is None:
        mask = best_mask(code, values)[0]
    rare = rare_heaps(code, values, mask)
    top = int(np.argmax(values))
    return SparseStats(
        heaps=len(values),
        mask=mask.mask,
        position=mask.position,
        rare_heaps=int(rare.size),
        last_rare=int(rare[-1]) if rare.size else None,
        max=int(values[top]),
        argmax=top,
    )


# ---------------------------------------------------------------- driver


@dataclass(frozen=True)
class Status:
    """Where a run stands: heaps done, the mask in use (None while dense) and its rare count."""

    heaps: int
    mask: RareClass | None
    rare_heaps: int

    def __str__(self) -> str:
        if self.mask is None:
            return "dense (no mask pays)"
        return f"mask {self.mask.label}, {self.rare_heaps:,} rare"


def _cap(dtype) -> int:
    return min(int(np.iinfo(dtype).max), MAX_VALUE)


class SparseRun:
    """A sequence grown in place by the sparse-space method, dense where no mask pays.

    ``capacity`` heaps are allocated at once (zeroed pages cost nothing until
    written), so that extending to deeper and deeper depths never copies the
    values, except when a value outgrows its type.  Codes the method does not
    cover (:func:`applies`) run dense throughout.  ``mask`` forces one mask
    for the whole run (tests use it: the values must not depend on it).

    ``order`` is the order of the scans of codes with one split digit
    (:data:`WAYS`, :func:`_cross_off`): ``auto`` scans :data:`PROBE` heaps
    each way after every choice of mask and keeps the order that scanned the
    fewest pairs.
    """

    def __init__(self, code, capacity, prefix=None, mask: RareClass | None = None, order="auto"):
        if order not in ORDERS:
            raise UsageError(f"the order of the scans is one of {', '.join(ORDERS)}, not {order!r}")
        self.code = code
        self.order = order
        self.pairs: dict[int, float] = {}
        self.scanned = np.zeros(1, dtype=np.int64)
        self.ms = np.zeros(len(code.split_two), dtype=np.int64)
        self.applies = applies(code)
        self.pi = split_parity(code)
        if mask is not None and not self.applies:
            raise UsageError(f"the sparse method needs two-heap moves, no three-heap ones ({code})")
        if mask is not None and mask.position and self.pi is None:
            raise UsageError(f"the position variant needs split digits of one parity ({code})")
        if mask is not None and mask.parity != 0:
            raise UsageError(f"the sparse engine's rare heaps are an even class, not the {mask.name}")
        known = np.zeros(1, dtype=np.uint8) if prefix is None or prefix.size == 0 else prefix
        dense.check_prefix(known, code, MAX_VALUE)
        self.g = np.zeros(max(capacity, known.size), dtype=known.dtype)
        self.g[: known.size] = known
        self.n = known.size
        self.forced = mask
        self.mask: RareClass | None = None
        self.cls = np.zeros(0, dtype=np.uint8)
        self.rk = np.zeros(0, dtype=np.int64)
        self.nr = 0
        self.chosen_at = 0
        self.rare_at_choice = 0
        self.moves = (
            np.asarray(code.take_all, dtype=np.int64),
            np.asarray(code.leave_one, dtype=np.int64),
            split_digits(code),
        )
        self._tables()
        if mask is not None:
            self._use(mask)

    @property
    def values(self) -> np.ndarray:
        """``G(0..n-1)``, a view of the run's buffer."""
        return self.g[: self.n]

    def _tables(self) -> None:
        """The stamp arrays and class table for the values' type (and the mask in use)."""
        size = dense.table_size(_cap(self.g.dtype))
        self.seen = np.zeros(size, dtype=np.int64)
        self.need = np.zeros(size, dtype=np.int64)
        self.ahead = np.zeros(size, dtype=np.int64)
        if self.mask is not None:
            self.cls = value_classes.table(self.mask.mask, size)

    def _use(self, mask: RareClass | None) -> None:
        """Switch to ``mask`` (None: dense) and rebuild the rare list for the heaps known."""
        self.mask = mask
        self.pairs.clear()
        self.chosen_at = self.n
        self.nr = self.rare_at_choice = 0
        if mask is None:
            return
        self._tables()
        rare = value_classes.rare_heaps(self.values, mask, 1, self.pi)
        self.nr = self.rare_at_choice = rare.size
        self.rk = np.zeros(max(1024, 2 * rare.size), dtype=np.int64)
        self.rk[: rare.size] = (rare.astype(np.int64) << VALUE_BITS) | self.g[rare]

    def _choose(self) -> None:
        """Take the mask with the fewest rare heaps so far, or dense where even it does not pay."""
        mask, rare = best_mask(self.code, self.values)
        if rare * BREAK_EVEN >= self.n:
            mask = None
        elif self.mask is not None and rare >= self.nr:
            mask = self.mask
        if mask is not None and mask == self.mask:
            self.chosen_at, self.rare_at_choice = self.n, self.nr
            self.pairs.clear()
        else:
            self._use(mask)

    def _due(self) -> bool:
        """Whether to choose again: the depth or (while sparse) the rare count has doubled."""
        if self.forced is not None or not self.applies:
            return False
        if self.mask is None:
            return self.n >= max(2 * self.chosen_at, FIRST_CHOICE)
        return self.nr >= 2 * self.rare_at_choice + 64 or (
            self.n >= 2 * self.chosen_at and self.nr > self.rare_at_choice
        )

    def _promote(self) -> None:
        if self.g.dtype == DTYPES[-1]:
            raise ValueRangeError(
                f"heap {self.n} of {self.code} is worth more than {MAX_VALUE}, "
                "the largest value supported"
            )
        wider = np.zeros(self.g.size, dtype=DTYPES[DTYPES.index(self.g.dtype.type) + 1])
        wider[: self.n] = self.values
        self.g = wider
        self._tables()

    def _dense_to(self, target: int, on_chunk) -> None:
        values = dense.run(self.code, target, self.values, on_chunk)
        while not np.can_cast(values.dtype, self.g.dtype):
            self._promote()
        self.g[:target] = values
        self.n = target

    def _way(self) -> int:
        """The order of the next scans (:func:`_cross_off`): the one that scanned fewest pairs."""
        if self.order != "auto":
            return WAYS[self.order]
        for way in WAYS.values():
            if way not in self.pairs:
                return way
        return min(self.pairs, key=self.pairs.__getitem__)

    def _probing(self) -> bool:
        return self.order == "auto" and len(self.moves[2]) == 1 and len(self.pairs) < len(WAYS)

    def _sparse_to(self, target: int) -> None:
        way = self._way()
        if self._probing():
            target = min(target, self.n + PROBE)
        if self.nr == self.rk.size:
            self.rk = np.concatenate([self.rk, np.zeros_like(self.rk)])
        rmax = self.rk.size
        if self.forced is None:
            rmax = max(min(rmax, 2 * self.rare_at_choice + 64), self.nr + 1)
        take_all, leave_one, split = self.moves
        self.scanned[0] = 0
        start = self.n
        stop, self.nr = _fill(
            self.g, self.n, target, take_all, leave_one, split, self.cls,
            int(self.mask.position), self.pi or 0,
            self.rk, self.nr, rmax, self.seen, self.need, self.ahead, _cap(self.g.dtype),
            way, self.scanned, self.ms,
        )  # fmt: skip
        if stop > start:
            self.pairs[way] = int(self.scanned[0]) / (stop - start)
        self.n = stop
        if stop < target and self.nr < rmax:
            self._promote()

    def extend(
        self,
        heaps: int,
        on_chunk: Callable[[np.ndarray], None] | None = None,
        on_status: Callable[[Status], None] | None = None,
        chunk_seconds: float = CHUNK_SECONDS,
    ) -> np.ndarray:
        """Compute up to ``heaps`` heaps in place; returns :attr:`values`.

        ``on_chunk(values)`` and ``on_status(Status)`` are called after every
        chunk of about ``chunk_seconds``.
        """
        if heaps > self.g.size:
            raise UsageError(f"this run holds {self.g.size} heaps, not {heaps}")
        chunk = FIRST_CHUNK
        while self.n < heaps:
            if self._due():
                self._choose()
            if self.mask is None:
                stretch = max(2 * self.chosen_at, FIRST_CHOICE) if self.applies else heaps
                self._dense_to(min(heaps, stretch), on_chunk)
            else:
                t0, n0 = time.perf_counter(), self.n
                self._sparse_to(min(heaps, self.n + chunk))
                elapsed = time.perf_counter() - t0
                if self.n > n0:
                    chunk = next_chunk(self.n - n0, elapsed, chunk_seconds)
                if on_chunk is not None:
                    on_chunk(self.values)
            if on_status is not None:
                on_status(Status(self.n, self.mask, self.nr))
        return self.values

    def stats(self) -> SparseStats | None:
        """The statistics so far, for the mask in use (None where the method does not apply)."""
        return statistics(self.code, self.values, self.mask) if self.applies else None


def run(
    code, heaps, prefix, on_chunk=None, *, mask: RareClass | None = None, on_status=None, order="auto"
):
    """Extend ``prefix`` (values of heaps ``0..len(prefix)-1``) to ``heaps`` values.

    The same shape as :func:`dense.run`, plus the run's :class:`SparseStats`:
    returns ``(values, stats)``.  ``mask`` forces one mask throughout and
    ``order`` the order of the scans (:class:`SparseRun`).
    """
    state = SparseRun(code, heaps, prefix, mask, order)
    values = state.extend(heaps, on_chunk, on_status)
    return values, state.stats()
