"""Positions of several heaps: the nim-value of a sum and every winning move (docs/codes.md).

By the Sprague–Grundy theorem a position of heaps ``h1, …, hm`` is worth
``G(h1) XOR … XOR G(hm)``; the player to move wins exactly when that is not 0,
and a winning move replaces one heap ``hi`` by parts worth
``value XOR G(hi)``, which leaves a position worth 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .codes import Code, parse
from .errors import UsageError


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
class Position:
    """The heaps of a position of ``code``, its nim-value and its winning moves."""

    code: Code
    heaps: tuple[int, ...]
    value: int
    winning_moves: tuple[Move, ...]

    @property
    def winning(self) -> bool:
        """Whether the player to move wins (the value is not 0)."""
        return self.value != 0

    def to_dict(self) -> dict:
        return {"code": str(self.code), "heaps": list(self.heaps), "value": self.value,
                "winning_moves": [m.to_dict() for m in self.winning_moves]}

    def __repr__(self) -> str:
        moves = ", ".join(str(list(m.after)) for m in self.winning_moves[:6])
        more = ", …" if len(self.winning_moves) > 6 else ""
        return (f"<Position {self.code} {list(self.heaps)}: value {self.value}; "
                f"winning moves to {moves or 'none'}{more}>")


def parts_after(code: Code, n: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every move from a heap of ``n``: pairs ``(k, parts)``, parts sorted, non-empty, each
    listed once."""
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


def position(code: Code | str, heaps: Iterable[int]) -> Position:
    """The nim-value of the position ``heaps`` of ``code`` and every winning move.

    Moves that lead to the same position (from two equal heaps, say) are
    listed once.

    Examples
    --------
    >>> p = position("·137", [3, 5, 8])
    >>> p.value
    1
    >>> [m.after for m in p.winning_moves]
    [(3, 3, 8), (3, 5, 6), (1, 3, 4, 5)]
    """
    from .engine import compute
    from .memory import check_heaps

    code = parse(code)
    sizes = tuple(int(h) for h in heaps)
    if not sizes or any(h < 0 for h in sizes):
        raise UsageError("a position is one or more heap sizes, each a whole number >= 0")
    check_heaps(max(sizes) + 1)
    g = compute(code, max(sizes) + 1)
    value = 0
    for h in sizes:
        value ^= int(g[h])
    moves: dict[tuple[int, ...], Move] = {}
    if value:
        for i, h in enumerate(sizes):
            target = value ^ int(g[h])
            rest = sizes[:i] + sizes[i + 1 :]
            for k, parts in parts_after(code, h):
                v = 0
                for x in parts:
                    v ^= int(g[x])
                if v == target:
                    after = tuple(sorted(x for x in rest + parts if x))
                    moves.setdefault(after, Move(h, k, parts, after))
    return Position(code, sizes, value, tuple(moves.values()))
