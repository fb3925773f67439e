"""Values written out for people and programs: ``text``, ``csv``, ``bfile`` and ``json``.

``text`` is the compact notation of the published octal-game tables for a
code with a certified period: the values in rows as wide as the period,
aligned so that each column holds one residue modulo the period and the last
row is the period itself (marked), which repeats for ever; any other
sequence is written in plain rows of ten.  ``bfile`` is the ``n G(n)``
layout of OEIS b-files.  The site's download buttons write the same formats
in the browser (``present/assets/site.js``); the browser test compares them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

FORMATS = ("text", "csv", "bfile", "json")
PLAIN_ROW = 10


def period_rows(start: int, period: int) -> list[tuple[int, int]]:
    """The rows ``(first heap, count)`` of the compact notation of a period ``period`` from ``start``.

    Rows end where ``start + k·period`` does, so the last row is exactly the
    period (heaps ``start..start+period-1``); a first row shorter than the
    period is right-aligned (its columns are the last residues).
    """
    first = start % period
    rows = [(0, first)] if first else []
    rows += [(h, period) for h in range(first, start + 1, period)]
    return rows


def _width(values) -> int:
    return max((len(str(int(v))) for v in values), default=1)


def compact(code: str, values: Sequence[int], start: int, period: int, window: int) -> str:
    """The compact notation of a certified period (``values`` must reach heap ``start + period - 1``)."""
    head = [int(v) for v in values[: start + period]]
    w = _width(head)
    label = len(f"{start:,}")
    lines = [
        f"# {code}: period {period:,} from heap {start:,}, certified (window {window:,})",
        f"# values G(n) in rows of {period:,}; the row marked * is the period, repeated for ever",
    ]
    for first, count in period_rows(start, period):
        pad = " " * ((w + 1) * (period - count))
        cells = " ".join(f"{v:>{w}}" for v in head[first : first + count])
        mark = "*" if first == start else " "
        lines.append(f"{first:>{label},} {mark} {pad}{cells}")
    return "\n".join(lines) + "\n"


def plain(code: str, values: Sequence[int]) -> str:
    """Every value, ten to a row after the heap of the first."""
    vals = [int(v) for v in values]
    w = _width(vals)
    label = len(f"{max(len(vals) - 1, 0):,}")
    lines = [f"# {code}: G(n) for n = 0 to {len(vals) - 1:,}, {PLAIN_ROW} to a row"]
    for first in range(0, len(vals), PLAIN_ROW):
        cells = " ".join(f"{v:>{w}}" for v in vals[first : first + PLAIN_ROW])
        lines.append(f"{first:>{label},}  {cells}")
    return "\n".join(lines) + "\n"


def render(fmt: str, code: str, values: Sequence[int], *, start: int | None = None,
           period: int | None = None, window: int | None = None) -> str:
    """``values`` (``G(0..N-1)``) of ``code`` in format ``fmt`` (one of :data:`FORMATS`).

    ``start``, ``period`` and ``window`` describe a certified period, if the
    values have one: ``text`` then writes the compact notation and ``json``
    carries them.
    """
    vals = [int(v) for v in values]
    if fmt == "text":
        if period is not None:
            return compact(code, vals, start, period, window)
        return plain(code, vals)
    if fmt == "csv":
        return "n,G(n)\n" + "".join(f"{n},{v}\n" for n, v in enumerate(vals))
    if fmt == "bfile":
        return "".join(f"{n} {v}\n" for n, v in enumerate(vals))
    if fmt == "json":
        obj = {"code": code, "heaps": len(vals), "start": start, "period": period, "window": window,
               "values": vals}
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
    raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")


def export(code, values, fmt: str) -> str:
    """``values`` of ``code`` in ``fmt``, with the compact notation when they certify a period.

    The period is the reading at the full depth (``grundy.readings.periods.reading``),
    used only when its window is within the values.
    """
    from ..codes import parse
    from ..readings.periods import reading

    code = parse(code)
    r = reading(values, code)
    if r is not None and r.certified:
        return render(fmt, str(code), values, start=r.start, period=r.period, window=r.window)
    return render(fmt, str(code), values)
