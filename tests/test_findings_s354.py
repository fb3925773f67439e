"""docs/findings/s354.py at reduced size: the page states the run's numbers, and its figures exist."""

from __future__ import annotations

import pytest

from findings_check import load, script, unexplained

s354 = script("s354")


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("s354")
    s354.main(["--quick", "--out", str(out), "--cache", str(out / "cache")])
    return out


def test_page_numbers_come_from_the_run(quick):
    page, r = load(quick, "s354")
    blocks = [i * r["block"] for i in range(len(r["blocks"]))]
    prose = (s354.VALUE, s354.AFTER, s354.STRETCHES, s354.DRIFT, 1, 0, 100_000, *blocks)
    assert unexplained(page, r, prose) == []
    assert f"{r['odd_heaps']:,} heaps below {r['heaps']:,} are odd" in page
    for i, c in enumerate(r["blocks"]):
        assert f"| {i * r['block']:,} | {c:,} |" in page


def test_counts_add_up(quick):
    _, r = load(quick, "s354")
    assert sum(r["blocks"]) == r["odd_heaps"] == sum(r["odd_values"].values())
    assert sum(s["odd_heaps"] for s in r["stretches"]) <= r["odd_heaps"]
    assert r["zero_counts"] == sum(c["moves"]["zero"] for c in r["counts"])


def test_figures_exist(quick):
    _, r = load(quick, "s354")
    assert r["figures"]
    for f in r["figures"]:
        assert (quick / f).stat().st_size > 1000


def test_rerun_reuses_the_cache(quick):
    before = (quick / "s354.json").read_text()
    s354.main(["--quick", "--out", str(quick), "--cache", str(quick / "cache")])
    assert (quick / "s354.json").read_text() == before
