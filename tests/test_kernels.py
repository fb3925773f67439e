"""The numba layer and the numpy path for small work: same values, limits that cannot go silently wrong."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.codes import Code, family, parse
from grundy.engine import _jit, compute, dense, native, numpy_dense, sparse, warm_up
from grundy.engine.native import Native
from grundy.errors import ValueRangeError
from naive import ref, wrong_heaps
from test_unequal import unequal_codes


@pytest.mark.parametrize("code", [str(c) for c in family(2)] + ["4·07", "4·3", "·6", "·354", "·16"])
def test_small_path_equals_reference(code):
    got = numpy_dense.run(parse(code), 400, np.zeros(0, np.uint8))
    assert np.array_equal(got, ref(code, 400))
    assert got.dtype == compute(code, 400, engine="dense").dtype


octal = st.builds(
    lambda rest, last, d0: Code((d0, *rest, last)),
    st.lists(st.integers(0, 7), min_size=0, max_size=4),
    st.integers(1, 7),
    st.sampled_from([0, 0, 0, 4]),
)
hexa = st.builds(
    lambda rest, last: Code((0, *rest, last)),
    st.lists(st.integers(0, 15), min_size=0, max_size=2),
    st.integers(8, 15),
)


@settings(max_examples=examples(80), deadline=None)
@given(st.one_of(octal, hexa), st.integers(1, 300), st.integers(0, 300))
def test_small_path_with_a_prefix_equals_the_kernels(code, heaps, known):
    want = compute(code, heaps, engine="dense")
    prefix = want[: min(known, heaps - 1)]
    assert np.array_equal(numpy_dense.run(code, heaps, prefix), want)


def test_small_path_promotes_past_255():
    # ·6 first reaches 256 at heap 10,344 (docs): the numpy path keeps the kernels' types.
    got = numpy_dense.run(parse("·6"), 10_400, np.zeros(0, np.uint8))
    assert got.dtype == np.uint16 and np.array_equal(got, compute("·6", 10_400, engine="dense"))


def test_small_work_is_only_small():
    assert numpy_dense.suits(parse("·137"), numpy_dense.SMALL_HEAPS)
    assert not numpy_dense.suits(parse("·137"), numpy_dense.SMALL_HEAPS + 1)
    assert not numpy_dense.suits(parse("0x·9"), numpy_dense.SMALL_HEAPS)


def test_capacity_must_be_a_power_of_two_minus_one():
    # Stamp tables are indexed by the XOR of two values: 300 ^ 211 = 511 would overflow 301 entries.
    assert dense.check_capacity(dense.MAX_VALUE) == dense.MAX_VALUE
    for bad in (0, 300, 1 << 20):
        with pytest.raises(ValueError):
            dense.check_capacity(bad)
    assert dense.table_size(255) > 255 and dense.table_size(300) > 300 ^ 211


@pytest.mark.parametrize("engine", ["dense", "sparse"])
def test_lowered_limit_reaches_value_range_error(monkeypatch, engine):
    # ·6 passes 255 at heap 10,344; with the limit at 255 every driver must refuse, not wrap.
    monkeypatch.setattr(dense, "MAX_VALUE", 255)
    monkeypatch.setattr(sparse, "MAX_VALUE", 255)
    with pytest.raises(ValueRangeError):
        compute("·6", 10_400, engine=engine)
    with pytest.raises(ValueRangeError):
        numpy_dense.run(parse("·6"), 10_400, np.zeros(0, np.uint8))


def test_limit_not_a_power_of_two_still_stays_in_bounds(monkeypatch):
    # A limit of 300 (not 2^k - 1): values past it are refused, and XORs up to 511 stay in the tables.
    monkeypatch.setattr(dense, "MAX_VALUE", 300)
    monkeypatch.setattr(sparse, "MAX_VALUE", 300)
    want = ref("·6", 10_400)
    assert want.max() <= 300
    assert np.array_equal(compute("·6", 10_400, engine="dense"), want)
    assert np.array_equal(compute("·6", 10_400, engine="sparse"), want)


@pytest.mark.parametrize("engine", ["dense", "sparse"])
def test_prefix_beyond_the_limit_is_refused(monkeypatch, engine):
    prefix = compute("·6", 10_400, engine="dense")
    monkeypatch.setattr(dense, "MAX_VALUE", 255)
    monkeypatch.setattr(sparse, "MAX_VALUE", 255)
    with pytest.raises(ValueRangeError, match="above 255"):
        compute("·6", 10_500, engine=engine, prefix=prefix)


def test_negative_or_fractional_prefix_is_refused():
    with pytest.raises(ValueError):
        compute("·137", 50, prefix=np.array([0, -1, 1]))
    with pytest.raises(ValueError):
        compute("·137", 50, prefix=np.array([0.0, 1.0, 1.0]))


def _dispatcher(kern):
    """numba's dispatcher of a bound kernel, even where the native build took its place."""
    return _jit.jit(kern.stub) if isinstance(kern, Native) else kern


