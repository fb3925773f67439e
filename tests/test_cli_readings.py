"""``grundy period`` and ``grundy readings``: JSON keys, tables, plots, one-line errors."""

import json
import subprocess
import sys

import pytest

from cli_inprocess import one_line_error, run
from grundy import compute, parse
from grundy.catalogue import published
from grundy.engine.reference import grundy_values
from grundy.readings.trajectory import trajectory
from naive import naive_reading, naive_trajectory


def grundy(*args):
    return subprocess.run(
        [sys.executable, "-m", "grundy", *args],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_period_json():
    out = grundy("period", "·137", "--heaps", "200", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {
        "code": "·137",
        "t": 3,
        "heaps": 200,
        "reading": {
            "start": 52, "period": 34, "saltus": 0, "window": 175, "tight_window": 174,
            "certified": True,
        },
        "arithmetic": None,
    }


def test_period_one_heap_short_is_not_certified():
    obj = json.loads(grundy("period", "·137", "--heaps", "174", "--json").stdout)
    assert obj["reading"]["window"] == 175 and obj["reading"]["certified"] is False


def test_period_arithmetic_beside_the_reading_and_none():
    obj = json.loads(grundy("period", "0x·8", "--heaps", "60", "--json").stdout)
    gl = grundy_values(parse("0x·8"), 60)
    assert (obj["reading"]["start"], obj["reading"]["period"]) == naive_reading(gl, 60)
    s, p = naive_reading(gl, 60, arithmetic=True)
    assert obj["arithmetic"] == {
        "start": s, "period": p, "saltus": gl[s + p] - gl[s], "window": 3 * (s + p) + 1,
        "tight_window": None, "certified": False,
    }  # fmt: skip
    assert (s, p, gl[s + p] - gl[s]) == (1, 3, 1)
    obj = json.loads(grundy("period", "·3", "--heaps", "2", "--json").stdout)
    assert obj["reading"] is None and obj["arithmetic"] is None


def test_period_of_a_growing_code_is_the_pure_reading():
    """Two periods never make an arithmetic reading: ·6 at 2,400 heaps has none of period 1
    at its last heaps (the old rule read G(2399) - G(2398) as a saltus)."""
    obj = json.loads(grundy("period", "·6", "--heaps", "2400", "--json").stdout)
    g = [int(x) for x in compute("·6", 2400)]
    a = obj["arithmetic"]
    assert (a and (a["start"], a["period"])) == naive_reading(g, 2400, arithmetic=True)


def test_period_heap0():
    obj = json.loads(grundy("period", "·4", "--heaps", "3", "--heap0", "--json").stdout)
    assert obj["reading"] == {"start": 0, "period": 1, "saltus": 0, "window": 3, "tight_window": 2,
                              "certified": False}


def test_period_table():
    out = grundy("period", ".137", "--heaps", "200")
    assert out.returncode == 0
    assert "period 34 from heap 52" in out.stdout
    assert "175" in out.stdout and "certified" in out.stdout


def test_readings_json_is_the_trajectory():
    out = grundy("readings", "·226", "--heaps", "120", "--json")
    assert out.returncode == 0, out.stderr
    obj = json.loads(out.stdout)
    assert obj == json.loads(json.dumps(trajectory(compute("·226", 120), "·226").to_dict()))
    pub = published.game("·226")  # the published trivial list: period 5 from heap 21
    assert obj["final"] == {"start": pub.start, "period": pub.period, "window": pub.window}
    assert obj["certified"] is True
    (fr,) = [fr for fr in obj["false_readings"] if fr["start"] == 7]
    assert (fr["period"], fr["held_to"], fr["window"]) == (5, 20, 27)
    assert fr["kind"] == "right_period_wrong_start"


def test_readings_window_not_closed():
    obj = json.loads(grundy("readings", "·137", "--heaps", "150", "--json").stdout)
    assert obj["certified"] is False
    assert obj["certificate_depth"] is None and obj["right_from"] is None
    assert obj["final"] == {"start": 52, "period": 34, "window": 175}
    naive = naive_trajectory(grundy_values(parse("·137"), 150), 3)
    assert obj["false_readings"] == naive["false_readings"]
    out = grundy("readings", "·137", "--heaps", "150")
    assert "has not closed by depth 150" in out.stdout


def test_readings_table_and_plots(tmp_path):
    for suffix in ("png", "svg"):
        path = tmp_path / f"t137.{suffix}"
        out = grundy("readings", "·137", "--heaps", "300", "--plot", str(path))
        assert out.returncode == 0, out.stderr
        assert path.stat().st_size > 1000
    naive = naive_trajectory(grundy_values(parse("·137"), 200), 3)
    assert f"right from depth {naive['right_from']}" in out.stdout
    assert f"changes       {naive['changes']}" in out.stdout
    assert "dividing" in out.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["period", "·9", "--heaps", "5"],
        ["period", "·", "--heaps", "5"],
        ["period", "·7", "--heaps", "0"],
        ["period", "·7"],
        ["readings", "·130", "--heaps", "5"],
        ["readings", "·7", "--heaps", "many"],
        ["readings", "·7", "--heaps", "5", "--plot", "out.pdf"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    out = grundy(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    assert len(out.stderr.strip().splitlines()) == 1 and out.stderr.startswith("grundy: error:")


@pytest.mark.parametrize(
    "code, message",
    [
        ("5", "write ·5;"),
        ("45", "write ·45 or 4·5;"),
        ("0", "'0' is not a code"),
        ("40", "'40' is not a code"),
    ],
)
def test_a_code_without_a_point_is_told_one_rule(code, message):
    """`5` was told to write ·5 and `0` to write ·0, itself refused; `4` silently meant 4·."""
    line = one_line_error(*run("period", code, "--heaps", "10"))
    assert message in line and "only a bare 4 stands for 4·" in line


def test_a_bare_four_is_the_split_only_game():
    status, out, _ = run("period", "4", "--heaps", "40", "--json")
    assert status == 0 and json.loads(out)["code"] == "4·"
