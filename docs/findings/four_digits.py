"""Issues 15 and 25: the reading study one digit further, every code of 1..4 digits, settled where it
can be, and the 4-digit table at depth.

    python docs/findings/four_digits.py --out docs/findings/ --campaign-hours 8   # 1..4 digits
    python docs/findings/four_digits.py --out docs/findings/ --campaign-hours 0   # the page only
    python docs/findings/four_digits.py --out /tmp/f --quick                      # 1..2 digits

Surveys the family at 2,400 and 10,000 heaps (and the family one digit
shorter at 2,400, the earlier study, by the same code path) into catalogues
in the cache; settles every code left unsettled at 10,000 heaps with a
CPU-time budget per code, resuming from the survey's values and keeping each
code's values, so that a larger budget later spends only the difference;
compares with the published tables; groups the codes whose sequences are
identical; and checks every period it reports with another engine to twice
its window.  Then the codes still open go to a campaign at depth
(:func:`grundy.catalogue.campaign.run`: every open code to 2^22 heaps, representatives whose rare heaps
have stopped arriving to 2^29), for ``--campaign-hours`` of wall time or until stopped (Ctrl-C,
SIGTERM); it resumes where it stopped when the command is run again.  Writes ``four_digits.md``,
``four_digits.json``, the table of every 4-digit code ``four_digits/table.md`` and the figures
under ``four_digits/``.  Everything computed is kept under
``$GRUNDY_CACHE/findings/four_digits-4/`` (``-2`` for ``--quick``), with the
wall time of each stage as it was computed, so a rerun redoes only the page
and still reports the time of the run that computed it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import signal
import statistics
import sys
import time
import uuid
from collections import Counter, defaultdict
from concurrent.futures import as_completed
from functools import partial
from itertools import combinations
from pathlib import Path

import numpy as np
from matplotlib.ticker import FuncFormatter, NullFormatter

from grundy.catalogue import archive, campaign
from grundy.catalogue.campaign import CROWDED, DENSE_LIMIT, MAX_HEAPS, OTHER_WORK, PROBE, check
from grundy.catalogue.database import Catalogue
from grundy.catalogue.executors import ProcessPool, default_executor
from grundy.catalogue.survey import run as run_survey
from grundy.codes import family, parse
from grundy.engine import choose
from grundy.engine.checkpoint import cache_dir, code_path, load_existing
from grundy.files import write_json
from grundy.present.figures import save, subplots
from grundy.readings.tallies import REPETITIONS, tallies
from grundy.sequence import Sequence

HERE = Path(__file__).resolve().parent
SHORT, LONG = 2400, 10_000
RANKED = 25


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- published tables


def _source_name(code) -> str:
    """A code as the published tables write it (``·137`` is ``.137``, ``4·`` is ``4``)."""
    return str(code).replace("·", ".").rstrip(".")


def published() -> tuple[dict, dict]:
    """The lookup (code to its equivalent listed game) and the listed games, keyed by the names
    the tables use: the one place this page reads them (:mod:`grundy.catalogue.published`; sources in
    ``src/grundy/data/README.md``)."""
    from grundy.catalogue import published as tables

    lookup = {_source_name(c): _source_name(e) for c, e in tables.lookup().items()}
    games = {g.name: {"status": g.status, "period": g.period, "source": g.source} for g in tables.games()}
    return lookup, games


def _source_of(entry: dict) -> str:
    """A published entry's source file and commit, as a reader can find them (``X.md at commit
    30baeb7``)."""
    name, _, commit = entry["source"].partition("@")
    return f"{name} at commit {commit[:7]}" if commit else name


def digits_of(name: str) -> int:
    """Digits after the point of a code or published game name (``.354``: 3, ``4``: 0)."""
    return len(name.replace("·", ".").partition(".")[2])


def against(ours: dict, name: str, lookup: dict, games: dict) -> str:
    """Our outcome for a code against the published entry for ``name``'s equivalent game:
    ``same period``, ``open here and there``, ``period differs``, ``settled here, unsolved
    there``, ``open here, solved there`` (within the budget), or ``not listed``.  Starts are not compared: an equivalent
    game may shift heaps (``unsettled.md`` checks them for every 1..3-digit code)."""
    key = name.replace("·", ".")
    entry = games.get(lookup.get(key, key))
    if entry is None:
        return "not listed"
    solved = entry["status"] in ("solved", "trivial")
    if ours["settled"] and solved:
        return "same period" if int(entry["period"]) == ours["period"] else "period differs"
    if ours["settled"]:
        return "settled here, unsolved there"
    return "open here, solved there" if solved else "open here and there"


# ---------------------------------------------------------------- surveys


def survey_path(cache: Path, digits: int, heaps: int = LONG) -> Path:
    """The catalogue of the survey of 1..``digits``-digit codes to ``heaps``; the one to
    ``LONG`` heaps also holds the settling, the campaign and its checks."""
    return cache / f"survey-{digits}-{heaps}.sqlite"


def surveyed(digits: int, heaps: int, cache: Path, executor) -> tuple[list[dict], int]:
    """Survey the 1..``digits``-digit codes to ``heaps`` (a resumable catalogue): each code's
    result (false readings kept for settled codes only, the ones scored) and how many codes
    this call computed."""
    with Catalogue(survey_path(cache, digits, heaps)) as cat:
        done = run_survey(family(digits), cat, heaps=heaps, executor=executor, batch=16)
        rows = [
            dict(r) if r["status"] == "settled" else {k: v for k, v in r.items() if k != "false_readings"}
            for r in cat.results(heaps=heaps, options={})
        ]
    return rows, done.computed


def summary(rows: list[dict]) -> dict:
    """The survey's tallies (:func:`grundy.readings.tallies.tallies`) with the shares the page compares."""
    t = tallies(rows)
    settled = t["settled"] or 1
    false = t["false_readings"] or 1
    out = {k: v for k, v in t.items() if k != "heap0"}
    out["heap0_reached"] = len(t["heap0"])
    out["settled_share"] = t["settled"] / t["codes"]
    out["growing_share"] = t["growing"] / t["codes"]
    out["bounded_share"] = t["bounded_unsettled"] / t["codes"]
    out["right_first_share"] = t["right_first"] / settled
    out["false_per_settled"] = t["false_readings"] / settled
    out["believed_share"] = {r: t["believed"][r] / false for r in REPETITIONS}
    out["largest_window"] = max((r["window"] for r in rows if r["status"] == "settled"), default=0)
    reaches = [fr["reach"] for r in rows if r["status"] == "settled" for fr in r["false_readings"]]
    out["reach_histogram"] = np.histogram(reaches, bins=10, range=(0, 1))[0].tolist()
    return out


# ---------------------------------------------------------------- settling


def settled_further(
    names: list[str], budget: float, cache: Path, digits: int, executor
) -> tuple[list[dict], int]:
    """Every code in ``names`` (unsettled at 10,000 heaps) settled within ``budget`` CPU seconds
    (:func:`grundy.catalogue.campaign.settle_many`), resuming from the survey's values kept in the cache,
    each stored in the 10,000-heap survey's catalogue as it finishes (for ``grundy report``);
    the records and how many this call computed."""
    store = cache / "settle"
    store.mkdir(parents=True, exist_ok=True)
    params = {"budget": budget, "seed": LONG}
    with Catalogue(survey_path(cache, digits)) as cat:
        done = campaign.settlement_entry(budget, MAX_HEAPS, params).stored(cat)
        for name in names:
            code = parse(name)
            path = code_path(store, code)
            if name not in done and load_existing(path, code) is None:
                Sequence(code, cat.values(name, LONG), choose(code)).save(path)
        step = max(1, len(names) // 20)

        def progress(i, n):
            if i % step == 0 or i == n:
                log(f"settled {i:,} of {n:,}")

        ran = campaign.settle_many(names, cat, seconds=budget, max_heaps=MAX_HEAPS, store=store,
                                   params=params, executor=executor, on_progress=progress)  # fmt: skip
        out = {r["code"]: r for r in cat.records("settlement", params)}
    return [out[n] for n in names], ran.computed


# ---------------------------------------------------------------- checking certificates


def checked(survey_rows: list[dict], settle_rows: list[dict], cache: Path, digits: int, executor) -> list[dict]:
    """:func:`grundy.catalogue.campaign.check` for the periods of the survey at 10,000 heaps and of the
    CPU budget, each against the values it was read on (kept in the cache), on ``executor``; the
    campaign checks its own.  Each check is kept in ``checks.json`` in the cache, keyed by code,
    start and period, written every :data:`CHECKS_EVERY` seconds as they finish and when the
    stage ends, stopped or not."""
    path = cache / "checks.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    rows = {f"{r['code']}:{r['start']}:{r['period']}": r
            for r in [*(x for x in survey_rows if x["status"] == "settled"),
                      *(x for x in settle_rows if x["settled"])]}  # fmt: skip
    pending = {}
    written = time.monotonic()
    try:
        with Catalogue(survey_path(cache, digits)) as cat:
            for key, r in rows.items():
                if key not in kept:
                    if "status" in r:
                        values = cat.values(r["code"], LONG)
                    else:
                        code = parse(r["code"])
                        seq = load_existing(code_path(cache / "settle", code), code)
                        values = None if seq is None else seq.values
                    pending[executor.submit(check, r, values)] = key
        for fut in as_completed(pending):
            kept[pending[fut]] = fut.result()
            if time.monotonic() - written > CHECKS_EVERY:
                write_json(path, kept)
                written = time.monotonic()
    finally:
        kept |= {key: fut.result() for fut, key in pending.items()
                 if fut.done() and not fut.cancelled() and fut.exception() is None}  # fmt: skip
        if pending:
            write_json(path, kept)
    return [kept[key] for key in rows]


CHECKS_EVERY = 10.0
"""Seconds between two writes of ``checks.json`` while the checks run."""


# ---------------------------------------------------------------- the campaign at depth


CAMPAIGN = "four_digits"
"""The campaign's name in the catalogue's records."""


def plan_for(digits: int) -> campaign.Plan:
    """Issue 25's depths for the page (every open code to 2^22 heaps, representatives whose rare
    heaps have stopped arriving to 2^29), far smaller ones for ``--quick``."""
    if digits >= 4:
        return campaign.Plan(seed=LONG)
    return campaign.Plan(first=1 << 12, floor=1 << 15, depth=1 << 20, quiet_ratio=10, seed=LONG)


def executor_for(workers: int, scheduler: str | None):
    """A process pool of ``workers`` (serial for one), or a Dask client's executor on the cluster
    at ``scheduler`` (its workers must see the cache's folder); the tasks to keep in flight; the
    client to close (None for a pool)."""
    if scheduler is None:
        return default_executor(workers), workers, None
    from distributed import Client

    client = Client(scheduler, timeout="10s")
    return client.get_executor(), max(1, sum(client.nthreads().values())), client


