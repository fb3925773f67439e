"""grundy.catalogue.same_games.shifted: a code whose heap n is worth heap n + 1 of another, checked
against the reference values on every 1..3-digit code and on random 4..5-digit ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from grundy.catalogue import published
from grundy.catalogue.same_games import same_game, shifted
from grundy.codes import Code, family, parse
from grundy.engine.reference import grundy_values


def moved_by_one(code: Code, heaps: int) -> bool:
    """Whether ``shifted(code)`` at heap n is worth ``code`` at heap n + 1 for every n < heaps."""
    return grundy_values(code, heaps + 1)[1:] == grundy_values(shifted(code), heaps)


def test_every_short_code_the_rule_applies_to_is_moved_by_one_heap():
    applies = [c for c in family(3) if shifted(c) is not None]
    assert len(applies) == 4 * 8 * 8 - 1  # d1 without bit 1, any d2 and d3, but not ·0
    assert all(moved_by_one(c, 160) for c in applies)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.integers(0, 7), min_size=3, max_size=4), st.sampled_from([0, 2, 4, 6]))
def test_longer_codes_are_moved_by_one_heap(rest, d1):
    digits = (0, d1, *rest)
    if digits[-1] == 0:
        digits = digits[:-1] + (1,)
    assert moved_by_one(Code(digits), 120)


def test_the_rule_needs_a_heap_of_one_without_a_move():
    assert shifted("·1") is None and shifted("·37") is None and shifted("4·07") is None
    assert grundy_values(parse("·37"), 3)[1] == 1  # heap 1 is worth 1: no heap can stand for it


def test_the_known_shifts():
    assert str(shifted("·07")) == "·137"  # Dawson's Kayles and Dawson's chess
    assert str(shifted("·4")) == "·07"
    assert str(same_game(shifted("·4002")).canonical) == "·0702"
    assert str(shifted("·454")) == "·1777" and str(same_game("·1777").canonical) == "·1776"


def test_the_published_lookup_names_a_code_and_its_shifted_code_one_game():
    """Outside truth: the lookup table lists equivalences up to a shift of heaps; wherever a code
    of 1..3 digits and the game of its shifted code are both listed, it names one equivalent game."""
    lookup = published.lookup()
    pairs = [(c, same_game(shifted(c)).canonical) for c in lookup if shifted(c) is not None]
    listed = [(a, b) for a, b in pairs if b in lookup]
    assert len(listed) > 100
    assert all(lookup[a] == lookup[b] for a, b in listed)
