"""The archive: a catalogue's records in a small file, restored on another machine."""

from __future__ import annotations

import gzip
import json

import pytest

from grundy.catalogue import archive, campaign
from grundy.catalogue.archive import ArchiveError
from grundy.catalogue.database import Catalogue

PLAN = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 14, seed=60, quiet_ratio=2)
DEEPER = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 16, seed=60, quiet_ratio=2)
CODES = ["·6", "·14", "·16", "·45", "·56", "·64", "·65", "·71", "·311", "·712", "·713"]


def _fill(cat: Catalogue, order) -> None:
    records = {"a": ("settlement", "·6", {"heaps": 8}, {"heaps": 8, "settled": False, "name": "·6 ·"}),
               "b": ("settlement", "·6", {"heaps": 16}, {"heaps": 16, "settled": True}),
               "c": ("check", "·45", {"campaign": "x"}, {"holds": True, "depth": 996})}
    for key in order:
        kind, code, params, record = records[key]
        cat.add_record(kind, code, params, 3, record)


def test_a_archive_restores_every_record_and_keeps_what_is_there(tmp_path):
    with Catalogue(tmp_path / "a.sqlite") as a, Catalogue(tmp_path / "b.sqlite") as b:
        _fill(a, "abc")
        assert archive.save(a, tmp_path / "l.gz", extra={"sittings": [1, 2]}) == 3
        b.add_record("check", "·45", {"campaign": "x"}, 3, {"holds": False, "depth": 5})
        added, book = archive.restore(b, tmp_path / "l.gz")
        assert added == 2 and len(book.rows) == 3 and book.extra == {"sittings": [1, 2]}
        assert [r for r in b.record_rows() if r[0] == "settlement"] == \
            [r for r in a.record_rows() if r[0] == "settlement"]
        assert next(b.records("check"))["holds"] is False  # the catalogue's own is newer: kept
        assert archive.restore(b, tmp_path / "l.gz")[0] == 0


def test_the_same_records_make_the_same_bytes(tmp_path):
    with Catalogue(tmp_path / "a.sqlite") as a, Catalogue(tmp_path / "b.sqlite") as b:
        _fill(a, "abc")
        _fill(b, "cba")
        archive.save(a, tmp_path / "a.gz", extra={"x": 1})
        archive.save(b, tmp_path / "b.gz", extra={"x": 1})
        assert (tmp_path / "a.gz").read_bytes() == (tmp_path / "b.gz").read_bytes()
        assert archive.save(b, tmp_path / "c.gz", kinds=["check"]) == 1
        assert archive.read(tmp_path / "c.gz").rows == b.record_rows(["check"])


@pytest.mark.parametrize("content, says", [
    (b"not gzip at all", "cannot read the archive"),
    (gzip.compress(b'{"archive": 2, "records": 0, "extra": {}}\n'), "not an archive of format 1"),
    (gzip.compress(b'{"archive": 1, "records": 2, "extra": {}}\n["check", "x", "{}", 1, "{}"]\n'), "cut short"),
    (gzip.compress(b'{"archive": 1, "records": 1, "extra": {}}\n["check", "x", "{}", "1", "{}"]\n'), "line 2"),
    (gzip.compress(b'{"archive": 1, "records": 1, "extra": {}}\n["check", "x", "{}", 1, "[1]"]\n'), "line 2"),
])
def test_a_damaged_archive_is_refused_in_one_sentence(tmp_path, content, says):
    path = tmp_path / "l.gz"
    path.write_bytes(content)
    with Catalogue(tmp_path / "a.sqlite") as a:
        with pytest.raises(ArchiveError, match=says) as err:
            archive.restore(a, path)
        assert "\n" not in str(err.value)
        assert a.record_rows() == []


def test_a_missing_archive_is_refused(tmp_path):
    with pytest.raises(ArchiveError, match="cannot read the archive"):
        archive.read(tmp_path / "none.gz")


def _kept(rows):
    return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in rows]


def test_a_campaign_restored_on_a_new_machine_spends_only_what_is_missing(tmp_path):
    """The campaign at one depth, its archive restored into an empty catalogue with no values:
    the same state, nothing to compute at that depth, and a deeper plan reaching what a campaign
    run whole to it reaches, its steps computing again the values they go on from."""
    with Catalogue(tmp_path / "a.sqlite") as a:
        first = campaign.run(CODES, a, tmp_path / "a", plan=PLAN)
        archive.save(a, tmp_path / "l.gz")
    assert json.loads(gzip.decompress((tmp_path / "l.gz").read_bytes()).splitlines()[0])["records"] > len(CODES)
    with Catalogue(tmp_path / "b.sqlite") as b:
        archive.restore(b, tmp_path / "l.gz")
        assert campaign.state(CODES, b, tmp_path / "b", plan=PLAN).rows == first.rows
        again = campaign.run(CODES, b, tmp_path / "b", plan=PLAN)
        assert again.computed == 0 and _kept(again.rows) == _kept(first.rows)
        deeper = campaign.run(CODES, b, tmp_path / "b", plan=DEEPER)
    with Catalogue(tmp_path / "c.sqlite") as c:
        whole = campaign.run(CODES, c, tmp_path / "c", plan=DEEPER)
    assert deeper.computed > 0 and _kept(deeper.rows) == _kept(whole.rows)
    assert first.computed + deeper.computed == whole.computed
