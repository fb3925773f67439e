"""docs/findings/arithmetic.py on the reduced size: the page says what the JSON holds."""

import importlib.util
import json
from pathlib import Path

import pytest

from grundy.codes import family
from grundy.engine import compute
from grundy.readings.trajectory import trajectory

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "findings" / "arithmetic.py"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("findings_arithmetic", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path_factory.mktemp("arithmetic")
    assert mod.main(["--quick", "--out", str(out)]) == 0
    res = json.loads((out / "arithmetic.json").read_text())
    return mod, out, res, (out / "arithmetic.md").read_text()


def test_the_page_is_written_from_the_json(run):
    mod, out, res, text = run
    assert mod.page(res, [Path(f).name for f in res["figures"]], "arithmetic") == text
    for key in ("arithmetic_readings", "pure_false_readings_settled", "reaching", "still_holding"):
        assert f"{res[key]:,}" in text
    for f in res["figures"]:
        assert (out / f).stat().st_size > 1000 and f"]({f})" in text


def test_the_numbers_are_those_of_the_family(run):
    _, _, res, _ = run
    codes = [str(c) for c in family(res["digits"])]
    assert [r["code"] for r in res["per_code"]] == codes
    for r in res["per_code"][::7]:
        g = compute(r["code"], res["heaps"])
        assert r["arithmetic"] == len(trajectory(g, r["code"], arithmetic=True).false_readings)
        assert r["settled"] == trajectory(g, r["code"]).certified
    assert res["settled"] + res["unsettled"] == len(codes)
    assert sum(res["hist"]["pure_settled"]) == res["pure_false_readings_settled"]


def test_every_reading_that_reaches_its_window_is_checked_twice(run):
    _, _, res, text = run
    assert len(res["checks"]) == res["reaching"]
    for c in res["checks"]:
        assert c["values_agree"] and c["reread"] and c["held_to"] >= c["window"]
        assert c["breaks_at"] == c["held_to"] and f"`{c['code']}`" in text
