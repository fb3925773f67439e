"""grundy.catalogue.campaign: the rules that prove two codes the same game, and a campaign on a small
family with a tiny plan (resumption, a member that parts, members certified on their own)."""

from __future__ import annotations

import numpy as np
import pytest

from grundy.catalogue import campaign, published
from grundy.catalogue.database import Catalogue, values_sha256
from grundy.codes import Code, family, file_name, parse
from grundy.engine import compute, sparse
from grundy.engine.reference import grundy_values
from grundy.errors import CertificateError, UsageError
from grundy.sequence import Sequence
from naive import first_difference

SAMPLE = [c for i, c in enumerate(family(4)) if c.t < 4 or i % 5 == 0]


def test_same_game_keeps_every_value():
    """The rules clear only bits that change no value: the canonical code's values are the
    code's, computed separately (and the canonical code is its own canonical code), for every
    code of 1..3 digits and a fifth of those of 4."""
    proven = 0
    for code in SAMPLE:
        same = campaign.same_game(code)
        assert np.array_equal(compute(code, 1200, engine="dense"),
                              compute(same.canonical, 1200, engine="dense")), code
        assert campaign.same_game(same.canonical).canonical == same.canonical
        assert same.proven == bool(same.cleared) == (same.canonical != code)
        proven += same.proven
    assert proven > len(SAMPLE) / 3


def test_same_game_agrees_with_the_published_lookup():
    """Outside truth: codes of 1..3 digits that the rules make one game have one equivalent game
    in the published lookup table, and the rules do find some of its equivalences."""
    lookup = published.lookup()
    games = {}
    for code, equivalent in lookup.items():
        games.setdefault(campaign.same_game(code).canonical, set()).add(equivalent)
    assert all(len(e) == 1 for e in games.values())
    assert len(games) < len(lookup)


def test_a_whole_heap_bit_kept_changes_a_value():
    """The take-the-whole-heap rule is exact: where it keeps bit 1 of a digit, clearing it
    changes the value of that heap (by the definition, plain Python)."""
    kept = 0
    for code in family(3):
        canonical = campaign.same_game(code).canonical
        for k in canonical.take_all:
            d = list(canonical.digits)
            d[k] &= ~1
            while len(d) > 1 and d[-1] == 0:
                d.pop()
            if len(d) > 1:
                kept += 1
                assert grundy_values(canonical, k + 1) != grundy_values(Code(tuple(d)), k + 1)
    assert kept > 100


def test_plan_is_checked():
    with pytest.raises(UsageError):
        campaign.Plan(floor=3000)
    with pytest.raises(UsageError):
        campaign.Plan(first=1 << 23)
    assert campaign.Plan().marks()[:2] == (10_000, 1 << 14)
    assert campaign.next_power(1024) == 2048 and campaign.next_power(1000) == 1024


PLAN = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 14, seed=60, quiet_ratio=2)
PAIR = ("·36", "·161")
"""Same values to 60 heaps, not the same game (found by searching the 1..3-digit games)."""
CLASS = ("·71", "·311", "·712", "·713", "·714")
"""The same values to 60 heaps; ·713 follows ·712 by the rules."""


@pytest.fixture()
def cat(tmp_path):
    with Catalogue(tmp_path / "c.sqlite") as c:
        yield c


def test_a_member_that_parts_gets_its_own_run(cat, tmp_path):
    a, b = PAIR
    assert campaign.same_game(b).canonical == parse(b)
    assert compute(a, 60).tolist() == compute(b, 60).tolist()
    res = campaign.run([b, a], cat, tmp_path / "store", plan=PLAN)
    rows = {r["code"]: r for r in res.rows}
    assert rows[a]["rep"] == a and rows[b]["rep"] == b  # ·161 parted: its own representative
    (p,) = res.partings
    assert p["code"] == b and p["from"] == a and p["differs_by"] == 1024
    assert p["first"] == first_difference(a, b, 1024)
    assert rows[b]["heaps"] >= PLAN.floor or rows[b]["settled"]
    assert res.totals["classes"] == 2


