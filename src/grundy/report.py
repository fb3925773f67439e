"""The catalogue as a static website: an index of every code, a page per code, the tallies.

Everything is a plain file (HTML, PNG, and the small CSS and script of our
own in ``report_assets``), so the site opens from disk or can be published
as is, and nothing is fetched when it is viewed.  A manifest keeps a
fingerprint of what each code page was drawn from (its result and the code
that draws it), so running the report again writes only the pages of codes
that are new or changed since, and removes
the pages of codes it no longer reports; the index and the tallies are
always rewritten (they are cheap).  Code pages are independent, so they go
to any ``concurrent.futures.Executor``.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from string import Template

from . import __version__
from .catalogue import Catalogue
from .executors import SerialExecutor, batch_results
from .growth import STATUSES
from .tallies import tallies

DRAWN_BY = (
    "report.py", "figures/report.py", "figures/trajectory.py",
    "report_assets/page.html", "report_assets/report.css", "report_assets/table.js",
)
"""The files that draw a code page: when one changes, the next run redraws every page."""
ASSETS = ("report.css", "table.js")
DPI = 100
"""PNG resolution: sharp enough on screen, and PNG is several times smaller than SVG of 2,400 points."""
ROW = 10
FIRST_VALUES = 100
MOST_VALUES = 400
"""A settled code shows its values up to its window, between these bounds."""
RARE_KEEP = 5
STATUS_WORDS = {"settled": "settled", "growing": "growing", "bounded_unsettled": "bounded, unsettled"}
INDEX_COLUMNS = (
    ("code", "code", True),
    ("status", "status", False),
    ("start", "start", True),
    ("period", "period", True),
    ("window", "window", True),
    ("max_value", "largest value", True),
    ("changes", "changes", True),
    ("false_readings", "false readings", True),
    ("right_from", "right from", True),
)
FALSE_COLUMNS = (
    ("start", "start", True),
    ("period", "period", True),
    ("first_depth", "first depth", True),
    ("last_depth", "last reported", True),
    ("held_to", "held to", True),
    ("window", "window", True),
    ("reach", "reach", True),
    ("kind", "kind", False),
    ("before_start", "before the final start", False),
)


@dataclass
class ReportRun:
    """What one call of :func:`write_report` did."""

    out: str
    codes: int
    written: int
    kept: int
    removed: int

    def to_dict(self) -> dict:
        return asdict(self)


def slug(code: str) -> str:
    """The ASCII file name of a code's page: ``·137`` → ``0.137``, ``4·07`` → ``4.07``, ``0x·9`` → ``0x0.9``."""
    head, _, digits = code.partition("·")
    if head in ("", "0x"):
        head += "0"
    return f"{head}.{digits}" if digits else head


def choose(results: Iterable[dict]) -> list[dict]:
    """One result per code, the deepest stored, in the catalogue's order of codes."""
    best: dict[str, dict] = {}
    for r in results:
        if r["code"] not in best or r["heaps"] > best[r["code"]]["heaps"]:
            best[r["code"]] = r
    return list(best.values())


@cache
def _drawing() -> str:
    digest = hashlib.sha256(__version__.encode())
    for name in DRAWN_BY:
        digest.update((resources.files("grundy") / name).read_bytes())
    return digest.hexdigest()


