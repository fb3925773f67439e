"""Every command driven with drawn codes, heap counts and paths: exit 0 or 2, never a traceback.

Each example runs one ``grundy`` command in this process (:func:`grundy.cli.main`)
in a fresh folder holding the kinds of path a user gets wrong: a missing
folder, a folder where a file is expected, a read-only file, an empty file,
junk, a valid sequence, a valid catalogue, a catalogue with garbage in its
pages, one with a row no survey writes, and one in a read-only folder.
Codes are valid and invalid strings; heap counts include 0, negative, huge
and non-numeric ones; options are drawn that contradict each other
(``--digits`` with ``--codes``, ``--recompute`` outside the family), that
point nowhere (``--scheduler`` addresses that are none) or that select
nothing (masks wider than every value), and defaults are left to scale with
short sequences.  Valid heap counts stay small so that the default run is
quick; the slow suite runs many more examples.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli_inprocess import run
from conftest import examples
from grundy.codes import Code
from grundy.sequence import values as sequence_of


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """``good`` four times in five, so that most examples reach the work, not the first check."""
    return st.integers(0, 4).flatmap(lambda i: bad if i == 0 else good)


VALID_CODES = st.builds(
    lambda d0, rest, last: str(Code((d0, *rest, last))),
    st.sampled_from([0, 4]),
    st.lists(st.integers(0, 7), max_size=2),
    st.integers(1, 7),
)
BAD_CODES = st.one_of(
    st.sampled_from(["", "·", "5", "0", "40", "·80", "·130", "0x", "0x·0", "·1.2", "4·0", "abc"]),
    st.text(alphabet="0123489ax·., -", max_size=6),
)
CODES = mostly(st.one_of(VALID_CODES, st.sampled_from(["4", "0x·9", "·354", "·6"])), BAD_CODES)
SMALL = st.integers(-3, 300).map(str)
HEAPS = mostly(
    st.integers(1, 300).map(str),
    st.one_of(
        st.integers(-3, 0).map(str),
        st.integers(10**12, 10**30).map(str),
        st.sampled_from(["many", "", "1.5", "1e3", "0x10", "-0", " 7"]),
    ),
)
STORED_HEAPS = mostly(
    st.integers(1, 300).map(str),
    st.one_of(
        st.integers(-3, 0).map(str),
        st.integers((1 << 43) + 1, 10**30).map(str),
        st.sampled_from(["many", "", "1.5", "1e3", "0x10", "-0", " 7"]),
    ),
)
"""Heap counts for a run into a store: a huge one within the engine's reach is a long run, not an
error (bounded memory), so the huge ones drawn lie beyond it (2^43)."""
BAD_FILES = st.sampled_from(
    ["missing/sub/x", "adir", "readonly", "empty", "junk", "floats", "afile/x"]
)
FILES = mostly(
    st.sampled_from(["new", "good", "cat.sqlite", "adir/new"]),
    BAD_FILES,
)
DB = st.just("cat.sqlite")
CATALOGUES = st.sampled_from(["cat.sqlite", "damaged.sqlite", "badrow.sqlite", "rodir/cat.sqlite"])
"""A valid catalogue, one with garbage in its pages, one with a row no survey writes, one in a
read-only folder (read-only for a user who is not root)."""
SCHEDULERS = st.sampled_from(["foo", "", " ", "abc://x", "localhost:99999", "tcp://h:abc", "[::1"])
"""Addresses that are no scheduler's: each is refused before anything tries to connect."""
MASKS = st.one_of(SMALL, st.sampled_from(["4096", str(1 << 40), "0"]))
SETTLED = st.sampled_from(["·137", "·7", "4·07", "·34", "·77"])
HUGE = st.integers(10**6, 10**40).map(str)
FLAG = st.booleans()


