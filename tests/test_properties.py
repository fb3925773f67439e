"""Properties drawn by hypothesis where other files hold spot checks.

- the sparse engine is exact for every class (mask, parity of the heap or not);
- readings on the production value types (``uint8``, ``uint16``, unsigned
  differences) equal the naive reader's on Python integers;
- the value type climbs ``uint8 -> uint16 -> uint32`` and then refuses, with a
  small cap put in place of the real one so that the climb is quick.

Every property runs derandomised (the same examples on every run) under the default
hypothesis profile, randomised with more examples under ``dev`` (``tests/conftest.py``).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.codes import Code
from grundy.engine import compute, compute_with_stats, dense, sparse
from grundy.errors import ValueRangeError
from grundy.readings.periods import arithmetic_reading, held_to, reading
from grundy.readings.trajectory import trajectory
from naive import naive_held_to, naive_reading, naive_trajectory, wrong_heaps


def property_settings(n: int) -> settings:
    """``n`` examples (scaled by the profile: :func:`conftest.examples`), no deadline (the first
    example compiles kernels)."""
    return settings(
        max_examples=examples(n),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


@st.composite
def sparse_codes(draw):
    """An octal code of 1..4 digits (``d0`` 0 or 4) that has two-heap moves."""
    d0 = draw(st.sampled_from((0, 0, 0, 4)))
    rest = draw(st.lists(st.integers(0, 7), min_size=0, max_size=3))
    last = draw(st.integers(1, 7))
    code = Code((d0, *rest, last))
    if not sparse.applies(code):
        digits = list(code.digits)
        digits[draw(st.integers(1, len(digits) - 1))] |= 4
        code = Code(tuple(digits))
    return code


@property_settings(220)
@given(
    sparse_codes(),
    st.one_of(st.integers(1, 15), st.integers(16, 1 << 12)),
    st.booleans(),
    st.integers(2, 2000),
    st.integers(0, 1500),
)
def test_sparse_engine_is_exact_for_every_class(code, bits, position, heaps, known):
    """Any mask, good or poor (above every value, all heaps rare), with or without the heap's
    parity, from scratch or extending a prefix: the values are the dense engine's."""
    if sparse.split_parity(code) is None:
        position = False
    want = compute(code, heaps, engine="dense")
    prefix = want[: min(known, heaps - 1)]
    got, stats = sparse.run(code, heaps, prefix, mask=sparse.even_class(bits, position))
    assert np.array_equal(got, want)
    assert got.dtype == want.dtype
    assert (stats.mask, stats.position) == (bits, position)


# ---------------------------------------------------------------- readings on unsigned arrays


@st.composite
def unsigned_sequences(draw, dtype):
    """A sequence with repeated stretches, its values near 0 and near the type's largest value
    (where a wrapped difference would look small), in ``dtype``."""
    top = int(np.iinfo(dtype).max)
    alphabet = st.sampled_from((0, 1, 2, top - 1, top))
    head = draw(st.lists(alphabet, max_size=8))
    block = draw(st.lists(alphabet, min_size=1, max_size=5))
    reps = draw(st.integers(1, 8))
    tail = draw(st.lists(alphabet, max_size=4))
    values = head + block * reps + tail
    return np.array(values or [0], dtype=dtype)


@property_settings(150)
@given(st.sampled_from((np.uint8, np.uint16)).flatmap(unsigned_sequences))
def test_readings_on_unsigned_arrays_match_the_naive_reader(g):
    gl = [int(v) for v in g]
    for d in range(1, g.size + 1):
        r = reading(g, 2, d)
        assert (None if r is None else (r.start, r.period)) == naive_reading(gl, d), d
        r0 = reading(g, 2, d, heap0=True)
        assert (None if r0 is None else (r0.start, r0.period)) == naive_reading(gl, d, lo=0), d
        a = arithmetic_reading(g, 2, d)
        want = naive_reading(gl, d, arithmetic=True)
        assert (None if a is None else (a.start, a.period)) == want, d
        if a is not None:
            assert a.saltus == gl[a.start + a.period] - gl[a.start] > 0
    for s in range(g.size):
        for p in (1, 2, 3):
            assert held_to(g, s, p) == naive_held_to(gl, s, p)


