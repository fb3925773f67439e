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
