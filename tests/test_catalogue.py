"""The SQLite catalogue: exact round trips, replacing writes, damaged rows, read-only files."""

import os
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.catalogue.database import (
    SCHEMA,
    Catalogue,
    CatalogueError,
    pack_false_readings,
    pack_values,
    unpack_false_readings,
    unpack_values,
    values_sha256,
)
from grundy.catalogue.survey import ANALYSIS_VERSION, analyse
from grundy.readings.trajectory import KINDS

CODES = ["·137", "·6", "·45", "·4", "·226", "0x·9", "4·07"]


def result(code, heaps=100, n_false=1, analysis=ANALYSIS_VERSION):
    """A made-up result whose values are ``0, 1, 2, 0, 1, 2, ...``."""
    values = (np.arange(heaps) % 3).astype(np.uint8)
    return {
        "code": code, "t": 2, "heaps": heaps, "status": "settled", "start": 1, "period": 2,
        "window": 8, "certificate_depth": 8, "right_from": 5, "changes": 1,
        "repetitions_needed": 3.5, "max_value": 2, "argmax": 2, "mask": 3, "position": False,
        "rare_heaps": 10, "last_rare": 97, "values_sha256": values_sha256(values),
        "version": "test", "analysis": analysis,
        "false_readings": [
            {"start": 1, "period": 1, "first_depth": 3 + i, "last_depth": 4 + i, "held_to": 4,
             "window": 6, "reach": 4 / 6, "kind": "dividing", "before_start": False}
            for i in range(n_false)
        ],
        "believed": {"2": 1}, "heap0_reached": [], "arithmetic": None,
    }, values


@pytest.fixture(scope="module")
def surveyed():
    return {c: analyse(c, 2400) for c in CODES}


def test_results_and_values_come_back_exactly(tmp_path, surveyed):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        for r, v in surveyed.values():
            cat.add(r, v)
        back = {r["code"]: r for r in cat.results(heaps=2400, options={})}
        assert cat.count_false_readings() == sum(len(r["false_readings"]) for r, _ in surveyed.values())
        for code, (r, v) in surveyed.items():
            assert back[code] == r and list(back[code]) == list(r)  # same keys, same order
            got = cat.values(code, 2400)
            assert got.dtype == v.dtype and np.array_equal(got, v)
        assert cat.values("·77", 2400) is None and cat.values("·137", 2000) is None


def test_false_readings_are_stored_once(tmp_path, surveyed):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        r, v = surveyed["·226"]
        cat.add(r, v)
        text = b"".join(
            str(x).encode() if not isinstance(x, bytes) else x
            for row in cat.db.execute("SELECT * FROM results") for x in row
        )
    assert r["false_readings"] and b"first_depth" not in text and b"dividing" not in text


false_reading = st.builds(
    lambda s, p, f, n, h, w, k, b, sal: {
        "start": s, "period": p, "first_depth": f, "last_depth": f + n, "held_to": h,
        "window": w, "reach": h / w, "kind": k, "before_start": b, **({"saltus": sal} if sal else {}),
    },
    st.integers(0, 10**6), st.integers(1, 10**6), st.integers(1, 10**7), st.integers(0, 10**5),
    st.integers(1, 10**7), st.integers(1, 10**7), st.sampled_from(KINDS), st.booleans(),
    st.integers(0, 3),
)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(false_reading, max_size=40))
def test_false_readings_pack_and_unpack(frs):
    assert unpack_false_readings(pack_false_readings(frs), len(frs)) == frs


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), max_size=300), st.sampled_from([1, 255, 65535, 2**32 - 1]))
def test_values_pack_in_the_smallest_type(xs, cap):
    values = np.array([x % (cap + 1) for x in xs], dtype=np.uint32)
    dtype, blob = pack_values(values)
    back = unpack_values(dtype, blob, len(values))
    assert np.array_equal(back, values)
    assert back.dtype == np.min_scalar_type(int(values.max()) if values.size else 0)