def test_warm_up_leaves_nothing_to_compile_for_the_value_types_a_depth_needs():
    warm_up(2400, hexadecimal=True)
    for kern in (dense._fill, dense._fill_shared, dense._fill_hex, sparse._fill):
        if isinstance(kern, Native):  # built ahead of time: nothing compiles
            types = {str(specs[0][0]) for _, specs in kern.functions}
        elif hasattr(kern, "signatures"):
            types = {str(sig[0].dtype) for sig in kern.signatures}
        else:
            pytest.skip("kernels run as Python (NUMBA_DISABLE_JIT)")
        assert {"uint8", "uint16"} <= types, kern


def test_cache_key_holds_every_kernel_source():
    compute("·354", 6000, engine="dense")
    fill = _dispatcher(dense._fill)
    files = {path.name for path in native.kernel_sources()}
    assert {"dense.py", "sparse.py", "moves.py", "_jit.py"} <= files
    assert len(_jit.SOURCE_DIGEST) == 64
    if not hasattr(fill, "signatures"):
        pytest.skip("kernels run as Python (NUMBA_DISABLE_JIT)")
    g = np.zeros(50, np.uint8)
    take_all, leave_one, split, _ = dense._as_kernel_arrays(parse("·354"))
    seen = dense.new_table(255)
    scratch = (np.zeros(split.size, np.int64), np.zeros(3, np.uint64), dense.new_work())
    fill(g, g.copy(), 1, 50, take_all, leave_one, split, seen, 255, np.array([0, 255], np.uint8), 128, 4096, *scratch)
    sig = fill.signatures[0]
    key = fill._cache._index_key(sig, fill.targetctx.codegen())
    assert key[-1] == _jit.SOURCE_DIGEST


@pytest.mark.parametrize("order", sparse.ORDERS)
def test_every_order_of_the_scans_gives_the_same_values(order):
    # The order changes only when a scan stops, never what it finds: every one-digit code of
    # up to 3 digits, with the best mask and a poor one, against the dense engine.
    checked = 0
    for code in family(3):
        if not sparse.applies(code) or len(code.split_two) != 1:
            continue
        want = compute(code, 3000, engine="dense")
        for mask in (None, sparse.even_class(1)):
            run = sparse.SparseRun(code, 3000, mask=mask, order=order)
            assert np.array_equal(run.extend(3000), want), (code, mask, order)
        checked += 1
    assert checked > 100


def test_auto_order_keeps_the_one_that_scanned_fewest_pairs():
    run = sparse.SparseRun(parse("·16"), 100_000)
    assert np.array_equal(run.extend(100_000), compute("·16", 100_000, engine="dense"))
    assert set(run.pairs) == set(sparse.WAYS.values())
    assert run.pairs[run._way()] == min(run.pairs.values())
    with pytest.raises(ValueError):
        sparse.SparseRun(parse("·16"), 10, order="sideways")


SCANS = [(3, -1), (2, 0), (dense.PROBE_EVERY, dense.MARK_COST), (1, 0)]
"""(PROBE_EVERY, MARK_COST) of :mod:`grundy.engine.dense`: a mark worth less than nothing makes the
marked prefix win every probe (two heaps in three scanned that way), a free mark wins where it
compares fewer pairs, the defaults, and a probe on every heap (``n % 1 == 0``: never the prefix)."""


