"""The trajectory of readings (docs/readings.md): the incremental reader against rescans by definition."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy import compute, family, parse
from grundy.codes import Code
from grundy.engine.reference import grundy_values
from grundy.errors import CertificateError
from grundy.readings.trajectory import readings, trajectory
from naive import kmp_reading, naive_readings, naive_trajectory

SMALL = list(family(2, d0=True))


def read_all(g, heap0=False):
    starts, periods = readings(g, heap0=heap0)
    return [None if p < 0 else (int(s), int(p)) for s, p in zip(starts, periods, strict=True)]


def as_naive(tr):
    out = tr.to_dict()
    del out["code"], out["t"]
    out["believed"] = tr.believed
    return out


@pytest.mark.parametrize("code", SMALL, ids=str)
def test_every_depth_and_trajectory_match_rescans(code):
    g = compute(code, 100).astype(np.int64)
    gl = g.tolist()
    assert read_all(g) == naive_readings(gl)
    assert read_all(g, heap0=True) == naive_readings(gl, lo=0)
    assert as_naive(trajectory(g, code)) == naive_trajectory(gl, code.t)
    assert as_naive(trajectory(g, code, heap0=True)) == naive_trajectory(gl, code.t, heap0=True)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.tuples(st.sampled_from((0, 4)), st.integers(0, 7), st.integers(0, 7), st.integers(1, 7)),
    st.integers(40, 110),
)
def test_random_three_digit_codes_match_rescans(digits, heaps):
    code = Code(digits)
    g = compute(code, heaps).astype(np.int64)
    gl = g.tolist()
    assert read_all(g) == naive_readings(gl)
    assert as_naive(trajectory(g, code)) == naive_trajectory(gl, code.t)
    assert as_naive(trajectory(g, code, heap0=True)) == naive_trajectory(gl, code.t, heap0=True)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=60), st.integers(1, 6))
def test_any_sequence_reads_as_by_definition(g, period):
    g = g + [g[i % period] if i % period < len(g) else 0 for i in range(len(g))]
    arr = np.array(g, dtype=np.int64)
    assert read_all(arr) == naive_readings(g)
    assert read_all(arr, heap0=True) == naive_readings(g, lo=0)


def test_137_anchor():
    """Period 34 from heap 52: OEIS A002187 (last exception at heap 51, shipped in
    grundy/data); window 2·52 + 2·34 + 3 = 175.  Right-from, changes and false readings:
    the naive reader on the reference engine's values, every depth read from scratch."""
    tr = trajectory(compute("·137", 400), "·137")
    f = tr.final
    assert (f.start, f.period, f.window, f.certified) == (52, 34, 175, True)
    assert tr.certified and tr.certificate_depth == 175 and tr.last_depth == 175
    naive = naive_trajectory(grundy_values(parse("·137"), 200), 3)
    assert (tr.right_from, tr.changes) == (naive["right_from"], naive["changes"])
    assert [fr.to_dict() for fr in tr.false_readings] == naive["false_readings"]
    assert tr.repetitions_needed == (175 - 52) / 34
    assert all(fr.held_to < fr.window for fr in tr.false_readings)


def test_45_anchor_matches_an_independent_reader():
    g = compute("·45", 1100)
    tr = trajectory(g, "·45")
    assert (tr.final.start, tr.final.period, tr.certificate_depth) == (498, 20, 1038)
    assert as_naive(tr) == naive_trajectory(g.tolist(), 2, reader=kmp_reading)


def test_226_false_reading_breaks_before_its_window():
    tr = trajectory(compute("·226", 120), "·226")
    (fr,) = [fr for fr in tr.false_readings if (fr.start, fr.period) == (7, 5)]
    assert (fr.last_depth, fr.held_to, fr.window) == (20, 20, 27)
    assert fr.to_dict() in naive_trajectory(grundy_values(parse("·226"), 120), 3)["false_readings"]
    assert fr.kind == "right_period_wrong_start" and fr.before_start
    assert fr.reach == pytest.approx(20 / 27)


def test_4_with_heap0_reaches_its_window_and_the_default_never_does():
    g = compute("·4", 400)
    tr = trajectory(g, "·4", heap0=True)
    assert next((f.start, f.period, f.window, f.held_to) for f in tr.reaching) == (0, 1, 3, 3)
    assert tr.false_readings[0].first_depth == 2
    default = trajectory(g, "·4")
    assert default.reaching == [] and default.certified
    assert (tr.final.start, tr.final.period) == (default.final.start, default.final.period)


