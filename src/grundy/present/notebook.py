"""HTML for Jupyter: how the results show themselves in a notebook (``_repr_html_``).

Each is a small table of what the result's one-line ``repr`` says, with a
little more room: a sequence, a settlement, a trajectory, a survey record, a position, the
rare-class analyses and a catalogue.  Long lists (false readings, winning
moves, suppliers) show their first :data:`ROWS` entries; ``to_dict()`` has
them all.
"""

from __future__ import annotations

import html

SHOWN = 60
"""Values shown in a sequence's table."""
ROWS = 12
"""Entries of a long list shown in a table."""


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th style='text-align:left'>{_e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def _grid(heads: list[str], rows: list[list], total: int) -> str:
    """A table with a header row; the first :data:`ROWS` of ``total`` rows, and how many more."""
    head = "".join(f"<th>{_e(h)}</th>" for h in heads)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows[:ROWS])
    more = f"<p>… {total - ROWS:,} more (all of them in <code>to_dict()</code>)</p>" if total > ROWS else ""
    return f"<table><tr>{head}</tr>{body}</table>{more}"


def _n(x, spec: str = ",") -> str:
    return "–" if x is None else format(x, spec)


def sequence_html(seq) -> str:
    """A sequence: its code, depth, largest value, first values and reading."""
    head = " ".join(str(int(v)) for v in seq[:SHOWN])
    more = " …" if seq.depth > SHOWN else ""
    arith = seq.arithmetic_reading()
    rows = [
        ("code", f"<b>{_e(seq.code)}</b> (t = {seq.code.t})"),
        ("heaps", f"{seq.depth:,} (0..{seq.depth - 1:,})"),
        ("largest", f"{seq.max}, first at heap {seq.argmax:,}"),
        ("values", f"<code>{_e(head)}{more}</code>"),
        ("reading", _e(seq._reading_text())),
    ]
    if arith is not None:
        rows.append(("arithmetic", _e(f"{arith} — shown beside the reading, never certified")))
    return _table(rows)


def settlement_html(st) -> str:
    """A settlement: the certificate, or how far the code got, and the sparse statistics."""
    r, s = st.reading, st.stats
    if st.settled:
        verdict = (f"<b>certified</b>: period {r.period:,} from heap {r.start:,} "
                   f"(window {r.window:,}, tight {r.tight_window:,})")
    else:
        seen = f"reading period {r.period:,} from heap {r.start:,}" if r else "no reading"
        verdict = f"<b>not settled</b> within {st.heaps:,} heaps ({_e(seen)})"
    rows = [
        ("code", f"<b>{_e(st.code)}</b> (t = {st.code.t})"),
        ("result", verdict),
        ("heaps", f"{st.heaps:,} in {st.seconds:.2f} s" + (f", {st.reused:,} reused" if st.reused else "")),
        ("largest", str(st.max)),
    ]
    if s is not None:
        last = "none" if s.last_rare is None else f"the last at heap {s.last_rare:,}"
        rows.append(("sparse", _e(f"{s.rare_class.name}: "
                                  f"{s.rare_heaps:,} rare heaps, {last}")))
    return _table(rows)


def trajectory_html(tr) -> str:
    """A trajectory: the final reading and its certificate, the changes, the false readings."""
    f = tr.final
    if tr.certified:
        verdict = (f"<b>certified</b>: period {f.period:,} from heap {f.start:,} at depth "
                   f"{tr.certificate_depth:,} (window {f.window:,})")
    else:
        seen = "no reading" if f is None else f"reading period {f.period:,} from heap {f.start:,}"
        verdict = f"<b>not certified</b> within {tr.heaps:,} heaps ({_e(seen)})"
    rows = [
        ("code", f"<b>{_e(tr.code)}</b> (t = {tr.code.t})"),
        ("readings", _e(("arithmetic, " if tr.arithmetic else "") + ("heap 0 allowed, " if tr.heap0 else "")
                        + f"depths {_n(tr.first_depth)} to {tr.last_depth:,}")),
        ("result", verdict),
        ("right from", _e(_n(tr.right_from))),
        ("changes", _e(f"{tr.changes:,}")),
        ("false readings", _false_readings(tr.false_readings)),
    ]
    return _table(rows)


def _false_readings(frs) -> str:
    """A table of false readings (the kinds in the site's words, :data:`.legend.KIND_CELLS`)."""
    from .legend import KIND_CELLS

    if not frs:
        return "none"
    return _grid(["start", "period", "depths", "held to", "window", "reach", "kind"],
                 [[f"{x.start:,}", f"{x.period:,}", f"{x.first_depth:,}..{x.last_depth:,}",
                   f"{x.held_to:,}", f"{x.window:,}", f"{x.reach:.3f}", KIND_CELLS[x.kind]]
                  for x in frs], len(frs))


def record_html(r) -> str:
    """A survey record: the class, the reading, the largest value, the sparse statistics, the
    false readings."""
    from ..readings.status import STATUS_WORDS

    reading = (f"period {r.period:,} from heap {r.start:,} (window {r.window:,}), right from depth "
               f"{r.right_from:,}" if r.status == "settled" else "none certified")
    rows = [
        ("code", f"<b>{_e(r.code)}</b> (t = {r.t})"),
        ("heaps", f"{r.heaps:,}"),
        ("class", _e(STATUS_WORDS[r.status])),
        ("reading", _e(reading)),
        ("changes", _e(f"{r.changes:,}")),
        ("largest", _e(f"{r.max_value}, first at heap {r.argmax:,}")),
        ("sparse", _e("–" if r.mask is None else f"mask {r.mask}, {r.rare_heaps:,} rare heaps")),
        ("false readings", _false_readings(r.false_readings)),
    ]
    return _table(rows)