@pytest.mark.parametrize("every, mark_cost", SCANS)
@settings(max_examples=examples(30), deadline=None)
@given(code=octal, heaps=st.integers(2, 400))
def test_either_way_of_scanning_gives_the_reference_values(every, mark_cost, code, heaps):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dense, "PROBE_EVERY", every)
        mp.setattr(dense, "MARK_COST", mark_cost)
        mp.setattr(dense, "SHARED_COST", float("inf"))  # the third way has tests of its own
        assert np.array_equal(dense.run(code, heaps, np.zeros(0, np.uint8)), ref(code, heaps))


@pytest.mark.parametrize("stamps", [1, 2, 7])
@settings(max_examples=examples(30), deadline=None)
@given(code=st.one_of(octal, octal, hexa), heaps=st.integers(2, 300))
def test_short_rounds_of_stamps_give_the_reference_values(stamps, code, heaps):
    """The stamp table is cleared whenever its stamps begin again (every heap with one stamp):
    a stamp left from the round before would make a value look reached, and the mex too big."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dense, "STAMPS", stamps)
        assert np.array_equal(dense.run(code, heaps, np.zeros(0, np.uint8)), ref(code, heaps))


def test_a_run_resumed_and_promoted_inside_a_round_of_stamps_gives_the_same_values(monkeypatch):
    """A run resumed from a prefix that ends inside a round, and a promotion to 16 bits (a new
    table) inside one, give the values of a run with the usual rounds."""
    want = dense.run(parse("·7246"), 3000, np.zeros(0, np.uint8))
    assert want.dtype == np.uint16
    monkeypatch.setattr(dense, "STAMPS", 5)
    assert np.array_equal(dense.run(parse("·7246"), 3000, want[:43]), want)
    assert np.array_equal(dense.run(parse("·7246"), 3000, np.zeros(0, np.uint8)), want)


@pytest.mark.parametrize("code", ["·1337", "·7246", "·0036"])
def test_a_crowded_game_gets_the_same_values_by_the_marked_prefix(monkeypatch, code):
    """Crowded games (rare heaps a third of all), where the prefix pays: the values with it on
    two heaps in three are the values without it, and each heap's is the mex of its options."""
    monkeypatch.setattr(dense, "SHARED_COST", float("inf"))
    monkeypatch.setattr(dense, "PROBE_EVERY", 1)
    plain = dense.run(parse(code), 12_000, np.zeros(0, np.uint8))
    monkeypatch.setattr(dense, "PROBE_EVERY", 3)
    monkeypatch.setattr(dense, "MARK_COST", -1)
    assert np.array_equal(dense.run(parse(code), 12_000, np.zeros(0, np.uint8)), plain)
    assert wrong_heaps(code, plain) == []


def _two_splits(code: Code) -> Code:
    """``code`` with a second split digit where it has fewer than two (the shared split sets
    serve only codes of two split digits or more)."""
    digits = list(code.digits) + [4] * max(0, 3 - len(code.digits))
    for k in (1, 2):
        if len(Code(tuple(digits), code.unequal).split_two) < 2:
            digits[k] |= 4
    return Code(tuple(digits), code.unequal)


def _shared_everywhere(mp, first_chunk: int, spread: int) -> None:
    """Make the shared split sets win every probe, from chunks of ``first_chunk`` heaps on, with
    a probe of the marked prefix every ``spread`` probes' heaps."""
    mp.setattr(dense, "SHARED_COST", -1)
    mp.setattr(dense, "FIRST_CHUNK", first_chunk)
    mp.setattr(dense, "SHARED_PROBE", spread)


@pytest.mark.parametrize("first_chunk, spread", [(1, 1), (3, 1), (7, 8), (dense.FIRST_CHUNK, dense.SHARED_PROBE)])
@settings(max_examples=examples(30), deadline=None)
@given(code=octal.map(_two_splits), heaps=st.integers(2, 400))
def test_the_shared_split_sets_give_the_reference_values(first_chunk, spread, code, heaps):
    """Short chunks start the ring again at every call and put the marked prefix's probe heaps
    between stretches of the shared way; every value is the definition's."""
    assert len(code.split_two) >= 2
    with pytest.MonkeyPatch.context() as mp:
        _shared_everywhere(mp, first_chunk, spread)
        assert np.array_equal(dense.run(code, heaps, np.zeros(0, np.uint8)), ref(code, heaps))


