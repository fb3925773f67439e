"""The report in a real browser: headless Chromium sorts the index by period and filters it to one code.

Needs Debian's ``chromium`` and ``chromium-driver`` packages and selenium (the
``test`` extra); the test installs nothing and is skipped when any is absent.
The screenshot it takes is kept in the pytest temporary folder (path printed).
"""

import shutil
from pathlib import Path

import pytest

from grundy.catalogue import Catalogue
from grundy.report import write_report
from grundy.survey import run

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1280,1000",
)
CODES = ["·137", "·226", "·07", "·45", "·2", "·6", "·16"]

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
    yield driver
    errors = driver.get_log("browser")
    driver.quit()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def index(tmp_path) -> Path:
    with Catalogue(tmp_path / "c.sqlite") as cat:
        run(CODES, cat, heaps=2400)
        write_report(cat, tmp_path / "site")
    return tmp_path / "site" / "index.html"


def visible(driver):
    """(code, status, period) of every row the index shows, top to bottom."""
    rows = driver.find_elements("css selector", "#codes tbody tr")
    return [
        (r.get_attribute("data-code"), r.get_attribute("data-status"), r.find_elements("tag name", "td")[3].text)
        for r in rows
        if r.is_displayed()
    ]


def test_sort_by_period_then_filter_to_one_code(browser, index, tmp_path):
    browser.get(index.as_uri())
    assert browser.find_element("id", "shown").text == f"{len(CODES)} of {len(CODES)} codes shown"

    period = browser.find_element("css selector", '#codes th[data-col="period"]')
    period.click()
    assert period.get_attribute("aria-sort") == "ascending"
    periods = [p for _, _, p in visible(browser)]
    numbers = [int(p) for p in periods if p != "–"]
    assert numbers == sorted(numbers) and len(numbers) == 5
    assert periods[-2:] == ["–", "–"], "codes with no period sort last"
    period.click()
    assert period.get_attribute("aria-sort") == "descending"
    assert [int(p) for _, _, p in visible(browser) if p != "–"] == sorted(numbers, reverse=True)

    browser.find_element("id", "filter").send_keys(".137")
    assert visible(browser) == [("·137", "settled", "34")]
    assert browser.find_element("id", "shown").text == f"1 of {len(CODES)} codes shown"
    assert "sort=period" in browser.current_url and "q=.137" in browser.current_url

    shot = tmp_path / "report-index.png"
    browser.save_screenshot(str(shot))
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 0

    browser.find_element("link text", "·137").click()
    assert browser.find_element("tag name", "h1").text == "·137"
    images = browser.find_elements("tag name", "img")
    assert len(images) == 2
    for img in images:
        browser.execute_script("arguments[0].scrollIntoView()", img)
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", img) > 0


def test_status_link_opens_a_filtered_view(browser, index):
    browser.get(index.as_uri() + "#status=growing")
    assert [(c, s) for c, s, _ in visible(browser)] == [("·6", "growing")]
    browser.find_element("css selector", "#status option[value='']").click()
    assert len(visible(browser)) == len(CODES)
