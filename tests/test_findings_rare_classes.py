"""docs/findings/rare_classes.py on the reduced size: the page says what the JSON holds."""

import importlib.util
import json
from pathlib import Path

import pytest

from grundy import rare

SCRIPT = Path(__file__).resolve().parents[1] / "docs" / "findings" / "rare_classes.py"


def load():
    spec = importlib.util.spec_from_file_location("findings_rare_classes", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def go(mod, out, cache, *extra):
    assert mod.main(["--quick", "--out", str(out), "--cache", str(cache), *extra]) == 0
    return json.loads((out / "rare_classes.json").read_text()), (
        out / "rare_classes.md"
    ).read_text()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    mod = load()
    out, cache = tmp_path_factory.mktemp("rare"), tmp_path_factory.mktemp("cache")
    res, text = go(mod, out, cache)
    return mod, out, cache, res, text


def test_the_page_is_written_from_the_json(run):
    mod, out, _, res, text = run
    assert mod.page(res, [Path(f).name for f in res["figures"]]) == text
    for key in (
        "growing_codes",
        "reached_deep",
        "classes_thinning_shallow",
        "classes_thinning_deep",
    ):
        assert f"{res[key]:,}" in text
    for f in res["figures"]:
        assert (out / f).stat().st_size > 1000 and f"]({f})" in text


def test_the_shallow_verdicts_are_the_toolkits(run):
    _, _, _, res, _ = run
    for r in res["codes"]:
        assert (
            r["thin_shallow"]
            == rare.survey_code(r["code"], res["shallow"], growing_only=False).thinning
        )
        assert sum(r["outcomes"].values()) == r["thin_shallow"]
        assert r["reached_deep"] == (r["depth"] == res["deep"])


def test_a_rerun_reuses_the_cache_a_small_budget_stops_early_and_a_larger_one_goes_on(
    run, tmp_path
):
    mod, _out, cache, res, _ = run
    again, _ = go(mod, tmp_path / "again", cache)
    assert again["codes"] == res["codes"]
    short, text = go(mod, tmp_path / "short", tmp_path / "cache", "--budget", "0")
    assert short["reached_deep"] == 0 and short["stopped_early"] == short["growing_codes"]
    assert all(res["shallow"] <= r["depth"] < res["deep"] for r in short["codes"])
    assert "stopped before" in text
    more, _ = go(mod, tmp_path / "more", tmp_path / "cache")
    assert more["reached_deep"] == more["growing_codes"]
    assert [r["thin_shallow"] for r in more["codes"]] == [r["thin_shallow"] for r in res["codes"]]
