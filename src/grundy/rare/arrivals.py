"""Arrivals of a class past a cut-off: blocks, gaps, residues, a tail period (docs/rare-classes.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..checks import whole
from ..codes import Code, parse
from ..engine._jit import kernel
from ..errors import UsageError
from ..value_classes import RareClass, block_counts, check_mask, rare_heaps, value_counts

MODULI = range(2, 25)
"""The moduli whose residue counts are reported."""
CUTOFF = 10_000
"""The cut-off of the arrivals and counts of a long sequence (docs/arrivals.md)."""


def cutoff(heaps: int) -> int:
    """The default cut-off for ``heaps`` heaps: a tenth of them, at most :data:`CUTOFF`, so that
    a short sequence still has arrivals past it."""
    return min(CUTOFF, heaps // 10)


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


@kernel(native="i8(R, i8, i8, i8)", values=("u1", "u2", "u4", "i8"))
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


@dataclass(repr=False)
class Arrivals:
    """Where the rare heaps of a class arrive past a cut-off (docs/arrivals.md)."""

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

    def __repr__(self) -> str:
        values = ", ".join(f"{v}: {c:,}" for v, c in list(self.values.items())[:4])
        more = ", …" if len(self.values) > 4 else ""
        g = self.gaps
        gaps = "no gaps" if g.mean is None else f"mean gap {g.mean:,.1f}, sd/mean {g.ratio:.2f}"
        tail = "none" if self.tail_period is None else f"{self.tail_period:,}"
        return (f"<Arrivals {self.code}, {self.cls.name} over {self.heaps:,} heaps: {self.rare.size:,} rare "
                f"from heap {self.after:,} (values {values or 'none'}{more}); {gaps}; tail period {tail}>")

    def _repr_html_(self) -> str:
        from ..present.notebook import arrivals_html

        return arrivals_html(self)

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
            "rare": [[int(n), int(v)] for n, v in zip(self.rare, self.rare_values, strict=True)],
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
    after: int | None = None,
    block: int = 10_000,
    max_period: int = 40_000,
    window: int = 20_000,
) -> Arrivals:
    """The arrivals of ``cls`` in ``values`` past heap ``after`` (heaps ``n >= after`` count;
    default :func:`cutoff`).  A mask wider than every value is refused
    (:func:`grundy.value_classes.check_mask`)."""
    code = parse(code)
    after = cutoff(values.size) if after is None else whole(after, "the cut-off")
    block = whole(block, "a block", 1)
    max_period, window = whole(max_period, "the largest period", 1), whole(window, "the window", 1)
    check_mask(cls.mask, values)
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
