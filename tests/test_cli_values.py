"""``grundy values``: output, one-line errors, and runs that are killed and resumed."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cli_inprocess import one_line_error, run
from grundy.codes import parse
from grundy.engine import compute, sparse
from grundy.engine import store as S
from grundy.engine.checkpoint import compute_resumable, scratch, scratch_path
from grundy.sequence import Sequence, paths
from grundy.value_classes import RareClass


def grundy(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "grundy", *args],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip


def test_json_output():
    out = grundy("values", "·137", "--heaps", "40", "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["code"] == "·137" and obj["t"] == 3 and obj["heaps"] == 40
    assert obj["values"] == compute("·137", 40).tolist()
    assert obj["max"] == max(obj["values"])
    assert obj["checksum"] == S.hex32(S.fletcher32(compute("·137", 40)))
    assert [r["heaps"] for r in obj["frontier"]] == [1, 2, 4, 8, 16, 32, 40]


def test_a_long_json_leaves_the_values_to_the_store(tmp_path, monkeypatch):
    """Past JSON_VALUES heaps --json prints the summary, the checksum and the statistics only."""
    from grundy.cli import values as command

    monkeypatch.setattr(command, "JSON_VALUES", 1000)
    obj, _ = _values_json("·354", "--heaps", "3000", "--out", str(tmp_path / "s"))
    assert "values" not in obj and obj["store"] == str(tmp_path / "s")
    assert obj["checksum"] == S.hex32(S.fletcher32(compute("·354", 3000)))
    obj, _ = _values_json("·354", "--heaps", "1000", "--out", str(tmp_path / "s"))
    assert obj["values"] == compute("·354", 1000).tolist() and obj["reused"] == 1000


def test_a_store_as_deep_computes_nothing_and_says_so(tmp_path, monkeypatch):
    base = str(tmp_path / "s")
    assert run("values", "·16", "--heaps", "50000", "--out", base)[0] == 0
    whole = compute("·16", 30_000)

    def refuse(*args, **kwargs):
        raise AssertionError("a store already as deep was computed again")

    monkeypatch.setattr("grundy.engine.compute_with_stats", refuse)
    status, out, _ = run("values", "·16", "--heaps", "30000", "--out", base)
    assert status == 0 and "nothing computed: 50,000 heaps were stored already" in out
    obj, _ = _values_json("·16", "--heaps", "30000", "--out", base)
    assert obj["reused"] == 30_000 and obj["checksum"] == S.hex32(S.fletcher32(whole))
    assert obj["max"] == whole.max() and obj["frontier"][-1]["heaps"] == 30_000
    mask = RareClass(obj["mask"], 0, obj["position"])
    stats = sparse.statistics(parse("·16"), whole, mask)
    assert (obj["rare_heaps"], obj["last_rare"]) == (stats.rare_heaps, stats.last_rare)


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


def test_a_damaged_store_is_one_line(tmp_path):
    compute_and_store = grundy("values", "·137", "--heaps", "100", "--out", str(tmp_path / "s"))
    assert compute_and_store.returncode == 0
    chunk = next((tmp_path / "s").glob("*.zst"))
    chunk.write_bytes(chunk.read_bytes()[:-3] + b"abc")
    out = grundy("values", "·137", "--heaps", "200", "--out", str(tmp_path / "s"))
    assert out.returncode == 2 and "damaged" in out.stderr and len(out.stderr.splitlines()) == 1


def test_an_old_out_file_is_migrated_and_extended(tmp_path):
    Sequence(parse("·354"), compute("·354", 1500)).save(tmp_path / "s")
    status, out, err = run("values", "·354", "--heaps", "4000", "--out", str(tmp_path / "s"), "--json")
    assert status == 0 and json.loads(out)["reused"] == 1500
    assert err.count("grundy: warning: migrated") == 1 and len(err.splitlines()) == 1
    assert np.array_equal(Sequence.load(tmp_path / "s").values, compute("·354", 4000))
    assert Sequence.load(tmp_path / "s.npy").depth == 1500  # the old file is left as it was


def test_out_extends_existing(tmp_path):
    base = str(tmp_path / "s")
    assert grundy("values", "·354", "--heaps", "1000", "--out", base).returncode == 0
    out = grundy("values", "·354", "--heaps", "3000", "--out", base, "--json")
    obj = json.loads(out.stdout)
    assert obj["reused"] == 1000 and obj["values"] == compute("·354", 3000).tolist()
    other = grundy("values", "·77", "--heaps", "10", "--out", base)
    assert other.returncode == 2 and "holds ·354" in other.stderr


def stored_depth(base) -> int:
    """The heaps the store at ``base`` claims (0 while it has none)."""
    return S.stored_heaps(base)


def _start_and_wait_for_checkpoint(args, base, env=None):
    """Start ``grundy ARGS`` and return once its store claims some heaps (a checkpoint)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "grundy", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 120
    while not stored_depth(base):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return proc


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("command", ["values", "settle"])
def test_an_interrupt_before_the_first_checkpoint_keeps_the_values(tmp_path, command, how):
    """Issue 22: interrupted before its first timed checkpoint, a run dropped what it computed."""
    base = tmp_path / "s"
    limit = ["--heaps", str(HEAPS), "--engine", "dense"] if command == "values" else ["--max-heaps", "12000000"]
    args = [command, "·354", *limit, "--out", str(base), "--checkpoint-seconds", "3600"]
    proc = subprocess.Popen([sys.executable, "-m", "grundy", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while _cpu_seconds(proc.pid) < 1.5:  # past start-up, computing
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert stored_depth(base) == 0
    proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and len(err.strip().splitlines()) == 1 and "resume" in err, err
    kept = stored_depth(base)
    assert kept > 0
    assert np.array_equal(S.Store.open(base).read(0, kept), compute("·354", kept))


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
    S.Store.open(base).verify()
    out = grundy(*args, "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["reused"] == saved
    whole = compute("·354", HEAPS)
    assert np.array_equal(Sequence.load(base).values, whole)


def test_ctrl_c_keeps_checkpoint_without_out(tmp_path, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    env = dict(os.environ)
    args = ["values", "·354", "--heaps", str(HEAPS), "--engine", "dense", "--checkpoint-seconds", "0.1",
            "--json"]
    run_file = scratch_path("·354")
    proc = _start_and_wait_for_checkpoint(args, run_file, env=env)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "resume" in err and len(err.strip().splitlines()) == 1
    saved = Sequence.load(run_file).depth
    out = grundy(*args, env=env)
    obj = json.loads(out.stdout)
    assert obj["reused"] == saved > 0
    assert obj["values"] == compute("·354", HEAPS).tolist()
    assert not run_file.exists() and not list(run_file.parent.iterdir())


def test_unwritable_out_is_one_line(tmp_path):
    (tmp_path / "afile").write_text("")
    out = grundy("values", "·7", "--heaps", "10", "--out", str(tmp_path / "afile" / "s"))
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "Traceback" not in out.stderr


def test_a_full_disk_is_one_line_and_keeps_the_store(tmp_path, monkeypatch):
    base = str(tmp_path / "s")
    assert run("values", "·354", "--heaps", "2000", "--out", base)[0] == 0

    def full(target, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(S, "write_whole", full)
    line = one_line_error(*run("values", "·354", "--heaps", "5000", "--out", base))
    assert "disk is full" in line and "keeps its 2,000 heaps" in line
    monkeypatch.undo()
    assert np.array_equal(S.Store.open(base).read(0, 2000), compute("·354", 2000))


def test_another_run_writing_the_store_is_one_line(tmp_path):
    with S.Store.writer(tmp_path / "s", "·354"):
        line = one_line_error(*run("values", "·354", "--heaps", "100", "--out", str(tmp_path / "s")))
    assert "another run is writing" in line


def _warnings(err: str) -> list[str]:
    lines = err.strip().splitlines()
    assert all(line.startswith("grundy: warning: ") for line in lines), err
    return lines


def _values_json(*args: str) -> tuple[dict, list[str]]:
    status, out, err = run("values", *args, "--json")
    assert status == 0, err
    return json.loads(out), _warnings(err)


def test_a_run_does_not_take_the_checkpoint_another_run_holds():
    """Two identical runs at once: the second computes alone, leaving the first's file be."""
    with pytest.raises(KeyboardInterrupt), scratch("·137") as held:
        held.append(compute("·137", 50))
        before = (held.path / "meta.json").read_bytes()
        obj, warned = _values_json("·137", "--heaps", "300", "--checkpoint-seconds", "0")
        assert obj["reused"] == 0 and obj["values"] == compute("·137", 300).tolist()
        assert len(warned) == 1 and "another run" in warned[0]
        assert (held.path / "meta.json").read_bytes() == before
        raise KeyboardInterrupt  # the first run is interrupted: its checkpoint is kept
    obj, warned = _values_json("·137", "--heaps", "300")
    assert obj["reused"] == 50 and warned == []


def test_a_finished_run_leaves_nothing_in_the_cache():
    obj, warned = _values_json("·354", "--heaps", "3000", "--checkpoint-seconds", "0")
    assert warned == [] and obj["values"] == compute("·354", 3000).tolist()
    runs = scratch_path("·354").parent
    assert list(runs.iterdir()) == []


def test_a_bad_file_in_the_cache_is_ignored_with_a_warning():
    npy, side = paths(scratch_path("·137"))
    npy.parent.mkdir(parents=True)
    npy.write_bytes(b"")
    side.write_text("{not json")
    obj, warned = _values_json("·137", "--heaps", "200")
    assert obj["reused"] == 0 and obj["values"] == compute("·137", 200).tolist()
    assert len(warned) == 1 and "ignoring a bad checkpoint" in warned[0]
    assert not npy.exists() and not side.exists()


def test_a_damaged_store_in_the_cache_is_ignored_with_a_warning():
    with pytest.raises(KeyboardInterrupt), scratch("·354") as held:
        held.append(compute("·354", 5000))
        raise KeyboardInterrupt
    (scratch_path("·354") / "meta.json").write_text('{"store": 1')
    obj, warned = _values_json("·354", "--heaps", "3000")
    assert obj["reused"] == 0 and obj["values"] == compute("·354", 3000).tolist()
    assert len(warned) == 1 and "ignoring a bad checkpoint" in warned[0]
    assert not scratch_path("·354").exists()


def test_an_old_checkpoint_in_the_cache_is_taken_over():
    Sequence(parse("·354"), compute("·354", 700)).save(scratch_path("·354"))
    obj, warned = _values_json("·354", "--heaps", "3000")
    assert obj["reused"] == 700 and obj["values"] == compute("·354", 3000).tolist() and warned == []
    assert list(scratch_path("·354").parent.iterdir()) == []


def test_a_checkpoint_of_another_code_in_the_cache_is_ignored():
    Sequence(parse("·77"), compute("·77", 40)).save(scratch_path("·137"))
    obj, warned = _values_json("·137", "--heaps", "100")
    assert obj["values"] == compute("·137", 100).tolist()
    assert len(warned) == 1 and "holds ·77" in warned[0]


def test_an_unwritable_cache_does_not_stop_a_computation(tmp_path, monkeypatch):
    (tmp_path / "afile").write_text("")
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "afile" / "cache"))
    obj, warned = _values_json("·354", "--heaps", "2000", "--checkpoint-seconds", "0")
    assert obj["values"] == compute("·354", 2000).tolist()
    assert len(warned) == 1 and "cannot use the cache" in warned[0]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_cache_does_not_stop_a_computation(tmp_path, monkeypatch):
    cache = tmp_path / "ro"
    cache.mkdir()
    cache.chmod(0o500)
    monkeypatch.setenv("GRUNDY_CACHE", str(cache))
    try:
        obj, warned = _values_json("·354", "--heaps", "2000")
    finally:
        cache.chmod(0o700)
    assert obj["values"] == compute("·354", 2000).tolist() and len(warned) == 1


def test_a_checkpoint_that_cannot_be_made_is_one_warning(tmp_path):
    """A disposable checkpoint whose folder is unusable: one warning, the values all the same;
    the same folder for a store of one's own is one error."""
    (tmp_path / "afile").write_text("")
    warned = []
    where = tmp_path / "afile" / "c"
    seq, reused, _ = compute_resumable(
        "·354", 20_000, where, every=0.0, disposable=True, on_warning=warned.append
    )
    assert reused == 0 and np.array_equal(seq.values, compute("·354", 20_000))
    assert len(warned) == 1 and "cannot use the cache" in warned[0]
    with pytest.raises(S.StoreError):
        compute_resumable("·354", 20_000, where, every=0.0)


def test_a_long_code_has_a_short_cache_name():
    """A code of 300 digits made a file name longer than the file system allows."""
    code = "·" + "7" * 300
    assert len(scratch_path(code).name) < 64
    assert scratch_path(code) != scratch_path("·" + "7" * 299)
    obj, warned = _values_json(code, "--heaps", "20")
    assert obj["values"] == compute(code, 20, engine="reference").tolist() and warned == []


def test_help_documents_the_cache():
    status, out, _ = run("values", "--help")
    assert status == 0 and "GRUNDY_CACHE" in out and "checkpoint" in out


def test_the_sparse_statistics_are_the_engines_own(monkeypatch):
    """The summary's mask and rare count come from the run itself, not from a second pass over
    every value (on ``·16`` to 2^24 heaps that pass took 3% of the command)."""
    from grundy.engine import sparse

    calls = []
    original = sparse.statistics
    monkeypatch.setattr(sparse, "statistics", lambda *a, **k: calls.append(a) or original(*a, **k))
    obj, _ = _values_json("·16", "--heaps", "20000")
    assert len(calls) == 1
    assert (obj["mask"], obj["rare_heaps"]) == (30, 52) and obj["last_rare"] == 13_935


def test_a_run_into_a_store_beyond_memory_is_bounded(tmp_path, monkeypatch):
    """With --out, heaps whose values would not fit are computed in bounded memory, with the values
    (checksum, statistics) of a run kept in memory, and resumed; without --out they are refused
    before any work."""
    import grundy.memory
    from grundy.engine import bounded

    runs = []
    extend = bounded.BoundedRun.extend
    monkeypatch.setattr(bounded.BoundedRun, "extend", lambda self, *a, **k: runs.append(a) or
                        extend(self, *a, **k))  # fmt: skip
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 1 << 19)
    assert one_line_error(*run("values", "·16", "--heaps", "700000"))
    small = ("--memory", "1", "--out")
    got, _ = _values_json("·16", "--heaps", "700000", *small, str(tmp_path / "b"))
    assert runs == [(700000,)]
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 1 << 30)
    kept, _ = _values_json("·16", "--heaps", "700000", "--out", str(tmp_path / "m"))
    assert len(runs) == 1
    assert got["checksum"] == kept["checksum"] and got["frontier"] == kept["frontier"]
    assert got["last_rare"] == 13_935
    more, _ = _values_json("·16", "--heaps", "900000", *small, str(tmp_path / "b"))
    assert more["reused"] == 700000 and runs[-1] == (900000,)
    assert more["checksum"] == _values_json("·16", "--heaps", "900000")[0]["checksum"]
