"""Rare classes, their arrivals, move and split counts, and the ledger (SPEC.md §7–8).

A **class** is a bit mask ``m`` and a parity ``q``: value ``v`` is in it when
``popcount(v & m) % 2 == q``.  With ``q = 1`` XOR respects the class (a sum of
heaps is in it exactly when an odd number of its parts are); with ``q = 0``
the class holds 0 and is closed under XOR, the convention of the sparse-space
literature (Gangolli–Plambeck, Flammenkamp).  A **rare heap** is a heap
``n >= 1`` whose value is in the class; heap 0 is the empty position and never
part of a move, so it is not counted.

Counting the moves of a value ``v`` is fast because of the ``q = 1`` algebra:
when ``v`` lies in a parity-1 class, every split worth ``v`` has exactly one
part in that class, so only the (few) heaps of the class need be tried as a
part.  The class is chosen, by a Walsh–Hadamard transform of the histogram of
values, as the one holding ``v`` that has the fewest heaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
from numba import njit

from .codes import Code, parse
from .engine import compute
from .errors import UsageError
from .growth import is_growing

CONVENTIONS = {
    1: "parity 1: the class XOR respects (odd count of mask bits)",
    0: "parity 0: the sparse-space convention (even count of mask bits, holds 0)",
}
MODULI = range(2, 25)
"""The moduli whose residue counts are reported."""
TOP = (1, 5, 10, 50)
"""The numbers of top suppliers whose share of the supplies the ledger reports."""
CHUNK = 50_000
"""Heaps per kernel call in the counting loops, so that progress can be shown."""


# ---------------------------------------------------------------- classes


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


# ---------------------------------------------------------------- thinning


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


# ---------------------------------------------------------------- rare-class survey


@dataclass(frozen=True)
class ThinClass:
    """A class that thins on one code: its counts per stretch and the values it still holds last."""

    code: str
    mask: int
    parity: int
    thirds: tuple[int, int, int]
    length: int
    last_values: tuple[int, ...]

    @property
    def rank_key(self) -> tuple:
        """Rarest in the last stretch first, then the steepest first fall."""
        c1, c2, c3 = self.thirds
        return (c3 / self.length, c2 / c1, self.code, self.mask, self.parity)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "mask": self.mask,
            "parity": self.parity,
            "thirds": list(self.thirds),
            "length": self.length,
            "last_values": list(self.last_values),
        }


@dataclass(frozen=True)
class CodeSurvey:
    """One code of a rare-class survey: how many classes thin, and the best few."""

    code: str
    heaps: int
    max: int
    growing: bool
    classes_tried: int
    thinning: int
    best: tuple[ThinClass, ...]

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "heaps": self.heaps,
            "max": self.max,
            "growing": self.growing,
            "classes_tried": self.classes_tried,
            "thinning": self.thinning,
            "best": [c.to_dict() for c in self.best],
        }


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


def survey_code(
    code: Code | str, heaps: int, *, sigmas: float = 2.0, keep: int = 3, growing_only: bool = True
) -> CodeSurvey:
    """Try every class on one code: each mask below ``2**bits`` of the largest value, each parity.

    With ``growing_only`` a code that is not growing (SPEC.md §6) is computed
    but not searched.
    """
    code = parse(code)
    values = compute(code, heaps)
    top = int(values.max())
    growing = is_growing(values)
    bits = top.bit_length()
    if (growing_only and not growing) or thirds(values.size)[1] == 0 or bits == 0:
        return CodeSurvey(str(code), values.size, top, growing, 0, 0, ())
    sc = stretch_counts(values)
    classes = [
        ThinClass(str(code), m, q, sc.counts(m, q), sc.length, ())
        for m, q in sorted(sc.thinning(sigmas), key=lambda k: (k[1] == 0, k[0]))
    ]
    last = values[values.size - sc.length :]
    best = tuple(
        replace(
            c,
            last_values=tuple(
                int(v) for v in np.unique(last[RareClass(c.mask, c.parity).contains(last)])
            ),
        )
        for c in sorted(classes, key=lambda c: c.rank_key)[:keep]
    )
    return CodeSurvey(
        str(code), values.size, top, growing, 2 * ((1 << bits) - 1), len(classes), best
    )


@dataclass
class RareSurvey:
    """A rare-class survey over a family: every code read, and the thinning classes ranked."""

    heaps: int
    sigmas: float
    growing_only: bool
    codes: list[CodeSurvey]

    @property
    def ranked(self) -> list[ThinClass]:
        """The best classes of every code, rarest in the last stretch first."""
        return sorted((c for s in self.codes for c in s.best), key=lambda c: c.rank_key)

    def to_dict(self) -> dict:
        searched = [s for s in self.codes if s.classes_tried]
        return {
            "heaps": self.heaps,
            "sigmas": self.sigmas,
            "growing_only": self.growing_only,
            "codes_read": len(self.codes),
            "codes_searched": len(searched),
            "codes_with_thinning": sum(1 for s in searched if s.thinning),
            "classes": [c.to_dict() for c in self.ranked],
            "codes": [s.to_dict() for s in searched],
        }


def rare_survey(
    codes: Iterable[Code | str],
    heaps: int,
    *,
    sigmas: float = 2.0,
    keep: int = 3,
    growing_only: bool = True,
    executor: Executor | None = None,
    on_code: Callable[[int], None] | None = None,
) -> RareSurvey:
    """Run :func:`survey_code` over ``codes``, serially or on any ``concurrent.futures.Executor``.

    ``on_code(done)`` is called after each code.
    """
    work = partial(survey_code, heaps=heaps, sigmas=sigmas, keep=keep, growing_only=growing_only)
    mapper = executor.map if executor is not None else map
    out = []
    for result in mapper(work, [parse(c) for c in codes]):
        out.append(result)
        if on_code is not None:
            on_code(len(out))
    return RareSurvey(heaps, float(sigmas), growing_only, out)


# ---------------------------------------------------------------- arrivals


@dataclass(frozen=True)
class Gaps:
    """Gaps between successive rare heaps: ``sd`` is the population one, ``ratio = sd / mean``.

    The ratio is 1 for memoryless (exponential) arrivals and 0 for a fixed
    schedule; ``longest`` is the first pair of rare heaps with the largest gap.
    """

    count: int
    min: int | None
    max: int | None
    mean: float | None
    sd: float | None
    ratio: float | None
    longest: tuple[int, int] | None

    def to_dict(self) -> dict:
        return {
            "count": self.count,
            "min": self.min,
            "max": self.max,
            "mean": self.mean,
            "sd": self.sd,
            "ratio": self.ratio,
            "longest": list(self.longest) if self.longest else None,
        }


def gaps(heaps: np.ndarray) -> Gaps:
    """The :class:`Gaps` of an increasing array of rare heaps (no gaps when fewer than two)."""
    d = np.diff(np.asarray(heaps, dtype=np.int64))
    if d.size == 0:
        return Gaps(0, None, None, None, None, None, None)
    mean, sd = float(d.mean()), float(d.std())
    i = int(np.argmax(d))
    return Gaps(
        int(d.size),
        int(d.min()),
        int(d.max()),
        mean,
        sd,
        sd / mean,
        (int(heaps[i]), int(heaps[i + 1])),
    )


@dataclass(frozen=True)
class GapFit:
    """Gaps binned against an exponential of the same mean, with a chi-square test.

    Bin ``i`` holds the gaps ``g`` with ``edges[i] <= g < edges[i+1]`` (the
    last bin is open).  Gaps are whole numbers: gap ``g`` stands for the
    interval ``[g - 1/2, g + 1/2)`` of the exponential (a continuity
    correction), which matters only when the mean gap is small.  ``dof`` is
    the number of bins less 2 (the mean is fitted); with fewer than 3 bins
    there is no test and ``statistic`` and ``pvalue`` are None.
    """

    mean: float | None
    edges: tuple[int, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    statistic: float | None
    pvalue: float | None
    dof: int

    def to_dict(self) -> dict:
        return {
            "mean": self.mean,
            "edges": list(self.edges),
            "observed": list(self.observed),
            "expected": list(self.expected),
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "dof": self.dof,
        }


def exponential_cdf(x, mean: float):
    """``P(X < x)`` for an exponential of mean ``mean`` (0 for ``x <= 0``)."""
    return 1.0 - np.exp(-np.maximum(np.asarray(x, dtype=np.float64), 0.0) / mean)


def gap_fit(d: np.ndarray, bins: int = 20) -> GapFit:
    """Compare gaps ``d`` with an exponential of their mean in up to ``bins`` bins.

    The bins are about equally likely under the exponential (its quantiles,
    rounded to whole numbers), at most one per 5 gaps so that every bin
    expects about 5 or more, as the chi-square test needs.
    """
    from scipy.stats import chisquare

    d = np.asarray(d, dtype=np.int64)
    if d.size == 0:
        return GapFit(None, (), (), (), None, None, 0)
    mean = float(d.mean())
    k = max(1, min(bins, d.size // 5))
    edges = np.unique(np.rint(-mean * np.log1p(-np.arange(k) / k)).astype(np.int64))
    observed = np.bincount(np.searchsorted(edges, d, side="right") - 1, minlength=edges.size)
    cdf = exponential_cdf(np.append(edges - 0.5, np.inf), mean)
    expected = d.size * np.diff(cdf)
    dof = edges.size - 2
    statistic = pvalue = None
    if dof >= 1:
        test = chisquare(observed, expected, ddof=1)
        statistic, pvalue = float(test.statistic), float(test.pvalue)
    return GapFit(
        mean,
        tuple(int(e) for e in edges),
        tuple(int(o) for o in observed),
        tuple(float(e) for e in expected),
        statistic,
        pvalue,
        max(dof, 0),
    )


def residues(heaps: np.ndarray, moduli: Iterable[int] = MODULI) -> dict[int, list[int]]:
    """For each modulus ``m``: how many of ``heaps`` fall in each residue class ``0..m-1``."""
    heaps = np.asarray(heaps, dtype=np.int64)
    return {m: np.bincount(heaps % m, minlength=m).tolist() for m in moduli}


def first_empty_modulus(heaps: np.ndarray, start: int = 2) -> int:
    """The least modulus ``m >= start`` with a residue class that none of ``heaps`` falls in.

    There always is one: ``m`` larger than the number of heaps leaves a class empty.
    """
    heaps = np.asarray(heaps, dtype=np.int64)
    m = start
    while m <= heaps.size and np.unique(heaps % m).size == m:
        m += 1
    return m


@njit(cache=True)
def _tail_period(g, start, end, pmax):
    """The least ``p <= pmax`` with ``g[i] == g[i - p]`` for ``start <= i < end``, or 0.

    Each candidate is tested from the last heap backwards and dropped at its
    first mismatch, so a wrong period usually costs one or two comparisons.
    """
    for p in range(1, pmax + 1):
        i = end - 1
        while i >= start and g[i] == g[i - p]:
            i -= 1
        if i < start:
            return p
    return 0


def tail_period(values: np.ndarray, max_period: int = 40_000, window: int = 20_000) -> int | None:
    """The least period ``p <= max_period`` of the values over the last ``window`` heaps, or None.

    ``p`` holds when ``G(i) = G(i - p)`` for every heap ``i`` of the window
    and ``i - p >= 1`` (heap 0 is never part of a period).  A window longer
    than the sequence allows shrinks to leave room for ``p = 1``; periods
    that would reach heap 0 are not tried.
    """
    if max_period < 1 or window < 1:
        raise UsageError("the tail-period check needs a period bound and a window of at least 1")
    n = int(values.size)
    window = min(window, n - 2)
    if window < 1:
        return None
    start = n - window
    p = int(_tail_period(values, start, n, min(max_period, start - 1)))
    return p or None


@dataclass
class Arrivals:
    """Where the rare heaps of a class arrive past a cut-off (SPEC.md §8)."""

    code: str
    heaps: int
    cls: RareClass
    after: int
    block: int
    rare: np.ndarray = field(repr=False)
    rare_values: np.ndarray = field(repr=False)
    blocks: np.ndarray = field(repr=False)
    values: dict[int, int]
    gaps: Gaps
    residues: dict[int, list[int]] = field(repr=False)
    first_empty_modulus: int
    tail_period: int | None
    last_rare: int | None

    @property
    def gap_array(self) -> np.ndarray:
        """The gaps between successive rare heaps past the cut-off."""
        return np.diff(self.rare)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "heaps": self.heaps,
            "mask": self.cls.mask,
            "parity": self.cls.parity,
            "after": self.after,
            "block": self.block,
            "rare": [[int(n), int(v)] for n, v in zip(self.rare, self.rare_values)],
            "blocks": self.blocks.tolist(),
            "values": self.values,
            "gaps": self.gaps.to_dict(),
            "residues": self.residues,
            "first_empty_modulus": self.first_empty_modulus,
            "tail_period": self.tail_period,
            "last_rare": self.last_rare,
        }


def arrivals(
    code: Code | str,
    values: np.ndarray,
    cls: RareClass,
    *,
    after: int = 10_000,
    block: int = 10_000,
    max_period: int = 40_000,
    window: int = 20_000,
) -> Arrivals:
    """The arrivals of ``cls`` in ``values`` past heap ``after`` (heaps ``n >= after`` count)."""
    code = parse(code)
    if not 0 <= after < values.size:
        raise UsageError(
            f"the cut-off {after:,} must lie below the number of heaps, {values.size:,}"
        )
    every = rare_heaps(values, cls)
    past = every[every >= after]
    return Arrivals(
        code=str(code),
        heaps=int(values.size),
        cls=cls,
        after=int(after),
        block=int(block),
        rare=past,
        rare_values=values[past].astype(np.int64),
        blocks=block_counts(values, cls, block),
        values=value_counts(values, past),
        gaps=gaps(past),
        residues=residues(past),
        first_empty_modulus=first_empty_modulus(past),
        tail_period=tail_period(values, max_period, window),
        last_rare=int(every[-1]) if every.size else None,
    )


# ---------------------------------------------------------------- move and split counts


@njit(cache=True)
def _tally(g, rare, target, split, other, lo, hi, counts, supplies, sole, stamp):
    """Splits worth ``v`` at each heap ``lo <= n < hi``, found through their one rare part.

    ``rare`` lists the heaps of a parity-1 class holding ``v`` (increasing)
    and ``target[i] = G(rare[i]) ^ v``: a split ``(x, m - x)`` with ``x`` rare
    is worth ``v`` exactly when ``G(m - x) == target[i]``, and every split
    worth ``v`` has exactly one rare part, so it is counted once.  Writes
    ``counts[n - lo]``; adds to ``supplies[i]`` each heap that rare heap ``i``
    supplies ``v`` to, and to ``sole[i]`` each heap where it is the only
    supplier and ``other[n - lo]`` (the non-split moves worth ``v``) is 0.
    ``stamp`` (one entry per rare heap) keeps a heap from being counted twice
    for a supplier with several splits.
    """
    for n in range(lo, hi):
        c = 0
        distinct = 0
        first = -1
        for k in split:
            m = n - k
            if m < 2:
                continue
            for i in range(np.searchsorted(rare, m)):
                if g[m - rare[i]] == target[i]:
                    c += 1
                    if stamp[i] != n:
                        stamp[i] = n
                        supplies[i] += 1
                        distinct += 1
                        first = i
        counts[n - lo] = c
        if distinct == 1 and other[n - lo] == 0:
            sole[first] += 1


@njit(cache=True)
def _tally_dense(g, v, split, split3, lo, hi, counts, triples):
    """Splits (``counts``) and three-heap moves (``triples``) worth ``v`` per heap, enumerated."""
    for n in range(lo, hi):
        c = 0
        for k in split:
            m = n - k
            for a in range(1, m // 2 + 1):
                if (g[a] ^ g[m - a]) == v:
                    c += 1
        t = 0
        for k in split3:
            m = n - k
            for a in range(1, m // 3 + 1):
                for b in range(a, (m - a) // 2 + 1):
                    if (g[a] ^ g[b] ^ g[m - a - b]) == v:
                        t += 1
        counts[n - lo] = c
        triples[n - lo] = t


def other_moves(code: Code, values: np.ndarray, v: int, lo: int, hi: int) -> np.ndarray:
    """At each heap ``lo <= n < hi``: the moves worth ``v`` that leave at most one heap."""
    n = np.arange(lo, hi)
    out = np.zeros(n.size, dtype=np.int64)
    if v == 0:
        for k in code.take_all:
            out += n == k
    for k in code.leave_one:
        rest = n - k
        ok = (k >= 1) & (rest >= 1)
        out[ok] += values[rest[ok]] == v
    return out


@dataclass
class _Supply:
    """What the split kernels found over ``[lo, hi)``: counts per heap, and per rare heap."""

    splits: np.ndarray
    triples: np.ndarray
    other: np.ndarray
    mask: int | None
    rare: np.ndarray
    supplies: np.ndarray
    sole: np.ndarray


def _chunks(lo: int, hi: int, on_progress: Callable[[int], None] | None):
    for a in range(lo, hi, CHUNK):
        b = min(hi, a + CHUNK)
        yield a, b
        if on_progress is not None:
            on_progress(b - lo)


def _supply(code, values, v, lo, hi, mask, on_progress) -> _Supply:
    """Run the class kernel (``v >= 1``, no three-heap moves) or the dense one over ``[lo, hi)``."""
    g = np.ascontiguousarray(values[:hi])
    other = other_moves(code, g, v, lo, hi)
    splits = np.zeros(hi - lo, dtype=np.int64)
    triples = np.zeros(hi - lo, dtype=np.int64)
    split = np.asarray(code.split_two, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    if mask is None and (v == 0 or code.hexadecimal):
        split3 = np.asarray(code.split_three, dtype=np.int64)
        for a, b in _chunks(lo, hi, on_progress):
            _tally_dense(
                g, v, split, split3, a, b, splits[a - lo : b - lo], triples[a - lo : b - lo]
            )
        return _Supply(splits, triples, other, None, empty, empty, empty)
    if code.hexadecimal:
        raise UsageError(
            f"{code} has moves that leave three heaps, which a rare class cannot count"
        )
    mask = best_mask(g, v) if mask is None else int(mask)
    if not RareClass(mask).holds(v):
        raise UsageError(
            f"{v} is not in the parity-1 class of mask {mask}: "
            "choose a mask sharing an odd number of bits with it"
        )
    rare = rare_heaps(g, RareClass(mask))
    target = g[rare].astype(np.int64) ^ v
    supplies = np.zeros(rare.size, dtype=np.int64)
    sole = np.zeros(rare.size, dtype=np.int64)
    stamp = np.full(rare.size, -1, dtype=np.int64)
    for a, b in _chunks(lo, hi, on_progress):
        _tally(
            g,
            rare,
            target,
            split,
            other[a - lo : b - lo],
            a,
            b,
            splits[a - lo : b - lo],
            supplies,
            sole,
            stamp,
        )
    return _Supply(splits, triples, other, mask, rare, supplies, sole)


@dataclass(frozen=True)
class Tally:
    """A count of value ``v`` over a range of heaps, summarised.

    ``zero`` heaps have no such move; of them ``zero_worth_value`` are worth
    ``v`` and ``zero_worth_less`` less (for split counts the rest are worth
    more, reaching ``v`` some other way).  ``poisson_zero`` is the number of
    zero-count heaps that independent chances with the same mean would give:
    ``heaps · exp(-mean)``.
    """

    mean: float
    zero: int
    zero_worth_value: int
    zero_worth_less: int
    poisson_zero: float

    def to_dict(self) -> dict:
        return {
            "mean": self.mean,
            "zero": self.zero,
            "zero_worth_value": self.zero_worth_value,
            "zero_worth_less": self.zero_worth_less,
            "poisson_zero": self.poisson_zero,
        }


def tally(counts: np.ndarray, worth: np.ndarray, v: int) -> Tally:
    """Summarise ``counts`` (one per heap) given the heaps' values ``worth``."""
    zero = counts == 0
    mean = float(counts.mean())
    return Tally(
        mean=mean,
        zero=int(zero.sum()),
        zero_worth_value=int((zero & (worth == v)).sum()),
        zero_worth_less=int((zero & (worth < v)).sum()),
        poisson_zero=counts.size * math.exp(-mean),
    )


