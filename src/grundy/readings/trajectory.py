"""The trajectory of readings of a code, depth by depth (docs/readings.md).

The reading at every depth comes from the **runs** of the sequence (maximal
stretches ``[i, j]`` with smallest period ``p`` and length ``>= 2p``): the
suffix ``G(s..d-1)`` repeats with period ``p`` and ``d - s >= 2p`` exactly
when a run of period ``p`` from ``s`` covers it, so the reading at depth ``d``
is the earliest-starting, then shortest-period, run that contains heap
``d - 1`` and shows two periods by then.  A run's start does not depend on
later values, so the runs of the whole sequence give every depth at once:
about ``N log N`` work for ``N`` heaps instead of a rescan per depth.

Runs are found period by period, testing ``G(y) = G(y + p)`` only at every
``p``-th position (a stretch of ``p`` agreements contains one) and following
agreements both ways from there.  A run of period ``q`` also agrees with
period ``kq`` over exactly the same stretch; it is recorded once, under
``q``, and skipped when ``kq`` comes, so a long periodic tail is walked once.

The **arithmetic** reading (docs/arithmetic.md, saltus ``S > 0``) is found the same
way on the differences ``D_p(i) = G(i + p) - G(i)``: a run is a maximal
stretch ``[i, j]`` on which ``D_p`` is constant over ``i..j-p``, with
``j - i + 1 >= 2p``.  Every sample of ``D_p`` starts a stretch, only the
stretches with ``S > 0`` are read, and a multiple ``kp`` of a run's period
has ``D_{kp}`` constant (``kS``) over the same heaps and breaking at the same
ends, so the skipping of multiples carries over unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..codes import Code, parse
from ..engine._jit import kernel
from ..errors import CertificateError
from .periods import Reading, as_values, held_to, tight_window, window

KINDS = ("right_period_wrong_start", "dividing", "unrelated")
REPETITIONS = range(2, 7)
"""The stricter readers of docs/readings.md: ``r`` full repetitions for ``r = 2..6``."""


@dataclass(frozen=True)
class FalseReading:
    """A maximal run of depths ``first_depth..last_depth`` reading a non-final ``(start, period)``.

    ``held_to`` is ``i + period`` for the first heap ``i >= start`` that
    breaks the period (the number of values known if none does);
    ``reach = held_to / window`` is how far it got towards a certificate.
    ``kind`` compares it with the final reading; ``before_start`` says it
    started before the final start.  ``saltus`` is 0 for a pure reading and
    ``G(start + period) - G(start) > 0`` for an arithmetic one (docs/arithmetic.md).
    """

    start: int
    period: int
    first_depth: int
    last_depth: int
    held_to: int
    window: int
    kind: str
    before_start: bool
    saltus: int = 0

    @property
    def reach(self) -> float:
        """How far it got: ``held_to / window`` (1 or more would be a certificate)."""
        return self.held_to / self.window

    def believed_by(self, r: int) -> bool:
        """Whether a reader asking for ``r`` full repetitions believed it at its last depth."""
        return self.last_depth - self.start >= r * self.period

    def to_dict(self) -> dict:
        """The JSON form (the names of docs/readings.md; ``saltus`` only for an arithmetic reading)."""
        out = {
            "start": self.start,
            "period": self.period,
            "first_depth": self.first_depth,
            "last_depth": self.last_depth,
            "held_to": self.held_to,
            "window": self.window,
            "reach": self.reach,
            "kind": self.kind,
            "before_start": self.before_start,
        }
        if self.saltus:
            out["saltus"] = self.saltus
        return out


@dataclass(repr=False)
class Trajectory:
    """The readings of ``code`` from the first depth that has one to ``last_depth``.

    ``last_depth`` is the final window ``W*`` when the final reading is
    certified, else the number of heaps known: then ``final`` is the reading
    at that depth (or None), certified is False, and ``false_readings`` are
    the readings seen so far that differ from it.  With ``heap0`` the readings
    may start at heap 0; the truth they are scored against is the certified
    default reading, written from heap 0 when heap 0 belongs to it, the
    trajectory still ends at the default certificate depth, and false
    readings that reach their windows are reported (:attr:`reaching`), not
    raised.  ``starts`` and ``periods`` hold the reading at every depth
    ``0..heaps`` (-1 where there is none).

    With ``arithmetic`` the readings are arithmetic ones (saltus > 0,
    docs/arithmetic.md) over the same depths, scored against the pure truth: ``final`` and
    the certificate stay the pure ones, every arithmetic reading is a false
    reading (no theorem certifies one of an octal code), ``right_from`` is
    None, and readings that hold to their (pure) windows are reported in
    :attr:`reaching`, not raised.
    """

    code: Code
    heaps: int
    heap0: bool
    final: Reading | None
    certified: bool
    certificate_depth: int | None
    right_from: int | None
    changes: int
    false_readings: list[FalseReading]
    first_depth: int | None
    last_depth: int
    starts: np.ndarray = field(repr=False)
    periods: np.ndarray = field(repr=False)
    arithmetic: bool = False

    @property
    def repetitions_needed(self) -> float | None:
        """``(W* - s*) / p*``: the repetitions a certified reading needs."""
        if not self.certified:
            return None
        return (self.certificate_depth - self.final.start) / self.final.period

    @property
    def believed(self) -> dict[int, int]:
        """How many false readings a reader asking for ``r`` repetitions believes, ``r = 2..6``."""
        return {r: sum(f.believed_by(r) for f in self.false_readings) for r in REPETITIONS}

    @property
    def reaching(self) -> list[FalseReading]:
        """The false readings that held to their windows (only ever non-empty with ``heap0`` or
        ``arithmetic``)."""
        return [f for f in self.false_readings if f.held_to >= f.window]

    def __repr__(self) -> str:
        kind = "arithmetic readings" if self.arithmetic else "readings"
        first = "none" if self.first_depth is None else f"{self.first_depth:,}"
        if self.certified:
            f = self.final
            state = (f"certified period {f.period:,} from heap {f.start:,} at depth {self.certificate_depth:,}"
                     + ("" if self.right_from is None else f", right from depth {self.right_from:,}"))
        else:
            state = f"not certified within {self.heaps:,} heaps (" + (
                "no reading" if self.final is None else f"reading period {self.final.period:,} from heap "
                f"{self.final.start:,}") + ")"
        return (f"<Trajectory {self.code}, {kind} from depth {first} to {self.last_depth:,}: {state}; "
                f"{self.changes:,} changes, {len(self.false_readings):,} false readings>")

    def _repr_html_(self) -> str:
        from ..present.notebook import trajectory_html

        return trajectory_html(self)

    def to_dict(self) -> dict:
        """The ``grundy readings --json`` object."""
        f = self.final
        return {
            "code": str(self.code),
            "t": self.code.t,
            "heaps": self.heaps,
            "final": f and {"start": f.start, "period": f.period, "window": f.window},
            "certified": self.certified,
            "certificate_depth": self.certificate_depth,
            "right_from": self.right_from,
            "changes": self.changes,
            "repetitions_needed": self.repetitions_needed,
            "false_readings": [f.to_dict() for f in self.false_readings],
        }


def readings(
    values, *, heap0: bool = False, arithmetic: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The reading at every depth ``0..N``: arrays ``starts`` and ``periods`` (-1 where none).

    With ``arithmetic`` the arithmetic readings (saltus > 0, docs/arithmetic.md).
    """
    g = as_values(values)
    lo = 0 if heap0 else 1
    starts = np.full(g.size + 1, -1, dtype=np.int64)
    periods = np.full(g.size + 1, -1, dtype=np.int64)
    if g.size > lo:
        s, p = _readings(g[lo:], arithmetic)
        found = s >= 0
        starts[lo + 1 :][found] = s[found] + lo
        periods[lo + 1 :][found] = p[found]
    return starts, periods