def driven(names: list[str], cache: Path, digits: int, executor, slots: int, seconds: float | None,
           sitting: Sitting):
    """The campaign (:func:`grundy.catalogue.campaign.run`) over ``names``, the codes still open after the
    CPU budget, stored in the 10,000-heap survey's catalogue, so that ``grundy report`` over it
    shows every code's deepest state; the values of the games in progress live in
    ``cache/campaign/``.  ``seconds`` of wall time at most (0: compute nothing); Ctrl-C or
    SIGTERM stops it too, and the page then says how far it got; ``sitting`` is recorded as each
    task finishes."""
    plan = plan_for(digits)
    store = cache / "campaign"
    count = [0]

    def progress(kind: str, out: dict) -> None:
        count[0] += 1
        sitting.record(count[0])
        if kind != "step" or out["settled"] or out["heaps"] > plan.floor or count[0] % 100 == 0:
            log(f"campaign task {count[0]:,}: {campaign.describe(kind, out)}")

    with Catalogue(survey_path(cache, digits)) as cat:
        if seconds == 0:
            return campaign.state(names, cat, store, plan=plan, name=CAMPAIGN)
        try:
            return campaign.run(names, cat, store, plan=plan, executor=executor, slots=slots,
                                seconds=seconds, name=CAMPAIGN, on_progress=progress)  # fmt: skip
        except KeyboardInterrupt:
            if isinstance(executor, ProcessPool):
                executor.terminate()
            log("the campaign was stopped: the page reports what it stored")
            stopped = campaign.state(names, cat, store, plan=plan, name=CAMPAIGN)
            return dataclasses.replace(stopped, computed=count[0])


TABLE_COLUMNS = ["status", "start", "period", "window", "heaps", "mask", "position", "rare_heaps",
                 "last_rare", "max", "game", "rep"]
"""A row of the table of every code: how it settled (``survey``, ``budget``, ``campaign``) or
``open``; the certificate or the depth reached with its sparse statistics; the code whose values
it has by the rules (``game``, None for itself) and its class representative (None for itself)."""


def moved_from(row: dict) -> str | None:
    """The game whose values a campaign row's are, moved (``·1776 moved by 1``), or None."""
    if not row["shift"]:
        return None
    by = abs(row["shift"]["by"])
    return f"{row['shift']['of']} moved by {by}"


def table(long_rows: list[dict], settle_rows: list[dict], camp: campaign.Campaign) -> dict:
    """Every code's final state, as rows of :data:`TABLE_COLUMNS`."""
    out = {}
    for r in long_rows:
        if r["status"] == "settled":
            out[r["code"]] = ["survey", r["start"], r["period"], r["window"], r["heaps"], r["mask"],
                              r["position"], r["rare_heaps"], r["last_rare"], r["max_value"], None, None]
    for r in settle_rows:
        if r["settled"]:
            out[r["code"]] = ["budget", r["start"], r["period"], r["window"], r["heaps"], r["mask"],
                              r["position"], r["rare_heaps"], r["last_rare"], r["max"], None, None]
    for r in camp.rows:
        out[r["code"]] = ["campaign" if r["settled"] else "open", r["start"], r["period"], r["window"],
                          r["heaps"], r["mask"], r["position"], r["rare_heaps"], r["last_rare"], r["max"],
                          moved_from(r) or (None if r["game"] == r["code"] else r["game"]),
                          None if r["rep"] == r["game"] else r["rep"]]  # fmt: skip
    return {c: out[c] for c in sorted(out, key=lambda c: (digits_of(c), c))}


def at_depth(camp: campaign.Campaign, long_rows: list[dict], settle_rows: list[dict], digits: int,
             lookup: dict) -> dict:
    """Every number the page states about the campaign."""
    games = camp.games
    reps = [r for r in games if r["rep"] == r["code"]]
    settled_games = [r for r in games if r["settled"]]
    open_reps = [r for r in reps if not r["settled"]]
    followers = [r for r in camp.rows if r["game"] != r["code"]]
    moved = [r for r in games if r["shift"]]
    members, same = {}, {}
    for r in camp.rows:
        members.setdefault(r["rep"], []).append(r["code"])
        same.setdefault(r["game"], []).append(r["code"])
    for r in games:
        members.setdefault(r["rep"], [r["code"]])
        same.setdefault(r["code"], [r["code"]])
    checks = [r["checked"] for r in settled_games if r["checked"] is not None]
    tab = table(long_rows, settle_rows, camp)
    longest = [c for c in tab if digits_of(c) == digits]

    def count(codes, statuses):
        return sum(tab[c][0] in statuses for c in codes)

    follow = [r for r in followers if digits_of(r["code"]) < 4 and r["code"].replace("·", ".") in lookup]
    cpu = sorted(r["cpu_seconds"] for r in games if r["steps"])
    deep = sorted(settled_games, key=lambda r: (-r["window"], r["code"]))[:RANKED]
    frontier = sorted((r for r in open_reps if r["steps"]), key=lambda r: (-r["heaps"], r["code"]))[:RANKED]
    quiet = [r for r in open_reps if r["quiet"] and r["heaps"] >= camp.plan.floor]
    fields = ("code", "start", "period", "window", "heaps", "cpu_seconds")
    return {
        "name": camp.name,
        "plan": camp.plan.to_dict(),
        "log2": {k: camp.plan.to_dict()[k].bit_length() - 1 for k in ("first", "floor", "depth")},
        "totals": camp.totals,
        "counts": {
            "codes": len(tab), "longest": len(longest),
            "survey": count(tab, {"survey"}), "budget": count(tab, {"survey", "budget"}),
            "now": count(tab, {"survey", "budget", "campaign"}),
            "longest_survey": count(longest, {"survey"}), "longest_budget": count(longest, {"survey", "budget"}),
            "longest_now": count(longest, {"survey", "budget", "campaign"}),
        },
        "rules": {
            "followers": len(followers),
            "take_whole": sum(any("taken whole" in p or "taking it whole" in p for p in r["proof"])
                              for r in followers),
            "leave_one": sum(any("leaving one heap" in p for p in r["proof"]) for r in followers),
            "checked_at_survey": camp.totals["rule_checked"],
            "lookup_codes": len(follow),
            "lookup_agrees": sum(lookup[r["code"].replace("·", ".")] == lookup.get(r["game"].replace("·", "."))
                                 for r in follow),
            "examples": [{"code": r["code"], "game": r["game"], "proof": r["proof"]} for r in followers[:6]],
            "shifted": len(moved),
            "shift_checked": camp.totals["shift_checked"],
            "shifted_settled": [{k: r[k] for k in ("code", "start", "period", "window")} | {"from": r["shift"]["of"]}
                                for r in moved if r["settled"]],
            "shifted_examples": [{"code": r["code"], "from": r["shift"]["of"], "by": r["shift"]["by"]}
                                 for r in moved[:6]],
        },
        "classes": {
            "games": len(games), "classes": camp.totals["classes"], "reps": len(reps),
            "open_reps": len(open_reps), "quiet_at_floor": len(quiet),
            "members": sum(r["rep"] != r["code"] for r in games),
        },
        "partings": camp.partings,
        "checks": {
            "settled_games": len(settled_games), "checked": len(checks),
            "held": sum(c["holds"] for c in checks), "agreed": sum(c["agrees"] for c in checks),
            "by_engine": dict(Counter(c["engine"].split(",")[0] for c in checks).most_common()),
            "forced_mask": [{"code": r["code"], **r["checked"]} for r in settled_games
                            if r["checked"] and r["checked"]["engine"].startswith("sparse")],
            "failed": [r["code"] for r in settled_games if r["checked"] and
                       not (r["checked"]["holds"] and r["checked"]["agrees"])],
        },
        "deepest": [{k: r[k] for k in fields} | {"checked": (r["checked"] or {}).get("engine"),
                                                   "codes": same[r["code"]]} for r in deep],
        "frontier": [{k: r[k] for k in ("code", "heaps", "mask", "position", "rare_heaps", "last_rare",
                                        "max", "frontier", "next", "cpu_seconds")}
                     | {"codes": len(members[r["code"]])} for r in frontier],
        "cost_model": {"microseconds_a_heap": round(camp.totals["coefficients"][0] * 1e6, 3),
                       "nanoseconds_a_rare_heap": round(camp.totals["coefficients"][1] * 1e9, 3)},
        "cpu_per_game": {"median": round(statistics.median(cpu), 3) if cpu else None,
                         "max": max(cpu, default=None)},
        "deepest_open": max((r["heaps"] for r in open_reps), default=None),
        "crowded": crowded_games(camp.steps, {r["code"] for r in games if not r["settled"]}, CROWDED,
                                 camp.plan.floor),
        "growing": still_growing(camp.steps, [r["code"] for r in open_reps], camp.plan.floor << GROWING_FROM),
        "table_columns": TABLE_COLUMNS,
        "table": tab,
    }


# ---------------------------------------------------------------- largest values at depth


GROWING_FROM = 2
"""Powers of two past the floor from which a representative's last step is read for a largest
value still growing (past the floor, the steps are doublings)."""


def still_growing(steps: dict[str, list[list]], codes: list[str], depth: int) -> dict:
    """Of the open representatives ``codes`` whose last step reached ``depth`` heaps, those whose
    largest value rose in that step (above the largest at the step before), deepest first: a
    value first met at heap ``h`` puts the start plus the period of any period to come past
    ``h``.  ``steps`` is :attr:`Campaign.steps`."""
    games, rose = 0, []
    for code in codes:
        s = sorted(steps.get(code) or [])
        if not s or s[-1][0] < depth:
            continue
        games += 1
        if len(s) >= 2 and s[-1][5] > s[-2][5]:
            rose.append({"code": code, "from_heaps": s[-2][0], "from": s[-2][5], "heaps": s[-1][0], "to": s[-1][5]})
    rose.sort(key=lambda x: (-x["heaps"], x["code"]))
    return {"depth": depth, "games": games, "rose": rose}


# ---------------------------------------------------------------- crowded games


