"""Issue 8, question 3: which rare classes thin, and does the answer at 20,000 heaps survive deeper?

    python docs/findings/rare_classes.py --out docs/findings/              # 1..3 digits, 20,000 and 10^6 heaps
    python docs/findings/rare_classes.py --out /tmp/f --quick              # 1..2 digits, 3,000 and 12,000 heaps

The growing codes are those the survey (docs/surveys.md) calls growing at 2,400
heaps.  Each is computed (sparse engine where it pays) to the shallow depth
and then, by doubling, towards the deep one, with a CPU-time budget per code
(``--budget``): a code that runs out of time stops at its last checkpoint,
and the page says at what depth.  Every class (every mask below ``2**bits`` of the
largest value, both parities; docs/rare-classes.md) is tried at both depths with the
rule of :func:`grundy.rare.thins`.  Sequences are kept in the cache
(``$GRUNDY_CACHE/findings-rare/``) with :func:`grundy.engine.checkpoint.compute_resumable`,
with a record per code, so a rerun skips the codes already done and a larger
budget continues where the last run stopped.  Writes ``rare_classes.md``,
``rare_classes.json`` and the figures under ``rare_classes/``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from grundy.catalogue.survey import survey_code
from grundy.codes import family
from grundy.engine.checkpoint import cache_dir, code_path, compute_resumable
from grundy.files import write_json
from grundy.present.figures import save, subplots
from grundy.rare import stretch_counts, thins
from grundy.sequence import Sequence

SURVEY_HEAPS = 2400
SIGMAS = 2.0
SPARSE = 0.01
"""A thinning class is called sparse when at most this share of the last stretch is rare."""
CHECKPOINT = 1.0
"""Seconds between checkpoints of a deep run, so a code that runs out of time loses at most this."""
FULL = {"digits": 3, "shallow": 20_000, "deep": 1_000_000, "budget": 10.0}
QUICK = {"digits": 2, "shallow": 3_000, "deep": 12_000, "budget": 5.0}
OUTCOMES = ("still thins", "emptied", "no longer thins")
"""What a class that thins at the shallow depth does at the deep one: it has no rare heap left in
the last two thirds of the range (emptied), or else thins again, or neither (the shallow verdict
did not survive)."""


class OutOfTime(Exception):
    """Raised from the progress callback when a code has used its CPU-time budget."""


def growing_codes(digits: int) -> list[str]:
    """The codes of 1..``digits`` digits that the survey calls growing at 2,400 heaps."""
    return [
        str(c) for c in family(digits) if survey_code(c, SURVEY_HEAPS)["status"] == "growing"
    ]


def deepen(code: str, shallow: int, deep: int, budget: float, cache: Path) -> dict:
    """Grow ``code``'s cached sequence to ``shallow``, then by doubling towards ``deep`` within
    ``budget`` CPU seconds in all (past it, the run stops at its last checkpoint; a rerun with a
    larger budget spends only the difference); returns the code's record."""
    record = code_path(cache, code, ".record.json")
    path = code_path(cache, code)
    spent = 0.0
    if record.exists():
        done = json.loads(record.read_text())
        if done["depth"] >= deep or (done["deep"] == deep and done["budget"] >= budget):
            return done
        spent = done["seconds"] if done["deep"] == deep else 0.0
    t0 = time.process_time() - spent

    def check(_):
        if time.process_time() - t0 > budget:
            raise OutOfTime

    seq, _, _ = compute_resumable(code, shallow, path)
    while seq.depth < deep:
        try:
            seq, _, _ = compute_resumable(
                code, min(2 * seq.depth, deep), path, every=CHECKPOINT, on_progress=check
            )
        except OutOfTime:
            seq = Sequence.load(path)
            break
    done = {
        "code": code,
        "depth": seq.depth,
        "deep": deep,
        "budget": budget,
        "seconds": round(time.process_time() - t0, 2),
    }
    write_json(record, done)
    return done


def outcome(deep_counts: tuple[int, int, int]) -> str:
    """What a class thinning at the shallow depth does at the deep one (see :data:`OUTCOMES`)."""
    if deep_counts[1] == deep_counts[2] == 0:
        return OUTCOMES[1]
    if bool(thins(*deep_counts, SIGMAS)):
        return OUTCOMES[0]
    return OUTCOMES[2]