def test_a_certified_representative_s_members_are_certified_from_their_own_values(cat, tmp_path):
    res = campaign.run(CLASS, cat, tmp_path / "store", plan=PLAN)
    rows = {r["code"]: r for r in res.rows}
    rep = rows["·71"]
    assert rep["rep"] == "·71" and rep["settled"] and rep["checked"]["holds"] and rep["checked"]["agrees"]
    steps = {r["code"]: r for r in cat.records(campaign.KIND) if "same_game_as" not in r}
    for code in ("·311", "·712", "·714"):
        row, own = rows[code], steps[code]
        assert row["rep"] == "·71" and row["settled"] and own["cpu_seconds"] >= 0
        assert (own["start"], own["period"]) == (rep["start"], rep["period"])
        assert own["window"] == 2 * (own["start"] + own["period"]) + parse(code).t
        values = np.array(grundy_values(parse(code), own["window"]))
        assert own["window_sha256"] == values_sha256(values)
        assert row["checked"]["holds"] and row["checked"]["agrees"]
    follower = rows["·713"]
    assert follower["game"] == "·712" and follower["proof"] and "·713" not in steps
    assert cat.settlements()["·713"]["same_game_as"] == "·712"
    assert res.totals["followers"] == 1 and res.totals["done"] == len(CLASS)


def test_a_rerun_spends_nothing_and_an_interrupted_run_resumes(cat, tmp_path):
    codes = ["·6", "·14", "·16", "·45", "·56", "·64", "·65"]
    store = tmp_path / "store"
    seen = []

    def stop_after_three(kind, output):
        seen.append(campaign.describe(kind, output))
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        campaign.run(codes, cat, store, plan=PLAN, on_progress=stop_after_three)
    rest = campaign.run(codes, cat, store, plan=PLAN)
    again = campaign.run(codes, cat, store, plan=PLAN)
    assert again.computed == 0 and again.totals == rest.totals
    with Catalogue(tmp_path / "fresh.sqlite") as fresh:
        whole = campaign.run(codes, fresh, tmp_path / "other", plan=PLAN)
    assert 3 + rest.computed == whole.computed
    assert [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in rest.rows] == \
        [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in whole.rows]
    assert not list(store.iterdir())  # nothing left to do: no values kept
    assert campaign.state(codes, cat, store, plan=PLAN).totals == rest.totals


def test_the_cost_to_the_floor_states_the_crowded_games_apart(cat, tmp_path):
    """Games whose rare heaps are at least a tenth of their heaps (``·7246``: no mask pays) are
    counted apart in the cost to the floor, by the statistics of each game's last step."""
    plan = campaign.Plan(first=1 << 10, floor=1 << 13, depth=1 << 13, seed=60)
    codes = ["·7246", "·16", "·14", "·346"]
    games = {str(campaign.same_game(c).canonical) for c in codes}
    stepped = set()

    def stop_when_each_game_has_a_step(kind, out):
        stepped.add(out["code"])
        if stepped >= games:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        campaign.run(codes, cat, tmp_path / "store", plan=plan, on_progress=stop_when_each_game_has_a_step)
    res = campaign.state(codes, cat, tmp_path / "store", plan=plan)
    below = [g for g in res.games if not g["settled"] and g["heaps"] < plan.floor]
    crowded = [g["code"] for g in below
               if (g["heaps"] if g["mask"] is None else g["rare_heaps"]) >= campaign.CROWDED * g["heaps"]]
    t = res.totals
    assert "·7246" in crowded and "·16" not in crowded and t["to_floor_crowded_games"] == len(crowded)
    assert 0 < t["to_floor_crowded_cost"] <= t["to_floor_cost"]
    assert f"in {len(crowded)} crowded games" in res._repr_html_()


def test_seed_values_of_followers_are_checked_against_their_game(cat, tmp_path):
    from grundy.catalogue.survey import run as survey

    survey(["·6", "·62"], cat, heaps=PLAN.seed)
    res = campaign.run(["·62"], cat, tmp_path / "store", plan=PLAN)
    assert res.totals["rule_checked"] == 1 and res.rows[0]["game"] == "·6"
    assert cat.values("·62", PLAN.seed).tolist() == compute("·6", PLAN.seed).tolist()


def test_the_site_shows_each_code_s_deepest_state(cat, tmp_path):
    """A campaign's settlements reach ``grundy report``: a code the survey left open shows the
    certificate the campaign found, and a follower says whose game it is."""
    from grundy.catalogue.survey import run as survey
    from grundy.present.site import write_report

    survey(CLASS, cat, heaps=8)
    campaign.run(CLASS, cat, tmp_path / "store", plan=PLAN)
    write_report(cat, tmp_path / "site")
    page = (tmp_path / "site" / "codes" / "0.713.html").read_text()
    rep = cat.settlements()["·71"]
    assert "deepest state" in page and "same game as ·712" in page
    assert f"Period {rep['period']:,} from heap {rep['start']:,}, certified by grundy settle" in page
    assert "push further" not in page


