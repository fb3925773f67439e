"""Positions of several heaps: the nim-value and the winning moves, against a game-tree search."""

import json
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from conftest import examples
from grundy import position
from grundy.codes import parse
from grundy.engine import compute
from grundy.errors import UsageError
from naive import naive_moves, naive_tree_value, naive_winning

CODES = ["·137", "·77", "·07", "·6", "4·07", "·354", "0x·9", "·226"]


@settings(max_examples=examples(150), deadline=None)
@given(st.sampled_from(CODES), st.lists(st.integers(0, 7), min_size=1, max_size=3))
def test_value_and_winning_moves_match_the_game_tree(text, heaps):
    code = parse(text)
    value = naive_tree_value(code.digits)
    p = position(code, heaps)
    start = tuple(sorted(h for h in heaps if h))
    assert p.value == value(start)
    winning = {m for m in naive_moves(code.digits, start) if value(m) == 0}
    assert set(_every_after(p)) == winning and len(_every_after(p)) == p.count
    assert (p.value != 0) == bool(winning) == p.winning


def _every_after(p) -> list[tuple[int, ...]]:
    """The position after every winning move, the progressions of splits taken apart."""
    out = [m.after for m in p.winning_moves]
    for s in p.winning_splits:
        others = list(p.heaps)
        others.remove(s.heap)
        out += [tuple(sorted(x for x in (*others, a, b) if x)) for a, b in s.parts()]
    return out


SETTLED = ["·137", "·07", "·77", "·226", "·34", "4·07", "·7"]


@settings(max_examples=examples(40), deadline=None)
@given(st.sampled_from(SETTLED), st.lists(st.integers(0, 1200), min_size=1, max_size=3))
def test_heaps_past_the_period_match_every_move_enumerated(text, heaps):
    """Past the period the splits come in progressions; taken apart, they are exactly the winning
    moves that enumerating every move of the position finds (with values computed to each heap)."""
    code = parse(text)
    p = position(code, heaps)
    g = compute(code, max(heaps) + 1)
    value = 0
    for h in heaps:
        value ^= int(g[h])
    assert p.value == value
    after = _every_after(p)
    assert len(after) == len(set(after)) == p.count
    assert set(after) == naive_winning(code, g, heaps)
    assert all(s.count >= 2 and s.first >= p.reading.start for s in p.winning_splits)


def test_a_huge_heap_answers_by_the_period_at_once():
    """``grundy.position("·137", [10**7, 12, 5])`` ran for minutes (that position is lost; this
    test takes the winning ``[10**7, 12, 6]``).  Its value is read off the period, and its moves match those of a heap small enough to enumerate that lies in the same
    residue modulo twice the period: the same residues win, each progression longer by the
    same number of periods."""
    code = parse("·137")
    head = compute(code, 200)
    s, p = 52, 34
    big = 10**7
    start = time.perf_counter()
    huge = position(code, [big, 12, 6])
    assert time.perf_counter() - start < 5
    assert huge.reading.start == s and huge.reading.period == p
    assert huge.value == int(head[s + (big - s) % p]) ^ int(head[12]) ^ int(head[6])
    small = big % (2 * p) + 2 * p * 40
    near = position(code, [small, 12, 6])
    assert near.value == huge.value
    g = compute(code, small + 1)
    assert set(_every_after(near)) == naive_winning(code, g, [small, 12, 6])
    grown = (big - small) // (2 * p)
    assert [(f.removes, f.first, f.step, f.count + grown) for f in near.winning_splits] == \
        [(f.removes, f.first, f.step, f.count) for f in huge.winning_splits if f.heap == big]
    assert huge.count > 100_000 and len(huge.winning_moves) < 100
    assert position(code, [10**40 + 7]).value == int(head[s + (10**40 + 7 - s) % p])


def test_a_source_gives_the_values_and_the_certificate(tmp_path):
    seq = grundy.values("·137", 400)
    p = position("·137", [10**9, 3], source=seq)
    assert p.known == 400 and p.reading.period == 34
    assert p.value == position("·137", [10**9, 3]).value
    cat = grundy.survey(["·137"], 300, tmp_path / "c.sqlite")
    assert position("·137", [10**9, 3], source=cat).known == 300
    with pytest.raises(UsageError, match="not of ·77"):
        position("·77", [5], source=seq)
    with pytest.raises(UsageError, match="holds no values of ·45"):
        position("·45", [5], source=cat)
    short = grundy.values("·137", 60)  # not certified yet: computed further from it
    assert position("·137", [10**6], source=short).reading.period == 34


def test_a_huge_heap_of_a_code_that_does_not_settle_is_refused(monkeypatch):
    import importlib

    import grundy.memory

    monkeypatch.setattr(importlib.import_module("grundy.readings.position"), "PROBE_HEAPS", 3000)
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 8 << 30)
    with pytest.raises(UsageError, match="·6 has no certified period within 3,000 heaps"):
        position("·6", [10**15])


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


def test_cli_nim_answers_a_huge_heap_by_the_period(tmp_path):
    """``grundy nim ·137 10000000`` ran for minutes; with a stored sequence or a catalogue as the
    source the same answer comes from their values."""
    from cli_inprocess import one_line_error, run

    start = time.perf_counter()
    status, out, err = run("nim", "·137", "10000000", "12", "6")
    assert status == 0, err
    assert time.perf_counter() - start < 5
    assert "the period 34 from heap 52, certified" in out and "value     2: the player to move wins" in out
    assert out.count("\nsplits    take 3 from 10,000,000") == 2 and "in all    294,125 winning moves" in out
    grundy.values("·137", 300).save(tmp_path / "s")
    status, out, _ = run("nim", "·137", "10000000", "12", "6", "--sequence", str(tmp_path / "s"), "--json")
    obj = json.loads(out)
    assert status == 0 and obj["value"] == 2 and obj["moves"] == 294_125 and obj["known"] == 300
    assert [s["count"] for s in obj["winning_splits"]] == [147_057, 147_057]
    grundy.survey(["·137"], 400, tmp_path / "c.sqlite").close()
    status, out, _ = run("nim", "·137", "10000000", "12", "6", "--db", str(tmp_path / "c.sqlite"), "--json")
    assert status == 0 and json.loads(out)["known"] == 400
    one_line_error(*run("nim", "·137", "5", "--db", str(tmp_path / "c.sqlite"), "--sequence", str(tmp_path / "s")))
    one_line_error(*run("nim", "·45", "5", "--db", str(tmp_path / "c.sqlite")))
    one_line_error(*run("nim", "·45", "5", "--sequence", str(tmp_path / "s")))
