"""``grundy settle``: certified periods reached by growing one sequence in place."""

import itertools
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from grundy import parse
from grundy.engine import compute
from grundy.engine.store import Store, fletcher32, hex32, stored_heaps
from grundy.readings.periods import Reading
from grundy.readings.settle import FIRST_DEPTH, next_depth, settle
from grundy.sequence import Sequence

KEYS = {"code", "t", "heaps", "settled", "start", "period", "window", "mask", "position",
        "rare_heaps", "last_rare", "max", "seconds", "reused", "checksum"}  # fmt: skip


def grundy(*args):
    return subprocess.run(
        [sys.executable, "-m", "grundy", *args], check=False, capture_output=True, text=True, timeout=300
    )


def _assert_certificate(values, start, period, window, t):
    """The certificate by its definition (docs/periodicity.md), on values computed separately."""
    assert start >= 1 and window == 2 * start + 2 * period + t and window <= values.size
    assert np.array_equal(values[start : window - period], values[start + period : window])
    assert values[start - 1] != values[start - 1 + period]


def test_dawsons_chess_anchor():
    result = settle(parse("·137"))
    r = result.reading
    assert result.settled and (r.start, r.period, r.window) == (52, 34, 175)
    assert result.heaps >= 175


@pytest.mark.parametrize("text", ["·156", "·356", "·644", "·165", "·127"])
def test_certificate_holds_on_dense_values(text):
    code = parse(text)
    result = settle(code)
    assert result.settled
    values = compute(code, result.heaps, engine="dense")
    r = result.reading
    _assert_certificate(values, r.start, r.period, r.window, code.t)
    assert result.max == values.max()


def test_a_long_preperiod_on_sparse_values():
    code = parse("·16")
    stages = []
    result = settle(code, on_depth=lambda depth, done: stages.append((depth, done)))
    assert result.settled and result.heaps > 100_000
    values = compute(code, result.heaps, engine="sparse")
    r = result.reading
    _assert_certificate(values, r.start, r.period, r.window, code.t)
    assert stages[0] == (FIRST_DEPTH, 1)
    assert all(done == depth for (depth, _), (_, done) in itertools.pairwise(stages))
    assert result.stats.rare_heaps > 0 and result.stats.mask > 0


def test_unsettled_stops_at_max_heaps():
    result = settle(parse("·6"), 3000)
    assert not result.settled and result.heaps == 3000
    obj = result.to_dict()
    assert set(obj) == KEYS
    assert obj["start"] is obj["period"] is obj["window"] is None
    assert obj["max"] == compute("·6", 3000).max()
    assert obj["checksum"] == hex32(fletcher32(compute("·6", 3000)))


def test_codes_the_method_does_not_cover_run_dense():
    obj = settle(parse("·33")).to_dict()
    assert obj["settled"] and obj["mask"] is obj["rare_heaps"] is obj["last_rare"] is None
    obj = settle(parse("0x·9"), 600).to_dict()
    assert obj["heaps"] == 600 and obj["mask"] is None


def _reading(start, period, window):
    return Reading(start, period, 0, window, window - 1, False)


def test_depths_grow_geometrically_and_jump_to_windows():
    assert next_depth(1000, None, 10**8) == 2000
    assert next_depth(1000, _reading(700, 100, 1603), 10**8) == 1603
    assert next_depth(1600, _reading(700, 100, 1603), 10**8) == 1700
    assert next_depth(1000, None, 1500) == 1500


def test_cli_json_has_exactly_the_keys():
    out = grundy("settle", "·156", "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert set(obj) == KEYS and obj["settled"] and obj["code"] == "·156" and obj["t"] == 3
    out = grundy("settle", "·6", "--max-heaps", "2000", "--json")
    obj = json.loads(out.stdout)
    assert set(obj) == KEYS and not obj["settled"] and obj["heaps"] == 2000
    assert out.returncode == 3, "not certified within the budget has its own exit status"


def test_cli_human_and_errors():
    r = settle(parse("·156")).reading
    out = grundy("settle", "·156")
    assert out.returncode == 0 and f"settled   period {r.period:,} from heap {r.start:,}" in out.stdout
    bad = grundy("settle", "·80")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    bad = grundy("settle", "·156", "--max-heaps", "0")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_out_keeps_the_values_and_a_second_run_reuses_them(tmp_path):
    first = settle("·156", out=tmp_path / "s")
    kept = Sequence.load(tmp_path / "s")
    assert first.reused == 0 and kept.depth == first.heaps
    assert np.array_equal(kept.values, compute("·156", first.heaps, engine="dense"))
    assert first.checksum == kept.checksum == hex32(fletcher32(kept.values))
    again = settle("·156", out=tmp_path / "s")
    assert again.reused == first.heaps and again.reading == first.reading
    assert again.checksum == first.checksum


def test_an_old_out_file_is_migrated(tmp_path):
    Sequence(parse("·156"), compute("·156", 2000)).save(tmp_path / "s")
    said = []
    result = settle("·156", out=tmp_path / "s", on_warning=said.append)
    assert result.settled and result.reused == 2000 and len(said) == 1 and "migrated" in said[0]
    assert Sequence.load(tmp_path / "s").depth == result.heaps


def test_a_cpu_budget_stops_early_and_a_later_run_goes_on(tmp_path):
    short = settle("·354", 3_000_000, tmp_path / "s", seconds=0.05)
    assert not short.settled and short.heaps < 3_000_000
    assert Sequence.load(tmp_path / "s").depth == short.heaps
    longer = settle("·354", 3_000_000, tmp_path / "s")
    assert longer.reused == short.heaps and longer.heaps == 3_000_000


def _wait_for(path, proc, seconds=120):
    """Until the store at ``path`` claims some heaps (a checkpoint)."""
    deadline = time.monotonic() + seconds
    while not stored_heaps(path):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.05)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_an_interrupted_settle_resumes_from_its_values(tmp_path, how):
    out = tmp_path / "s354"
    args = [sys.executable, "-m", "grundy", "settle", "·354", "--max-heaps", "4000000",
            "--out", str(out), "--checkpoint-seconds", "0", "--json"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(out, proc)
    proc.send_signal(how)
    _, err = proc.communicate(timeout=60)
    if how == signal.SIGINT:
        assert proc.returncode == 130 and len(err.strip().splitlines()) == 1, err
        assert "Traceback" not in err
    kept = Sequence.load(out).depth
    assert 0 < kept < 4_000_000
    Store.open(out).verify()
    done = subprocess.run(args, check=False, capture_output=True, text=True, timeout=300)
    obj = json.loads(done.stdout)
    assert done.returncode == 3 and obj["reused"] >= kept and obj["heaps"] == 4_000_000
    values = Sequence.load(out).values
    assert np.array_equal(values, compute("·354", 4_000_000, engine="sparse"))