@st.composite
def codes_and_depths(draw):
    digits = (draw(st.sampled_from((0, 4))), draw(st.integers(0, 7)), draw(st.integers(1, 7)))
    return Code(digits), draw(st.integers(30, 120))


def _as_naive(tr):
    out = tr.to_dict()
    del out["code"], out["t"]
    out["believed"] = tr.believed
    return out


@property_settings(60)
@given(codes_and_depths(), st.sampled_from((np.uint8, np.uint16)), st.integers(0, 65_000))
def test_trajectories_on_unsigned_arrays_match_the_naive_reader(code_depth, dtype, lift):
    """The engine's own uint8 output, and the same values lifted close to the top of uint16
    (a constant added changes no pure reading): the naive trajectory of the plain values."""
    code, heaps = code_depth
    g = compute(code, heaps)
    assert g.dtype == np.uint8
    if dtype is np.uint16:
        g = g.astype(np.uint16) + np.uint16(min(lift, 65_535 - int(g.max())))
    want = naive_trajectory([int(v) - int(g[0]) for v in g], code.t)
    assert _as_naive(trajectory(g, code)) == want
    last = reading(g, code)
    assert (None if last is None else (last.start, last.period)) == naive_reading(
        [int(v) for v in g], heaps
    )


# ---------------------------------------------------------------- the value type's ladder


def _ladder(run, module, monkeypatch, cap):
    """Run with the largest supported value set to ``cap``; the value types seen, and the error."""
    monkeypatch.setattr(module, "MAX_VALUE", cap)
    seen = []
    with pytest.raises(ValueRangeError) as err:
        run(lambda values: seen.append(values.dtype))
    return seen, str(err.value)


@pytest.mark.parametrize("engine", ["dense", "sparse"])
def test_promotion_climbs_every_type_then_refuses(engine, monkeypatch):
    """``·77`` first reaches 4 at heap 5 (Kayles, OEIS A002186): with a cap of 3 the run
    promotes uint8 -> uint16 -> uint32, then says which heap is out of range."""
    code = "·77"
    first = next(i for i, v in enumerate(compute(code, 50, engine="reference")) if v > 3)
    if engine == "dense":
        module = dense

        def run(on_chunk):
            dense.run(Code((0, 7, 7)), 50, np.zeros(0, np.uint8), on_chunk)
    else:
        module = sparse
        monkeypatch.setattr(dense, "MAX_VALUE", 3)

        def run(on_chunk):
            sparse.run(Code((0, 7, 7)), 50, np.zeros(0, np.uint8), on_chunk, mask=sparse.even_class(1))

    seen, message = _ladder(run, module, monkeypatch, 3)
    assert [np.dtype(t) for t in dict.fromkeys(seen)][-2:] == [np.uint16, np.uint32]
    assert message.startswith(f"heap {first} of {code} ") and " 3" in message


@pytest.mark.parametrize("engine", ["dense", "sparse"])
def test_a_cap_above_the_values_changes_nothing(engine, monkeypatch):
    """The cap only refuses: with it above the largest value, every value is the reference's.

    A cap is a power of two minus one, as the kernels need: the XOR of two values
    below it stays below it.
    """
    want = compute("·77", 80, engine="reference")
    cap = (1 << int(want.max()).bit_length()) - 1
    monkeypatch.setattr(dense, "MAX_VALUE", cap)
    monkeypatch.setattr(sparse, "MAX_VALUE", cap)
    got, _ = compute_with_stats("·77", 80, engine=engine)
    assert np.array_equal(got, want)


def test_promotion_past_255_is_right_at_every_heap():
    """``·6`` first reaches 256 at heap 10,344 (README): both engines promote to uint16 and every
    value is the mex of its options (checked by the definition, heap by heap)."""
    heaps = 10_400
    g = compute("·6", heaps, engine="dense")
    assert g.dtype == np.uint16 and int(g.max()) > 255
    assert wrong_heaps("·6", g) == []
    part = compute("·6", heaps, prefix=g[:9_000].astype(np.uint8), engine="dense")
    assert part.dtype == np.uint16 and np.array_equal(part, g)
    assert np.array_equal(compute("·6", heaps, engine="sparse"), g)
