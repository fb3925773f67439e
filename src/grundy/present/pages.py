"""The HTML of the site: a page per code, the index of every code, and the tallies.

Pages are built from what the catalogue stored (the result of each code and
its values) and the published tables; nothing here computes a sequence or a
reading.  Python prepares what each page says; the Jinja2 templates in
``templates/`` lay it out, escaping every value they print (autoescape), so
no text from a result or a table can become markup.  The false readings of a
code (hundreds for some) travel once, as compact JSON from which ``site.js``
draws the trajectory and shows the table a page at a time; the period block,
the facts and the colour grid are plain HTML, so the essentials read without
the script.
"""

from __future__ import annotations

import html
import itertools
import json
from functools import cache

import numpy as np
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from .._version import __version__
from ..codes import file_name, game_name, parse, shell_word
from ..readings.status import STATUS_WORDS, STATUSES
from ..readings.trajectory import KINDS
from ..value_classes import RareClass
from . import legend, svg
from .formats import FORMATS, PLAIN_ROW, period_rows
from .literature import MAX_SHIFT, Literature, went_deeper

PUBLISHED_WORDS = {"trivial": "trivial", "solved": "solved", "unsolved": "unsolved", None: "not listed"}
PUBLISHED_MEANINGS = {
    "trivial": "the published tables found its period below 1,000 heaps",
    "solved": "the published tables found its period, past 1,000 heaps",
    "unsolved": "the published tables found no period",
    None: "the published tables list the codes of one to three digits",
}
"""What each published status says (the tables' own classes; see the sources on the tallies page)."""
FIRST_VALUES = 200
"""An unsettled code shows its first values in plain rows (all of them are in the downloads)."""
SETTLE_FACTOR = 10
"""The ``grundy settle`` command an unsettled page suggests goes this many times deeper, where the
literature says nothing better (:func:`push_further`)."""
INDEX_COLUMNS = (
    ("code", "code", "text"),
    ("status", "status", "text"),
    ("start", "start", "num"),
    ("period", "period", "num"),
    ("window", "window", "num"),
    ("max_value", "max value", "num"),
    ("mask", "mask", "text"),
    ("rare_heaps", "rare heaps", "num"),
    ("published", "published", "text"),
    ("class", "same values as", "text"),
    ("false_readings", "false readings", "num"),
)
DEEPER_COLUMNS = (
    ("deepest", "deepest state", "text"),
    ("deepest_heaps", "heaps there", "num"),
)
"""Added to the index where some code was computed further than its survey (a stored settlement)."""


def _fmt(x) -> str:
    """A number as the site writes it: thousands separated, three decimals, yes/no, a dash for none."""
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:,.3f}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def _escape(x) -> Markup:
    return x if isinstance(x, Markup) else Markup(html.escape(str(x), quote=True))


@cache
def templates() -> Environment:
    """The site's templates: every printed value escaped, an undefined name an error.

    Whitespace is the templates' own (``trim_blocks``, ``lstrip_blocks``), and a printed value is
    escaped by :func:`html.escape` (``finalize``: the same characters as autoescape, with the
    entities the hand-written pages used, ``&quot;`` and ``&#x27;``), so that a page is the same
    text, byte for byte, as when it was written by hand; markup (a macro's result, an SVG chart) is
    printed as it is.  ``tojson`` writes compact JSON in the order given (a script reads it; ``<``,
    ``>``, ``&`` and ``'`` are written as escapes).
    """
    env = Environment(loader=PackageLoader("grundy.present", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, finalize=_escape)
    env.filters["n"] = lambda x: f"{x:,}"
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "separators": (",", ":")}
    return env


def _parts():
    """The macros of ``templates/parts.html``, whose results are escaped markup."""
    return templates().get_template("parts.html").module


def _render(name: str, title: str, root: str, source: str, **data) -> str:
    return templates().get_template(name).render(title=title, root=root, source=source,
                                                 version=__version__, **data)


def mask_text(mask: int | None, position: bool = False) -> str | None:
    """A mask as the toolkit writes it: ``15``, ``1+position``."""
    return None if mask is None else RareClass(mask, 0, bool(position)).label


