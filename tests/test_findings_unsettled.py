"""docs/findings/unsettled.py: the comparison with the published lists, and a reduced run's page."""

from __future__ import annotations

import json

import pytest

from findings_check import load, script, unexplained
from grundy.catalogue import published
from grundy.catalogue.database import Catalogue
from grundy.readings.settle import settle

unsettled = script("unsettled")


def row(code, settled=True, start=None, period=None, mask=None, rare=None, last=None, heaps=1000):
    return {"code": code, "settled": settled, "start": start, "period": period, "mask": mask,
            "rare_heaps": rare, "last_rare": last, "heaps": heaps}  # fmt: skip


def test_equivalent_games_are_listed_by_their_source_names():
    assert unsettled.listed(unsettled.parse("·37"))[0] == ".6"
    assert unsettled.listed(unsettled.parse("·2"))[0] == "4"
    name, entry = unsettled.listed(unsettled.parse("·354"))
    assert name == ".354" and (entry.prefix, entry.period) == (10061916, 1180)


def test_agreement_with_a_solved_game_and_heap_zero_in_the_rare_count():
    out = unsettled.compare(row("·16", True, 105351, 149459, "30", 52, 13935))
    assert out["published"] == "solved" and out["disagreements"] == []
    assert out["rare_offset"] == 1


def test_every_kind_of_disagreement_is_reported():
    assert unsettled.compare(row("·6", True, 10, 4))["disagreements"]
    wrong = unsettled.compare(row("·16", True, 105350, 149460, "31", 60, 1))
    assert len(wrong["disagreements"]) == 5
    assert unsettled.compare(row("·16", False))["disagreements"]
    assert unsettled.compare(row("·6", False))["disagreements"] == []


def test_the_published_sequences_are_found_at_their_shift():
    assert unsettled.shift(unsettled.parse("·4"), published.game("·4").nimbers) == 2
    assert unsettled.shift(unsettled.parse("·07"), published.game("·4").nimbers) == 1
    assert unsettled.shift(unsettled.parse("·17"), published.game("·4").nimbers) is None


def test_an_equivalent_game_is_looked_up():
    out = unsettled.compare(row("·37", False))
    assert out["equivalent"] == ".6" and out["published"] == "unsolved"


@pytest.mark.slow
def test_reduced_run(tmp_path):
    unsettled.main(
        ["--quick", "--budget", "0.2", "--out", str(tmp_path), "--cache", str(tmp_path / "c")]
    )
    page, r = load(tmp_path, "unsettled")
    assert unexplained(page, r, (1, 2, 2400)) == []
    assert r["settled"] + r["open"] == r["unsettled"] == len(r["codes"])
    assert r["disagreements"] == sum(len(c["disagreements"]) for c in r["codes"])
    for x in r["codes"]:
        assert f"| {x['code']} |" in page
        for d in x["disagreements"]:
            assert d in page
    for f in ("settled.png", "published.png", "open.png"):
        assert (tmp_path / "unsettled" / f).stat().st_size > 1000


def test_outcomes_an_earlier_version_kept_as_files_are_read_not_recomputed(tmp_path):
    # The earlier script kept one JSON file a code in settle-BUDGETs/; a made-up outcome there
    # must come back as it is (a computed one would be ·6's own).
    folder = tmp_path / "settle-0.5s"
    folder.mkdir()
    kept = {"code": "·6", "t": 1, "settled": False, "start": None, "period": None, "window": None,
            "heaps": 12345, "mask": "7", "rare_heaps": 99, "last_rare": None, "cpu_seconds": 0.51}
    (folder / "6.json").write_text(json.dumps(kept))
    params = {"budget": 0.5}
    with Catalogue(tmp_path / "c.sqlite") as cat:
        unsettled.earlier(cat, ["·6", "·7"], folder, params)
        ran = unsettled.settle_many(["·6"], cat, seconds=0.5, params=params)
        assert ran.computed == 0
        assert list(cat.records("settlement", params)) == [kept]


def test_a_stored_settlement_shows_its_mask_as_the_published_label():
    st = settle("·16", 4096)
    row = unsettled.row_of(st.to_dict())
    assert row["mask"] == st.stats.rare_class.label and isinstance(row["mask"], str)
    assert unsettled.row_of({"mask": "30"})["mask"] == "30"