def trajectory(
    values, code: Code | str, *, heap0: bool = False, arithmetic: bool = False
) -> Trajectory:
    """The trajectory of ``code`` read on ``values`` (``G(0..N-1)``), docs/readings.md.

    Raises :class:`CertificateError` when the values contradict the Guy–Smith
    theorem (a bug, or values of another code): a certified reading that a
    later value breaks, or a false reading that held to its window.  With
    ``heap0`` false readings that reach their windows are expected and are
    reported instead; so are arithmetic ones with ``arithmetic`` (no theorem
    certifies them, see :class:`Trajectory`).
    """
    code = parse(code)
    g = as_values(values)
    return _trajectory(g, code, readings(g), heap0, arithmetic)


def trajectories(values, code: Code | str) -> tuple[Trajectory, Trajectory]:
    """``trajectory(values, code)`` and ``trajectory(values, code, heap0=True)`` from two passes
    over the values where the two calls make three: the heap-0 trajectory's truth is the default
    reading, read once for both."""
    code = parse(code)
    g = as_values(values)
    default = readings(g)
    return _trajectory(g, code, default, False, False), _trajectory(g, code, default, True, False)


def _trajectory(g, code: Code, default, heap0: bool, arithmetic: bool) -> Trajectory:
    """:func:`trajectory` of the values ``g`` given their ``default`` readings (``starts, periods``)."""
    starts, periods = default
    truth = _final_depth(starts, periods, code)
    if truth is not None:
        s, p = int(starts[truth]), int(periods[truth])
        if held_to(g, s, p) < g.size:
            raise CertificateError(
                f"{code}: the certified period {p} from heap {s} breaks at depth "
                f"{held_to(g, s, p)}; this contradicts the Guy–Smith theorem "
                f"(values of another code, or a bug)"
            )
    if heap0:
        starts, periods = readings(g, heap0=True)
    last = g.size if truth is None else truth
    final = None
    if periods[last] >= 0:
        s, p = int(starts[last]), int(periods[last])
        final = Reading(s, p, 0, window(s, p, code), tight_window(s, p, code), truth is not None)
    if arithmetic:
        starts, periods = readings(g, heap0=heap0, arithmetic=True)
    has = np.flatnonzero(periods[: last + 1] >= 0)
    first = int(has[0]) if has.size else None
    false = _false_readings(g, starts, periods, has, final, code, arithmetic)
    if not (heap0 or arithmetic):
        for f in false:
            if f.held_to >= f.window:
                raise CertificateError(
                    f"{code}: false reading period {f.period} from heap {f.start} held to depth "
                    f"{f.held_to}, its window {f.window}; this contradicts the Guy–Smith theorem "
                    f"(values of another code, or a bug)"
                )
    return Trajectory(
        code=code,
        heaps=int(g.size),
        heap0=heap0,
        final=final,
        certified=truth is not None,
        certificate_depth=truth,
        right_from=None if truth is None or arithmetic else _right_from(starts, periods, has, last),
        changes=_changes(starts, periods, has),
        false_readings=false,
        first_depth=first,
        last_depth=last,
        starts=starts,
        periods=periods,
        arithmetic=arithmetic,
    )