def window_formula(code: str) -> str:
    """The window rule the code's certificate uses: ``3(s + p) + t`` when a move may leave three heaps."""
    return "3(s + p) + t" if parse(code).hexadecimal else "2s + 2p + t"


def _href(code: str, known: set[str], root: str = "") -> str | None:
    """The link to a code's page from a page in ``root``, or None where the site has none."""
    return f"{root}{file_name(code)}.html" if code in known else None


# ---------------------------------------------------------------- one code


def summary(r: dict) -> str:
    """One sentence on where the code stands."""
    if r["status"] == "settled":
        return (f"Period {r['period']:,} from heap {r['start']:,}, certified at depth {r['certificate_depth']:,} "
                f"(the window {window_formula(r['code'])} = {r['window']:,}).")
    what = ("its largest value still rose in the last third of the heaps read (a description at this "
            "depth, not a proof)" if r["status"] == "growing"
            else "no period is certified, and its values stayed bounded over the heaps read (bounded is a "
                 "description at this depth, not a proof: the values may grow further on)")
    return f"Not settled within {r['heaps']:,} heaps: {what}."


def push_further(r: dict, lit: Literature) -> tuple[str, str]:
    """The ``grundy settle`` command an unsettled code's page suggests, and why that depth
    (empty where the depth is the default).

    Where the literature gives a period and start, the depth is the window that certifies it
    (for an equivalent game whose heaps may be counted from another point, from up to
    :data:`~grundy.present.literature.MAX_SHIFT` heaps later); where the tables computed the
    code without finding a period, twice as deep as they went; else :data:`SETTLE_FACTOR`
    times the heaps read.
    """
    from ..readings.periods import window

    code = parse(r["code"])
    deeper, why = r["heaps"] * SETTLE_FACTOR, ""
    if lit.status in ("trivial", "solved") and lit.period is not None and lit.start is not None:
        if lit.game == lit.code or lit.shift is not None:
            start = max(1, lit.start + (lit.shift or 0))
            deeper = window(start, lit.period, code)
            why = f"the published period {lit.period:,} from heap {start:,} is certified at depth {deeper:,}"
        else:
            deeper = window(lit.start + MAX_SHIFT, lit.period, code)
            why = (f"the equivalent game {lit.game} has the published period {lit.period:,} from heap "
                   f"{lit.start:,}; counting its heaps from up to {MAX_SHIFT} later, it is certified by "
                   f"depth {deeper:,}")
    elif lit.status == "unsolved" and lit.depth:
        deeper = max(deeper, 2 * lit.depth)
        why = f"the published tables computed it to {lit.depth:,} heaps without finding a period"
    return f"grundy settle {shell_word(r['code'])} --max-heaps {deeper}", why


def period_rows_of(values, start: int, period: int) -> list[dict]:
    """The compact notation, a row each: ``label`` (the first heap), the ``pad`` that right-aligns a
    short first row, the ``cells`` ``(text, bold)`` (bold: a value before the start that differs
    from the periodic value of its column) and whether it is the period row (``marked``)."""
    head = np.asarray(values[: start + period], dtype=np.int64)
    w = max(len(str(int(v))) for v in head)
    label = len(f"{start:,}")
    return [{"label": f"{first:>{label},}", "pad": " " * ((w + 1) * (period - count)),
             "cells": [(f"{int(head[n]):>{w}}", bool(n < start and head[n] != head[start + (n - start) % period]))
                       for n in range(first, first + count)],
             "marked": first == start}
            for first, count in period_rows(start, period)]


def plain_lines(values, count: int) -> list[str]:
    """The first ``count`` values, ten to a row after the heap of the first."""
    vals = [int(v) for v in values[:count]]
    w = max((len(str(v)) for v in vals), default=1)
    label = len(f"{max(len(vals) - 1, 0):,}")
    return [f"{first:>{label},}  " + " ".join(f"{v:>{w}}" for v in vals[first : first + PLAIN_ROW])
            for first in range(0, len(vals), PLAIN_ROW)]


