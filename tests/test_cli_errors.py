"""Every error path of the CLI: one line on stderr, exit status 2, nothing lost (run in-process)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import grundy.memory
from cli_inprocess import one_line_error, run
from grundy.sequence import values as sequence_of

HEAP_COMMANDS = [
    ["values", "·137"],
    ["period", "·137"],
    ["readings", "·137"],
    ["rare", "·137"],
    ["counts", "·137", "--value", "1"],
    ["ledger", "·137", "--value", "1"],
]


@pytest.fixture
def memory_of_8_gib(monkeypatch):
    """Pretend 8 GiB are available, so that the check does not depend on this machine."""
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 8 << 30)


@pytest.mark.parametrize("command", HEAP_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("heaps", ["1000000000000", "99999999999999999999"])
def test_too_many_heaps_name_the_bytes_and_exit_2(command, heaps, memory_of_8_gib):
    line = one_line_error(*run(*command, "--heaps", heaps))
    assert f"{int(heaps):,} bytes" in line


def test_heaps_that_fit_are_computed(memory_of_8_gib):
    status, out, _ = run("period", "·137", "--heaps", "200")
    assert status == 0 and "period 34 from heap 52" in out


def test_the_issue_command_in_a_fresh_process():
    """``grundy period ·137 -n 99999999999999999999`` ended in a ValueError traceback."""
    for heaps in ("99999999999999999999", "10000000000000000"):
        out = subprocess.run(
            [sys.executable, "-m", "grundy", "period", "·137", "-n", heaps],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        one_line_error(out.returncode, out.stdout, out.stderr)
        assert f"{int(heaps):,} bytes" in out.stderr


def test_an_allocation_that_fails_anyway_is_one_line(monkeypatch):
    """Past the check (memory claimed plentiful), numpy's own refusal is still one line and exit 2."""
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 1 << 62)
    line = one_line_error(*run("period", "·137", "--heaps", str(10**15)))
    assert "out of memory" in line


def test_memory_available_is_a_positive_number():
    assert grundy.memory.available_bytes() > 0


def _stored(tmp_path, name: str, write) -> str:
    seq = sequence_of("·137", 300)
    npy = seq.save(tmp_path / name)
    write(npy, seq.values)
    return str(tmp_path / name)


BAD_FILES = {
    "empty": lambda p, v: p.write_bytes(b""),
    "truncated": lambda p, v: p.write_bytes(p.read_bytes()[:100]),
    "floats": lambda p, v: np.save(p, v.astype(np.float64)),
    "negative": lambda p, v: np.save(p, v.astype(np.int64) - 1),
    "square": lambda p, v: np.save(p, v[:289].reshape(17, 17)),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
@pytest.mark.parametrize(
    "command",
    [
        ["values", "·137", "--heaps", "400", "--out"],
        ["rare", "·137", "--heaps", "400", "--after", "10", "--sequence"],
        ["counts", "·137", "--value", "1", "--heaps", "400", "--from", "10", "--sequence"],
    ],
    ids=lambda c: c[0],
)
def test_a_bad_sequence_file_is_a_bad_file_not_an_interrupt(tmp_path, command, kind):
    """An empty or truncated .npy was reported as "interrupted" with exit 130; floats were cast."""
    path = _stored(tmp_path, kind, BAD_FILES[kind])
    before = (tmp_path / f"{kind}.npy").read_bytes()
    line = one_line_error(*run(*command, path))
    assert f"{kind}.npy" in line and "interrupted" not in line
    assert (tmp_path / f"{kind}.npy").read_bytes() == before


# ---------------------------------------------------------------- defaults and contradictions


def test_the_documented_commands_work_on_a_short_sequence():
    """``counts ·6 --value 3 --heaps 2000`` and ``rare ·6 --heaps 2000`` failed on a cut-off of 10,000
    the user never gave: the command line's cut-off is now the library's, which scales with the heaps."""
    import json

    from grundy import rare as R

    g = sequence_of("·6", 2000)
    status, out, err = run("counts", "·6", "--value", "3", "--heaps", "2000", "--json")
    assert status == 0, err
    assert json.loads(out) == json.loads(json.dumps(R.counts("·6", g.values, 3).to_dict()))
    assert json.loads(out)["from"] == 200 == g.counts(3).lo
    status, out, err = run("rare", "·6", "--heaps", "2000", "--json")
    assert status == 0, err
    assert json.loads(out)["after"] == 200 == g.rare(mask=1, parity=1).after
    assert R.cutoff(10**6) == 10_000 and R.cutoff(35) == 3


@pytest.mark.parametrize("argv, words", [
    (["--digits", "2", "--codes", "·7"], "--digits make a family, and --codes lists one"),
    (["--codes", "·7", "--d0"], "--d0 make a family"),
    (["--codes", "·7", "--hex"], "--hex make a family"),
    (["--codes", "·7", "--recompute", "·45"], "--recompute ·45: not in the family surveyed"),
    (["--digits", "1", "--recompute", "·7,·45"], "--recompute ·45: not in the family surveyed"),
    (["--codes", "·7", "--scheduler", "foo"], "is not the address of a Dask scheduler"),
    (["--codes", "·7", "--scheduler", "tcp://h:abc"], "is not the address of a Dask scheduler"),
    (["--codes", "·7", "--scheduler", "abc://x"], "is not the address of a Dask scheduler"),
    (["--codes", "·7", "--scheduler", "localhost:99999"], "port 99999 is not between 1 and 65535"),
    (["--codes", "·7", "--scheduler", " "], "--scheduler needs the address"),
    (["--codes", "·7", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"], "give one or the other"),
])
def test_options_that_contradict_each_other_are_refused(tmp_path, argv, words):
    """Contradictions were ignored (``--digits`` with ``--codes``, ``--recompute`` of a code outside the
    family) or ended in a Dask traceback (``--scheduler foo``); nothing is written for them."""
    db = tmp_path / "c.sqlite"
    line = one_line_error(*run("survey", "-n", "60", "--db", str(db), *argv))
    assert words in line and not db.exists()


def test_more_workers_than_cores_are_capped_with_a_note(tmp_path, monkeypatch):
    import grundy.catalogue.executors

    monkeypatch.setattr(grundy.catalogue.executors, "cores", lambda: 1)
    status, out, err = run("survey", "--codes", "·7,·137", "-n", "60", "--db", str(tmp_path / "c.sqlite"),
                           "--workers", "64")
    assert status == 0 and "survey of 2 codes" in out
    assert err == "grundy: warning: --workers 64 is more than the 1 cores here: using 1\n"


def test_the_recomputed_codes_of_the_family_are_computed_again(tmp_path):
    db = str(tmp_path / "c.sqlite")
    assert run("survey", "--codes", "·7,·137", "-n", "60", "--db", db, "--workers", "1")[0] == 0
    status, out, _ = run("survey", "--codes", "·7,·137", "-n", "60", "--db", db, "--workers", "1",
                         "--recompute", "·137")
    assert status == 0 and "(1 computed, 1 already stored" in out
