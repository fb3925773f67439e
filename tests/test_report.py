"""The static site: one row and one page per code, every link and file there, the pages say what the
catalogue and the published tables say, and a second run writes only what changed."""

import base64
import itertools
import json
import re
import struct
import subprocess
import sys
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.catalogue.database import Catalogue
from grundy.catalogue.published import game
from grundy.catalogue.survey import run
from grundy.codes import family, file_name
from grundy.engine import compute
from grundy.present import legend, pages, picture
from grundy.present.figures.trajectory import plot
from grundy.present.literature import literature, published_status
from grundy.present.site import code_files, script_constants, values_script, write_report
from grundy.present.svg import ticks
from grundy.readings.tallies import tallies
from grundy.readings.trajectory import KINDS, trajectory

CODES = ["·137", "·226", "·07", "·6", "·16", "·2", "·45", "0x·f", "·1", "·01"]
HEAPS = 2400


class Page(HTMLParser):
    """The links, images, index rows and the text of one HTML file."""

    def __init__(self):
        super().__init__()
        self.links, self.images, self.rows, self.cells, self.text = [], [], [], {}, []
        self._row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a and not a["href"].startswith(("#", "https://")):
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a["src"])
        if tag == "script" and "src" in a:
            self.links.append(a["src"])
        if tag == "link":
            self.links.append(a["href"])
        if tag == "tr" and "data-code" in a:
            self.rows.append((a["data-code"], a["data-status"]))
            self._row = a["data-code"]
            self.cells[self._row] = []
        if tag == "td" and self._row:
            self.cells[self._row].append("")

    def handle_data(self, data):
        self.text.append(data)
        if self._row and self.cells[self._row]:
            self.cells[self._row][-1] += data

    def handle_endtag(self, tag):
        if tag == "tr":
            self._row = None


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    return page


def target(page: Path, ref: str) -> Path:
    return (page.parent / unquote(urlsplit(ref).path)).resolve()


def page_of(root: Path, code: str) -> str:
    return (root / "site" / "codes" / f"{file_name(code)}.html").read_text("utf-8")


def script_json(text: str, name: str):
    return json.loads(re.search(rf'id="{name}">(.*?)</script>', text, re.DOTALL).group(1))


def readings_of(root: Path, text: str) -> list[list[int]]:
    """The false readings a page carries (in the page or in its shared file), decoded from the five
    differences each: ``[start, period, first depth, last depth, held to]``."""
    ref = re.search(r'<script src="\.\./(readings/[^"]+)"></script>', text)
    script = (root / "site" / ref.group(1)).read_text() if ref else text
    flat = json.loads(re.search(r"var grundyReadings=(\[.*?\]);", script).group(1))
    rows, start = [], 0
    for i in range(0, len(flat), 5):
        start += flat[i]
        first = start + flat[i + 2]
        last = first + flat[i + 3]
        rows.append([start, flat[i + 1], first, last, last + flat[i + 4]])
    return rows