def _literature(lit: Literature, same: list[str], known: set[str], r: dict) -> list[tuple[str, str]]:
    """The facts the published tables give about the code, and the codes with the same values."""
    m = _parts()
    facts = [("published status", m.published(lit.status or "none", PUBLISHED_WORDS[lit.status],
                                              PUBLISHED_MEANINGS[lit.status]))]
    if lit.game is not None and lit.game != lit.code:
        facts.append(("same game as", m.links([(lit.game, _href(lit.game, known))],
                                              " (in the published lookup table)")))
    if lit.period is not None:
        facts.append(("published period / start", f"{lit.period:,} / {lit.start:,}"
                      + (f" (for {lit.game})" if lit.game != lit.code else "")))
    if lit.mask is not None:
        depth = f", computed to {lit.depth:,} heaps" if lit.depth else ""
        bits, _, pos = lit.mask.partition("+")
        facts.append(("published sparse space",
                      (f"mask {mask_text(int(bits, 16), bool(pos))} ({lit.mask} in hexadecimal), "
                       f"{lit.rare_heaps:,} rare heaps (counting heap 0), the last at {lit.last_rare:,}{depth}")))
    verdict = {True: "agrees", False: "differs", None: "not compared"}[lit.agrees]
    facts.append(("ours against it", m.verdict(verdict, lit.note)))
    if lit.oeis:
        facts.append(("OEIS", m.oeis(lit.oeis, lit.oeis_title)))
    if len(same) > 1:
        others = [c for c in same if c != lit.code]
        label = f"same values to {r['heaps']:,} heaps"
        if same[0] == lit.code:
            facts.append((label, m.links([(c, _href(c, known)) for c in others])))
        else:
            more = f" and {len(others) - 1:,} more (listed there)" if len(others) > 1 else ""
            facts.append((label, m.links([(same[0], _href(same[0], known))], more)))
    return facts


def settlement_text(st: dict) -> str:
    """A stored settlement (:meth:`Catalogue.settlements`) in one sentence: the certificate, or how
    far ``grundy settle`` computed the code and what its rare heaps were doing there."""
    same = ""
    if st.get("shift"):
        same = (f" Its values are {st['same_game_as']}'s moved by {abs(st['shift'])} "
                f"heap{'s' if abs(st['shift']) > 1 else ''}, by the codes' rules ({'; '.join(st['proof'])}).")
    elif st.get("same_game_as"):
        same = (f" It is the same game as {st['same_game_as']} by the codes' rules ({'; '.join(st['proof'])}), "
                f"so it has {st['same_game_as']}'s values.")
    if st["settled"]:
        how = (f"certified by {st['same_game_as']}'s certificate, moved" if st.get("shift") else
               f"certified by grundy settle at {st['heaps']:,} heaps")
        return f"Period {st['period']:,} from heap {st['start']:,}, {how} (window {st['window']:,}).{same}"
    rare = ""
    if st.get("mask") is not None:
        last = "none" if st["last_rare"] is None else f"the last at heap {st['last_rare']:,}"
        rare = (f"; mask {mask_text(st['mask'], st['position'])}: {st['rare_heaps']:,} rare heaps, "
                f"{last}")
    by = f"{st['same_game_as']}'s values, computed by grundy settle," if st.get("shift") else "grundy settle"
    return f"Not settled by {by} within {st['heaps']:,} heaps{rare}; largest value {st['max']:,}.{same}"


def _facts_of(r: dict, sparse: dict | None, lit: Literature, settlement: dict | None = None) -> list:
    settled = r["status"] == "settled"
    m = _parts()
    facts = [
        ("status", m.status(r["status"], STATUS_WORDS.get(r["status"], r["status"]))),
        ("t", r["t"]),
        ("heaps computed", _fmt(r["heaps"])),
        ("largest value", f"{r['max_value']:,}, first at heap {r['argmax']:,}"),
    ]
    if went_deeper(r, settlement):
        facts.append(("deepest state", settlement_text(settlement)))
    if settled:
        facts += [
            ("period / start", f"{r['period']:,} / {r['start']:,}"),
            (f"window {window_formula(r['code'])}", _fmt(r["window"])),
            ("right from depth", _fmt(r["right_from"])),
            ("reading changes", _fmt(r["changes"])),
            ("repetitions needed", _fmt(r["repetitions_needed"])),
        ]
    if sparse is not None and sparse.get("mask") is not None:
        last = "none" if sparse["last_rare"] is None else f"the last at heap {sparse['last_rare']:,}"
        facts.append(("sparse space", (f"mask {mask_text(sparse['mask'], sparse['position'])}: "
                                       f"{sparse['rare_heaps']:,} rare heaps below {r['heaps']:,}, {last}")))
    if r.get("arithmetic"):
        a = r["arithmetic"]
        facts.append(("arithmetic reading (never certified)",
                      f"period {a['period']} from heap {a['start']}, saltus {a['saltus']}, window {a['window']}"))
    if not settled and not (settlement is not None and settlement["settled"]):
        reached = r if settlement is None else {**r, "heaps": max(r["heaps"], settlement["heaps"])}
        facts.append(("push further", m.command(*push_further(reached, lit))))
    return facts