def fingerprint(result: dict, source: str) -> str:
    """What a code page is drawn from: its result and catalogue, and the version and files that draw it."""
    text = json.dumps([result, source, _drawing()], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


# ---------------------------------------------------------------- HTML pieces


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


def _cell(x, numeric: bool, shown: str | None = None) -> str:
    """A table cell; its ``data-v`` is what the table script sorts by (the raw number)."""
    if not numeric:
        return f'<td class="text" data-v="{_e(x)}">{shown if shown is not None else _e(_fmt(x))}</td>'
    key = "" if x is None else int(x) if isinstance(x, bool) else x
    return f'<td data-v="{_e(key)}">{shown if shown is not None else _e(_fmt(x))}</td>'


def _status(status: str) -> str:
    return f'<span class="status {_e(status)}">{_e(STATUS_WORDS.get(status, status))}</span>'


def _head(columns) -> str:
    ths = "".join(
        f'<th data-col="{_e(name)}" data-type="num">{_e(label)}</th>' if numeric
        else f'<th data-col="{_e(name)}" data-type="text" class="text">{_e(label)}</th>'
        for name, label, numeric in columns
    )
    return f"<thead><tr>{ths}</tr></thead>"


def _page(title: str, body: str, root: str, source: str) -> str:
    template = Template((resources.files("grundy") / "report_assets" / "page.html").read_text("utf-8"))
    return template.substitute(title=_e(title), body=body, root=root, version=_e(__version__), source=_e(source))


def _facts(pairs) -> str:
    return '<dl class="facts">' + "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in pairs) + "</dl>"


def _figure(src: str, alt: str, caption: str) -> str:
    return (f'<figure><img src="{_e(src)}" alt="{_e(alt)}" loading="lazy">'
            f"<figcaption>{caption}</figcaption></figure>")


# ---------------------------------------------------------------- one code


def _values_table(values, start: int | None, count: int) -> str:
    rows = []
    for base in range(0, count, ROW):
        cells = []
        for n in range(base, min(base + ROW, count)):
            cls = ' class="start"' if n == start else (' class="after"' if start is not None and n > start else "")
            cells.append(f"<td{cls}>{int(values[n])}</td>")
        rows.append(f"<tr><th>{base}</th>{''.join(cells)}</tr>")
    head = "".join(f"<th>+{i}</th>" for i in range(ROW))
    return f'<table class="values"><thead><tr><th>n</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _shown_values(result: dict, size: int) -> int:
    want = FIRST_VALUES
    if result["window"] is not None:
        want = min(max(FIRST_VALUES, result["window"]), MOST_VALUES)
    want = -(-want // ROW) * ROW
    return min(want, size)


def _summary(r: dict) -> str:
    if r["status"] == "settled":
        return (f"Period {r['period']:,} from heap {r['start']:,}, certified at depth {r['certificate_depth']:,} "
                f"(the window 2s + 2p + t = {r['window']:,}).")
    what = ("the largest value keeps rising (a description, not a proof)" if r["status"] == "growing"
            else "its values stay bounded but no period is certified")
    return f"Not settled within {r['heaps']:,} heaps: {what}."


def _false_table(false: list[dict]) -> str:
    if not false:
        return "<p>None: every reading the sweep made was the final one.</p>"
    rows = "".join(
        "<tr>" + "".join(_cell(fr[name], numeric, _e(fr[name].replace("_", " ")) if name == "kind" else None)
                         for name, _, numeric in FALSE_COLUMNS) + "</tr>"
        for fr in false
    )
    return f'<table class="sortable" id="false">{_head(FALSE_COLUMNS)}<tbody>{rows}</tbody></table>'


def _rare_section(found) -> str:
    """The classes that thin on an unsettled code (``grundy.rare.survey_code``), best first."""
    from .rare import CONVENTIONS, thirds

    first, length = thirds(found.heaps)
    stretches = [f"heaps {first + i * length:,}–{first + (i + 1) * length - 1:,}" for i in range(3)]
    intro = (f"<p>{found.classes_tried:,} classes tried (every mask of the bits of the largest value, "
             f"both parities), counting the rare heaps in three equal stretches ({', '.join(stretches)}): "
             f"{found.thinning:,} thin, falling by more than two standard deviations from stretch to stretch."
             f"{' The best ' + str(len(found.best)) + ', rarest in the last stretch first:' if found.best else ''}</p>")
    if not found.best:
        return intro
    cols = (("mask", "mask", True), ("parity", "parity", True), ("first", stretches[0], True),
            ("second", stretches[1], True), ("last", stretches[2], True),
            ("values", "rare values in the last stretch", False))
    rows = "".join(
        "<tr>" + _cell(c.mask, True) + _cell(c.parity, True) + "".join(_cell(x, True) for x in c.thirds)
        + _cell(", ".join(map(str, c.last_values)) or "none", False) + "</tr>"
        for c in found.best
    )
    conventions = "".join(f"<li>{_e(text)}</li>" for text in CONVENTIONS.values())
    return (intro + f'<table class="sortable" id="rare">{_head(cols)}<tbody>{rows}</tbody></table>'
            f'<p class="muted">Which heaps a class counts depends on its parity:</p>'
            f'<ul class="muted">{conventions}</ul>')


def code_page(result: dict, values, rare=None, source: str = "the catalogue") -> str:
    """The HTML page of one code; ``rare`` is its rare-class survey (``grundy.rare.CodeSurvey``) or None."""
    r = result
    name, s = r["code"], slug(r["code"])
    facts = [
        ("status", _status(r["status"])),
        ("t (most counters one move removes)", _e(r["t"])),
        ("heaps computed", _e(_fmt(r["heaps"]))),
        ("period / start / window", _e(f"{_fmt(r['period'])} / {_fmt(r['start'])} / {_fmt(r['window'])}")),
        ("right from depth", _e(_fmt(r["right_from"]))),
        ("reading changes", _e(_fmt(r["changes"]))),
        ("repetitions needed", _e(_fmt(r["repetitions_needed"]))),
        ("largest value", _e(f"{r['max_value']:,}, first at heap {r['argmax']:,}")),
    ]
    if r.get("arithmetic"):
        a = r["arithmetic"]
        facts.append(("arithmetic reading", _e(f"period {a['period']} from heap {a['start']}, saltus {a['saltus']}, "
                                               f"window {a['window']}")))
    if r.get("heap0_reached"):
        facts.append(("heap 0 allowed", _e("; ".join(f"period {h['period']} from {h['start']} reaches window "
                                                     f"{h['window']}" for h in r["heap0_reached"]))))
    shown = _shown_values(r, len(values))
    parts = [
        f"<h1>{_e(name)}</h1>",
        f"<p>{_e(_summary(r))}</p>",
        _facts(facts),
        f"<h2>First values</h2><p class=\"muted\">G(n) for n = 0 to {shown - 1:,}, "
        f"{ROW} to a row" + (", from the start of the period in green." if r["start"] is not None else ".") + "</p>",
        _values_table(values, r["start"], shown),
        "<h2>Sequence</h2>",
        _figure(f"{s}-sequence.png", f"G(n) of {name}", f"Every value computed, G(0) to G({r['heaps'] - 1:,})."),
        "<h2>Trajectory of readings</h2>",
        _figure(f"{s}-trajectory.png", f"readings of {name} by depth",
                "The reading (start and period) that a sweep would report at each depth, and every false "
                "reading from its first depth to the depth it held to."),
        f"<h2>False readings ({len(r['false_readings'])})</h2>",
        "" if r["status"] == "settled" else
        f'<p class="note">Not settled: these readings differ from the reading at depth {r["heaps"]:,}, '
        "which is not certified either; their kinds compare them with it.</p>",
        _false_table(r["false_readings"]),
    ]
    if r["status"] != "settled" and rare is not None:
        parts += ["<h2>Rare classes</h2>", _rare_section(rare)]
    return _page(f"{name}: grundy report", "\n".join(parts), "../", source)


def _save(fig, path: Path) -> None:
    fig.savefig(path, dpi=DPI, bbox_inches="tight")


def _write_code(result: dict, codes_dir: Path, source: str) -> str:
    """Recompute one code's values, draw its figures and write its page."""
    from .engine import compute
    from .figures import report as figs
    from .figures import trajectory as trajectory_figure
    from .trajectory import trajectory

    name, s = result["code"], slug(result["code"])
    values = compute(name, result["heaps"])
    _save(figs.sequence(values, name, start=result["start"], window=result["window"]),
          codes_dir / f"{s}-sequence.png")
    _save(trajectory_figure.plot(trajectory(values, name)), codes_dir / f"{s}-trajectory.png")
    rare = None
    if result["status"] != "settled":
        from .rare import survey_code

        rare = survey_code(name, result["heaps"], keep=RARE_KEEP, growing_only=False)
    (codes_dir / f"{s}.html").write_text(code_page(result, values, rare, source), "utf-8")
    return name


def _write_batch(results: list[dict], codes_dir: str, source: str) -> list[str]:
    return [_write_code(r, Path(codes_dir), source) for r in results]


def code_files(code: str) -> tuple[str, ...]:
    """The files of one code page, relative to the ``codes`` folder."""
    s = slug(code)
    return (f"{s}.html", f"{s}-sequence.png", f"{s}-trajectory.png")


# ---------------------------------------------------------------- index and tallies


def _tally_boxes(t: dict, heaps: list[int]) -> str:
    def box(label, value, href=None):
        inner = f"<b>{_e(_fmt(value))}</b>{_e(label)}"
        if href:
            inner = f'<a href="{_e(href)}">{inner}</a>'
        return f'<div class="tally">{inner}</div>'

    boxes = [box("codes", t["codes"])]
    boxes += [box(STATUS_WORDS[s], t[s], f"index.html#status={s}") for s in STATUSES]
    boxes += [
        box("settled codes right from the first reading", t["right_first"]),
        box("false readings on settled codes", t["false_readings"]),
        box("median reach of a false reading", t["median_reach"]),
        box("largest reach", t["max_reach"]),
        box("false readings that reached their window (must be 0)", t["reached_window"]),
    ]
    depth = ", ".join(f"{h:,}" for h in heaps) or "–"
    return (f'<div class="tallies">{"".join(boxes)}</div>'
            f'<p class="muted">Codes read to {depth} heaps. Readings are scored on settled codes only. '
            f'<a href="tallies.html">All tallies and the reading-study figures</a>.</p>')


def index_page(results: list[dict], t: dict, source: str) -> str:
    """The index: the tallies, then one sortable, filterable row per code."""
    rows = []
    for i, r in enumerate(results):
        cells = [f'<td data-v="{i}"><a href="codes/{_e(slug(r["code"]))}.html">{_e(r["code"])}</a></td>',
                 _cell(r["status"], False, _status(r["status"]))]
        cells += [_cell(r[name] if name != "false_readings" else len(r[name]), True)
                  for name, _, numeric in INDEX_COLUMNS[2:]]
        rows.append(f'<tr data-code="{_e(r["code"])}" data-status="{_e(r["status"])}">{"".join(cells)}</tr>')
    options = "".join(f'<option value="{s}">{_e(STATUS_WORDS[s])}</option>' for s in STATUSES)
    body = (
        "<h1>Octal games: the catalogue</h1>"
        + _tally_boxes(t, sorted({r["heaps"] for r in results}))
        + '<div class="controls"><label>Code <input id="filter" type="search" placeholder="·137, .13 or 13" '
        'autocomplete="off"></label>'
        f'<label>Status <select id="status"><option value="">any</option>{options}</select></label>'
        '<span id="shown" class="muted"></span></div>'
        f'<table class="sortable" id="codes">{_head(INDEX_COLUMNS)}<tbody>{"".join(rows)}</tbody></table>'
        '<p class="muted">Click a column to sort (again to reverse). Codes without a period sort last.</p>'
    )
    return _page("grundy report: octal games", body, "", source)


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


def _tally_value(t: dict, key) -> str:
    if isinstance(key, tuple):
        return f"{_fmt(t[key[0]])} of {_fmt(t[key[1]])}"
    return _fmt(t[key])


def _spread(d: dict) -> str:
    return " / ".join(_fmt(d[k]) for k in ("min", "median", "max"))


def _code_link(code: str) -> str:
    return f'<a href="codes/{_e(slug(code))}.html">{_e(code)}</a>'


def tallies_page(t: dict, source: str) -> str:
    """The tallies of the survey and the three figures of the reading study."""
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
        f"<tr><td>{_code_link(fr['code'])}</td>{_cell(fr['period'], True)}{_cell(fr['start'], True)}"
        f"{_cell(fr['held_to'], True)}{_cell(fr['window'], True)}{_cell(fr['reach'], True)}</tr>"
        for fr in t["most_convincing"]
    )
    heap0 = "".join(
        f"<li>{_code_link(h['code'])}: period {h['period']} from heap {h['start']}, window {h['window']}</li>"
        for h in t["heap0"]
    )
    cols = (("code", "code", False), ("period", "period", True), ("start", "start", True),
            ("held_to", "held to", True), ("window", "window", True), ("reach", "reach", True))
    body = (
        f"<h1>Tallies of the survey</h1><p>{t['codes']:,} codes: {status}.</p>"
        "<p class=\"muted\">Readings are scored on the settled codes only, each read up to its own "
        "certificate depth: an unsettled code has no known truth to score a reading against.</p>"
        f"<h2>How often a sweep that believed what it saw was wrong</h2><table>{table}</table>"
        "<h2>The most convincing false readings</h2>"
        + (f'<table class="sortable">{_head(cols)}<tbody>{convincing}</tbody></table>' if convincing else "<p>None.</p>")
        + "<h2>The reading study</h2>"
        + _figure("figures/changes.png", "reading changes per code",
                  "How many times each settled code's reading changed before it was certified.")
        + _figure("figures/reach.png", "reach of false readings",
                  "How far each false reading got towards its window (held to / window): those of "
                  "period 1 on the left, the longer ones by kind on the right.")
        + _figure("figures/repetitions.png", "repetitions needed",
                  "Left: the repetitions (W* − s*) / p* each certified reading needed. Right: how many "
                  "false readings a reader asking for r full repetitions would still have believed.")
        + f"<h2>Heap 0 allowed</h2><p>{len(t['heap0'])} false readings reach their window when heap 0 may "
        "start a period (so the rule must exclude it).</p>"
        + (f"<ul>{heap0}</ul>" if heap0 else "")
    )
    return _page("grundy report: tallies", body, "", source)


def _tally_figures(results: list[dict], t: dict, out: Path) -> None:
    from .figures import report as figs

    settled = [r for r in results if r["status"] == "settled"]
    (out / "figures").mkdir(exist_ok=True)
    _save(figs.changes(settled), out / "figures" / "changes.png")
    _save(figs.reach(settled), out / "figures" / "reach.png")
    _save(figs.repetitions(settled, t["believed"]), out / "figures" / "repetitions.png")


# ---------------------------------------------------------------- the site


def _load_manifest(path: Path) -> dict[str, str]:
    try:
        return json.loads(path.read_text("utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def write_report(
    catalogue: Catalogue,
    out: str | Path,
    *,
    heaps: int | None = None,
    executor: Executor | None = None,
    batch: int = 8,
    on_page: Callable[[int, int], None] | None = None,
) -> ReportRun:
    """Write (or bring up to date) the site of ``catalogue`` in ``out``.

    ``heaps`` keeps only results at that depth; otherwise each code is shown
    at the deepest depth stored.  Pages go to ``executor`` (serial when None)
    in batches of ``batch``; ``on_page(done, total)`` counts code pages done
    (those already up to date first) out of every code reported.
    """
    out = Path(out)
    codes_dir = out / "codes"
    codes_dir.mkdir(parents=True, exist_ok=True)
    (out / "assets").mkdir(exist_ok=True)
    for name in ASSETS:
        (out / "assets" / name).write_bytes((resources.files("grundy") / "report_assets" / name).read_bytes())
    source = catalogue.path.name
    results = choose(catalogue.results(heaps=heaps))
    manifest_path = out / "manifest.json"
    old = _load_manifest(manifest_path)
    prints = {r["code"]: fingerprint(r, source) for r in results}
    pages = {}
    todo = []
    for r in results:
        code = r["code"]
        if old.get(code) == prints[code] and all((codes_dir / f).exists() for f in code_files(code)):
            pages[code] = prints[code]
        else:
            todo.append(r)
    removed = [code for code in old if code not in {r["code"] for r in results}]
    for code in removed:
        for f in code_files(code):
            (codes_dir / f).unlink(missing_ok=True)
    done = len(pages)
    if on_page is not None:
        on_page(done, len(results))
    try:
        for written in batch_results(executor or SerialExecutor(), _write_batch, todo, batch,
                                     str(codes_dir), source):
            for code in written:
                pages[code] = prints[code]
                done += 1
            if on_page is not None:
                on_page(done, len(results))
    finally:
        manifest_path.write_text(json.dumps({"version": __version__, "pages": pages},
                                            indent=0, sort_keys=True, ensure_ascii=False), "utf-8")
    t = tallies(results)
    _tally_figures(results, t, out)
    (out / "tallies.html").write_text(tallies_page(t, source), "utf-8")
    (out / "index.html").write_text(index_page(results, t, source), "utf-8")
    return ReportRun(str(out), len(results), len(todo), len(results) - len(todo), len(removed))
