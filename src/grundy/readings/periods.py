"""Periods of a Grundy sequence: the reading at a depth and its certificate.

See docs/periodicity.md, docs/readings.md and docs/arithmetic.md.

The **reading at depth d** looks at ``G(1..d-1)`` and takes the earliest start
``s >= 1``, then the smallest period ``p``, such that ``G(i) = G(i + p)`` for
``s <= i`` and ``i + p <= d - 1``, with at least two full periods seen,
``d - s >= 2p``.

Windows
-------
Guy and Smith's theorem (Winning Ways, ch. 4): for an octal code whose
largest move removes ``t`` counters, if ``G(i + p) = G(i)`` for every
``s <= i < 2s + p + t`` then it holds for every ``i >= s``.  So values through
heap ``2s + 2p + t - 1`` certify ``(s, p)``: the **window** is
``W = 2s + 2p + t`` (a reading at depth ``d`` is certified when ``d >= W``).

The proof, generalised to moves that leave up to ``r`` heaps (``r = 2``
octal, ``r = 3`` hexadecimal), shows what a window must be.  Suppose
``G(i + p) = G(i)`` for ``s <= i < m``; compare the moves from heaps ``m`` and
``m + p`` that remove ``k <= t`` counters.  Taking a whole heap needs
``m <= t``; leaving one heap gives ``G(m + p - k) = G(m - k)`` once
``m - k >= s``.  A move leaving ``j <= r`` heaps from ``m + p`` has a largest
part ``x >= ceil((m + p - k) / j) >= ceil((m + p - t) / r)``: at least a
``1/r`` share of the rest.  When ``x >= s + p``, replacing ``x`` by ``x - p``
(still ``>= s >= 1``, a non-empty heap) is a move from ``m`` worth the same;
and a move from ``m`` has a largest part ``>= ceil((m - t) / r) >= s`` that
``+ p`` turns into a move from ``m + p`` worth the same.  Both heaps then have
the same options, so ``G(m + p) = G(m)``.  The condition
``(m + p - t) / r >= s + p`` holds from ``m = rs + (r-1)p + t``: values through
heap ``r(s + p) + t - 1``, window

    ``W = r(s + p) + t``      (``2s + 2p + t`` octal, ``3s + 3p + t`` hexadecimal).

With the ceiling, ``m = rs + (r-1)p + t - (r-1)`` already suffices: the
**tight window** is ``W - (r - 1)`` (``2s + 2p + t - 1`` octal, as docs/periodicity.md
says, ``3s + 3p + t - 2`` hexadecimal).  The toolkit certifies with ``W``, as
the literature does, and reports the tight one beside it.  The argument needs
``s >= 1``: with ``s = 0`` a part ``x - p`` may be empty, and a pattern that
includes heap 0 can reach its window and be false (``·4``).

Unequal splits (a digit ``k`` with ``!``).  The split ``(x, y)``, ``x > y``,
of ``m + p - k`` maps to ``(x - p, y)``, which is no move when
``x - p = y``: the split ``(y + p, y)`` with ``y = (m - k)/2``, whose image
``(y, y)`` is the equal split the digit forbids.  For ``y >= s`` it is worth
``G(y + p) XOR G(y) = 0``, a value heap ``m`` may not have.  Shifting the
smaller part instead, ``(y + p, y - p)``, is a move from ``m`` (its parts
differ) worth the same once ``y >= s + p``.  So the extra condition is
``(m - k)/2 >= s + p`` whenever ``m - k`` is even, which holds for every
``m >= 2s + 2p + k - 1`` (at ``m = 2s + 2p + k - 1`` the rest ``m - k`` is
odd).  The other direction is unaffected: ``(x, y)`` from ``m`` becomes
``(x + p, y)``, still unequal.  With ``u`` the largest ``!`` digit, values
through heap ``2s + 3p + u - 2`` certify, and the windows become

    ``W = max(r(s + p) + t, 2s + 3p + u)``, tight ``max(r(s + p) + t - (r-1), 2s + 3p + u - 1)``,

(``2s + 3p`` and ``2s + 3p - 1`` for Grundy's game).  The tight one is
sharp: ``·6!`` holds period 3 from heap 2 to depth 12, one heap short of its
tight window 13 and past the octal window 11 (tests/test_periods.py).

Arithmetic periodicity (docs/arithmetic.md)
-------------------------------------------
``G(i + p) = G(i) + S`` with saltus ``S > 0`` for ``i >= s``, read by the same
rule with one change: the stretch must show **three** full periods,
``d - s >= 3p``.  Two periods only define the saltus (by the first
difference), never confirm it: any two values would make a "reading" of
period 1.  An arithmetic reading is never *the* reading of a code (that is
the pure one); it is reported beside it, labelled.  Finite octal codes are
never arithmetic-periodic (Horrocks and Nowakowski, "Regularity in the
G-sequences of octal games with a pass", INTEGERS 3 (2003), abstract: "Finite octal games are not arithmetic
periodic"), so no theorem can certify an arithmetic reading of an octal code:
every such reading is false, however far it holds.  For hexadecimal codes the
certificate is the arithmetic-periodicity theorem of Howse and Nowakowski
("Periodicity and arithmetic-periodicity in hexadecimal games", Theoret.
Comput. Sci. 313 (2004) 463-472); its exact hypotheses (a bound on the
saltus and on the early values besides the window) could not be checked
against the paper when this was written, so no arithmetic reading is
certified.  CGSuite likewise certifies no arithmetic period of a
take-and-break code (``TBCode.getAPChecker`` allows saltus 0 only).  An
arithmetic reading carries the pure window ``r(s + p) + t`` as the yardstick
against which its reach is measured, never as a certificate.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..codes import Code
from ..engine._jit import kernel
from ..errors import UsageError


@dataclass(frozen=True)
class Reading:
    """A reading ``(start, period)`` with its saltus (0 for a pure period) and windows.

    ``certified`` is true exactly when a theorem makes the period hold for
    ever: a pure reading from ``start >= 1`` whose window has closed (the
    final reading of a heap-0 trajectory inherits the default one's).
    ``tight_window`` is None for arithmetic readings (no theorem to tighten).
    """

    start: int
    period: int
    saltus: int
    window: int
    tight_window: int | None
    certified: bool

    def to_dict(self) -> dict:
        """The JSON form (the names of docs/periodicity.md)."""
        return asdict(self)

    def __str__(self) -> str:
        kind = f"arithmetic period {self.period:,}" if self.saltus else f"period {self.period:,}"
        salt = f", saltus {self.saltus}" if self.saltus else ""
        state = "certified" if self.certified else "not certified"
        return f"{kind} from heap {self.start:,}{salt}, {state} (window {self.window:,})"

    def __repr__(self) -> str:
        return f"<Reading: {self}>"


def parts(code: int | Code) -> int:
    """The most heaps a move may leave: 3 for a hexadecimal code, else 2."""
    return 3 if isinstance(code, Code) and code.hexadecimal else 2


def largest_unequal(code: int | Code) -> int | None:
    """The largest ``k`` whose split must leave unequal heaps (a ``!`` digit), or None."""
    return code.unequal[-1] if isinstance(code, Code) and code.unequal else None


def window(start, period, code: int | Code):
    """The Guy–Smith window ``r(start + period) + t`` (``r`` = :func:`parts`), and at least
    ``2·start + 3·period + u`` when ``u`` is the largest ``!`` digit (module docstring).

    ``start`` and ``period`` may be arrays of the same shape (one window each).
    """
    t = code.t if isinstance(code, Code) else int(code)
    w = parts(code) * (start + period) + t
    u = largest_unequal(code)
    return w if u is None else _larger(w, 2 * start + 3 * period + u)


def tight_window(start, period, code: int | Code):
    """The depth that the theorem's proof really needs: ``window - (r - 1)``, and at least
    ``2·start + 3·period + u - 1`` with a ``!`` digit ``u`` (module docstring)."""
    t = code.t if isinstance(code, Code) else int(code)
    w = parts(code) * (start + period) + t - (parts(code) - 1)
    u = largest_unequal(code)
    return w if u is None else _larger(w, 2 * start + 3 * period + u - 1)


def _larger(a, b):
    """The larger of two windows, elementwise for arrays (whole numbers stay ``int``)."""
    return np.maximum(a, b) if isinstance(a, np.ndarray) else max(a, b)


def reading(
    values, t: int | Code, depth: int | None = None, *, heap0: bool = False
) -> Reading | None:
    """The pure reading at ``depth`` (default: every value given), or None.

    ``t`` is the code (its hexadecimal digits widen the window) or, for an
    octal code, its ``t``.  With ``heap0`` the start may be 0 (the heap-0
    study of docs/periodicity.md); such a reading is never certified.
    """
    g, d, lo = _prepare(values, t, depth, heap0, signed=False)
    s, p = _reading_at(g, lo, d, False)
    if s < 0:
        return None
    w = window(s, p, t)
    return Reading(s, p, 0, w, tight_window(s, p, t), s >= 1 and d >= w)


def arithmetic_reading(values, t: int | Code, depth: int | None = None) -> Reading | None:
    """The arithmetic reading (saltus > 0, three periods seen) at ``depth``, or None; never
    certified (module doc)."""
    g, d, lo = _prepare(values, t, depth, False)
    s, p = _reading_at(g, lo, d, True)
    if s < 0:
        return None
    return Reading(s, p, int(g[s + p] - g[s]), window(s, p, t), None, False)


def held_to(values, start: int, period: int, saltus: int = 0) -> int:
    """The depth a period held to: ``i + period`` for the first ``i >= start`` that breaks it.

    Breaking means ``G(i + period) != G(i) + saltus``; when no known value
    breaks it, every known heap repeats and the answer is the number of
    values (it held at least that far).
    """
    g = as_values(values)
    return int(_held_to(g, start, period, saltus))


def _prepare(values, t, depth, heap0, signed=True):
    g = as_values(values, signed)
    if not isinstance(t, Code) and (not isinstance(t, (int, np.integer)) or t < 0):
        raise UsageError(f"t must be a Code or a whole number >= 0, not {t!r}")
    d = g.size if depth is None else depth
    if not isinstance(d, (int, np.integer)) or not 1 <= d <= g.size:
        raise UsageError(f"the depth must lie between 1 and {g.size} (the values known), not {d!r}")
    return g, int(d), 0 if heap0 else 1


def as_values(values, signed: bool = True) -> np.ndarray:
    """``values`` as a one-dimensional integer array; anything else is a :class:`UsageError`.

    With ``signed`` the array is int64, so that differences (saltus) are
    exact.  A pure reading only tests equality, which unsigned differences
    (wrapping to zero exactly when equal) still do: it keeps the values' own
    type and spares a copy eight times their size (160 MB for ·354's
    certificate).
    """
    g = np.asarray(values)
    if g.ndim != 1 or g.size == 0 or not np.issubdtype(g.dtype, np.integer):
        raise UsageError("values must be a non-empty one-dimensional array of whole numbers")
    return np.ascontiguousarray(g, dtype=np.int64 if signed else None)


@kernel(native="UniTuple(i8, 2)(R, i8, i8, b1)", values=("u1", "u2", "u4", "i8"), allocates=True)
def _reading_at(g, lo, d, arithmetic):
    """``(s, p)`` of the reading at depth ``d`` over heaps ``lo..d-1``, or ``(-1, -1)``.

    For each ``p`` the stretch ending at heap ``d - 1`` is followed back to its
    start ``s_p``.  A multiple ``kp < d - s_p`` starts its own stretch at
    exactly ``s_p`` (the break at ``s_p - 1`` breaks it too), with saltus
    ``k`` times as large, so it can never win and is skipped.
    """
    top = (d - lo) // 2
    skip = np.zeros(top + 1, np.bool_)
    best_s, best_p = -1, -1
    last = d - 1
    for p in range(1, top + 1):
        if skip[p]:
            continue
        saltus = g[last] - g[last - p] if arithmetic else 0
        i = last - p
        while i >= lo and g[i + p] - g[i] == saltus:
            i -= 1
        s = i + 1
        k = 2
        while k * p <= top and k * p < d - s:
            skip[k * p] = True
            k += 1
        ok = d - s >= 3 * p and saltus > 0 if arithmetic else d - s >= 2 * p
        if ok and (best_s < 0 or s < best_s):
            best_s, best_p = s, p
            if s == lo:
                break
    return best_s, best_p


@kernel(native="i8(R, i8, i8, i8)", values=("i8",))
def _held_to(g, start, period, saltus):
    i = start
    while i + period < g.size and g[i + period] - g[i] == saltus:
        i += 1
    return min(g.size, i + period)
