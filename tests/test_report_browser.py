"""The site in a real browser: headless Chromium filters, sorts, follows the summary cards and the back
button on the index, and reads a code page (its period block, published status, figure, tables and the
values its download buttons write, compared with ``grundy values --format``).

Needs Debian's ``chromium`` and ``chromium-driver`` packages and selenium (the ``test`` extra); the
test installs nothing and is skipped when any is absent.  Screenshots of the index and a code page are
kept in the pytest temporary folder (paths printed).
"""

import shutil
from pathlib import Path

import pytest

from grundy.catalogue.database import Catalogue
from grundy.catalogue.survey import run
from grundy.engine import compute
from grundy.present import legend
from grundy.present.formats import FORMATS, export
from grundy.present.site import write_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=800,1000",
)
CODES = ["·137", "·226", "·07", "·45", "·2", "·6", "·16"]
HEAPS = 2400

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="headless Chromium not found: install Debian's chromium and chromium-driver packages",
)


@pytest.fixture
def browser(tmp_path):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=DRIVER))
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    yield driver
    errors = driver.get_log("browser")
    driver.quit()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    with Catalogue(root / "c.sqlite") as cat:
        run(CODES, cat, heaps=HEAPS)
        write_report(cat, root / "site")
    return root / "site"


def visible(driver):
    """(code, status, period) of every row the index shows, top to bottom."""
    rows = driver.find_elements("css selector", "#codes tbody tr")
    return [
        (r.get_attribute("data-code"), r.get_attribute("data-status"), r.find_elements("tag name", "td")[3].text)
        for r in rows
        if r.is_displayed()
    ]


def shown(driver) -> str:
    return driver.find_element("id", "shown").text


def test_sort_filter_and_width(browser, site, tmp_path):
    browser.get((site / "index.html").as_uri())
    assert shown(browser) == f"{len(CODES)} of {len(CODES)} codes shown"
    table = browser.find_element("id", "codes")
    assert browser.execute_script("return arguments[0].getBoundingClientRect().right", table) <= 800

    period = browser.find_element("css selector", '#codes th[data-col="period"]')
    period.click()
    assert period.get_attribute("aria-sort") == "ascending"
    periods = [p for _, _, p in visible(browser)]
    numbers = [int(p) for p in periods if p]
    assert numbers == sorted(numbers) and len(numbers) == 5
    assert periods[-2:] == ["", ""], "codes with no period sort last"
    period.click()
    assert period.get_attribute("aria-sort") == "descending"
    assert [int(p) for _, _, p in visible(browser) if p] == sorted(numbers, reverse=True)

    published = browser.find_element("css selector", '#codes th[data-col="published"]')
    published.click()
    kinds = [r.find_elements("tag name", "td")[8].text for r in browser.find_elements("css selector", "#codes tbody tr")]
    assert kinds == sorted(kinds)

    browser.find_element("id", "filter").send_keys(".137")
    assert visible(browser) == [("·137", "settled", "34")]
    assert shown(browser) == f"1 of {len(CODES)} codes shown"
    assert "sort=published" in browser.current_url and "q=.137" in browser.current_url

    shot = tmp_path / "index.png"
    browser.find_element("id", "filter").clear()
    browser.find_element("id", "filter").send_keys(" ")
    browser.save_screenshot(str(shot))
    print(f"screenshot: {shot}")


def test_cards_filter_and_the_back_button_restores_each_view(browser, site):
    browser.get((site / "index.html").as_uri())
    browser.find_element("css selector", '.card[data-status="growing"]').click()
    assert [c for c, _, _ in visible(browser)] == ["·6"]
    assert shown(browser) == f"1 of {len(CODES)} codes shown"
    assert "active" in browser.find_element("css selector", '.card[data-status="growing"]').get_attribute("class")
    browser.find_element("css selector", '.card[data-status="settled"]').click()
    settled = [c for c, s, _ in visible(browser)]
    assert len(settled) == 5 and browser.find_element("id", "status").get_attribute("value") == "settled"
    browser.find_element("css selector", '#codes th[data-col="start"]').click()
    starts = [int(r.find_elements("tag name", "td")[2].text) for r in
              browser.find_elements("css selector", "#codes tbody tr") if r.is_displayed()]
    assert starts == sorted(starts)
    browser.back()
    assert len(visible(browser)) == 5
    assert browser.find_element("css selector", '#codes th[data-col="start"]').get_attribute("aria-sort") is None
    browser.back()
    assert [c for c, _, _ in visible(browser)] == ["·6"]
    browser.back()
    assert len(visible(browser)) == len(CODES) and shown(browser) == f"{len(CODES)} of {len(CODES)} codes shown"