def test_the_site_compares_the_deepest_state_with_the_literature(cat, tmp_path):
    """A code the survey leaves open and ``settle`` certifies deeper is compared with the published
    tables by its certificate, on its page and in the index, not as the open survey result."""
    from grundy.catalogue.survey import run as survey
    from grundy.present.literature import literature
    from grundy.present.site import write_report

    survey(["·16", "·6"], cat, heaps=1000)
    assert all(r["status"] != "settled" for r in cat.results(heaps=1000))
    campaign.settle_many(["·16", "·6"], cat, max_heaps=700_000)
    st = cat.settlements()["·16"]
    assert st["settled"] and not cat.settlements()["·6"]["settled"]
    published_16 = literature({"code": "·16", "status": "settled", "start": st["start"],
                               "period": st["period"], "heaps": st["heaps"]}, [])
    write_report(cat, tmp_path / "site")
    page = (tmp_path / "site" / "codes" / "0.16.html").read_text()
    assert published_16.agrees and published_16.note in page
    assert "not settled within" not in page
    six = (tmp_path / "site" / "codes" / "0.6.html").read_text()
    assert "open here and in the literature" in six
    index = (tmp_path / "site" / "index.html").read_text()
    six_heaps = cat.settlements()["·6"]["heaps"]
    assert f"<td class=\"text\">period {st['period']:,} from {st['start']:,}</td><td>{st['heaps']:,}</td>" in index
    assert f"<td class=\"text\">open</td><td>{six_heaps:,}</td>" in index
    assert "2 codes were computed further" in index and "(1 certified there)" in index


def test_a_process_pool_and_dask_reach_the_serial_outcome(tmp_path):
    """Any Executor: the same rows from a process pool and a Dask cluster as from one process
    (CPU seconds apart), with the tasks of several codes in flight at once."""
    from grundy.catalogue.executors import default_executor

    distributed = pytest.importorskip("distributed")
    codes = [*CLASS, *PAIR, "·16", "·64", "·65"]

    def rows(res):
        return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in res.rows]

    with Catalogue(tmp_path / "serial.sqlite") as cat:
        serial = campaign.run(codes, cat, tmp_path / "s", plan=PLAN)
    with Catalogue(tmp_path / "pool.sqlite") as cat, default_executor(2) as pool:
        pooled = campaign.run(codes, cat, tmp_path / "p", plan=PLAN, executor=pool)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
        Catalogue(tmp_path / "dask.sqlite") as cat,
    ):
        dask = campaign.run(codes, cat, tmp_path / "d", plan=PLAN, executor=client.get_executor(), slots=2)
    assert rows(pooled) == rows(serial) == rows(dask)
    assert pooled.computed == serial.computed == dask.computed


def test_a_checkpoint_cut_by_a_kill_is_computed_again(cat, tmp_path):
    """Values kept for a game that fail their checks (a chunk damaged on disk) are not trusted: the
    step starts that game again instead of failing, and leaves only the new store behind."""
    store = tmp_path / "store"
    store.mkdir()
    path = store / file_name(parse("·16"))
    campaign.drive("·16", 1024, path)
    chunk = next(f for f in path.iterdir() if f.name not in ("meta.json", "lock"))
    chunk.write_bytes(chunk.read_bytes()[:-8] + b"\0" * 8)
    out = campaign.step("·16", 2048, str(store), 0, PLAN.marks())
    assert out["reused"] == 0 and out["heaps"] == 2048
    assert out["digests"]["1024"] == values_sha256(compute("·16", 1024))
    assert [f.name for f in store.iterdir()] == [path.name]


def test_one_deep_run_at_a_time_leaves_the_other_workers_to_the_floor(cat, tmp_path):
    """With ``chains`` deep runs allowed, no more representatives leave the floor at once, a
    representative in flight there counting as one."""
    codes = ["·56", "·104", "·106", "·167"]
    floor_only = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 12, seed=60, quiet_ratio=2)
    campaign.run(codes, cat, tmp_path / "s", plan=floor_only)
    deeper = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 16, seed=60, quiet_ratio=2)
    driver = campaign._Driver(codes, cat, tmp_path / "s", deeper, "campaign")
    quiet = [g for g in driver.games.values() if not g.settled and deeper.quiet(g.last)]

    def starts(busy, chains):
        return [t[2] for t in driver.tasks(busy, chains) if t[1] == "step"]

    assert len(quiet) >= 2
    first = starts(set(), 1)
    assert len(first) == 1 and len(starts(set(), 3)) == min(3, len(quiet))
    assert starts(set(first), 1) == []


