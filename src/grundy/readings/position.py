"""Positions of several heaps: the nim-value of a sum and every winning move (docs/codes.md).

By the Sprague–Grundy theorem a position of heaps ``h1, …, hm`` is worth
``G(h1) XOR … XOR G(hm)``; the player to move wins exactly when that is not 0,
and a winning move replaces one heap ``hi`` by parts worth
``value XOR G(hi)``, which leaves a position worth 0.

Once the code's period ``p`` from heap ``s`` is certified (the Guy–Smith
theorem, docs/periodicity.md), ``G(n) = G(s + (n - s) mod p)`` for every
``n >= s``, so the value of any heap, however large, is read off the first
``s + p`` values.  The certificate comes from a sequence or a catalogue
given as ``source``, or from computing deeper and deeper (as
:func:`grundy.settle` does) until it is found or every heap asked for is
known.  The winning moves of a huge heap are then found by kind: taking the
whole heap, leaving one heap, and for each split digit the splits
``(a, rest - a)``, where those with ``a >= s`` (both parts in the period)
repeat with ``a`` modulo ``p`` and are given as :class:`Splits`, one
arithmetic progression per residue, instead of millions of moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..codes import Code, parse
from ..errors import UsageError

if TYPE_CHECKING:
    import numpy as np

    from .periods import Reading

PROBE_HEAPS = 1 << 20
"""How deep a code is computed in search of a certificate when the largest heap's values would not
fit in memory: past that, a position of such heaps needs a settled ``source``."""
TRIPLE_HEAPS = 3_000
"""The largest remainder whose splits into three heaps (hexadecimal codes) are enumerated."""


@dataclass(frozen=True)
class Move:
    """A move in a position: from the heap of size ``heap``, remove ``removes`` counters and
    leave the heaps ``leaves``; ``after`` is the whole position after it, sorted."""

    heap: int
    removes: int
    leaves: tuple[int, ...]
    after: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"heap": self.heap, "removes": self.removes, "leaves": list(self.leaves),
                "after": list(self.after)}


@dataclass(frozen=True)
class Splits:
    """Winning splits of one heap, two or more, in one arithmetic progression.

    Remove ``removes`` counters from the heap of size ``heap`` and split the
    rest, ``rest = heap - removes``, into ``(a, rest - a)`` for ``a = first,
    first + step, …, last``: both parts lie in the period (``step`` is the
    period), so every such split leaves parts worth ``worth`` (the values of
    ``a`` and ``rest - a``) and a position worth 0.
    """

    heap: int
    removes: int
    first: int
    last: int
    step: int
    worth: tuple[int, int]

    @property
    def rest(self) -> int:
        """What the split divides: the heap less the counters removed."""
        return self.heap - self.removes

    @property
    def count(self) -> int:
        """How many splits the progression holds."""
        return (self.last - self.first) // self.step + 1

    def parts(self) -> Iterator[tuple[int, int]]:
        """Every split ``(a, rest - a)`` of the progression, in order of ``a`` (there may be millions)."""
        for a in range(self.first, self.last + 1, self.step):
            yield a, self.rest - a

    def __str__(self) -> str:
        return (f"take {self.removes} from {self.heap:,}, split the rest into (a, {self.rest:,} - a) for "
                f"a = {self.first:,}, {self.first + self.step:,}, …, {self.last:,} (a ≡ {self.first % self.step} "
                f"mod {self.step}; {self.count:,} splits, parts worth {self.worth[0]} and {self.worth[1]})")

    def to_dict(self) -> dict:
        return {"heap": self.heap, "removes": self.removes, "rest": self.rest, "first": self.first,
                "last": self.last, "step": self.step, "count": self.count, "worth": list(self.worth)}


@dataclass(frozen=True)
class Position:
    """The heaps of a position of ``code``, its nim-value and its winning moves.

    ``winning_moves`` lists single moves and ``winning_splits`` the winning
    splits that come in progressions (:class:`Splits`, where the period is
    certified), so that a huge heap of a settled code answers at once.
    ``known`` values were computed or given; ``reading`` is the certified
    reading (None when there is none within them) whose period gives every
    value beyond.
    """

    code: Code
    heaps: tuple[int, ...]
    value: int
    winning_moves: tuple[Move, ...]
    winning_splits: tuple[Splits, ...] = ()
    reading: Reading | None = None
    known: int = 0

    @property
    def winning(self) -> bool:
        """Whether the player to move wins (the value is not 0)."""
        return self.value != 0

    @property
    def count(self) -> int:
        """How many winning moves there are, the splits of every progression counted one by one."""
        return len(self.winning_moves) + sum(s.count for s in self.winning_splits)

    @property
    def how(self) -> str:
        """Where the heaps' values come from, in words."""
        if self.reading is None:
            return f"{self.known:,} values known, no period certified within them"
        r = self.reading
        return (f"{self.known:,} values known; beyond them the period {r.period:,} from heap "
                f"{r.start:,}, certified (window {r.window:,})")

    def to_dict(self) -> dict:
        return {"code": str(self.code), "heaps": list(self.heaps), "value": self.value,
                "winning_moves": [m.to_dict() for m in self.winning_moves],
                "winning_splits": [s.to_dict() for s in self.winning_splits],
                "moves": self.count, "reading": self.reading and self.reading.to_dict(),
                "known": self.known}

    def __repr__(self) -> str:
        moves = ", ".join(str(list(m.after)) for m in self.winning_moves[:6])
        more = ", …" if len(self.winning_moves) > 6 else ""
        splits = (f" and {len(self.winning_splits):,} progressions of splits ({self.count:,} moves in all)"
                  if self.winning_splits else "")
        return (f"<Position {self.code} {list(self.heaps)}: value {self.value}; "
                f"winning moves to {moves or 'none'}{more}{splits}>")

    def _repr_html_(self) -> str:
        from ..present.notebook import position_html

        return position_html(self)


