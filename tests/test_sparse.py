"""The sparse-space engine against the dense one, with good masks and poor ones; its statistics."""

import itertools
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from grundy import UsageError, family, parse
from grundy.engine import choose, compute, compute_with_stats, sparse
from grundy.engine.store import stored_heaps
from grundy.sequence import Sequence
from naive import naive_rare


def _masks(code, values):
    """The best mask for ``values`` and poor ones (1, 2 and position variants where they apply)."""
    out = [sparse.best_mask(code, values)[0], sparse.even_class(1), sparse.even_class(2)]
    if sparse.split_parity(code) is not None:
        out += [sparse.even_class(1, True), sparse.even_class(3, True)]
    return out


def _sparse(code, heaps, mask=None, prefix=None):
    return compute_with_stats(code, heaps, engine="sparse", mask=mask, prefix=prefix)


def _sweep(heaps, masks):
    """Every code of 1-3 digits, and those of 1-2 digits with ``d0 = 4`` (splits removing nothing)."""
    checked = 0
    splits_only = [code for code in family(2, d0=True) if code.digits[0] == 4]
    for code in [*family(3), *splits_only]:
        if not sparse.applies(code):
            continue
        want = compute(code, heaps, engine="dense")
        got, stats = _sparse(code, heaps)
        assert np.array_equal(got, want), code
        assert got.dtype == want.dtype and stats.heaps == heaps
        for mask in masks(code, want):
            if mask.position and sparse.split_parity(code) is None:
                continue
            got, _ = _sparse(code, heaps, mask)
            assert np.array_equal(got, want), (code, mask)
        checked += 1
    assert checked > 500


def test_every_code_of_three_digits_matches_dense():
    """Every code, two masks, 1,500 heaps (the slow twin goes to 20,000 with every kind of mask;
    test_properties.py draws masks at random)."""
    _sweep(1500, lambda code, values: [sparse.even_class(1), sparse.even_class(1, True)])


@pytest.mark.slow
def test_every_code_of_three_digits_matches_dense_deeper_with_every_kind_of_mask():
    _sweep(20_000, _masks)


@pytest.mark.parametrize("text", ["·6", "·16", "·354", "·007", "·137", "·127", "4·07"])
def test_named_codes_deeper_with_any_mask(text):
    code = parse(text)
    heaps = 15_000
    want = compute(code, heaps, engine="dense")
    assert np.array_equal(_sparse(code, heaps)[0], want)
    for mask in _masks(code, want):
        got, stats = _sparse(code, heaps, mask)
        assert np.array_equal(got, want), mask
        assert (stats.mask, stats.position) == (mask.mask, mask.position)


@pytest.mark.parametrize("text", ["·354", "·16", "·6"])
def test_mask_that_makes_every_heap_rare(text):
    """A mask above every value: no value is common, every candidate lies beyond the type."""
    code = parse(text)
    want = compute(code, 2500, engine="dense")
    got, stats = _sparse(code, 2500, sparse.even_class(1 << 12))
    assert np.array_equal(got, want)
    assert stats.rare_heaps == 2499


def test_promotion_past_255_in_the_sparse_kernel():
    code = parse("·6")
    want = compute(code, 62_000, engine="dense")
    got, _ = _sparse(code, 62_000, sparse.even_class(494))
    assert want.max() > 255 and got.dtype == np.uint16
    assert np.array_equal(got, want)


def test_prefix_chunks_and_status():
    code = parse("·354")
    want = compute(code, 60_000, engine="dense")
    sizes, statuses = [], []
    got, _ = compute_with_stats(
        code, 60_000, prefix=want[:7000], on_chunk=lambda v: sizes.append(v.size),
        on_status=statuses.append,
    )  # fmt: skip
    assert np.array_equal(got, want)
    assert sizes == sorted(sizes) and sizes[-1] == 60_000
    steps = np.diff([7000, *sizes])
    assert all(b <= 4 * max(a, 64) for a, b in itertools.pairwise(steps))
    assert statuses[-1].heaps == 60_000 and statuses[-1].mask is not None
    assert "rare" in str(statuses[-1])


