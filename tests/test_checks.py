"""The one validation layer (grundy.checks): the library refuses what the command line refuses."""

from __future__ import annotations

import numpy as np
import pytest

import grundy
import grundy.memory
from cli_inprocess import one_line_error, run
from grundy import checks
from grundy import rare as R
from grundy.errors import UsageError

NOT_WHOLE = [2.5, 3.0, True, False, "7", None, np.float64(4)]


@pytest.fixture
def memory_of_8_gib(monkeypatch):
    """Pretend 8 GiB are available, so that the check does not depend on this machine."""
    monkeypatch.setattr(grundy.memory, "available_bytes", lambda: 8 << 30)


@pytest.mark.parametrize("bad", NOT_WHOLE, ids=repr)
def test_heaps_that_are_not_whole_numbers_are_refused_not_truncated(bad):
    """``grundy.values(code, True)`` computed one heap; ``position`` cut 2.5 to 2."""
    with pytest.raises(UsageError, match="whole number"):
        grundy.values("·137", bad)
    with pytest.raises(UsageError, match="whole number"):
        grundy.values("·137", 20).extend(bad)
    with pytest.raises(UsageError, match="whole number"):
        grundy.position("·137", [bad, 3])
    with pytest.raises(UsageError, match="whole number"):
        grundy.survey(["·7"], bad)


def test_numpy_integers_are_whole_numbers():
    assert len(grundy.values("·137", np.int64(40))) == 40
    assert grundy.position("·137", [np.int32(3), np.uint8(5), 8]).value == 1


def test_a_heap_count_that_cannot_fit_is_refused_before_numpy_tries(memory_of_8_gib):
    """``grundy.values(code, 10**15)`` raised numpy's MemoryError where the CLI refused cleanly."""
    with pytest.raises(UsageError, match=f"{10**15:,} bytes"):
        grundy.values("·137", 10**15)
    with pytest.raises(UsageError, match=f"{10**15:,} bytes"):
        grundy.survey(["·137"], 10**15)
    line = one_line_error(*run("values", "·137", "--heaps", str(10**15)))
    assert f"{10**15:,} bytes" in line


def test_one_code_is_a_family_of_one():
    """``grundy.survey("·137", 100)`` read the string one character at a time (and failed on '·')."""
    one = grundy.survey("·137", 100)
    listed = grundy.survey(["·137"], 100)
    assert list(one.table()["code"]) == ["·137"]
    assert one.record("·137") == listed.record("·137")
    assert [r["code"] for r in grundy.survey(grundy.parse("·45"), 60).results()] == ["·45"]


@pytest.mark.parametrize("digits", [0, 7, -1, True, 2.0])
def test_the_digits_of_a_family_range_as_on_the_command_line(digits):
    with pytest.raises(UsageError, match="digits"):
        grundy.survey(digits, 60)


def test_the_library_and_the_command_line_allow_the_same_digits():
    """The library said "digits 1..4" where the command line allowed 1..6."""
    from grundy.cli.survey import survey

    option = next(p for p in survey.params if p.name == "digits")
    assert (option.type.min, option.type.max) == (1, checks.MAX_DIGITS)
    assert checks.digits(checks.MAX_DIGITS) == checks.MAX_DIGITS
    with pytest.raises(UsageError, match=f"1..{checks.MAX_DIGITS}"):
        checks.digits(checks.MAX_DIGITS + 1)
    one_line_error(*run("survey", "--digits", str(checks.MAX_DIGITS + 1), "-n", "60"))


@pytest.mark.parametrize("bad", [12, "·137", b"x", [], [1.5]])
def test_a_position_is_a_list_of_whole_numbers(bad):
    with pytest.raises(UsageError):
        grundy.position("·137", bad)


def test_the_numbers_of_the_rare_analyses_are_whole_numbers():
    g = grundy.values("·6", 400).values
    for call in (
        lambda: R.arrivals("·6", g, R.RareClass(1), after=2.5),
        lambda: R.arrivals("·6", g, R.RareClass(1), block=True),
        lambda: R.counts("·6", g, 3, lo=True),
        lambda: R.counts("·6", g, 3.0),
        lambda: R.ledger("·6", g, 3, below=100.0),
        lambda: R.counts("·6", g, 3, mask=1.0),
    ):
        with pytest.raises(UsageError, match="whole number"):
            call()


def test_a_mask_wider_than_every_value_is_refused():
    """A mask whose every bit lies above the largest value selects nothing: the user meant another.
    One with a bit among the values' is a class, whatever its higher bits."""
    g = grundy.values("·6", 400).values
    top = int(g.max())
    width = top.bit_length()
    assert R.arrivals("·6", g, R.RareClass((1 << width) | 1)).cls.mask == (1 << width) | 1
    for mask in (1 << width, 3 << width, 1 << 40):
        for call, args in ((R.arrivals, (R.RareClass(mask),)), (R.arrivals, (R.RareClass(mask, 0),)),
                           (R.counts, (1,)), (R.ledger, (1,))):
            options = {} if call is R.arrivals else {"mask": mask}
            with pytest.raises(UsageError, match="wider than every value"):
                call("·6", g, *args, **options)
    widest = (1 << width) - 1
    assert R.arrivals("·6", g, R.RareClass(widest)).cls.mask == widest
    for command in (["rare", "·6", "-n", "400"], ["counts", "·6", "-v", "1", "-n", "400"],
                    ["ledger", "·6", "-v", "1", "-n", "400"]):
        assert "wider than every value" in one_line_error(*run(*command, "--mask", str(1 << width)))
        status, _, err = run(*command, "--mask", str(widest) if command[0] == "rare" else "1")
        assert status == 0, err