def test_status_link_opens_a_filtered_view(browser, site):
    browser.get((site / "index.html").as_uri() + "#status=growing")
    assert [(c, s) for c, s, _ in visible(browser)] == [("·6", "growing")]
    browser.find_element("css selector", "#status option[value='']").click()
    assert len(visible(browser)) == len(CODES)


def test_a_code_page(browser, site, tmp_path):
    browser.get((site / "codes" / "0.45.html").as_uri())
    assert browser.find_element("tag name", "h1").text == "·45"
    mark = browser.find_element("css selector", "#period mark").text.split()
    assert mark[0] == "498" and [int(x) for x in mark[1:]] == compute("·45", 518)[498:].tolist()
    assert browser.find_element("css selector", ".pub").text == "solved"
    assert browser.find_element("css selector", ".verdict").text == "agrees"
    paths = browser.find_elements("css selector", "#trajectory svg path.bar")
    assert paths, "the trajectory is drawn"
    labels = [t.text for t in browser.find_elements("css selector", "#trajectory svg text.tick")]
    assert labels[0] == "0" and all(x.replace(",", "").isdigit() for x in labels)
    assert int(labels[-1].replace(",", "")) <= 1038
    rows = browser.find_elements("css selector", "#false-table tbody tr")
    total = browser.execute_script("return grundyReadings.length / 5")
    assert len(rows) == min(total, 50)
    cells = [[int(td.text.replace(",", "")) for td in r.find_elements("tag name", "td")[:6]] for r in rows]
    assert all(w == 2 * (s + p) + 2 for s, p, *_, w in cells), "the window 2s + 2p + t, t = 2"
    if total > 50:
        assert f"of {total}" in browser.find_element("css selector", ".pager").text
    with Catalogue(site.parent / "c.sqlite", readonly=True) as cat:
        false = next(r for r in cat.results() if r["code"] == "·45")["false_readings"]
    kinds = [r.find_elements("tag name", "td")[7].text for r in rows]
    assert kinds == [legend.KIND_CELLS[fr["kind"]] for fr in false[: len(rows)]], "the kinds the page carries"
    strokes = {p.get_attribute("stroke") for p in paths}
    assert strokes == {legend.KIND_COLOURS[fr["kind"]] for fr in false}, "each kind in the site's colour"
    grid = browser.find_element("css selector", "img.grid")
    browser.execute_script("arguments[0].scrollIntoView()", grid)
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", grid) == 20 * 2
    values = compute("·45", HEAPS)
    for fmt in FORMATS:
        got = browser.execute_async_script(
            "var done = arguments[1], fmt = arguments[0];"
            "var d = JSON.parse(document.getElementById('values-data').textContent);"
            "grundySite.loadValues(d, function (v) { done(grundySite.render(fmt, d, v)); });", fmt)
        assert got == export("·45", values, fmt), fmt
    shot = tmp_path / "code.png"
    browser.save_screenshot(str(shot))
    print(f"screenshot: {shot}")


def test_unsettled_values_come_from_their_file(browser, site):
    browser.get((site / "codes" / "0.16.html").as_uri())
    assert "grundy settle ·16" in browser.find_element("tag name", "main").text
    got = browser.execute_async_script(
        "var done = arguments[0], d = JSON.parse(document.getElementById('values-data').textContent);"
        "grundySite.loadValues(d, function (v) { done(grundySite.render('bfile', d, v)); });")
    assert got == export("·16", compute("·16", HEAPS), "bfile")
    assert len(browser.find_elements("css selector", "#downloads button")) == len(FORMATS)