@dataclass
class Values:
    """``G(n)`` of a code for any heap: the values known (``head``), and beyond them the certified
    period, whose values ``G(s), …, G(s + p - 1)`` are ``cycle``."""

    head: np.ndarray
    reading: Reading | None = None
    cycle: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        import numpy as np

        self.head = self.head.astype(np.int64)
        if self.reading is not None:
            s, p = self.reading.start, self.reading.period
            self.cycle = self.head[s : s + p]

    def __len__(self) -> int:
        return int(self.head.size)

    def at(self, n: int) -> int:
        """``G(n)``: known, or ``G(s + (n - s) mod p)`` past the values known."""
        if n < self.head.size:
            return int(self.head[n])
        if self.reading is None:
            raise UsageError(f"heap {n:,} lies beyond the {self.head.size:,} values known")
        return int(self.cycle[(n - self.reading.start) % self.reading.period])

    def many(self, n: np.ndarray) -> np.ndarray:
        """``G(n)`` for every entry of the array ``n``."""
        import numpy as np

        if self.reading is None or not n.size or int(n.max()) < self.head.size:
            return self.head[n]
        s, p = self.reading.start, self.reading.period
        return self.head[np.where(n < s, n, s + (n - s) % p)]

    def rests(self, rest: int, a: np.ndarray) -> np.ndarray:
        """``G(rest - a)`` for every entry of ``a`` (each at most ``rest``), with ``rest`` as large
        as it likes: only ``rest mod p`` is used past the values known."""
        import numpy as np

        if rest < self.head.size:
            return self.head[rest - a]
        if self.reading is None:
            raise UsageError(f"heap {rest:,} lies beyond the {self.head.size:,} values known")
        s, p = self.reading.start, self.reading.period
        out = self.cycle[((rest - s) % p - a) % p]
        if a.size and rest - int(a.max()) < s:  # some parts before the period (rest is small then)
            near = rest - a < s
            out[near] = self.head[rest - a[near]]
        return np.asarray(out)


