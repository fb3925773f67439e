"""Positions of several heaps: the nim-value and the winning moves, against a game-tree search."""

import json
import subprocess
import sys
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy import position
from grundy.codes import parse
from grundy.errors import UsageError

CODES = ["·137", "·77", "·07", "·6", "4·07", "·354", "0x·9", "·226"]


def _moves(digits, heaps):
    """Every position one move leaves, enumerated from the digits (no Sprague–Grundy theory)."""
    out = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for k, d in enumerate(digits):
            r = n - k
            if r < 0 or (k == 0 and r == 0):
                continue
            parts = []
            if d & 1 and r == 0:
                parts.append(())
            if d & 2 and k and r:
                parts.append((r,))
            if d & 4:
                parts += [(a, r - a) for a in range(1, r)]
            if d & 8:
                parts += [(a, b, r - a - b) for a in range(1, r) for b in range(1, r - a)]
            for p in parts:
                out.add(tuple(sorted(x for x in rest + p if x)))
    return out


def _tree_value(digits):
    @cache
    def value(heaps):
        seen = {value(m) for m in _moves(digits, heaps)}
        v = 0
        while v in seen:
            v += 1
        return v

    return value


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.sampled_from(CODES), st.lists(st.integers(0, 7), min_size=1, max_size=3))
def test_value_and_winning_moves_match_the_game_tree(text, heaps):
    code = parse(text)
    value = _tree_value(code.digits)
    p = position(code, heaps)
    start = tuple(sorted(h for h in heaps if h))
    assert p.value == value(start)
    winning = {m for m in _moves(code.digits, start) if value(m) == 0}
    assert {m.after for m in p.winning_moves} == winning
    assert (p.value != 0) == bool(winning) == p.winning


def test_a_hand_checked_position():
    # ·137: G(3) = 2, G(5) = 3, G(8) = 0; 2 ^ 3 ^ 0 = 1.
    p = position("·137", [3, 5, 8])
    assert p.value == 1
    assert [m.after for m in p.winning_moves] == [(3, 3, 8), (3, 5, 6), (1, 3, 4, 5)]
    assert [(m.heap, m.removes, m.leaves) for m in p.winning_moves][-1] == (8, 3, (1, 4))


def test_bad_positions():
    with pytest.raises(UsageError):
        position("·137", [])
    with pytest.raises(UsageError):
        position("·137", [3, -1])


def test_cli_nim_json_and_errors():
    out = subprocess.run([sys.executable, "-m", "grundy", "nim", "·137", "3", "5", "8", "--json"],
                         check=False, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj["value"] == 1 and [m["after"] for m in obj["winning_moves"]] == [
        [3, 3, 8], [3, 5, 6], [1, 3, 4, 5]]
    bad = subprocess.run([sys.executable, "-m", "grundy", "nim", "·137", "x"],
                         check=False, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
