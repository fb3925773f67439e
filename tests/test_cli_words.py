"""What the command line says: statuses in words, what the tallies mean, a progress bar that fits."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cli_inprocess import run
from grundy.cli.common import compact, progress_bar


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("words") / "c.sqlite"
    status, out, err = run("survey", "--codes", "·14,·6,·137", "-n", "300", "--db", str(path), "--workers", "1")
    assert status == 0, err
    return path, out


def test_show_writes_a_status_in_words_and_says_it_is_no_proof(db):
    """``show ·6`` printed the raw status ``bounded_unsettled``."""
    path, _ = db
    for code, words in (("·14", "bounded, unsettled"), ("·6", "growing")):
        status, out, err = run("show", code, "--db", str(path))
        assert status == 0, err
        assert f"300 heaps: {words}\n" in out and "_" not in out.splitlines()[0]
        assert "a description at this depth, not a proof" in out.splitlines()[1]
    status, out, _ = run("show", "·137", "--db", str(path))
    assert "settled" in out.splitlines()[0] and "not a proof" not in out


def test_the_survey_says_what_its_tallies_mean(db):
    _, out = db
    text = " ".join(out.split())
    assert "Settled: the period is certified within 300 heaps, a theorem" in text
    assert "Growing and bounded describe the values at this depth and prove nothing" in text
    assert "a false reading is one the sweep reported on the way that the certificate proves wrong" in text


@pytest.mark.parametrize("width", [40, 60, 80, 100, 160])
@pytest.mark.parametrize("description, unit", [("0x·9ab: counts of 37", "heaps"), ("survey", None),
                                                ("a very long description of the work", "pages")])
def test_the_progress_bar_fits_one_line_of_the_terminal(width, description, unit):
    """The bar was cut (``223…``) and wrapped onto a second line at 80 columns."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system=None)
    bar = progress_bar(console, description, unit=unit)
    bar.add_task(description, total=100_000_000, completed=22_345_678, info="mask 1+position, 123,456 rare")
    console.print(bar.make_tasks_table(bar.tasks))
    lines = out.getvalue().rstrip("\n").split("\n")
    assert len(lines) == 1 and len(lines[0]) < width, lines
    if width >= 80:
        assert "22%" in lines[0] and "22.3M/100M" in lines[0] and "mask 1+pos" in lines[0]


@pytest.mark.parametrize("n, text", [(0, "0"), (9_999, "9,999"), (10_000, "10K"), (22_345_678, "22.3M"),
                                     (100_000_000, "100M"), (4_194_304, "4.19M"), (10**12, "1T"),
                                     (999_999, "1M"), (999_499, "999K")])
def test_compact_counts(n, text):
    assert compact(n) == text