def test_a_campaign_takes_an_earlier_version_s_values_into_its_store_and_keeps_no_copy(tmp_path):
    Sequence(parse("·156"), compute("·156", 2000)).save(tmp_path / "0.156")
    st = campaign.drive("·156", 1 << 14, tmp_path / "0.156")
    assert st.settled and st.reused == 2000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0.156"]


def test_a_game_whose_values_are_another_s_moved_follows_it(cat, tmp_path):
    """``·4 -> ·07 -> ·137`` and ``·45 -> ·177`` are chains of :func:`shifted`: only the last game of
    each is computed, and the others' certificates (``·45``: period 20 from heap 498, the published
    one) are exactly what settling them on their own finds; ``·4002`` stays open one heap past
    ``·0702``'s depth, with ``·0702``'s values moved by one heap."""
    from grundy.readings.settle import settle

    codes = ["·4", "·07", "·137", "·45", "·177", "·4002", "·0702"]
    res = campaign.run(codes, cat, tmp_path / "store", plan=PLAN)
    rows = {r["code"]: r for r in res.rows}
    computed = {r["code"] for r in cat.records(campaign.KIND) if "same_game_as" not in r}
    assert computed == {"·137", "·177", "·0702"}
    for code, lead, by in (("·07", "·137", -1), ("·4", "·137", -2), ("·45", "·177", -1)):
        row, own = rows[code], settle(code, max_heaps=PLAN.floor)
        assert (row["shift"]["of"], row["shift"]["by"]) == (lead, by) and row["shift"]["proof"] and not row["proof"]
        assert row["settled"] and (row["start"], row["period"]) == (own.reading.start, own.reading.period)
        assert row["window"] == own.reading.window
        assert row["checked"]["holds"] and row["checked"]["agrees"] and row["checked"]["depth"] == 2 * row["window"]
        assert cat.settlements()[code]["same_game_as"] == lead
    assert (rows["·45"]["start"], rows["·45"]["period"]) == (498, 20)
    follower, lead = rows["·4002"], rows["·0702"]
    assert not follower["settled"] and follower["heaps"] == lead["heaps"] + 1 >= PLAN.floor
    assert follower["frontier"] == "follows ·0702: heap n is worth ·0702's heap n - 1" and follower["next"] is None
    assert compute("·4002", follower["heaps"])[1:].tolist() == compute("·0702", lead["heaps"]).tolist()
    assert res.totals["shifted"] == res.totals["shift_checked"] == 4
    assert campaign.run(codes, cat, tmp_path / "store", plan=PLAN).computed == 0


def test_a_game_behind_one_that_settles_from_heap_1_is_computed_itself(cat, tmp_path):
    """``·3`` is periodic from heap 0, so ``·2`` (``·3`` one heap later) may be periodic from heap 1
    as well as from 2; the campaign cannot tell from ``·3``'s record, so ``·2`` gets its own step."""
    res = campaign.run(["·2", "·3"], cat, tmp_path / "store", plan=PLAN)
    rows = {r["code"]: r for r in res.rows}
    assert rows["·3"]["start"] == 1 and rows["·2"]["start"] == 1 and rows["·2"]["shift"] is None
    assert {r["code"] for r in cat.records(campaign.KIND) if "same_game_as" not in r} == {"·2", "·3"}
    with pytest.raises(CertificateError):
        campaign.shifted_record(next(cat.records(campaign.KIND, codes={"·3"})), "·2", -1)


def test_a_settled_game_leads_the_games_it_is_ahead_of(cat, tmp_path):
    """Where ``·4`` settled first, it leads ``·07`` and ``·137`` (one and two heaps behind it): their
    starts are one and two lower, found again by settling them on their own, and each check
    compares its own values, moved, with ``·4``'s."""
    from grundy.readings.settle import settle

    campaign.run(["·4"], cat, tmp_path / "store", plan=PLAN)
    res = campaign.run(["·4", "·07", "·137"], cat, tmp_path / "store", plan=PLAN)
    rows = {r["code"]: r for r in res.rows}
    assert {r["code"] for r in cat.records(campaign.KIND) if "same_game_as" not in r} == {"·4"}
    for code, by in (("·07", 1), ("·137", 2)):
        own = settle(code, max_heaps=PLAN.floor).reading
        assert (rows[code]["shift"]["of"], rows[code]["shift"]["by"]) == ("·4", by)
        assert (rows[code]["start"], rows[code]["period"], rows[code]["window"]) == (own.start, own.period, own.window)
        assert rows[code]["checked"]["agrees"] and rows[code]["checked"]["holds"]
    assert res.totals["done"] == 3