def study(code: str, shallow: int, deep: int, budget: float, cache: Path) -> dict:
    """One code: its depth reached, and the classes thinning at the shallow and the reached depth."""
    done = deepen(code, shallow, deep, budget, cache)
    values = Sequence.load(code_path(cache, code)).values
    reached = min(done["depth"], values.size)
    low, high = values[:shallow], values[:reached]
    at_shallow, at_deep = stretch_counts(low), stretch_counts(high)
    thin_s, thin_d = at_shallow.thinning(SIGMAS), at_deep.thinning(SIGMAS)
    sparse_s = {k for k in thin_s if at_shallow.counts(*k)[2] <= SPARSE * at_shallow.length}
    sparse_d = {k for k in thin_d if at_deep.counts(*k)[2] <= SPARSE * at_deep.length}
    fate = dict.fromkeys(OUTCOMES, 0)
    fate_sparse = dict.fromkeys(OUTCOMES, 0)
    lost = []
    for m, q in sorted(thin_s):
        c = at_deep.counts(m, q)
        fate[outcome(c)] += 1
        if (m, q) in sparse_s:
            fate_sparse[outcome(c)] += 1
        if outcome(c) == OUTCOMES[2]:
            lost.append(
                {
                    "mask": m,
                    "parity": q,
                    "shallow": list(at_shallow.counts(m, q)),
                    "deep": list(c),
                }
            )
    rarest = min(thin_d, key=lambda k: (at_deep.counts(*k)[2], k), default=None)
    return {
        "code": code,
        "depth": int(reached),
        "reached_deep": bool(reached >= deep),
        "cpu_seconds": done["seconds"],
        "budget": done["budget"],
        "max_shallow": int(low.max()),
        "max_deep": int(high.max()),
        "classes_tried_shallow": 2 * (at_shallow.odd.shape[1] - 1),
        "classes_tried_deep": 2 * (at_deep.odd.shape[1] - 1),
        "thin_shallow": len(thin_s),
        "thin_deep": len(thin_d),
        "outcomes": fate,
        "sparse_shallow": len(sparse_s),
        "sparse_deep": len(sparse_d),
        "outcomes_sparse": fate_sparse,
        "new_deep": len(thin_d - thin_s),
        "lost": lost[:5],
        "rarest_deep": None
        if rarest is None
        else {
            "mask": rarest[0],
            "parity": rarest[1],
            "thirds": list(at_deep.counts(*rarest)),
        },
    }


def summarise(rows: list[dict], args: dict) -> dict:
    """Every number the page states."""
    deep = [r for r in rows if r["reached_deep"]]
    total = {k: sum(r["outcomes"][k] for r in rows) for k in OUTCOMES}
    total_deep = {k: sum(r["outcomes"][k] for r in deep) for k in OUTCOMES}
    return dict(
        **args,
        sigmas=SIGMAS,
        survey_heaps=SURVEY_HEAPS,
        growing_codes=len(rows),
        reached_deep=len(deep),
        stopped_early=len(rows) - len(deep),
        budgets=sorted(Counter(r["budget"] for r in rows).items()),
        cpu_seconds=round(sum(r["cpu_seconds"] for r in rows), 1),
        codes_thinning_shallow=sum(1 for r in rows if r["thin_shallow"]),
        codes_thinning_deep=sum(1 for r in rows if r["thin_deep"]),
        classes_thinning_shallow=sum(r["thin_shallow"] for r in rows),
        classes_thinning_deep=sum(r["thin_deep"] for r in rows),
        outcomes=total,
        outcomes_reached_deep=total_deep,
        new_deep=sum(r["new_deep"] for r in rows),
        codes_all_survive=sum(
            1 for r in rows if r["thin_shallow"] and not r["outcomes"][OUTCOMES[2]]
        ),
        codes_some_lost=sum(1 for r in rows if r["outcomes"][OUTCOMES[2]]),
        sparse=SPARSE,
        classes_sparse_shallow=sum(r["sparse_shallow"] for r in rows),
        classes_sparse_deep=sum(r["sparse_deep"] for r in rows),
        codes_sparse_shallow=[r["code"] for r in rows if r["sparse_shallow"]],
        codes_sparse_deep=[r["code"] for r in rows if r["sparse_deep"]],
        outcomes_sparse={k: sum(r["outcomes_sparse"][k] for r in rows) for k in OUTCOMES},
        codes_sparse_lost=[r["code"] for r in rows if r["outcomes_sparse"][OUTCOMES[2]]],
        codes=rows,
    )


