"""Octal and hexadecimal game codes (docs/codes.md): parse, format, moves, families.

A code ``·d1d2…dt`` says, digit by digit, what a move removing ``k`` counters
from one heap may leave: bit 1 no heap, bit 2 one non-empty heap, bit 4 two,
bit 8 three (hexadecimal codes).  ``d0 = 4`` allows splitting a heap in two
without removing anything.  A code needs a point, with one exception: a bare
``4`` is the split-only game ``4·``, as the published tables write it.  So
``5`` is refused (write ``·5``), and so is ``0``.  Hexadecimal codes are written with a ``0x``
prefix (``0x·9``) so that a stray ``9`` in an octal code is caught, not
silently read as a three-heap move.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .errors import CodeError

POINTS = ("·", ".")
_HEX_PREFIX = "0x"


class Move(NamedTuple):
    """Remove ``k`` counters from one heap and leave ``leaves`` non-empty heaps."""

    k: int
    leaves: int


@dataclass(frozen=True)
class Code:
    """A game code: ``digits[k]`` is the digit for removing ``k`` counters (``digits[0]`` is d0)."""

    digits: tuple[int, ...]

    def __post_init__(self) -> None:
        d = self.digits
        if not d or d[0] not in (0, 4):
            raise CodeError("the digit before the point must be 0 or 4")
        if any(not 0 <= x <= 15 for x in d):
            raise CodeError("every digit must lie between 0 and f")
        if d[-1] == 0:
            raise CodeError("the last digit of a code must be non-zero")

    @property
    def t(self) -> int:
        """The number of digits after the point: the most counters one move removes."""
        return len(self.digits) - 1

    @property
    def hexadecimal(self) -> bool:
        """True when some move may leave three heaps (a digit with bit 8)."""
        return any(x & 8 for x in self.digits)

    def ks(self, bit: int) -> tuple[int, ...]:
        """The numbers of counters ``k`` whose digit has ``bit`` set."""
        return tuple(k for k, x in enumerate(self.digits) if x & bit)

    @property
    def take_all(self) -> tuple[int, ...]:
        """k such that a heap of exactly k may be removed whole (bit 1)."""
        return self.ks(1)

    @property
    def leave_one(self) -> tuple[int, ...]:
        """k such that removing k may leave one non-empty heap (bit 2)."""
        return self.ks(2)

    @property
    def split_two(self) -> tuple[int, ...]:
        """k such that removing k may leave two non-empty heaps (bit 4; k = 0 when d0 = 4)."""
        return self.ks(4)

    @property
    def split_three(self) -> tuple[int, ...]:
        """k such that removing k may leave three non-empty heaps (bit 8)."""
        return self.ks(8)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every kind of move, in order of ``k`` then heaps left."""
        return tuple(
            Move(k, leaves)
            for k, x in enumerate(self.digits)
            for leaves, bit in enumerate((1, 2, 4, 8))
            if x & bit
        )

    def __str__(self) -> str:
        prefix = _HEX_PREFIX if self.hexadecimal else ""
        head = "4" if self.digits[0] == 4 else ""
        return prefix + head + "·" + "".join(format(x, "x") for x in self.digits[1:])

    def __repr__(self) -> str:
        return f"Code({str(self)!r})"


def parse(text: str | Code) -> Code:
    """Read a code written ``·137``, ``.137``, ``0.137``, ``4.07``, ``0x·9``, ``4·`` or ``4``.

    A code needs a point; the one exception is a bare ``4``, the split-only
    game ``4·`` as published tables write it.  Raises :class:`CodeError` with
    one sentence naming the offending character; for digits without a point it
    suggests only the spellings that are codes.
    """
    if isinstance(text, Code):
        return text
    if not isinstance(text, str):
        raise CodeError(f"a code is a string such as ·137, not {type(text).__name__}")
    s = text.strip()
    if not s:
        raise CodeError("empty code: write a code such as ·137")
    hexa = s[:2].lower() == _HEX_PREFIX
    body = s[2:] if hexa else s
    allowed = "0123456789abcdefABCDEF" if hexa else "01234567"
    point = None
    for i, ch in enumerate(body):
        if ch in POINTS:
            if point is not None:
                raise CodeError(f"{text!r} has a second point {ch!r} at position {i + 1}")
            point = i
        elif ch not in allowed:
            if not hexa and ch in "89":
                raise CodeError(
                    f"digit {ch!r} in {text!r} is above 7, the largest octal digit "
                    f"(write 0x·… for a hexadecimal code)"
                )
            raise CodeError(f"unexpected character {ch!r} in code {text!r}")
    if point is None:
        if body == "4":
            return Code((4,))
        raise CodeError(_no_point(text, s[:2] if hexa else "", body))
    head, tail = body[:point], body[point + 1 :]
    if head not in ("", "0", "4"):
        bad = next((c for c in head if c not in "04"), head[-1])
        raise CodeError(f"the digit before the point must be 0 or 4, not {bad!r} in {text!r}")
    d0 = 4 if head == "4" else 0
    if not tail and d0 == 0:
        raise CodeError(f"{text!r} has no digits after the point")
    if tail and tail[-1] == "0":
        raise CodeError(f"{text!r} ends in a trailing zero '0': drop it")
    return Code((d0, *(int(c, 16) for c in tail)))


def _no_point(text: str, prefix: str, body: str) -> str:
    """The error for digits without a point, suggesting the readings of them that are codes."""
    tries = [f"{prefix}·{body}"]
    if len(body) > 1 and body[0] in "04":
        tries.append(f"{prefix}{body[0]}·{body[1:]}")
    fits = []
    for cand in tries:
        try:
            fits.append(str(parse(cand)))
        except CodeError:
            pass
    rule = "a code needs a point (only a bare 4 stands for 4·)"
    if fits:
        return f"{text!r} has no point: write {' or '.join(dict.fromkeys(fits))}; {rule}"
    return f"{text!r} is not a code: {rule} and ends in a non-zero digit, as in ·137"


def family(digits: int, *, d0: bool = False, hexadecimal: bool = False) -> Iterator[Code]:
    """Every code with 1..``digits`` digits after the point, shortest first.

    With ``d0`` each code also comes with ``d0 = 4``; with ``hexadecimal`` the
    digits run to ``f`` (codes without bit 8 are octal and also included).
    """
    if digits < 1:
        raise CodeError("a family needs at least one digit after the point")
    base = 16 if hexadecimal else 8
    heads = (0, 4) if d0 else (0,)
    for length in range(1, digits + 1):
        for head in heads:
            for rest in itertools.product(range(base), repeat=length - 1):
                for last in range(1, base):
                    yield Code((head, *rest, last))
