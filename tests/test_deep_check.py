"""grundy.catalogue.campaign.check past the dense limit: the sparse engine under a forced mask grows
a store of its own, resumes where a sitting stopped it, and compares the period and the values
chunk by chunk."""

from __future__ import annotations

import json

import numpy as np
import pytest

from grundy.catalogue import campaign
from grundy.catalogue.database import Catalogue
from grundy.codes import parse
from grundy.engine import compute, sparse
from grundy.engine import store as engine_store
from grundy.engine.checkpoint import code_path
from grundy.engine.store import Store
from grundy.readings.settle import settle

FIELDS = ("code", "start", "period", "window", "mask", "position")


def certificate(code: str) -> tuple[dict, np.ndarray]:
    """``code``'s certificate as a campaign's step records it, and its values to the window."""
    d = settle(code, 1 << 21).to_dict()
    assert d["settled"]
    return {k: d[k] for k in FIELDS}, compute(code, d["window"])


@pytest.fixture(scope="module")
def sixteen():
    """·16: window 509,622, so twice it passes the dense limit."""
    return certificate("·16")


def without_cpu(out: dict) -> dict:
    return {k: v for k, v in out.items() if k != "cpu_seconds"}


@pytest.mark.parametrize("memory", [engine_store.MEMORY, 1 << 17], ids=["in memory", "bounded"])
@pytest.mark.parametrize(("code", "which"), [("·16", "own"), ("·16", "other"), ("·644", "own"),
                                             ("·644", "other"), ("·104", "own")])  # ·104: a position mask
