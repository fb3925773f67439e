"""The one validation layer: what the library and the command line accept as numbers and families.

A heap count, a heap size or a number of digits is a whole number: an
``int`` or a numpy integer (any ``numbers.Integral``), never a ``bool``
(``True`` is not one heap) and never a ``float`` (``2.5`` heaps is a
mistake, and ``1e6`` is refused rather than guessed at).  A heap count to compute is also refused before any work
when its values would not fit in memory (:mod:`grundy.memory`).  The command
line parses its arguments with click and hands them to the same functions,
so both refuse the same things with the same sentences
(:class:`~grundy.errors.UsageError`).
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral

from .codes import Code, family, parse
from .errors import UsageError
from .memory import check_heaps

MAX_DIGITS = 6
"""The longest codes a family spans (``digits`` 1..6: 262,143 octal codes)."""


def whole(value, what: str, minimum: int = 0) -> int:
    """``value`` as an ``int`` when it is a whole number of at least ``minimum``, else
    :class:`UsageError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise UsageError(f"{what} must be a whole number of at least {minimum}, "
                         f"not {value!r} (a {type(value).__name__})")
    if value < minimum:
        raise UsageError(f"{what} must be a whole number of at least {minimum}, not {value}")
    return int(value)


def heaps(value, what: str = "the number of heaps") -> int:
    """A number of heaps to compute: a whole number of at least 1 whose values fit in memory."""
    n = whole(value, what, 1)
    check_heaps(n)
    return n


def heap_sizes(values: Iterable) -> tuple[int, ...]:
    """The heaps of a position: one or more whole numbers of at least 0."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise UsageError(f"a position is a list of heap sizes such as [3, 5, 8], not {values!r}")
    sizes = tuple(whole(h, "a heap size") for h in values)
    if not sizes:
        raise UsageError("a position is one or more heap sizes, each a whole number >= 0")
    return sizes


def digits(value) -> int:
    """A number of digits for a family: a whole number from 1 to :data:`MAX_DIGITS`."""
    d = whole(value, "the number of digits", 1)
    if d > MAX_DIGITS:
        raise UsageError(f"a family is every code of 1..digits digits, digits 1..{MAX_DIGITS}, not {d}")
    return d


def codes(value) -> list[Code]:
    """The codes of a family given as a number of digits, one code, or an iterable of codes.

    A single code (``"·137"`` or a :class:`~grundy.codes.Code`) is a family of
    one code, as a user who writes ``survey("·137", 100)`` means, never the
    characters of the string one at a time.
    """
    if isinstance(value, (str, Code)):
        return [parse(value)]
    if isinstance(value, Integral):
        return list(family(digits(value)))
    if not isinstance(value, Iterable):
        raise UsageError(f"a family is a number of digits, a code or a list of codes, not {value!r}")
    found = [parse(c) for c in value]
    if not found:
        raise UsageError("a family needs at least one code")
    return found
