"""The SQLite catalogue: idempotent writes, concurrent writers, schema checks."""

import sqlite3
import subprocess
import sys

import pytest

from grundy.catalogue import SCHEMA, Catalogue, CatalogueError


def result(code, heaps=100, n_false=1):
    return {
        "code": code, "t": 2, "heaps": heaps, "status": "settled", "start": 1, "period": 2,
        "window": 8, "certificate_depth": 8, "right_from": 5, "changes": 1,
        "repetitions_needed": 3.5, "max_value": 3, "argmax": 4, "values_sha256": "ab" * 32,
        "version": "test", "believed": {"2": 1},
        "false_readings": [
            {"start": 1, "period": 1, "first_depth": 3, "last_depth": 4, "held_to": 4, "window": 6,
             "reach": 4 / 6, "kind": "dividing", "before_start": False}
        ] * n_false,
        "heap0_reached": [], "arithmetic": None,
    }


def test_add_is_idempotent(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        assert cat.add(result("·12", n_false=2), {})
        assert not cat.add(result("·12", n_false=2), {})
        assert cat.add(result("·12", heaps=200), {})
        assert cat.add(result("·12"), {"heap0": True})
        assert cat.stored_codes(100, {}) == {"·12"}
        assert cat.count_false_readings() == 4
        got = list(cat.results(heaps=100, options={}))
        assert got == [result("·12", n_false=2)]


def test_schema_of_another_version_is_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    Catalogue(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA + 1),))
    db.commit()
    db.close()
    with pytest.raises(CatalogueError, match=f"schema {SCHEMA + 1}"):
        Catalogue(path)


def test_foreign_files_are_refused(tmp_path):
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE x (y)")
    db.commit()
    db.close()
    with pytest.raises(CatalogueError, match="not a grundy catalogue"):
        Catalogue(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all, not even close" * 20)
    with pytest.raises(CatalogueError):
        Catalogue(junk)


WRITER = """
import sys
sys.path.insert(0, {tests!r})
from test_catalogue import result
from grundy.catalogue import Catalogue
with Catalogue(sys.argv[1]) as cat:
    for i in range(int(sys.argv[2]), int(sys.argv[3])):
        cat.add(result(f"·{{i}}"), {{}})
"""


def test_two_writers_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "c.sqlite")
    script = WRITER.format(tests=str(__import__("pathlib").Path(__file__).parent))
    procs = [
        subprocess.Popen([sys.executable, "-c", script, path, lo, hi])
        for lo, hi in (("1", "300"), ("150", "450"))
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    with Catalogue(path) as cat:
        assert len(cat.stored_codes(100, {})) == 449
        assert cat.count_false_readings() == 449
