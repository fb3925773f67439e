"""``grundy settle``: certified periods reached by growing one sequence in place."""

import itertools
import json
import subprocess
import sys

import numpy as np
import pytest

from grundy import parse
from grundy.cli.settle import FIRST_DEPTH, next_depth, settle
from grundy.engine import compute
from grundy.periods import Reading

KEYS = {"code", "t", "heaps", "settled", "start", "period", "window", "mask", "position",
        "rare_heaps", "last_rare", "max", "seconds"}  # fmt: skip


def grundy(*args):
    return subprocess.run(
        [sys.executable, "-m", "grundy", *args], check=False, capture_output=True, text=True, timeout=300
    )


def _assert_certificate(values, start, period, window, t):
    """The certificate by its definition (SPEC.md §3), on values computed separately."""
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


def test_cli_human_and_errors():
    r = settle(parse("·156")).reading
    out = grundy("settle", "·156")
    assert out.returncode == 0 and f"settled   period {r.period:,} from heap {r.start:,}" in out.stdout
    bad = grundy("settle", "·80")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    bad = grundy("settle", "·156", "--max-heaps", "0")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