def readings_script(r: dict) -> str:
    """The false readings as a script for ``site.js``: one flat list, five numbers a reading,
    ``start - previous start, period, first depth - start, last depth - first depth, held to - last depth``
    (the window ``r(s + p) + t`` follows from the code), so that hundreds of readings stay small;
    then, for a settled code, the kind of each reading (an index into :data:`grundy.readings.trajectory.KINDS`,
    so that the script need not know the rule).  Integers only: nothing in it needs escaping."""
    flat, prev = [], 0
    for fr in r["false_readings"]:
        flat += [fr["start"] - prev, fr["period"], fr["first_depth"] - fr["start"],
                 fr["last_depth"] - fr["first_depth"], fr["held_to"] - fr["last_depth"]]
        prev = fr["start"]
    text = f"var grundyReadings={json.dumps(flat, separators=(',', ':'))};\n"
    if r["status"] == "settled":
        kinds = [KINDS.index(fr["kind"]) for fr in r["false_readings"]]
        text += f"var grundyKinds={json.dumps(kinds, separators=(',', ':'))};\n"
    return text


def _trajectory(r: dict, readings_file: str | None) -> dict:
    """What the figure ``site.js`` draws is drawn from: the code's readings (``readings_file``, shared
    by codes with the same values and windows, or ``script`` in the page), the period read at each
    depth, and a row per false reading, up to the certificate depth (or the heaps computed)."""
    settled = r["status"] == "settled"
    end = r["certificate_depth"] if settled else r["heaps"]
    attrs = {"end": end, "start": r["start"] if settled else "", "period": r["period"] if settled else "",
             "right-from": r["right_from"] if settled else "", "t": r["t"],
             "parts": 3 if parse(r["code"]).hexadecimal else 2}
    caption = ("The period read at each depth to " + (f"the certificate depth {end:,} (final reading black)"
                                                        if settled else f"the {end:,} heaps computed")
               + "; a row per " + ("false reading" if settled else "reading")
               + ": start to held to (thin), depths reporting it (thick), window (tick).")
    script = Markup(readings_script(r)) if r["false_readings"] and not readings_file else None
    return {"data": list(attrs.items()), "caption": caption, "file": readings_file, "script": script}


def _downloads(r: dict, values, values_file: str | None) -> dict:
    """What ``site.js`` builds the download files from."""
    data = {"code": r["code"], "heaps": r["heaps"]}
    if r["status"] == "settled":
        data.update(start=r["start"], period=r["period"], window=r["window"],
                    head=[int(v) for v in values[: r["start"] + r["period"]]])
    else:
        data.update(file=values_file, sha=r["values_sha256"][:16])
    return data