@settings(max_examples=examples(30), deadline=None)
@given(code=unequal_codes().map(_two_splits), heaps=st.integers(2, 300), first_chunk=st.sampled_from([1, 5]))
def test_the_shared_split_sets_skip_the_equal_split_of_a_bang_digit(code, heaps, first_chunk):
    """The ring holds the splits into two unequal heaps; the equal split, worth 0, is added only
    for the digits without ``!``."""
    with pytest.MonkeyPatch.context() as mp:
        _shared_everywhere(mp, first_chunk, 1)
        assert np.array_equal(dense.run(code, heaps, np.zeros(0, np.uint8)), ref(code, heaps))


def test_the_shared_split_sets_resume_and_promote(monkeypatch):
    """A run resumed from a prefix (its ring begun again from nothing), and a promotion to 16 bits
    inside a stretch of the shared way (new tables), give the values of the other two ways."""
    monkeypatch.setattr(dense, "SHARED_COST", float("inf"))
    want = dense.run(parse("·7246"), 3000, np.zeros(0, np.uint8))
    assert want.dtype == np.uint16 and want[:400].max() < 256 <= want.max()
    _shared_everywhere(monkeypatch, 64, 2)
    assert np.array_equal(dense.run(parse("·7246"), 3000, np.zeros(0, np.uint8)), want)
    assert np.array_equal(dense.run(parse("·7246"), 3000, want[:43]), want)
    assert np.array_equal(dense.run(parse("·7246"), 3000, want[:2001]), want)


def _heaps_shared(monkeypatch, code: str, heaps: int) -> tuple[np.ndarray, list]:
    """The values of ``code`` by the dense driver, and the stretches the shared way computed."""
    stretches = []
    kernel = dense._fill_shared

    def counted(g, r, n0, n1, *rest):
        stop = kernel(g, r, n0, n1, *rest)
        stretches.append((n0, stop))
        return stop

    monkeypatch.setattr(dense, "_fill_shared", counted)
    return dense.run(parse(code), heaps, np.zeros(0, np.uint8)), stretches


def test_the_probe_takes_the_shared_split_sets_where_the_prefix_marks_nearly_every_split(monkeypatch):
    """·7246 (three split digits, a crowded game) marks nearly all of its splits by the marked
    prefix: from the first probes on the shared way computes almost every heap.  ·77 finds each
    candidate in its first splits, and never takes it."""
    values, stretches = _heaps_shared(monkeypatch, "·7246", 20_000)
    assert sum(b - a for a, b in stretches) > 18_000
    assert np.array_equal(values[:5000], ref("·7246", 5000))
    _, stretches = _heaps_shared(monkeypatch, "·77", 20_000)
    assert stretches == []


def test_a_game_whose_splits_thin_out_leaves_the_shared_split_sets(monkeypatch):
    """·6435 marks nearly all its splits up to a few thousand heaps and ever fewer deeper (a
    fifth of them at 65,536 heaps): the probes of the marked prefix inside the shared way see it,
    and the last quarter of the run computes no heap that way."""
    values, stretches = _heaps_shared(monkeypatch, "·6435", 65_536)
    assert stretches and stretches[0][0] < 8192
    assert max(b for _, b in stretches) < 49_152
    assert np.array_equal(values, compute("·6435", 65_536, engine="sparse"))


def test_the_probe_keeps_the_marked_prefix_where_it_costs_less():
    """On a crowded game the probe's two heaps see the prefix compare fewer pairs: with marks
    free it is chosen, with marks dearer than a whole scan it is not."""
    c = parse("·1337")
    take_all, leave_one, split, _ = dense._as_kernel_arrays(c)
    costs = []
    for mark_cost in (0, 10**9):
        g, r = np.zeros(6000, np.uint16), np.zeros(6000, np.uint16)
        seen = dense.new_table(65535)
        work = dense.new_work()
        work[3] = mark_cost
        dense._fill(g, r, 1, 6000, take_all, leave_one, split, seen, 65535,
                    np.array([0, 65535], np.uint16), 128, 4096, np.zeros(split.size, np.int64),
                    np.zeros(3, np.uint64), work)  # fmt: skip
        costs.append((work[0], work[1]))
        assert np.array_equal(g, compute("·1337", 6000, engine="dense"))
    (a0, b0), (a1, b1) = costs
    assert b0 < a0 and b1 > a1
