"""Codes with ``!`` (a split must leave two unequal heaps) on every engine, against the definition.

The truth is the reference engine and the naive twin (tests/naive.py),
both written from the rule itself; Grundy's game is also checked against the
published values in test_published.py.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grundy.codes import Code, family, parse
from grundy.engine import compute, compute_with_stats, dense, numpy_dense, sparse
from grundy.engine.reference import grundy_values, option_values
from grundy.rare import counts
from grundy.readings.position import parts_after, position
from naive import wrong_heaps
from test_properties import property_settings


def marked(code: Code):
    """``code`` with each non-empty set of its split-in-two digits (not three) marked ``!``."""
    ks = [k for k in code.split_two if not code.digits[k] & 8]
    for r in range(1, len(ks) + 1):
        for u in itertools.combinations(ks, r):
            yield Code(code.digits, u)


SHORT = [u for c in (Code((4,)), *family(2, d0=True)) for u in marked(c)]


def test_the_short_family_is_all_there():
    """Every 1..2 digit code with a split digit, each way of marking its split digits."""
    assert len(SHORT) > 150 and len(set(SHORT)) == len(SHORT)
    assert parse("grundy") in SHORT and parse("·4!4!") in SHORT


def test_the_equal_split_is_no_move():
    """``·4!`` at heap 5: the rest 4 splits as (1, 3) only; ``·4`` also has (2, 2)."""
    g = grundy_values(parse("·4"), 6)
    assert sorted(option_values(parse("·4!"), g, 5)) == [g[1] ^ g[3]]
    assert sorted(option_values(parse("·4"), g, 5)) == sorted([g[1] ^ g[3], 0])
    assert list(parts_after(parse("grundy"), 6)) == [(0, (1, 5)), (0, (2, 4))]


@pytest.mark.parametrize("code", SHORT, ids=str)
def test_every_engine_equals_the_reference(code):
    want = np.array(grundy_values(code, 300))
    assert np.array_equal(compute(code, 300, engine="dense"), want)
    assert np.array_equal(numpy_dense.run(code, 300, np.zeros(0, np.uint8)), want)
    got, _ = compute_with_stats(code, 300, engine="sparse")
    assert np.array_equal(got, want)
    for mask in (sparse.even_class(1), sparse.even_class(6), sparse.best_mask(code, want)[0]):
        got, _ = sparse.run(code, 300, np.zeros(0, np.uint8), mask=mask)
        assert np.array_equal(got, want), mask
    if sparse.split_parity(code) is not None:
        got, _ = sparse.run(code, 300, np.zeros(0, np.uint8), mask=sparse.even_class(3, True))
        assert np.array_equal(got, want)
    assert wrong_heaps(code, want) == []


@st.composite
def unequal_codes(draw):
    """An octal code of 1..4 digits (``d0`` 0 or 4) with at least one split digit marked ``!``."""
    d0 = draw(st.sampled_from((0, 0, 4)))
    rest = draw(st.lists(st.integers(0, 7), min_size=0, max_size=3))
    digits = [d0, *rest, draw(st.integers(1, 7))]
    digits[draw(st.integers(0 if d0 else 1, len(digits) - 1))] |= 4
    ks = [k for k, d in enumerate(digits) if d & 4]
    marks = draw(st.lists(st.sampled_from(ks), min_size=1, unique=True))
    return Code(tuple(digits), tuple(marks))


@property_settings(150)
@given(
    unequal_codes(),
    st.one_of(st.integers(1, 15), st.integers(16, 1 << 12)),
    st.booleans(),
    st.integers(2, 1500),
    st.integers(0, 1000),
)
def test_sparse_engine_is_exact_for_every_class_with_unequal_splits(code, bits, position, heaps, known):
    """Random ``!`` codes, any mask (good or poor), any prefix: the sparse values are the
    dense engine's, and those are the naive twin's."""
    if sparse.split_parity(code) is None:
        position = False
    want = compute(code, heaps, engine="dense")
    mask = sparse.even_class(bits, position)
    got, stats = sparse.run(code, heaps, want[: min(known, heaps - 1)], mask=mask)
    assert np.array_equal(got, want) and got.dtype == want.dtype and stats.rare_class == mask
    if heaps <= 400:
        assert wrong_heaps(code, want) == []


@property_settings(40)
@given(unequal_codes(), st.integers(1, 160))
def test_dense_equals_reference_on_random_unequal_codes(code, heaps):
    assert np.array_equal(compute(code, heaps, engine="dense"), grundy_values(code, heaps))


@pytest.mark.parametrize("text", ["0x·4!8", "0x·84!", "0x4!·9"])
def test_hexadecimal_codes_with_unequal_splits(text):
    code = parse(text)
    assert code.hexadecimal and code.unequal
    assert np.array_equal(compute(code, 70, engine="dense"), grundy_values(code, 70))
    assert np.array_equal(numpy_dense.run(code, 70, np.zeros(0, np.uint8)), grundy_values(code, 70))


def test_grundys_game_deep_against_the_naive_twin():
    """Heaps where a rare heap is half of the heap (the equal split the kernels must skip) are
    many below 6,000; the sparse kernel's values are the definition's there."""
    values, stats = compute_with_stats("grundy", 6000, engine="sparse")
    rare = set(sparse.rare_heaps(parse("grundy"), values, stats.rare_class).tolist())
    assert sum(1 for x in rare if 2 * x < 6000) > 100
    assert wrong_heaps("grundy", values) == []


def test_promotion_with_unequal_splits():
    """``·44!`` first reaches 256 below 17,000 heaps: both engines promote and agree."""
    code = parse("·44!")
    want = dense.run(code, 17_000, np.zeros(0, np.uint8))
    assert want.dtype == np.uint16 and int(want.max()) > 255
    got, _ = compute_with_stats(code, 17_000, engine="sparse")
    assert np.array_equal(got, want) and got.dtype == np.uint16


def test_counts_of_zero_skip_the_equal_split():
    """Split counts of value 0 of ``4!·`` (every split enumerated): the naive count by the rule."""
    code = parse("grundy")
    g = compute(code, 400).astype(np.int64)
    c = counts(code, g, 0, lo=1)
    want = [sum(1 for a in range(1, (n - 1) // 2 + 1) if g[a] == g[n - a]) for n in range(1, 400)]
    assert c.split_counts.tolist() == want
    assert c.moves.zero == sum(1 for w in want if w == 0)


def test_counts_through_a_rare_class_with_unequal_splits():
    """A value in an odd class: the class kernel's counts equal the plain count."""
    code = parse("·64!")
    g = compute(code, 1500).astype(np.int64)
    for v in (1, 3):
        c = counts(code, g, v, lo=100)
        want = [
            sum(1 for k in code.split_two for a in range(1, code.split_top(k, n - k) + 1)
                if g[a] ^ g[n - k - a] == v)
            for n in range(100, 1500)
        ]  # fmt: skip
        assert c.split_counts.tolist() == want


def test_winning_moves_never_split_equally():
    """Every winning move of a ``4!·`` position leaves a position worth 0, and none splits a heap
    into two equal heaps."""
    g = compute("grundy", 40)
    p = position("grundy", [9, 14, 20])
    assert p.value == int(g[9] ^ g[14] ^ g[20]) and len(p.winning_moves) >= 6
    for m in p.winning_moves:
        assert len(m.leaves) == 2 and m.leaves[0] != m.leaves[1] and sum(m.leaves) == m.heap
        left = 0
        for x in m.after:
            left ^= int(g[x])
        assert left == 0
