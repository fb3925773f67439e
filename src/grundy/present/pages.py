"""The HTML of the site: a page per code, the index of every code, and the tallies.

Pages are built from what the catalogue stored (the result of each code and
its values) and the published tables; nothing here computes a sequence or a
reading.  The false readings of a code (hundreds for some) travel once, as
compact JSON from which ``site.js`` draws the trajectory and shows the table
a page at a time; the period block, the facts and the colour grid are plain
HTML, so the essentials read without the script.
"""

from __future__ import annotations

import html
import itertools
import json
from importlib import resources
from string import Template

import numpy as np

from .._version import __version__
from ..classes import RareClass
from ..codes import file_safe, game_name, parse, shell_word
from ..growth import STATUS_WORDS, STATUSES
from ..trajectory import KINDS
from . import svg
from .formats import FORMATS, PLAIN_ROW, period_rows
from .literature import MAX_SHIFT, Literature

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


def slug(code: str) -> str:
    """The ASCII file name of a code's page: ``·137`` → ``0.137``, ``4·07`` → ``4.07``, ``0x·9`` → ``0x0.9``,
    ``4!·`` → ``4u`` (no ``!`` in a file name: :func:`grundy.codes.file_safe`)."""
    head, _, digits = file_safe(code).partition("·")
    if head in ("", "0x"):
        head += "0"
    return f"{head}.{digits}" if digits else head


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _fmt(x) -> str:
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:,.3f}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def _status(status: str) -> str:
    return f'<span class="status {_e(status)}">{_e(STATUS_WORDS.get(status, status))}</span>'


def _published_badge(status: str | None) -> str:
    return f'<span class="pub {_e(status or "none")}">{_e(PUBLISHED_WORDS[status])}</span>'


def mask_text(mask: int | None, position: bool = False) -> str | None:
    """A mask as the toolkit writes it: ``15``, ``1+position``."""
    return None if mask is None else RareClass(mask, 0, bool(position)).label


def window_formula(code: str) -> str:
    """The window rule the code's certificate uses: ``3(s + p) + t`` when a move may leave three heaps."""
    return "3(s + p) + t" if parse(code).hexadecimal else "2s + 2p + t"


def page(title: str, body: str, root: str, source: str, script: bool = True) -> str:
    """A whole HTML page around ``body``; ``root`` leads back to the site's top folder."""
    template = Template((resources.files("grundy") / "report_assets" / "page.html").read_text("utf-8"))
    tag = f'<script src="{root}assets/site.js"></script>' if script else ""
    return template.substitute(title=_e(title), body=body, root=root, version=_e(__version__),
                               source=_e(source), script=tag)


def _facts(pairs) -> str:
    return '<dl class="facts">' + "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def _code_link(code: str, known: set[str], root: str = "") -> str:
    if code in known:
        return f'<a href="{root}{_e(slug(code))}.html">{_e(code)}</a>'
    return _e(code)


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


def push_further(r: dict, lit: Literature) -> str:
    """The ``grundy settle`` command an unsettled code's page suggests, and why that depth.

    Where the literature gives a period and start, the depth is the window that certifies it
    (for an equivalent game whose heaps may be counted from another point, from up to
    :data:`~grundy.present.literature.MAX_SHIFT` heaps later); where the tables computed the
    code without finding a period, twice as deep as they went; else :data:`SETTLE_FACTOR`
    times the heaps read.
    """
    from ..periods import window

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
    command = f"<code>grundy settle {_e(shell_word(r['code']))} --max-heaps {deeper}</code>"
    return command + (f" ({_e(why)})" if why else "")


def period_block(values, start: int, period: int) -> str:
    """The compact notation as HTML: rows as wide as the period, the period row marked, and the
    values before the start that differ from the periodic value of their column marked too."""
    head = np.asarray(values[: start + period], dtype=np.int64)
    w = max(len(str(int(v))) for v in head)
    label = len(f"{start:,}")
    lines = []
    for first, count in period_rows(start, period):
        cells = []
        for n in range(first, first + count):
            text = f"{int(head[n]):>{w}}"
            if n < start and head[n] != head[start + (n - start) % period]:
                text = f"<b>{text}</b>"
            cells.append(text)
        pad = " " * ((w + 1) * (period - count))
        line = f"{first:>{label},}  {pad}{' '.join(cells)}"
        lines.append(f"<mark>{line}</mark>" if first == start else line)
    return f'<pre class="block" id="period">{chr(10).join(lines)}</pre>'


