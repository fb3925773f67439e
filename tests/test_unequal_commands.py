"""Every command with codes that carry ``!`` and with long codes (Flammenkamp's ``0.0n7``, n <= 25):
they parse, compute, survey, store, and get pages and files whose names hold no ``!``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import grundy
from cli_inprocess import one_line_error, run
from grundy.catalogue.database import Catalogue
from grundy.catalogue.survey import run as survey_run
from grundy.codes import parse
from grundy.engine import compute
from grundy.engine.reference import grundy_values
from grundy.present.site import write_report

LONG = [f"·{'0' * (n - 1)}7" for n in range(1, 26)]
"""``0.0n7``: take exactly ``n`` counters, leaving no heap, one or two."""


def test_long_codes_parse_and_compute():
    for n, text in enumerate(LONG, 1):
        code = parse(text)
        assert code.t == n and code.take_all == code.leave_one == code.split_two == (n,)
    code = parse(LONG[-1])
    assert compute(code, 200).tolist() == grundy_values(code, 200)


@pytest.mark.parametrize("code", ["grundy", "4!·0", "·64!"])
def test_values_period_readings_and_nim(code, tmp_path):
    status, out, _ = run("values", code, "--heaps", "300", "--json")
    assert status == 0
    got = json.loads(out)
    assert got["code"] == str(parse(code))
    status, out, _ = run("values", code, "--heaps", "300", "--out", str(tmp_path / "v"))
    assert status == 0 and list(tmp_path.glob("v*"))
    stored = grundy.load(tmp_path / "v")[:300]
    assert stored.tolist() == grundy_values(parse(code), 300)
    for cmd in (["period", code, "--heaps", "300"], ["readings", code, "--heaps", "300"],
                ["nim", code, "9", "14", "20"],
                ["rare", code, "--heaps", "3000", "--after", "500", "--block", "500"],
                ["rare", code, "--heaps", "3000", "--mask", "254", "--parity", "0", "--after", "100"],
                ["counts", code, "--value", "1", "--heaps", "2000", "--from", "100"],
                ["counts", code, "--value", "0", "--heaps", "800", "--from", "100"],
                ["ledger", code, "--value", "1", "--heaps", "2000"]):  # fmt: skip
        status, out, err = run(*cmd, "--json")
        assert status == 0, (cmd, err)
        json.loads(out)


def test_settle_a_code_with_unequal_splits():
    """``4!·32`` settles; its certificate is the window of a ``!`` digit, ``2s + 3p + u``."""
    status, out, _ = run("settle", "4!·32", "--json")
    assert status == 0
    r = json.loads(out)
    assert (r["settled"], r["start"], r["period"], r["window"]) == (True, 25, 5, 2 * 25 + 3 * 5 + 0)


@pytest.mark.parametrize(
    "code, words",
    [("·3!", "never splits a heap in two"), ("!·4", "at the start"), ("kayles", "name of a game"),
     ("·4!!", "another '!'"), ("0x·c!", "in three")],
)  # fmt: skip
def test_bad_codes_get_one_line(code, words):
    for cmd in (["values", code, "--heaps", "10"], ["survey", "--codes", f"·137,{code}", "--heaps", "10"]):
        assert words in one_line_error(*run(*cmd))


def test_survey_show_and_report(tmp_path):
    """A survey over ``--codes`` of ``!`` codes and every ``0.0n7``, then their pages."""
    db = tmp_path / "c.sqlite"
    codes = ["grundy", "·4!", "·64!", "4!·32", *LONG]
    status, out, err = run("survey", "--codes", ",".join(codes), "--heaps", "600", "--db", str(db),
                           "--workers", "1", "--json")  # fmt: skip
    assert status == 0, err
    assert json.loads(out)["codes"] == json.loads(out)["survey"]["computed"] == len(codes)
    status, out, _ = run("show", "grundy", "--db", str(db), "--json")
    assert status == 0 and json.loads(out)["code"] == "4!·"
    status, _, err = run("report", "--db", str(db), "--out", str(tmp_path / "site"))
    assert status == 0, err
    pages = sorted(p.name for p in (tmp_path / "site" / "codes").glob("*.html"))
    assert len(pages) == len(codes) and not any("!" in p for p in pages)
    assert {"4u.html", "0.4u.html", "0.64u.html", "4u.32.html", "0.0000000000000000000000007.html"} <= set(pages)
    every = [p.name for p in (tmp_path / "site").rglob("*")]
    assert not any("!" in name for name in every)
    text = (tmp_path / "site" / "codes" / "4u.html").read_text("utf-8")
    assert "Grundy&#x27;s game" in text or "Grundy's game" in text
    assert "A002188" in text and "grundy settle &#x27;4!·&#x27;" in text
    settled = (tmp_path / "site" / "codes" / "4u.32.html").read_text("utf-8")
    assert "period" in settled and "65" in settled


def test_false_readings_of_a_bang_code_are_not_shared_with_its_plain_twin(tmp_path):
    """A ``!`` code and a plain code with the same values and ``t`` have different windows, so
    their false readings differ: the shared readings file of a ``!`` code names its ``!`` digit."""
    from grundy.present.site import readings_file

    base = {"false_readings": [[0]] * 50, "t": 2, "values_sha256": "ab" * 32, "heaps": 600}
    plain = readings_file({**base, "code": "·64"})
    marked = readings_file({**base, "code": "·64!"})
    assert plain != marked and "u2" in marked


def test_catalogue_round_trip(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        survey_run(["grundy", LONG[-1]], cat, heaps=400)
        codes = {r["code"] for r in cat.results()}
        assert codes == {"4!·", LONG[-1]}
        out = write_report(cat, tmp_path / "site")
    assert out.codes == 2
    assert Path(tmp_path / "site" / "codes" / "4u.html").exists()
