"""docs/findings/four_digits.py: settling resumes, checks catch a false period, and a reduced
run's page states only the run's numbers."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from findings_check import load, script, unexplained
from grundy.catalogue import archive, campaign
from grundy.codes import file_name, parse
from grundy.engine import compute_with_stats, sparse

four = script("four_digits")
LOOKUP, GAMES = four.published()
PROSE = (0, 1, 5, 100, 150)  # "heap 0", "heap 1", the tallies' "5 to 100" and "over 150" changes


def test_published_tables_hold_no_code_of_four_digits():
    assert not any(four.digits_of(g) == 4 for g in GAMES)
    assert not any(four.digits_of(c) == 4 for c in LOOKUP)
    assert four.digits_of("·0137") == 4 and four.digits_of("4") == 0


def test_outcomes_against_a_published_entry():
    solved = {"settled": True, "period": 34, "start": 52}
    assert four.against(solved, "·137", LOOKUP, GAMES) == "same period"
    assert four.against(dict(solved, period=35), "·137", LOOKUP, GAMES) == "period differs"
    assert four.against({"settled": False}, "·137", LOOKUP, GAMES) == "open here, solved there"
    assert four.against({"settled": False}, "·6", LOOKUP, GAMES) == "open here and there"
    assert four.against(solved, "·6", LOOKUP, GAMES) == "settled here, unsolved there"
    assert four.against(solved, "·1234", LOOKUP, GAMES) == "not listed"


def test_codes_settled_here_and_listed_unsolved_are_named_with_their_source():
    outcome = {"·054": {"settled": True, "period": 10, "start": 7},
               "·0540": {"settled": True, "period": 10, "start": 7},
               "·0541": {"settled": False, "period": None, "start": None}}  # fmt: skip
    lit = four.literature(outcome, {"shorter": {"·0540": "·054", "·0541": "·054"}}, LOOKUP, GAMES, 4)
    named = {x["code"]: x for x in lit["settled_unsolved"]}
    assert set(named) == {"·054", "·0540"}
    assert named["·0540"]["listed_as"] == ".054" and named["·0540"]["period"] == 10
    assert named["·054"]["source"] == "UnsolvedGames.md at commit 30baeb7"


def test_a_larger_budget_resumes_and_spends_the_difference(tmp_path):
    """·6 never settles; the second budget exceeds what the first run spent (compiling
    included, which a cold numba cache makes large), so it resumes."""
    first = campaign.settle_within("·6", 0.05, str(tmp_path))
    assert not first["settled"] and first["heaps"] > 0
    again = campaign.settle_within("·6", 0.05, str(tmp_path))
    assert again == first  # the budget is spent: answered from the record
    more = campaign.settle_within("·6", first["cpu_seconds"] + 0.5, str(tmp_path))
    assert more["reused"] == first["heaps"] and more["heaps"] >= first["heaps"]
    assert more["cpu_seconds"] >= first["cpu_seconds"]
    assert json.loads((tmp_path / f"{file_name(parse('·6'))}.settle.json").read_text()) == more


def test_a_check_holds_for_a_true_period_and_fails_for_a_false_one():
    row = {"code": "·137", "start": 52, "period": 34, "window": 175, "mask": None, "position": None}
    values = compute_with_stats("·137", 400)[0]
    good = four.check(row, values)
    assert good["holds"] and good["agrees"] and good["engine"] == "dense" and good["depth"] == 350
    assert not four.check(dict(row, start=51), values)["holds"]
    assert not four.check(row, values + 1)["agrees"]
    plain = four.check({"code": "·03", "start": 1, "period": 4, "window": 12}, None)
    assert plain["engine"] == "reference" and plain["holds"] and not plain["agrees"]


def test_a_deep_check_forces_a_mask(monkeypatch):
    monkeypatch.setattr(campaign, "DENSE_LIMIT", 100)
    values = compute_with_stats("·137", 400)[0]
    row = {"code": "·137", "start": 52, "period": 34, "window": 175, "mask": 1, "position": False}
    out = four.check(row, values)
    assert out["engine"].startswith("sparse, bounded, mask ") and out["depth"] == 350
    assert out["holds"] and out["agrees"]
    assert campaign.other_mask(four.parse("·137"), values, sparse.even_class(1)) != sparse.even_class(1)
    by_digest = four.check(row, None, campaign.digest(values, 175))
    assert by_digest["agrees"] and by_digest["compared"] == 175
    assert not four.check(row, None, campaign.digest(values + 1, 175))["agrees"]


def test_crowded_games_are_the_open_games_whose_rare_heaps_keep_a_share_of_the_heaps():
    def step(n, mask, rare, largest, cpu):
        return [n, mask, False, rare, n - 1, largest, cpu]

    depths = [1 << k for k in range(13, 18)]
    steps = {
        "·0004": [step(n, 928, int(0.4 * n), round(3 * n ** 0.5), 4.0 ** k) for k, n in enumerate(depths)],
        "·0005": [step(n, None, 0, round(n ** 0.75), c) for n, c in zip(depths[-2:], (1.0, 8.0), strict=True)],  # dense
        "·16": [step(n, 3, 10, 27, 1.0) for n in depths],  # few rare heaps
        "·0006": [step(n, 928, n // 2, 99, 1.0) for n in depths],  # settled
        "·0007": [step(1 << 12, 928, 2000, 99, 1.0)],  # shallow: no fit
    }
    x = four.crowded_games(steps, {"·0004", "·0005", "·16", "·0007"}, 0.1, 1 << 16)
    assert x["games"] == 3 and sorted(x["series"]) == ["·0004", "·0005", "·0007"]
    assert x["below_floor"] == 1  # ·0007 at 4,096 heaps
    assert x["share"] == {"min": 0.4, "median": 0.488, "max": 1.0}
    assert x["alpha"] == {"games": 1, "p10": 0.5, "median": 0.5, "p90": 0.5}  # ·0005 has two steps only
    assert x["step_ratio"] == {"games": 2, "median": 6.0}  # ·0004's 4 and ·0005's 8 a doubling
    assert x["deepest"] == {"code": "·0005", "heaps": 1 << 17, "max": round((1 << 17) ** 0.75), "share": 1.0}
    assert four.crowded_games(steps, {"·16"}, 0.1, 1 << 16) == {"games": 0}


def test_largest_values_still_growing_are_read_from_the_last_step_of_the_deep_representatives():
    def step(n, largest):
        return [n, 123, False, 115, 1876, largest, 1.0]

    steps = {
        "·0444": [step(1 << 28, 122), step(1 << 29, 128), step(1 << 27, 121)],  # rose in its last step
        "·0126": [step(1 << 28, 61), step(1 << 29, 61)],  # rose earlier, not in its last step
        "·0344": [step(1 << 26, 821), step(1 << 27, 899)],  # rose, but not deep enough
        "·0007": [step(1 << 28, 9)],  # one step: nothing to compare
    }
    x = four.still_growing(steps, ["·0444", "·0126", "·0344", "·0007", "·0008"], 1 << 28)
    assert x == {"depth": 1 << 28, "games": 3,
                 "rose": [{"code": "·0444", "from_heaps": 1 << 28, "from": 122, "heaps": 1 << 29, "to": 128}]}


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("four_digits")
    args = ["--quick", "--workers", "1", "--out", str(out), "--cache", str(out / "cache")]
    four.main(args)
    return out


def test_reduced_run_page_numbers_come_from_the_run(quick):
    page, r = load(quick, "four_digits")
    assert unexplained(page, r, PROSE) == []
    for x in r["settling"]["longest_preperiods"] + r["settling"]["open_deepest"]:
        assert f"| {x['code']} |" in page


def test_reduced_run_counts_add_up(quick):
    _, r = load(quick, "four_digits")
    t, st, same, lit, chk = (r["tallies"], r["settling"], r["same_games"], r["literature"],
                             r["checks"])  # fmt: skip
    assert t["short"]["codes"] == t["long"]["codes"] == 63 and t["shorter"]["codes"] == 7
    assert st["codes"] == t["long"]["growing"] + t["long"]["bounded_unsettled"]
    assert st["settled"] + st["open"] == st["codes"]
    assert chk["periods"] == t["long"]["settled"] + st["settled"] == chk["held"] == chk["agreed"]
    assert chk["failed"] == [] and all(t[k]["reached_window"] == 0 for k in t)
    assert sum(int(k) * n for k, n in same["size_counts"].items()) == same["codes"] == 63
    assert same["as_shorter"] + same["new_only"] == 56
    assert lit["direct_codes"] + lit["via_shorter"] + lit["new"] == 63
    assert r["from_nothing"] is True


def test_reduced_run_campaign_counts_add_up(quick):
    _, r = load(quick, "four_digits")
    c, st, t = r["campaign"], r["settling"], r["tallies"]
    k, tot = c["counts"], c["totals"]
    assert tot["codes"] == st["open"] == tot["settled"] + tot["open"]
    assert k["survey"] == t["long"]["settled"] and k["budget"] == k["survey"] + st["settled"]
    assert k["now"] == k["budget"] + tot["settled"] and k["codes"] == t["long"]["codes"]
    assert tot["games"] + tot["followers"] == tot["codes"] == tot["done"] + tot["remaining"] + tot["awaiting_check"]
    assert c["rules"]["checked_at_survey"] == c["rules"]["followers"]  # every open code was surveyed
    assert c["rules"]["lookup_agrees"] == c["rules"]["lookup_codes"]  # outside truth agrees
    assert c["rules"]["shifted"] == c["rules"]["shift_checked"] == tot["shifted"] >= 1  # ·6 is ·37 moved
    table = c["table"]
    assert all(table[x["code"]][10] == f"{x['from']} moved by {abs(x['by'])}" for x in c["rules"]["shifted_examples"])
    assert c["checks"]["checked"] == c["checks"]["held"] == c["checks"]["agreed"] == c["checks"]["settled_games"]
    assert c["deepest"] and c["checks"]["failed"] == []  # ·56 settles past the quick floor


def test_reduced_run_table_has_every_code_of_the_longest_digits(quick):
    _, r = load(quick, "four_digits")
    table = (quick / "four_digits" / "table.md").read_text()
    rows = {line.split(" | ")[0][2:]: line for line in table.splitlines() if line.startswith("| ·")}
    longest = [code for code in r["campaign"]["table"] if four.digits_of(code) == r["digits"]]
    assert sorted(rows) == sorted(longest) and len(rows) == 56
    cols = r["campaign"]["table_columns"]
    for code, row in r["campaign"]["table"].items():
        if code in rows:
            x = dict(zip(cols, row, strict=True))
            depth = x["window"] if x["status"] != "open" else x["heaps"]
            assert rows[code].endswith(f"`grundy settle {code} --max-heaps {depth}` |")
            assert unexplained(rows[code], {"row": row, "code": code}) == []


def test_reduced_run_figures_exist(quick):
    for f in ("tallies.png", "reach.png", "settled.png", "open.png", "classes.png", "frontier.png", "crowded.png"):
        assert (quick / "four_digits" / f).stat().st_size > 1000


def test_a_rerun_reuses_the_cache(quick, tmp_path):
    args = ["--quick", "--workers", "1", "--out", str(tmp_path), "--cache", str(quick / "cache")]
    four.main(args)
    _, r = load(tmp_path, "four_digits")
    assert not any(r["this_run"]["computed"].values())
    assert r == dict(load(quick, "four_digits")[1], this_run=r["this_run"])
    assert np.all([x["from_nothing"] for x in r["stage_seconds"].values()])


KILL_AT_SECOND_LOG = """
import os, runpy, signal, sys
from grundy.catalogue import campaign
describe, calls = campaign.describe, [0]
def killed(*args):
    calls[0] += 1
    if calls[0] == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return describe(*args)