def test_grow_under_a_forced_mask_gives_the_engine_s_values(tmp_path, code, which, memory):
    heaps = 200_000
    expected = compute(code, heaps)
    c = parse(code)
    own = sparse.statistics(c, expected)
    mask = sparse.even_class(own.mask, own.position)
    if which == "other":
        mask = campaign.other_mask(c, expected[: 1 << 14], mask)
    for upto in (heaps // 3, heaps):
        with Store.writer(tmp_path / "s", code) as w:
            engine_store.grow(w, code, upto, engine="sparse", mask=mask, memory=memory)
    assert np.array_equal(Store.open(tmp_path / "s", code).read(0, heaps), expected)


def test_a_deep_check_holds_for_the_certificate_and_fails_one_heap_early(tmp_path, sixteen):
    row, values = sixteen
    sha = campaign.digest(values, row["window"])
    out = campaign.check(row, None, sha, tmp_path)
    assert out["holds"] and out["agrees"] and out["depth"] == 2 * row["window"] > campaign.DENSE_LIMIT
    assert out["engine"].startswith("sparse, bounded, mask ") and out["other_mask"]
    assert out["engine"] != "sparse, bounded, mask 30" and out["compared"] == row["window"]
    assert not campaign.check(dict(row, start=row["start"] - 1), None, sha, tmp_path)["holds"]
    assert not campaign.check(dict(row, period=row["period"] - 1), None, sha, tmp_path)["holds"]
    assert not campaign.check(row, None, campaign.digest(values + 1, row["window"]), tmp_path)["agrees"]
    kept = campaign.check(row, values, None, tmp_path)
    assert kept["agrees"] and kept["compared"] == row["window"]
    values = values.copy()
    values[-1] += 1
    assert not campaign.check(row, values, None, tmp_path)["agrees"]
    assert campaign.check(row, values, None)["holds"]  # no store: a temporary one


def test_a_deep_check_stopped_midway_resumes_from_its_checkpoint(tmp_path, sixteen, monkeypatch):
    row, values = sixteen
    sha = campaign.digest(values, row["window"])
    whole = campaign.check(row, None, sha, tmp_path / "whole")
    real = engine_store.grow
    starts = []

    def stopped_midway(store, code, heaps, **kw):
        starts.append(len(store))
        if len(starts) == 1:
            real(store, code, heaps // 2, **kw)
            raise KeyboardInterrupt
        return real(store, code, heaps, **kw)

    monkeypatch.setattr(engine_store, "grow", stopped_midway)
    monkeypatch.setattr(campaign, "CHECKPOINT_SECONDS", 0.0)
    with pytest.raises(KeyboardInterrupt):
        campaign.check(row, None, sha, tmp_path / "cut")
    note = json.loads(code_path(tmp_path / "cut", "·16", ".check-note.json").read_text())
    assert "result" not in note and note["cpu_seconds"] > 0
    again = campaign.check(row, None, sha, tmp_path / "cut")
    assert starts == [0, row["window"]]
    assert without_cpu(again) == without_cpu(whole)
    assert again["cpu_seconds"] >= note["cpu_seconds"]


def test_a_finished_check_answers_at_once_until_forgotten(tmp_path, sixteen, monkeypatch):
    row, values = sixteen
    sha = campaign.digest(values, row["window"])
    first = campaign.check(row, None, sha, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.16.check-note.json"]

    def no_run(*args, **kw):
        raise AssertionError("a finished check ran again")

    monkeypatch.setattr(engine_store, "grow", no_run)
    assert campaign.check(row, None, sha, tmp_path) == first
    with pytest.raises(AssertionError):
        campaign.check(dict(row, start=row["start"] + 1), None, sha, tmp_path)  # another certificate
    campaign.forget_check(tmp_path, "·16")
    assert not list(tmp_path.iterdir())


def test_the_run_s_own_mask_checks_where_another_would_cost_too_much(tmp_path, sixteen, monkeypatch):
    row, values = sixteen
    monkeypatch.setattr(campaign, "OTHER_WORK", 0)
    out = campaign.check(row, None, campaign.digest(values, row["window"]), tmp_path)
    assert out["engine"] == "sparse, bounded, mask 30 (the run's own, forced)" and not out["other_mask"]
    assert out["holds"] and out["agrees"]


def test_check_work_counts_rare_heaps_that_stopped_or_keep_arriving():
    assert campaign.check_work(np.array([], np.int64), 1000, 10**6) == 0
    assert campaign.check_work(np.array([5, 9, 200]), 1000, 10**6) == 3 * 10**6
    arriving = np.arange(1, 1000, 10)  # one heap in ten, to the end of the probe
    assert campaign.check_work(arriving, 1000, 10**6) == pytest.approx(0.1 * 10**12 / 2)


def test_another_mask_checks_where_one_pays_in_the_other_driver(tmp_path, monkeypatch):
    """·644 runs under mask 126; mask 62 splits its values otherwise (values reach 64) and keeps
    few heaps rare, so it checks.  A window beyond the in-memory limit was computed bounded:
    its check runs in memory."""
    row, values = certificate("·644")
    monkeypatch.setattr(campaign, "DENSE_LIMIT", 100)
    sha = campaign.digest(values, row["window"])
    out = campaign.check(row, None, sha, tmp_path / "a")
    assert out["engine"] == "sparse, bounded, mask 62" and out["other_mask"]
    assert out["holds"] and out["agrees"]
    monkeypatch.setattr(engine_store, "MEMORY", 1 << 12)
    deep = campaign.check(row, None, sha, tmp_path / "b")
    assert deep["engine"] == "sparse, in memory, mask 62" and deep["holds"] and deep["agrees"]


def test_other_mask_skips_a_mask_that_splits_the_values_the_same_way():
    c = parse("·16")
    values = compute(c, 1 << 14)
    top = int(values.max()).bit_length()
    used = sparse.even_class(30 | (1 << (top + 1)))  # differs from 30 only above every value
    assert campaign.other_mask(c, values, used).mask & ((1 << top) - 1) != 30
    assert campaign.other_mask(c, np.array([0, 1, 1, 0]), sparse.even_class(1)) is None


def test_a_campaign_s_deep_checks_leave_nothing_behind(tmp_path, monkeypatch):
    monkeypatch.setattr(campaign, "DENSE_LIMIT", 100)
    plan = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 14, seed=60, quiet_ratio=2)
    store = tmp_path / "store"
    with Catalogue(tmp_path / "c.sqlite") as cat:
        res = campaign.run(["·644", "·137"], cat, store, plan=plan)
    checks = [r["checked"] for r in res.rows]
    assert all(c and c["engine"].startswith("sparse, ") and c["holds"] and c["agrees"] for c in checks)
    assert not list(store.iterdir())