CROWDED_FIT_FROM = 1 << 14
"""The least depth of a step that the growth of a crowded game's largest value is fitted on (the
first steps start from the survey's values)."""


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of the sorted ``xs``: the nearest entry (no interpolation)."""
    return xs[round(q * (len(xs) - 1))]


def crowded_games(steps: dict[str, list[list]], open_codes: set[str], share: float, floor: int) -> dict:
    """The open games crowded at their deepest step (rare heaps at least ``share`` of their heaps,
    or every heap where the step ran dense) and what their steps show.

    ``steps`` is :attr:`Campaign.steps` (``[heaps, mask, position, rare heaps, last rare heap,
    largest value, CPU seconds]`` a step).  Per game: the rare share at its deepest step; the
    exponent ``α`` of ``largest value ∝ depth^α`` between its third last and its last step, where
    both are at least :data:`CROWDED_FIT_FROM` heaps; the CPU seconds of its last step against
    the one before, per doubling of the depth (the cost model says 4 when the rare heaps grow with
    the depth).  ``series`` holds each game's ``[heaps, largest value, rare share]`` for the figure.
    """
    series, shares, alphas, ratios = {}, [], [], []
    for code in sorted(open_codes):
        s = sorted(steps.get(code) or [])
        if not s:
            continue
        rare = [x[0] if x[1] is None else x[3] or 0 for x in s]
        if rare[-1] < share * s[-1][0]:
            continue
        series[code] = [[x[0], x[5], round(r / x[0], 4)] for x, r in zip(s, rare, strict=True)]
        shares.append(rare[-1] / s[-1][0])
        fit = [x for x in s if x[0] >= CROWDED_FIT_FROM]
        if len(fit) >= 3 and fit[-3][5] > 0:
            alphas.append(math.log(fit[-1][5] / fit[-3][5]) / math.log(fit[-1][0] / fit[-3][0]))
        if len(s) >= 2 and s[-2][6] > 0 and s[-1][6] > 0 and s[-2][0] >= CROWDED_FIT_FROM:
            ratios.append((s[-1][6] / s[-2][6]) ** (1 / math.log2(s[-1][0] / s[-2][0])))
    if not series:
        return {"games": 0}
    shares.sort()
    alphas.sort()
    ratios.sort()
    deep = max(series, key=lambda c: (series[c][-1][0], c))
    return {
        "games": len(series),
        "below_floor": sum(v[-1][0] < floor for v in series.values()),
        "share": {"min": round(shares[0], 3), "median": round(statistics.median(shares), 3),
                  "max": round(shares[-1], 3)},
        "fit_from": CROWDED_FIT_FROM,
        "alpha": {"games": len(alphas), **({"p10": round(quantile(alphas, 0.1), 2),
                                            "median": round(statistics.median(alphas), 2),
                                            "p90": round(quantile(alphas, 0.9), 2)} if alphas else {})},
        "step_ratio": {"games": len(ratios), "median": round(statistics.median(ratios), 1) if ratios else None},
        "deepest": {"code": deep, "heaps": series[deep][-1][0], "max": series[deep][-1][1],
                    "share": round(series[deep][-1][2], 3)},
        "series": series,
    }


def crowded_figure(crowded: dict, where: Path) -> None:
    """The crowded games' largest value and rare share against the depth, a line a game."""
    fig, (ax, bx) = subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"wspace": 0.3})
    for v in crowded.get("series", {}).values():
        ax.plot([x[0] for x in v], [x[1] for x in v], color="C0", lw=0.6, alpha=0.4)
        bx.plot([x[0] for x in v], [x[2] for x in v], color="C0", lw=0.6, alpha=0.4)
    a = crowded.get("alpha", {}).get("median")
    if a is not None:
        xs = np.array([crowded["fit_from"], max(v[-1][0] for v in crowded["series"].values())])
        mid = statistics.median(v[-1][1] / v[-1][0] ** a for v in crowded["series"].values())
        ax.plot(xs, mid * xs ** a, color="0.2", lw=1, ls="--", label=f"depth^{a:g} (the median fit)")
        ax.legend(frameon=False, fontsize=7)
    for x in (ax, bx):
        x.set_xscale("log", base=2)
        x.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"$2^{{{round(math.log2(v))}}}$"))
        x.xaxis.set_minor_formatter(NullFormatter())
        x.set_xlabel("depth (heaps)")
    ax.set_yscale("log")
    ax.set_ylabel("largest value")
    bx.set_ylabel("rare heaps / heaps")
    bx.set_ylim(0, 1)
    ax.set_title(f"{crowded['games']:,} crowded open games")
    save(fig, where / "crowded.png")


# ---------------------------------------------------------------- same games


def same_games(rows: list[dict], outcome: dict, lookup: dict) -> dict:
    """Codes with identical sequences to 10,000 heaps (the stored values' digest) as classes,
    with the published equivalences of the 1..3-digit codes beside them."""
    by_hash = defaultdict(list)
    for r in rows:
        by_hash[r["values_sha256"]].append(r["code"])
    classes = sorted(by_hash.values(), key=lambda c: (-len(c), c))
    top = max(digits_of(r["code"]) for r in rows)
    shorter = {c: [x for x in cl if digits_of(x) < top] for cl in classes for c in cl}
    proven = [cl for cl in classes if len(cl) > 1 and all(outcome[c]["settled_at_survey"] for c in cl)]
    ours = {frozenset(p) for cl in classes for p in combinations(
        [c for c in cl if c.replace("·", ".") in lookup], 2)}  # fmt: skip
    groups = defaultdict(list)
    for c in (r["code"] for r in rows):
        if c.replace("·", ".") in lookup:
            groups[lookup[c.replace("·", ".")]].append(c)
    theirs = {frozenset(p) for g in groups.values() for p in combinations(g, 2)}
    return {
        "distinct": len(classes),
        "codes": len(rows),
        "classes_shared": sum(len(cl) > 1 for cl in classes),
        "codes_in_shared": sum(len(cl) for cl in classes if len(cl) > 1),
        "size_counts": dict(sorted(Counter(len(cl) for cl in classes).items())),
        "largest": [{"size": len(cl), "codes": cl[:8]} for cl in classes[:5]],
        "proven_classes": len(proven),
        "proven_codes": sum(len(cl) for cl in proven),
        "new_only": sum(1 for r in rows if digits_of(r["code"]) == top and not shorter[r["code"]]),
        "as_shorter": sum(1 for r in rows if digits_of(r["code"]) == top and shorter[r["code"]]),
        "distinct_new": sum(1 for cl in classes if all(digits_of(c) == top for c in cl)),
        "published_pairs": len(theirs),
        "same_pairs": len(ours),
        "both_pairs": len(theirs & ours),
        "ours_not_published": sorted(sorted(p) for p in ours - theirs)[:10],
        "ours_not_published_count": len(ours - theirs),
        "classes": [cl for cl in classes if len(cl) > 1],
        "shorter": {c: v[0] for c, v in shorter.items() if v and digits_of(c) == top},
    }


# ---------------------------------------------------------------- the archive

SIDE_FILES = ("checks.json", "campaign_sittings.json", "timings.json")
"""The files kept in the cache beside the catalogue that the archive carries too."""


def archive_path(out_dir: Path, digits: int) -> Path:
    """The page's archive: every record of its catalogue and its side files, small enough to
    keep with the page, so that a run on another machine takes up where the last one stopped."""
    return out_dir / "four_digits" / f"records-{digits}.jsonl.gz"


def _merged(old, new):
    """A side file's content from an archive (``old``) and the cache (``new``, which wins): dicts
    by key, lists of sittings by id."""
    if isinstance(old, dict) and isinstance(new, dict):
        return old | new
    if isinstance(old, list) and isinstance(new, list):
        ids = {x.get("id") for x in new}
        return [x for x in old if x.get("id") not in ids] + new
    return new


def restored(cache: Path, digits: int, path: Path) -> dict:
    """Store in the cache every record of the archive ``path`` that it lacks, and merge its side
    files; how many records it held and how many were missing here."""
    if not path.exists():
        return {"records": 0, "restored": 0}
    with Catalogue(survey_path(cache, digits)) as cat:
        added, book = archive.restore(cat, path)
    for name in SIDE_FILES:
        if name in book.extra:
            f = cache / name
            here = json.loads(f.read_text()) if f.exists() else None
            write_json(f, book.extra[name] if here is None else _merged(book.extra[name], here))
    if added:
        log(f"restored {added:,} of the {len(book.rows):,} records of {path}")
    return {"records": len(book.rows), "restored": added}


def saved(cache: Path, digits: int, path: Path) -> int:
    """Write the archive ``path`` from the cache's catalogue and side files; its records."""
    extra = {name: json.loads((cache / name).read_text()) for name in SIDE_FILES if (cache / name).exists()}
    with Catalogue(survey_path(cache, digits)) as cat:
        return archive.save(cat, path, extra=extra)


# ---------------------------------------------------------------- the run


def run(out_dir: Path, digits: int, budget: float, cache: Path, workers: int,
        campaign_seconds: float | None = None, scheduler: str | None = None) -> dict:
    """Every stage in order; returns every number the page states.  The campaign runs for at most
    ``campaign_seconds`` of wall time (None: until it is done or stopped; 0: not at all); every
    stage runs on ``workers`` processes, or on the Dask cluster at ``scheduler``."""
    cache = cache / f"four_digits-{digits}"
    cache.mkdir(parents=True, exist_ok=True)
    book = archive_path(out_dir, digits)
    restore = restored(cache, digits, book)
    wall, computed = {}, {}
    executor, slots, client = executor_for(workers, scheduler)
    with executor:
        surveys = {}
        for key, d, heaps in (("shorter", digits - 1, SHORT), ("short", digits, SHORT),
                              ("long", digits, LONG)):  # fmt: skip
            t = time.monotonic()
            log(f"survey of 1..{d} digits to {heaps:,} heaps")
            surveys[key], computed[f"survey_{key}"] = surveyed(d, heaps, cache, executor)
            wall[f"survey_{key}"] = time.monotonic() - t
        long_rows = surveys["long"]
        open_names = [r["code"] for r in long_rows if r["status"] != "settled"]
        t = time.monotonic()
        log(f"settling {len(open_names):,} codes, {budget:g} CPU s each")
        settle_rows, computed["settle"] = settled_further(open_names, budget, cache, digits, executor)
        wall["settle"] = time.monotonic() - t
        still = [r["code"] for r in settle_rows if not r["settled"]]
        t = time.monotonic()
        log(f"campaign over the {len(still):,} codes still open")
        sitting = Sitting(cache, workers)
        camp = driven(still, cache, digits, executor, slots, campaign_seconds, sitting)
        campaign_wall = time.monotonic() - t
    if client is not None:
        client.close()
    t = time.monotonic()
    log("checking the certificates with another engine")
    before = len(json.loads((cache / "checks.json").read_text())) if (cache / "checks.json").exists() else 0
    executor, _, client = executor_for(workers, scheduler)
    with executor:
        checks = checked(long_rows, settle_rows, cache, digits, executor)
    if client is not None:
        client.close()
    wall["check"] = time.monotonic() - t
    computed["check"] = len(json.loads((cache / "checks.json").read_text())) - before
    totals = {**{f"survey_{k}": len(v) for k, v in surveys.items()}, "settle": len(open_names),
              "check": len(checks)}  # fmt: skip
    timings = stage_times(cache, budget, wall, computed, totals)
    tally = {k: summary(v) for k, v in surveys.items()}
    for r in long_rows:
        r.pop("false_readings", None)
    result = {
        "digits": digits,
        "shorter_digits": digits - 1,
        "short_heaps": SHORT,
        "long_heaps": LONG,
        "repetitions": list(REPETITIONS),
        "budget_cpu_seconds": budget,
        "max_heaps": MAX_HEAPS,
        "workers": workers,
        "dense_limit": DENSE_LIMIT,
        "probe": PROBE,
        "crowded": CROWDED,
        "other_work": OTHER_WORK,
        "ranked": RANKED,
        "tallies": tally,
    }
    result["settling"] = settling(long_rows, settle_rows)
    lookup, games = published()
    result["campaign"] = at_depth(camp, long_rows, settle_rows, digits, lookup)
    work = camp.computed or camp.totals["remaining"] or camp.totals["awaiting_check"]
    if campaign_seconds != 0 and work:
        sitting.record(camp.computed, campaign_wall)
    else:
        sitting.drop()
    result["campaign"]["sittings"] = sitting.kept()
    result["archive"] = restore | {"path": str(book.relative_to(out_dir)), "saved": saved(cache, digits, book),
                                  "bytes": book.stat().st_size}  # fmt: skip
    outcome = outcomes(long_rows, settle_rows, camp.rows)
    result["same_games"] = same_games(long_rows, outcome, lookup)
    result["literature"] = literature(outcome, result["same_games"], lookup, games, digits)
    result["checks"] = check_summary(checks)
    result["verdict"] = verdict(tally)
    result["stage_seconds"] = timings
    result["total_seconds"] = round(sum(x["seconds"] for x in timings.values()), 1)
    result["from_nothing"] = all(x["from_nothing"] for x in timings.values())
    result["this_run"] = {"seconds": {k: round(v, 1) for k, v in wall.items()} | {"campaign": round(campaign_wall, 1)},
                          "computed": computed | {"campaign": camp.computed}}  # fmt: skip
    figures(result, surveys, settle_rows, out_dir / "four_digits")
    frontier_figure(camp, out_dir / "four_digits")
    crowded_figure(result["campaign"]["crowded"], out_dir / "four_digits")
    return result