def figures(res: dict, out: Path) -> list[str]:
    """Classes thinning per code at both depths, and the depth each code reached."""
    rows = res["codes"]
    names = []
    fig, ax = subplots(figsize=(6, 5))
    for reached, colour, label in (
        (True, "tab:blue", f"reached {res['deep']:,}"),
        (False, "tab:orange", "stopped earlier"),
    ):
        sel = [r for r in rows if r["reached_deep"] == reached]
        ax.scatter(
            [r["thin_shallow"] + 1 for r in sel],
            [r["thin_deep"] + 1 for r in sel],
            s=14,
            c=colour,
            alpha=0.7,
            label=label,
        )
    top = max([r["thin_shallow"] for r in rows] + [r["thin_deep"] for r in rows] + [1]) + 1
    ax.plot([1, top], [1, top], color="grey", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"classes thinning at {res['shallow']:,} heaps (+1)")
    ax.set_ylabel("classes thinning at the depth reached (+1)")
    ax.set_title("Rare classes that thin, per growing code (both parities)")
    ax.legend()
    names.append(str(save(fig, out / "thinning_per_code.png").name))

    fig, ax = subplots(figsize=(7, 3.5))
    depths = sorted(r["depth"] for r in rows)
    ax.plot(depths, np.arange(1, len(depths) + 1), drawstyle="steps-post")
    ax.set_xscale("log")
    ax.set_xlabel("depth reached (heaps)")
    ax.set_ylabel("growing codes")
    ax.set_title("Depth reached within the CPU-time budget")
    names.append(str(save(fig, out / "depth_reached.png").name))
    return names


