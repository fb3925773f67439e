"""The bounded-memory engine against the in-memory one: the same values whatever it keeps.

Small heads and tails force everything the engine does only at depth: the
tail slides and hands pages back, scans reach the edge of what is kept and
fall back on the store, masks are chosen from the histogram and the rare list
rebuilt from the store, runs resume from the store alone.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grundy.codes import parse
from grundy.engine import bounded, compute, sparse
from grundy.errors import UsageError
from naive import wrong_heaps
from test_properties import property_settings, sparse_codes
from test_unequal import unequal_codes


class ArrayStore:
    """The sink and source a bounded run needs, over one growing numpy array."""

    def __init__(self):
        self.values = np.zeros(0, dtype=np.uint32)
        self.blocks = 0

    def sink(self, start, block):
        assert start == self.values.size, "blocks arrive in order, without gaps"
        self.values = np.concatenate([self.values, block.astype(np.uint32)])
        self.blocks += 1

    def read(self, a, b):
        assert 0 <= a < b <= self.values.size, "only values already passed on are read back"
        return self.values[a:b]


def bounded_values(code, heaps, *, head, tail, stops=(), mask=None):
    """The values of a bounded run to ``heaps``, stopped and resumed from the store at ``stops``."""
    store = ArrayStore()
    run = None
    for stop in (*stops, heaps):
        run = bounded.BoundedRun(code, store.sink, store.read, store.values.size, head=head,
                                 tail=tail, mask=mask)
        run.extend(stop)
        run.close()
    return store.values, run


@pytest.mark.parametrize("name", ["·16", "·6", "·167", "·014", "·354", "·45", "·156", "4·12", "4!·",
                                  "·6!"])
def test_same_values_as_the_in_memory_engine(name):
    code = parse(name)
    want = compute(code, 40_000, engine="sparse")
    got, run = bounded_values(code, 40_000, head=3_000, tail=2_000, stops=(17_001,))
    assert np.array_equal(got, want)
    assert run.base > run.head, "the tail slid away from the head"


def test_the_statistics_are_those_of_the_in_memory_engine():
    code = parse("·16")
    want = sparse.run(code, 50_000, np.zeros(1, np.uint8))[1]
    _, run = bounded_values(code, 50_000, head=4_000, tail=3_000)
    assert run.stats() == want


def test_scans_past_what_is_kept_fall_back_on_the_store():
    """·6 with a tiny head: many scans reach the edge and are computed from the store."""
    code = parse("·6")
    want = compute(code, 30_000, engine="sparse")
    got, run = bounded_values(code, 30_000, head=2_000, tail=1_000, stops=(12_345,))
    assert run.fallbacks > 0
    assert np.array_equal(got, want)


def test_values_promote_past_255():
    """·6 first reaches 256 at heap 10,344: the kept heaps move to 16 bits, past the head."""
    code = parse("·6")
    want = compute(code, 14_000, engine="sparse")
    got, run = bounded_values(code, 14_000, head=5_000, tail=3_000)
    assert want.max() > 255 and run.g.dtype == np.uint16
    assert np.array_equal(got, want)


def test_heaps_handed_back_read_as_zero():
    """The middle is handed back to the operating system: what the run keeps is the head and tail."""
    code = parse("·167")
    store = ArrayStore()
    run = bounded.BoundedRun(code, store.sink, store.read, head=1 << 14, tail=1 << 14)
    run.extend(1 << 18)
    assert run.base >= (1 << 18) - (1 << 15)
    middle = run.g[(1 << 15) : run.base - 4096]
    assert middle.size and not middle.any(), "pages handed back hold no values"
    assert store.values[(1 << 15) : run.base - 4096].any()
    assert np.array_equal(run.g[: 1 << 14], store.values[: 1 << 14])
    run.close()


def test_a_forced_mask_gives_the_same_values():
    code = parse("·16")
    want = compute(code, 20_000, engine="sparse")
    for mask in (sparse.even_class(1), sparse.even_class(2), sparse.even_class(30)):
        got, _ = bounded_values(code, 20_000, head=2_000, tail=1_500, mask=mask, stops=(9_000,))
        assert np.array_equal(got, want), mask


def test_codes_without_a_sparse_method_are_refused():
    store = ArrayStore()
    for name in ("·33", "0x·9"):
        with pytest.raises(UsageError, match="sparse"):
            bounded.BoundedRun(parse(name), store.sink, store.read)


@property_settings(60)
@given(code=sparse_codes(), heaps=st.integers(600, 4_000), head=st.integers(2, 700),
       tail=st.integers(2, 500), stop=st.floats(0.05, 0.95))
def test_random_codes_heads_tails_and_resumes(code, heaps, head, tail, stop):
    """Any code, any head and tail (down to 2 heaps), resumed anywhere: the naive twin agrees."""
    got, _ = bounded_values(code, heaps, head=head, tail=tail, stops=(int(heaps * stop),))
    assert wrong_heaps(code, got) == []


def test_the_histogram_kept_is_that_of_the_values():
    """Masks past the head are chosen from the (value, heap parity) histogram the run keeps."""
    from grundy import value_classes

    code = parse("·354")
    values, run = bounded_values(code, 30_000, head=2_000, tail=1_000, stops=(7_777,))
    size = run.pairs.size // 2
    assert np.array_equal(run.pairs, value_classes.histogram(values, size, True))
    assert value_classes.fewest_in(run.pairs, 0, split_parity=sparse.split_parity(code)) == \
        value_classes.fewest(values, 0, split_parity=sparse.split_parity(code))


@property_settings(30)
@given(code=unequal_codes(), heaps=st.integers(600, 3_000), head=st.integers(2, 500),
       tail=st.integers(2, 400), stop=st.floats(0.05, 0.95))
def test_random_unequal_codes_heads_tails_and_resumes(code, heaps, head, tail, stop):
    """Codes with ``!``: the equal split is no move, in the bounded scan and the fallback too."""
    if not sparse.applies(code):
        return
    got, _ = bounded_values(code, heaps, head=head, tail=tail, stops=(int(heaps * stop),))
    assert wrong_heaps(code, got) == []