def test_storing_again_replaces_every_row_of_the_code(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        three, values = result("·12", n_false=3)
        cat.add(three, values)
        cat.add(result("·12", n_false=1)[0], values)
        cat.add(*result("·12", heaps=200))
        assert cat.stored_codes(100, {}) == {"·12"}
        assert cat.count_false_readings() == 2
        assert [len(r["false_readings"]) for r in cat.results(heaps=100)] == [1]
        cat.add(*result("·13", analysis=ANALYSIS_VERSION - 1))
        assert cat.stored_codes(100, {}, ANALYSIS_VERSION) == {"·12"}
        assert cat.stored_codes(100, {}) == {"·12", "·13"}
        cat.remove(["·12"], heaps=100)
        assert cat.stored_codes(100, {}) == {"·13"} and cat.values("·12", 200) is not None
        with pytest.raises(ValueError, match="not those of its result"):
            cat.add(result("·14")[0], np.zeros(100, np.uint8))


def test_schema_of_another_version_is_refused_in_one_line(tmp_path):
    path = tmp_path / "c.sqlite"
    Catalogue(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA - 1),))
    db.commit()
    db.close()
    for readonly in (False, True):
        with pytest.raises(CatalogueError, match=f"schema {SCHEMA - 1}.*new file") as err:
            Catalogue(path, readonly=readonly)
        assert "\n" not in str(err.value)


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
    for readonly in (False, True):
        with pytest.raises(CatalogueError, match="not a grundy catalogue"):
            Catalogue(junk, readonly=readonly)
    with pytest.raises(CatalogueError, match="no catalogue"):
        Catalogue(tmp_path / "missing.sqlite", readonly=True)
    assert not (tmp_path / "missing.sqlite").exists()


def damage(path, code, column, value):
    table = "sequences" if column == "zlib" else "results"
    db = sqlite3.connect(path)
    db.execute(f"UPDATE {table} SET {column}=? WHERE code=?", (value, code))
    db.commit()
    db.close()


@pytest.mark.parametrize("column, value", [
    ("extra", "{not json"), ("extra", "[1, 2]"), ("false_readings", b"garbage"), ("false_count", 7),
])
def test_a_damaged_result_names_the_code_and_the_file(tmp_path, column, value):
    path = tmp_path / "c.sqlite"
    with Catalogue(path) as cat:
        for code in ("·12", "·13"):
            cat.add(*result(code, n_false=2))
    damage(path, "·13", column, value)
    with Catalogue(path, readonly=True) as cat:
        assert [r["code"] for r in cat.results(codes=["·12"])] == ["·12"]
        with pytest.raises(CatalogueError, match=f"{path}.*·13.*corrupt") as err:
            list(cat.results())
        assert "\n" not in str(err.value)
        assert set(cat.damaged(100, {})) == {"·13"}


@pytest.mark.parametrize("value", [b"garbage", b"", None])
def test_damaged_values_name_the_code_and_the_file(tmp_path, value):
    path = tmp_path / "c.sqlite"
    with Catalogue(path) as cat:
        cat.add(*result("·12"))
        cat.add(*result("·13"))
    if value is None:
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM sequences WHERE code='·13'")
        db.close()
    else:
        damage(path, "·13", "zlib", value)
    with Catalogue(path) as cat:
        assert cat.values("·12", 100) is not None
        with pytest.raises(CatalogueError, match=f"{path}.*values of ·13.*corrupt"):
            cat.values("·13", 100)
        assert list(cat.damaged(100, {})) == ["·13"]


def test_values_that_decode_to_other_values_are_refused(tmp_path):
    path = tmp_path / "c.sqlite"
    with Catalogue(path) as cat:
        cat.add(*result("·12"))
    damage(path, "·12", "zlib", pack_values(np.zeros(100, np.uint8))[1])
    with Catalogue(path) as cat, pytest.raises(CatalogueError, match="digest"):
        cat.values("·12", 100)


