"""Readings at one depth, their windows and certificates (docs/periodicity.md, docs/arithmetic.md), against definitions."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy import compute, family, parse
from grundy.codes import Code
from grundy.engine.reference import grundy_values
from grundy.errors import UsageError
from grundy.readings.periods import (
    Reading,
    arithmetic_reading,
    held_to,
    parts,
    reading,
    tight_window,
    window,
)
from grundy.readings.trajectory import trajectory
from naive import naive_held_to, naive_reading

SMALL = list(family(2, d0=True))
HEX = [c for c in family(2, hexadecimal=True) if c.hexadecimal]


def pair(r):
    return None if r is None else (r.start, r.period)


def test_windows():
    assert window(52, 34, 3) == window(52, 34, parse("·137")) == 175
    assert tight_window(52, 34, parse("·137")) == 174
    hexa = parse("0x·8")
    assert parts(hexa) == 3 and parts(parse("·77")) == parts(2) == 2
    assert window(1, 1, hexa) == 7 and tight_window(1, 1, hexa) == 5


def test_137_at_its_window_and_one_heap_short():
    g = compute("·137", 200)
    at = reading(g, parse("·137"), 175)
    assert at == Reading(52, 34, 0, 175, 174, True)
    assert at.to_dict() == {
        "start": 52, "period": 34, "saltus": 0, "window": 175, "tight_window": 174, "certified": True
    }
    short = reading(g, parse("·137"), 174)
    assert pair(short) == (52, 34) and not short.certified
    assert reading(g, 3) == reading(g, parse("·137"))


@pytest.mark.parametrize("code", SMALL, ids=str)
def test_reading_matches_definition_at_every_depth(code):
    g = compute(code, 90).astype(np.int64)
    gl = g.tolist()
    for d in range(1, g.size + 1):
        r = reading(g, code, d)
        assert pair(r) == naive_reading(gl, d), d
        if r is not None:
            assert r.certified == (d >= r.window == 2 * (r.start + r.period) + code.t)
        assert pair(reading(g, code, d, heap0=True)) == naive_reading(gl, d, lo=0), d
        a = arithmetic_reading(g, code, d)
        assert pair(a) == naive_reading(gl, d, arithmetic=True), d
        if a is not None:
            assert a.saltus == gl[a.start + a.period] - gl[a.start] > 0 and not a.certified


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=40), st.integers(0, 2))
def test_reading_of_any_sequence_matches_definition(g, climb):
    g = [v + (i // 3) * climb for i, v in enumerate(g)]
    arr = np.array(g, dtype=np.int64)
    for d in range(1, len(g) + 1):
        assert pair(reading(arr, 2, d)) == naive_reading(g, d)
        assert pair(reading(arr, 2, d, heap0=True)) == naive_reading(g, d, lo=0)
        assert pair(arithmetic_reading(arr, 2, d)) == naive_reading(g, d, arithmetic=True)
    for s in range(len(g)):
        for p in range(1, 4):
            assert held_to(arr, s, p) == naive_held_to(g, s, p)


def test_certified_readings_of_small_codes_one_heap_short():
    """At ``W - 1`` no reading is certified, at ``W`` the final one is (1–2 digit codes)."""
    seen = 0
    for code in SMALL:
        g = compute(code, 400)
        tr = trajectory(g, code)
        if not tr.certified:
            continue
        seen += 1
        w = tr.certificate_depth
        before = reading(g, code, w - 1)
        assert before is None or not before.certified
        assert reading(g, code, w) == tr.final
    assert seen > 60


def test_tight_window_is_sharp_for_octal():
    """``·4`` reads period 1 from heap 1; it holds to depth 3, one short of its tight window 4."""
    g = compute("·4", 60)
    r = reading(g, parse("·4"), 3)
    assert pair(r) == (1, 1) and r.tight_window == 4 and held_to(g, 1, 1) == 3


def test_heap0_reading_is_never_certified():
    g = compute("·4", 10)
    r = reading(g, parse("·4"), 3, heap0=True)
    assert r == Reading(0, 1, 0, 3, 2, False)
    assert g[3] == 1
    assert pair(reading(g, parse("·4"), 3)) == (1, 1)


def test_hexadecimal_window_is_needed():
    """``0x·8`` (remove one, split the rest in three) holds period 1 from heap 1 to depth 4.

    That is the octal tight window ``2s + 2p + t - 1 = 4``: the octal rule would certify
    a false period.  The three-heap window is ``3s + 3p + t = 7`` (tight 5), not reached.
    """
    code = parse("0x·8")
    g = compute(code, 40)
    assert held_to(g, 1, 1) == 4 == 2 * (1 + 1) + code.t - 1
    r = reading(g, code, 4)
    assert pair(r) == (1, 1) and (r.window, r.tight_window) == (7, 5) and not r.certified


@pytest.mark.parametrize("code", HEX, ids=str)
def test_hexadecimal_windows_against_extended_computation(code):
    """Every certified reading of a 1–2 digit hexadecimal code holds to three times its window,
    and no false reading gets to its tight window."""
    g = compute(code, 240)
    tr = trajectory(g, code)
    for f in tr.false_readings:
        assert f.held_to < tight_window(f.start, f.period, code)
    if tr.certified:
        far = compute(code, max(3 * tr.certificate_depth, 300))
        assert held_to(far, tr.final.start, tr.final.period) == far.size


@settings(max_examples=examples(25), deadline=None)
@given(st.tuples(st.integers(0, 15), st.integers(0, 15), st.integers(1, 15)))
def test_random_three_digit_hexadecimal_windows(digits):
    code = Code((0, *digits))
    g = compute(code, 200)
    tr = trajectory(g, code)
    if tr.certified:
        far = compute(code, max(3 * tr.certificate_depth, 260))
        assert held_to(far, tr.final.start, tr.final.period) == far.size


def test_arithmetic_readings():
    """``0x·8`` to 60 heaps: the arithmetic and the pure reading are the naive reader's on the
    reference engine's values; the saltus and the three-heap window follow from them."""
    code = parse("0x·8")
    g = compute(code, 60)
    gl = grundy_values(code, 60)
    a = arithmetic_reading(g, code)
    assert pair(a) == naive_reading(gl, 60, arithmetic=True)
    s, p = a.start, a.period
    assert a == Reading(s, p, gl[s + p] - gl[s], 3 * (s + p) + code.t, None, False)
    assert a.saltus > 0
    assert pair(reading(g, code)) == naive_reading(gl, 60)


