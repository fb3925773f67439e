"""HTML for Jupyter: how a Sequence and a Settlement show themselves (``_repr_html_``)."""

from __future__ import annotations

import html

SHOWN = 60
"""Values shown in a sequence's table."""


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _table(rows: list[tuple[str, str]]) -> str:
    body = "".join(f"<tr><th style='text-align:left'>{_e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table>{body}</table>"


def sequence_html(seq) -> str:
    """A sequence: its code, depth, largest value, first values and reading."""
    head = " ".join(str(int(v)) for v in seq.values[:SHOWN])
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