@contextmanager
def read_only(*paths: Path):
    """Make files and folders unwritable, even for root (the immutable attribute) when root."""
    if os.geteuid() == 0:
        try:
            subprocess.run(["chattr", "+i", *map(str, paths)], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError):
            pytest.skip("running as root without chattr: cannot make a read-only folder")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", *map(str, paths)], check=True)
        return
    modes = {p: p.stat().st_mode for p in paths}
    for p in paths:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def test_a_catalogue_on_a_read_only_disk(tmp_path):
    folder = tmp_path / "ro"
    path = folder / "c.sqlite"
    with Catalogue(path) as cat:
        cat.add(*result("·12"))
    with read_only(path, folder):
        with Catalogue(path, readonly=True) as cat:
            assert [r["code"] for r in cat.results()] == ["·12"]
            assert np.array_equal(cat.values("·12", 100), result("·12")[1])
        assert sorted(p.name for p in folder.iterdir()) == ["c.sqlite"]
        with pytest.raises(CatalogueError, match="cannot be written"):
            Catalogue(path)
        with pytest.raises(CatalogueError, match=r"cannot create the catalogue .* read-only"):
            Catalogue(folder / "new.sqlite")
        show = subprocess.run([sys.executable, "-m", "grundy", "show", "·12", "--db", str(path), "--json"],
                              check=False, capture_output=True, text=True)
        assert show.returncode == 0, show.stderr
        survey = subprocess.run([sys.executable, "-m", "grundy", "survey", "--codes", "·12", "--heaps", "100",
                                 "--db", str(folder / "new.sqlite"), "--workers", "1"],
                                check=False, capture_output=True, text=True)
        assert survey.returncode == 2 and survey.stderr.count("\n") == 1
        assert "read-only" in survey.stderr


def test_reading_while_a_writer_works(tmp_path):
    path = tmp_path / "c.sqlite"
    with Catalogue(path) as writer:
        writer.add(*result("·12"), {})
        with Catalogue(path, readonly=True) as reader:
            writer.add(*result("·13"), {})
            assert {r["code"] for r in reader.results()} == {"·12", "·13"}
            with pytest.raises(sqlite3.OperationalError):
                reader.db.execute("DELETE FROM results")


def test_records_of_any_kind(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as cat:
        cat.add_record("settlement", "·137", {"max_heaps": 10}, 1, {"code": "·137", "settled": False})
        cat.add_record("settlement", "·137", {"max_heaps": 10}, 1, {"code": "·137", "settled": True})
        cat.add_record("settlement", "·6", {"max_heaps": 10}, 0, {"code": "·6", "x": [1, 2]})
        cat.add_record("settlement", "·6", {"max_heaps": 20}, 1, {"code": "·6", "x": [3]})
        assert cat.stored_records("settlement", {"max_heaps": 10}) == {"·137", "·6"}
        assert cat.stored_records("settlement", {"max_heaps": 10}, 1) == {"·137"}
        assert list(cat.records("settlement", {"max_heaps": 10})) == [
            {"code": "·6", "x": [1, 2]}, {"code": "·137", "settled": True}]
        assert [r["x"] for r in cat.records("settlement", codes=["·6"])] == [[1, 2], [3]]
        cat.db.execute("UPDATE records SET result='{' WHERE code='·6'")
        with pytest.raises(CatalogueError, match="settlement of ·6"):
            list(cat.records("settlement"))


WRITER = """
import sys
sys.path.insert(0, {tests!r})
from test_catalogue import result
from grundy.catalogue.database import Catalogue
with Catalogue(sys.argv[1]) as cat:
    for i in range(int(sys.argv[2]), int(sys.argv[3])):
        cat.add(*result(f"·{{i}}"))
"""


def test_two_writers_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "c.sqlite")
    script = WRITER.format(tests=str(Path(__file__).parent))
    procs = [
        subprocess.Popen([sys.executable, "-c", script, path, lo, hi])
        for lo, hi in (("1", "300"), ("150", "450"))
    ]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    with Catalogue(path) as cat:
        assert len(cat.stored_codes(100, {})) == 449
        assert cat.count_false_readings() == 449
        assert sum(1 for _ in cat.db.execute("SELECT 1 FROM sequences")) == 449


# ---------------------------------------------------------------- damaged files, hostile rows, read-only folders


