"""The naive twins: every fast path's slow, obviously correct counterpart, in one place.

Each one computes by the definition (docs/periodicity.md, docs/readings.md,
docs/rare-classes.md, docs/counts.md), slow on purpose, sharing no code with the fast path
it checks; the tests compare the two on many codes and depths.  Some read options or values
from the reference engine (``grundy.engine.reference``), a library module that stays there.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from grundy import rare as R
from grundy.codes import Code, parse
from grundy.engine.reference import grundy_values, option_values

# ---------------------------------------------------------------- values


def ref(code, heaps):
    """Twin of the fast engines (``grundy.engine.compute``): the reference engine's values."""
    return np.array(grundy_values(parse(code), heaps))


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
# Every depth is read again from scratch; nothing is shared with ``grundy.readings.trajectory``.


def naive_reading(g, d, lo=1, arithmetic=False):
    """Twin of ``grundy.readings.periods.reading`` and ``arithmetic_reading``: ``(s, p)`` at depth ``d``.

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
    """Twin of ``grundy.readings.periods.reading`` by another route than ``naive_reading``'s.

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
    """Twin of ``grundy.readings.trajectory.readings``: the reading at every depth ``0..len(g)``."""
    return [reader(g, d, lo) for d in range(len(g) + 1)]


def naive_arithmetic_readings(g):
    """Twin of ``grundy.readings.trajectory.readings(arithmetic=True)``: every depth's arithmetic reading."""
    return [naive_reading(g, d, arithmetic=True) for d in range(len(g) + 1)]


def naive_held_to(g, s, p):
    """Twin of ``grundy.readings.periods.held_to``: the first heap breaking the period ``p`` from ``s``."""
    for i in range(s, len(g) - p):
        if g[i] != g[i + p]:
            return i + p
    return len(g)


def naive_runs(reads, last):
    """Twin of the runs of ``grundy.readings.trajectory.trajectory``'s false readings, by their definition.

    Maximal runs of consecutive depths ``0..last`` with the same reading: ``(s, p, first, last)``.
    """
    out, d = [], 0
    while d <= last:
        r = reads[d]
        e = d
        while r is not None and e + 1 <= last and reads[e + 1] == r:
            e += 1
        if r is not None:
            out.append((*r, d, e))
        d = e + 1
    return out


def naive_trajectory(g, t, parts=2, heap0=False, reader=naive_reading):
    """Twin of ``grundy.readings.trajectory.trajectory``: its JSON fields and ``believed``, by definition."""
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


# ---------------------------------------------------------------- rare heaps


def naive_rare(values, mask, parity=0, position=False, split_parity=None):
    """Twin of ``grundy.value_classes.rare_heaps``: the heaps ``x >= 1`` whose class bit is ``parity``.

    The class bit is the parity of ``values[x] & mask``, plus ``x + split_parity`` for a
    position class.
    """
    return [
        x
        for x in range(1, len(values))
        if ((int(values[x]) & mask).bit_count() + (x + split_parity if position else 0)) % 2
        == parity
    ]


# ---------------------------------------------------------------- move and split counts, ledger


def brute(code: Code, g, v, lo, hi):
    """Twin of ``grundy.rare.counts``: move and split counts, heap by heap.

    Move counts from ``reference.option_values``, split counts from the pairs (a, b) themselves.
    """
    gl = [int(x) for x in g]
    moves = [option_values(code, gl, n).count(v) for n in range(lo, hi)]
    splits = [
        sum(
            1
            for k in code.split_two
            for a in range(1, (n - k) // 2 + 1)
            if gl[a] ^ gl[n - k - a] == v
        )
        for n in range(lo, hi)
    ]
    return moves, splits


def brute_ledger(code: Code, g, v, mask):
    """Twin of ``grundy.rare.ledger``: what each rare heap supplies, and supplies alone."""
    cls = R.RareClass(mask)
    gl = [int(x) for x in g]
    supplies, sole = {}, {}
    for n in range(1, len(gl)):
        suppliers, splits = set(), 0
        for k in code.split_two:
            for a in range(1, (n - k) // 2 + 1):
                b = n - k - a
                if gl[a] ^ gl[b] == v:
                    assert cls.holds(gl[a]) != cls.holds(gl[b])  # exactly one rare part
                    suppliers.add(a if cls.holds(gl[a]) else b)
                    splits += 1
        for r in suppliers:
            supplies[r] = supplies.get(r, 0) + 1
        if len(suppliers) == 1 and option_values(code, gl, n).count(v) == splits:
            (r,) = suppliers
            sole[r] = sole.get(r, 0) + 1
    return supplies, sole


# ---------------------------------------------------------------- positions


def naive_moves(digits, heaps):
    """Twin of the moves ``grundy.readings.position`` weighs: every position one move leaves.

    Enumerated from the digits alone (no Sprague–Grundy theory).
    """
    out = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for k, d in enumerate(digits):
            r = n - k
            if r < 0 or (k == 0 and r == 0):
                continue
            parts = []
            if d & 1 and r == 0:
                parts.append(())
            if d & 2 and k and r:
                parts.append((r,))
            if d & 4:
                parts += [(a, r - a) for a in range(1, r)]
            if d & 8:
                parts += [(a, b, r - a - b) for a in range(1, r) for b in range(1, r - a)]
            for p in parts:
                out.add(tuple(sorted(x for x in rest + p if x)))
    return out


def naive_tree_value(digits):
    """Twin of ``grundy.readings.position``'s value: a game-tree search, the mex of each position's moves."""

    @cache
    def value(heaps):
        seen = {value(m) for m in naive_moves(digits, heaps)}
        v = 0
        while v in seen:
            v += 1
        return v

    return value


def naive_winning(code, g, heaps) -> set[tuple[int, ...]]:
    """Twin of ``grundy.readings.position``'s winning moves: every move to a position worth 0.

    Each part's value is read from ``g``.
    """
    out = set()
    for after in naive_moves(code.digits, tuple(sorted(h for h in heaps if h))):
        v = 0
        for x in after:
            v ^= int(g[x])
        if v == 0:
            out.add(after)
    return out


# ---------------------------------------------------------------- the store's checksum


def fletcher_loop(values) -> int:
    """Twin of ``grundy.engine.store.fletcher32``: ogsolve's loop, word by word.

    The published programs' checksum (Beling's main.rs).
    """
    s0 = s1 = 0
    for v in values:
        s0 = (s0 + int(v)) % 65536
        s1 = (s1 + s0) % 65536
    return (s1 << 16) | s0


# ---------------------------------------------------------------- the campaign


def first_difference(a: str, b: str, heaps: int) -> int | None:
    """Twin of ``grundy.catalogue.campaign.parting``: the first heap where two codes' values differ."""
    x, y = (np.array(grundy_values(parse(c), heaps)) for c in (a, b))
    diff = np.flatnonzero(x != y)
    return int(diff[0]) if diff.size else None