def position_html(p) -> str:
    """A position: its value, who wins, where the values come from, the winning moves."""
    moves = _grid(["from heap", "take", "leaving", "position after"],
                  [[f"{m.heap:,}", m.removes, " + ".join(f"{x:,}" for x in m.leaves) or "nothing",
                    " ".join(f"{x:,}" for x in m.after) or "no heaps"] for m in p.winning_moves],
                  len(p.winning_moves))
    rows = [
        ("code", f"<b>{_e(p.code)}</b> (t = {p.code.t})"),
        ("heaps", _e(" ".join(f"{h:,}" for h in p.heaps))),
        ("value", f"<b>{p.value}</b>: the player to move {'wins' if p.winning else 'loses'}"),
        ("values", _e(p.how)),
    ]
    if p.winning:
        rows.append(("winning moves", f"{p.count:,} in all" + (moves if p.winning_moves else "")))
    if p.winning_splits:
        rows.append(("splits by progression", _grid(
            ["from heap", "take", "split the rest", "a", "splits", "parts worth"],
            [[f"{x.heap:,}", x.removes, f"(a, {x.rest:,} − a)",
              f"{x.first:,}, {x.first + x.step:,}, …, {x.last:,}", f"{x.count:,}", f"{x.worth[0]} and {x.worth[1]}"]
             for x in p.winning_splits], len(p.winning_splits))))
    return _table(rows)


def arrivals_html(a) -> str:
    """Arrivals of a class: the rare heaps past the cut-off, their values, gaps and tail period."""
    g = a.gaps
    rows = [
        ("code", f"<b>{_e(a.code)}</b>, {a.heaps:,} heaps"),
        ("class", _e(f"{a.cls.name} ({a.cls.convention})")),
        ("rare", _e(f"{a.rare.size:,} from heap {a.after:,}; the last rare heap {_n(a.last_rare)}")),
        ("values", _e(", ".join(f"{v}: {c:,}" for v, c in a.values.items()) or "none")),
        ("gaps", _e("none" if g.mean is None else
                    f"{g.count:,}; min {g.min:,}, max {g.max:,}, mean {g.mean:,.1f}, sd/mean {g.ratio:.3f} "
                    "(1 memoryless, 0 scheduled)")),
        ("first empty residue", _e(f"modulus {a.first_empty_modulus}")),
        ("tail period", _e(_n(a.tail_period))),
    ]
    return _table(rows)


def counts_html(c) -> str:
    """Move counts and split counts of a value: mean, zero-count heaps, the Poisson comparison."""
    how = "every split enumerated" if c.mask is None else f"rare parts from the parity-1 class of mask {c.mask}"
    tallies = _grid(["", "mean", "zero", "zero, worth v", "zero, worth less", "Poisson zero"],
                    [[label, f"{t.mean:.3f}", f"{t.zero:,}", f"{t.zero_worth_value:,}", f"{t.zero_worth_less:,}",
                      f"{t.poisson_zero:,.1f}"]
                     for label, t in (("move count (every move)", c.moves), ("split count (splits only)", c.splits))],
                    2)
    rows = [
        ("code", f"<b>{_e(c.code)}</b>, value {c.value}"),
        ("heaps", _e(f"{c.lo:,}..{c.hi - 1:,} ({how})")),
        ("counts", tallies),
    ]
    return _table(rows)


def ledger_html(led) -> str:
    """A ledger: the rare heaps that supply a value, the largest first, and the shares of the top ones."""
    rows = [
        ("code", f"<b>{_e(led.code)}</b>, value {led.value}, heaps 1..{led.heaps - 1:,}"),
        ("class", _e(f"parity-1 class of mask {led.mask}")),
        ("shares", _e(", ".join(f"top {k}: {v:.1%}" for k, v in led.shares.items()))),
        ("suppliers", _grid(["heap", "value", "supplies", "sole"],
                            [[f"{x.heap:,}", x.value, f"{x.supplies:,}", f"{x.sole:,}"] for x in led.suppliers],
                            len(led.suppliers))),
    ]
    return _table(rows)


def catalogue_html(cat) -> str:
    """A catalogue: its file, the results by status and depth, and the first codes stored."""
    from ..readings.status import STATUS_WORDS

    counts = dict(cat.db.execute("SELECT status, count(*) FROM results GROUP BY status"))
    depths = [h for (h,) in cat.db.execute("SELECT DISTINCT heaps FROM results ORDER BY heaps")]
    first = list(cat.db.execute("SELECT code, heaps, status, start, period FROM results "
                                f"ORDER BY length(code), code, heaps LIMIT {ROWS}"))
    rows = [
        ("file", f"<code>{_e(cat.path)}</code>" + (" (read-only)" if cat.readonly else "")),
        ("results", _e(f"{sum(counts.values()):,}: " + ("; ".join(
            f"{n:,} {STATUS_WORDS.get(s, s)}" for s, n in sorted(counts.items())) or "none"))),
        ("depths", _e(", ".join(f"{h:,}" for h in depths) or "–")),
        ("codes", _grid(["code", "heaps", "status", "start", "period"],
                        [[c, f"{h:,}", STATUS_WORDS.get(s, s), _n(st), _n(p)] for c, h, s, st, p in first],
                        sum(counts.values()))),
    ]
    return _table(rows)
