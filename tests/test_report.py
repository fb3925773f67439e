"""The static report: one row and one page per code, every link and image there, updates in place."""

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from grundy.catalogue import Catalogue
from grundy.codes import family
from grundy.report import code_files, slug, write_report
from grundy.survey import run

CODES = ["·137", "·226", "·07", "·6", "·16", "·2"]
HEAPS = 2400


class Page(HTMLParser):
    """The links, images and index rows of one HTML file."""

    def __init__(self):
        super().__init__()
        self.links, self.images, self.rows = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a["src"])
        if tag == "script" and "src" in a:
            self.links.append(a["src"])
        if tag == "link":
            self.links.append(a["href"])
        if tag == "tr" and "data-code" in a:
            self.rows.append((a["data-code"], a["data-status"]))


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    return page


def target(page: Path, ref: str) -> Path:
    return (page.parent / unquote(urlsplit(ref).path)).resolve()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    with Catalogue(root / "c.sqlite") as cat:
        run(CODES, cat, heaps=HEAPS)
        outcome = write_report(cat, root / "site")
    return root, outcome


def test_one_row_and_one_page_per_code(site):
    root, outcome = site
    assert (outcome.codes, outcome.written, outcome.kept) == (len(CODES), len(CODES), 0)
    index = parse(root / "site" / "index.html")
    assert sorted(code for code, _ in index.rows) == sorted(CODES)
    assert dict(index.rows)["·137"] == "settled" and dict(index.rows)["·6"] == "growing"
    pages = sorted(p.name for p in (root / "site" / "codes").glob("*.html"))
    assert pages == sorted(f"{slug(c)}.html" for c in CODES)


def test_every_link_resolves_and_every_image_exists(site):
    root, _ = site
    pages = list((root / "site").rglob("*.html"))
    assert len(pages) == len(CODES) + 2
    images = 0
    for page in pages:
        parsed = parse(page)
        for ref in parsed.links:
            assert target(page, ref).is_file(), f"{page.name}: broken link {ref}"
        for ref in parsed.images:
            img = target(page, ref)
            assert img.is_file(), f"{page.name}: missing image {ref}"
            assert img.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{ref} is not a PNG"
            images += 1
    assert images == 2 * len(CODES) + 3


def test_code_pages_show_what_they_should(site):
    root, _ = site
    page = (root / "site" / "codes" / f"{slug('·137')}.html").read_text("utf-8")
    assert "Period 34 from heap 52, certified at depth 175" in page
    assert '<td class="start">' in page and "Rare classes" not in page
    unsettled = (root / "site" / "codes" / f"{slug('·16')}.html").read_text("utf-8")
    assert "Rare classes" in unsettled and "Not settled within 2,400 heaps" in unsettled
    tallies = (root / "site" / "tallies.html").read_text("utf-8")
    assert "figures/reach.png" in tallies and "settled 4</a>" in tallies


def test_rerun_writes_only_new_pages_and_drops_old_ones(tmp_path):
    db, out = tmp_path / "c.sqlite", tmp_path / "site"
    with Catalogue(db) as cat:
        run(CODES[:2], cat, heaps=600)
        first = write_report(cat, out)
        kept = out / "codes" / f"{slug(CODES[0])}.html"
        stamp = kept.stat().st_mtime_ns
        again = write_report(cat, out)
        run(CODES[2:3], cat, heaps=600)
        more = write_report(cat, out)
        run(CODES[3:4], cat, heaps=300)
        deepest = write_report(cat, out)
        only_600 = write_report(cat, out, heaps=600)
    assert (first.written, again.written, again.kept) == (2, 0, 2)
    assert (more.codes, more.written, more.kept) == (3, 1, 2)
    assert (deepest.codes, deepest.written) == (4, 1)
    assert kept.stat().st_mtime_ns == stamp
    assert (only_600.codes, only_600.written, only_600.removed) == (3, 0, 1)
    assert not any((out / "codes" / f).exists() for f in code_files(CODES[3]))
    rows = parse(out / "index.html").rows
    assert sorted(c for c, _ in rows) == sorted(CODES[:3])


def test_file_names_are_ascii_and_distinct():
    names = [slug(str(c)) for c in family(3)] + [slug("4·07"), slug("0x·9"), slug("0x4·9")]
    assert len(set(names)) == len(names)
    assert all(n.isascii() and "/" not in n for n in names)
    assert (slug("·137"), slug("4·07"), slug("0x·9")) == ("0.137", "4.07", "0x0.9")


def test_cli(tmp_path):
    db = tmp_path / "c.sqlite"
    with Catalogue(db) as cat:
        run(CODES[:2], cat, heaps=500)
    cmd = [sys.executable, "-m", "grundy", "report", "--db", str(db), "--out", str(tmp_path / "s"),
           "--workers", "1", "--json"]
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert (obj["codes"], obj["written"]) == (2, 2)
    missing = subprocess.run([*cmd[:5], str(tmp_path / "none.sqlite"), *cmd[6:]], check=False, capture_output=True, text=True)
    assert missing.returncode == 2 and "none.sqlite" in missing.stderr