campaign.describe = killed
sys.argv = [{script!r}, *sys.argv[1:]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_a_sitting_killed_midway_still_counts_to_its_last_task(tmp_path):
    """``kill -9`` in the middle of the campaign (a session's end) leaves the sitting on record
    with the tasks it finished, and the next run's page lists it."""
    import subprocess
    import sys

    from findings_check import ROOT

    cache = tmp_path / "cache"
    args = ["--quick", "--workers", "1", "--out", str(tmp_path / "a"), "--cache", str(cache)]
    code = KILL_AT_SECOND_LOG.format(script=str(ROOT / "docs/findings/four_digits.py"))
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)
    assert done.returncode == -9, done.stderr
    kept = json.loads((cache / "four_digits-2" / "campaign_sittings.json").read_text())
    assert len(kept) == 1 and kept[0]["tasks"] >= 1 and kept[0]["workers"] == 1
    four.main([*args[:4], str(tmp_path / "b"), "--cache", str(cache), "--campaign-hours", "0"])
    _, r = load(tmp_path / "b", "four_digits")
    assert r["campaign"]["sittings"] == kept
    four.main([*args[:4], str(tmp_path / "c"), "--cache", str(cache)])
    _, r = load(tmp_path / "c", "four_digits")
    assert len(r["campaign"]["sittings"]) == 2 and r["campaign"]["sittings"][0] == kept[0]
    assert r["campaign"]["sittings"][1]["tasks"] == r["this_run"]["computed"]["campaign"] > 0