def plain_block(values, count: int) -> str:
    """The first ``count`` values, ten to a row."""
    vals = [int(v) for v in values[:count]]
    w = max((len(str(v)) for v in vals), default=1)
    label = len(f"{max(len(vals) - 1, 0):,}")
    lines = [f"{first:>{label},}  " + " ".join(f"{v:>{w}}" for v in vals[first : first + PLAIN_ROW])
             for first in range(0, len(vals), PLAIN_ROW)]
    return f'<pre class="block">{chr(10).join(lines)}</pre>'


def _literature(lit: Literature, same: list[str], known: set[str], r: dict) -> str:
    facts = [("published status", _published_badge(lit.status) + f" ({_e(PUBLISHED_MEANINGS[lit.status])})")]
    if lit.game is not None and lit.game != lit.code:
        facts.append(("same game as", _code_link(lit.game, known) + " (in the published lookup table)"))
    if lit.period is not None:
        facts.append(("published period / start", _e(f"{lit.period:,} / {lit.start:,}")
                      + (f" (for {_e(lit.game)})" if lit.game != lit.code else "")))
    if lit.mask is not None:
        depth = f", computed to {lit.depth:,} heaps" if lit.depth else ""
        bits, _, pos = lit.mask.partition("+")
        facts.append(("published sparse space",
                      _e(f"mask {mask_text(int(bits, 16), bool(pos))} ({lit.mask} in hexadecimal), "
                         f"{lit.rare_heaps:,} rare heaps (counting heap 0), the last at {lit.last_rare:,}{depth}")))
    verdict = {True: "agrees", False: "differs", None: "not compared"}[lit.agrees]
    facts.append(("ours against it", f'<span class="verdict {verdict.replace(" ", "-")}">{verdict}</span>: '
                  + _e(lit.note)))
    if lit.oeis:
        facts.append(("OEIS", (f'<a href="https://oeis.org/{_e(lit.oeis)}">{_e(lit.oeis)}</a> '
                      f"({_e(lit.oeis_title)}, from heap 0)")))
    if len(same) > 1:
        others = [c for c in same if c != lit.code]
        if same[0] == lit.code:
            facts.append((f"same values to {r['heaps']:,} heaps", ", ".join(_code_link(c, known) for c in others)))
        else:
            facts.append((f"same values to {r['heaps']:,} heaps",
                          _code_link(same[0], known) + (f" and {len(others) - 1:,} more (listed there)"
                                                        if len(others) > 1 else "")))
    return '<h2>In the literature <a class="small" href="../tallies.html#sources">sources</a></h2>' + _facts(facts)


def settlement_text(st: dict) -> str:
    """A stored settlement (:meth:`Catalogue.settlements`) in one sentence: the certificate, or how
    far ``grundy settle`` computed the code and what its rare heaps were doing there."""
    same = (f" It is the same game as {st['same_game_as']} by the codes' rules ({'; '.join(st['proof'])}), "
            f"so it has {st['same_game_as']}'s values." if st.get("same_game_as") else "")
    if st["settled"]:
        return (f"Period {st['period']:,} from heap {st['start']:,}, certified by grundy settle at "
                f"{st['heaps']:,} heaps (window {st['window']:,}).{same}")
    rare = ""
    if st.get("mask") is not None:
        last = "none" if st["last_rare"] is None else f"the last at heap {st['last_rare']:,}"
        rare = (f"; mask {mask_text(st['mask'], st['position'])}: {st['rare_heaps']:,} rare heaps, "
                f"{last}")
    return f"Not settled by grundy settle within {st['heaps']:,} heaps{rare}; largest value {st['max']:,}.{same}"


