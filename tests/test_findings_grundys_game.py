"""docs/findings/grundys_game.py at reduced size: the page states the run's numbers, they add up,
the budget is resumable, and the figures exist."""

from __future__ import annotations

import json

import numpy as np
import pytest

from findings_check import load, script, unexplained
from grundy import compute
from grundy.catalogue import published
from grundy.value_classes import RareClass

grundys_game = script("grundys_game")

PROSE = (1939, 4, 0, 1, 3600)
"""Numbers of the page's prose: Grundy's year, the chapter of Winning Ways, the memoryless and the
scheduled gap ratio, the hour of the issue."""


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("grundys_game")
    grundys_game.main(["--quick", "--out", str(out), "--cache", str(out / "cache")])
    return out


def test_page_numbers_come_from_the_run(quick):
    page, r = load(quick, "grundys_game")
    assert unexplained(page, r, PROSE) == []
    assert f"computed **{r['heaps']:,} heaps**" in page
    assert "grundys_game.py --budget" in page and f"{r['seconds']:,.0f}" in page


def test_the_rare_heaps_are_the_values_own(quick):
    """Recomputed here: the rare heaps of the page's class and their values, the largest value."""
    _, r = load(quick, "grundys_game")
    g = compute("grundy", r["heaps"])
    cls = RareClass(r["mask"], 0)
    want = [[n, int(v)] for n, v in enumerate(g) if n and cls.holds(int(v))]
    assert r["rare"] == want and r["rare_heaps"] == len(want) == sum(r["rare_values"].values())
    assert (r["max"], r["argmax"]) == (int(g.max()), int(np.argmax(g)))
    assert sum(d["rare_heaps"] for d in r["doubling"]) == r["rare_heaps"]
    assert r["powers"][-1]["rare_heaps"] == r["rare_heaps"] and r["powers"][-1]["heaps"] == r["heaps"]
    assert r["records"][-1] == [r["argmax"], r["max"]]


def test_the_published_tables_agree(quick):
    _, r = load(quick, "grundys_game")
    pub = r["published"]
    assert pub["oeis"]["agree"] and pub["oeis"]["terms"] == len(published.oeis("grundy").terms)
    assert pub["flammenkamp"]["agree"] and pub["flammenkamp"]["known"] == 1287
    assert pub["czajka"] == {"heaps": published.game("grundy").heaps, "reached": False}


def test_the_family_settles_where_it_can(quick):
    _, r = load(quick, "grundys_game")
    fam = {f["n"]: f for f in r["family"]}
    assert sorted(fam) == list(range(1, 7))
    for f in fam.values():
        if f["settled"]:
            g = compute(f["code"], f["window"])
            s, p = f["start"], f["period"]
            assert np.array_equal(g[s : f["window"] - p], g[s + p : f["window"]])


def test_the_budget_counts_every_run_and_resumes(quick):
    """A second run finds the budget spent or the depth reached and computes nothing more."""
    runs = json.loads((quick / "cache" / "grundy-runs.json").read_text())
    before = (quick / "grundys_game.json").read_text()
    grundys_game.main(["--quick", "--out", str(quick), "--cache", str(quick / "cache")])
    assert json.loads((quick / "cache" / "grundy-runs.json").read_text()) == runs
    assert (quick / "grundys_game.json").read_text() == before


def test_figures_exist(quick):
    _, r = load(quick, "grundys_game")
    for f in r["figures"]:
        assert (quick / f).stat().st_size > 1000