def known_values(code: Code, needed: int, source=None) -> Values:
    """The values of ``code`` that answer every heap below ``needed``.

    Starts from ``source`` (a :class:`~grundy.sequence.Sequence` or a
    :class:`~grundy.catalogue.database.Catalogue` holding the code), then computes
    deeper, on the schedule of :func:`grundy.readings.settle.next_depth`, until the
    reading is certified or ``needed`` heaps are known.  When the values of
    ``needed`` heaps would not fit in memory it looks no further than
    :data:`PROBE_HEAPS` and refuses a code that is not certified by then.
    """
    import numpy as np

    from ..checks import heaps as checked
    from ..engine import compute
    from .periods import reading
    from .settle import FIRST_DEPTH, next_depth

    g = _from_source(code, source)
    limit, too_big = needed, None
    try:
        checked(needed)
    except UsageError as exc:
        limit, too_big = max(PROBE_HEAPS, len(g)), exc
    found = reading(g, code) if len(g) else None
    depth = len(g)
    while not (found is not None and found.certified) and depth < limit:
        depth = min(limit, FIRST_DEPTH) if depth < FIRST_DEPTH else next_depth(depth, found, limit)
        checked(depth)
        g = compute(code, depth, prefix=g if len(g) else None)
        found = reading(g, code)
    if found is not None and found.certified:
        return Values(np.asarray(g), found)
    if too_big is not None and len(g) < needed:
        raise UsageError(f"{code} has no certified period within {len(g):,} heaps, and the values to heap "
                         f"{needed - 1:,} do not fit ({too_big}): give a source that settles it "
                         f"(grundy settle {code} --out PATH, then --sequence PATH)")
    return Values(np.asarray(g))


def _from_source(code: Code, source):
    """The values of ``code`` that ``source`` holds (none without one)."""
    import numpy as np

    from ..catalogue.database import Catalogue
    from ..sequence import Sequence

    if source is None:
        return np.zeros(0, dtype=np.uint8)
    if isinstance(source, Sequence):
        if source.code != code:
            raise UsageError(f"the sequence given is of {source.code}, not of {code}")
        return source.values
    if isinstance(source, Catalogue):
        depths = [r["heaps"] for r in source.results(codes=[str(code)])]
        values = source.values(str(code), max(depths)) if depths else None
        if values is None:
            raise UsageError(f"{source.path} holds no values of {code}")
        return values
    raise UsageError(f"a source is a Sequence or a Catalogue, not {type(source).__name__}")


