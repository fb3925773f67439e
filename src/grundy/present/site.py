"""The catalogue as a static website: an index of every code, a page per code, the tallies.

Everything is a plain file (HTML with inline SVG, small PNG colour grids,
and the CSS and script of ``present/assets``), so the site opens from disk or
can be published as is, and nothing is fetched when it is viewed.  Files
that several codes share (the grid, the values and the false readings of
codes with the same sequence) are written once, named by the values'
checksum.  A manifest keeps
a fingerprint of what each code page was drawn from, so running the report
again writes only the pages of codes that are new or changed, and removes
the files of codes it no longer reports; the index and the tallies are
always rewritten (they are cheap).
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from .._version import __version__
from ..catalogue.database import Catalogue, CatalogueError
from ..codes import file_name, parse
from ..files import write_json
from ..readings.tallies import tallies
from ..readings.trajectory import KINDS
from . import legend, pages, picture
from .formats import PLAIN_ROW
from .literature import data_digest, deepest, equivalent, literature, published_status

DRAWN_BY = (
    "present/site.py", "present/pages.py", "present/svg.py", "present/legend.py", "present/picture.py",
    "present/formats.py", "present/literature.py", "present/assets/report.css", "present/assets/site.js",
)
"""The files that draw a code page, with every template (``present/templates``): when one changes,
the next run redraws every page."""
SHARED = ("grids", "values", "readings")
"""Folders of files that codes with the same values share, named by the values' checksum."""
GRID_UNSETTLED = 100
"""The row width of the colour grid of a code with no certified period."""
GRID_ROWS_PAST = 8
"""A settled code's grid goes at least this many rows past its certificate depth (the rest repeats
them), to a multiple of as many rows, so that codes whose windows differ only by ``t`` share it."""


def script_constants() -> dict:
    """What ``site.js`` reads instead of restating it: the kinds' cell words and colours
    (:mod:`~grundy.present.legend`) in the order of :data:`grundy.readings.trajectory.KINDS` (a page's
    readings give each one's kind as an index into it), the colours of open and final readings, and
    how many values a plain row of the downloads holds."""
    return {"kinds": [legend.KIND_CELLS[k] for k in KINDS], "kindColours": [legend.KIND_COLOURS[k] for k in KINDS],
            "openColour": legend.OPEN_COLOUR, "finalColour": legend.FINAL_COLOUR, "plainRow": PLAIN_ROW}


def site_script() -> str:
    """The site's script: :func:`script_constants` as ``grundyConstants``, then ``present/assets/site.js``."""
    constants = json.dumps(script_constants(), ensure_ascii=False, separators=(",", ":"))
    source = (resources.files(__package__) / "assets" / "site.js").read_text("utf-8")
    return f"var grundyConstants={constants};\n{source}"


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


def choose(results: Iterable[dict]) -> list[dict]:
    """One result per code, the deepest stored, in the catalogue's order of codes."""
    best: dict[str, dict] = {}
    for r in results:
        if r["code"] not in best or r["heaps"] > best[r["code"]]["heaps"]:
            best[r["code"]] = r
    return list(best.values())


def _stored_values(catalogue: Catalogue, result: dict) -> np.ndarray:
    """The values the catalogue stored for ``result`` (the site never recomputes them)."""
    values = catalogue.values(result["code"], result["heaps"])
    if values is None:
        raise CatalogueError(f"{catalogue.path} holds no values of {result['code']} to "
                             f"{result['heaps']:,} heaps: survey it again")
    return values


def _sparse(result: dict) -> dict | None:
    """The sparse-space statistics stored with ``result`` (None where the method does not apply)."""
    if result["mask"] is None:
        return None
    return {k: result[k] for k in ("mask", "position", "rare_heaps", "last_rare")}


@cache
def _drawing() -> str:
    digest = hashlib.sha256(__version__.encode())
    root = resources.files("grundy")
    templates = sorted((root / "present" / "templates").iterdir(), key=lambda t: t.name)
    for file in [root / name for name in DRAWN_BY] + templates:
        digest.update(file.read_bytes())
    digest.update(data_digest().encode())
    return digest.hexdigest()


