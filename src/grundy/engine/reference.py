"""The obviously correct engine: plain Python, one move at a time, the mex by its definition.

Slow on purpose; every fast kernel is tested against it.
"""

from __future__ import annotations

from ..codes import Code


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``."""
    v = 0
    while v in values:
        v += 1
    return v


def option_values(code: Code, g: list[int], n: int) -> list[int]:
    """The value of every move from a heap of ``n``, given ``g[0..n-1]`` (with repeats)."""
    out: list[int] = []
    for k, d in enumerate(code.digits):
        rest = n - k
        if rest < 0:
            continue
        if d & 1 and rest == 0:
            out.append(0)
        if d & 2 and k >= 1 and rest >= 1:
            out.append(g[rest])
        if d & 4:
            for a in range(1, rest // 2 + 1):
                if a == rest - a and k in code.unequal:
                    continue  # a '!' digit: its two heaps must differ
                out.append(g[a] ^ g[rest - a])
        if d & 8:
            for a in range(1, rest // 3 + 1):
                for b in range(a, (rest - a) // 2 + 1):
                    out.append(g[a] ^ g[b] ^ g[rest - a - b])
    return out


def grundy_values(code: Code, heaps: int) -> list[int]:
    """``G(0), …, G(heaps-1)`` of ``code``, by the definition."""
    g: list[int] = []
    for n in range(heaps):
        g.append(mex(set(option_values(code, g, n))) if n else 0)
    return g