@st.composite
def invocations(draw, figures: int = 2) -> tuple[list[str], set[int]]:
    """A command line, and the exit statuses it may end with.

    Figures (a report, ``--plot``, ``--plots``) cost seconds: they are asked
    for with a valid target one time in ``figures``.
    """
    drawn = draw(st.integers(0, figures - 1)) == 0
    cmd = draw(
        st.sampled_from(
            ["values", "period", "readings", "settle", "survey", "show", "report",
             "rare", "counts", "ledger", "rare-survey", "nim"]
        )
    )  # fmt: skip
    code, heaps = draw(CODES), draw(HEAPS)
    opt = []

    def maybe(*args: str) -> None:
        if draw(FLAG):
            opt.extend(args)

    if cmd == "values":
        maybe("--out", draw(FILES))
        maybe("--engine", draw(st.sampled_from(["auto", "dense", "sparse", "reference", "x"])))
        maybe("--checkpoint-seconds", draw(st.sampled_from(["0", "-1", "x"])))
        if "--out" in opt:
            heaps = draw(STORED_HEAPS)
        argv = ["values", code, "-n", heaps]
    elif cmd in ("period", "readings"):
        maybe("--heap0")
        if cmd == "readings":
            where = draw(FILES if drawn else BAD_FILES)
            maybe("--plot", where + draw(st.sampled_from([".png", ".svg", ".txt", ""])))
        argv = [cmd, code, "-n", heaps]
    elif cmd == "settle":
        maybe("--out", draw(FILES))
        maybe("--seconds", draw(st.sampled_from(["0", "-1", "x", "0.05"])))
        argv = ["settle", code, "--max-heaps", heaps]
    elif cmd == "nim":
        if draw(FLAG):  # a settled code: heaps of any size answer by the period
            code = draw(SETTLED)
            sizes = st.lists(mostly(st.one_of(st.integers(0, 60).map(str), HUGE), HEAPS), max_size=3)
        else:
            sizes = st.lists(mostly(st.integers(0, 60).map(str), HEAPS), min_size=0, max_size=3)
        maybe("--sequence", draw(FILES))
        maybe("--db", draw(mostly(CATALOGUES, FILES)))
        argv = ["nim", code, *draw(sizes)]
    elif cmd == "survey":
        codes = ",".join(draw(st.lists(CODES, min_size=1, max_size=3)))
        family = ["--codes", codes or ","]
        if draw(st.integers(0, 3)) == 0:  # every code of a family instead, or both (a contradiction)
            family = draw(st.sampled_from([[], family])) + ["--digits", draw(st.sampled_from(["1", "0", "7"]))]
        maybe("--recompute", ",".join(draw(st.lists(CODES, min_size=1, max_size=2))))
        maybe(draw(st.sampled_from(["--d0", "--hex"])))
        maybe("--scheduler", draw(SCHEDULERS))
        argv = ["survey", *family, "-n", heaps, "--db", draw(mostly(FILES, CATALOGUES)), "--workers", "1"]
    elif cmd == "show":
        maybe("-n", heaps)
        argv = ["show", draw(mostly(st.just("·7"), CODES)), "--db", draw(mostly(CATALOGUES, FILES))]
    elif cmd == "report":
        db = draw(
            mostly(CATALOGUES, FILES)
            if drawn
            else st.sampled_from(["missing/x", "adir", "junk", "afile/x", "damaged.sqlite"])
        )
        site = draw(mostly(st.just("site"), FILES))
        argv = ["report", "--db", db, "--out", site]
    elif cmd == "rare":
        maybe("--after", draw(mostly(st.integers(0, 40).map(str), SMALL)))
        maybe("--block", draw(SMALL))
        maybe("--window", draw(SMALL))
        maybe("--max-period", draw(SMALL))
        maybe("--mask", draw(MASKS))
        maybe("--parity", draw(st.sampled_from(["0", "1", "2"])))
        maybe("--sequence", draw(FILES))
        maybe("--plots", draw(FILES if drawn else BAD_FILES))
        argv = ["rare", code, "-n", heaps]
    elif cmd == "counts":
        maybe("--from", draw(mostly(st.integers(1, 40).map(str), SMALL)))
        maybe("--mask", draw(MASKS))
        maybe("--sequence", draw(FILES))
        argv = ["counts", code, "-v", draw(SMALL), "-n", heaps]
    elif cmd == "ledger":
        maybe("--below", draw(SMALL))
        maybe("--mask", draw(MASKS))
        maybe("--top", draw(SMALL))
        maybe("--sequence", draw(FILES))
        maybe("--plots", draw(FILES if drawn else BAD_FILES))
        argv = ["ledger", code, "-v", draw(SMALL), "-n", heaps]
    else:
        maybe("--all-codes")
        maybe("--db", draw(FILES))
        argv = ["rare-survey", "--digits", draw(st.sampled_from(["1", "0", "9"])), "-n", heaps]
    maybe("--json")
    # settle says with exit status 3 that it gave up before the period was certified
    return argv + opt, ({0, 2, 3} if cmd == "settle" else {0, 2})


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Path:
    """A valid catalogue of two codes, made once."""
    db = tmp_path_factory.mktemp("catalogue") / "cat.sqlite"
    status, _, err = run("survey", "--codes", "·7,·137", "-n", "200", "--db", str(db), "--workers", "1")
    assert status == 0, err
    return db