def _facts_of(r: dict, sparse: dict | None, lit: Literature, settlement: dict | None = None) -> list:
    settled = r["status"] == "settled"
    facts = [
        ("status", _status(r["status"])),
        ("t", _e(r["t"])),
        ("heaps computed", _e(_fmt(r["heaps"]))),
        ("largest value", _e(f"{r['max_value']:,}, first at heap {r['argmax']:,}")),
    ]
    if settlement is not None and settlement["heaps"] > r["heaps"]:
        facts.append(("deepest state", _e(settlement_text(settlement))))
    if settled:
        facts += [
            ("period / start", _e(f"{r['period']:,} / {r['start']:,}")),
            (f"window {window_formula(r['code'])}", _e(_fmt(r["window"]))),
            ("right from depth", _e(_fmt(r["right_from"]))),
            ("reading changes", _e(_fmt(r["changes"]))),
            ("repetitions needed", _e(_fmt(r["repetitions_needed"]))),
        ]
    if sparse is not None and sparse.get("mask") is not None:
        last = "none" if sparse["last_rare"] is None else f"the last at heap {sparse['last_rare']:,}"
        facts.append(("sparse space", _e(f"mask {mask_text(sparse['mask'], sparse['position'])}: "
                                         f"{sparse['rare_heaps']:,} rare heaps below {r['heaps']:,}, {last}")))
    if r.get("arithmetic"):
        a = r["arithmetic"]
        facts.append(("arithmetic reading (never certified)",
                      _e(f"period {a['period']} from heap {a['start']}, saltus {a['saltus']}, window {a['window']}")))
    if not settled and not (settlement is not None and settlement["settled"]):
        reached = r if settlement is None else {**r, "heaps": max(r["heaps"], settlement["heaps"])}
        facts.append(("push further", push_further(reached, lit)))
    return facts


def readings_script(r: dict) -> str:
    """The false readings as a script for ``site.js``: one flat list, five numbers a reading,
    ``start - previous start, period, first depth - start, last depth - first depth, held to - last depth``
    (the window ``r(s + p) + t`` follows from the code), so that hundreds of readings stay small."""
    flat, prev = [], 0
    for fr in r["false_readings"]:
        flat += [fr["start"] - prev, fr["period"], fr["first_depth"] - fr["start"],
                 fr["last_depth"] - fr["first_depth"], fr["held_to"] - fr["last_depth"]]
        prev = fr["start"]
    return f"var grundyReadings={json.dumps(flat, separators=(',', ':'))};\n"


def _trajectory(r: dict, readings_file: str | None) -> str:
    """The figure ``site.js`` draws from the code's readings (``readings_file``, shared by codes with
    the same values and windows): the period read at each depth, and a row per false reading, up to
    the certificate depth (or the heaps computed)."""
    settled = r["status"] == "settled"
    end = r["certificate_depth"] if settled else r["heaps"]
    attrs = {"end": end, "start": r["start"] if settled else "", "period": r["period"] if settled else "",
             "right-from": r["right_from"] if settled else "", "t": r["t"],
             "parts": 3 if parse(r["code"]).hexadecimal else 2}
    data = " ".join(f'data-{k}="{_e(v)}"' for k, v in attrs.items())
    caption = ("The period read at each depth to " + (f"the certificate depth {end:,} (final reading black)"
                                                        if settled else f"the {end:,} heaps computed")
               + "; a row per " + ("false reading" if settled else "reading")
               + ": start to held to (thin), depths reporting it (thick), window (tick).")
    if readings_file:
        script = f'<script src="{_e(readings_file)}"></script>'
    else:
        script = f"<script>{readings_script(r)}</script>" if r["false_readings"] else ""
    return f'<figure class="svg" id="trajectory" {data}><figcaption>{_e(caption)}</figcaption></figure>{script}'


def _false_section(r: dict) -> str:
    settled = r["status"] == "settled"
    false = r["false_readings"]
    if settled:
        title = f"<h2>False readings ({len(false):,})</h2>"
        intro = ("<p>None: every reading the sweep made was the final one.</p>" if not false else
                 "<p class=\"muted\">reach = held to / window.</p>")
    else:
        title = "<h2>Readings so far</h2>"
        intro = ("<p class=\"muted\">No reading is certified, so none is known to be false: the readings a "
                 "sweep reported on the way, but the last.</p>" if false else "<p>No reading so far.</p>")
    if not false:
        return title + intro
    return title + intro + '<div id="false"></div>'