def test_heap0_final_includes_heap_0_when_it_repeats():
    """``·33`` is 0 1 2 0 1 2 …: period 3 from heap 1 by default, from heap 0 when it may."""
    g = compute("·33", 60)
    default, h0 = trajectory(g, "·33"), trajectory(g, "·33", heap0=True)
    assert (default.final.start, default.final.period, default.final.window) == (1, 3, 10)
    assert (h0.final.start, h0.final.period, h0.final.window) == (0, 3, 8)
    assert h0.certificate_depth == default.certificate_depth == 10
    other = trajectory(compute("4·", 60), "4·", heap0=True)
    assert (other.final.start, other.final.period) == (1, 2)


def test_window_not_closed_reports_the_readings_so_far():
    g = compute("·137", 150)
    tr = trajectory(g, "·137")
    assert not tr.certified and tr.certificate_depth is None and tr.right_from is None
    assert tr.repetitions_needed is None and tr.last_depth == 150
    assert (tr.final.start, tr.final.period, tr.final.certified) == (52, 34, False)
    assert tr.to_dict()["final"] == {"start": 52, "period": 34, "window": 175}
    naive = naive_trajectory(grundy_values(parse("·137"), 150), 3)
    assert [fr.to_dict() for fr in tr.false_readings] == naive["false_readings"]


def test_no_reading_at_all():
    tr = trajectory(np.array([0, 1, 2]), "·3")
    assert tr.final is None and tr.first_depth is None
    assert tr.false_readings == [] and tr.changes == 0


def test_values_that_contradict_the_theorem_are_refused():
    with pytest.raises(CertificateError, match="breaks at depth 6"):
        trajectory(np.array([0, 5, 5, 5, 5, 5, 7]), "4·")


def test_json_keys():
    d = trajectory(compute("·226", 120), "·226").to_dict()
    assert list(d) == [
        "code", "t", "heaps", "final", "certified", "certificate_depth", "right_from", "changes",
        "repetitions_needed", "false_readings",
    ]
    assert list(d["false_readings"][0]) == [
        "start", "period", "first_depth", "last_depth", "held_to", "window", "reach", "kind",
        "before_start",
    ]


def test_believed_counts_repetitions_at_the_last_reported_depth():
    tr = trajectory(compute("·45", 1100), "·45")
    assert tr.believed == {r: sum(f.last_depth - f.start >= r * f.period for f in tr.false_readings)
                           for r in range(2, 7)}
    assert tr.believed[2] == len(tr.false_readings)


@pytest.mark.slow
def test_readings_at_depth_100000_match_an_independent_reader():
    """Sequences of 100,000 values (random, periodic from the start, growing): the reading at
    sampled depths is the Knuth–Morris–Pratt reader's."""
    rng = np.random.default_rng(0)
    for g in (rng.integers(0, 2, 100_000), np.tile([0, 1, 1, 2], 25_000), np.arange(100_000) // 3):
        starts, periods = readings(g)
        gl = g.tolist()
        for d in (2, 3, 17, 1000, 54_321, 99_999, 100_000):
            want = kmp_reading(gl, d)
            got = None if periods[d] < 0 else (int(starts[d]), int(periods[d]))
            assert got == want, d
        trajectory(g, "·77")


@pytest.mark.parametrize("arithmetic", [False, True])
def test_runs_says_when_its_arrays_are_too_short(arithmetic):
    # _readings grows the arrays and calls again; the runs then are those of roomy arrays.
    from grundy.readings import trajectory as t

    runs = t._runs
    x = np.tile(np.array([0, 1, 1, 0, 2], np.int64), 40) + (np.arange(200) // 5 if arithmetic else 0)

    def arrays(cap, reg):
        return [np.zeros(cap, np.int64) for _ in range(4)] + [np.zeros(101, np.int64)] + [
            np.zeros(reg, np.int64) for _ in range(5)
        ]

    roomy = arrays(400, 800)
    n = runs(x, arithmetic, *roomy)
    assert n >= 2
    assert runs(x, arithmetic, *arrays(n - 1, 800)) == -1  # one run too few
    assert runs(x, arithmetic, *arrays(400, 1)) == -1  # the registry too short
    again = arrays(n, 800)
    assert runs(x, arithmetic, *again) == n
    for a, b in zip(roomy[:4], again[:4], strict=True):
        assert np.array_equal(a[:n], b[:n])
    starts, periods = t.readings(x, arithmetic=arithmetic)
    assert (periods[starts >= 0] > 0).all() and (starts >= 0).any()
