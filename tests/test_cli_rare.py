"""``grundy rare``, ``counts``, ``ledger``, ``rare-survey``: JSON keys, tables, figures, errors."""

import json
import subprocess
import sys

import numpy as np
import pytest

from grundy import rare as R
from grundy.catalogue.database import Catalogue
from grundy.cli import main
from grundy.codes import parse
from grundy.engine import compute
from grundy.sequence import Sequence
from test_rare import ARRIVAL_KEYS


def run(capsys, *args):
    """Run the CLI in this process; returns (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def run_json(capsys, *args):
    rc, out, err = run(capsys, *args, "--json")
    assert rc == 0, err
    return json.loads(out)


RARE = [
    "rare",
    "·354",
    "--heaps",
    "3000",
    "--after",
    "500",
    "--block",
    "1000",
    "--max-period",
    "800",
    "--window",
    "400",
]


def test_rare_json_has_exactly_the_keys_of_the_issue(capsys):
    d = run_json(capsys, *RARE)
    assert list(d) == ARRIVAL_KEYS
    assert list(d["gaps"]) == ["count", "min", "max", "mean", "sd", "ratio", "longest"]
    assert list(d["residues"]) == [str(m) for m in range(2, 25)]
    g = compute("·354", 3000)
    a = R.arrivals("·354", g, R.RareClass(1, 1), after=500, block=1000, max_period=800, window=400)
    assert d == json.loads(json.dumps(a.to_dict(), ensure_ascii=False))
    assert d["code"] == "·354" and d["mask"] == 1 and d["parity"] == 1 and len(d["blocks"]) == 3
    assert all(n >= 500 and v % 2 == 1 for n, v in d["rare"])


def test_rare_parity_zero_and_table(capsys):
    d = run_json(capsys, *RARE, "--mask", "63", "--parity", "0")
    assert d["mask"] == 63 and d["parity"] == 0
    assert all((v & 63).bit_count() % 2 == 0 for _, v in d["rare"])
    rc, out, _ = run(capsys, *RARE, "--mask", "63", "--parity", "0")
    assert rc == 0 and "sparse-space" in out
    rc, out, _ = run(capsys, *RARE)
    assert rc == 0
    for word in (
        "XOR respects",
        "gaps",
        "sd/mean",
        "residues",
        "mod 24",
        "first modulus",
        "tail period",
        "thirds",
    ):
        assert word in out


def test_rare_plots(capsys, tmp_path):
    rc, _, err = run(capsys, *RARE, "--plots", str(tmp_path))
    assert rc == 0, err
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["0.354-m1p1-blocks.png", "0.354-m1p1-gaps.png", "0.354-m1p1-strip.png"]
    assert all(p.stat().st_size > 1000 for p in tmp_path.iterdir())


def test_counts_json_keys_and_values(capsys):
    d = run_json(capsys, "counts", "·354", "--value", "37", "--heaps", "2000", "--from", "1000")
    assert list(d) == ["code", "value", "from", "to", "moves", "splits"]
    keys = ["mean", "zero", "zero_worth_value", "zero_worth_less", "poisson_zero"]
    assert list(d["moves"]) == keys and list(d["splits"]) == keys
    c = R.counts("·354", compute("·354", 2000), 37, lo=1000)
    assert d == json.loads(json.dumps(c.to_dict(), ensure_ascii=False))
    rc, out, _ = run(capsys, "counts", "·354", "-v", "37", "-n", "2000", "--from", "1000")
    assert rc == 0 and "move count (every move)" in out and "split count (splits only)" in out


def test_ledger_json_table_and_plot(capsys, tmp_path):
    args = ["ledger", "·354", "--value", "37", "--heaps", "3000", "--below", "500"]
    d = run_json(capsys, *args)
    assert list(d) == [
        "code",
        "value",
        "heaps",
        "below",
        "mask",
        "parity",
        "rare_total",
        "reached",
        "single",
        "supplies_all",
        "supplies_below",
        "shares",
        "suppliers",
        "summary",
    ]
    assert list(d["shares"]) == ["1", "5", "10", "50"]
    assert all(len(row) == 4 and row[0] < 500 for row in d["suppliers"])
    rc, out, _ = run(capsys, *args, "--top", "3", "--plots", str(tmp_path))
    assert rc == 0 and "supplies" in out and "The largest supplier" in out
    assert [p.name for p in tmp_path.iterdir()] == ["0.354-ledger-37.png"]


def test_rare_survey(capsys):
    d = run_json(capsys, "rare-survey", "--digits", "1", "--heaps", "600")
    assert list(d) == [
        "heaps",
        "sigmas",
        "growing_only",
        "codes_read",
        "codes_searched",
        "codes_with_thinning",
        "classes",
        "codes",
    ]
    assert d["codes_read"] == 7 and d["growing_only"]
    every = run_json(capsys, "rare-survey", "--digits", "1", "--heaps", "600", "--all-codes")
    assert every["codes_searched"] == 7 and not every["growing_only"]
    rc, out, _ = run(capsys, "rare-survey", "--digits", "1", "--heaps", "600", "--all-codes")
    assert rc == 0 and "codes read" in out and "rare heaps per third" in out


def test_rare_survey_stores_each_code_and_resumes(capsys, tmp_path, monkeypatch):
    db = str(tmp_path / "r.sqlite")
    args = ("rare-survey", "--digits", "2", "--heaps", "600", "--all-codes", "--db", db)
    first = run_json(capsys, *args)
    with Catalogue(db) as cat:
        stored = list(cat.records("rare-survey"))
    assert len(stored) == 63 and first["codes_read"] == 63

    def refuse(*a, **k):
        raise AssertionError("a stored code was computed again")

    monkeypatch.setattr(R.survey, "survey_code", refuse)
    assert run_json(capsys, *args) == first


def test_a_stored_sequence_is_reused(capsys, tmp_path):
    path = tmp_path / "s354"
    g = compute("·354", 2500)
    Sequence(parse("·354"), g).save(path)
    d = run_json(capsys, *RARE, "--sequence", str(path))
    assert d == run_json(capsys, *RARE)
    assert np.array_equal(Sequence.load(path).values, compute("·354", 3000))  # extended and stored


@pytest.mark.parametrize(
    "args",
    [
        ["rare", "·8", "--heaps", "100"],
        ["rare", "·354", "--heaps", "100", "--after", "100"],  # the cut-off lies past the last heap
        ["rare", "·354", "--heaps", "100", "--after", "10", "--mask", "0"],
        ["rare", "·354", "--heaps", "100", "--after", "10", "--parity", "2"],
        ["rare", "·354", "--heaps", "100", "--after", "10", "--plots", "/dev/null/x"],
        ["counts", "·354", "--value", "3", "--heaps", "100", "--from", "0"],
        ["counts", "·354", "--value", "3", "--heaps", "100", "--from", "100"],
        ["counts", "·354", "--value", "3", "--heaps", "100", "--from", "10", "--mask", "4"],
        ["counts", "·354", "--heaps", "100"],
        ["ledger", "·354", "--value", "0", "--heaps", "100"],
        ["ledger", "0x·8", "--value", "1", "--heaps", "30"],
        ["ledger", "·354", "--value", "3", "--heaps", "100", "--below", "1"],
        ["rare-survey", "--digits", "0"],
    ],
)
def test_mistakes_are_one_line_and_exit_2(capsys, args):
    rc, out, err = run(capsys, *args)
    assert rc == 2
    assert out == ""
    assert err.startswith("grundy: error:") and err.count("\n") == 1


def test_the_installed_command_reports_a_mistake_in_one_line():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "grundy",
            "counts",
            "·354",
            "--value",
            "3",
            "--heaps",
            "50",
            "--from",
            "10",
            "--mask",
            "4",
        ],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "parity-1 class" in out.stderr
