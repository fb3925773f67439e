"""Whether a class thins: its heaps in three equal stretches ending at the last heap."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..value_classes import RareClass, odd_counts


def thirds(heaps: int) -> tuple[int, int]:
    """``(start, length)`` of three equal stretches ``[start + i·length, …)`` ending at the end.

    The stretches skip heap 0 and, to be equal, the one or two heaps after it.
    """
    length = max(heaps - 1, 0) // 3
    return heaps - 3 * length, length


def thins(c1, c2, c3, sigmas: float = 2.0):
    """Whether counts ``c1, c2, c3`` of three equal stretches fall towards zero.

    A step from ``a`` to ``b`` falls when ``a - b > sigmas·sqrt(a + b)``,
    ``sigmas`` standard deviations of the difference of two independent
    Poisson counts, so that chance wobbles of a steady class are not read as
    thinning.  The first step must fall; the second must fall too, unless
    ``c2`` is already indistinguishable from zero (``c2 <= sigmas²``) and
    ``c3`` does not rise from it.  Works on arrays (the survey) and numbers.
    """
    c1, c2, c3 = (np.asarray(c, dtype=np.float64) for c in (c1, c2, c3))

    def falls(a, b):
        return a - b > sigmas * np.sqrt(a + b)

    return falls(c1, c2) & (falls(c2, c3) | ((c2 <= sigmas**2) & ~falls(c3, c2)))


@dataclass(frozen=True)
class Thinning:
    """Rare heaps in three equal stretches ending at the last heap, and whether they thin."""

    thirds: tuple[int, int, int]
    length: int
    sigmas: float
    thins: bool

    def to_dict(self) -> dict:
        return {
            "thirds": list(self.thirds),
            "length": self.length,
            "sigmas": self.sigmas,
            "thins": self.thins,
        }


def thinning(values: np.ndarray, cls: RareClass, sigmas: float = 2.0) -> Thinning:
    """Whether the rare heaps of ``cls`` thin over ``values`` (see :func:`thins`)."""
    start, length = thirds(values.size)
    inside = cls.contains(values[start:])
    c = tuple(int(inside[i * length : (i + 1) * length].sum()) for i in range(3))
    verdict = bool(thins(*c, sigmas)) if length else False
    return Thinning(c, length, float(sigmas), verdict)


@dataclass(frozen=True)
class StretchCounts:
    """Heaps of every class in the three stretches of :func:`thirds`.

    ``odd[i, m]`` counts the heaps of stretch ``i`` whose value has odd parity
    under mask ``m`` (one Walsh–Hadamard transform per stretch); the parity-0
    class of ``m`` holds the rest of the stretch.
    """

    odd: np.ndarray
    length: int

    def counts(self, mask: int, parity: int) -> tuple[int, int, int]:
        """The class's heaps in each stretch."""
        c = self.odd[:, mask] if parity else self.length - self.odd[:, mask]
        return tuple(int(x) for x in c)

    def thinning(self, sigmas: float = 2.0) -> set[tuple[int, int]]:
        """Every class ``(mask, parity)`` whose counts thin (:func:`thins`); mask 0 is no class."""
        out = set()
        for q, c in ((1, self.odd), (0, self.length - self.odd)):
            ok = thins(*c, sigmas)
            ok[0] = False
            out |= {(int(m), q) for m in np.flatnonzero(ok)}
        return out


def stretch_counts(values: np.ndarray) -> StretchCounts:
    """:class:`StretchCounts` of ``values`` for every mask below ``2**bits`` of the largest value."""
    start, length = thirds(values.size)
    bits = max(int(values.max()).bit_length(), 1)
    stretches = [values[start + i * length : start + (i + 1) * length] for i in range(3)]
    return StretchCounts(np.stack([odd_counts(s, bits) for s in stretches]), length)