@dataclass
class Counts:
    """Move counts and split counts (SPEC.md §2) of value ``v`` at heaps ``lo <= n < hi``.

    ``mask`` is the parity-1 class whose heaps were tried as the one rare part
    of a split, or None when every split was enumerated (``v = 0``, or moves
    that leave three heaps, which count as moves but are not splits).
    """

    code: str
    value: int
    lo: int
    hi: int
    mask: int | None
    moves: Tally
    splits: Tally
    move_counts: np.ndarray = field(repr=False)
    split_counts: np.ndarray = field(repr=False)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "value": self.value,
            "from": self.lo,
            "to": self.hi,
            "moves": self.moves.to_dict(),
            "splits": self.splits.to_dict(),
        }


def _check_range(values: np.ndarray, v: int, lo: int, hi: int) -> None:
    if not isinstance(v, (int, np.integer)) or v < 0:
        raise UsageError(f"a value is a whole number of at least 0, not {v!r}")
    if not 1 <= lo < hi <= values.size:
        raise UsageError(
            f"the range of heaps must satisfy 1 <= from < to <= {values.size:,}, not {lo:,}..{hi:,}"
        )


def counts(
    code: Code | str,
    values: np.ndarray,
    v: int,
    *,
    lo: int = 10_000,
    hi: int | None = None,
    mask: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Counts:
    """Move and split counts of ``v`` at every heap ``lo <= n < hi`` (``hi`` = every heap known).

    ``mask`` picks the parity-1 class holding ``v`` whose heaps are tried as
    the rare part (default: the one with the fewest heaps); ``on_progress``
    gets the number of heaps done.
    """
    code = parse(code)
    hi = values.size if hi is None else hi
    _check_range(values, v, lo, hi)
    s = _supply(code, values, int(v), lo, hi, mask, on_progress)
    worth = values[lo:hi]
    moves = s.splits + s.triples + s.other
    return Counts(
        str(code),
        int(v),
        lo,
        hi,
        s.mask,
        tally(moves, worth, v),
        tally(s.splits, worth, v),
        moves,
        s.splits,
    )


# ---------------------------------------------------------------- ledger


@dataclass(frozen=True)
class Supplier:
    """A rare heap and the heaps it supplies ``v`` to (``sole``: as the only way to reach ``v``)."""

    heap: int
    value: int
    supplies: int
    sole: int


@dataclass
class Ledger:
    """Which rare heaps supply a rare value ``v``, and how concentrated the supply is (SPEC.md §8).

    A rare heap ``r`` supplies ``v`` to heap ``n`` when some split ``(r, b)``
    of ``n`` is worth ``v``; it is the sole supplier when every move from
    ``n`` worth ``v`` is such a split.  Suppliers are the rare heaps below
    ``below``, read over heaps ``1..heaps-1``, largest first; ``shares[k]``
    is the share of their supplies made by the top ``k``.
    """

    code: str
    value: int
    heaps: int
    below: int
    mask: int
    suppliers: list[Supplier]
    rare_total: int
    reached: int
    single: int
    supplies_all: int
    shares: dict[int, float]

    @property
    def supplies_below(self) -> int:
        """Supplies made by the rare heaps below the bound."""
        return sum(s.supplies for s in self.suppliers)

    @property
    def summary(self) -> str:
        """What the numbers show, in plain words."""
        return ledger_summary(self)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "value": self.value,
            "heaps": self.heaps,
            "below": self.below,
            "mask": self.mask,
            "parity": 1,
            "rare_total": self.rare_total,
            "reached": self.reached,
            "single": self.single,
            "supplies_all": self.supplies_all,
            "supplies_below": self.supplies_below,
            "shares": self.shares,
            "suppliers": [[s.heap, s.value, s.supplies, s.sole] for s in self.suppliers],
            "summary": self.summary,
        }