@pytest.fixture(scope="module")
def surveyed_file(tmp_path_factory) -> Path:
    """A catalogue of three codes at 300 heaps, written by the command line."""
    from cli_inprocess import run

    db = tmp_path_factory.mktemp("surveyed") / "cat.sqlite"
    status, _, err = run("survey", "--codes", "·7,·137,·6", "-n", "300", "--db", str(db), "--workers", "1")
    assert status == 0, err
    return db


COMMANDS = (
    ("show", "·137"),
    ("report", "--out", "site"),
    ("survey", "--codes", "·7,·137,·6", "-n", "300", "--workers", "1"),
)


def _each_command(db: Path, here: Path) -> list[tuple[int, str, str]]:
    from cli_inprocess import run

    out = []
    for argv in COMMANDS:
        argv = [str(here / a) if a == "site" else a for a in argv]
        out.append(run(*argv, "--db", str(db)))
    return out


def test_garbage_in_any_page_is_one_line_for_every_command(surveyed_file, tmp_path):
    """``show``, ``report`` and ``survey`` ended in ``sqlite3.DatabaseError: database disk image is
    malformed`` when garbage was written into the pages of a catalogue."""
    size = surveyed_file.stat().st_size
    page = 4096
    damaged = 0
    for first in range(page, size, page):
        db = tmp_path / f"page{first // page}.sqlite"
        raw = bytearray(surveyed_file.read_bytes())
        raw[first + 100 : first + page] = b"\x5a" * (page - 100)
        db.write_bytes(bytes(raw))
        for status, _out, err in _each_command(db, tmp_path):
            assert "Traceback" not in err and status in (0, 2), err
            if status == 2:
                line = one_line(err)
                damaged += "is damaged" in line
    assert damaged, "no page's garbage was noticed"


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if not x.startswith("grundy: warning: ")]
    assert len(lines) == 1 and lines[0].startswith("grundy: error: "), err
    return lines[0]


HOSTILE = [
    ("results", "start", "'x'"), ("results", "heaps", "'x'"), ("results", "max_value", "-3"),
    ("results", "status", "'weird'"), ("results", "period", "0"), ("results", "code", "'zz'"),
    ("results", "values_sha256", "'abc'"), ("results", "repetitions_needed", "'many'"),
    ("results", "extra", """'{"arithmetic": {"start": 1}}'"""),
    ("results", "extra", """'{"heap0_reached": 5}'"""), ("results", "extra", """'{"believed": {"2": "x"}}'"""),
]


@pytest.mark.parametrize("table, column, value", HOSTILE, ids=lambda x: str(x)[:20])
def test_a_row_no_survey_writes_is_a_damaged_row(surveyed_file, tmp_path, table, column, value):
    """A stored start of ``'x'`` or a status no survey writes ended in TypeError, ValueError or
    KeyError tracebacks in ``show`` and ``report``; each is now the damaged row it is."""
    from cli_inprocess import run

    db = tmp_path / "c.sqlite"
    db.write_bytes(surveyed_file.read_bytes())
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE {table} SET {column}={value} WHERE code='·137'")
    conn.close()
    with Catalogue(db, readonly=True) as cat:
        with pytest.raises(CatalogueError, match="corrupt"):
            list(cat.results())
        with pytest.raises(CatalogueError, match="corrupt"):
            cat.table()
    shown = "zz" if value == "'zz'" else "·137"
    for argv in (("report", "--out", str(tmp_path / "site")), ("show", shown)):
        status, _, err = run(*argv, "--db", str(db))
        if not (argv[0] == "show" and shown == "zz"):  # 'zz' is no code: show refuses it as such
            assert "corrupt" in one_line(err) and status == 2
        assert "Traceback" not in err
    if column not in ("heaps", "code"):  # still a row of the survey: computed again, with a warning
        status, _, err = run(*COMMANDS[2], "--db", str(db))
        assert status == 0 and "corrupt" in err and "computing it again" in err, err
        with Catalogue(db, readonly=True) as cat:
            assert cat.record("·137")["period"] == 34


