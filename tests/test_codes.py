"""Codes: parsing, canonical form, moves and families (docs/codes.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grundy.codes import Code, Move, family, file_safe, parse
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


# ---------------------------------------------------------------- unequal splits ('!')


@pytest.mark.parametrize(
    "text, digits, unequal, canonical",
    [
        ("4!·0", (4,), (0,), "4!·"),
        ("4!.0", (4,), (0,), "4!·"),
        ("4!", (4,), (0,), "4!·"),
        ("grundy", (4,), (0,), "4!·"),
        ("Grundys-Game", (4,), (0,), "4!·"),
        ("·4!", (0, 4), (1,), "·4!"),
        (".64!", (0, 6, 4), (2,), "·64!"),
        ("0.4!4!", (0, 4, 4), (1, 2), "·4!4!"),
        ("4!.07", (4, 0, 7), (0,), "4!·07"),
        ("4.7!", (4, 7), (1,), "4·7!"),
        ("0x·4!8", (0, 4, 8), (1,), "0x·4!8"),
        ("4·0", (4,), (), "4·"),
    ],
)
def test_unequal_digits_parse_and_print(text, digits, unequal, canonical):
    code = parse(text)
    assert (code.digits, code.unequal, str(code)) == (digits, unequal, canonical)
    assert parse(canonical) == code


def test_grundys_game():
    g = parse("grundy")
    assert g == Code((4,), (0,)) != parse("4") and g.t == 0
    assert g.split_two == (0,) and g.unequal == (0,) and g.moves == (Move(0, 2),)
    assert [g.split_top(0, m) for m in range(1, 8)] == [0, 0, 1, 1, 2, 2, 3]
    assert [parse("4").split_top(0, m) for m in range(1, 8)] == [0, 1, 1, 2, 2, 3, 3]
    assert parse("·64!").split_two == (1, 2) and parse("·64!").unequal == (2,)


@pytest.mark.parametrize(
    "text, culprit",
    [
        ("·3!", "digit '3' in '·3!'"),
        ("0!·4", "digit '0'"),
        ("!·4", "at the start"),
        ("·!4", "after the point"),
        ("·4!!", "another '!'"),
        ("0x·c!", "splits a heap in three"),
        ("0x·9!", "digit '9'"),
        ("kayles", "nor the name of a game (grundy, grundys-game)"),
        ("abc", "unexpected character 'a'"),
    ],
)
def test_bad_unequal_marks_and_names(text, culprit):
    with pytest.raises(CodeError) as err:
        parse(text)
    assert culprit in str(err.value) and "\n" not in str(err.value)


def test_code_refuses_bad_unequal_digits():
    with pytest.raises(CodeError):
        Code((0, 3), (1,))
    with pytest.raises(CodeError):
        Code((0, 4), (2,))
    assert Code((0, 4, 4), [2, 1, 2]).unequal == (1, 2)


@given(
    st.lists(st.integers(0, 7), min_size=0, max_size=4),
    st.integers(1, 7),
    st.sampled_from([0, 4]),
    st.sets(st.integers(0, 5)),
)
def test_unequal_format_parse_round_trip(rest, last, d0, marks):
    digits = (d0, *rest, last)
    code = Code(digits, tuple(k for k in marks if k < len(digits) and digits[k] & 4))
    assert parse(str(code)) == code


def test_file_names_hold_no_bang():
    assert file_safe(str(parse("grundy"))) == "4u·"
    assert file_safe(str(parse("·64!"))) == "·64u"
    names = {file_safe(str(Code((0, 4, d), u))) for d in (4, 5) for u in ((), (1,), (2,), (1, 2))}
    assert len(names) == 8 and not any("!" in n for n in names)
