"""Value classes: a bit mask and a parity (docs/rare-classes.md).

A **class** is a bit mask ``m`` and a parity ``q``: value ``v`` is in it when
``popcount(v & m) % 2 == q``.  With ``q = 1`` (the **odd class** of ``m``)
XOR respects the class: a sum of heaps is in it exactly when an odd number of
its parts are.  With ``q = 0`` (the **even class** of ``m``) the class holds 0
and is closed under XOR: the convention of the sparse-space literature
(Gangolli–Plambeck, Flammenkamp) and of the sparse engine, whose rare heaps
are those of an even class.  Every class is named by its parity, so a reader
knows which heaps a figure counts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import UsageError

CONVENTIONS = {
    1: "parity 1: the class XOR respects (odd count of mask bits)",
    0: "parity 0: the sparse-space convention (even count of mask bits, holds 0)",
}
_SLICE = 1 << 20
"""Heaps per numpy pass in :func:`rare_heaps` and :func:`histogram` (bounds their scratch memory)."""


def parity(values: np.ndarray, mask: int) -> np.ndarray:
    """``popcount(values & mask) % 2`` for every entry, as 0/1 (``int64``)."""
    x = np.asarray(values).astype(np.int64) & int(mask)
    for shift in (32, 16, 8, 4, 2, 1):
        x ^= x >> shift
    return x & 1


def table(mask: int, size: int) -> np.ndarray:
    """``popcount(v & mask) & 1`` for ``0 <= v < size`` (uint8): a class as a lookup table."""
    return parity(np.arange(size, dtype=np.int64), mask).astype(np.uint8)


@dataclass(frozen=True)
class RareClass:
    """A class of values, and of the heaps worth them: ``popcount(v & mask) % 2 == parity``.

    With ``position`` the heap's own parity counts too (the position variant
    of the sparse-space method, for codes whose split digits all have one
    parity ``π``): heap ``x`` is in the class when
    ``popcount(G(x) & mask) + x + π`` has the class's parity.  The sparse
    engine's rare heaps are those of an even class (parity 0), with or
    without the position variant.
    """

    mask: int
    parity: int = 1
    position: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.mask, (int, np.integer)) or self.mask < 1:
            raise UsageError(f"a class mask is a whole number of at least 1, not {self.mask!r}")
        if self.parity not in (0, 1):
            raise UsageError(f"a class parity is 0 or 1, not {self.parity!r}")

    def contains(self, values) -> np.ndarray:
        """A boolean array: which entries of ``values`` lie in the class (not for a position
        class, whose heaps depend on their numbers: see :func:`rare_heaps`)."""
        if self.position:
            raise UsageError(f"the {self.name} depends on the heaps, not only their values")
        return parity(values, self.mask) == self.parity

    def holds(self, v: int) -> bool:
        """Whether the single value ``v`` lies in the class (a plain class)."""
        return (int(v) & self.mask).bit_count() % 2 == self.parity

    @property
    def convention(self) -> str:
        """Which of the two conventions this class follows, in words."""
        return CONVENTIONS[self.parity]

    @property
    def name(self) -> str:
        """``odd class of mask m`` (parity 1) or ``even class of mask m`` (parity 0), and
        ``with the heap's parity`` for the position variant."""
        kind = "odd" if self.parity else "even"
        return f"{kind} class of mask {self.mask}" + (" with the heap's parity" if self.position else "")

    @property
    def label(self) -> str:
        """The compact label of the sparse-space tables: ``6``, or ``6+position``."""
        return f"{self.mask}" + ("+position" if self.position else "")

    def __str__(self) -> str:
        return f"mask {self.mask}, parity {self.parity}" + (", position" if self.position else "")


def check_mask(mask: int, values: np.ndarray, value: int = 0) -> None:
    """Refuse a mask wider than every value, every bit of it above the largest value: it selects
    nothing (its odd class is empty, its even class holds every heap), so a user who gave one
    meant another mask, or another code.  Bits above the values beside bits within them change
    nothing and are let be; ``value``, a value counted through the class, counts as a value."""
    top = max(int(values.max()) if len(values) else 0, int(value))
    width = top.bit_length()
    if not int(mask) & ((1 << width) - 1):
        fits = f"choose a mask with a bit below {1 << width}" if width else "every value is 0"
        raise UsageError(f"mask {mask} is wider than every value (the largest is {top}), so it selects "
                         f"nothing: {fits}")


def rare_heaps(values: np.ndarray, cls: RareClass, after: int = 1,
               split_parity: int | None = None) -> np.ndarray:
    """The heaps ``n >= max(after, 1)`` in ``cls``, in order (``split_parity``: the ``π`` of a
    position class)."""
    if cls.position and split_parity is None:
        raise UsageError("the position variant needs split digits of one parity")
    start, n = max(int(after), 1), len(values)
    lookup = table(cls.mask, int(values[start:].max()) + 1 if n > start else 1)
    shift = (split_parity or 0) if cls.position else 0
    out = []
    for lo in range(start, n, _SLICE):
        hi = min(n, lo + _SLICE)
        klass = lookup[values[lo:hi]] ^ shift
        if cls.position:
            klass[(lo & 1) ^ 1 :: 2] ^= 1
        out.append(np.flatnonzero(klass == cls.parity) + lo)
    return np.concatenate(out).astype(np.int64) if out else np.zeros(0, dtype=np.int64)