def _run_as(uid: int, gid: int, argv_list: list[list[str]]) -> list[tuple[int, str, str]]:
    """Each command line run in a child process that has become user ``uid``; the modules the
    commands use must be imported first (the child may read none of the interpreter's files)."""
    import pickle

    from cli_inprocess import run

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            answer = [run(*argv) for argv in argv_list]
        except BaseException as exc:  # sent to the parent, which fails the test
            answer = exc
        with os.fdopen(write, "wb") as f:
            pickle.dump(answer if not isinstance(answer, BaseException) else repr(answer), f)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as f:
        answer = pickle.loads(f.read())
    os.waitpid(pid, 0)
    assert not isinstance(answer, str), answer
    return answer


@pytest.mark.parametrize("owner", ["root", "user"])
def test_a_catalogue_in_a_read_only_folder_as_a_user(surveyed_file, owner):
    """As a user who is not root, a catalogue in a folder they cannot write was "not a grundy
    catalogue" (SQLite could not make the ``-shm`` file a reader of a WAL file needs); ``show``
    and ``report`` now read it, and ``survey`` says it cannot be written.  As root the commands
    run in a child that has become ``nobody`` (the file is the user's, or stays root's)."""
    import pwd
    import tempfile

    from cli_inprocess import run

    with tempfile.TemporaryDirectory() as top:
        top = Path(top)
        folder, site = top / "ro", top / "site"
        folder.mkdir()
        site.mkdir()
        db = folder / "cat.sqlite"
        db.write_bytes(surveyed_file.read_bytes())
        argv = [["show", "·137", "--db", str(db)], ["report", "--db", str(db), "--out", str(site)],
                [*COMMANDS[2], "--db", str(db)]]
        try:
            if os.geteuid() == 0:
                try:
                    nobody = pwd.getpwnam("nobody")
                except KeyError:
                    pytest.skip("running as root on a system without the user nobody to become")
                for warm in argv:  # import what the commands use, as root, on a copy
                    copy = top / "warm.sqlite"
                    copy.write_bytes(db.read_bytes())
                    run(*[str(copy) if a == str(db) else str(top / "warm") if a == str(site) else a
                          for a in warm])
                top.chmod(0o755)
                os.chown(site, nobody.pw_uid, nobody.pw_gid)
                if owner == "user":
                    os.chown(db, nobody.pw_uid, nobody.pw_gid)
                folder.chmod(0o555)
                answers = _run_as(nobody.pw_uid, nobody.pw_gid, argv)
            else:
                folder.chmod(0o555)
                answers = [run(*a) for a in argv]
        finally:
            folder.chmod(0o755)
        (show, _, show_err), (report, _, report_err), (survey, _, survey_err) = answers
        assert show == 0 and "period 34 from heap 52" in answers[0][1], show_err
        assert report == 0 and (site / "index.html").exists(), report_err
        assert survey == 2 and "cannot be written" in one_line(survey_err)
        assert sorted(p.name for p in folder.iterdir()) == ["cat.sqlite"]


def test_a_folder_that_cannot_be_written_is_read_as_immutable(tmp_path, monkeypatch):
    """Where ``os.access`` says the folder cannot be written (a read-only disk, a folder of another
    user), the file is read without the ``-shm`` file a WAL reader makes; a ``-wal`` file holding
    writes that such a reader would miss is refused, not silently skipped."""
    import grundy.catalogue.database

    folder = tmp_path / "f"
    path = folder / "c.sqlite"
    with Catalogue(path) as cat:
        cat.add(*result("·12"))
    real = os.access
    monkeypatch.setattr(grundy.catalogue.database.os, "access",
                        lambda p, mode: False if Path(p) == folder.resolve() else real(p, mode))
    with Catalogue(path, readonly=True) as cat:
        assert [r["code"] for r in cat.results()] == ["·12"]
        assert sorted(p.name for p in folder.iterdir()) == ["c.sqlite"]
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("DELETE FROM results")
    writer.commit()
    try:
        assert (folder / "c.sqlite-wal").stat().st_size
        with pytest.raises(CatalogueError, match="not yet merged"):
            Catalogue(path, readonly=True)
    finally:
        writer.close()