def ledger(
    code: Code | str,
    values: np.ndarray,
    v: int,
    *,
    below: int = 5_000,
    mask: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Ledger:
    """The ledger of ``v`` over every heap of ``values``, for the rare heaps below ``below``."""
    code = parse(code)
    _check_range(values, v, 1, values.size)
    if v == 0:
        raise UsageError(
            "0 lies in no parity-1 class, so it has no ledger: choose a value of at least 1"
        )
    if below < 2:
        raise UsageError(f"the bound on suppliers must be at least 2, not {below}")
    if code.hexadecimal:
        raise UsageError(
            f"{code} has moves that leave three heaps, whose rare parts a ledger cannot name"
        )
    s = _supply(code, values, int(v), 1, values.size, mask, on_progress)
    order = sorted(np.flatnonzero(s.rare < below), key=lambda i: (-s.supplies[i], s.rare[i]))
    suppliers = [
        Supplier(int(s.rare[i]), int(values[s.rare[i]]), int(s.supplies[i]), int(s.sole[i]))
        for i in order
    ]
    made = np.cumsum([x.supplies for x in suppliers]) if suppliers else np.zeros(0)
    total = int(made[-1]) if made.size else 0
    shares = {k: float(made[min(k, made.size) - 1] / total) if total else 0.0 for k in TOP}
    return Ledger(
        code=str(code),
        value=int(v),
        heaps=int(values.size),
        below=int(below),
        mask=s.mask,
        suppliers=suppliers,
        rare_total=int(s.rare.size),
        reached=int(((s.splits + s.other) > 0).sum()),
        single=int(s.sole.sum()),
        supplies_all=int(s.supplies.sum()),
        shares=shares,
    )


def ledger_summary(led: Ledger) -> str:
    """Plain sentences that read a ledger's numbers, with nothing added that they do not show."""
    v, below, shares = led.value, led.below, led.shares
    active = [s for s in led.suppliers if s.supplies]
    opening = (
        f"In the parity-1 class of mask {led.mask}, which holds {v}, {len(led.suppliers):,} of the "
        f"{led.rare_total:,} rare heaps below {led.heaps:,} lie below {below:,}; "
        f"{len(active):,} of them supply {v} to at least one heap."
    )
    if not active:
        return opening
    say = [opening]
    top = active[0]
    even = {k: min(k, len(active)) / len(active) for k in TOP}
    say.append(
        f"The largest supplier, heap {top.heap:,} (worth {top.value}), supplies {v} to "
        f"{top.supplies:,} heaps, {shares[1]:.1%} of the supplies made below {below:,}; "
        f"the top 5 make {shares[5]:.1%}, the top 10 {shares[10]:.1%}, "
        f"the top 50 {shares[50]:.1%}."
    )
    say.append(
        f"Were the supply spread evenly over the {len(active):,} active suppliers, the top 1 would "
        f"make {even[1]:.1%} and the top 5 {even[5]:.1%}: the top 5 make "
        f"{shares[5] / even[5]:.1f} times their even share."
    )
    sole = max(led.suppliers, key=lambda s: (s.sole, -s.heap))
    which = (
        f"; heap {sole.heap:,} is that only supplier at {sole.sole:,} of them" if sole.sole else ""
    )
    say.append(
        f"Of the {led.reached:,} heaps with a move worth {v}, {led.single:,} reach it through one "
        f"rare heap alone (every such move a split with it){which}."
    )
    say.append(
        f"The rare heaps below {below:,} make {led.supplies_below:,} of all {led.supplies_all:,} "
        f"supplies of {v}; the later rare heaps make {led.supplies_all - led.supplies_below:,}."
    )
    return " ".join(say)