def test_a_run_on_a_new_machine_takes_up_from_the_archive(quick, tmp_path):
    """The page's archive, with no cache: the records come back, and the run computes only the
    surveys (whose values it needs) and reaches the same results."""
    shutil.copytree(quick / "four_digits", tmp_path / "four_digits")
    args = ["--quick", "--workers", "1", "--out", str(tmp_path), "--cache", str(tmp_path / "new")]
    four.main(args)
    _, first = load(quick, "four_digits")
    _, r = load(tmp_path, "four_digits")
    assert r["archive"]["restored"] == r["archive"]["records"] == first["archive"]["saved"] > 0
    assert r["this_run"]["computed"]["survey_long"] > 0
    assert not any(v for k, v in r["this_run"]["computed"].items() if not k.startswith("survey"))
    for key in ("tallies", "settling", "campaign", "checks", "same_games", "literature"):
        assert r[key] == first[key], key
    mine, theirs = (archive.read(d / "four_digits" / "records-2.jsonl.gz") for d in (tmp_path, quick))
    assert mine.rows == theirs.rows
    assert all(mine.extra[k] == theirs.extra[k] for k in ("checks.json", "campaign_sittings.json"))


def test_the_checks_run_on_a_pool_and_an_interrupted_stage_keeps_what_finished(quick, tmp_path):
    """The page's checks of the survey's and the budget's periods, on two processes, are the
    serial run's; stopped after a few, those few are kept and the rest computed next time."""
    from grundy.catalogue.executors import ProcessPool, SerialExecutor

    cache = tmp_path / "four_digits-2"
    shutil.copytree(quick / "cache" / "four_digits-2", cache)
    serial = json.loads((cache / "checks.json").read_text())
    rows, _ = four.surveyed(2, four.LONG, cache, SerialExecutor())
    settle_rows, _ = four.settled_further([r["code"] for r in rows if r["status"] != "settled"], 0.05, cache, 2,
                                          SerialExecutor())  # fmt: skip
    assert len(serial) > 8
    (cache / "checks.json").unlink()
    with ProcessPool(2) as pool:
        out = four.checked(rows, settle_rows, cache, 2, pool)
    pooled = json.loads((cache / "checks.json").read_text())
    assert sorted(pooled) == sorted(serial) and len(out) == len(serial)
    assert all(_timeless(pooled[k]) == _timeless(serial[k]) for k in serial)

    class StopsAfterThree(SerialExecutor):
        calls = 0

        def submit(self, fn, /, *args, **kwargs):
            self.calls += 1
            if self.calls > 3:
                raise KeyboardInterrupt
            return super().submit(fn, *args, **kwargs)

    (cache / "checks.json").unlink()
    with pytest.raises(KeyboardInterrupt):
        four.checked(rows, settle_rows, cache, 2, StopsAfterThree())
    kept = json.loads((cache / "checks.json").read_text())
    assert len(kept) == 3 and all(_timeless(serial[k]) == _timeless(v) for k, v in kept.items())


def _timeless(check: dict) -> dict:
    return {k: v for k, v in check.items() if k != "cpu_seconds"}
