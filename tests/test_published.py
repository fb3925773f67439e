"""The published tables shipped in ``grundy/data`` against the engines, the reading rule and settle.

Outside truth: every number asserted here comes from those tables (their
sources are in ``src/grundy/data/README.md``), none from this toolkit's output.
"""

import numpy as np
import pytest

import grundy
from grundy.catalogue import published
from grundy.catalogue.published import PublishedDataError, expand
from grundy.codes import parse
from grundy.engine import compute, compute_with_stats
from grundy.readings.settle import settle
from grundy.readings.trajectory import trajectory
from grundy.value_classes import RareClass

TRIVIAL = published.games("trivial")
SOLVED = published.games("solved")
OEIS = published.oeis_entries()
CERTIFICATE_LIMIT = 10**6
"""Solved games whose window is below this many heaps are settled in the default suite."""


def test_the_tables_are_whole():
    assert len(TRIVIAL) == 82 and len(SOLVED) == 10 and len(published.games("unsolved")) == 83
    table = published.lookup()
    assert len(table) == 511 and all(1 <= code.t <= 3 for code in table)
    listed = {g.code for g in published.games()}
    assert all(eq == code or eq in listed for code, eq in table.items())
    assert {e.a_number for e in OEIS} >= {"A002186", "A002187", "A002188"}
    grundy = published.game("grundy")
    assert grundy.name == "Grundy's" and grundy.status == "unsolved" and grundy.heaps == 1 << 21
    assert published.oeis("4!·0").a_number == "A002188" and len(published.oeis("grundy").terms) == 105


def test_lookups():
    assert published.game("·354").period == 1180 and published.game(".354").status == "solved"
    assert published.game("·1377") is None
    assert published.equivalent("·37") == parse("·6") and published.game("·6").status == "unsolved"
    assert published.equivalent("·354") == parse("·354")
    assert published.equivalent("·137") == parse("·4")  # the same values two heaps later
    assert published.equivalent("·1377") is None
    assert published.oeis("·77").a_number == "A002186" and published.oeis("·6") is None
    assert published.game("·127").mask.label == "1+position"
    assert published.game("·354").mask == RareClass(0x3F, 0)
    with pytest.raises(PublishedDataError):
        published.game("·6").sequence(10)


def test_published_rows_agree_with_each_other():
    """Each trivial row: notation and numbers agree, and our sequence is the source's with the
    heaps the game cannot move on (worth 0) put back in front."""
    for g in TRIVIAL:
        pre, block = g.values.rstrip(")").split("(")
        assert (max(len(pre), 1), len(block)) == (g.start, g.period), g.name
        if g.nimbers is None:
            continue
        npre, nblock = g.nimbers.rstrip(")").split("(")
        assert (len(npre), len(nblock)) == (g.prefix, g.period), g.name
        heaps = len(pre) + 3 * g.period + 4
        ours, theirs = g.sequence(heaps), expand(g.nimbers, heaps)
        shifts = [o for o in range(4) if ours[:o] == [0] * o and ours[o:] == theirs[: heaps - o]]
        assert shifts, g.name
        assert g.start <= g.prefix + shifts[0], g.name


def test_oeis_and_the_trivial_list_agree_where_they_overlap():
    """Kayles is listed itself; Dawson's chess as its lookup equivalent ·4, whose values are
    A002187 two heaps later (the comment on A002187 says so too)."""
    shifts = {}
    for e in OEIS:
        listed = published.game(published.equivalent(e.code) or e.code)
        if listed is None or listed.values is None:
            continue
        n = len(e.terms)
        values = listed.sequence(e.offset + n + 3)
        found = [o for o in range(4) if tuple(values[e.offset + o : e.offset + o + n]) == e.terms]
        assert found, e.a_number
        shifts[str(e.code)] = found[0]
    assert shifts["·77"] == 0 and shifts["·137"] == 2


@pytest.mark.parametrize("g", TRIVIAL, ids=lambda g: g.name)
def test_trivial_game_values_and_certified_period(g):
    heaps = 2 * g.start + 4 * g.period + g.code.t + 50
    want = g.sequence(heaps)
    for engine in ("dense", "reference", "auto"):
        assert compute(g.code, heaps, engine=engine).tolist() == want, engine
    tr = trajectory(compute(g.code, heaps), g.code)
    assert tr.certified
    assert (tr.final.start, tr.final.period, tr.certificate_depth) == (g.start, g.period, g.window)


