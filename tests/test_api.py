"""The notebook API: grundy.values / load / settle / position, Sequence methods, reprs, doctests."""

import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import grundy
from grundy import rare
from grundy.engine import compute
from grundy.engine.reference import grundy_values
from grundy.readings import periods, trajectory
from naive import naive_reading


@pytest.mark.parametrize("name", ["grundy", "grundy.sequence", "grundy.readings.settle", "grundy.readings.position"])
def test_docstring_examples_run(name):
    """The examples in the docstrings (the notebook session of the package's docstring too)."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_the_api_page_runs():
    """Every example of docs/api.md, the notebook guide."""
    page = Path(__file__).resolve().parents[1] / "docs" / "api.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20 and result.failed == 0


def test_a_sequence_behaves_like_its_values():
    s = grundy.values("·137", 500)
    ref = grundy_values(grundy.parse("·137"), 500)
    assert len(s) == 500 and s[0] == 0 and s[499] == ref[499] and isinstance(s[7], int)
    assert s[10:20].tolist() == ref[10:20] and list(s)[:30] == ref[:30]
    assert isinstance(s.values, np.ndarray) and s.values.dtype == np.uint8
    longer = s.extend(800)
    assert len(longer) == 800 and longer[:500].tolist() == ref and len(s) == 500


def test_save_and_load(tmp_path):
    s = grundy.values("·45", 1000)
    s.save(tmp_path / "s45")
    back = grundy.load(tmp_path / "s45")
    assert back.code == s.code and np.array_equal(back.values, s.values)


def test_the_analyses_are_the_modules_functions():
    s = grundy.values("·226", 300)
    g = s.values.tolist()
    r = s.reading(120)
    assert (r.start, r.period) == naive_reading(g, 120)
    assert s.reading() == periods.reading(s.values, s.code)
    t = s.trajectory()
    assert t.to_dict() == trajectory.trajectory(s.values, s.code).to_dict()
    assert s.arithmetic_reading() == periods.arithmetic_reading(s.values, s.code)


def test_rare_counts_and_ledger_from_a_sequence():
    s = grundy.values("·6", 4000)
    arr = s.rare(mask=1, parity=1, after=1000)
    assert arr.cls == rare.RareClass(1, 1) and arr.after == 1000
    assert np.array_equal(arr.rare, rare.rare_heaps(s.values, rare.RareClass(1, 1), 1000))
    fewest = s.rare(after=100)
    c = fewest.cls
    counts = [int(rare.RareClass(m, 0).contains(s.values[1:]).sum()) for m in range(1, 256)]
    assert c.parity == 0 and counts[c.mask - 1] == min(counts)
    k = s.counts(3, lo=100, hi=400)
    assert k.to_dict() == rare.counts(s.code, s.values, 3, lo=100, hi=400).to_dict()
    led = s.ledger(3, below=500)
    assert led.to_dict() == rare.ledger(s.code, s.values, 3, below=500).to_dict()


def test_reprs_say_what_a_researcher_needs():
    s = grundy.values("·137", 3000)
    assert "period 34 from heap 52, certified (window 175)" in repr(s)
    html = s._repr_html_()
    assert "<table>" in html and "·137" in html and "window 175" in html
    st = grundy.settle("·6", 2000)
    assert "not settled within 2,000 heaps" in repr(st)
    assert "not settled" in st._repr_html_() and "even class of mask" in st._repr_html_()
    assert "certified" in grundy.settle("·156")._repr_html_()


def test_every_result_prints_in_one_line_and_as_a_table():
    """``Trajectory``, ``Arrivals``, ``Counts`` and ``Ledger`` printed their whole contents (a ledger
    ran to thousands of characters); each now prints one line, and every result has an HTML form."""
    s = grundy.values("·354", 3000)
    led = s.ledger(37)
    assert len(str(led.to_dict())) > 2000
    results = {
        "trajectory": (s.trajectory(), ["·354", "not certified within 3,000 heaps"]),
        "certified": (grundy.values("·137", 300).trajectory(), ["certified period 34 from heap 52 at depth 175"]),
        "arrivals": (s.rare(mask=1, parity=1, after=500), ["odd class of mask 1", "from heap 500"]),
        "counts": (s.counts(37), ["value 37", "heaps 300..2,999"]),
        "ledger": (led, ["value 37", "suppliers below 5,000", "top 1"]),
        "position": (grundy.position("·137", [10**7, 12, 6]), ["value 2", "progressions of splits"]),
    }
    for name, (result, words) in results.items():
        line = repr(result)
        assert "\n" not in line and len(line) < 400, (name, line)
        assert all(w in line for w in words), (name, line)
        html = result._repr_html_()
        assert html.startswith("<table>") and "·" in html, name
    assert "294,125 in all" in results["position"][0]._repr_html_()
    cat = grundy.survey(["·137", "·6"], 300)
    html = cat._repr_html_()
    assert "<table>" in html and "1 settled" in html and "1 growing" in html and "·137" in html


def test_the_table_has_column_names_with_pandas_or_without(monkeypatch):
    """``Catalogue.table()`` is a DataFrame where pandas is installed, else a numpy structured array;
    both have the same column names and the same numbers (a missing one: -1, or pandas' NA)."""
    cat = grundy.survey(["·137", "·6", "·45"], 1200)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    plain = cat.table()
    assert isinstance(plain, np.ndarray) and plain.dtype.names[:4] == ("code", "t", "heaps", "status")
    assert plain["code"].tolist() == ["·6", "·45", "·137"] and plain["period"].tolist() == [-1, 20, 34]
    assert plain.dtype.names[-1] == "false_readings"
    monkeypatch.delitem(sys.modules, "pandas")
    pandas = pytest.importorskip("pandas")
    frame = cat.table()
    assert isinstance(frame, pandas.DataFrame) and tuple(frame.columns) == plain.dtype.names
    for column in ("start", "period", "window", "max_value", "false_readings"):
        assert frame[column].fillna(-1).tolist() == plain[column].tolist(), column
    assert frame["status"].tolist() == plain["status"].tolist()


def test_help_starts_with_what_a_newcomer_needs():
    import pydoc

    text = pydoc.render_doc(grundy, renderer=pydoc.plaintext)
    described = text.split("DESCRIPTION", 1)[1]
    start = described[: described.index("A notebook session")]
    for name in ("values(code, heaps)", "settle(code)", "position(code, heaps)", "survey(codes", "load(path)"):
        assert name in start, name


def test_figures_leave_pyplot_alone():
    """Figures are Figure objects made without pyplot: the caller's backend is untouched."""
    code = """
import matplotlib
matplotlib.use("svg")
import sys, grundy
from grundy.present.figures.trajectory import plot
fig = plot(grundy.values("·137", 300).trajectory())
assert type(fig).__name__ == "Figure", type(fig)
assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
assert "matplotlib.pyplot" not in sys.modules
"""
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_import_grundy_loads_no_compiler():
    code = "import sys, grundy; grundy.readings.settle; grundy.readings.position; assert 'numba' not in sys.modules"
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr


def test_compute_agrees_with_values():
    assert np.array_equal(grundy.values("·77", 200).values, compute("·77", 200))


def test_survey_returns_a_catalogue_to_query(tmp_path):
    cat = grundy.survey(["·137", "·45", "·6"], 1200, tmp_path / "c.sqlite")
    table = cat.table(1200)
    assert sorted(table["code"].tolist()) == ["·137", "·45", "·6"]
    assert cat.record("·137")["window"] == 175 and cat.record("·6")["status"] == "growing"
    assert (cat.record("·45")["start"], cat.record("·45")["period"]) == (498, 20)
    assert table["period"][table["code"] == "·137"].tolist() == [34]  # a DataFrame or an array
    assert cat.tallies(1200)["codes"] == 3 and "3 results" in repr(cat)
    with pytest.raises(grundy.GrundyError):
        cat.record("·77")
    cat.close()
    again = grundy.survey(["·137"], 1200, tmp_path / "c.sqlite")
    assert len(again.table()) == 3
