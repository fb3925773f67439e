"""Values written out: the compact notation, csv, OEIS b-files, JSON, and ``grundy values --format``."""

import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.engine import compute
from grundy.present.formats import FORMATS, export, period_rows, render


def read_compact(text: str) -> tuple[int, int, list[int]]:
    """Parse the compact notation back: ``(start, period, G(0..start+period-1))``, independently of
    how it was written (the header gives the period; the starred row is the period)."""
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    start = next(int(line.split()[0].replace(",", "")) for line in lines if line.split()[1] == "*")
    period = len(lines[-1].split()) - 2
    values = [int(x) for line in lines for x in line.replace("*", "").split()[1:]]
    return start, period, values


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 400), st.integers(1, 60))
def test_period_rows_cover_every_heap_once_with_the_period_last(start, period):
    rows = period_rows(start, period)
    heaps = [h for first, count in rows for h in range(first, first + count)]
    assert heaps == list(range(start + period))
    assert rows[-1] == (start, period)
    assert all(count == period and (first - start) % period == 0 for first, count in rows if first)


@pytest.mark.parametrize(("code", "start", "period"), [("·137", 52, 34), ("·45", 498, 20), ("·226", 21, 5)])
def test_compact_notation_gives_back_every_value(code, start, period):
    values = compute(code, 3000)
    text = export(code, values, "text")
    assert f"period {period:,} from heap {start:,}, certified" in text
    s, p, head = read_compact(text)
    assert (s, p) == (start, period)
    assert head == values[: start + period].tolist()
    again = [head[n] if n < s + p else head[s + (n - s) % p] for n in range(values.size)]
    assert again == values.tolist()


def test_unsettled_text_is_plain_rows_and_other_formats_hold_every_value():
    values = compute("·6", 500)
    text = export("·6", values, "text")
    assert "period" not in text and len(text.splitlines()) == 1 + 50
    assert [int(x) for line in text.splitlines()[1:] for x in line.split()[1:]] == values.tolist()
    csv_lines = export("·6", values, "csv").splitlines()
    assert csv_lines[0] == "n,G(n)" and csv_lines[1:] == [f"{n},{v}" for n, v in enumerate(values.tolist())]
    bfile = export("·6", values, "bfile").splitlines()
    assert bfile == [f"{n} {v}" for n, v in enumerate(values.tolist())]
    obj = json.loads(export("·6", values, "json"))
    assert obj["values"] == values.tolist() and obj["period"] is None and obj["heaps"] == 500


def test_a_period_whose_window_is_not_reached_is_not_written_compactly():
    values = compute("·45", 1000)
    assert "period" not in export("·45", values, "text")
    assert "period 20 from heap 498" in export("·45", compute("·45", 1038), "text")


def test_render_refuses_an_unknown_format():
    with pytest.raises(ValueError, match="unknown format"):
        render("xml", "·137", np.zeros(3))


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_format_matches_the_library(fmt, tmp_path):
    out = subprocess.run([sys.executable, "-m", "grundy", "values", "·137", "--heaps", "300", "--format", fmt],
                         capture_output=True, text=True, check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == export("·137", compute("·137", 300), fmt)


def test_cli_format_and_json_together_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "grundy", "values", "·137", "-n", "50", "--format", "csv",
                          "--json"], capture_output=True, text=True, check=False, timeout=120)
    assert out.returncode == 2 and out.stderr.startswith("grundy: error:") and "Traceback" not in out.stderr
    bad = subprocess.run([sys.executable, "-m", "grundy", "values", "·137", "-n", "50", "--format", "xml"],
                         capture_output=True, text=True, check=False, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
