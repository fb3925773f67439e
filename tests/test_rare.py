"""Rare classes, arrivals, move/split counts and the ledger against hand checks and brute force."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from conftest import examples
from grundy import rare as R
from grundy.codes import Code, parse
from grundy.engine import compute
from grundy.engine.reference import option_values
from grundy.errors import UsageError
from grundy.present.text import ledger_summary
from naive import brute, brute_ledger, naive_rare

# heap:            0  1  2  3  4  5  6  7  8  9
HAND = np.array([0, 1, 2, 3, 0, 5, 1, 4, 7, 2], dtype=np.uint8)

values = st.integers(0, 1 << 12)
masks = st.integers(1, (1 << 12) - 1)


# ---------------------------------------------------------------- classes


@given(masks, values, values)
def test_parity_one_classes_are_respected_by_xor(mask, a, b):
    cls = R.RareClass(mask, 1)
    assert cls.holds(a ^ b) == (cls.holds(a) != cls.holds(b))
    assert not cls.holds(0)


@given(masks, values, values)
def test_parity_zero_classes_hold_zero_and_are_closed_under_xor(mask, a, b):
    cls = R.RareClass(mask, 0)
    assert cls.holds(0)
    if cls.holds(a) and cls.holds(b):
        assert cls.holds(a ^ b)
    assert cls.holds(a) != R.RareClass(mask, 1).holds(a)


@given(masks, st.lists(values, min_size=1, max_size=30))
def test_contains_agrees_with_popcount(mask, vs):
    arr = np.array(vs, dtype=np.uint16)
    for q in (0, 1):
        expect = [(v & mask).bit_count() % 2 == q for v in vs]
        assert R.RareClass(mask, q).contains(arr).tolist() == expect


def test_rare_heaps_blocks_and_values_by_hand():
    odd = R.RareClass(1, 1)
    assert R.rare_heaps(HAND, odd).tolist() == [1, 3, 5, 6, 8]
    assert R.rare_heaps(HAND, odd, after=5).tolist() == [5, 6, 8]
    # heap 0 is worth 0 but is not a heap of the parity-0 class: it is never part of a move
    assert R.rare_heaps(HAND, R.RareClass(1, 0)).tolist() == [2, 4, 7, 9]
    assert R.block_counts(HAND, odd, 4).tolist() == [2, 2, 1]
    assert R.block_counts(HAND, odd, 10).tolist() == [5]
    assert R.value_counts(HAND, np.array([5, 6, 8])) == {1: 1, 5: 1, 7: 1}
    assert R.value_counts(HAND, np.array([1, 3, 5, 6, 8])) == {1: 2, 3: 1, 5: 1, 7: 1}


def test_class_arguments_are_checked():
    for bad in ((0, 1), (-3, 1), (1, 2)):
        with pytest.raises(UsageError):
            R.RareClass(*bad)
    with pytest.raises(UsageError):
        R.block_counts(HAND, R.RareClass(1), 0)
    assert "sparse-space" in R.RareClass(3, 0).convention and "XOR" in R.RareClass(3, 1).convention


@given(st.lists(st.integers(0, 63), min_size=1, max_size=40))
def test_walsh_hadamard_gives_every_mask_count(vs):
    arr = np.array(vs)
    odd = R.odd_counts(arr, 6)
    for m in range(64):
        assert odd[m] == sum((v & m).bit_count() % 2 for v in vs)


@given(st.lists(st.integers(0, 31), min_size=2, max_size=40), st.integers(1, 31))
def test_fewest_finds_a_fewest_heaps_odd_class_holding_v(vs, v):
    arr = np.array([0, *vs])
    cls, count = R.fewest(arr, 1, holding=v)
    assert cls.holds(v) and cls.parity == 1 and not cls.position
    fewest = min(
        R.rare_heaps(arr, R.RareClass(x)).size for x in range(1, 32) if R.RareClass(x).holds(v)
    )
    assert R.rare_heaps(arr, cls).size == fewest == count


@given(st.lists(st.integers(0, 31), min_size=2, max_size=40), st.integers(0, 1),
       st.sampled_from([None, 0, 1]))
def test_fewest_is_the_naive_minimum_over_every_class(vs, q, pi):
    """Every mask below 2**bits of the largest value, both parities, and the position variant,
    against a count by hand."""
    arr = np.array([0, *vs])
    size = 1 << max(int(arr.max()).bit_length(), 1)

    def count(m, position):
        return len(naive_rare(arr, m, q, position, pi))

    cls, n = R.fewest(arr, q, split_parity=pi)
    best = min(count(m, False) for m in range(1, size))
    if pi is not None:
        best = min(best, *(count(m, True) for m in range(1, size)))
    assert n == best == count(cls.mask, cls.position)
    assert n == R.rare_heaps(arr, cls, 1, pi).size


# ---------------------------------------------------------------- thinning and the survey


@pytest.mark.parametrize(
    "c, verdict",
    [
        ((100, 50, 10), True),  # falls twice
        ((49, 0, 2), True),  # falls to a level indistinguishable from zero and stays there
        ((100, 0, 0), True),
        ((100, 95, 90), False),  # falls less than chance would explain
        ((600, 300, 300), False),  # falls, then holds steady: not towards zero
        ((10, 0, 9), False),  # rises again
        ((0, 0, 0), False),
        ((4, 0, 0), False),  # 4 - 0 is not more than 2·sqrt(4)
        ((5, 0, 0), True),
    ],
)
def test_thins_by_hand(c, verdict):
    assert bool(R.thins(*c)) is verdict


def test_thinning_of_a_constructed_sequence():
    # 31 heaps: stretches of 10 heaps from heap 1; odd values only in the first
    g = np.zeros(31, dtype=np.uint8)
    g[1:11] = [1, 3, 5, 7, 9, 1, 3, 5, 7, 9]
    assert R.thirds(31) == (1, 10)
    th = R.thinning(g, R.RareClass(1, 1))
    assert th.thirds == (10, 0, 0) and th.length == 10 and th.thins
    assert not R.thinning(g, R.RareClass(1, 0)).thins  # the even values rise
    assert R.thirds(33) == (3, 10)  # equal stretches end at the last heap


def test_survey_code_agrees_with_every_class_tried_one_by_one():
    code, heaps = "·56", 700
    g = compute(code, heaps)
    s = R.survey_code(code, heaps, growing_only=False, keep=1000)
    bits = int(g.max()).bit_length()
    expect = {
        (m, q)
        for m in range(1, 1 << bits)
        for q in (0, 1)
        if R.thinning(g, R.RareClass(m, q)).thins
    }
    assert {(c.mask, c.parity) for c in s.best} == expect
    assert s.thinning == len(expect) and s.classes_tried == 2 * ((1 << bits) - 1)
    start, length = R.thirds(heaps)
    for c in s.best:
        cls = R.RareClass(c.mask, c.parity)
        assert c.thirds == R.thinning(g, cls).thirds
        last = g[start + 2 * length :]
        assert list(c.last_values) == sorted({int(v) for v in last[cls.contains(last)]})
    keys = [c.rank_key for c in s.best]
    assert keys == sorted(keys)


def test_survey_skips_codes_that_do_not_grow():
    s = R.rare_survey(["·137", "·6"], 600)
    by = {c.code: c for c in s.codes}
    assert not by["·137"].growing and by["·137"].classes_tried == 0
    assert by["·6"].growing and by["·6"].classes_tried > 0
    d = s.to_dict()
    assert d["codes_read"] == 2 and d["codes_searched"] == 1
    assert [c["code"] for c in d["classes"]] == [c.code for c in s.ranked]


# ---------------------------------------------------------------- arrivals


def test_gaps_by_hand():
    g = R.gaps(np.array([2, 5, 6, 10, 20]))  # gaps 3, 1, 4, 10
    assert (g.count, g.min, g.max, g.longest) == (4, 1, 10, (10, 20))
    assert g.mean == 4.5
    assert g.sd == pytest.approx(math.sqrt((1.5**2 + 3.5**2 + 0.5**2 + 5.5**2) / 4))
    assert g.ratio == pytest.approx(g.sd / 4.5)
    sched = R.gaps(np.array([0, 7, 14, 21]))
    assert sched.sd == 0 and sched.ratio == 0 and sched.longest == (0, 7)
    assert R.gaps(np.array([5])) == R.Gaps(0, None, None, None, None, None, None)
    assert R.gaps(np.array([5])).to_dict()["longest"] is None


def test_gap_fit_by_hand():
    d = np.arange(1, 16)  # mean 8, 15 gaps: 3 bins
    fit = R.gap_fit(d)

    def F(x):
        return 1 - math.exp(-max(x, 0) / 8)

    # quantiles 0, -8 ln(2/3) = 3.24, -8 ln(1/3) = 8.79, rounded
    assert fit.edges == (0, 3, 9)
    assert fit.observed == (2, 6, 7)
    expect = [15 * F(2.5), 15 * (F(8.5) - F(2.5)), 15 * (1 - F(8.5))]
    assert fit.expected == pytest.approx(expect)
    stat = sum((o - e) ** 2 / e for o, e in zip(fit.observed, expect, strict=True))
    assert fit.statistic == pytest.approx(stat) and fit.dof == 1
    assert fit.pvalue == pytest.approx(chi2.sf(stat, 1))


def test_gap_fit_tells_memoryless_gaps_from_a_schedule():
    rng = np.random.default_rng(1)
    memoryless = np.ceil(rng.exponential(500, 2000)).astype(int)
    assert R.gap_fit(memoryless).pvalue > 0.01
    assert R.gap_fit(np.full(2000, 500)).pvalue < 1e-9
    few = R.gap_fit(np.array([3, 4, 5]))
    assert few.pvalue is None and few.statistic is None
    assert R.gap_fit(np.zeros(0, dtype=int)).mean is None


def test_residues_and_first_empty_modulus_by_hand():
    heaps = np.array([1, 2, 3, 5, 8])
    r = R.residues(heaps)
    assert list(r) == list(range(2, 25))
    assert r[2] == [2, 3] and r[3] == [1, 1, 3] and r[5] == [1, 1, 1, 2, 0]
    assert all(sum(c) == 5 and len(c) == m for m, c in r.items())
    assert R.first_empty_modulus(heaps) == 5  # mod 4: 1 2 3 1 0 all hit; mod 5 misses 4
    assert R.first_empty_modulus(np.array([], dtype=int)) == 2
    assert (
        R.first_empty_modulus(np.arange(100, 130)) == 31
    )  # 30 consecutive heaps fill every m <= 30


def test_tail_period_by_hand():
    g = np.array([0, 5, 6] + [1, 2, 3] * 10)
    assert R.tail_period(g, 10, 20) == 3
    assert R.tail_period(g, 2, 20) is None  # only periods up to 2 are tried
    broken = g.copy()
    broken[-1] = 9  # the last heap breaks every period
    assert R.tail_period(broken, 10, 20) is None
    assert R.tail_period(np.array([0, 1, 1, 1, 1, 1]), 5, 99) == 1  # window shrinks to 4
    assert R.tail_period(np.array([0, 1]), 5, 5) is None
    # each heap i of the window is compared with heap i - p, so heaps 6..9 hold p = 2 and 5..9 not
    h = np.array([0, 9, 9, 9, 4, 7, 4, 7, 4, 7])
    assert R.tail_period(h, 5, 4) == 2 and R.tail_period(h, 5, 5) is None
    with pytest.raises(UsageError):
        R.tail_period(g, 0, 5)


def test_tail_period_on_a_million_heaps():
    """Random values hold no period; a period of 12,345 planted over the default window is found."""
    rng = np.random.default_rng(7)
    g = rng.integers(0, 40, 1_000_000).astype(np.uint8)
    assert R.tail_period(g) is None
    for i in range(g.size - 20_000, g.size):
        g[i] = g[i - 12_345]
    assert R.tail_period(g) == 12_345
    g[-1] ^= 1
    assert R.tail_period(g) is None


ARRIVAL_KEYS = [
    "code",
    "heaps",
    "mask",
    "parity",
    "after",
    "block",
    "rare",
    "blocks",
    "values",
    "gaps",
    "residues",
    "first_empty_modulus",
    "tail_period",
    "last_rare",
]


def test_arrivals_of_a_hand_sequence():
    a = R.arrivals("·6", HAND, R.RareClass(1, 1), after=4, block=4, max_period=3, window=3)
    d = a.to_dict()
    assert list(d) == ARRIVAL_KEYS
    assert d["rare"] == [[5, 5], [6, 1], [8, 7]]
    assert d["blocks"] == [2, 2, 1]
    assert d["values"] == {1: 1, 5: 1, 7: 1}
    assert d["gaps"] == {
        "count": 2,
        "min": 1,
        "max": 2,
        "mean": 1.5,
        "sd": 0.5,
        "ratio": 1 / 3,
        "longest": [6, 8],
    }
    assert d["residues"][2] == [2, 1] and d["residues"][3] == [1, 0, 2]
    assert d["first_empty_modulus"] == 3 and d["last_rare"] == 8 and d["tail_period"] is None
    assert a.gap_array.tolist() == [1, 2]
    for bad in (10, -1):
        with pytest.raises(UsageError):
            R.arrivals("·6", HAND, R.RareClass(1), after=bad)


# ---------------------------------------------------------------- move and split counts


octal = (
    st.lists(st.integers(0, 7), min_size=1, max_size=3)
    .filter(lambda d: d[-1])
    .map(lambda d: Code((0, *d)))
)


@settings(max_examples=examples(60), deadline=None)
@given(octal, st.integers(30, 140), st.data())
def test_counts_match_brute_force(code, heaps, data):
    g = compute(code, heaps)
    v = data.draw(st.integers(0, int(g.max()) + 2), label="v")
    lo = data.draw(st.integers(1, heaps - 1), label="lo")
    c = R.counts(code, g, v, lo=lo)
    moves, splits = brute(code, g, v, lo, heaps)
    assert c.move_counts.tolist() == moves and c.split_counts.tolist() == splits
    assert (c.mask is None) == (v == 0)
    if v:  # every parity-1 class holding v counts the same
        mask = data.draw(
            st.integers(1, 255).filter(lambda m: R.RareClass(m).holds(v)), label="mask"
        )
        again = R.counts(code, g, v, lo=lo, mask=mask)
        assert again.move_counts.tolist() == moves and again.split_counts.tolist() == splits


@pytest.mark.parametrize("code", ["0x·8", "0x·c", "0x·9f", "0x4·8"])
def test_counts_with_three_heap_moves_match_brute_force(code):
    code = parse(code)
    g = compute(code, 30)
    for v in range(int(g.max()) + 1):
        c = R.counts(code, g, v, lo=1)
        moves, splits = brute(code, g, v, 1, 30)
        assert (
            c.move_counts.tolist() == moves and c.split_counts.tolist() == splits and c.mask is None
        )


@settings(max_examples=examples(30), deadline=None)
@given(octal, st.integers(20, 200))
def test_a_heap_worth_v_has_no_move_reaching_v(code, heaps):
    g = compute(code, heaps)
    for v in np.unique(g[1:]):
        c = R.counts(code, g, int(v), lo=1)
        worth_v = g[1:] == v
        assert (c.move_counts[worth_v] == 0).all()
        assert (c.move_counts[g[1:] > v] > 0).all()  # and a heap worth more always has one
        assert c.moves.zero_worth_value == int(worth_v.sum())
        assert c.moves.zero == c.moves.zero_worth_value + c.moves.zero_worth_less


def test_354_fast_counts_match_brute_force_past_10000():
    code = parse("·354")
    g = compute(code, 10_060)
    for v in (37, 47, 66):
        c = R.counts(code, g, v, lo=10_000)
        moves, splits = brute(code, g, v, 10_000, 10_060)
        assert c.move_counts.tolist() == moves and c.split_counts.tolist() == splits


def test_tally_by_hand():
    t = R.tally(np.array([0, 2, 0, 1]), np.array([3, 1, 1, 5]), 3)
    assert (t.mean, t.zero, t.zero_worth_value, t.zero_worth_less) == (0.75, 2, 1, 1)
    assert t.poisson_zero == pytest.approx(4 * math.exp(-0.75))


def test_counts_to_dict_and_errors():
    g = compute("·354", 200)
    c = R.counts("·354", g, 3, lo=100)
    d = c.to_dict()
    assert list(d) == ["code", "value", "from", "to", "moves", "splits"]
    assert (d["from"], d["to"]) == (100, 200)
    keys = ["mean", "zero", "zero_worth_value", "zero_worth_less", "poisson_zero"]
    assert list(d["moves"]) == keys and list(d["splits"]) == keys
    for kw in ({"lo": 0}, {"lo": 200}, {"lo": 150, "hi": 120}, {"lo": 10, "hi": 201}):
        with pytest.raises(UsageError):
            R.counts("·354", g, 3, **kw)
    with pytest.raises(UsageError, match="not in the parity-1 class"):
        R.counts("·354", g, 3, lo=100, mask=4)
    with pytest.raises(UsageError):
        R.counts("·354", g, -1, lo=100)
    with pytest.raises(UsageError):
        R.counts("0x·8", compute("0x·8", 20), 1, lo=1, mask=1)


# ---------------------------------------------------------------- ledger


@pytest.mark.parametrize(
    "code, heaps, v", [("·354", 400, 3), ("·354", 400, 12), ("·6", 300, 5), ("·16", 300, 2)]
)
def test_ledger_matches_brute_force(code, heaps, v):
    code = parse(code)
    g = compute(code, heaps)
    led = R.ledger(code, g, v, below=150)
    supplies, sole = brute_ledger(code, g, v, led.mask)
    cls = R.RareClass(led.mask)
    assert led.mask == R.fewest(g, 1, holding=v)[0].mask
    assert {s.heap for s in led.suppliers} == {r for r in range(1, 150) if cls.holds(g[r])}
    for s in led.suppliers:
        assert (s.supplies, s.sole, s.value) == (
            supplies.get(s.heap, 0),
            sole.get(s.heap, 0),
            g[s.heap],
        )
    assert led.supplies_all == sum(supplies.values()) and led.single == sum(sole.values())
    ranked = [s.supplies for s in led.suppliers]
    assert ranked == sorted(ranked, reverse=True)
    total = sum(ranked)
    for k in R.TOP:
        assert led.shares[k] == pytest.approx(sum(ranked[:k]) / total)
    reached = sum(1 for n in range(1, heaps) if v in option_values(code, [int(x) for x in g], n))
    assert led.reached == reached
    d = led.to_dict()
    assert d["suppliers"][0] == [
        led.suppliers[0].heap,
        led.suppliers[0].value,
        ranked[0],
        led.suppliers[0].sole,
    ]
    assert f"heap {led.suppliers[0].heap:,}" in ledger_summary(led)


def test_ledger_by_hand():
    # ·6 to heap 8 is 0 0 1 2 0 1 2 3: the only rare heap (odd value) below 5 is heap 2.
    code = parse("·6")
    g = compute(code, 8)
    assert g.tolist() == [0, 0, 1, 2, 0, 1, 2, 3]
    led = R.ledger(code, g, 1, below=5, mask=1)
    # heap 2 (worth 1) reaches 1 with a partner worth 0: heap 4 splits 3 as (1, 2), heap 7 splits 6
    # as (2, 4).  At heap 4 no other move is worth 1; at heap 7 the split (1, 5) is too.
    assert [(s.heap, s.value, s.supplies, s.sole) for s in led.suppliers] == [(2, 1, 2, 1)]
    assert led.rare_total == 3 and led.reached == 4  # rare heaps 2, 5, 7; heaps 3, 4, 6, 7 reach 1
    assert led.shares == {1: 1.0, 5: 1.0, 10: 1.0, 50: 1.0}


def test_ledger_errors():
    g = compute("·354", 100)
    with pytest.raises(UsageError):
        R.ledger("·354", g, 0)
    with pytest.raises(UsageError):
        R.ledger("·354", g, 3, below=1)
    with pytest.raises(UsageError, match="three heaps"):
        R.ledger("0x·8", compute("0x·8", 20), 1)


@pytest.mark.slow
def test_354_counts_to_a_million_heaps():
    g = compute("·354", 1_000_000)
    c = R.counts("·354", g, 37, lo=10_000)
    assert c.hi == 1_000_000 and c.moves.zero >= c.moves.zero_worth_value > 0
