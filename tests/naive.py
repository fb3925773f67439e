"""The naive twins: every fast path's slow, obviously correct counterpart, in one place.

Each one computes by the definition (docs/periodicity.md, docs/readings.md), slow on
purpose, and shares no code with the function it checks; the tests compare the two on many
codes and depths.
"""

from __future__ import annotations

import itertools

import numpy as np

from grundy.codes import Code, parse

# ---------------------------------------------------------------- values


def wrong_heaps(code: Code | str, values) -> list[int]:
    """Twin of ``grundy.engine.compute``: the heaps whose value is not the mex of their options'.

    Checking that at every heap proves the whole sequence by induction, at the cost of one
    numpy pass per heap: far cheaper than the plain-Python reference at depths of ten thousand
    heaps, and sharing no code with the engines (two-heap moves only).
    """
    code = parse(code)
    if code.hexadecimal:
        raise ValueError("three-heap moves are not covered here; use the reference engine")
    g = np.asarray(values, dtype=np.int64)
    bad = []
    for n in range(1, g.size):
        options = []
        for k in code.take_all:
            if k == n:
                options.append(np.zeros(1, np.int64))
        for k in code.leave_one:
            if 1 <= k < n:
                options.append(g[n - k : n - k + 1])
        for k in code.split_two:
            m = n - k
            if m >= 2:
                a = np.arange(1, m // 2 + 1)
                if k in code.unequal:  # '!': the two heaps must differ
                    a = a[a != m - a]
                options.append(g[a] ^ g[m - a])
        seen = np.unique(np.concatenate(options)) if options else np.zeros(0, np.int64)
        gaps = np.flatnonzero(seen != np.arange(seen.size))
        mex = int(gaps[0]) if gaps.size else int(seen.size)
        if mex != g[n]:
            bad.append(n)
    return bad


# ---------------------------------------------------------------- readings and trajectories
# Every depth is read again from scratch; nothing is shared with ``grundy.trajectory``.


def naive_reading(g, d, lo=1, arithmetic=False):
    """Twin of ``grundy.periods.reading`` and ``arithmetic_reading``: ``(s, p)`` at depth ``d``.

    The earliest ``s >= lo``, then smallest ``p``, with ``G(i + p) = G(i) (+ S)`` on
    ``G(lo..d-1)`` and ``d - s >= 2p`` (``3p`` for an arithmetic reading, whose saltus two
    periods would only define, never confirm).
    """
    reps = 3 if arithmetic else 2
    for s in range(lo, d):
        for p in range(1, (d - s) // reps + 1):
            saltus = g[s + p] - g[s] if arithmetic else 0
            if arithmetic and saltus <= 0:
                continue
            if all(g[i + p] - g[i] == saltus for i in range(s, d - p)):
                return s, p
    return None


def kmp_reading(g, d, lo=1):
    """Twin of ``grundy.periods.reading`` by another route than ``naive_reading``'s.

    The longest suffix of ``G(lo..d-1)`` with exponent >= 2.  Read backwards, the suffix of
    length ``L`` is a prefix of the reversed sequence; its smallest period is
    ``L - border(L)`` (Knuth–Morris–Pratt), and it repeats twice when that is at most ``L / 2``.
    """
    r = g[lo:d][::-1]
    border = [0] * (len(r) + 1)
    k = 0
    for i in range(1, len(r)):
        while k and r[i] != r[k]:
            k = border[k]
        if r[i] == r[k]:
            k += 1
        border[i + 1] = k
    for length in range(len(r), 1, -1):
        if 2 * border[length] >= length:
            return d - length, length - border[length]
    return None


def naive_readings(g, lo=1, reader=naive_reading):
    """Twin of ``grundy.trajectory.readings``: the reading at every depth ``0..len(g)``."""
    return [reader(g, d, lo) for d in range(len(g) + 1)]


def naive_held_to(g, s, p):
    """Twin of ``grundy.periods.held_to``: the first heap breaking the period ``p`` from ``s``."""
    for i in range(s, len(g) - p):
        if g[i] != g[i + p]:
            return i + p
    return len(g)


def naive_trajectory(g, t, parts=2, heap0=False, reader=naive_reading):
    """Twin of ``grundy.trajectory.trajectory``: its JSON fields and ``believed``, by definition."""
    n = len(g)

    def window(s, p):
        return parts * (s + p) + t

    default = naive_readings(g, reader=reader)
    truth = next((d for d, r in enumerate(default) if r and d >= window(*r)), None)
    reads = naive_readings(g, 0, reader) if heap0 else default
    last = n if truth is None else truth
    depths = [d for d in range(last + 1) if reads[d] is not None]
    final = reads[last]
    if truth is not None:
        s, p = default[truth]
        final = (0 if heap0 and s == 1 and g[0] == g[p] else s, p)
    changes = sum(1 for a, b in itertools.pairwise(depths) if reads[a] != reads[b])
    right_from = None
    if truth is not None:
        right_from = depths[0]
        for d in range(depths[0], last + 1):
            if reads[d] != final:
                right_from = d + 1
    false = []
    d = 0
    while d <= last:
        r = reads[d]
        if r is None:
            d += 1
            continue
        e = d
        while e + 1 <= last and reads[e + 1] == r:
            e += 1
        if r != final:
            s, p = r
            if final is not None and p == final[1]:
                kind = "right_period_wrong_start"
            elif final is not None and final[1] % p == 0:
                kind = "dividing"
            else:
                kind = "unrelated"
            held = naive_held_to(g, s, p)
            false.append(
                {
                    "start": s,
                    "period": p,
                    "first_depth": d,
                    "last_depth": e,
                    "held_to": held,
                    "window": window(s, p),
                    "reach": held / window(s, p),
                    "kind": kind,
                    "before_start": final is not None and s < final[0],
                }
            )
        d = e + 1
    return {
        "heaps": n,
        "final": final and {"start": final[0], "period": final[1], "window": window(*final)},
        "certified": truth is not None,
        "certificate_depth": truth,
        "right_from": right_from,
        "changes": changes,
        "repetitions_needed": None if truth is None else (truth - final[0]) / final[1],
        "false_readings": false,
        "believed": {
            r: sum(f["last_depth"] - f["start"] >= r * f["period"] for f in false)
            for r in range(2, 7)
        },
    }
