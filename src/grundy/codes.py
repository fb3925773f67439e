"""Octal and hexadecimal game codes (docs/codes.md): parse, format, moves, families.

A code ``·d1d2…dt`` says, digit by digit, what a move removing ``k`` counters
from one heap may leave: bit 1 no heap, bit 2 one non-empty heap, bit 4 two,
bit 8 three (hexadecimal codes).  ``d0 = 4`` allows splitting a heap in two
without removing anything.  A code needs a point, with one exception: a bare
``4`` is the split-only game ``4·``, as the published tables write it.  So
``5`` is refused (write ``·5``), and so is ``0``.  Hexadecimal codes are written with a ``0x``
prefix (``0x·9``) so that a stray ``9`` in an octal code is caught, not
silently read as a three-heap move.

A digit followed by ``!`` (CGSuite's convention) splits a heap only into two
**unequal** heaps: ``4!·`` (also written ``4!·0``, ``4!``, or by its names
``grundy`` and ``grundys-game``) is Grundy's game, ``·4!`` removes one counter
and splits the rest unequally.  Only a digit that splits in two, and not in
three, may carry one.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from .errors import CodeError

POINTS = ("·", ".")
_HEX_PREFIX = "0x"
UNEQUAL = "!"
"""The mark after a digit whose split must leave two unequal heaps."""
FILE_UNEQUAL = "u"
"""How a ``!`` is written in file names (:func:`file_safe`): no other spelling of a code uses it."""


class Move(NamedTuple):
    """Remove ``k`` counters from one heap and leave ``leaves`` non-empty heaps."""

    k: int
    leaves: int


@dataclass(frozen=True)
class Code:
    """A game code: ``digits[k]`` is the digit for removing ``k`` counters (``digits[0]`` is d0).

    ``unequal`` lists the ``k`` whose digit carries ``!``: its split in two must
    leave two different heaps (``(a, m - a)`` with ``a < m - a``).
    """

    digits: tuple[int, ...]
    unequal: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        d = self.digits
        if not d or d[0] not in (0, 4):
            raise CodeError("the digit before the point must be 0 or 4")
        if any(not 0 <= x <= 15 for x in d):
            raise CodeError("every digit must lie between 0 and f")
        if d[-1] == 0:
            raise CodeError("the last digit of a code must be non-zero")
        marked = tuple(sorted({int(k) for k in self.unequal}))
        for k in marked:
            if not 0 <= k < len(d):
                raise CodeError(f"there is no digit {k} to carry a '!' (the code has {len(d) - 1})")
            _check_unequal(format(d[k], "x"), d[k], "")
        object.__setattr__(self, "unequal", marked)

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

    def split_top(self, k: int, rest: int) -> int:
        """The largest smaller part ``a`` of a split ``(a, rest - a)`` by digit ``k``: ``rest // 2``,
        or ``(rest - 1) // 2`` when its heaps must differ."""
        return (rest - 1) // 2 if k in self.unequal else rest // 2

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
        marks = [UNEQUAL if k in self.unequal else "" for k in range(len(self.digits))]
        head = "4" + marks[0] if self.digits[0] == 4 else ""
        tail = "".join(format(x, "x") + m for x, m in zip(self.digits[1:], marks[1:], strict=True))
        return prefix + head + "·" + tail

    def __repr__(self) -> str:
        return f"Code({str(self)!r})"


def shell_word(text: str) -> str:
    """``text`` (a code as printed) as one word of a command line: quoted when it holds a ``!``,
    which an interactive shell would otherwise expand."""
    return f"'{text}'" if UNEQUAL in text else text


def _check_unequal(ch: str, digit: int, where: str) -> None:
    """Refuse a ``!`` on a digit that does not split a heap in exactly two."""
    if not digit & 4:
        raise CodeError(
            f"'!' after digit {ch!r}{where}: digit {ch} never splits a heap in two, so there "
            "are no heaps to keep unequal (a '!' follows a digit 4, 5, 6 or 7)"
        )
    if digit & 8:
        raise CodeError(
            f"'!' after digit {ch!r}{where}: digit {ch} also splits a heap in three, and '!' "
            "asks only that the two heaps of a split differ"
        )


GRUNDYS_GAME = Code((4,), (0,))
"""Grundy's game (Grundy 1939; Winning Ways ch. 4): split one heap into two unequal heaps."""
NAMES = {"grundy": GRUNDYS_GAME, "grundys-game": GRUNDYS_GAME}
"""The games that may be named instead of written as a code (any case)."""


def game_name(code: Code) -> str | None:
    """The common name of ``code`` when it has one (``Grundy's game``), else None."""
    return "Grundy's game" if code == GRUNDYS_GAME else None