class Sitting:
    """This run's sitting in ``campaign_sittings.json`` in the cache (wall seconds, tasks, workers),
    written again as each task finishes, so that a sitting cut short by a kill (the end of a
    session, a machine taken back) still counts to its last task; a run with nothing to do
    (``--campaign-hours 0``, or a campaign already finished) leaves no sitting."""

    def __init__(self, cache: Path, workers: int):
        self.path, self.workers = cache / "campaign_sittings.json", workers
        self.began = time.monotonic()
        self.started = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        self.id = uuid.uuid4().hex[:12]

    def kept(self) -> list[dict]:
        """Every sitting recorded so far, this one included once it has recorded."""
        return json.loads(self.path.read_text()) if self.path.exists() else []

    def record(self, tasks: int, seconds: float | None = None) -> None:
        """This sitting so far: ``tasks`` finished, ``seconds`` of wall time (default: since it began)."""
        seconds = time.monotonic() - self.began if seconds is None else seconds
        entry = {"seconds": round(seconds, 1), "tasks": tasks, "workers": self.workers, "started": self.started,
                 "id": self.id}
        write_json(self.path, [x for x in self.kept() if x.get("id") != self.id] + [entry])

    def drop(self) -> None:
        """Forget this sitting (it had nothing to do)."""
        kept = self.kept()
        if any(x.get("id") == self.id for x in kept):
            write_json(self.path, [x for x in kept if x.get("id") != self.id])


def stage_times(cache: Path, budget: float, wall: dict, computed: dict, totals: dict) -> dict:
    """Each stage's wall seconds as it was computed, kept in ``timings.json`` in the cache:
    a stage this run computed whole replaces the record (``from_nothing``), one it resumed adds
    to it (not from nothing), one it took from the cache leaves it as it was."""
    path = cache / "timings.json"
    kept = json.loads(path.read_text()) if path.exists() else {}
    out = {}
    for stage, seconds in wall.items():
        key = f"settle {budget:g}" if stage == "settle" else stage
        old = kept.get(key)
        if computed[stage] == totals[stage] or old is None:
            kept[key] = {"seconds": round(seconds, 1),
                         "from_nothing": computed[stage] == totals[stage]}  # fmt: skip
        elif computed[stage]:
            kept[key] = {"seconds": round(old["seconds"] + seconds, 1), "from_nothing": False}
        out[stage] = kept[key]
    write_json(path, kept)
    return out


def outcomes(long_rows: list[dict], settle_rows: list[dict], camp_rows: list[dict]) -> dict:
    """Each code's final outcome: settled at the survey, within the budget, by the campaign, or
    open."""
    out = {}
    for r in long_rows:
        s = r["status"] == "settled"
        out[r["code"]] = {"settled": s, "settled_at_survey": s, "period": r["period"],
                          "start": r["start"], "window": r["window"]}  # fmt: skip
    for r in [*settle_rows, *camp_rows]:
        out[r["code"]].update(settled=r["settled"], period=r["period"], start=r["start"],
                              window=r["window"])  # fmt: skip
    return out


def settling(long_rows: list[dict], settle_rows: list[dict]) -> dict:
    """The settlements: counts, ranked preperiods, and where the open codes stand."""
    status = {r["code"]: r["status"] for r in long_rows}
    settled = [r for r in settle_rows if r["settled"]]
    still = [r for r in settle_rows if not r["settled"]]
    fields = ("code", "start", "period", "window", "heaps", "cpu_seconds")
    ranked = sorted(settled, key=lambda r: (-r["start"], r["code"]))
    heaps = [r["heaps"] for r in still]
    return {
        "codes": len(settle_rows),
        "growing": sum(status[r["code"]] == "growing" for r in settle_rows),
        "bounded_unsettled": sum(status[r["code"]] == "bounded_unsettled" for r in settle_rows),
        "settled": len(settled),
        "settled_growing": sum(status[r["code"]] == "growing" for r in settled),
        "open": len(still),
        "cpu_seconds_total": round(sum(r["cpu_seconds"] for r in settle_rows), 1),
        "cpu_seconds_max": max((r["cpu_seconds"] for r in settle_rows), default=0),
        "largest_start": max((r["start"] for r in settled), default=None),
        "largest_period": max((r["period"] for r in settled), default=None),
        "largest_window": max((r["window"] for r in settled), default=None),
        "period_counts": Counter(r["period"] for r in settled).most_common(8),
        "longest_preperiods": [{k: r[k] for k in fields} for r in ranked[:RANKED]],
        "longest_periods": [{k: r[k] for k in fields}
                            for r in sorted(settled, key=lambda r: (-r["period"], r["code"]))[:10]],
        "open_heaps": {"min": min(heaps, default=None), "median": statistics.median(heaps) if heaps
                       else None, "max": max(heaps, default=None)},
        "open_dense": sum(r["mask"] is None for r in still),
        "open_masks": dict(Counter(
            f"{r['mask']}{'+position' if r['position'] else ''}" for r in still if r["mask"]
        ).most_common(6)),
        "open_deepest": [
            {k: r[k] for k in ("code", "heaps", "mask", "position", "rare_heaps", "last_rare", "max")}
            | {"survey": status[r["code"]]}
            for r in sorted(still, key=lambda r: (-r["heaps"], r["code"]))[:RANKED]
        ],
    }


def literature(outcome: dict, same: dict, lookup: dict, games: dict, digits: int) -> dict:
    """Which published rows cover codes of ``digits`` digits, and our outcomes against the
    published ones: the shorter codes directly, the longest codes directly where the tables
    list them, else through a shorter code with the identical sequence (where one exists)."""
    shorter = {c: o for c, o in outcome.items() if digits_of(c) < digits}
    longest = {c: o for c, o in outcome.items() if digits_of(c) == digits}
    listed = {c for c in longest if c.replace("·", ".") in lookup or c.replace("·", ".") in games}
    direct = {c: against(o, c, lookup, games) for c, o in shorter.items()}
    direct |= {c: against(longest[c], c, lookup, games) for c in listed}
    via = {c: against(longest[c], x, lookup, games) for c, x in same["shorter"].items()
           if c not in listed}  # fmt: skip
    new = [c for c in longest if c not in listed and c not in via]
    unsolved = {c: (c if c in direct else same["shorter"][c]).replace("·", ".")
                for c, x in (direct | via).items() if x == "settled here, unsolved there"}  # fmt: skip
    return {
        "published_rows": len(games),
        "rows_with_digits": sum(digits_of(g) == digits for g in games),
        "lookup_codes": len(lookup),
        "lookup_with_digits": sum(digits_of(c) == digits for c in lookup),
        "listed": len(listed),
        "direct_codes": len(direct),
        "direct_against": dict(sorted(Counter(direct.values()).items())),
        "via_shorter": len(via),
        "via_against": dict(sorted(Counter(via.values()).items())),
        "new": len(new),
        "new_settled": sum(longest[c]["settled"] for c in new),
        "new_open": sum(not longest[c]["settled"] for c in new),
        "disagreeing": sorted(c for c, x in (direct | via).items() if x == "period differs"),
        "open_but_solved": sorted(
            c for c, x in (direct | via).items() if x == "open here, solved there"
        ),
        "settled_unsolved": [
            {"code": c, "start": outcome[c]["start"], "period": outcome[c]["period"], "listed_as": k,
             "source": _source_of(games[lookup.get(k, k)])}
            for c, k in sorted(unsolved.items())
        ],
    }


def check_summary(checks: list[dict]) -> dict:
    """The certificate checks, counted by engine, with every failure named."""
    return {
        "periods": len(checks),
        "held": sum(c["holds"] for c in checks),
        "agreed": sum(c["agrees"] for c in checks),
        "by_engine": dict(Counter(c["engine"].split(",")[0] for c in checks).most_common()),
        "forced_mask": [c for c in checks if c["engine"].startswith("sparse")],
        "failed": [c for c in checks if not (c["holds"] and c["agrees"])],
        "deepest": max((c["depth"] for c in checks), default=0),
    }


def verdict(tally: dict) -> dict:
    """Whether one more digit made the sweep more often wrong, measure by measure: ``more``,
    ``less`` or ``same`` for the longer family against the shorter, both at 2,400 heaps."""
    a, b = tally["shorter"], tally["short"]

    def cmp(x, y):
        return "more" if y > x else "less" if y < x else "same"

    return {
        "settled_share": cmp(a["settled_share"], b["settled_share"]),
        "false_per_settled": cmp(a["false_per_settled"], b["false_per_settled"]),
        "right_first_share": cmp(a["right_first_share"], b["right_first_share"]),
        "believed_3": cmp(a["believed_share"][3], b["believed_share"][3]),
        "believed_4": cmp(a["believed_share"][4], b["believed_share"][4]),
        "max_reach": cmp(a["max_reach"], b["max_reach"]),
        "deeper_settled": tally["long"]["settled"] - b["settled"],
        "deeper_false": tally["long"]["false_readings"] - b["false_readings"],
        "deeper_false_per_code": (tally["long"]["false_readings"] - b["false_readings"])
        / max(1, tally["long"]["settled"] - b["settled"]),
    }


