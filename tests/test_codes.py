"""Codes: parsing, canonical form, moves and families (docs/codes.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grundy.codes import Code, Move, family, parse
from grundy.errors import CodeError


@pytest.mark.parametrize(
    "text, digits",
    [
        ("·137", (0, 1, 3, 7)),
        (".137", (0, 1, 3, 7)),
        ("0.137", (0, 1, 3, 7)),
        ("0·137", (0, 1, 3, 7)),
        ("4.07", (4, 0, 7)),
        ("4", (4,)),
        ("4·", (4,)),
        (" ·77 ", (0, 7, 7)),
        ("0x·9", (0, 9)),
        ("0X.F1", (0, 15, 1)),
        ("0x4.8", (4, 8)),
    ],
)
def test_parse(text, digits):
    assert parse(text).digits == digits


@pytest.mark.parametrize(
    "text, canonical",
    [(".137", "·137"), ("0.07", "·07"), ("4.07", "4·07"), ("4", "4·"), ("0x.9", "0x·9"), ("0x.7", "·7")],
)
def test_canonical_form(text, canonical):
    assert str(parse(text)) == canonical
    assert parse(canonical) == parse(text)


@pytest.mark.parametrize(
    "text, culprit",
    [
        ("", "empty"),
        ("·", "no digits"),
        ("·80", "'8'"),
        ("·1x", "'x'"),
        ("·130", "'0'"),
        ("·9", "'9'"),
        ("2.1", "'2'"),
        ("·1.2", "'.'"),
        ("abc", "'a'"),
        ("137", "no point"),
        ("0x·g", "'g'"),
    ],
)
def test_bad_codes_name_the_culprit(text, culprit):
    with pytest.raises(CodeError) as err:
        parse(text)
    msg = str(err.value)
    assert culprit in msg
    assert "\n" not in msg


def test_t_and_bits():
    c = parse("·137")
    assert c.t == 3
    assert c.take_all == (1, 2, 3)
    assert c.leave_one == (2, 3)
    assert c.split_two == (3,)
    assert c.split_three == ()
    assert not c.hexadecimal
    assert parse("4·07").split_two == (0, 2)
    h = parse("0x·f")
    assert h.hexadecimal and h.split_three == (1,)


def test_moves_list_every_bit():
    assert parse("·35").moves == (
        Move(1, 0),
        Move(1, 1),
        Move(2, 0),
        Move(2, 2),
    )


def test_code_refuses_bad_digits():
    with pytest.raises(CodeError):
        Code((2, 1))
    with pytest.raises(CodeError):
        Code((0, 1, 0))


def test_family_sizes():
    assert sum(1 for _ in family(3)) == 511
    assert sum(1 for _ in family(4)) == 4095
    assert sum(1 for _ in family(2, d0=True)) == 2 * 63
    assert sum(1 for _ in family(1, hexadecimal=True)) == 15
    codes = list(family(3))
    assert len(set(codes)) == len(codes)
    assert all(c.digits[-1] != 0 and c.t <= 3 for c in codes)


@given(st.lists(st.integers(0, 7), min_size=0, max_size=5), st.integers(1, 7), st.sampled_from([0, 4]))
def test_format_parse_round_trip(rest, last, d0):
    code = Code((d0, *rest, last))
    assert parse(str(code)) == code


@pytest.mark.parametrize(
    "text, suggestions",
    [
        ("5", ["·5"]),
        ("137", ["·137"]),
        ("45", ["·45", "4·5"]),
        ("04", ["·04", "·4"]),
        ("0x9", ["0x·9"]),
        ("0", []),
        ("40", []),
        ("00", []),
        ("0x0", []),
    ],
)
def test_digits_without_a_point_suggest_only_codes(text, suggestions):
    """One rule: a code needs a point (a bare 4 is 4·); the error suggests only codes."""
    with pytest.raises(CodeError) as err:
        parse(text)
    msg = str(err.value)
    assert "needs a point" in msg and "4·" in msg
    suggested = msg.split(": write ", 1)[1].split(";")[0].split(" or ") if ": write " in msg else []
    assert suggested == suggestions
    for s in suggested:
        assert str(parse(s)) == s


@given(st.text(alphabet="0123456789abcdefx", min_size=1, max_size=6))
def test_every_suggestion_parses(text):
    try:
        parse(text)
    except CodeError as err:
        msg = str(err)
        if ": write " in msg:
            for s in msg.split(": write ", 1)[1].split(";")[0].split(" or "):
                parse(s)


def test_bare_four_is_the_split_only_game():
    assert parse("4") == parse("4·") == Code((4,))
    assert parse("4").moves == (Move(0, 2),)