def block_counts(values: np.ndarray, cls: RareClass, block: int) -> np.ndarray:
    """Rare heaps per block ``[i·block, (i+1)·block)`` from heap 0 (the last may be short)."""
    if block < 1:
        raise UsageError(f"a block holds at least 1 heap, not {block}")
    nblocks = -(-values.size // block)
    return np.bincount(rare_heaps(values, cls) // block, minlength=nblocks)


def value_counts(values: np.ndarray, heaps: np.ndarray) -> dict[int, int]:
    """How many of ``heaps`` are worth each value (the distinct rare values, with counts)."""
    vals, counts = np.unique(values[heaps], return_counts=True)
    return {int(v): int(c) for v, c in zip(vals, counts, strict=True)}


def walsh_hadamard(h: np.ndarray) -> np.ndarray:
    """``W[m] = Σ_u h[u]·(-1)^popcount(u & m)`` for every ``m`` (``h.size`` a power of 2)."""
    w = np.asarray(h, dtype=np.int64).copy()
    step = 1
    while step < w.size:
        w = w.reshape(-1, 2, step)
        w = np.stack((w[:, 0] + w[:, 1], w[:, 0] - w[:, 1]), axis=1).reshape(-1)
        step *= 2
    return w


def histogram(values: np.ndarray, size: int, position: bool = False) -> np.ndarray:
    """How many heaps ``1..N-1`` hold each value ``v < size``; with ``position``, each (value,
    heap parity) pair, at ``v + size·(x & 1)``."""
    n = len(values)
    h = np.zeros(2 * size if position else size, dtype=np.int64)
    for lo in range(1, n, _SLICE):
        hi = min(n, lo + _SLICE)
        if position:
            h[size:] += np.bincount(values[lo | 1 : hi : 2], minlength=size)
            h[:size] += np.bincount(values[lo + (lo & 1) : hi : 2], minlength=size)
        else:
            h += np.bincount(values[lo:hi], minlength=size)
    return h


def odd_counts(values: np.ndarray, bits: int) -> np.ndarray:
    """For every mask ``m < 2**bits``: how many entries ``v`` have ``popcount(v & m)`` odd.

    One transform gives all masks at once: ``#odd = (total - W[m]) / 2``.
    """
    h = np.bincount(np.asarray(values, dtype=np.int64), minlength=1 << bits)
    return (int(values.size) - walsh_hadamard(h)) // 2


def fewest(values: np.ndarray, parity: int = 0, *, holding: int | None = None,
           split_parity: int | None = None) -> tuple[RareClass, int]:
    """The class of ``parity`` holding the fewest heaps ``1..N-1`` of ``values``, and that count.

    The one search for a best class, shared by the sparse engine (the even
    class with the fewest heaps, ``split_parity`` allowing the position
    variant) and the counts (the odd class ``holding`` a value); the counting
    is :func:`fewest_in`'s, from the histogram of (value, heap parity) pairs.
    """
    top = max(int(values[1:].max()) if len(values) > 1 else 0, holding or 0)
    size = 2
    while size <= top:
        size *= 2
    return fewest_in(histogram(values, size, True), parity, holding=holding, split_parity=split_parity)


def fewest_in(pairs: np.ndarray, parity: int = 0, *, holding: int | None = None,
              split_parity: int | None = None) -> tuple[RareClass, int]:
    """:func:`fewest` from ``pairs``, the histogram of (value, heap parity) pairs of heaps
    ``1..N-1`` (:func:`histogram` with ``position``), so that a run that keeps no values can choose.

    One Walsh–Hadamard transform of the histogram of values counts the heaps
    of every mask at once (``#odd = (N - W[m]) / 2``); a second one over
    (value, heap parity) pairs counts those of the position variant.  Ties go
    to the plain class, then to the smaller mask.
    """
    RareClass(1, parity)
    size = max(2, pairs.size // 2)
    while size <= (holding or 0):
        pairs = np.concatenate([pairs[: size], np.zeros(size, np.int64), pairs[size:], np.zeros(size, np.int64)])
        size *= 2
    n = int(pairs.sum())
    masks = np.arange(size)
    allowed = masks >= 1
    if holding is not None:
        allowed &= table(holding, size) == parity
    if not allowed.any():
        raise UsageError(f"{holding} lies in no class of parity {parity}: choose a value of at least 1")
    odd = (n - walsh_hadamard(pairs[:size] + pairs[size:])) // 2
    count = np.where(allowed, odd if parity else n - odd, n + 1)
    i = int(np.argmin(count))
    best, rare = RareClass(i, parity), int(count[i])
    if split_parity is not None and holding is None:
        spectrum = walsh_hadamard(pairs)[size:]
        odd = (n - spectrum) // 2
        count = np.where(allowed, odd if parity ^ split_parity else n - odd, n + 1)
        i = int(np.argmin(count))
        if count[i] < rare:
            best, rare = RareClass(i, parity, True), int(count[i])
    return best, rare