def _final_depth(starts, periods, code) -> int | None:
    """The first depth whose (default) reading is certified; it is always that reading's window."""
    depths = np.arange(starts.size)
    ok = (periods >= 0) & (starts >= 1)
    w = window(starts, periods, code)
    hit = np.flatnonzero(ok & (depths >= w))
    if not hit.size:
        return None
    d = int(hit[0])
    if d != w[d]:
        raise CertificateError(
            f"{code}: a reading is first certified at depth {d}, past its window {w[d]}; this "
            f"contradicts the Guy–Smith theorem (values of another code, or a bug)"
        )
    return d


def _changes(starts, periods, has) -> int:
    """Depths whose reading differs from the last earlier reading (depths with none are skipped)."""
    s, p = starts[has], periods[has]
    return int(np.count_nonzero((s[1:] != s[:-1]) | (p[1:] != p[:-1])))


def _right_from(starts, periods, has, last) -> int:
    """The first depth from which every depth up to ``last`` reads the final reading."""
    s, p = starts[last], periods[last]
    depths = np.arange(has[0], last + 1)
    wrong = np.flatnonzero((starts[depths] != s) | (periods[depths] != p))
    return int(depths[wrong[-1]] + 1) if wrong.size else int(has[0])


def _false_readings(g, starts, periods, has, final, code, arithmetic) -> list[FalseReading]:
    """Every maximal run of consecutive depths reading the same ``(s, p)`` other than ``final``
    (every one, when the readings are ``arithmetic``)."""
    if not has.size:
        return []
    s, p = starts[has], periods[has]
    cut = (np.diff(has) != 1) | (s[1:] != s[:-1]) | (p[1:] != p[:-1])
    begins = np.concatenate(([0], np.flatnonzero(cut) + 1))
    ends = np.concatenate((begins[1:] - 1, [has.size - 1]))
    out = []
    for b, e in zip(begins.tolist(), ends.tolist(), strict=True):
        rs, rp = int(s[b]), int(p[b])
        if not arithmetic and final is not None and (rs, rp) == (final.start, final.period):
            continue
        saltus = int(g[rs + rp] - g[rs]) if arithmetic else 0
        out.append(
            FalseReading(
                start=rs,
                period=rp,
                first_depth=int(has[b]),
                last_depth=int(has[e]),
                held_to=held_to(g, rs, rp, saltus),
                window=window(rs, rp, code),
                kind=_kind(rp, final),
                before_start=final is not None and rs < final.start,
                saltus=saltus,
            )
        )
    return out


def _kind(period: int, final: Reading | None) -> str:
    """Right period (wrong start), a period dividing the final one, or unrelated."""
    if final is not None and period == final.period:
        return KINDS[0]
    if final is not None and final.period % period == 0:
        return KINDS[1]
    return KINDS[2]


@kernel
def _find(nxt, e):
    """The first unpainted end ``>= e`` (union-find with path halving)."""
    while nxt[e] != e:
        nxt[e] = nxt[nxt[e]]
        e = nxt[e]
    return e