def code_page(result: dict, values, *, literature: Literature, grid: tuple[str, int, int | None],
              sparse: dict | None = None, same: list[str] = (), known: set[str] = frozenset(),
              values_file: str | None = None, readings_file: str | None = None,
              source: str = "the catalogue", settlement: dict | None = None) -> str:
    """The HTML page of one code.

    ``grid`` is ``(png file, row width, heaps shown)`` of its colour grid;
    ``same`` the codes with the same values (the first is listed with all of them, the others link
    to it); ``known`` every code the
    site has a page for (links go only there); ``values_file`` the script
    holding the values of an unsettled code for the downloads; ``readings_file`` the script holding
    its false readings (None: they are written in the page); ``settlement`` the code's deepest
    stored settlement, shown where it went deeper than the survey.
    """
    r = result
    name = r["code"]
    settled = r["status"] == "settled"
    png, width, shown = grid
    known_as = game_name(parse(name))
    count = min(FIRST_VALUES, len(values))
    rows = (f"rows of {width:,} ({'the period' if width == r['period'] else 'a multiple of the period'})"
            if settled else f"rows of {width:,}")
    return _render(
        "code.html", f"{name}: grundy report", "../", source, r=r, settled=settled,
        heading=f"{name}: {known_as}" if known_as else name, summary=summary(r),
        own=_facts_of(r, sparse, literature, settlement), literature=_literature(literature, list(same), known, r),
        block=period_rows_of(values, r["start"], r["period"]) if settled else plain_lines(values, count),
        count=count, plain_row=PLAIN_ROW,
        grid={"file": png, "pixels": width * max(1, min(8, 720 // width)), "shown": shown, "rows": rows},
        trajectory=_trajectory(r, readings_file), readings=len(r["false_readings"]),
        formats=FORMATS, word=shell_word(name), downloads=_downloads(r, values, values_file),
    )


# ---------------------------------------------------------------- the index


def index_row(r: dict, extra: dict) -> dict:
    """One row of the index, as plain as it can be (4,095 of them): numbers as the script sorts them,
    the status coloured by the style sheet from the row's ``data-status``."""
    return {"code": r["code"], "slug": file_name(r["code"]), "status": r["status"],
            "status_word": STATUS_WORDS[r["status"]], "start": r["start"], "period": r["period"],
            "window": r["window"], "max_value": r["max_value"], "mask": extra.get("mask") or "",
            "rare_heaps": extra.get("rare_heaps"), "published": PUBLISHED_WORDS[extra.get("published")],
            "same": extra.get("class") or "",
            "false_readings": len(r["false_readings"]) if r["status"] == "settled" else None,
            "deepest": extra.get("deepest") or "", "deepest_heaps": extra.get("deepest_heaps")}


def deepest_cell(r: dict, settlement: dict | None) -> dict:
    """The index's view of a code's stored settlement where it went deeper than the survey: its
    certificate (or "open"), and the heaps it reached."""
    if not went_deeper(r, settlement):
        return {"deepest": None, "deepest_heaps": None}
    text = (f"period {settlement['period']:,} from {settlement['start']:,}" if settlement["settled"]
            else "open")
    return {"deepest": text, "deepest_heaps": settlement["heaps"]}


def _statuses() -> list[tuple[str, str]]:
    return [(s, STATUS_WORDS[s]) for s in STATUSES]


def index_page(results: list[dict], extras: dict[str, dict], t: dict, source: str) -> str:
    """The index: the summary cards (each filters the table), then one sortable row per code."""
    depth = ", ".join(f"{h:,}" for h in sorted({r["heaps"] for r in results})) or "–"
    deeper = [e for e in extras.values() if e.get("deepest_heaps")]
    settled_deeper = sum(e["deepest"] != "open" for e in deeper)
    return _render("index.html", "grundy report: octal games", "", source, t=t, depth=depth,
                   deeper=len(deeper), settled_deeper=settled_deeper,
                   statuses=_statuses(), columns=INDEX_COLUMNS + (DEEPER_COLUMNS if deeper else ()),
                   rows=[index_row(r, extras.get(r["code"], {})) for r in results])


# ---------------------------------------------------------------- the tallies

TALLY_ROWS = (
    ("settled codes right from the first reading", "right_first"),
    ("  of those periodic from heap 1", ("periodic_from_1_right_first", "periodic_from_1")),
    ("  of those periodic later", ("periodic_later_right_first", "periodic_later")),
    ("one change", "changes_once"),
    ("5 to 100 changes", "changes_5_to_100"),
    ("over 150 changes", "changes_over_150"),
    ("false readings", "false_readings"),
    ("  started before the final start", "false_before_start"),
    ("  reached their window (must be 0)", "reached_window"),
    ("  median reach", "median_reach"),
    ("  largest reach", "max_reach"),
    ("distinct sequences among growing codes", "distinct_sequences_growing"),
)
CHANGE_BINS = ((0, 0), (1, 1), (2, 2), (3, 4), (5, 9), (10, 19), (20, 49), (50, 99), (100, 150), (151, None))
"""Ranges of the number of reading changes per code, matching the tallies (5–100, over 150)."""


def _tally_value(t: dict, key) -> str:
    if isinstance(key, tuple):
        return f"{_fmt(t[key[0]])} of {_fmt(t[key[1]])}"
    return _fmt(t[key])


def _spread(d: dict) -> str:
    return " / ".join(_fmt(d[k]) for k in ("min", "median", "max"))


def tally_figures(results: list[dict], t: dict) -> list[tuple[str, str]]:
    """The reading-study figures (SVG text, caption), over settled codes only."""
    settled = [r for r in results if r["status"] == "settled"]
    changes = [r["changes"] for r in settled]
    labels = [str(lo) if lo == hi else (f"> {lo - 1}" if hi is None else f"{lo}–{hi}") for lo, hi in CHANGE_BINS]
    counts = [sum(lo <= c and (hi is None or c <= hi) for c in changes) for lo, hi in CHANGE_BINS]
    false = [fr for r in settled for fr in r["false_readings"]]
    edges = [i / 10 for i in range(11)]
    reach_labels = [f"{a:.1f}–{b:.1f}" for a, b in itertools.pairwise(edges)]

    def binned(xs):
        return [sum(a <= x < b or (b == 1.0 and x == 1.0) for x in xs) for a, b in itertools.pairwise(edges)]

    series = [("period 1", "#afb8c1", binned([fr["reach"] for fr in false if fr["period"] == 1]))]
    series += [(legend.KIND_WORDS[k], legend.KIND_COLOURS[k],
                binned([fr["reach"] for fr in false if fr["period"] > 1 and fr["kind"] == k])) for k in KINDS]
    needed = [r["repetitions_needed"] for r in settled]
    rep_bins = [(2, 2.5), (2.5, 3), (3, 4), (4, 6), (6, 10), (10, None)]
    rep_labels = [f"{a:g}–{b:g}" if b else f"≥ {a:g}" for a, b in rep_bins]
    rep_counts = [sum(a <= x and (b is None or x < b) for x in needed) for a, b in rep_bins]
    believed = sorted(t["believed"], key=int)
    return [
        (svg.bars(labels, [("codes", "#0969da", counts)], title="Reading changes per settled code",
                  xlabel="reading changes before the certificate", ylabel="settled codes"),
         f"How many times each of the {len(settled):,} settled codes changed its reading before it was certified."),
        (svg.bars(reach_labels, series, title="How far the false readings got",
                  xlabel="reach = held to / window (1 would be a certificate)", ylabel="false readings"),
         ("Each false reading of a settled code by how far it got towards its window; period 1 apart, the longer "
         "ones by kind.")),
        (svg.bars(rep_labels, [("codes", "#0969da", rep_counts)], title="Repetitions the certificate needs",
                  xlabel="(W* − s*) / p*", ylabel="settled codes"),
         "The repetitions of its period each certified reading needed before its window closed."),
        (svg.bars([str(r) for r in believed], [("false readings", "#ff7f0e", [t["believed"][r] for r in believed])],
                  title="False readings a stricter reader still believes", xlabel="repetitions r asked for",
                  ylabel="false readings"),
         "How many false readings a reader asking for r full repetitions would still have believed."),
    ]


def tallies_page(results: list[dict], t: dict, known: set[str], source: str) -> str:
    """The tallies of the survey and the figures of the reading study."""
    rows = [(label, _tally_value(t, key)) for label, key in TALLY_ROWS]
    rows += [
        ("repetitions needed (min / median / max)", _spread(t["repetitions_needed"])),
        ("certificate depth − right from (min / median / max)", _spread(t["right_to_window_gap"])),
        ("false readings by period", ", ".join(f"{p}: {n}" for p, n in t["false_by_period"].items()) or "–"),
        ("kinds (period > 1)", ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in t["kinds"].items())),
        ("still believed by r repetitions", ", ".join(f"r = {r}: {n}" for r, n in t["believed"].items())),
    ]
    return _render(
        "tallies.html", "grundy report: tallies", "", source, t=t, statuses=_statuses(),
        rows=[(label.strip(), value, label.startswith(" ")) for label, value in rows],
        convincing=[{**fr, "href": _href(fr["code"], known, "codes/")} for fr in t["most_convincing"]],
        heap0=[{**h, "href": _href(h["code"], known, "codes/")} for h in t["heap0"]],
        figures=tally_figures(results, t),
    )