def read_png(data: bytes) -> np.ndarray:
    """The palette indices of a PNG written by :mod:`grundy.present.picture` (filter 0 on every row)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])[0] == zlib.crc32(kind + body)
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + n
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    raw = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), dtype=np.uint8).reshape(height, width + 1)
    assert not raw[:, 0].any()
    return raw[:, 1:]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    with Catalogue(root / "c.sqlite") as cat:
        run(CODES, cat, heaps=HEAPS)
        outcome = write_report(cat, root / "site")
        results = {r["code"]: r for r in cat.results()}
    return root, outcome, results


def test_one_row_and_one_page_per_code(site):
    root, outcome, _ = site
    assert (outcome.codes, outcome.written, outcome.kept) == (len(CODES), len(CODES), 0)
    index = parse(root / "site" / "index.html")
    assert sorted(code for code, _ in index.rows) == sorted(CODES)
    assert dict(index.rows)["·137"] == "settled" and dict(index.rows)["·6"] == "growing"
    pages = sorted(p.name for p in (root / "site" / "codes").glob("*.html"))
    assert pages == sorted(f"{file_name(c)}.html" for c in CODES)


def test_every_link_resolves_and_every_grid_is_a_png(site):
    root, _, _ = site
    pages = list((root / "site").rglob("*.html"))
    assert len(pages) == len(CODES) + 2
    images = 0
    for page in pages:
        parsed = parse(page)
        for ref in parsed.links:
            assert target(page, ref).is_file(), f"{page.name}: broken link {ref}"
        for ref in parsed.images:
            read_png(target(page, ref).read_bytes())
            images += 1
    assert images == len(CODES)


def test_codes_with_the_same_values_share_their_files(site):
    root, _, results = site
    same = [c for c in CODES if results[c]["values_sha256"] == results["·137"]["values_sha256"]]
    assert same == ["·137"] or all(code_files(results[c])[1] == code_files(results["·137"])[1] for c in same)
    grids = {code_files(results[c])[1] for c in CODES}
    assert sorted(p.name for p in (root / "site" / "grids").iterdir()) == sorted(g.split("/")[1] for g in grids)


def test_the_period_block_is_written_wherever_the_period_starts(site):
    root, _, results = site
    for code in ("·137", "·45"):
        r = results[code]
        text = page_of(root, code)
        block = re.search(r'<pre class="block" id="period">(.*?)</pre>', text, re.DOTALL).group(1)
        marked = re.search(r"<mark[^>]*>(.*?)</mark>", block).group(1).split()
        assert int(marked[0].replace(",", "")) == r["start"]
        assert [int(x) for x in marked[1:]] == compute(code, r["start"] + r["period"])[r["start"]:].tolist()
        plain = re.sub(r"<[^>]+>", "", block)
        values = [int(x) for line in plain.splitlines() for x in line.split()[1:]]
        assert values == compute(code, r["start"] + r["period"]).tolist()
    assert "Period 20 from heap 498" in page_of(root, "·45")


def test_settled_pages_give_the_literature_and_the_download_data(site):
    root, _, results = site
    text = page_of(root, "·137")
    assert "Period 34 from heap 52, certified at depth 175 (the window 2s + 2p + t = 175)" in text
    assert 'class="verdict agrees"' in text and "A002187" in text and 'href="0.4.html"' not in text
    data = script_json(text, "values-data")
    assert data["head"] == compute("·137", 86).tolist() and (data["start"], data["period"]) == (52, 34)
    keys = ("start", "period", "first_depth", "last_depth", "held_to")
    assert readings_of(root, text) == [[fr[k] for k in keys] for fr in results["·137"]["false_readings"]]
    assert '<span class="pub solved">solved</span>' in page_of(root, "·45")


def test_equivalent_games_are_linked_when_the_site_has_them(site):
    root, _, _ = site
    assert re.search(r'same game as</dt><dd><a href="0\.1\.html">·1</a>', page_of(root, "·01"))
    assert "same game as</dt><dd>·4 " in page_of(root, "·137")


def test_long_lists_of_readings_are_shared_by_codes_with_the_same_values(site):
    root, _, results = site
    r = results["·45"]
    assert len(r["false_readings"]) > 40 and code_files(r)[-1].startswith("readings/")
    text = page_of(root, "·45")
    assert len(readings_of(root, text)) == len(r["false_readings"])
    assert len(text) < 8000


def test_hexadecimal_pages_state_their_window(site):
    root, _, results = site
    assert results["0x·f"]["status"] == "settled"
    assert "3(s + p) + t = 10" in page_of(root, "0x·f")


def test_unsettled_pages_say_how_to_go_further_and_call_nothing_false(site):
    root, _, _ = site
    text = page_of(root, "·16")
    assert "Not settled within 2,400 heaps" in text
    published = game("·16")  # solved: the suggestion reaches the window of the published period
    assert f"grundy settle ·16 --max-heaps {published.window}</code>" in text
    assert f"the published period 149,459 from heap {published.start:,} is certified at depth" in text
    unsolved = game("·6")  # computed without a period: the suggestion goes past where the tables went
    assert f"grundy settle ·6 --max-heaps {2 * unsolved.heaps}</code>" in page_of(root, "·6")
    assert f"computed it to {unsolved.heaps:,} heaps without finding a period" in page_of(root, "·6")
    assert "sparse space" in text and "rare heaps below 2,400" in text
    assert "unrelated" not in text and "before the final start" not in text and "False readings" not in text
    assert '<span class="pub solved">solved</span>' in text and 'class="verdict not-compared"' in text
    assert "published period 149,459 from heap 105,351" in text
    assert '<span class="pub unsolved">unsolved</span>' in page_of(root, "·6")
    values = script_json(text, "values-data")
    script = (root / "site" / "codes" / values["file"]).resolve().read_text()
    dtype, n, b64 = re.match(r'grundyValues\("\w+","(u[24])",(\d+),"(.*)"\);', script).groups()
    got = np.frombuffer(zlib.decompress(base64.b64decode(b64)), dtype="<" + dtype)
    assert int(n) == HEAPS and got.tolist() == compute("·16", HEAPS).tolist()


def test_published_statuses_say_what_they_mean(site):
    """"published status: trivial" was not explained."""
    root, _, _ = site
    for code, status, meaning in (("·137", "trivial", "found its period below 1,000 heaps"),
                                  ("·45", "solved", "found its period, past 1,000 heaps"),
                                  ("·6", "unsolved", "found no period")):
        assert f'<span class="pub {status}">{status}</span> (the published tables {meaning})' in page_of(root, code)


def test_bounded_is_a_description_at_the_depth_read_not_a_proof():
    """Pages of growing codes said so; pages of bounded-unsettled codes did not."""
    from grundy.present.pages import summary

    for status in ("growing", "bounded_unsettled"):
        text = summary({"status": status, "heaps": 300, "code": "·14"})
        assert "Not settled within 300 heaps" in text and "a description at this depth, not a proof" in text


def test_index_counts_false_readings_on_settled_codes_only(site):
    root, _, results = site
    cells = parse(root / "site" / "index.html").cells
    assert cells["·16"][-1] == "" and cells["·6"][-1] == ""
    assert cells["·137"][-1] == str(len(results["·137"]["false_readings"]))
    assert cells["·137"][8] == "trivial" and cells["·45"][8] == "solved" and cells["·6"][8] == "unsolved"
    assert cells["·07"][6] == "6+position"


def test_literature_compares_starts_only_where_it_can(site):
    _, _, results = site
    assert literature(results["·45"], compute("·45", HEAPS)).agrees is True
    wrong = dict(results["·45"], start=497)
    lit = literature(wrong, compute("·45", HEAPS))
    assert lit.agrees is False and "start 497 here, 498 published" in lit.note
    lit = literature(results["·226"], compute("·226", HEAPS))
    assert (lit.game, lit.shift, lit.agrees) == ("·226", 1, True)
    assert literature(results["·16"], compute("·16", HEAPS)).agrees is None
    assert published_status("·1234") is None and published_status("·77") == "trivial"


def test_tallies_page_draws_its_figures_as_svg(site):
    root, _, results = site
    settled = sum(r["status"] == "settled" for r in results.values())
    text = (root / "site" / "tallies.html").read_text("utf-8")
    assert text.count("<svg") == 4 and f"settled {settled}</a>" in text and 'id="sources"' in text


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 10**7), st.integers(1, 10**7), st.integers(2, 8))
def test_ticks_are_round_integers_inside_the_axis(lo, span, most):
    hi = lo + span
    got = ticks(lo, hi, most)
    assert got and all(isinstance(t, int) and lo <= t <= hi for t in got)
    assert len(got) <= most
    steps = {b - a for a, b in itertools.pairwise(got)}
    assert len(steps) <= 1
    for step in steps:
        assert str(step).rstrip("0") in ("1", "2", "5")


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 300), min_size=1, max_size=400), st.integers(1, 40),
       st.none() | st.integers(0, 50))
def test_grid_puts_heap_n_in_its_row_and_column(values, width, start):
    values = np.array(values)
    grid = read_png(picture.png(values, width, start))
    first = 0 if start is None else start % width
    idx = picture.indices(values)
    for n in range(values.size):
        k = n + (width - first) % width
        assert grid[k // width, k % width] == idx[n]
    assert (grid == picture.EMPTY).sum() == grid.size - values.size


def test_a_png_carries_the_palette_of_its_values():
    values = np.array([0, 3, 15, 2, 1])
    data = picture.png(values, 4)
    assert read_png(data).ravel().tolist() == [0, 3, 15, 2, 1, *[picture.EMPTY] * 3]
    plte = data[data.index(b"PLTE") + 4 :][: 3 * 256]
    assert plte[: 3 * 16] == bytes.fromhex("".join(picture.CATEGORICAL))
    assert plte[3 * picture.EMPTY :] == bytes.fromhex("f6f8fa")


def test_pages_escape_every_value_they_print(site):
    _, _, results = site
    r = results["·45"]
    values = compute("·45", HEAPS)
    deeper = {"settled": True, "period": 34, "start": 498, "heaps": 2 * HEAPS, "window": 1038,
              "same_game_as": "<i>&amp;", "proof": ["a < b"]}
    text = pages.code_page(r, values, literature=literature(r, values), grid=("g.png", 34, 100),
                           settlement=deeper, source="x&<y>'")
    assert "<i>" not in text and "&lt;i&gt;&amp;amp;" in text and "(a &lt; b)" in text
    assert "from x&amp;&lt;y&gt;&#x27;;" in text, "the entities of the hand-written pages"
    odd = {**r, "code": "·45<&"}
    index = pages.index_page([odd], {odd["code"]: {"mask": "<m>", "class": "&"}}, tallies([odd]), "s")
    assert 'data-code="·45&lt;&amp;"' in index and "<td>&lt;m&gt;</td>" in index and "<td>&amp;</td>" in index
    assert "<m>" not in index


def test_the_readings_give_the_script_their_kinds(site):
    root, _, results = site
    settled = [r for r in results.values() if r["status"] == "settled" and r["false_readings"]]
    assert settled
    for r in settled:
        text = page_of(root, r["code"])
        ref = re.search(r'<script src="\.\./(readings/[^"]+)"></script>', text)
        script = (root / "site" / ref.group(1)).read_text() if ref else text
        kinds = json.loads(re.search(r"var grundyKinds=(\[.*?\]);", script).group(1))
        assert [KINDS[k] for k in kinds] == [fr["kind"] for fr in r["false_readings"]]


def test_the_script_restates_no_word_or_colour_it_is_given(site):
    root, _, _ = site
    source = (Path(pages.__file__).parent / "assets" / "site.js").read_text("utf-8")
    given = script_constants()
    for word in [*legend.KIND_CELLS.values(), *legend.KIND_WORDS.values(), *legend.KIND_COLOURS.values(),
                 legend.OPEN_COLOUR, legend.FINAL_COLOUR]:
        assert word not in source, word
    served = (root / "site" / "assets" / "site.js").read_text("utf-8")
    head, _, rest = served.partition("\n")
    assert json.loads(head.removeprefix("var grundyConstants=").removesuffix(";")) == given
    assert rest == source
    assert given["kinds"] == [legend.KIND_CELLS[k] for k in KINDS]


def test_the_figures_and_the_site_draw_a_kind_in_one_colour():
    from matplotlib.colors import to_hex

    tr = trajectory(compute("·16", HEAPS), "·16")
    assert {f.kind for f in tr.false_readings} == set(KINDS)
    ax = plot(tr).axes[2]
    drawn = [to_hex(c) for c in ax.collections[0].get_colors()]
    site_colours = script_constants()["kindColours"]
    assert drawn == [site_colours[KINDS.index(f.kind)] for f in tr.false_readings]
    legend_colours = {line.get_label(): to_hex(line.get_color()) for line in ax.get_lines()}
    assert all(legend_colours[legend.KIND_WORDS[k]] == site_colours[i] for i, k in enumerate(KINDS))


def test_values_script_is_little_endian_deflated():
    values = np.array([0, 1, 70000, 3])
    text = values_script({"values_sha256": "ab" * 32}, values)
    b64 = re.search(r',"([^"]+)"\);', text).group(1)
    assert np.frombuffer(zlib.decompress(base64.b64decode(b64)), "<u4").tolist() == values.tolist()


def test_rerun_writes_only_new_pages_and_drops_old_ones(tmp_path):
    db, out = tmp_path / "c.sqlite", tmp_path / "site"
    codes = ["·137", "·226", "·07", "·6"]
    with Catalogue(db) as cat:
        run(codes[:2], cat, heaps=600)
        first = write_report(cat, out)
        kept = out / "codes" / f"{file_name(codes[0])}.html"
        stamp = kept.stat().st_mtime_ns
        again = write_report(cat, out)
        run(codes[2:3], cat, heaps=600)
        more = write_report(cat, out)
        run(codes[3:4], cat, heaps=300)
        deepest = write_report(cat, out)
        only_600 = write_report(cat, out, heaps=600)
        gone = {r["code"]: r for r in cat.results(heaps=300)}[codes[3]]
    assert (first.written, again.written, again.kept) == (2, 0, 2)
    assert (more.codes, more.written, more.kept) == (3, 1, 2)
    assert (deepest.codes, deepest.written) == (4, 1)
    assert kept.stat().st_mtime_ns == stamp
    assert (only_600.codes, only_600.written, only_600.removed) == (3, 0, 1)
    assert not any((out / f).exists() for f in code_files(gone))
    rows = parse(out / "index.html").rows
    assert sorted(c for c, _ in rows) == sorted(codes[:3])


def test_file_names_are_ascii_and_distinct():
    names = [file_name(str(c)) for c in family(3)] + [file_name("4·07"), file_name("0x·9"), file_name("0x4·9")]
    assert len(set(names)) == len(names)
    assert all(n.isascii() and "/" not in n for n in names)
    assert (file_name("·137"), file_name("4·07"), file_name("0x·9")) == ("0.137", "4.07", "0x0.9")


def test_cli(tmp_path):
    db = tmp_path / "c.sqlite"
    with Catalogue(db) as cat:
        run(CODES[:2], cat, heaps=500)
    cmd = [sys.executable, "-m", "grundy", "report", "--db", str(db), "--out", str(tmp_path / "s"), "--json"]
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert (obj["codes"], obj["written"]) == (2, 2)
    missing = subprocess.run([*cmd[:5], str(tmp_path / "none.sqlite"), *cmd[6:]], check=False,
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "none.sqlite" in missing.stderr


def test_a_settlement_moved_from_another_code_says_so():
    moved = {"settled": True, "period": 20, "start": 498, "heaps": 1039, "window": 1038,
             "same_game_as": "·177", "shift": -1, "proof": ["heap n of ·45 is worth heap n - 1 of ·177"]}
    text = pages.settlement_text(moved)
    assert "values are ·177's moved by 1 heap, by the codes' rules" in text and "same game" not in text
    assert "certified by ·177's certificate, moved (window 1,038)" in text and "grundy settle" not in text
    still = pages.settlement_text(dict(moved, settled=False, mask=None, max=9))
    assert still.startswith("Not settled by ·177's values, computed by grundy settle, within 1,039 heaps")
    assert "same game as ·177" in pages.settlement_text({k: v for k, v in moved.items() if k != "shift"})
