"""The dense engine against the reference and across value-type promotion (the published
tables are checked in test_published.py)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.codes import Code, family, parse
from grundy.engine import compute, dense, smallest_dtype
from grundy.engine.chunks import next_chunk
from grundy.engine.reference import grundy_values, mex, option_values
from grundy.errors import UsageError
from naive import ref


def test_mex():
    assert mex(set()) == 0
    assert mex({0, 1, 3}) == 2
    assert mex({1, 2}) == 0


def test_reference_by_hand():
    # ·137, Dawson's chess (OEIS A002187) and ·77, Kayles (OEIS A002186).
    assert grundy_values(parse("·137"), 12) == [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]
    assert grundy_values(parse("·77"), 12) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    # ·4: remove one and split the rest in two; heaps 0..2 are worth 0 (docs/periodicity.md).
    assert grundy_values(parse("·4"), 5) == [0, 0, 0, 1, 1]
    # 4·: split a heap in two without removing: G(n) = 0 for n < 2, then 1, 0, ...
    assert grundy_values(parse("4"), 5) == [0, 0, 1, 0, 1]


def test_option_values_counts_every_move():
    # ·6 at heap 6: leave 5 (one move), or split 5 as (1,4), (2,3).
    g = grundy_values(parse("·6"), 6)
    assert len(option_values(parse("·6"), g, 6)) == 3
    # 0x·8 at heap 7: three heaps from 6: (1,1,4), (1,2,3), (2,2,2).
    g = grundy_values(parse("0x·8"), 7)
    assert len(option_values(parse("0x·8"), g, 7)) == 3


@pytest.mark.parametrize("code", [str(c) for c in family(2)] + [str(c) for c in family(2, d0=True) if c.digits[0] == 4])
def test_dense_equals_reference_short_codes(code):
    assert np.array_equal(compute(code, 300), ref(code, 300))


codes3to5 = st.builds(
    lambda rest, last, d0: Code((d0, *rest, last)),
    st.lists(st.integers(0, 7), min_size=2, max_size=4),
    st.integers(1, 7),
    st.sampled_from([0, 0, 0, 4]),
)


@settings(max_examples=examples(60), deadline=None)
@given(codes3to5, st.integers(1, 400))
def test_dense_equals_reference_random_codes(code, heaps):
    assert np.array_equal(compute(code, heaps), ref(code, heaps))


hexcodes = st.builds(
    lambda rest, last: Code((0, *rest, last)),
    st.lists(st.integers(0, 15), min_size=0, max_size=2),
    st.integers(8, 15),
)


@settings(max_examples=examples(25), deadline=None)
@given(hexcodes, st.integers(1, 90))
def test_dense_equals_reference_hexadecimal(code, heaps):
    assert code.hexadecimal
    assert np.array_equal(compute(code, heaps), ref(code, heaps))


def test_engines_agree_through_the_api():
    for code in ("·137", "0x·b7", "4·3"):
        assert np.array_equal(compute(code, 150, engine="reference"), compute(code, 150, engine="dense"))


def test_prefix_is_not_recomputed():
    values = compute("·137", 500)
    poisoned = values.copy()
    poisoned[400] ^= 1
    # Heaps below the prefix length are taken as given, so the poison stays.
    assert compute("·137", 600, prefix=poisoned[:450])[400] == poisoned[400]


def test_smallest_dtype():
    assert smallest_dtype(np.array([0, 255])) == np.uint8
    assert smallest_dtype(np.array([256])) == np.uint16
    assert smallest_dtype(np.array([1 << 16])) == np.uint32


def test_bad_arguments():
    with pytest.raises(UsageError):
        compute("·137", 0)
    with pytest.raises(UsageError):
        compute("·137", 10, engine="quantum")


def test_chunks_report_progress():
    seen = []
    dense.run(parse("·137"), 5000, np.zeros(0, np.uint8), on_chunk=lambda v: seen.append(v.size))
    assert seen[-1] == 5000 and seen == sorted(seen)


def test_chunks_grow_at_most_fourfold():
    # A run that starts fast must still pass through several chunks (checkpoints, Ctrl-C).
    seen = [1]
    dense.run(parse("·354"), 300_000, np.zeros(0, np.uint8), on_chunk=lambda v: seen.append(v.size))
    sizes = np.diff(seen)
    assert len(sizes) >= 4
    assert all(b <= 4 * a for a, b in itertools.pairwise(sizes[1:]))
    assert next_chunk(1000, 0.0) == 4000 and next_chunk(1000, 1.0) == 250