def file_safe(text: str) -> str:
    """``text`` (a code as printed) with each ``!`` written ``u``, for file names and URLs.

    A ``!`` is a legal file name, but an interactive shell expands it (bash's
    history), so no file name of this toolkit holds one; ``u`` appears in no
    other spelling of a code, so the names stay distinct: ``·4!`` → ``·4u``.
    """
    return text.replace(UNEQUAL, FILE_UNEQUAL)


def file_name(code: Code | str) -> str:
    """The one file name of a code, for its page, its store, its cache entries and its plots:
    ASCII, with no ``!`` (:func:`file_safe`) and no leading point: ``·137`` → ``0.137``,
    ``4·07`` → ``4.07``, ``0x·9`` → ``0x0.9``, ``4!·`` → ``4u``."""
    head, _, digits = file_safe(str(code)).partition("·")
    if head in ("", "0x"):
        head += "0"
    return f"{head}.{digits}" if digits else head


def parse(text: str | Code) -> Code:
    """Read a code written ``·137``, ``.137``, ``0.137``, ``4.07``, ``0x·9``, ``4·``, ``4``,
    ``·4!``, ``4!·0`` or a name (:data:`NAMES`).

    A code needs a point; the one exception is a bare ``4`` (or ``4!``), the
    split-only game ``4·`` as published tables write it; a lone ``0`` after
    the point of such a game (``4·0``, ``4!·0``, CGSuite's spelling) writes
    no digit.  A ``!`` follows a digit that splits in two (:class:`Code`).
    Raises :class:`CodeError` with one sentence naming the offending
    character; for digits without a point it suggests only the spellings that
    are codes.
    """
    if isinstance(text, Code):
        return text
    if not isinstance(text, str):
        raise CodeError(f"a code is a string such as ·137, not {type(text).__name__}")
    s = text.strip()
    if not s:
        raise CodeError("empty code: write a code such as ·137")
    if s.lower() in NAMES:
        return NAMES[s.lower()]
    hexa = s[:2].lower() == _HEX_PREFIX
    body = s[2:] if hexa else s
    allowed = "0123456789abcdefABCDEF" if hexa else "01234567"
    clean, marks = _marks(text, body)
    point = None
    for i, ch in enumerate(clean):
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
            if not any(c.isdigit() or c in POINTS for c in s):
                raise CodeError(
                    f"{text!r} is neither a code (unexpected character {ch!r}) nor the name of a "
                    f"game ({', '.join(NAMES)})"
                )
            raise CodeError(f"unexpected character {ch!r} in code {text!r}")
    if point is None:
        if clean == "4":
            return Code((4,), (0,) if marks else ())
        raise CodeError(_no_point(text, s[:2] if hexa else "", body))
    head, tail = clean[:point], clean[point + 1 :]
    if head not in ("", "0", "4"):
        bad = next((c for c in head if c not in "04"), head[-1])
        raise CodeError(f"the digit before the point must be 0 or 4, not {bad!r} in {text!r}")
    d0 = 4 if head == "4" else 0
    if not tail and d0 == 0:
        raise CodeError(f"{text!r} has no digits after the point")
    if tail == "0" and d0 == 4 and point + 1 not in marks:
        tail = ""
    if tail and tail[-1] == "0":
        raise CodeError(f"{text!r} ends in a trailing zero '0': drop it")
    digits = (d0, *(int(c, 16) for c in tail))
    unequal = []
    for i in marks:
        k = 0 if i < point else i - point
        _check_unequal(clean[i], digits[k], f" in {text!r}")
        unequal.append(k)
    return Code(digits, tuple(unequal))


def _marks(text: str, body: str) -> tuple[str, list[int]]:
    """``body`` without its ``!`` marks, and the index (in that string) of each marked digit."""
    clean, marks = [], []
    for ch in body:
        if ch != UNEQUAL:
            clean.append(ch)
            continue
        if not clean or clean[-1] in POINTS or (marks and marks[-1] == len(clean) - 1):
            if not clean:
                where = "at the start"
            elif clean[-1] in POINTS:
                where = f"after the point {clean[-1]!r}"
            else:
                where = "after another '!'"
            raise CodeError(
                f"'!' {where} in {text!r}: a '!' follows the digit whose split it makes "
                "unequal, as in ·4! or 4!·0"
            )
        marks.append(len(clean) - 1)
    return "".join(clean), marks


def _no_point(text: str, prefix: str, body: str) -> str:
    """The error for digits without a point, suggesting the readings of them that are codes."""
    tries = [f"{prefix}·{body}"]
    if len(body) > 1 and body[0] in "04" and body[1:] != "0":  # 40 is no spelling of 4·
        tries.append(f"{prefix}{body[0]}·{body[1:]}")
    fits = []
    for cand in tries:
        with contextlib.suppress(CodeError):
            fits.append(str(parse(cand)))
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
