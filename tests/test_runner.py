"""The family runner: any fn(code) -> dict over any executor, stored as it finishes, resumable."""

from concurrent.futures import ThreadPoolExecutor
from functools import partial

import numpy as np
import pytest

from grundy import load
from grundy.catalogue.campaign import settle_many, settle_within, settlement_entry
from grundy.catalogue.database import Catalogue
from grundy.catalogue.executors import SerialExecutor, default_executor
from grundy.catalogue.runner import Records, run
from grundy.codes import parse
from grundy.engine import compute
from grundy.engine.checkpoint import code_path
from grundy.readings.settle import settle

CODES = ["·137", "·6", "·45", "·07", "·2", "4·07"]


def describe(code: str, fail_on: str | None = None) -> dict:
    """A cheap per-code function: the digits of the code, parsed."""
    if code == fail_on:
        raise RuntimeError(f"failing on {code}")
    c = parse(code)
    return {"code": code, "t": c.t, "digits": list(c.digits)}


def test_serial_and_pool_store_the_same_records(tmp_path):
    entry = Records("describe", {"v": 1})
    got = []
    for name, executor in (("serial", SerialExecutor()), ("pool", default_executor(2))):
        with Catalogue(tmp_path / f"{name}.sqlite") as cat, executor:
            outcome = run(describe, CODES, cat, entry, executor=executor)
            assert (outcome.codes, outcome.stored_before, outcome.computed) == (len(CODES), 0, len(CODES))
            got.append(list(cat.records("describe", {"v": 1})))
    assert got[0] == got[1] and [r["code"] for r in got[0]] == sorted(CODES, key=lambda c: (len(c), c))
    assert got[0][0] == describe(got[0][0]["code"])


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path):
    entry = Records("describe")
    progress = []
    with Catalogue(tmp_path / "c.sqlite") as cat:
        with pytest.raises(RuntimeError, match="failing on ·45"):
            run(partial(describe, fail_on="·45"), CODES, cat, entry)
        assert cat.stored_records("describe", {}) == {"·137", "·6"}
        again = run(describe, CODES, cat, entry, on_progress=lambda d, n: progress.append((d, n)))
        assert (again.stored_before, again.computed) == (2, len(CODES) - 2)
        assert progress == [(d, len(CODES)) for d in range(2, len(CODES) + 1)]
        assert run(describe, CODES, cat, entry).computed == 0
        assert run(describe, CODES, cat, entry, recompute=[".137"]).computed == 1


def test_records_of_another_analysis_are_recomputed(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        run(describe, CODES[:3], cat, Records("describe", analysis=1))
        outcome = run(describe, CODES, cat, Records("describe", analysis=2))
        assert (outcome.stored_before, outcome.computed) == (0, len(CODES))
        assert cat.stored_records("describe", {}, 2) == set(CODES)


def test_warm_up_runs_once_before_workers_and_only_with_work_to_do(tmp_path):
    calls = []
    with Catalogue(tmp_path / "c.sqlite") as cat, ThreadPoolExecutor(2) as pool:
        for _ in range(2):
            run(describe, CODES, cat, Records("describe"), executor=pool,
                warm_up=lambda: calls.append(1))
        assert calls == [1]
        run(describe, CODES, cat, Records("serial"), warm_up=lambda: calls.append(2))
    assert calls == [1], "a serial run compiles as it goes: nothing runs beside it"


def test_settle_many_stores_what_settle_finds(tmp_path):
    codes = ["·137", "·6", "·07"]
    with Catalogue(tmp_path / "c.sqlite") as cat, default_executor(2) as pool:
        outcome = settle_many(codes, cat, max_heaps=4096, executor=pool)
        assert outcome.computed == 3
        stored = {r["code"]: r for r in cat.records("settlement", {"max_heaps": 4096, "seconds": None})}
        assert settle_many(codes, cat, max_heaps=4096).computed == 0
    for code in codes:
        direct = settle(parse(code), 4096).to_dict()
        mine = stored[code]
        assert {k: v for k, v in mine.items() if k not in ("seconds", "cpu_seconds", "limit")} == {
            k: v for k, v in direct.items() if k != "seconds"}
        assert mine["limit"] == (None if direct["settled"] else "max_heaps")
    assert (stored["·137"]["start"], stored["·137"]["period"]) == (52, 34)
    assert not stored["·6"]["settled"]


def test_a_budget_of_cpu_seconds_stops_a_settlement(tmp_path):
    out = settle_within("·6", 1e-9, max_heaps=10**6)
    assert out["limit"] == "seconds" and not out["settled"] and out["heaps"] < 10**6
    with Catalogue(tmp_path / "c.sqlite") as cat:
        settle_many(["·6"], cat, max_heaps=10**6, seconds=1e-9)
        assert settlement_entry(1e-9, 10**6).stored(cat) == {"·6"}
        assert settlement_entry(2.0, 10**6).stored(cat) == set()


def test_a_larger_budget_resumes_from_the_stored_values_and_a_rerun_computes_nothing(tmp_path):
    # ·6 never settles: each budget stops it; params without the budget keep one record a code.
    params = {"study": "resume"}
    store = tmp_path / "values"
    with Catalogue(tmp_path / "c.sqlite") as cat, default_executor(2) as pool:
        first = settle_many(["·6", "·137"], cat, seconds=0.05, store=store, params=params,
                            executor=pool)
        assert (first.computed, first.stored_before) == (2, 0)
        before = {r["code"]: r for r in cat.records("settlement", params)}
        assert before["·137"]["settled"] and before["·6"]["limit"] == "seconds"
        again = settle_many(["·6", "·137"], cat, seconds=0.05, store=store, params=params)
        assert (again.computed, again.stored_before) == (0, 2)
        budget = before["·6"]["cpu_seconds"] + 0.3
        more = settle_many(["·6", "·137"], cat, seconds=budget, store=store, params=params,
                           executor=pool)
        assert (more.computed, more.stored_before) == (1, 1)  # ·137 is settled: nothing to add
        after = {r["code"]: r for r in cat.records("settlement", params)}
    assert after["·137"] == before["·137"]
    six = after["·6"]
    assert six["reused"] == before["·6"]["heaps"] and six["heaps"] > before["·6"]["heaps"]
    assert six["cpu_seconds"] >= budget and six["limit"] == "seconds"
    assert np.array_equal(load(code_path(store, "·6")).values[: six["heaps"]], compute("·6", six["heaps"]))


def test_a_settlement_without_a_store_keeps_nothing_and_starts_from_nothing(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        settle_many(["·6"], cat, seconds=0.02, params={"p": 1})
        first = next(cat.records("settlement", {"p": 1}))
        settle_many(["·6"], cat, seconds=first["cpu_seconds"] + 0.05, params={"p": 1})
        second = next(cat.records("settlement", {"p": 1}))
    assert second["reused"] == 0 and second["heaps"] > 0 and second["limit"] == "seconds"
    assert not any(p.is_dir() for p in tmp_path.iterdir())


def test_a_budget_spent_in_under_a_millisecond_is_spent():
    """The record keeps CPU seconds to the millisecond: a run that stopped at a budget smaller than
    that, recorded as 0.0, has had its budget and is not computed again."""
    from grundy.catalogue import campaign

    record = {"settled": False, "heaps": 4096, "cpu_seconds": 0.0, "limit": "seconds"}
    assert campaign._spent(record, 1e-9, 10**6)
    assert not campaign._spent(record, 0.01, 10**6)
