"""The same game by the rules: codes whose digits prove their values equal (docs/campaigns.md).

Two relations, each a theorem about every heap, not an observation about some:

* :func:`same_game`: bits of a digit that can never change a value; clearing them gives the
  *canonical* code, with the same value at every heap.
* :func:`shifted`: a code whose heap ``n + 1`` is worth what heap ``n`` of another code is, so
  that one sequence is the other moved by one heap.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..codes import Code, parse


@dataclass(frozen=True)
class SameGame:
    """A code, the canonical code its rules prove it equal to, and the bits cleared, each with
    the reason (``(k, bit, why)``: bit ``bit`` of digit ``k``)."""

    code: Code
    canonical: Code
    cleared: tuple[tuple[int, int, str], ...]

    @property
    def proven(self) -> bool:
        """Whether the rules make ``code`` another code's game."""
        return self.canonical != self.code

    def to_dict(self) -> dict:
        return {"code": str(self.code), "canonical": str(self.canonical),
                "cleared": [list(c) for c in self.cleared]}  # fmt: skip


def _trimmed(digits: list[int]) -> list[int]:
    d = list(digits)
    while len(d) > 1 and d[-1] == 0:
        d.pop()
    return d


def same_game(code: Code | str) -> SameGame:
    """The canonical code of ``code``: its digits with every bit cleared that can never change a
    value, by two rules (for octal codes with ``d0 = 0``; others are their own canonical code).

    *Leaving one heap beside a heap worth 0.*  Bit 2 of digit ``k`` is redundant when, for some
    ``1 <= j < k``, ``G(j) = 0`` and digit ``k - j`` has bit 4: from a heap ``n > k``,
    removing ``k`` and leaving ``n - k`` is worth ``G(n - k)``, and so is removing ``k - j`` and
    leaving the two heaps ``j`` and ``n - k``.  The move needs ``n > k``, so ``G(j)`` is the same
    with or without the bit, and by induction on ``n`` every heap has the same options.

    *Taking the whole heap where another move is worth 0.*  Bit 1 of digit ``k`` only adds the
    option 0 to the heap of ``k``; when that heap has an option worth 0 without it, its value
    (a mex) is the same, and so is every other heap's.

    Clearing a redundant bit changes no value, so the rules apply one after the other on the
    same values; a last digit cleared to 0 shortens the code.  The published lookup table of
    equivalent games (:func:`grundy.catalogue.published.lookup`) agrees on every 1..3-digit code (tested).
    """
    from ..engine.reference import grundy_values

    code = parse(code)
    d = list(code.digits)
    if code.hexadecimal or d[0] != 0:
        return SameGame(code, code, ())
    g = grundy_values(code, code.t + 1)
    cleared = []
    for k in range(2, len(d)):
        j = next((j for j in range(1, k) if g[j] == 0 and d[k - j] & 4), None)
        if d[k] & 2 and j is not None:
            d[k] &= ~2
            why = f"removing {k - j} and leaving a heap of {j} (worth 0) beside the rest"
            cleared.append((k, 2, f"removing {k} and leaving one heap is worth what {why} is"))
    for k in range(1, len(d)):
        if k < len(d) and d[k] & 1:
            trial = _trimmed(d[:k] + [d[k] & ~1] + d[k + 1 :])
            if len(trial) > 1 and grundy_values(Code(tuple(trial)), k + 1)[k] != 0:
                d = trial
                cleared.append((k, 1, f"a heap of {k} has a move worth 0 besides taking it whole"))
    return SameGame(code, Code(tuple(_trimmed(d))), tuple(cleared))


def shifted(code: Code | str) -> Code | None:
    """The code whose heap ``n`` is worth what heap ``n + 1`` of ``code`` is, for every ``n >= 0``
    (None where the rule does not apply: an octal code with ``d0 = 0`` whose heap of 1 has no
    move, ``d1`` without bit 1, and no ``!``).

    Count the heaps of ``code`` one lower: a heap of ``m`` counters is a heap of ``m - 1`` of the
    new code, and a heap of 1, worth 0 in ``code``, becomes no heap.  Removing ``k`` and leaving
    ``j`` non-empty heaps that add up to ``m - k`` leaves, one lower each, ``j`` heaps that add
    up to ``m - k - j`` of which any may be empty: in the new code, removing ``k + j - 1`` from
    ``m - 1`` and leaving at most ``j`` heaps.  So bit 1 of digit ``k`` becomes bit 1 of digit
    ``k - 1`` (never ``k = 1``: that heap of 1 would have a move), bit 2 of digit ``k`` becomes
    bits 1 and 2 of digit ``k``, and bit 4 of digit ``k`` bits 1, 2 and 4 of digit ``k + 1``.
    Every move of the new code arises this way, from a move that leaves the missing heaps as
    heaps of 1 (worth 0), so heap ``n`` of the new code and heap ``n + 1`` of ``code`` have the
    same options' values, by induction on ``n`` from the empty heap (worth 0 in both).
    """
    code = parse(code)
    d = code.digits
    if code.hexadecimal or code.unequal or d[0] != 0 or d[1] & 1:
        return None
    e = [0] * (len(d) + 1)
    for k in range(1, len(d)):
        if d[k] & 1:
            e[k - 1] |= 1
        if d[k] & 2:
            e[k] |= 3
        if d[k] & 4:
            e[k + 1] |= 7
    e = _trimmed(e)
    return Code(tuple(e)) if len(e) > 1 else None