def page(res: dict, figs: list[str]) -> str:
    """The Markdown page, every number taken from ``res``."""
    o, od, os_ = res["outcomes"], res["outcomes_reached_deep"], res["outcomes_sparse"]
    pct = f"{res['sparse']:.0%}"
    lost = res["codes_sparse_lost"]
    lost_codes = f" (on {', '.join(f'`{c}`' for c in lost)})" if lost else ""
    budgets = (
        f"{res['budgets'][0][0]:g} CPU seconds a code"
        if len(res["budgets"]) == 1
        else "a CPU-time budget per code, in all over resumed runs (the budget of the run that "
        "finished it: " + ", ".join(f"{b:g} s for {n} codes" for b, n in res["budgets"]) + ")"
    )
    shallow, deep = f"{res['shallow']:,}", f"{res['deep']:,}"
    stopped = sorted((r for r in res["codes"] if not r["reached_deep"]), key=lambda r: r["depth"])
    lines = [
        "# Which rare classes thin",
        "",
        (
            f"Issue 8, question 3. Generated by `python docs/findings/rare_classes.py"
            f"{' --quick' if res['quick'] else ''} --out docs/findings/`; every number below comes from "
            "`rare_classes.json`, written by the same run."
        ),
        "",
        "## Method",
        "",
        (
            f"The growing codes are the {res['growing_codes']} codes of 1..{res['digits']} digits that "
            f"the survey calls growing at {res['survey_heaps']:,} heaps. Each is computed to {shallow} "
            f"heaps and then, doubling, towards {deep} heaps (sparse engine where a mask pays), within "
            f"{budgets}. A class is a mask and a parity (docs/rare-classes.md); every "
            "mask below `2**bits` of the largest value is tried with both parities. A class **thins** "
            "when its rare heaps fall from each third of the range to the next by more than "
            f"{res['sigmas']:g} standard deviations (`grundy.rare.thins`). A class thinning at {shallow} "
            "heaps is then judged at the deepest depth the code reached: it is **emptied** (no rare "
            "heap in the last two thirds of the deeper range), or else it **still thins**, or it "
            "**no longer thins** (the shallow verdict did not survive)."
        ),
        "",
        "## Depth reached",
        "",
        (
            f"{res['reached_deep']} of the {res['growing_codes']} growing codes reached {deep} heaps; "
            f"{res['stopped_early']} stopped earlier, at the depth they could reach within the budget "
            f"({res['cpu_seconds']:,} CPU seconds in all for this run's records)."
        ),
        "",
        f"![depth reached]({res['name']}/{figs[1]})",
        "",
    ]
    if stopped:
        lines += [
            "Codes that stopped before " + deep + " heaps (code: depth reached):",
            "",
            ", ".join(f"`{r['code']}`: {r['depth']:,}" for r in stopped),
            "",
        ]
    lines += [
        "## Which classes thin",
        "",
        (
            f"At {shallow} heaps {res['codes_thinning_shallow']} codes have at least one thinning "
            f"class, {res['classes_thinning_shallow']:,} classes in all. At the depth reached "
            f"{res['codes_thinning_deep']} codes do, {res['classes_thinning_deep']:,} classes in all "
            f"({res['new_deep']:,} of them did not thin at {shallow})."
        ),
        "",
        f"![thinning per code]({res['name']}/{figs[0]})",
        "",
        f"## Does the answer at {shallow} heaps survive?",
        "",
        (
            f"Of the {res['classes_thinning_shallow']:,} classes thinning at {shallow} heaps, "
            f"{o[OUTCOMES[0]]:,} still thin at the depth reached, {o[OUTCOMES[1]]:,} are emptied, and "
            f"{o[OUTCOMES[2]]:,} no longer thin. Restricted to the {res['reached_deep']} codes that "
            f"reached {deep} heaps: {od[OUTCOMES[0]]:,} still thin, {od[OUTCOMES[1]]:,} emptied, "
            f"{od[OUTCOMES[2]]:,} no longer thin. {res['codes_all_survive']} codes keep every class "
            f"they had at {shallow}; {res['codes_some_lost']} lose at least one. So for "
            f"{o[OUTCOMES[2]] / max(res['classes_thinning_shallow'], 1):.0%} of the classes the "
            f"answer at {shallow} heaps does not survive."
        ),
        "",
        (
            f"Only {res['classes_sparse_shallow']:,} of the {res['classes_thinning_shallow']:,} "
            f"classes thinning at {shallow} heaps are **sparse** (at most {pct} of the last "
            "stretch rare), on "
            f"{len(res['codes_sparse_shallow'])} codes; the others still hold more than {pct} of "
            "the heaps while they fall, as a class defined by high bits does while a growing "
            f"code's values drift upwards. Of the sparse ones {os_[OUTCOMES[0]]:,} still thin at the depth "
            f"reached, {os_[OUTCOMES[1]]:,} are emptied and {os_[OUTCOMES[2]]:,} no longer thin"
            f"{lost_codes}. At the depth reached {res['classes_sparse_deep']:,} classes are sparse, "
            f"on {len(res['codes_sparse_deep'])} codes: "
            f"{', '.join(f'`{c}`' for c in res['codes_sparse_deep']) or 'none'}."
        ),
        "",
        "| code | depth reached | max value | thin at " + shallow + " | thin deeper | still thins "
        "| emptied | no longer thins | new | sparse at " + shallow + " | sparse deeper "
        "| rarest deeper (mask, parity: thirds) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in sorted(res["codes"], key=lambda r: (-r["thin_shallow"], r["code"])):
        if not (r["thin_shallow"] or r["thin_deep"]):
            continue
        f = r["outcomes"]
        rd = r["rarest_deep"]
        rare = (
            ""
            if rd is None
            else f"{rd['mask']}, {rd['parity']}: {'/'.join(map(str, rd['thirds']))}"
        )
        lines.append(
            f"| `{r['code']}` | {r['depth']:,} | {r['max_deep']} | {r['thin_shallow']} | "
            f"{r['thin_deep']} | {f[OUTCOMES[0]]} | {f[OUTCOMES[1]]} | {f[OUTCOMES[2]]} | "
            f"{r['new_deep']} | {r['sparse_shallow']} | {r['sparse_deep']} | {rare} |"
        )
    quiet = sum(1 for r in res["codes"] if not (r["thin_shallow"] or r["thin_deep"]))
    lines += ["", f"The other {quiet} growing codes have no thinning class at either depth.", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where the page goes (docs/findings/)")
    ap.add_argument("--quick", action="store_true", help="1..2 digits, 3,000 and 12,000 heaps")
    ap.add_argument("--budget", type=float, help="CPU seconds a code for the deep run")
    ap.add_argument(
        "--cache", type=Path, help="where sequences are kept (default: the grundy cache)"
    )
    a = ap.parse_args(argv)
    size = dict(QUICK if a.quick else FULL)
    if a.budget is not None:
        size["budget"] = a.budget
    name = "rare_classes"
    cache = (a.cache or cache_dir() / "findings-rare") / f"{size['digits']}-{size['shallow']}"
    cache.mkdir(parents=True, exist_ok=True)
    codes = growing_codes(size["digits"])
    rows = []
    for i, code in enumerate(codes, 1):
        rows.append(study(code, size["shallow"], size["deep"], size["budget"], cache))
        r = rows[-1]
        print(
            f"[{i}/{len(codes)}] {code}: {r['depth']:,} heaps, {r['cpu_seconds']} s, "
            f"thin {r['thin_shallow']} -> {r['thin_deep']}",
            file=sys.stderr,
            flush=True,
        )
    res = summarise(rows, dict(size, quick=a.quick, name=name))
    out = a.out
    figs = figures(res, out / name)
    res["figures"] = [f"{name}/{f}" for f in figs]
    (out / f"{name}.json").write_text(json.dumps(res, indent=1))
    (out / f"{name}.md").write_text(page(res, figs))
    print(f"wrote {out / (name + '.md')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
