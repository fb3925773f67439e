"""Issue 8, question 4: the codes a sweep to 2,400 heaps leaves unsettled, settled further.

    python docs/findings/unsettled.py --out docs/findings/            # 1..3 digits, 6 s a code
    python docs/findings/unsettled.py --out /tmp/f --quick            # 1..2 digits, 0.5 s a code

Surveys the family to 2,400 heaps (a catalogue in the cache, reused), settles
every code left unsettled with a CPU-time budget per code
(:func:`grundy.catalogue.campaign.settle_many`), and compares the outcome with the published lists of
solved, trivial and unsolved octal games (:mod:`grundy.catalogue.published`; their
sources are in ``src/grundy/data/README.md``).  Writes ``unsettled.md``,
``unsettled.json`` and the figures under ``unsettled/``.  Each code's outcome is kept in the
survey's catalogue in the cache (``$GRUNDY_CACHE/findings/``), so a rerun skips the codes
already done (those an earlier version kept as JSON files are read too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from grundy.catalogue import published
from grundy.catalogue.campaign import MAX_HEAPS, SETTLEMENT_ANALYSIS, settle_many, settlement_entry
from grundy.catalogue.database import Catalogue
from grundy.catalogue.survey import run as survey_run
from grundy.codes import family, parse
from grundy.engine import compute, sparse
from grundy.engine.checkpoint import cache_dir, legacy_file_name
from grundy.present.figures import save, subplots

HERE = Path(__file__).resolve().parent
SURVEY_HEAPS = 2400


def earlier(cat: Catalogue, names: list[str], folder: Path, params: dict) -> None:
    """Store in ``cat`` the outcomes an earlier version of this script kept in ``folder``, one
    JSON file a code, for the codes ``cat`` has none of, so that they are not computed again."""
    have = settlement_entry(params["budget"], MAX_HEAPS, params).stored(cat)
    for name in names:
        path = folder / f"{legacy_file_name(parse(name))}.json"
        if name not in have and path.exists():
            cat.add_record("settlement", name, params, SETTLEMENT_ANALYSIS, json.loads(path.read_text()))


def row_of(record: dict) -> dict:
    """A stored settlement with its mask as the class's label (``30``), as the published tables
    write it; records of the earlier version hold the label already."""
    row = dict(record)
    if isinstance(row.get("mask"), int):
        row["mask"] = sparse.even_class(row["mask"], bool(row.get("position"))).label
    return row


def listed(code) -> tuple[str, published.Game | None]:
    """The name of ``code``'s equivalent game (the lookup table's, else the code's own) and its
    published entry (None when no list names it)."""
    game = published.equivalent(code) or code
    entry = published.game(game)
    return (entry.name if entry else str(game).replace("·", ".")), entry


def compare(row: dict) -> dict:
    """Our outcome against the published entry of the code's equivalent game.

    Returns the equivalent game, its published status and numbers, and every
    disagreement as a sentence.  Masks and rare counts are compared only where
    the code is itself the listed game (an equivalent game may shift heaps).
    """
    code = parse(row["code"])
    game, entry = listed(code)
    pub = entry.status if entry else "not listed"
    out = {"equivalent": game, "published": pub, "disagreements": []}
    say = out["disagreements"].append
    if entry is None:
        say(f"{game} is in none of the published lists")
        return out
    if pub in ("solved", "trivial"):
        out.update(published_start=entry.prefix, published_period=entry.period)
    if entry.mask is not None:
        out.update(
            published_mask=entry.mask.label,
            published_rare=entry.rare_heaps,
            published_last_rare=entry.last_rare,
        )
    if row["settled"] and pub == "unsolved":
        say(f"settled here, period {row['period']:,} from heap {row['start']:,}; listed unsolved")
    elif row["settled"]:
        if row["period"] != out["published_period"]:
            say(f"period {row['period']:,} here, {out['published_period']:,} published for {game}")
        if row["start"] != out["published_start"]:
            say(f"start {row['start']:,} here, {out['published_start']:,} published for {game}")
    elif pub in ("solved", "trivial"):
        say(
            f"open here within the budget ({row['heaps']:,} heaps); published {pub} for {game}: "
            f"period {out['published_period']:,} from heap {out['published_start']:,}"
        )
    if row["settled"] and row["mask"] is not None and entry.code == code and "published_mask" in out:
        if row["mask"] != out["published_mask"]:
            say(f"mask {row['mask']} here, {out['published_mask']} published")
        out["rare_offset"] = out["published_rare"] - row["rare_heaps"]
        if out["rare_offset"] not in (0, 1):
            say(
                f"{row['rare_heaps']} rare heaps here (heaps 1 and up), "
                f"{out['published_rare']} published"
            )
        if row["last_rare"] != out["published_last_rare"]:
            say(
                f"last rare heap {row['last_rare']:,} here, {out['published_last_rare']:,} published"
            )
    return out


MAX_SHIFT = 8


def shift(code, nimbers: str) -> int | None:
    """The ``o`` for which ``G(o), G(o+1), …`` of ``code`` spell the published ``nimbers``
    (digits in base 36, the period in parentheses), or None."""
    want = [int(c, 36) for c in nimbers if c not in "()"]
    values = compute(code, len(want) + MAX_SHIFT)
    return next((o for o in range(MAX_SHIFT) if values[o : o + len(want)].tolist() == want), None)


def swept_settled(swept: list[dict]) -> dict:
    """The codes the sweep settled, against the published period and start of their equivalent
    game; where the source gives the game's sequence, the start is checked against it too.

    A code whose values are the published sequence from heap ``o`` on has its period from
    heap ``prefix + o``, or from heap 1 where that is heap 0 (docs/periodicity.md); a sequence
    periodic from the source's heap 0 may be periodic from an earlier heap here (heaps
    below ``o`` have no place in the source's listing).
    """
    rows = [r for r in swept if r["status"] == "settled"]
    offsets: dict[str, list[str]] = {}
    out = {"codes": len(rows), "period_agrees": 0, "period_disagrees": [],
           "unlisted_or_unsolved": [], "sequence_checked": 0, "sequence_matches": 0,
           "start_explained": 0, "start_unexplained": []}  # fmt: skip
    for r in rows:
        code = parse(r["code"])
        _, entry = listed(code)
        if entry is None or entry.period is None:
            out["unlisted_or_unsolved"].append(r["code"])
            continue
        if entry.period != r["period"]:
            out["period_disagrees"].append(r["code"])
            continue
        out["period_agrees"] += 1
        key = str(r["start"] - entry.prefix)
        offsets.setdefault(key, []).append(r["code"] + ("*" if entry.code == code else ""))
        if entry.nimbers:
            out["sequence_checked"] += 1
            o = shift(code, entry.nimbers)
            if o is not None:
                out["sequence_matches"] += 1
                prefix = entry.prefix
                if r["start"] == max(1, prefix + o) or (prefix == 0 and r["start"] <= o):
                    out["start_explained"] += 1
                    continue
            out["start_unexplained"].append(r["code"])
    out["start_offsets"] = {k: offsets[k] for k in sorted(offsets, key=int)}
    out["start_offset_counts"] = {k: len(v) for k, v in out["start_offsets"].items()}
    return out


def run(out_dir: Path, digits: int, budget: float, cache: Path) -> dict:
    """Survey, settle the unsettled codes, compare; returns every number the page states."""
    cache.mkdir(parents=True, exist_ok=True)
    with Catalogue(cache / f"survey-{digits}-{SURVEY_HEAPS}.sqlite") as cat:
        survey_run(family(digits), cat, heaps=SURVEY_HEAPS)
        swept = list(cat.results(heaps=SURVEY_HEAPS, options={}))
        open_codes = [r for r in swept if r["status"] != "settled"]
        names = [r["code"] for r in open_codes]
        params = {"budget": budget}
        earlier(cat, names, cache / f"settle-{budget:g}s", params)
        t_start = time.monotonic()

        def show(row):
            what = (f"period {row['period']:,} from {row['start']:,}" if row["settled"]
                    else f"open at {row['heaps'] or 0:,} heaps")  # fmt: skip
            print(f"{row['code']:6} {what}  ({row['cpu_seconds']} s cpu, "
                  f"{time.monotonic() - t_start:.0f} s so far)", file=sys.stderr)  # fmt: skip

        settle_many(names, cat, seconds=budget, max_heaps=MAX_HEAPS, params=params, on_result=show)
        stored = {r["code"]: r for r in cat.records("settlement", params)}
    rows = []
    for r in open_codes:
        row = row_of(stored[r["code"]])
        row["survey_status"] = r["status"]
        row.update(compare(row))
        rows.append(row)
    settled = [r for r in rows if r["settled"]]
    result = {
        "digits": digits,
        "survey_heaps": SURVEY_HEAPS,
        "family": len(swept),
        "unsettled": len(open_codes),
        "growing": sum(r["survey_status"] == "growing" for r in rows),
        "bounded_unsettled": sum(r["survey_status"] == "bounded_unsettled" for r in rows),
        "budget_cpu_seconds": budget,
        "max_heaps": MAX_HEAPS,
        "settled": len(settled),
        "open": len(rows) - len(settled),
        "settled_growing": sum(r["survey_status"] == "growing" for r in settled),
        "largest_start": max((r["start"] for r in settled), default=None),
        "largest_period": max((r["period"] for r in settled), default=None),
        "largest_window": max((r["window"] for r in settled), default=None),
        "slowest_settled": sorted(
            ([r["code"], r["cpu_seconds"]] for r in settled), key=lambda x: -x[1]
        )[:3],
        "cpu_seconds_total": round(sum(r["cpu_seconds"] for r in rows), 1),
        "published_status": dict(Counter(r["published"] for r in rows)),
        "outcome_by_published": dict(
            Counter(f"{'settled' if r['settled'] else 'open'} / {r['published']}" for r in rows)
        ),
        "rare_count_heap0": [r["code"] for r in rows if r.get("rare_offset") == 1],
        "codes_disagreeing": sum(bool(r["disagreements"]) for r in rows),
        "disagreements": sum(len(r["disagreements"]) for r in rows),
        "codes": rows,
    }
    result["swept_settled"] = swept_settled(swept)
    figures(result, out_dir / "unsettled")
    return result


def figures(result: dict, where: Path) -> None:
    """Start against period of the codes settled here, outcome by published status, and how far
    the open codes got."""
    settled = [r for r in result["codes"] if r["settled"]]
    fig, ax = subplots(figsize=(6, 4.5))
    if settled:
        ax.scatter([r["start"] for r in settled], [r["period"] for r in settled], s=14)
        for r in settled:
            ax.annotate(r["code"], (r["start"], r["period"]), fontsize=6, alpha=0.7)
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("start (preperiod)")
    ax.set_ylabel("period")
    ax.set_title(f"{len(settled)} codes settled past {result['survey_heaps']:,} heaps")
    save(fig, where / "settled.png")

    cats = sorted({r["published"] for r in result["codes"]})
    fig, ax = subplots(figsize=(6, 3.5))
    for j, outcome in enumerate((True, False)):
        n = [
            sum(r["settled"] == outcome and r["published"] == c for r in result["codes"])
            for c in cats
        ]
        ax.bar([i + 0.4 * j for i in range(len(cats))], n, width=0.4,
               label="settled here" if outcome else "open here")  # fmt: skip
    ax.set_xticks([i + 0.2 for i in range(len(cats))], [f"published {c}" for c in cats])
    ax.set_ylabel("codes")
    ax.legend(frameon=False)
    ax.set_title(f"{result['unsettled']} codes unsettled at {result['survey_heaps']:,} heaps")
    save(fig, where / "published.png")

    fig, ax = subplots(figsize=(6, 4.5))
    for status in ("growing", "bounded_unsettled"):
        pts = [x for x in result["codes"] if not x["settled"] and x["survey_status"] == status]
        ax.scatter([x["heaps"] or 1 for x in pts], [x["rare_heaps"] if x["mask"] else 0 for x in pts],
                   s=12, label=status.replace("_", ", "))  # fmt: skip
    ax.set_xscale("log")
    ax.set_yscale("symlog")
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"heaps computed in {result['budget_cpu_seconds']:g} CPU seconds")
    ax.set_ylabel("rare heaps of the mask in use (0: dense)")
    ax.legend(frameon=False)
    ax.set_title(f"{result['open']} codes still open")
    save(fig, where / "open.png")


def here(x: dict) -> str:
    """Our outcome for one code, in a few words."""
    if x["settled"]:
        return f"period {x['period']:,} from {x['start']:,}"
    return f"open at {x['heaps'] or 0:,} heaps"


def page(result: dict) -> str:
    """The Markdown page, every number taken from ``result``."""
    r = result
    rows = r["codes"]
    L = [
        "# The codes a sweep to 2,400 heaps leaves unsettled",
        "",
        (
            f"Generated by `python docs/findings/unsettled.py` (codes of 1..{r['digits']} digits; "
            "[src/grundy/data/README.md](../../src/grundy/data/README.md) says where the published lists "
            "come from)."
        ),
        "",
        (
            f"A survey of the {r['family']} codes of 1..{r['digits']} digits to "
            f"{r['survey_heaps']:,} heaps leaves {r['unsettled']} unsettled ({r['growing']} growing, "
            f"{r['bounded_unsettled']} bounded). `grundy settle` ran on each with a budget of "
            f"{r['budget_cpu_seconds']:g} CPU seconds per code ({r['cpu_seconds_total']:,} CPU seconds "
            f"in all): **{r['settled']} settle** ({r['settled_growing']} of them growing at "
            f"{r['survey_heaps']:,} heaps) and **{r['open']} stay open**."
        ),
    ]
    if r["settled"]:
        L.append(
            f"The longest preperiod settled is {r['largest_start']:,} heaps, the longest period "
            f"{r['largest_period']:,}, the deepest certificate {r['largest_window']:,} heaps."
        )
    if r["slowest_settled"]:
        L.append(
            "The slowest to settle used "
            + ", ".join(f"{c} {t:g}" for c, t in r["slowest_settled"])
            + " CPU seconds: the outcome depends on the machine only for codes this close to the "
            "budget (a slower machine may leave them open; the heaps an open code reaches always "
            "depend on it)."
        )
    L += [
        "",
        "![start and period](unsettled/settled.png)",
        "",
        "## Comparison with the published lists",
        "",
        (
            "Each code is looked up as its equivalent game (tczajka/octal-games, GameLookup.md), then "
            "in the lists of solved, trivial and unsolved games. Codes by outcome here and status there:"
        ),
        "",
        "| outcome here / published | codes |",
        "|---|---:|",
    ]
    L += [f"| {k} | {n} |" for k, n in sorted(r["outcome_by_published"].items())]
    L += ["", "![outcome by published status](unsettled/published.png)", ""]
    dis = [x for x in rows if x["disagreements"]]
    if dis:
        L += [
            f"**{r['disagreements']} disagreements on {r['codes_disagreeing']} codes** (every one):",
            "",
            "| code | equivalent | here | disagreement |",
            "|---|---|---|---|",
        ]
        L += [
            f"| {x['code']} | {x['equivalent']} | {here(x)} | {'; '.join(x['disagreements'])} |"
            for x in dis
        ]
    else:
        L.append(
            "**No disagreements**: every code settled here has its published period and start, "
            "and every code left open is listed unsolved."
        )
    offset = r["rare_count_heap0"]
    L += [
        "",
        (
            "A start that differs for an *equivalent* game is expected where the equivalence shifts "
            "heap sizes (GameLookup.md: a game that may not take a 1-heap is its equivalent with "
            "heaps one smaller); the period must agree."
        ),
    ]
    if offset:
        L.append(
            f"For {len(offset)} settled codes ({', '.join(offset)}) the published count of rare "
            "heaps is one more than ours, with the same mask: ours counts heaps 1 and up, and the "
            "published count holds heap 0 too (worth 0, rare in that convention). Not counted as "
            "a disagreement."
        )
    w = r["swept_settled"]
    L += [
        "",
        "## The codes the sweep settled",
        "",
        f"Outside the question but cheap: the {w['codes']} codes the sweep settled at "
        f"{r['survey_heaps']:,} heaps, against their equivalent games. The period agrees for "
        f"{w['period_agrees']}; it disagrees for {len(w['period_disagrees'])}"
        + (f" ({', '.join(w['period_disagrees'])})" if w["period_disagrees"] else "")
        + f"; {len(w['unlisted_or_unsolved'])} have no published period"
        + (f" ({', '.join(w['unlisted_or_unsolved'])})" if w["unlisted_or_unsolved"] else "")
        + ". The start here minus the published one (a * marks a code that is itself the "
        "listed game):",
        "",
        "| start offset | codes |",
        "|---:|---|",
    ]
    L += [
        f"| {k} | {w['start_offset_counts'][k]}: {', '.join(v)} |"
        for k, v in w["start_offsets"].items()
    ]
    if w["start_offsets"]:
        lo, hi = min(map(int, w["start_offsets"])), max(map(int, w["start_offsets"]))
        L += [
            "",
            f"The offsets run from {lo} to {hi}. The trivial list gives each game's sequence "
            "(from its own heap 0, with games that cannot take small heaps listed with their heaps "
            f"shifted), so the starts can be checked value by value: for {w['sequence_checked']} "
            f"codes the source gives the sequence; {w['sequence_matches']} of them match it from "
            f"some heap o on, and for {w['start_explained']} the start here is exactly the "
            "published one plus o (or heap 1 where that is heap 0, since this toolkit never lets "
            "a period include heap 0, docs/periodicity.md; or earlier than o where the source's period starts "
            "at its heap 0, since the heaps below o have no place in its listing). "
            + (
                f"**Not explained so: {', '.join(w['start_unexplained'])}.**"
                if w["start_unexplained"]
                else "Every start checked this way agrees."
            ),
        ]
    L += [
        "",
        "## Settled here",
        "",
        "| code | start | period | window | mask | rare heaps | last rare | published |",
        "|---|---:|---:|---:|---|---:|---:|---|",
    ]
    L += [
        f"| {x['code']} | {x['start']:,} | {x['period']:,} | {x['window']:,} | {x['mask']} | "
        f"{x['rare_heaps']} | {x['last_rare'] if x['last_rare'] is not None else ''} | "
        f"{x['published']} ({x['equivalent']}) |"
        for x in rows
        if x["settled"]
    ]
    L += [
        "",
        "## Still open",
        "",
        "![heaps reached and rare heaps](unsettled/open.png)",
        "",
        (
            "Where the run stood when its budget ran out: heaps computed, the sparse engine's mask "
            "(none: the dense kernel, no mask paid) and its rare heaps."
        ),
        "",
        "| code | survey | heaps | mask | rare heaps | published |",
        "|---|---|---:|---|---:|---|",
    ]
    L += [
        f"| {x['code']} | {x['survey_status']} | {x['heaps'] or 0:,} | {x['mask'] or 'none'} | "
        f"{x['rare_heaps'] if x['mask'] else ''} | {x['published']} ({x['equivalent']}) |"
        for x in rows
        if not x["settled"]
    ]
    return "\n".join(L) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where the page goes (docs/findings/)")
    ap.add_argument("--quick", action="store_true", help="codes of 1..2 digits, 0.5 s a code")
    ap.add_argument("--budget", type=float, help="CPU seconds per code (default 6, quick 0.5)")
    ap.add_argument("--cache", type=Path, help="default: $GRUNDY_CACHE/findings")
    args = ap.parse_args(argv)
    budget = args.budget or (0.5 if args.quick else 6.0)
    cache = args.cache or cache_dir() / "findings"
    result = run(args.out, 2 if args.quick else 3, budget, cache)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "unsettled.json").write_text(
        json.dumps(result, indent=1, ensure_ascii=False) + "\n"
    )
    (args.out / "unsettled.md").write_text(page(result))


if __name__ == "__main__":
    main()