def test_a_check_of_a_shifted_certificate_compares_the_values_moved(tmp_path):
    """The check of ``·07``'s certificate, read on ``·4``'s values (``·07`` is ``·4`` moved by one
    heap), agrees against ``·4``'s digest only when the values are moved by the right amount."""
    four = compute("·4", 400)
    ahead = {"code": "·07", "start": 53, "period": 34, "window": 2 * (53 + 34) + 2, "mask": None,
             "position": None, "shift": 1, "lead_window": 2 * (54 + 34) + 1}
    digest = campaign.digest(four, ahead["lead_window"])
    assert campaign.check(ahead, None, digest)["agrees"]
    assert not campaign.check(dict(ahead, shift=-1), None, digest)["agrees"]
    assert not campaign.check(dict(ahead, shift=2), None, digest)["agrees"]


def test_a_game_past_the_floor_leads_the_game_it_is_ahead_of(cat, tmp_path):
    """``·6`` is ``·37`` moved by one heap; run alone, ``·6`` goes past the floor, so it leads
    ``·37`` (one heap behind it, still past the floor) rather than ``·37`` starting from nothing."""
    plan = campaign.Plan(first=1 << 10, floor=1 << 12, depth=1 << 13, seed=60, quiet_ratio=1)
    campaign.run(["·6"], cat, tmp_path / "store", plan=plan)
    steps = [r for r in cat.records(campaign.KIND) if "same_game_as" not in r]
    assert {r["code"] for r in steps} == {"·6"} and max(r["heaps"] for r in steps) > plan.floor
    res = campaign.run(["·6", "·37"], cat, tmp_path / "store", plan=plan)
    rows = {r["code"]: r for r in res.rows}
    assert res.computed == 0 and (rows["·37"]["shift"]["of"], rows["·37"]["shift"]["by"]) == ("·6", 1)
    assert rows["·37"]["heaps"] == rows["·6"]["heaps"] - 1 >= plan.floor
    assert compute("·37", rows["·37"]["heaps"]).tolist() == compute("·6", rows["·6"]["heaps"])[1:].tolist()


def test_a_game_once_begun_goes_on_to_the_floor_before_another_begins(cat, tmp_path):
    """Steps below the floor are ordered by their game's cost to the floor from the heaps kept,
    so that a crowded game's values, once computed, are used up to the floor (steps taken by
    turns would leave every game short of it, its values to compute again on another machine).
    Each game's first step gives it the statistics its cost is estimated from; from then on the
    steps go game by game (by turns they went ·3351, ·7722, ·7246, ·3351, ...)."""
    plan = campaign.Plan(first=1 << 10, floor=1 << 13, depth=1 << 13, seed=60)
    codes = ["·7246", "·3351", "·7722"]
    order = []
    campaign.run(codes, cat, tmp_path / "store", plan=plan,
                 on_progress=lambda kind, out: order.append(out["code"]) if kind == "step" else None)
    assert sorted(order[:3]) == sorted(codes) and len(order) == 12
    later = order[3:]
    runs = [c for i, c in enumerate(later) if i == 0 or later[i - 1] != c]
    assert sorted(runs) == sorted(codes)


def test_a_row_states_the_class_that_makes_the_fewest_heaps_rare(cat, tmp_path):
    """At 8,192 heaps ``·015``'s engine still uses mask 62, chosen early (251 rare heaps); mask
    126 makes 227 rare.  The row states the fewer, the step keeps what its engine used."""
    plan = campaign.Plan(first=1 << 11, floor=1 << 13, depth=1 << 13, seed=60)
    (row,) = campaign.run(["·015"], cat, tmp_path / "store", plan=plan).rows
    (last,) = [r for r in cat.records(campaign.KIND) if r["heaps"] == row["heaps"]]
    best = last["best"]
    assert last["rare_heaps"] > best["rare_heaps"] and last["mask"] != best["mask"]
    assert {k: row[k] for k in campaign.CLASS_FIELDS} == best
    v = compute("·015", row["heaps"])
    assert sparse.rare_heaps(parse("·015"), v, sparse.even_class(best["mask"], best["position"])).size == \
        best["rare_heaps"]