WORDS = {
    "settled_share": {"more": "a larger", "less": "a smaller", "same": "the same"},
    "false_per_settled": {"more": "more", "less": "fewer", "same": "as many"},
    "right_first_share": {"more": "more", "less": "fewer", "same": "as many"},
    "believed_3": {"more": "more often", "less": "less often", "same": "as often"},
    "believed_4": {"more": "more often", "less": "less often", "same": "as often"},
    "max_reach": {"more": "further", "less": "less far", "same": "as far"},
}


# ---------------------------------------------------------------- figures


def label(result: dict, key: str) -> str:
    d = result["shorter_digits"] if key == "shorter" else result["digits"]
    h = result["long_heaps"] if key == "long" else result["short_heaps"]
    return f"1..{d} digits, {h:,} heaps"


def figures(result: dict, surveys: dict, settle_rows: list[dict], where: Path) -> None:
    """Statuses and believed false readings per survey; how far false readings got; the
    settled codes' start and period; where the open codes stand; class sizes."""
    keys = ("shorter", "short", "long")
    t = result["tallies"]
    fig, (ax, bx) = subplots(1, 2, figsize=(10, 3.8), gridspec_kw={"wspace": 0.35})
    for j, key in enumerate(keys):
        shares = [t[key]["settled_share"], t[key]["growing_share"], t[key]["bounded_share"]]
        ax.bar([i + 0.27 * j for i in range(3)], shares, width=0.27, label=label(result, key))
        rs = result["repetitions"]
        bx.plot(rs, [t[key]["believed_share"][r] for r in rs], marker="o", label=label(result, key))
    ax.set_xticks([0.27, 1.27, 2.27], ["settled", "growing", "bounded,\nunsettled"])
    ax.set_ylabel("share of codes")
    ax.legend(frameon=False, fontsize=7)
    bx.set_yscale("log")
    bx.set_xlabel("repetitions r a reader asks for")
    bx.set_ylabel("false readings still believed (share)")
    save(fig, where / "tallies.png")

    fig, ax = subplots(figsize=(6, 3.6))
    for key in keys:
        h = np.array(t[key]["reach_histogram"], dtype=float)
        ax.step(np.arange(10) / 10, h / max(1, h.sum()), where="post", label=label(result, key))
    ax.set_xlabel("how far a false reading got (held to / window)")
    ax.set_ylabel("share of false readings")
    ax.legend(frameon=False, fontsize=7)
    save(fig, where / "reach.png")

    settled = [r for r in settle_rows if r["settled"]]
    fig, ax = subplots(figsize=(6, 4.5))
    if settled:
        ax.scatter([r["start"] for r in settled], [r["period"] for r in settled], s=10)
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("start (preperiod)")
    ax.set_ylabel("period")
    ax.set_title(f"{len(settled):,} codes settled past {result['long_heaps']:,} heaps")
    save(fig, where / "settled.png")

    still = [r for r in settle_rows if not r["settled"]]
    fig, ax = subplots(figsize=(6, 4.5))
    status = {r["code"]: r["status"] for r in surveys["long"]}
    for s in ("growing", "bounded_unsettled"):
        pts = [r for r in still if status[r["code"]] == s]
        ax.scatter([r["heaps"] for r in pts], [r["rare_heaps"] if r["mask"] else 0 for r in pts],
                   s=8, alpha=0.6, label=s.replace("_", ", "))  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("symlog")
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"heaps computed within {result['budget_cpu_seconds']:g} CPU seconds a code")
    ax.set_ylabel("rare heaps of the mask in use (0: dense)")
    ax.legend(frameon=False)
    ax.set_title(f"{len(still):,} codes still open")
    save(fig, where / "open.png")

    sizes = result["same_games"]["size_counts"]
    fig, ax = subplots(figsize=(6, 3.4))
    ax.bar([int(k) for k in sizes], [int(k) * v for k, v in sizes.items()])
    ax.set_xlabel("codes with the same sequence (class size)")
    ax.set_ylabel("codes in classes of that size")
    save(fig, where / "classes.png")


# ---------------------------------------------------------------- the page


def pct(x: float) -> str:
    return f"{x:.1%}"


def believed_cell(k: int, x: dict) -> str:
    return f"{x['believed'][k]:,} ({pct(x['believed_share'][k])})"


def tally_table(r: dict) -> list[str]:
    """The three surveys' tallies side by side."""
    t, keys = r["tallies"], ("shorter", "short", "long")
    rows = [
        ("codes", lambda x: f"{x['codes']:,}"),
        ("settled", lambda x: f"{x['settled']:,} ({pct(x['settled_share'])})"),
        ("growing", lambda x: f"{x['growing']:,} ({pct(x['growing_share'])})"),
        ("bounded, unsettled", lambda x: f"{x['bounded_unsettled']:,} ({pct(x['bounded_share'])})"),
        ("distinct growing sequences", lambda x: f"{x['distinct_sequences_growing']:,}"),
        ("right from the first reading", lambda x: f"{x['right_first']:,} ({pct(x['right_first_share'])})"),
        ("one change", lambda x: f"{x['changes_once']:,}"),
        ("5 to 100 changes", lambda x: f"{x['changes_5_to_100']:,}"),
        ("over 150 changes", lambda x: f"{x['changes_over_150']:,}"),
        ("periodic from heap 1 (right first)",
         lambda x: f"{x['periodic_from_1']:,} ({x['periodic_from_1_right_first']:,})"),
        ("periodic later (right first)",
         lambda x: f"{x['periodic_later']:,} ({x['periodic_later_right_first']:,})"),
        ("false readings", lambda x: f"{x['false_readings']:,}"),
        ("false readings per settled code", lambda x: f"{x['false_per_settled']:.2f}"),
        ("false readings before the start", lambda x: f"{x['false_before_start']:,}"),
        ("period > 1: right period, wrong start", lambda x: f"{x['kinds']['right_period_wrong_start']:,}"),
        ("period > 1: dividing the final period", lambda x: f"{x['kinds']['dividing']:,}"),
        ("period > 1: unrelated period", lambda x: f"{x['kinds']['unrelated']:,}"),
        *[(f"believed by a reader asking r = {k}", partial(believed_cell, k))
          for k in r["repetitions"]],
        ("median reach of a false reading", lambda x: f"{x['median_reach']:.3f}"),
        ("largest reach", lambda x: f"{x['max_reach']:.3f}"),
        ("false readings that reached their window", lambda x: f"{x['reached_window']:,}"),
        ("heap-0 readings that reached their window", lambda x: f"{x['heap0_reached']:,}"),
        ("repetitions needed (median / max)",
         lambda x: f"{x['repetitions_needed']['median']:.2f} / {x['repetitions_needed']['max']:,.2f}"),
        ("right-from to window gap (median / max)",
         lambda x: f"{x['right_to_window_gap']['median']:,.1f} / {x['right_to_window_gap']['max']:,}"),
        ("largest window", lambda x: f"{x['largest_window']:,}"),
    ]  # fmt: skip
    out = [
        "| | " + " | ".join(label(r, k) for k in keys) + " |",
        "|---|" + "---:|" * len(keys),
    ]
    out += [f"| {name} | " + " | ".join(f(t[k]) for k in keys) + " |" for name, f in rows]
    return out


def n(x) -> str:
    """A count or a depth as the page prints it (``–`` for none)."""
    return "–" if x is None else f"{x:,}"


def mask_cell(mask, position) -> str:
    return "dense" if mask is None else f"{mask}{'+position' if position else ''}"


def crowded_paragraph(x: dict, share: float) -> list[str]:
    """What the crowded games' steps show (:func:`crowded_games`), with its figure; nothing when
    there are none."""
    if not x["games"]:
        return []
    a, st, dp = x["alpha"], x["step_ratio"], x["deepest"]
    return [
        "",
        (
            f"**The crowded games.** {x['games']:,} open games are crowded at their deepest step "
            f"(rare heaps at least {share:g} of their heaps under the mask in use, or computed dense); "
            f"{x['below_floor']:,} of them are still short of the floor. Their rare heaps there are a median "
            f"{x['share']['median']:g} of their heaps ({x['share']['min']:g} to {x['share']['max']:g})"
            + (f". Their largest values keep growing: over the last two doublings of the "
               f"{a['games']:,} computed that far past {x['fit_from']:,} heaps, the largest value grows "
               f"like depth^α with α a median {a['median']:g} (10% to 90% of them: {a['p10']:g} to "
               f"{a['p90']:g})" if a["games"] else "")
            + ". So a heap costs about one step for each of its game's rare heaps, and they grow with "
            "the depth"
            + (f": a game's last step cost a median {st['median']:g} times the one before it, per "
               f"doubling of the depth ({st['games']:,} games)" if st["median"] is not None else "")
            + f". The deepest, {dp['code']}, has reached {dp['heaps']:,} heaps, its largest value "
            f"{dp['max']:,}, with {dp['share']:g} of its heaps rare."
        ),
        "",
        "![largest value and rare share of the crowded games against the depth](four_digits/crowded.png)",
    ]