def parts_after(code: Code, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every move from a heap of ``n``: pairs ``(k, parts)``, parts sorted, non-empty, each
    listed once (the slow, obviously complete enumeration; :func:`position` goes by kind)."""
    for k, d in enumerate(code.digits):
        rest = n - k
        if rest < 0 or (k == 0 and rest == 0):
            continue
        if d & 1 and rest == 0:
            yield k, ()
        if d & 2 and k >= 1 and rest >= 1:
            yield k, (rest,)
        if d & 4:
            for a in range(1, code.split_top(k, rest) + 1):
                yield k, (a, rest - a)
        if d & 8:
            for a in range(1, rest // 3 + 1):
                for b in range(a, (rest - a) // 2 + 1):
                    yield k, (a, b, rest - a - b)


def _splits(g: Values, heap: int, k: int, target: int) -> Iterator[Move | Splits]:
    """The splits of ``heap - k`` in two worth ``target``: each ``a`` below the period start (or
    every ``a`` when no period is certified) one by one, the rest as one progression per residue."""
    import numpy as np

    rest = heap - k
    half = rest // 2
    s = half + 1 if g.reading is None else g.reading.start
    a = np.arange(1, min(s - 1, half) + 1, dtype=np.int64)
    for x in a[(g.many(a) ^ g.rests(rest, a)) == target].tolist():
        yield Move(heap, k, (x, rest - x), ())
    if half < s:
        return
    p = g.reading.period
    r = np.arange(p, dtype=np.int64)
    good = (g.cycle ^ g.cycle[((rest - 2 * s) % p - r) % p]) == target
    for first in (s + r[good]).tolist():
        if first > half:
            continue
        last = first + (half - first) // p * p
        if last == first:
            yield Move(heap, k, (first, rest - first), ())
        else:
            yield Splits(heap, k, first, last, p, (g.at(first), g.at(rest - first)))


def _triples(g: Values, heap: int, k: int, target: int) -> Iterator[Move]:
    """The splits of ``heap - k`` in three worth ``target``, enumerated."""
    import numpy as np

    rest = heap - k
    if rest > TRIPLE_HEAPS:
        raise UsageError(f"the winning moves of a heap of {heap:,} would split {rest:,} counters into "
                         f"three heaps in every way: at most {TRIPLE_HEAPS:,} are enumerated")
    for a in range(1, rest // 3 + 1):
        b = np.arange(a, (rest - a) // 2 + 1, dtype=np.int64)
        hit = (g.at(a) ^ g.many(b) ^ g.many(rest - a - b)) == target
        for x in b[hit].tolist():
            yield Move(heap, k, (a, x, rest - a - x), ())


def _winning(code: Code, g: Values, heap: int, target: int) -> Iterator[Move | Splits]:
    """The moves from one heap that leave parts worth ``target``, by kind."""
    for k, d in enumerate(code.digits):
        rest = heap - k
        if rest < 0 or (k == 0 and rest == 0):
            continue
        if d & 1 and rest == 0 and target == 0:
            yield Move(heap, k, (), ())
        if d & 2 and k >= 1 and rest >= 1 and g.at(rest) == target:
            yield Move(heap, k, (rest,), ())
        if d & 4 and rest >= 2:
            yield from _splits(g, heap, k, target)
        if d & 8 and rest >= 3:
            yield from _triples(g, heap, k, target)


def position(code: Code | str, heaps: Iterable[int], *, source=None) -> Position:
    """The nim-value of the position ``heaps`` of ``code`` and every winning move.

    Moves that lead to the same position (from two equal heaps, say) are
    listed once.  ``source`` (a :class:`~grundy.sequence.Sequence`, such as
    ``grundy.load`` of what ``grundy settle --out`` kept, or a
    :class:`~grundy.catalogue.database.Catalogue`) gives values to start from; once
    the period is certified, heaps of any size answer at once (the module
    docstring).  Heaps are whole numbers of at least 0 (:mod:`grundy.checks`).

    Examples
    --------
    >>> p = position("·137", [3, 5, 8])
    >>> p.value
    1
    >>> [m.after for m in p.winning_moves]
    [(3, 3, 8), (3, 5, 6), (1, 3, 4, 5)]
    >>> huge = position("·137", [10**7, 12, 6])
    >>> huge.value, huge.count, huge.reading.period
    (2, 294125, 34)
    """
    from ..checks import heap_sizes

    code = parse(code)
    sizes = heap_sizes(heaps)
    g = known_values(code, max(sizes) + 1, source)
    value = 0
    for h in sizes:
        value ^= g.at(h)
    moves: dict[tuple[int, ...], Move] = {}
    splits: dict[tuple, Splits] = {}
    if value:
        for i, h in enumerate(sizes):
            rest = sizes[:i] + sizes[i + 1 :]
            for m in _winning(code, g, h, value ^ g.at(h)):
                if isinstance(m, Splits):
                    splits.setdefault((m.heap, m.removes, m.first), m)
                    continue
                after = tuple(sorted(x for x in rest + m.leaves if x))
                moves.setdefault(after, Move(m.heap, m.removes, m.leaves, after))
    return Position(code, sizes, value, tuple(moves.values()), tuple(splits.values()), g.reading, len(g))
