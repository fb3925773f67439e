"""The arithmetic trajectory (docs/arithmetic.md) against readings by their definition."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.codes import family
from grundy.engine import compute
from grundy.readings.periods import arithmetic_reading, held_to, window
from grundy.readings.trajectory import readings, trajectory
from naive import naive_arithmetic_readings, naive_runs


def read_all(g):
    s, p = readings(np.asarray(g, dtype=np.int64), arithmetic=True)
    return [None if q < 0 else (int(a), int(q)) for a, q in zip(s, p, strict=True)]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=40), st.integers(0, 3))
def test_every_depth_matches_the_definition(g, slope):
    g = [v + slope * i // 3 for i, v in enumerate(g)]
    assert read_all(g) == naive_arithmetic_readings(g)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.integers(0, 3), min_size=1, max_size=4),
            st.integers(0, 2),
            st.integers(1, 30),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_long_arithmetic_stretches_and_their_multiples(pieces):
    """Pieces that repeat a pattern with a saltus for many periods, so multiples are skipped."""
    g = [0]
    for pattern, saltus, length in pieces:
        g += [
            g[-1] + pattern[i % len(pattern)] + saltus * (i // len(pattern)) for i in range(length)
        ]
    g = g[:70]
    assert read_all(g) == naive_arithmetic_readings(g)


@pytest.mark.parametrize("code", [str(c) for c in family(2)] + ["·354", "·6", "·77", "·137"])
def test_codes_match_the_definition_and_periods(code):
    g = compute(code, 260).astype(np.int64)
    gl = g.tolist()
    reads = read_all(g)
    assert reads == naive_arithmetic_readings(gl)
    for d in (2, 50, 131, 260):
        r = arithmetic_reading(g, 2, d)
        assert reads[d] == (None if r is None else (r.start, r.period))


@pytest.mark.parametrize("code", ["·6", "·354", "·16", "·137", "·226", "·4"])
def test_trajectory_records_every_run(code):
    g = compute(code, 400).astype(np.int64)
    tr = trajectory(g, code, arithmetic=True)
    pure = trajectory(g, code)
    assert tr.arithmetic and tr.right_from is None
    assert (tr.final, tr.certificate_depth, tr.last_depth) == (
        pure.final,
        pure.certificate_depth,
        pure.last_depth,
    )
    runs = naive_runs(naive_arithmetic_readings(g.tolist()), tr.last_depth)
    assert [(f.start, f.period, f.first_depth, f.last_depth) for f in tr.false_readings] == runs
    for f in tr.false_readings:
        assert f.saltus == g[f.start + f.period] - g[f.start] > 0
        assert f.held_to == held_to(g, f.start, f.period, f.saltus)
        assert f.window == window(f.start, f.period, tr.code)
        assert f.to_dict()["saltus"] == f.saltus


def test_a_straight_line_is_read_from_heap_one_and_reaches_its_window():
    g = np.arange(30) * 2
    tr = trajectory(g, "·6", arithmetic=True)
    assert [(f.start, f.period, f.saltus) for f in tr.false_readings] == [(1, 1, 2)]
    assert tr.reaching == tr.false_readings
    assert "saltus" not in trajectory(compute("·226", 120), "·226").false_readings[0].to_dict()