def campaign_section(r: dict) -> list[str]:
    """The campaign at depth: its rules, how far it has got, what it found and what is left."""
    c = r["campaign"]
    p, lg, t, k, ru, cl, ch = (c["plan"], c["log2"], c["totals"], c["counts"], c["rules"], c["classes"],
                               c["checks"])  # fmt: skip
    d = r["digits"]
    a, b = c["cost_model"]["microseconds_a_heap"], c["cost_model"]["nanoseconds_a_rare_heap"]
    L = [
        "",
        "## At depth: every open code until it settles or its frontier is stated",
        "",
        (
            f"The codes still open after the budget went on to a campaign (`grundy.catalogue.campaign.run`) "
            f"whose budget follows the mathematics, not a clock. **Games**: codes whose rules make "
            f"them the same game are computed once (`grundy.catalogue.campaign.same_game`: a bit that takes "
            f"a heap whole where the heap has another move worth 0, or a bit that leaves one heap "
            f"where splitting off a heap worth 0 gives the same value, can never change a value). "
            f"**Classes**: games with the same values to {p['seed']:,} heaps; the representative "
            f"is the first in code order (the fewest digits, so the smallest window). **Depth**: "
            f"every game is settled a power of two at a time to {p['floor']:,} heaps "
            f"(`2^{lg['floor']}`); a representative still open there goes on, a power of two at a "
            f"time, to {p['depth']:,} heaps (`2^{lg['depth']}`) for as long as its rare heaps have "
            f"stopped arriving, that is while its last rare heap lies below 1/{p['quiet_ratio']} "
            f"of the depth (under the mask the engine used, shown below, or the mask that makes "
            f"the fewest heaps rare). When a representative settles, each member is settled to its own "
            f"window from its own values; a member whose values part from its representative's "
            f"is a finding and gets its own run."
        ),
        "",
        (
            f"**How far it has got.** {t['done']:,} of the {t['codes']:,} codes are done (settled "
            f"and checked, or stopped at their frontier), {t['awaiting_check']:,} are settled and "
            f"await their check, and {t['remaining']:,} have steps to go "
            f"({t['remaining_games']:,} games); {t['steps']:,} steps have computed "
            f"{t['heaps_computed']:,} heaps in {t['cpu_steps']:,.1f} CPU seconds"
            + (f" ({t['heaps_per_second']:,} heaps a second)" if t["heaps_per_second"] else "")
            + f", and the checks and partings {t['cpu_checks']:,.1f} and {t['cpu_partings']:,.1f} "
            f"more: **{t['cpu_seconds']:,.1f} CPU seconds in all**. What remains, by a cost model "
            f"fitted to the run's own steps ({a:g} µs a heap and {b:g} ns a heap per rare heap, "
            f"rare heaps growing with the depth where they still arrive): the steps now waiting, "
            f"{t['pending_cost']:,.0f} CPU seconds; every open game to {p['floor']:,} heaps, "
            f"{t['to_floor_cost']:,.0f}"
            + (f" ({t['to_floor_crowded_cost']:,.0f} of them in the {t['to_floor_crowded_games']:,} "
               f"crowded games, whose rare heaps are at least {r['crowded']:g} of their heaps: no mask makes "
               f"their values sparse, so each power of two costs about four times the last)"
               if t["to_floor_crowded_games"] else "")
            + "; every open game one power of two further than it is now, "
            f"{t['next_power_cost']:,.0f}. The same command continues it: "
            "`python docs/findings/four_digits.py --out docs/findings/ --campaign-hours H` "
            "(a rerun computes only what is missing; a step in flight resumes from its checkpoint)."
        ),
        *crowded_paragraph(c["crowded"], r["crowded"]),
        "",
        (
            f"Codes settled, of the {k['codes']:,} of 1..{d} digits: **{k['survey']:,} at "
            f"{r['long_heaps']:,} heaps, {k['budget']:,} after the budget of "
            f"{r['budget_cpu_seconds']:g} CPU seconds, {k['now']:,} now**; of the "
            f"{k['longest']:,} of {d} digits: {k['longest_survey']:,}, {k['longest_budget']:,} "
            f"and {k['longest_now']:,}."
        ),
        "",
        (
            f"**The same game by the rules.** {ru['followers']:,} of the open codes are another "
            f"code's game by their rules ({ru['take_whole']:,} by a take-the-whole-heap bit, "
            f"{ru['leave_one']:,} by a leave-one-heap bit; some by both), so the campaign computes "
            f"{cl['games']:,} games for {t['codes']:,} codes. The stored survey values agree for "
            f"all {ru['checked_at_survey']:,} followers surveyed, and the published lookup table "
            f"names the same equivalent game for {ru['lookup_agrees']:,} of the "
            f"{ru['lookup_codes']:,} followers of 1..3 digits it lists. For example: "
            + "; ".join(f"{x['code']} is {x['game']} ({', '.join(x['proof'])})" for x in ru["examples"])
            + "."
        ),
        "",
        (
            f"**One game moved by a heap.** Where a heap of 1 has no move, counting every heap one "
            f"lower turns a code into another code (`grundy.catalogue.same_games.shifted`; "
            f"[the proof](../campaigns.md)), whose heap n is worth the first code's heap n + 1. "
            f"By chains of this rule, {ru['shifted']:,} games are another game's values moved by "
            f"one or two heaps, so the campaign computes only the leader of each chain; the "
            f"survey's values agree, moved, for all {ru['shift_checked']:,}. For example: "
            + "; ".join(f"{x['code']} is {x['from']} moved by {abs(x['by'])} heap{'s' if abs(x['by']) > 1 else ''}"
                        for x in ru["shifted_examples"])
            + ". "
            + (f"{len(ru['shifted_settled']):,} of them are settled by their leader's certificate: "
               + "; ".join(f"{x['code']}, period {x['period']:,} from heap {x['start']:,} (from {x['from']}'s)"
                           for x in ru["shifted_settled"])
               + "; each is checked on its own values as every new certificate is (below)."
               if ru["shifted_settled"] else "None of them is settled yet.")
        ),
        "",
        (
            f"**Classes.** The {cl['games']:,} games make {cl['classes']:,} classes "
            f"({cl['members']:,} codes are listed with a representative rather than computed "
            f"past the floor); {cl['open_reps']:,} representatives are open, "
            f"{cl['quiet_at_floor']:,} of them with rare heaps that had stopped arriving at or "
            f"past the floor. "
            + (f"**{len(c['partings']):,} members part from their representative**: "
               + "; ".join(f"{x['code']} from {x['from']}"
                           + (f" at heap {x['first']:,}" if x.get("first") is not None else "")
                           + (f" ({x['outcome']})" if x.get("outcome") else "")
                           for x in c["partings"])
               + ", each a finding with its own run."
               if c["partings"] else "No member has parted from its representative so far.")
        ),
        "",
        "![depth reached against the last rare heap](four_digits/frontier.png)",
    ]
    if c["deepest"]:
        L += [
            "",
            (
                f"The settlements that needed the deepest certificates ({len(c['deepest'])}; every "
                "code is in [the table](four_digits/table.md)):"
            ),
            "",
            "| code | start | period | window | heaps | CPU s | checked with | codes of this game |",
            "|---|---:|---:|---:|---:|---:|---|---|",
        ]
        L += [
            f"| {x['code']} | {x['start']:,} | {x['period']:,} | {x['window']:,} | {x['heaps']:,} | "
            f"{x['cpu_seconds']:g} | {x['checked'] or 'waiting'} | {', '.join(x['codes'])} |"
            for x in c["deepest"]
        ]
    L += [
        "",
        (
            f"**Certificates checked twice.** Of the {ch['settled_games']:,} games the campaign "
            f"settled, {ch['checked']:,} have been computed again to twice their window by another "
            "engine (the dense kernel, or the plain-Python reference for codes without two-heap "
            f"moves, or past {r['dense_limit']:,} heaps the sparse engine under a forced mask: "
            "another mask where its work, measured on the first "
            f"{r['probe']:,} heaps, stays within {r['other_work']:,.0f} heap-by-rare-heap steps, "
            "else the run's own mask forced from the first heap, through the other of the "
            "engine's two drivers, in memory or bounded, from the one that computed the window; "
            "such a check keeps checkpoints as a step does): "
            + (", ".join(f"{e} {m:,}" for e, m in ch["by_engine"].items()) or "none yet")
            + f". The period held for {ch['held']:,} and the values to the window agreed with "
            f"the run's (their digest) for {ch['agreed']:,}."
            + (" **Failed:** " + ", ".join(ch["failed"]) + "." if ch["failed"] else "")
            + (" Forced masks: " + ", ".join(f"{x['code']} ({x['engine']}, {x['depth']:,} heaps)"
                                             for x in ch["forced_mask"]) + "."
               if ch["forced_mask"] else "")
        ),
    ]
    if c["frontier"]:
        L += [
            "",
            (
                f"The open representatives computed deepest ({len(c['frontier'])}; their members "
                "are listed with them in [the table](four_digits/table.md)):"
            ),
            "",
            "| code | depth reached | mask | rare heaps | last rare | largest value | CPU s | codes | stopped |",
            "|---|---:|---|---:|---:|---:|---:|---:|---|",
        ]
        L += [
            f"| {x['code']} | {x['heaps']:,} | {mask_cell(x['mask'], x['position'])} | "
            f"{n(x['rare_heaps'])} | {n(x['last_rare'])} | {x['max']:,} | {x['cpu_seconds']:g} | "
            f"{x['codes']:,} | {x['frontier'] or 'going on to ' + n(x['next'])} |"
            for x in c["frontier"]
        ]
    grow = c["growing"]
    if grow["games"]:
        L += [
            "",
            (
                f"**Largest values still growing.** Of the {grow['games']:,} open representatives whose "
                f"last step reached {grow['depth']:,} heaps or more, {len(grow['rose']):,} found a value "
                "above every earlier one in that step (a value first met at heap h puts the start plus "
                "the period of any period to come past h), largest value up to the step before and up to the last"
                + (": " + ", ".join(f"{x['code']} ({x['from']:,} up to {n(x['from_heaps'])} heaps, "
                                    f"{x['to']:,} up to {n(x['heaps'])})" for x in grow["rose"][:RANKED]) + "."
                   if grow["rose"] else ".")
            ),
        ]
    cpg = c["cpu_per_game"]
    if cpg["median"] is not None:
        L += [
            "",
            (
                f"Cost: a game took {cpg['median']:g} CPU seconds (median) and at most "
                f"{cpg['max']:g}; the deepest open representative reached {n(c['deepest_open'])} "
                f"heaps. The campaign has had {len(c['sittings']):,} sittings so far, "
                f"{sum(x['seconds'] for x in c['sittings']):,.0f} s of wall time in all ("
                + ", ".join(f"{x['seconds']:,.0f} s and {x['tasks']:,} tasks on {x['workers']} workers"
                            for x in c["sittings"])
                + f"); this run computed {r['this_run']['computed']['campaign']:,} of its tasks in "
                f"{r['this_run']['seconds']['campaign']:,.0f} s."
            ),
        ]
    return L