DERIVED = ("false_readings", "believed", "heap0_reached")
"""Parts of a result that follow from its values, ``t`` and analysis version (all in the rest of it)."""


def fingerprint(result: dict, source: str, context=None) -> str:
    """What a code page is drawn from: its result, the catalogue's name, what it links to
    (``context``), and the version and files that draw it.

    The readings (:data:`DERIVED`, hundreds for some codes) are left out: the values' checksum, ``t``
    and the version of the analysis that made them are in the rest of the result.
    """
    kept = {k: v for k, v in result.items() if k not in DERIVED}
    text = json.dumps([kept, source, context, _drawing()], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _key(result: dict) -> str:
    return result["values_sha256"][:16]


def grid_layout(result: dict) -> tuple[int, int]:
    """``(row width, heaps shown)`` of a code's colour grid: rows of the period (or a multiple of it)
    to a few rows past the certificate for a settled code, rows of :data:`GRID_UNSETTLED` over every
    heap otherwise."""
    if result["status"] != "settled":
        return GRID_UNSETTLED, result["heaps"]
    width = picture.grid_width(result["period"])
    block = GRID_ROWS_PAST * width
    return width, min(result["heaps"], -(-(result["certificate_depth"] + block) // block) * block)


def grid_file(result: dict) -> str:
    """The colour grid's file, relative to the site: shared by codes with the same values and layout."""
    width, shown = grid_layout(result)
    first = result["start"] % width if result["start"] is not None else 0
    return f"grids/{_key(result)}-{width}-{first}-{shown}.png"


def values_file(result: dict) -> str | None:
    """The script holding an unsettled code's values for its downloads (a settled code's page
    carries its preperiod and period, which give every value)."""
    return None if result["status"] == "settled" else f"values/{_key(result)}.js"


def values_script(result: dict, values: np.ndarray) -> str:
    """The values as a script that hands them to the page: little-endian unsigned integers, deflated."""
    dtype = "u2" if int(np.max(values)) < 1 << 16 else "u4"
    raw = np.asarray(values, dtype="<" + dtype).tobytes()
    text = base64.b64encode(zlib.compress(raw, 9)).decode()
    return f'grundyValues("{_key(result)}","{dtype}",{len(values)},"{text}");\n'


INLINE_READINGS = 40
"""Up to this many false readings go in the page itself (a few hundred bytes: a shared file would
cost more than it saves)."""


def readings_file(result: dict) -> str | None:
    """The script holding a code's false readings, shared by codes with the same values and the same
    windows (``t``, octal or hexadecimal, the largest ``!`` digit); None when it has none or they
    go in the page."""
    if len(result["false_readings"]) <= INLINE_READINGS:
        return None
    code = parse(result["code"])
    rule = ("x" if code.hexadecimal else "") + "".join(f"u{k}" for k in code.unequal[-1:])
    return f"readings/{_key(result)}-{result['t']}{rule}.js"


def code_files(result: dict) -> tuple[str, ...]:
    """The files of one code page, relative to the site's folder (the page first, then shared ones)."""
    shared = (grid_file(result), values_file(result), readings_file(result))
    return (f"codes/{file_name(result['code'])}.html",) + tuple(f for f in shared if f)


def _write_code(result, values, sparse: dict | None, out: Path, source: str, same: list[str],
                known: set[str], settlement: dict | None) -> None:
    width, shown = grid_layout(result)
    grid = out / grid_file(result)
    if not grid.exists():
        grid.write_bytes(picture.png(values[:shown], width, result["start"]))
    extra = values_file(result)
    if extra and not (out / extra).exists():
        (out / extra).write_text(values_script(result, values), "utf-8")
    readings = readings_file(result)
    if readings and not (out / readings).exists():
        (out / readings).write_text(pages.readings_script(result), "utf-8")
    html = pages.code_page(result, values, literature=literature(deepest(result, settlement), values),
                           grid=(grid_file(result), width, shown), sparse=sparse,
                           same=same, known=known, values_file=f"../{extra}" if extra else None,
                           readings_file=f"../{readings}" if readings else None, source=source,
                           settlement=settlement)
    (out / "codes" / f"{file_name(result['code'])}.html").write_text(html, "utf-8")


def _load_manifest(path: Path) -> dict[str, str]:
    try:
        return json.loads(path.read_text("utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _classes(results: list[dict]) -> dict[str, list[str]]:
    """The codes with the same values (same depth, same checksum), for each code."""
    groups: dict[tuple, list[str]] = {}
    for r in results:
        groups.setdefault((r["heaps"], r["values_sha256"]), []).append(r["code"])
    return {c: g for g in groups.values() for c in g}


def _prune(out: Path, keep: set[str]) -> None:
    """Remove the shared files no code uses any more."""
    for folder in SHARED:
        for f in (out / folder).iterdir():
            if f"{folder}/{f.name}" not in keep:
                f.unlink()


def write_report(
    catalogue: Catalogue,
    out: str | Path,
    *,
    heaps: int | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> ReportRun:
    """Write (or bring up to date) the site of ``catalogue`` in ``out``.

    ``heaps`` keeps only results at that depth; otherwise each code is shown
    at the deepest depth stored.  ``on_page(done, total)`` counts code pages
    done (those already up to date first) out of every code reported.
    """
    out = Path(out)
    for folder in ("codes", "assets", *SHARED):
        (out / folder).mkdir(parents=True, exist_ok=True)
    (out / "assets" / "report.css").write_bytes((resources.files(__package__) / "assets" / "report.css").read_bytes())
    (out / "assets" / "site.js").write_text(site_script(), "utf-8")
    source = catalogue.path.name
    results = choose(catalogue.results(heaps=heaps))
    known = {r["code"] for r in results}
    same = _classes(results)
    manifest_path = out / "manifest.json"
    old = _load_manifest(manifest_path)
    settled_by = catalogue.settlements()
    prints = {r["code"]: fingerprint(r, source, [same[r["code"]], equivalent(r["code"]) in known,
                                                 settled_by.get(r["code"])])
              for r in results}
    extras: dict[str, dict] = {}
    page_done, todo = {}, []
    for r in results:
        code = r["code"]
        if old.get(code) == prints[code] and all((out / f).exists() for f in code_files(r)):
            page_done[code] = prints[code]
        else:
            todo.append(r)
    removed = [code for code in old if code not in known]
    for code in removed:
        (out / "codes" / f"{file_name(code)}.html").unlink(missing_ok=True)
    done = len(page_done)
    if on_page is not None:
        on_page(done, len(results))
    todo_codes = {r["code"] for r in todo}
    try:
        for r in results:
            code = r["code"]
            values = _stored_values(catalogue, r) if code in todo_codes else None
            sparse_stats = _sparse(r)
            extras[code] = {
                "mask": None if sparse_stats is None else pages.mask_text(sparse_stats["mask"],
                                                                           sparse_stats["position"]),
                "rare_heaps": None if sparse_stats is None else sparse_stats["rare_heaps"],
                "published": published_status(code),
                "class": same[code][0] if len(same[code]) > 1 else None,
                **pages.deepest_cell(r, settled_by.get(code)),
            }
            if code in todo_codes:
                _write_code(r, values, sparse_stats, out, source, same[code], known, settled_by.get(code))
                page_done[code] = prints[code]
                done += 1
                if on_page is not None:
                    on_page(done, len(results))
    finally:
        write_json(manifest_path, {"version": __version__, "pages": page_done}, indent=0, sort_keys=True)
    _prune(out, {f for r in results for f in code_files(r)[1:]})
    t = tallies(results)
    (out / "tallies.html").write_text(pages.tallies_page(results, t, known, source), "utf-8")
    (out / "index.html").write_text(pages.index_page(results, extras, t, source), "utf-8")
    return ReportRun(str(out), len(results), len(todo), len(results) - len(todo), len(removed))