def test_a_run_grows_in_place():
    code = parse("·354")
    run = sparse.SparseRun(code, 50_000)
    buffer = run.g
    for depth in (1000, 7000, 50_000):
        values = run.extend(depth)
        assert values.base is buffer and run.g is buffer
    assert np.array_equal(values, compute(code, 50_000, engine="dense"))
    with pytest.raises(UsageError):
        run.extend(50_001)


def test_engine_choice():
    assert choose(parse("·354")) == "sparse" and choose(parse("·354"), "sparse") == "sparse"
    assert choose(parse("·354"), "dense") == "dense"
    assert choose(parse("·33")) == "dense" and choose(parse("0x·9")) == "dense"
    assert compute_with_stats("·33", 100)[1] is None
    assert np.array_equal(compute("0x·9", 80, engine="sparse"), compute("0x·9", 80, engine="dense"))


@pytest.mark.parametrize(
    "text, mask, engine",
    [
        ("·354", sparse.even_class(1, True), "sparse"),
        ("·354", sparse.even_class(1), "dense"),
        ("0x·9", sparse.even_class(1), "sparse"),
    ],
)
def test_forced_mask_must_make_sense(text, mask, engine):
    with pytest.raises(UsageError):
        compute_with_stats(text, 100, engine=engine, mask=mask)


def test_mask_must_be_positive():
    with pytest.raises(UsageError):
        sparse.even_class(0)


@pytest.mark.parametrize("text", ["·6", "·127", "·354", "·16", "·376"])
def test_best_mask_is_the_naive_minimum(text):
    code = parse(text)
    values = compute(code, 4000, engine="dense")
    pi = sparse.split_parity(code)
    counts = {}
    for bits in range(1, 2 ** int(values.max()).bit_length()):
        for position in (False, True) if pi is not None else (False,):
            mask = sparse.even_class(bits, position)
            counts[mask] = len(naive_rare(values, mask.mask, mask.parity, mask.position, pi))
            assert counts[mask] == sparse.rare_heaps(code, values, mask).size
    mask, rare = sparse.best_mask(code, values)
    assert rare == min(counts.values()) == counts[mask]


def test_statistics_are_those_of_the_values():
    code = parse("·354")
    values, stats = _sparse(code, 20_000)
    cls = sparse.even_class(stats.mask, stats.position)
    rare = naive_rare(values, cls.mask, cls.parity, cls.position)
    assert stats.rare_heaps == len(rare) and stats.last_rare == rare[-1]
    assert stats.max == values.max() and stats.argmax == int(np.argmax(values))
    assert set(stats.to_dict()) == {"mask", "position", "rare_heaps", "last_rare", "max", "argmax"}


def test_values_json_gains_sparse_keys():
    out = subprocess.run(
        [sys.executable, "-m", "grundy", "values", "·354", "--heaps", "5000", "--json"],
        check=False, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["engine"] == "sparse" and obj["rare_heaps"] > 0 and obj["mask"] > 0
    assert obj["values"] == compute("·354", 5000, engine="dense").tolist()
    args = ["values", "·354", "--heaps", "50", "--json", "--engine", "dense"]
    dense = subprocess.run(
        [sys.executable, "-m", "grundy", *args], check=False, capture_output=True, text=True, timeout=300
    )
    assert "mask" not in json.loads(dense.stdout)


HEAPS = 2_000_000
"""Long enough that the run is still going at its first checkpoint, short enough to compare."""


def test_killed_sparse_run_resumes_to_identical_values(tmp_path):
    base = tmp_path / "k"
    args = [sys.executable, "-m", "grundy", "values", "·354", "--heaps", str(HEAPS),
            "--out", str(base), "--checkpoint-seconds", "0.05"]  # fmt: skip
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not stored_heaps(base):  # the store claims its first checkpoint
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    saved = Sequence.load(base).depth
    assert 0 < saved < HEAPS
    out = subprocess.run([*args, "--json"], check=False, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["reused"] == saved
    assert np.array_equal(Sequence.load(base).values, compute("·354", HEAPS))