def table_page(r: dict) -> str:
    """Every code of the longest digits: its status, certificate or depth reached, sparse
    statistics, and the ``grundy settle`` command that computes it again."""
    c = r["campaign"]
    cols = c["table_columns"]
    d = r["digits"]
    words = {"survey": "survey", "budget": "budget", "campaign": "here", "open": "open"}
    L = [
        f"# Every code of {d} digits",
        "",
        (
            "Generated by `python docs/findings/four_digits.py` with [four_digits.md](../four_digits.md), "
            f"from the same run: each code's deepest state. *survey*: settled by the survey of "
            f"{r['long_heaps']:,} heaps; *budget*: by {r['budget_cpu_seconds']:g} CPU seconds a code; "
            "*here*: by the campaign; *open*: "
            "the depth reached, with the mask that makes the fewest heaps rare there (the engine's own, "
            "or a better one found as the step ended; `+position`: the class depends on the "
            "heap's parity too; *dense*: the step ran without one), its rare heaps and the last of them. *game*: the code whose "
            "values it has by the rules of the two codes, or has moved by one or two heaps; *class*: its representative. The "
            "command computes the row again (to the window, or to the depth reached)."
        ),
        "",
        "| code | status | start | period | window | depth | mask | rare heaps | last rare | largest | game | class | command |",
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|---|",
    ]
    for code, row in c["table"].items():
        if digits_of(code) != d:
            continue
        x = dict(zip(cols, row, strict=True))
        settled = x["status"] != "open"
        depth = x["window"] if settled else x["heaps"]
        L.append(
            f"| {code} | {words[x['status']]} | {n(x['start'])} | {n(x['period'])} | "
            f"{n(x['window'])} | {'' if settled else n(x['heaps'])} | {mask_cell(x['mask'], x['position'])} | "
            f"{n(x['rare_heaps'])} | {n(x['last_rare'])} | {n(x['max'])} | {x['game'] or ''} | "
            f"{x['rep'] or ''} | `grundy settle {code} --max-heaps {depth}` |"
        )
    return "\n".join(L) + "\n"


def frontier_figure(camp: campaign.Campaign, where: Path) -> None:
    """The open games: depth reached against the last rare heap, with the line below which rare
    heaps count as having stopped arriving."""
    games = [r for r in camp.games if not r["settled"] and r["last_rare"]]
    fig, ax = subplots(figsize=(6, 4.5))
    for label, pts in (("representatives", [r for r in games if r["rep"] == r["code"] and not r["shift"]]),
                       ("members", [r for r in games if r["rep"] != r["code"]]),
                       ("a leader's values moved", [r for r in games if r["shift"]])):  # fmt: skip
        ax.scatter([r["heaps"] for r in pts], [r["last_rare"] for r in pts], s=8, alpha=0.6, label=label)
    top = max([camp.plan.floor, *(r["heaps"] for r in games)])
    xs = np.array([camp.plan.first, top])
    ax.plot(xs, xs, color="0.6", lw=0.8, label="last rare heap = depth")
    ax.plot(xs, xs / camp.plan.quiet_ratio, color="0.3", lw=0.8, ls="--",
            label=f"depth / {camp.plan.quiet_ratio}: rare heaps stopped below")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("depth reached (heaps)")
    ax.set_ylabel("last rare heap")
    ax.legend(frameon=False, fontsize=7)
    ax.set_title(f"{len(games):,} open games")
    save(fig, where / "frontier.png")