@pytest.mark.parametrize("entry", OEIS, ids=lambda e: f"{e.a_number}-{e.code}")
def test_oeis_terms(entry):
    heaps = entry.offset + len(entry.terms)
    for engine in ("dense", "reference", "auto"):
        assert tuple(compute(entry.code, heaps, engine=engine).tolist()[entry.offset :]) == entry.terms


@pytest.mark.parametrize(
    "g",
    [
        pytest.param(g, marks=[pytest.mark.slow] if g.window >= CERTIFICATE_LIMIT else [])
        for g in SOLVED
    ],
    ids=lambda g: g.name,
)
def test_solved_game_settles_at_its_published_period(g):
    result = settle(g.code)
    r = result.reading
    assert result.settled
    assert (r.start, r.period, r.window) == (g.start, g.period, g.window)


def test_grundys_game_has_flammenkamps_sparse_heaps():
    """Every heap through the end of the published list whose value has an even number of ones
    without its lowest bit (mask ``0111…``, heap 0 included) is listed, with its value."""
    listed = published.flammenkamp_grundy()
    assert listed.code == parse("grundy") and listed.known == 1287 and len(listed.values) == 48
    g = compute("grundy", listed.through + 1)
    top = int(g.max()).bit_length()
    mask = RareClass((1 << top) - 2, 0)
    ours = [(n, int(v)) for n, v in enumerate(g) if mask.holds(int(v))]
    assert tuple(ours) == listed.values


@pytest.mark.slow
def test_grundys_game_to_2_21_against_czajkas_unsolved_list():
    """The sparse statistics of Czajka's table at 2^21 heaps (its counts include heap 0)."""
    listed = published.game("grundy")
    values, stats = compute_with_stats("grundy", listed.heaps, engine="sparse")
    assert stats.rare_class == listed.mask
    assert stats.rare_heaps + 1 == listed.rare_heaps and stats.last_rare == listed.last_rare
    assert (stats.max, stats.argmax) == (listed.largest, listed.largest_heap)
    assert int(values.max()) == values[listed.largest_heap] == listed.largest


def test_a_missing_table_is_an_error(monkeypatch, tmp_path):
    monkeypatch.setattr(published.resources, "files", lambda package: tmp_path)
    for cached in (published._games, published._lookup, published._oeis, published.flammenkamp_grundy):
        cached.cache_clear()
    try:
        with pytest.raises(PublishedDataError, match=r"trivial_games\.csv is missing"):
            published.games()
        with pytest.raises(PublishedDataError, match=r"tczajka_lookup\.csv is missing"):
            published.equivalent("·137")
        with pytest.raises(PublishedDataError, match=r"oeis\.csv is missing"):
            published.oeis("·77")
        with pytest.raises(PublishedDataError, match=r"flammenkamp_grundy\.csv is missing"):
            published.flammenkamp_grundy()
    finally:
        monkeypatch.undo()
        for cached in (published._games, published._lookup, published._oeis, published.flammenkamp_grundy):
            cached.cache_clear()
    assert len(published.games("trivial")) == 82


@pytest.mark.parametrize("heaps", [1 << 16, pytest.param(1 << 20, marks=pytest.mark.slow)])
def test_histograms_match_rogalskis_at_powers_of_two(heaps):
    """Rogalski's program (Rust, its own method) counted the values of heaps 1..N of five
    unsolved codes; ours agree, and the run's frontier statistics at N hold the same counts
    with heap 0 in place of heap N."""
    tables = published.rogalski_histograms()
    codes = sorted({code for code, n in tables if n == heaps}, key=str)
    assert len(codes) == 5
    for code in codes:
        seq = grundy.values(code, heaps + 1)
        ours = np.bincount(np.asarray(seq[1 : heaps + 1], dtype=np.int64))
        assert {v: int(c) for v, c in enumerate(ours) if c} == tables[(code, heaps)], code
        at = {r.heaps: r for r in seq.frontier()}[heaps]
        counted = {v: c for v, c in enumerate(at.histogram) if c}
        counted[0] -= 1
        counted[int(seq[heaps])] = counted.get(int(seq[heaps]), 0) + 1
        assert {v: c for v, c in counted.items() if c} == tables[(code, heaps)], code
