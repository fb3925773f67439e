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


def parity(values: np.ndarray, mask: int) -> np.ndarray:
    """``popcount(values & mask) % 2`` for every entry, as 0/1 (``int64``)."""
    x = np.asarray(values).astype(np.int64) & int(mask)
    for shift in (32, 16, 8, 4, 2, 1):
        x ^= x >> shift
    return x & 1


@dataclass(frozen=True)
class RareClass:
    """The values ``v`` with ``popcount(v & mask) % 2 == parity``."""

    mask: int
    parity: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.mask, (int, np.integer)) or self.mask < 1:
            raise UsageError(f"a class mask is a whole number of at least 1, not {self.mask!r}")
        if self.parity not in (0, 1):
            raise UsageError(f"a class parity is 0 or 1, not {self.parity!r}")

    def contains(self, values) -> np.ndarray:
        """A boolean array: which entries of ``values`` lie in the class."""
        return parity(values, self.mask) == self.parity

    def holds(self, v: int) -> bool:
        """Whether the single value ``v`` lies in the class."""
        return (int(v) & self.mask).bit_count() % 2 == self.parity

    @property
    def convention(self) -> str:
        """Which of the two conventions this class follows, in words."""
        return CONVENTIONS[self.parity]

    @property
    def name(self) -> str:
        """``odd class of mask m`` (parity 1) or ``even class of mask m`` (parity 0)."""
        return f"{'odd' if self.parity else 'even'} class of mask {self.mask}"

    def __str__(self) -> str:
        return f"mask {self.mask}, parity {self.parity}"


def rare_heaps(values: np.ndarray, cls: RareClass, after: int = 1) -> np.ndarray:
    """The heaps ``n >= max(after, 1)`` whose value is in ``cls``, in order."""
    start = max(int(after), 1)
    return np.flatnonzero(cls.contains(values[start:])).astype(np.int64) + start


def block_counts(values: np.ndarray, cls: RareClass, block: int) -> np.ndarray:
    """Rare heaps per block ``[i·block, (i+1)·block)`` from heap 0 (the last may be short)."""
    if block < 1:
        raise UsageError(f"a block holds at least 1 heap, not {block}")
    nblocks = -(-values.size // block)
    return np.bincount(rare_heaps(values, cls) // block, minlength=nblocks)


def value_counts(values: np.ndarray, heaps: np.ndarray) -> dict[int, int]:
    """How many of ``heaps`` are worth each value (the distinct rare values, with counts)."""
    vals, counts = np.unique(values[heaps], return_counts=True)
    return {int(v): int(c) for v, c in zip(vals, counts)}


def walsh_hadamard(h: np.ndarray) -> np.ndarray:
    """``W[m] = Σ_u h[u]·(-1)^popcount(u & m)`` for every ``m`` (``h.size`` a power of 2)."""
    w = np.asarray(h, dtype=np.int64).copy()
    step = 1
    while step < w.size:
        w = w.reshape(-1, 2, step)
        w = np.stack((w[:, 0] + w[:, 1], w[:, 0] - w[:, 1]), axis=1).reshape(-1)
        step *= 2
    return w


def odd_counts(values: np.ndarray, bits: int) -> np.ndarray:
    """For every mask ``m < 2**bits``: how many entries ``v`` have ``popcount(v & m)`` odd.

    One transform gives all masks at once: ``#odd = (total - W[m]) / 2``.
    """
    h = np.bincount(np.asarray(values, dtype=np.int64), minlength=1 << bits)
    return (int(values.size) - walsh_hadamard(h)) // 2


def best_mask(values: np.ndarray, v: int) -> int:
    """The mask whose parity-1 class holds ``v`` and the fewest heaps ``n >= 1`` of ``values``."""
    if v < 1:
        raise UsageError("0 lies in no parity-1 class: choose a value of at least 1")
    bits = max(int(values.max()), int(v)).bit_length()
    masks = np.arange(1 << bits)
    odd = odd_counts(values[1:], bits)
    holds_v = parity(masks, v) == 1
    return int(masks[holds_v][np.argmin(odd[holds_v])])


def best_class(values: np.ndarray, parity: int | None = None) -> RareClass:
    """The class of ``parity`` (default 0, the sparse-space convention) holding the fewest heaps
    ``n >= 1`` of ``values``; ties go to the smaller mask."""
    q = 0 if parity is None else parity
    RareClass(1, q)
    bits = max(int(values.max()).bit_length(), 1)
    odd = odd_counts(values[1:], bits)[1:]
    count = odd if q else (values.size - 1) - odd
    return RareClass(int(np.argmin(count)) + 1, q)