def _downloads(r: dict, values, values_file: str | None) -> str:
    """The download buttons, and what ``site.js`` builds the files from."""
    data = {"code": r["code"], "heaps": r["heaps"]}
    if r["status"] == "settled":
        data.update(start=r["start"], period=r["period"], window=r["window"],
                    head=[int(v) for v in values[: r["start"] + r["period"]]])
    else:
        data.update(file=values_file, sha=r["values_sha256"][:16])
    return ("<h2>Values</h2>"
            f'<p>All {r["heaps"]:,} values, G(0) to G({r["heaps"] - 1:,}), as a file: '
            f'<span id="downloads" data-formats="{" ".join(FORMATS)}"></span></p>'
            f'<p class="muted">As <code>grundy values {_e(shell_word(r["code"]))} --heaps {r["heaps"]} --format FORMAT</code> '
            "writes them (bfile: an OEIS b-file).</p>"
            '<script type="application/json" id="values-data">'
            f'{json.dumps(data, ensure_ascii=False, separators=(",", ":"))}</script>')


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
    heading = f"{name}: {known_as}" if known_as else name
    parts = [f"<h1>{_e(heading)}</h1>", f'<p class="lead">{_e(summary(r))}</p>', _facts(_facts_of(r, sparse, literature, settlement)),
             _literature(literature, list(same), known, r)]
    if settled:
        parts += [
            "<h2>The period</h2>",
            (f'<p class="muted">Rows of {r["period"]:,}; marked: the period (heaps '
            f'{r["start"]:,}–{r["start"] + r["period"] - 1:,}), repeated for ever; bold: a value before it '
            "that differs from its column's.</p>"),
            period_block(values, r["start"], r["period"]),
        ]
    else:
        count = min(FIRST_VALUES, len(values))
        parts += [(f"<h2>First values</h2><p class=\"muted\">G(n) for n = 0 to {count - 1:,}, "
                  f"{PLAIN_ROW} to a row.</p>"), plain_block(values, count)]
    rows_word = (f"rows of {width:,} ({'the period' if width == r['period'] else 'a multiple of the period'})"
                 if settled else f"rows of {width:,}")
    scale = max(1, min(8, 720 // width))
    parts += [
        "<h2>Picture</h2>",
        f'<figure><img class="grid" src="../{_e(png)}" alt="colour grid" '
        f'style="width:{width * scale}px" loading="lazy">'
        f"<figcaption>G(0) to G({shown - 1:,}), a cell each, {rows_word}; "
        + ("one colour a value." if r["max_value"] < 16 else f"dark 0, light {r['max_value']:,}.")
        + "</figcaption></figure>",
        "<h2>Trajectory of readings</h2>",
        _trajectory(r, readings_file),
        _false_section(r),
        _downloads(r, values, values_file),
    ]
    return page(f"{name}: grundy report", "\n".join(parts), "../", source)


# ---------------------------------------------------------------- the index


def _num_cell(x) -> str:
    return "<td></td>" if x is None else f"<td>{x}</td>"


def index_row(r: dict, extra: dict) -> str:
    """One row of the index, as plain as it can be (4,095 of them): numbers as the script sorts them,
    the status coloured by the style sheet from the row's ``data-status``."""
    settled = r["status"] == "settled"
    cells = [f'<td><a href="codes/{_e(slug(r["code"]))}.html">{_e(r["code"])}</a></td>',
             f"<td>{STATUS_WORDS[r['status']]}</td>",
             _num_cell(r["start"]), _num_cell(r["period"]), _num_cell(r["window"]), _num_cell(r["max_value"]),
             f"<td>{_e(extra.get('mask') or '')}</td>", _num_cell(extra.get("rare_heaps")),
             f"<td>{PUBLISHED_WORDS[extra.get('published')]}</td>",
             f"<td>{_e(extra.get('class') or '')}</td>",
             _num_cell(len(r["false_readings"]) if settled else None)]
    return f'<tr data-code="{_e(r["code"])}" data-status="{_e(r["status"])}">{"".join(cells)}</tr>'


def _cards(t: dict) -> str:
    cards = [f'<a class="card" href="#" data-status=""><b>{t["codes"]:,}</b>codes</a>']
    cards += [f'<a class="card {s}" href="#status={s}" data-status="{s}"><b>{t[s]:,}</b>{_e(STATUS_WORDS[s])}</a>'
              for s in STATUSES]
    return f'<div class="cards">{"".join(cards)}</div>'


def index_page(results: list[dict], extras: dict[str, dict], t: dict, source: str) -> str:
    """The index: the summary cards (each filters the table), then one sortable row per code."""
    rows = "".join(index_row(r, extras.get(r["code"], {})) for r in results)
    heads = "".join(f'<th data-col="{c}" data-type="{k}">{_e(label)}</th>' for c, label, k in INDEX_COLUMNS)
    options = "".join(f'<option value="{s}">{_e(STATUS_WORDS[s])}</option>' for s in STATUSES)
    depth = ", ".join(f"{h:,}" for h in sorted({r["heaps"] for r in results})) or "–"
    body = (
        "<h1>Octal games: the catalogue</h1>"
        f'<p class="muted">{t["codes"]:,} codes read to {depth} heaps. '
        f'{t["right_first"]:,} settled codes were right from their first reading; {t["false_readings"]:,} '
        'false readings on settled codes. <a href="tallies.html">All tallies and the reading study</a>.</p>'
        + _cards(t)
        + '<div class="controls"><label>Code <input id="filter" type="search" placeholder="·137, .13 or 13" '
        'autocomplete="off"></label>'
        f'<label>Status <select id="status"><option value="">any</option>{options}</select></label>'
        '<span id="shown" class="muted"></span></div>'
        f'<div class="wide"><table class="sortable" id="codes"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
        '<p class="muted">Click a column to sort (again to reverse); empty cells sort last. “same values as”: '
        "the first code with the same values to the same depth. False readings are counted on settled codes "
        "only (an unsettled code has no final reading to call a reading false).</p>"
    )
    return page("grundy report: octal games", body, "", source)


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
    series += [(svg.KIND_WORDS[k], svg.KIND_COLOURS[k],
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
    table = "".join(
        f'<tr><td class="{"text sub" if k.startswith(" ") else "text"}">{_e(k.strip())}</td><td>{_e(v)}</td></tr>'
        for k, v in rows
    )
    status = ", ".join(f'<a href="index.html#status={s}">{_e(STATUS_WORDS[s])} {t[s]:,}</a>' for s in STATUSES)
    convincing = "".join(
        f"<tr><td>{_code_link(fr['code'], known, 'codes/')}</td><td>{fr['period']:,}</td><td>{fr['start']:,}</td>"
        f"<td>{fr['held_to']:,}</td><td>{fr['window']:,}</td><td>{fr['reach']:.3f}</td></tr>"
        for fr in t["most_convincing"]
    )
    heap0 = "".join(f"<li>{_code_link(h['code'], known, 'codes/')}: period {h['period']} from heap {h['start']}, "
                    f"window {h['window']}</li>" for h in t["heap0"])
    figures = "".join(f'<figure class="svg">{s}<figcaption>{_e(c)}</figcaption></figure>'
                      for s, c in tally_figures(results, t))
    head = "".join(f'<th data-type="{k}">{c}</th>' for c, k in (("code", "text"), ("period", "num"),
                                                                ("start", "num"), ("held to", "num"),
                                                                ("window", "num"), ("reach", "num")))
    body = (
        f"<h1>Tallies of the survey</h1><p>{t['codes']:,} codes: {status}.</p>"
        "<p class=\"muted\">Readings are scored on the settled codes only, each read up to its own "
        "certificate depth: an unsettled code has no known truth to score a reading against.</p>"
        f"<h2>How often a sweep that believed what it saw was wrong</h2><table>{table}</table>"
        "<h2>The most convincing false readings</h2>"
        + (f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{convincing}</tbody></table>'
           if convincing else "<p>None.</p>")
        + "<h2>The reading study</h2>" + figures
        + f"<h2>Heap 0 allowed</h2><p>{len(t['heap0'])} false readings reach their window when heap 0 may "
        "start a period (so the rule must exclude it).</p>"
        + (f"<ul>{heap0}</ul>" if heap0 else "")
        + SOURCES
    )
    return page("grundy report: tallies", body, "", source)


SOURCES = (
    '<h2 id="sources">Sources</h2><p>The “in the literature” part of each code page comes from the published '
    "tables of octal games: Achim Flammenkamp's tables as verified and extended by Tomek Czajka "
    "(github.com/tczajka/octal-games), shipped with grundy with their commits (docs/findings/data/README.md). "
    "Each code of one to three digits is mapped to a listed game that is the same game; the game is "
    "<em>trivial</em> (a period found below 1,000 heaps), <em>solved</em> (a period found further) or "
    "<em>unsolved</em>. An equivalent game may count heaps from another point, so a start is compared only "
    "where the listing is the code's own or its listed values are found among ours. OEIS numbers: A002186 "
    "(·77, Kayles) and A002187 (·137, Dawson's Chess), the values from heap 0.</p>"
)