def test_octal_arithmetic_readings_are_false():
    """Finite octal codes are never arithmetic-periodic (Horrocks and Nowakowski): every
    arithmetic reading of a 1–2 digit code at depth 300 breaks within 3,000 heaps."""
    seen = 0
    for code in SMALL:
        a = arithmetic_reading(compute(code, 300), code)
        if a is None:
            continue
        seen += 1
        assert not a.certified
        far = compute(code, 3000)
        assert held_to(far, a.start, a.period, a.saltus) < far.size, code
    assert seen >= 10  # twelve codes of 1..2 digits have one at depth 300 (three periods seen)


@pytest.mark.parametrize(
    "args",
    [
        (np.zeros(0, dtype=int), 2),
        (np.zeros((2, 2), dtype=int), 2),
        (np.array([0.5, 1.0]), 2),
        (np.zeros(5, dtype=int), -1),
        (np.zeros(5, dtype=int), "·7"),
    ],
)
def test_bad_input(args):
    with pytest.raises(UsageError):
        reading(*args)


@pytest.mark.parametrize("depth", [0, 6, 2.5])
def test_bad_depth(depth):
    with pytest.raises(UsageError):
        reading(np.zeros(5, dtype=int), 2, depth)


def test_an_arithmetic_reading_needs_three_periods():
    """Two periods only define a saltus: G(3) - G(2) = 3 alone is no reading; a second equal
    difference (three periods of 1 from heap 2) is."""
    assert arithmetic_reading(np.array([0, 3, 1, 4]), 2) is None
    r = arithmetic_reading(np.array([0, 3, 1, 4, 7]), 2)
    assert (r.start, r.period, r.saltus, r.certified) == (2, 1, 3, False)


# ---------------------------------------------------------------- unequal splits ('!')

UNEQUAL = [Code(c.digits, (k,)) for c in SMALL for k in c.split_two]


def test_unequal_windows():
    """``W = max(2s + 2p + t, 2s + 3p + u)``, tight one less (docs/periodicity.md)."""
    six = parse("·6!")
    assert window(2, 3, six) == 14 and tight_window(2, 3, six) == 13
    assert window(2, 3, parse("·6")) == 11
    assert window(5, 1, parse("·4!07")) == 2 * 5 + 2 * 1 + 3 == 15 > 2 * 5 + 3 * 1 + 1
    assert (window(8, 5, parse("grundy")), tight_window(8, 5, parse("grundy"))) == (31, 30)
    starts, periods = np.array([2, 8]), np.array([3, 5])
    assert window(starts, periods, six).tolist() == [window(2, 3, six), window(8, 5, six)]


def test_unequal_window_is_needed_and_sharp():
    """``·6!`` reads period 3 from heap 2 up to depth 12 and breaks at the next heap: that is the
    octal window 11 passed, and one heap short of the tight window 13 of a ``!`` digit."""
    code = parse("·6!")
    g = compute(code, 40)
    assert held_to(g, 2, 3) == 12 == tight_window(2, 3, code) - 1
    r = reading(g, code, 12)
    assert pair(r) == (2, 3) and not r.certified and window(2, 3, parse("·6")) <= 12
    assert reading(g, code, 13) is None


def test_the_octal_window_would_certify_a_false_period_of_a_settled_code():
    """``4!·32`` settles (period 5 from heap 25), but first reads period 5 from heap 8 to depth
    29: past the octal window 28, one short of the tight window 30 that ``!`` needs."""
    code = parse("4!·32")
    g = compute(code, 400)
    tr = trajectory(g, code)
    assert tr.certified and pair(tr.final) == (25, 5)
    false = {(f.start, f.period): f for f in tr.false_readings}
    f = false[(8, 5)]
    assert f.held_to == 29 == tight_window(8, 5, code) - 1 and f.held_to >= 2 * (8 + 5) + code.t


@pytest.mark.parametrize("code", UNEQUAL, ids=str)
def test_unequal_windows_against_extended_computation(code):
    """Every certified reading of a 1–2 digit code with one ``!`` holds to three times its window,
    and no false reading reaches its tight window."""
    g = compute(code, 300)
    tr = trajectory(g, code)
    for f in tr.false_readings:
        assert f.held_to < tight_window(f.start, f.period, code)
    if tr.certified:
        far = compute(code, max(3 * tr.certificate_depth, 600))
        assert held_to(far, tr.final.start, tr.final.period) == far.size
        assert tr.certificate_depth == window(tr.final.start, tr.final.period, code)