@kernel
def _runs(x, arithmetic, run_i, run_j, run_p, run_s, head, reg_next, reg_i, reg_j, known_i, known_j):
    """Every run of ``x`` into ``run_i, run_j, run_p, run_s``: each a maximal ``[i, j]`` of
    smallest period ``p`` and length ``j - i + 1 >= 2p`` (``x[k + p] - x[k]`` constant, the
    saltus, for ``i <= k <= j - p``; 0 unless ``arithmetic``).  Returns how many, or -1 when
    the arrays are too short (:func:`_readings` grows them and calls again).

    Lean: every array is the caller's (``head`` of ``len(x) // 2 + 1``; the registry
    ``reg_*`` and ``known_*`` of one size), so nothing is counted in the loops (the growable
    arrays this used to rebind cost half its time in reference counts).
    """
    n = x.size
    half = n // 2
    for q in range(half + 1):
        head[q] = -1
    nruns = 0
    nreg = 0
    for p in range(1, half + 1):
        m = 0  # the runs registered at p (a multiple of their period), by start: insertion
        k = head[p]
        while k >= 0:
            c = m
            while c > 0 and known_i[c - 1] > reg_i[k]:
                known_i[c] = known_i[c - 1]
                known_j[c] = known_j[c - 1]
                c -= 1
            known_i[c] = reg_i[k]
            known_j[c] = reg_j[k]
            m += 1
            k = reg_next[k]
        ptr = 0
        last_y = n - 1 - p
        prev_end = -1
        y = p - 1
        while y <= last_y:
            while ptr < m and known_j[ptr] - p < y:
                ptr += 1
            if ptr < m and known_i[ptr] <= y:
                prev_end = known_j[ptr] - p
            elif arithmetic or x[y] == x[y + p]:
                d = x[y + p] - x[y]
                a = y
                while a - 1 > prev_end and x[a - 1 + p] - x[a - 1] == d:
                    a -= 1
                b = y
                while b + 1 <= last_y and x[b + 1 + p] - x[b + 1] == d:
                    b += 1
                prev_end = b
                if b - a + 1 >= p:
                    if nruns == run_i.size:
                        return -1
                    run_i[nruns] = a
                    run_j[nruns] = b + p
                    run_p[nruns] = p
                    run_s[nruns] = d
                    nruns += 1
                    length = b + p - a + 1
                    q = 2 * p
                    while 2 * q <= length:
                        if nreg == reg_i.size:
                            return -1
                        reg_i[nreg] = a
                        reg_j[nreg] = b + p
                        reg_next[nreg] = head[q]
                        head[q] = nreg
                        nreg += 1
                        q += p
            else:
                y += p
                continue
            y = prev_end + 1
            y += (p - 1 - y % p) % p
    return nruns


@kernel(native="UniTuple(i8[::1], 2)(R, b1)", values=("i8",), allocates=True)
def _readings(x, arithmetic):
    """The reading at every end ``e`` of ``x``: arrays ``start, period`` (-1 where none).

    The runs (with saltus > 0 when ``arithmetic``) are taken in order of
    start, then period, and each paints the ends it covers that no earlier
    one painted (the ends ``i + 2p - 1 .. j``; ``i + 3p - 1 .. j`` for an
    arithmetic run, which must show three periods).
    """
    n = x.size
    cap = n + 16
    while True:
        runs = np.empty((4, cap), np.int64)
        registry = np.empty((5, 2 * cap), np.int64)
        run_i, run_j, run_p, run_s = runs[0], runs[1], runs[2], runs[3]
        head = np.empty(n // 2 + 1, np.int64)
        nruns = _runs(
            x, arithmetic, run_i, run_j, run_p, run_s, head,
            registry[0], registry[1], registry[2], registry[3], registry[4],
        )  # fmt: skip
        if nruns >= 0:
            break
        cap *= 2
    run_i, run_j, run_p, run_s = run_i[:nruns], run_j[:nruns], run_p[:nruns], run_s[:nruns]
    if arithmetic:
        up = run_s > 0
        run_i, run_j, run_p = run_i[up], run_j[up], run_p[up]
    order = np.argsort(run_i * (n + 1) + run_p)
    start = np.full(n, -1, np.int64)
    period = np.full(n, -1, np.int64)
    nxt = np.arange(n + 1)
    reps = 3 if arithmetic else 2
    for c in order:
        i, j, p = run_i[c], run_j[c], run_p[c]
        e = _find(nxt, min(i + reps * p - 1, n))
        while e <= j:
            start[e] = i
            period[e] = p
            nxt[e] = e + 1
            e = _find(nxt, e + 1)
    return start, period