def page(result: dict) -> str:
    """The Markdown page, every number taken from ``result``."""
    r = result
    t, st, lit, same, chk = (r["tallies"], r["settling"], r["literature"], r["same_games"],
                             r["checks"])  # fmt: skip
    a, b, c = t["shorter"], t["short"], t["long"]
    v = {k: WORDS[k][x] if k in WORDS else x for k, x in r["verdict"].items()}
    d, sd = r["digits"], r["shorter_digits"]
    L = [
        f"# The reading study one digit further: every code of 1..{d} digits",
        "",
        (
            f"Generated by `python docs/findings/four_digits.py` from nothing (catalogues and "
            f"settlements kept in the cache). The earlier study of readings "
            f"([unsettled.md](unsettled.md), [arithmetic.md](arithmetic.md)) covered the "
            f"{a['codes']:,} codes of 1..{sd} digits; this page reads all {b['codes']:,} codes of "
            f"1..{d} digits, settles what a sweep leaves open, and checks every period it reports "
            "twice."
        ),
        "",
        (
            f"**The campaign at depth (below) is not finished**: {r['campaign']['totals']['done']:,} of "
            f"its {r['campaign']['totals']['codes']:,} codes are done, after "
            f"{r['campaign']['totals']['cpu_seconds']:,.1f} CPU seconds; the rest, and what they would "
            "cost, are stated there."
            if r["campaign"]["totals"]["remaining"] else
            f"The campaign at depth (below) is finished: every one of its "
            f"{r['campaign']['totals']['codes']:,} codes settled or stopped at its stated frontier."
        ),
        "",
        "## Tallies: does one more digit make a sweep more often wrong?",
        "",
        (
            f"The same survey code path at {r['short_heaps']:,} heaps on 1..{sd} and 1..{d} "
            f"digits, and at {r['long_heaps']:,} heaps on 1..{d} digits. Readings are scored on "
            "the settled codes only, each read up to its own certificate depth (an unsettled "
            "code has no known truth to score against)."
        ),
        "",
        *tally_table(r),
        "",
        (
            f"At {r['short_heaps']:,} heaps one more digit settles {v['settled_share']} share of the codes "
            f"({pct(b['settled_share'])} against {pct(a['settled_share'])}) and, on those it "
            f"settles, makes **{v['false_per_settled']}** false readings per settled code "
            f"({b['false_per_settled']:.2f} against {a['false_per_settled']:.2f}); "
            f"{v['right_first_share']} codes are right from their first reading "
            f"({pct(b['right_first_share'])} against {pct(a['right_first_share'])}) of those settled. "
            f"A stricter reader is fooled {v['believed_3']} at r = 3 "
            f"({pct(b['believed_share'][3])} of false readings against "
            f"{pct(a['believed_share'][3])}) and {v['believed_4']} at r = 4 "
            f"({pct(b['believed_share'][4])} against {pct(a['believed_share'][4])}); "
            f"the most convincing false reading got {v['max_reach']} "
            f"({b['max_reach']:.3f} of its window against {a['max_reach']:.3f}). "
            f"No false reading reached its window in any of the three surveys "
            f"({a['reached_window']}, {b['reached_window']}, {c['reached_window']}): none "
            "could, that would make it a theorem."
        ),
        "",
        (
            f"Read to {r['long_heaps']:,} heaps, {v['deeper_settled']:,} more codes of 1..{d} "
            f"digits settle, and scoring them adds {v['deeper_false']:,} false readings: "
            f"{v['deeper_false_per_code']:.1f} per added code, against "
            f"{b['false_per_settled']:.2f} per code settled by {r['short_heaps']:,} heaps. "
            + ("The codes that need a deeper sweep are those a sweep gets wrong most often."
               if r["verdict"]["deeper_false_per_code"] > b["false_per_settled"]
               else "The codes that need a deeper sweep are not those a sweep gets wrong most "
               "often.")
        ),
        "",
        "![statuses and believed false readings](four_digits/tallies.png)",
        "",
        "![how far false readings got](four_digits/reach.png)",
        "",
        "False readings by period:",
        "",
        "| period | " + " | ".join(label(r, k) for k in ("shorter", "short", "long")) + " |",
        "|---:|---:|---:|---:|",
    ]
    periods = sorted({int(p) for x in (a, b, c) for p in x["false_by_period"]})
    L += [
        f"| {p:,} | " + " | ".join(f"{x['false_by_period'].get(str(p), x['false_by_period'].get(p, 0)):,}"
                                   for x in (a, b, c)) + " |"
        for p in periods
    ]  # fmt: skip
    L += [
        "",
        f"The most convincing false readings at {r['long_heaps']:,} heaps:",
        "",
        "| code | start | period | held to | window | reach |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    L += [
        f"| {x['code']} | {x['start']:,} | {x['period']:,} | {x['held_to']:,} | {x['window']:,} | "
        f"{x['reach']:.3f} |"
        for x in c["most_convincing"]
    ]
    L += [
        "",
        "## Settling what a sweep leaves open",
        "",
        (
            f"The {st['codes']:,} codes unsettled at {r['long_heaps']:,} heaps ({st['growing']:,} "
            f"growing, {st['bounded_unsettled']:,} bounded) went to `grundy settle` "
            f"(`grundy.readings.settle.settle`) with a budget of **{r['budget_cpu_seconds']:g} CPU seconds "
            f"per code** beyond the survey (each resumes from the survey's {r['long_heaps']:,} "
            f"values; at most {r['max_heaps']:,} heaps), on {r['workers']} workers: "
            f"{st['cpu_seconds_total']:,} CPU seconds in all. The budget is checked between the "
            f"engine's chunks, so a code may pass it by one chunk (the most any code used: "
            f"{st['cpu_seconds_max']:g} s). Each code's values and the CPU seconds spent are kept, "
            "so a larger budget later spends only the difference. "
            f"**{st['settled']:,} settle** ({st['settled_growing']:,} of them growing at "
            f"{r['long_heaps']:,} heaps) and **{st['open']:,} stay open**."
        ),
    ]
    if st["settled"]:
        L += [
            "",
            (
                f"The longest preperiod settled is {st['largest_start']:,} heaps, the longest "
                f"period {st['largest_period']:,}, the deepest certificate "
                f"{st['largest_window']:,} heaps. The most common periods: "
                + ", ".join(f"{p:,} ({n:,} codes)" for p, n in st["period_counts"])
                + "."
            ),
            "",
            "![start and period](four_digits/settled.png)",
            "",
            f"The {len(st['longest_preperiods'])} longest preperiods within the budget:",
            "",
            "| rank | code | start | period | window | heaps computed | CPU s |",
            "|---:|---|---:|---:|---:|---:|---:|",
        ]
        L += [
            f"| {i} | {x['code']} | {x['start']:,} | {x['period']:,} | {x['window']:,} | "
            f"{x['heaps']:,} | {x['cpu_seconds']:g} |"
            for i, x in enumerate(st["longest_preperiods"], 1)
        ]
        L += [
            "",
            "The longest periods:",
            "",
            "| code | start | period | window |",
            "|---|---:|---:|---:|",
        ]
        L += [
            f"| {x['code']} | {x['start']:,} | {x['period']:,} | {x['window']:,} |"
            for x in st["longest_periods"]
        ]
    h = st["open_heaps"]
    if st["open"]:
        L += [
            "",
            (
                f"The {st['open']:,} open codes reached between {h['min']:,} and {h['max']:,} "
                f"heaps (median {h['median']:,.0f}) within the budget; {st['open_dense']:,} were still "
                "on the dense kernel (no mask paid) when it ran out. The masks in use for the others, "
                "most common first: "
                + ", ".join(f"{m} ({n:,})" for m, n in st["open_masks"].items())
                + "."
            ),
            "",
            "![heaps reached and rare heaps](four_digits/open.png)",
            "",
            (
                f"The {len(st['open_deepest'])} codes computed deepest within the budget and still "
                "open there:"
            ),
            "",
            f"| code | at {r['long_heaps']:,} heaps | depth reached | mask | rare heaps | last rare | largest value |",
            "|---|---|---:|---|---:|---:|---:|",
        ]
        L += [
            f"| {x['code']} | {x['survey'].replace('_', ', ')} | {x['heaps']:,} | "
            + (f"{x['mask']}{'+position' if x['position'] else ''} | {x['rare_heaps']:,} | "
               f"{'' if x['last_rare'] is None else format(x['last_rare'], ',')} | " if x["mask"]
               else "dense | | | ")
            + f"{x['max']:,} |"
            for x in st["open_deepest"]
        ]  # fmt: skip
    L += campaign_section(r)
    covered = lit["rows_with_digits"] or lit["lookup_with_digits"]
    L += [
        "",
        "## Against the literature",
        "",
        (
            f"The published tables shipped with the repository ([src/grundy/data/README.md](../../src/grundy/data/README.md): "
            f"{lit['published_rows']:,} games, and a lookup of equivalent games for "
            f"{lit['lookup_codes']:,} codes) hold **{lit['rows_with_digits']} games and "
            f"{lit['lookup_with_digits']} lookup entries of {d} digits**"
            + (
                ": no published source in the repository covers a code of "
                f"{d} digits. For the codes of 1..{sd} digits"
                if not covered
                else f". For the codes of 1..{sd} digits and the {lit['listed']:,} of {d} listed"
            )
            + ", [unsettled.md](unsettled.md) compares every period and start with the published "
            "lists (and [s354.md](s354.md) the deepest one); here, the final outcome of each of "
            f"these {lit['direct_codes']:,} codes (settled at the survey, by settling, or open) "
            "against the published entry of its equivalent game:"
        ),
        "",
        "| outcome against the published entry | codes |",
        "|---|---:|",
    ]
    L += [f"| {k} | {n:,} |" for k, n in lit["direct_against"].items()]
    if lit["via_shorter"]:
        L += [
            "",
            (
                f"Of the other codes of {d} digits, {lit['via_shorter']:,} have the same sequence "
                f"to {r['long_heaps']:,} heaps as a shorter code (next section), so the published "
                "entry of that code's equivalent game speaks for them too:"
            ),
            "",
            "| outcome against the shorter code's published entry | codes |",
            "|---|---:|",
        ]
        L += [f"| {k} | {n:,} |" for k, n in lit["via_against"].items()]
    L += [
        "",
        (
            "A period that differs from a published one: "
            + (", ".join(lit["disagreeing"]) if lit["disagreeing"] else "none")
            + ". "
            + (
                f"Open here, solved there ({', '.join(lit['open_but_solved'])}) means only that "
                "the budget ran out first. "
                if lit["open_but_solved"]
                else ""
            )
            + (
                "**Settled here, unsolved there** (codes the published lists give as open, and "
                "this run settles; each game's certificate and its second check are in the "
                "campaign section): "
                + "; ".join(f"{x['code']} (listed as {x['listed_as']} in "
                            f"{x['source']}): period "
                            f"{x['period']:,} from heap {x['start']:,}" for x in lit["settled_unsolved"])
                + ". "
                if lit["settled_unsolved"]
                else "Settled here, unsolved there would be a code this run settles that the lists "
                "give as open. "
            )
            + (
                f"**The remaining {lit['new']:,} codes of {d} digits have no published result in "
                f"these tables: the {lit['new_settled']:,} settled here and the "
                f"{lit['new_open']:,} open are new as far as they go** (sources outside the "
                "repository, such as Flammenkamp's pages, were not compared here)."
                if lit["new"]
                else f"Every code of {d} digits has a published result to compare with."
            )
        ),
        "",
        "## Same games",
        "",
        (
            f"Codes whose values are identical to {r['long_heaps']:,} heaps (the digest of the "
            f"stored values) form **{same['distinct']:,} distinct sequences among "
            f"{same['codes']:,} codes**; {same['classes_shared']:,} classes hold more than one "
            f"code ({same['codes_in_shared']:,} codes). {same['proven_classes']:,} of those "
            f"classes ({same['proven_codes']:,} codes) are settled within {r['long_heaps']:,} heaps "
            "in every member, so their members are the same game for ever (identical values "
            "give the same reading, certified in each: the same period from the same start). "
            f"Of the codes of {d} digits, {same['as_shorter']:,} repeat a shorter code's sequence "
            f"and {same['new_only']:,} do not; {same['distinct_new']:,} sequences appear only "
            f"at {d} digits."
        ),
        "",
        "| class size | classes |",
        "|---:|---:|",
    ]
    L += [f"| {k} | {n:,} |" for k, n in same["size_counts"].items()]
    L += [
        "",
        "![class sizes](four_digits/classes.png)",
        "",
        "The largest classes (the JSON lists every class):",
        "",
        "| codes | first members |",
        "|---:|---|",
    ]
    L += [f"| {x['size']:,} | {', '.join(x['codes'])} |" for x in same["largest"]]
    L += [
        "",
        (
            f"Published equivalences exist for the codes of 1..{sd} digits (the lookup names an "
            f"equivalent game for each): they make {same['published_pairs']:,} pairs of codes, "
            f"identical sequences make {same['same_pairs']:,}, and {same['both_pairs']:,} pairs are "
            "in both. "
            "A published pair with different sequences here is an equivalence up to a shift of "
            "heaps (a game that may not take a heap of one counter is listed as its equivalent "
            f"with every heap one smaller). {same['ours_not_published_count']:,} pairs have "
            "identical sequences here but different published equivalents"
            + (
                " (the first: " + "; ".join(" and ".join(p) for p in same["ours_not_published"]) + ")."
                if same["ours_not_published"]
                else "."
            )
        ),
        "",
        "## Certificates checked twice",
        "",
        (
            f"Every period this page reports ({chk['periods']:,}: the survey's at "
            f"{r['long_heaps']:,} heaps and the settlements') was computed again to twice its "
            "window with another engine: the dense kernel for codes the sparse engine computed, "
            "the plain-Python reference for codes without two-heap moves (computed by the dense "
            f"kernel), and, where twice the window passes {r['dense_limit']:,} heaps, the sparse "
            "kernel under a forced mask other than the one used where that costs at most "
            f"{r['other_work']:,.0f} heap-by-rare-heap steps (else the run's own, forced from the "
            "first heap, through the engine's other driver). By engine: "
            + ", ".join(f"{e} {n:,}" for e, n in chk["by_engine"].items())
            + f". **The period held to twice its window for {chk['held']:,} of {chk['periods']:,}**, "
            f"and the values agreed with those it was read on for {chk['agreed']:,}; the deepest "
            f"check computed {chk['deepest']:,} heaps. One caveat: the sparse engine runs the "
            "dense kernel itself over stretches where no mask pays (most of the first few "
            "thousand heaps of many codes), so for those stretches the dense check repeats the "
            "kernel that computed them; the reference and forced-mask checks share no kernel "
            "with the first computation."
        ),
    ]
    if chk["forced_mask"]:
        L += ["", "Checked with the sparse kernel under a forced mask (dense too slow here): "
              + ", ".join(f"{x['code']} ({x['engine']}, {x['depth']:,} heaps)"
                          for x in chk["forced_mask"]) + "."]  # fmt: skip
    if chk["failed"]:
        L += ["", "**Failed:** " + ", ".join(x["code"] for x in chk["failed"]) + "."]
    w = {k: x["seconds"] for k, x in r["stage_seconds"].items()}
    L += [
        "",
        "## The run",
        "",
        (
            f"Wall time {r['total_seconds']:,.0f} s on {r['workers']} worker processes of a "
            f"machine shared with other work: surveys {w['survey_shorter']:,.0f} s, "
            f"{w['survey_short']:,.0f} s and {w['survey_long']:,.0f} s, settling "
            f"{w['settle']:,.0f} s, checks {w['check']:,.0f} s; budget "
            f"{r['budget_cpu_seconds']:g} CPU seconds per code. Each code runs on one core, and "
            "the workers keep every core busy with codes side by side: the threads inside one code "
            "that the frontier issue asked for were not built ([frontier](../frontier.md) says what "
            "was tried), and with more open games than cores they would add no throughput. "
            + ("Each stage was computed whole, from an empty cache (the times are those of "
               "that run; a rerun reuses the cache and redoes only the page)."
               if r["from_nothing"] else
               "Some stage was resumed from an interrupted run, so its time is the sum of the "
               "parts, not that of a run from nothing.")
        ),
    ]  # fmt: skip
    book = r["archive"]
    L += [
        "",
        (
            f"Every record of the run ({book['saved']:,}: each settlement, campaign step, check and "
            f"parting) and the cache's side files travel with this page in `{book['path']}` "
            f"({book['bytes'] / 1024:,.0f} KiB). A run on a machine without the cache restores "
            "them and computes again only the surveys and the values that a further step needs"
            + (f"; this run restored {book['restored']:,} of them." if book["restored"] else ".")
        ),
    ]
    return "\n".join(L) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where the page goes (docs/findings/)")
    ap.add_argument("--quick", action="store_true", help="codes of 1..2 digits, 0.05 s a code")
    ap.add_argument("--budget", type=float, help="CPU seconds per code (default 0.15, quick 0.05)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2; 1: serial)")
    ap.add_argument("--cache", type=Path, help="default: $GRUNDY_CACHE/findings")
    ap.add_argument("--scheduler", help="a Dask scheduler's address to run on instead of --workers "
                    "(its workers must see the cache)")
    ap.add_argument("--campaign-hours", type=float,
                    help="wall hours for the campaign at depth (default: until it is done; 0: none, "
                    "the page from what is stored); Ctrl-C or SIGTERM stops it and writes the page")
    args = ap.parse_args(argv)
    budget = args.budget or (0.05 if args.quick else 0.15)
    if not budget > 0 or args.workers < 1:
        ap.error("the budget and the number of workers must be positive")
    if args.campaign_hours is not None and args.campaign_hours < 0:
        ap.error("the campaign's hours must not be negative")
    cache = args.cache or cache_dir() / "findings"
    seconds = None if args.campaign_hours is None else args.campaign_hours * 3600
    signal.signal(signal.SIGTERM, stop)
    result = run(args.out, 2 if args.quick else 4, budget, cache, args.workers, seconds, args.scheduler)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "four_digits.json").write_text(compact(json.dumps(result, indent=1, ensure_ascii=False)) + "\n")
    (args.out / "four_digits.md").write_text(page(result))
    (args.out / "four_digits" / "table.md").write_text(table_page(result))


SCALARS = re.compile(r'\[\n\s*((?:-?[\d.]+|true|false|null|"[^"\\\n\[\]{}]*")(?:,\n\s*(?:-?[\d.]+|true|false|null|"[^"\\\n\[\]{}]*"))*)\n\s*\]')


def compact(text: str) -> str:
    """Indented JSON with each list of plain scalars on one line (the table's rows)."""
    return SCALARS.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",\n")) + "]", text)


def stop(signum, frame) -> None:
    """SIGTERM as Ctrl-C: the campaign stops and the page is written from what it stored."""
    raise KeyboardInterrupt


if __name__ == "__main__":
    main()
