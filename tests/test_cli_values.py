"""``grundy values``: output, one-line errors, and runs that are killed and resumed."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from grundy.engine import compute
from grundy.sequence import Sequence, paths


def grundy(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "grundy", *args], check=False, capture_output=True, text=True, env=env, timeout=300
    )


def test_json_output():
    out = grundy("values", "·137", "--heaps", "40", "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["code"] == "·137" and obj["t"] == 3 and obj["heaps"] == 40
    assert obj["values"] == compute("·137", 40).tolist()
    assert obj["max"] == max(obj["values"])


def test_human_summary():
    out = grundy("values", ".77", "--heaps", "100")
    assert out.returncode == 0
    assert "·77" in out.stdout and "largest" in out.stdout and "0 1 2 3 1 4 3 2" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["values", "", "--heaps", "5"],
        ["values", "·", "--heaps", "5"],
        ["values", "·80", "--heaps", "5"],
        ["values", "·1x", "--heaps", "5"],
        ["values", "·130", "--heaps", "5"],
        ["values", "·9", "--heaps", "5"],
        ["values", "2.1", "--heaps", "5"],
        ["values", "·1.2", "--heaps", "5"],
        ["values", "abc", "--heaps", "5"],
        ["values", "·7", "--heaps", "0"],
        ["values", "·7", "--heaps", "many"],
        ["values", "·7"],
        ["values", "·7", "--heaps", "5", "--engine", "quantum"],
        ["nonsense"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    out = grundy(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "Traceback" not in out.stderr


def test_corrupt_out_file_is_one_line(tmp_path):
    compute_and_store = grundy("values", "·137", "--heaps", "100", "--out", str(tmp_path / "s"))
    assert compute_and_store.returncode == 0
    data = np.load(tmp_path / "s.npy")
    data[50] ^= 1
    np.save(tmp_path / "s.npy", data)
    out = grundy("values", "·137", "--heaps", "200", "--out", str(tmp_path / "s"))
    assert out.returncode == 2 and "corrupt" in out.stderr and len(out.stderr.splitlines()) == 1


def test_out_extends_existing(tmp_path):
    base = str(tmp_path / "s")
    assert grundy("values", "·354", "--heaps", "1000", "--out", base).returncode == 0
    out = grundy("values", "·354", "--heaps", "3000", "--out", base, "--json")
    obj = json.loads(out.stdout)
    assert obj["reused"] == 1000 and obj["values"] == compute("·354", 3000).tolist()
    other = grundy("values", "·77", "--heaps", "10", "--out", base)
    assert other.returncode == 2 and "holds ·354" in other.stderr


def _start_and_wait_for_checkpoint(args, base, env=None):
    """Start ``grundy ARGS`` and return once its first checkpoint is whole (the sidecar is written last)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "grundy", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 120
    while not paths(base)[1].exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return proc


HEAPS = 400_000  # the dense engine takes seconds here: long enough to interrupt


def test_kill_9_then_resume_gives_identical_values(tmp_path):
    base = tmp_path / "k"
    args = ["values", "·354", "--heaps", str(HEAPS), "--engine", "dense", "--out", str(base),
            "--checkpoint-seconds", "0.1"]
    proc = _start_and_wait_for_checkpoint(args, base)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    saved = Sequence.load(base).depth
    assert 0 < saved < HEAPS
    out = grundy(*args, "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["reused"] == saved
    whole = compute("·354", HEAPS)
    assert np.array_equal(Sequence.load(base).values, whole)


def test_ctrl_c_keeps_checkpoint_without_out(tmp_path):
    env = dict(os.environ, GRUNDY_CACHE=str(tmp_path / "cache"))
    args = ["values", "·354", "--heaps", str(HEAPS), "--engine", "dense", "--checkpoint-seconds", "0.1",
            "--json"]
    run_file = tmp_path / "cache" / "runs" / "354.npy"
    proc = _start_and_wait_for_checkpoint(args, run_file, env=env)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "resume" in err and len(err.strip().splitlines()) == 1
    saved = Sequence.load(run_file).depth
    out = grundy(*args, env=env)
    obj = json.loads(out.stdout)
    assert obj["reused"] == saved > 0
    assert obj["values"] == compute("·354", HEAPS).tolist()
    assert not run_file.exists()


def test_unwritable_out_is_one_line(tmp_path):
    (tmp_path / "afile").write_text("")
    out = grundy("values", "·7", "--heaps", "10", "--out", str(tmp_path / "afile" / "s"))
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "Traceback" not in out.stderr
