"""Move counts and split counts of a value at every heap (docs/counts.md).

Counting the moves of a value ``v`` is fast because of the odd-class algebra:
when ``v`` lies in an odd class, every split worth ``v`` has exactly one part
in that class, so only the (few) heaps of the class need be tried as a part.
The class is chosen, by a Walsh–Hadamard transform of the histogram of
values, as the odd class holding ``v`` that has the fewest heaps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..checks import whole
from ..codes import Code, parse
from ..engine._jit import kernel
from ..engine.moves import split_digits
from ..errors import UsageError
from ..value_classes import RareClass, check_mask, fewest, rare_heaps
from .arrivals import cutoff

CHUNK = 50_000
"""Heaps per kernel call in the counting loops, so that progress can be shown."""


@kernel(native="void(R, i8[::1], i8[::1], i8[::1], i8[::1], i8, i8, i8[::1], i8[::1], i8[::1], i8[::1])")
def _tally(g, rare, target, split, other, lo, hi, counts, supplies, sole, stamp):
    """Splits worth ``v`` at each heap ``lo <= n < hi``, found through their one rare part.

    ``rare`` lists the heaps of a parity-1 class holding ``v`` (increasing)
    and ``target[i] = G(rare[i]) ^ v``: a split ``(x, m - x)`` with ``x`` rare
    is worth ``v`` exactly when ``G(m - x) == target[i]``, and every split
    worth ``v`` has exactly one rare part, so it is counted once.  An equal
    split ``(x, x)`` is worth 0, never ``v``, so ``!`` digits need nothing here.  Writes
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


@kernel(native="void(R, i8, i8[::1], i8[::1], i8, i8, i8[::1], i8[::1])")
def _tally_dense(g, v, split, split3, lo, hi, counts, triples):
    """Splits (``counts``) and three-heap moves (``triples``) worth ``v`` per heap, enumerated.

    ``split`` holds the words of :func:`grundy.engine.moves.split_digits`: bit 32 says the
    two heaps must differ, so the pairs of such a digit stop short of ``(m/2, m/2)``.
    """
    for n in range(lo, hi):
        c = 0
        for e in split:
            m = n - (e & 0xFFFFFFFF)
            for a in range(1, ((m - (e >> 32)) >> 1) + 1):
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
class Supply:
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


def supply(code, values, v, lo, hi, mask, on_progress) -> Supply:
    """Run the class kernel (``v >= 1``, no three-heap moves) or the dense one over ``[lo, hi)``."""
    g = np.ascontiguousarray(values[:hi])
    other = other_moves(code, g, v, lo, hi)
    splits = np.zeros(hi - lo, dtype=np.int64)
    triples = np.zeros(hi - lo, dtype=np.int64)
    split = np.asarray(code.split_two, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    if mask is None and (v == 0 or code.hexadecimal):
        split3 = np.asarray(code.split_three, dtype=np.int64)
        words = split_digits(code)
        for a, b in _chunks(lo, hi, on_progress):
            _tally_dense(
                g, v, words, split3, a, b, splits[a - lo : b - lo], triples[a - lo : b - lo]
            )
        return Supply(splits, triples, other, None, empty, empty, empty)
    if code.hexadecimal:
        raise UsageError(
            f"{code} has moves that leave three heaps, which a rare class cannot count"
        )
    if mask is None:
        mask = fewest(g, 1, holding=v)[0].mask
    else:
        mask = whole(mask, "a mask", 1)
        check_mask(mask, g, v)
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
    return Supply(splits, triples, other, mask, rare, supplies, sole)


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


@dataclass(repr=False)
class Counts:
    """Move counts and split counts (docs/counts.md) of value ``v`` at heaps ``lo <= n < hi``.

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

    def __repr__(self) -> str:
        how = "every split enumerated" if self.mask is None else f"rare parts from mask {self.mask}"
        return (f"<Counts {self.code} of value {self.value} at heaps {self.lo:,}..{self.hi - 1:,}: move count "
                f"mean {self.moves.mean:.3f} (0 at {self.moves.zero:,} heaps), split count mean "
                f"{self.splits.mean:.3f} (0 at {self.splits.zero:,}); {how}>")

    def _repr_html_(self) -> str:
        from ..present.notebook import counts_html

        return counts_html(self)

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "value": self.value,
            "from": self.lo,
            "to": self.hi,
            "moves": self.moves.to_dict(),
            "splits": self.splits.to_dict(),
        }


def check_range(values: np.ndarray, v: int, lo: int, hi: int) -> None:
    """Refuse a value ``v`` or a range of heaps ``lo..hi-1`` that are not whole numbers, or a range
    outside the values."""
    whole(v, "a value")
    whole(lo, "the first heap", 1)
    whole(hi, "the end of the range", 1)
    if not 1 <= lo < hi <= values.size:
        raise UsageError(
            f"the range of heaps must satisfy 1 <= from < to <= {values.size:,}, not {lo:,}..{hi:,}"
        )


def counts(
    code: Code | str,
    values: np.ndarray,
    v: int,
    *,
    lo: int | None = None,
    hi: int | None = None,
    mask: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Counts:
    """Move and split counts of ``v`` at every heap ``lo <= n < hi`` (``lo`` = the cut-off of
    :func:`~grundy.rare.arrivals.cutoff`, at least 1; ``hi`` = every heap known).

    ``mask`` picks the parity-1 class holding ``v`` whose heaps are tried as
    the rare part (default: the one with the fewest heaps); ``on_progress``
    gets the number of heaps done.
    """
    code = parse(code)
    lo = max(1, cutoff(values.size)) if lo is None else lo
    hi = values.size if hi is None else hi
    check_range(values, v, lo, hi)
    s = supply(code, values, int(v), lo, hi, mask, on_progress)
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