@pytest.fixture(scope="module", autouse=True)
def _short_probe():
    """A code that never settles is looked at to 4,096 heaps, not 2^20, before a huge heap of it
    is refused: the same path, quicker."""
    module = importlib.import_module("grundy.readings.position")
    kept = module.PROBE_HEAPS
    module.PROBE_HEAPS = 4096
    yield
    module.PROBE_HEAPS = kept


def ground(folder: Path, catalogue: Path) -> None:
    """The paths a drawn command line may name, fresh for each example."""
    (folder / "adir").mkdir()
    (folder / "afile").write_text("")
    (folder / "junk").write_bytes(b"\x93NUMPY junk \x00\xff")
    (folder / "junk.npy").write_bytes(np.arange(7, dtype=np.float64).tobytes())
    (folder / "junk.json").write_text('{"format": 1, "code": "·7"')
    good = sequence_of("·137", 80)
    good.save(folder / "good")
    for bad, write in (
        ("empty", lambda p: p.write_bytes(b"")),
        ("floats", lambda p: np.save(p, good.values * 1.0)),
    ):
        write(good.save(folder / bad))
    readonly = sequence_of("·77", 40).save(folder / "readonly")
    for p in (readonly, readonly.with_suffix(".json")):
        p.chmod(0o444)
    shutil.copy(catalogue, folder / "cat.sqlite")
    raw = bytearray(catalogue.read_bytes())
    raw[4096:] = bytes(b ^ 0x5A for b in raw[4096:])
    (folder / "damaged.sqlite").write_bytes(bytes(raw))
    shutil.copy(catalogue, folder / "badrow.sqlite")
    with sqlite3.connect(folder / "badrow.sqlite") as db:
        db.execute("UPDATE results SET start='x' WHERE code='·137'")
    db.close()
    (folder / "rodir").mkdir()
    shutil.copy(catalogue, folder / "rodir" / "cat.sqlite")
    (folder / "rodir").chmod(0o555)


def check(argv: list[str], allowed: set[int], catalogue: Path) -> None:
    with tempfile.TemporaryDirectory() as d:
        here = os.getcwd()
        os.chdir(d)
        try:
            ground(Path(d), catalogue)
            status, _, err = run(*argv)
        finally:
            os.chdir(here)
            (Path(d) / "rodir").chmod(0o755)
    event(f"{argv[0]} exit {status}")
    assert "Traceback" not in err, (argv, err)
    assert status in allowed, (argv, status, err)
    if status == 2:
        errors = [line for line in err.splitlines() if line.startswith("grundy: error: ")]
        others = [line for line in err.splitlines() if line and not line.startswith("grundy: ")]
        assert len(errors) == 1 and not others, (argv, err)


COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large],
}


@settings(max_examples=examples(200), **COMMON)
@given(invocations(figures=6))
def test_every_command_exits_0_or_2_without_a_traceback(catalogue, call):
    check(*call, catalogue)


@pytest.mark.slow
@settings(max_examples=examples(1000), **COMMON)
@given(invocations())
def test_every_command_exits_0_or_2_without_a_traceback_many(catalogue, call):
    check(*call, catalogue)
