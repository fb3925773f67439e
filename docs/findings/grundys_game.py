"""Issue 24: Grundy's game as deep as a CPU budget allows, its rare heaps, and the 0.0n7 family.

    nice -n 19 python docs/findings/grundys_game.py --out docs/findings/ --budget 900
    python docs/findings/grundys_game.py --out docs/findings/ --budget 3600    # the issue's hour
    python docs/findings/grundys_game.py --out /tmp/f --quick                  # small, for the tests

Grundy's game (``4!·``) is computed by :func:`grundy.readings.settle.settle` with the
sparse engine until ``--budget`` CPU seconds are spent (settle gives up at
the budget; it would stop at a certificate, which no one has found).  The
values are kept in the cache (``$GRUNDY_CACHE/findings/``), so a rerun, or a
run interrupted and started again, resumes from them: the budget counts the
CPU seconds of every run on that cache, and the page states the total.
Then every number the page states is computed from the values: the best
mask, every rare heap with its value, how the rare heaps arrive (blocks,
gaps, residues: the ``·354`` toolkit, :func:`grundy.rare.arrivals`), the
statistics per power of two, the largest values, and the published tables
beside them.  The family ``0.0n7`` (take exactly ``n``, ``n <= 25``) is
settled code by code within ``--family-seconds`` each.  Writes
``grundys_game.md``, ``grundys_game.json`` and the figures under
``grundys_game/``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from grundy import rare
from grundy.catalogue import published
from grundy.codes import GRUNDYS_GAME, parse
from grundy.engine import sparse
from grundy.engine.checkpoint import cache_dir, load_existing
from grundy.files import write_json
from grundy.present.figures import rare as rare_figures
from grundy.present.figures import save, subplots
from grundy.readings.periods import reading
from grundy.readings.settle import settle
from grundy.value_classes import RareClass, fewest, rare_heaps

CODE = GRUNDYS_GAME
FAMILY = range(1, 26)
"""``n`` of the family ``0.0n7``: Flammenkamp's tables go to ``n = 25``."""
BLOCK = 10_000
"""Heaps per block of the arrival counts."""
SHOWN_POWERS = 10
"""The statistics per power of two start at ``2^SHOWN_POWERS`` heaps."""


class Log:
    """Stage and progress lines on stderr, at most one every few seconds within a stage."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.last = 0.0

    def __call__(self, text: str, force: bool = True) -> None:
        now = time.monotonic()
        if force or now - self.last > 5:
            print(f"[{now - self.t0:6.0f} s] {text}", file=sys.stderr, flush=True)
            self.last = now


def family_code(n: int):
    """``0.0n7``: remove exactly ``n`` counters, leaving nothing, one heap or two."""
    return parse("·" + "0" * (n - 1) + "7")


# ---------------------------------------------------------------- computing


def compute_grundy(cache: Path, budget: float, max_heaps: int, log: Log) -> tuple[np.ndarray, dict]:
    """Grundy's game extended until the CPU seconds of every run on ``cache`` reach ``budget``.

    ``runs.json`` in the cache records each run's CPU seconds and depths, and
    is rewritten as a run goes, so an interrupted run's time counts too.
    """
    store = cache / "grundy"
    ledger_path = cache / "grundy-runs.json"
    runs = json.loads(ledger_path.read_text()) if ledger_path.exists() else []
    spent = sum(r["seconds"] for r in runs)
    kept = load_existing(store, CODE)
    before = 0 if kept is None else kept.depth
    left = budget - spent
    if left > 1 and before < max_heaps:
        log(f"{CODE}: {spent:,.0f} CPU s spent on {before:,} heaps; {left:,.0f} s more")
        cpu0 = time.process_time()
        mine = {"seconds": 0.0, "heaps_before": before, "heaps_after": before}
        runs.append(mine)
        last = [0.0]

        def note(values):
            mine["seconds"] = time.process_time() - cpu0
            mine["heaps_after"] = int(values.size)
            if time.monotonic() - last[0] > 30:
                write_json(ledger_path, runs, indent=1)
                last[0] = time.monotonic()
                log(f"  {values.size:,} heaps, {spent + mine['seconds']:,.0f} CPU s", force=False)

        done = settle(CODE, max_heaps, store, seconds=left, on_chunk=note, checkpoint_seconds=120)
        mine["seconds"] = time.process_time() - cpu0
        mine["heaps_after"] = done.heaps
        write_json(ledger_path, runs, indent=1)
        kept = load_existing(store, CODE)
    values = kept.values
    return values, {
        "budget_seconds": budget,
        "seconds": sum(r["seconds"] for r in runs),
        "runs": runs,
        "max_heaps": max_heaps,
    }


def settle_family(cache: Path, ns, seconds: float, max_heaps: int, log: Log) -> list[dict]:
    """Each ``0.0n7`` settled within ``seconds`` CPU seconds and ``max_heaps`` heaps (cached)."""
    out = []
    for n in ns:
        code = family_code(n)
        path = cache / f"family-{n}-{max_heaps}-{seconds:g}.json"
        if path.exists():
            out.append(json.loads(path.read_text()))
            continue
        log(f"settle {code}")
        s = settle(code, max_heaps, cache / f"family-{n}", seconds=seconds)
        r = s.reading
        row = {
            "n": n,
            "code": str(code),
            "settled": s.settled,
            "start": r.start if s.settled else None,
            "period": r.period if s.settled else None,
            "window": r.window if s.settled else None,
            "heaps": s.heaps,
            "max": s.max,
            "mask": s.stats.rare_class.label if s.stats else None,
            "rare_heaps": s.stats.rare_heaps if s.stats else None,
        }
        write_json(path, row)
        out.append(row)
    return out


# ---------------------------------------------------------------- analysis


def listed(code: str) -> dict:
    """The published entry of a code's equivalent game (Czajka's lookup covers 1..3 digits)."""
    eq = published.equivalent(code)
    game = published.game(eq) if eq is not None else None
    if game is None:
        return {"listed_as": None, "listed_status": None, "listed_period": None}
    return {"listed_as": game.name, "listed_status": game.status, "listed_period": game.period}


def powers(values: np.ndarray, rare: np.ndarray) -> list[dict]:
    """At each power of two ``2^k`` of heaps (and at the depth reached): rare heaps so far, the last
    one, the largest value so far and the first heap worth it."""
    n = values.size
    marks = [1 << k for k in range(SHOWN_POWERS, n.bit_length()) if 1 << k < n] + [n]
    running = np.maximum.accumulate(values)
    out = []
    for d in marks:
        below = rare[rare < d]
        top = int(running[d - 1])
        out.append({
            "heaps": int(d),
            "log2": float(np.log2(d)),
            "rare_heaps": int(below.size),
            "last_rare": int(below[-1]) if below.size else None,
            "max": top,
            "argmax": int(np.argmax(values[:d] == top)),
        })  # fmt: skip
    return out


def records(values: np.ndarray) -> list[list[int]]:
    """Every heap whose value is larger than every value before it: ``[heap, value]``."""
    running = np.maximum.accumulate(values)
    new = np.flatnonzero(np.concatenate(([True], running[1:] > running[:-1])))
    return [[int(h), int(values[h])] for h in new]


def doubling_counts(rare: np.ndarray, n: int) -> list[dict]:
    """Rare heaps in each stretch ``[2^k, 2^(k+1))`` of the heaps computed (blocks that double)."""
    out = []
    for k in range(n.bit_length()):
        lo, hi = 1 << k, min(n, 1 << (k + 1))
        if lo >= n:
            break
        out.append({"from": lo, "to": hi, "rare_heaps": int(((rare >= lo) & (rare < hi)).sum())})
    return out


def compare_published(values: np.ndarray, best: RareClass, rare: np.ndarray) -> dict:
    """What OEIS A002188, Flammenkamp's list and Czajka's table say, and whether we agree."""
    out = {}
    o = published.oeis(CODE)
    terms = list(o.terms)
    ours = values[o.offset : o.offset + len(terms)].tolist()
    out["oeis"] = {"a_number": o.a_number, "terms": len(terms), "agree": ours == terms,
                   "source": o.source}  # fmt: skip
    f = published.flammenkamp_grundy()
    mask = RareClass((1 << int(values.max()).bit_length()) - 2, 0)
    upto = values[: f.through + 1]
    listed = [(h, int(v)) for h, v in enumerate(upto) if mask.holds(int(v))]
    flam_rare = rare_heaps(values, mask)
    out["flammenkamp"] = {
        "listed": len(f.values),
        "through": f.through,
        "agree": tuple(listed) == f.values,
        "known": f.known,
        "mask": mask.mask,
        "same_as_best": mask == best,
        "rare_heaps_with_heap_0": int(flam_rare.size) + 1,
        "source": f.source,
    }
    g = published.game(CODE)
    d = g.heaps
    if values.size >= d:
        at = values[:d]
        theirs = g.mask
        mine = rare_heaps(at, theirs)
        top = int(at.max())
        out["czajka"] = {
            "heaps": d,
            "rare_mask": g.rare_mask,
            "mask": theirs.mask,
            "num_rare": g.rare_heaps,
            "ours_num_rare": int(mine.size) + 1,
            "last_rare": g.last_rare,
            "ours_last_rare": int(mine[-1]),
            "largest": g.largest,
            "ours_largest": top,
            "largest_heap": g.largest_heap,
            "ours_largest_heap": int(np.argmax(at == top)),
            "source": g.source,
        }
    else:
        out["czajka"] = {"heaps": d, "reached": False}
    return out


def run(out_dir: Path, cache: Path, budget: float, max_heaps: int, family_ns, family_seconds: float,
        family_heaps: int) -> dict:  # fmt: skip
    """Every number the page states."""
    log = Log()
    cache.mkdir(parents=True, exist_ok=True)
    values, spent = compute_grundy(cache, budget, max_heaps, log)
    n = int(values.size)
    log(f"analysis of {n:,} heaps")
    best, count = fewest(values, 0)
    engine_best, engine_count = sparse.best_mask(CODE, values)
    rare_all = rare_heaps(values, best)
    last = reading(values, CODE)
    arr = rare.arrivals(CODE, values, best, after=1, block=BLOCK)
    found = sparse.statistics(CODE, values, best)
    top = int(values.max())
    result = {
        "code": str(CODE),
        "heaps": n,
        **spent,
        "reading": None if last is None else last.to_dict(),
        "mask": best.mask,
        "position_mask": engine_best.label if engine_best.position else None,
        "position_rare_heaps": int(engine_count) if engine_best.position else None,
        "mask_label": best.label,
        "mask_bits": [b for b in range(top.bit_length()) if best.mask >> b & 1],
        "value_bound": 1 << top.bit_length(),
        "run_count": len(spent["runs"]),
        "rare_heaps": int(count),
        "last_rare": int(rare_all[-1]) if rare_all.size else None,
        "rare": [[int(h), int(values[h])] for h in rare_all],
        "rare_values": {str(k): v for k, v in sorted(rare.value_counts(values, rare_all).items())},
        "distinct_rare_values": len(np.unique(values[rare_all])),
        "max": top,
        "argmax": found.argmax,
        "records": records(values),
        "powers": powers(values, rare_all),
        "doubling": doubling_counts(rare_all, n),
        "block": BLOCK,
        "blocks_with_rare": int(np.count_nonzero(arr.blocks)),
        "last_block_with_rare": int(np.flatnonzero(arr.blocks)[-1]) * BLOCK if arr.blocks.any() else None,
        "gaps": arr.gaps.to_dict(),
        "open_end": n - int(rare_all[-1]) if rare_all.size else n,
        "first_empty_modulus": arr.first_empty_modulus,
        "residues": {str(m): arr.residues[m] for m in (2, 3, 4, 6) if m in arr.residues},
        "tail_period": arr.tail_period,
        "published": compare_published(values, best, rare_all),
    }
    past = published.game(CODE).heaps
    result["rare_past_czajka"] = [pair for pair in result["rare"] if pair[0] >= past]
    result["first_at_least"] = [
        [1 << b, next(h for h, v in result["records"] if v >= 1 << b)]
        for b in range(1, top.bit_length())
    ]
    log("the family 0.0n7")
    result["family"] = [dict(row, **listed(row["code"]))
                        for row in settle_family(cache, family_ns, family_seconds, family_heaps, log)]
    result["family_seconds"] = family_seconds
    result["family_max_heaps"] = family_heaps
    log("figures")
    figs = out_dir / "grundys_game"
    strip = rare_figures.strip(arr)
    strip.axes[0].set_xscale("log")
    strip.axes[0].set_xlim(1, n)
    save(strip, figs / "strip.png")
    save(doubling_figure(result), figs / "doubling.png")
    result["figures"] = ["grundys_game/strip.png", "grundys_game/doubling.png"]
    log("done")
    return result


def doubling_figure(r: dict):
    """Rare heaps per stretch ``[2^k, 2^(k+1))``, against ``k``: arrivals over eight decades."""
    fig, ax = subplots(figsize=(8, 3.5))
    ks = [d["from"].bit_length() - 1 for d in r["doubling"]]
    ax.bar(ks, [d["rare_heaps"] for d in r["doubling"]], width=0.8, color="tab:blue")
    ax.set_xlabel("k: the stretch of heaps 2^k to 2^(k+1) - 1")
    ax.set_ylabel("rare heaps")
    ax.set_title(f"{r['code']}: rare heaps per doubling stretch, to {r['heaps']:,} heaps\n"
                 f"class mask {r['mask']}, parity 0: the sparse-space convention")  # fmt: skip
    return fig


# ---------------------------------------------------------------- the page


def _opt(x, fmt=","):
    return "–" if x is None else format(x, fmt)


def _reading_words(found: dict | None, n: int) -> str:
    """What the reading rule says at the depth reached."""
    if found is None:
        return f"At {n:,} heaps the values show no period at all (no reading)."
    if found["certified"]:
        return (f"**Certified**: period {found['period']:,} from heap {found['start']:,} (window "
                f"{found['window']:,}).")  # fmt: skip
    return (
        f"At {n:,} heaps the reading is period {found['period']:,} from heap {found['start']:,}, "
        f"not certified: its window (a `!` digit's, `2s + 3p`) is {found['window']:,} heaps."
    )


def page(r: dict) -> str:
    """The Markdown page, every number taken from ``r``."""
    n = r["heaps"]
    pub = r["published"]
    cz, fl, oe = pub["czajka"], pub["flammenkamp"], pub["oeis"]
    budget_words = (
        f"{r['seconds']:,.0f} CPU seconds (the budget was {r['budget_seconds']:,.0f}; a run stops "
        "at the first chunk past it)"
    )
    runs = (
        "one run on one core"
        if r["run_count"] == 1
        else f"{r['run_count']} runs on one core, each resuming from the values kept in the cache"
    )
    L = [
        "# Grundy's game",
        "",
        (
            f"Generated by `python docs/findings/grundys_game.py --budget {r['budget_seconds']:.0f}`. "
            "Grundy's game (Grundy 1939; Winning Ways, ch. 4; OEIS A002188) splits one heap into two "
            "unequal heaps; in this toolkit's notation it is `4!·` (also `4!·0`, `grundy`)."
        ),
        "",
        "## How deep",
        "",
        (
            f"The sparse engine computed **{n:,} heaps** with {budget_words}, in {runs}. "
            "The issue asks for an hour; this machine was shared by four "
            "engineers when the page was made, so the budget was smaller, at the lowest priority. "
            "`--budget 3600` runs the hour: it resumes from the values kept and spends the rest. "
            "Threads (the frontier engine) would go further in the same hour; they are not in this "
            "run."
        ),
        "",
        _reading_words(r["reading"], n),
        "",
        "## Its sparse space",
        "",
        (
            f"The mask with the fewest rare heaps over all {n:,} heaps, chosen by the Walsh–Hadamard "
            f"transform of the values' histogram (`grundy.value_classes.fewest`), is **{r['mask_label']}** (bits "
            f"{', '.join(map(str, r['mask_bits']))}): its even class (parity 0, which holds 0, the "
            f"sparse-space convention) holds **{r['rare_heaps']:,} heaps** from heap 1 on, the last "
            f"at heap **{_opt(r['last_rare'])}**. "
            + (
                f"That is Flammenkamp's mask `0111…` (every bit of the values but the lowest), "
                f"{fl['mask']} for values below {r['value_bound']:,}."
                if fl["same_as_best"]
                else f"Flammenkamp's mask `0111…` ({fl['mask']} here) makes "
                f"{fl['rare_heaps_with_heap_0'] - 1:,} heaps rare."
            )
        ),
        "",
        (
            f"Classing heaps by their parity too (the position variant) does better: "
            f"{r['position_mask']} makes {r['position_rare_heaps']:,} heaps rare; the page keeps the "
            "plain mask, the one the published tables use."
            if r["position_mask"]
            else "Classing heaps by their parity too (the position variant) does no better."
        ),
        "",
        f"The rare heaps take {r['distinct_rare_values']} distinct values; `value:rare heaps`:",
        "",
        "```",
    ]
    counts = [f"{v}:{c}" for v, c in r["rare_values"].items()]
    L += [" ".join(counts[i : i + 12]) for i in range(0, len(counts), 12)]
    L += [
        "```",
        "",
        "",
        "## Per power of two",
        "",
        (
            "At each depth `2^k` (and at the depth reached): the rare heaps so far in that class, "
            "the last of them, the largest value so far and the first heap worth it."
        ),
        "",
        "| heaps | log2 | rare heaps | last rare heap | largest value | first at heap |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    L += [
        f"| {p['heaps']:,} | {p['log2']:.2f} | {p['rare_heaps']:,} | {_opt(p['last_rare'])} | "
        f"{p['max']} | {p['argmax']:,} |"
        for p in r["powers"]
    ]
    g = r["gaps"]
    L += [
        "",
        "## How the rare heaps arrive",
        "",
        (
            "Counted with the arrivals toolkit of the `·354` study (`grundy.rare.arrivals`), from "
            "heap 1, for the class above. Per stretch of heaps that doubles:"
        ),
        "",
        "| heaps | rare heaps |",
        "|---|---:|",
    ]
    L += [f"| {d['from']:,}..{d['to'] - 1:,} | {d['rare_heaps']:,} |" for d in r["doubling"]]
    L += [
        "",
        (
            f"In blocks of {r['block']:,} heaps, {r['blocks_with_rare']:,} blocks hold a rare heap, "
            f"the last the block from heap {_opt(r['last_block_with_rare'])}. The gaps between "
            f"successive rare heaps: {g['count']:,} gaps, mean {_opt(g['mean'], ',.1f')}, standard "
            f"deviation {_opt(g['sd'], ',.1f')}, ratio {_opt(g['ratio'], '.2f')} (1 for memoryless "
            "arrivals, 0 for a schedule); the largest gap is "
            f"{_opt(g['max'])} heaps, from heap {g['longest'][0]:,} to heap {g['longest'][1]:,}. "
            f"After the last rare heap {r['open_end']:,} heaps follow with none."
            if g["count"]
            else "Too few rare heaps for gaps."
        ),
        "",
        (
            f"Residues: the least modulus with an empty residue class is {r['first_empty_modulus']}; "
            "the rare heaps by residue "
            + "; ".join(f"mod {m}: {', '.join(f'{c:,}' for c in counts)}" for m, counts in r["residues"].items())
            + "."
        ),
        "",
        "![every rare heap, the heaps on a logarithmic scale](grundys_game/strip.png)",
        "",
        "![rare heaps per doubling stretch](grundys_game/doubling.png)",
        "",
        "## Every rare heap",
        "",
        f"`heap:value` for each of the {r['rare_heaps']:,} rare heaps, in order:",
        "",
        "```",
    ]
    pairs = [f"{h}:{v}" for h, v in r["rare"]]
    L += [" ".join(pairs[i : i + 10]) for i in range(0, len(pairs), 10)]
    L += [
        "```",
        "",
        "## The largest values",
        "",
        (
            f"The largest value is **{r['max']}**, first at heap **{r['argmax']:,}**. Each new "
            "largest value and the first heap worth it:"
        ),
        "",
        "```",
    ]
    recs = [f"{h}:{v}" for h, v in r["records"]]
    L += [" ".join(recs[i : i + 10]) for i in range(0, len(recs), 10)]
    L += [
        "```",
        "",
        "The first heap worth at least each power of two: "
        + ", ".join(f"{v:,} at heap {h:,}" for v, h in r["first_at_least"])
        + ".",
        "",
        "## Beside the published tables",
        "",
        (
            f"- **OEIS {oe['a_number']}** shows {oe['terms']} terms from heap 0: "
            + ("ours are the same." if oe["agree"] else "**ours differ**.")
        ),
        (
            f"- **Flammenkamp** lists the sparse values (mask `0111…`, heap 0 included); the copy "
            f"shipped holds his list through heap {fl['through']}, {fl['listed']} heaps: "
            + ("ours are the same heaps with the same values" if fl["agree"] else "**ours differ**")
            + f". He says {fl['known']:,} are known; with heap 0 this run has "
            f"{fl['rare_heaps_with_heap_0']:,} in his class"
            + (
                f", the same number, the last at heap {_opt(r['last_rare'])} and none after it to "
                f"{n:,} heaps."
                if fl["rare_heaps_with_heap_0"] == fl["known"]
                else "."
            )
        ),
    ]
    if cz.get("reached", True):
        later = r["rare_past_czajka"]
        L += [
            (
                f"- **Czajka** (tczajka/octal-games, unsolved list) computed {cz['heaps']:,} heaps: "
                f"rare mask {cz['rare_mask']}, {cz['num_rare']:,} rare (with heap 0), the last at "
                f"{cz['last_rare']:,}, largest value {cz['largest']} at heap {cz['largest_heap']:,}. "
                f"At that depth this run has {cz['ours_num_rare']:,} rare (with heap 0), the last at "
                f"{cz['ours_last_rare']:,}, largest {cz['ours_largest']} at heap "
                f"{cz['ours_largest_heap']:,}: "
                + (
                    "the same."
                    if (cz["num_rare"], cz["last_rare"], cz["largest"], cz["largest_heap"])
                    == (cz["ours_num_rare"], cz["ours_last_rare"], cz["ours_largest"],
                        cz["ours_largest_heap"])
                    else "**a disagreement**."
                )
                + (
                    f" Past his depth this run found {len(later)} more rare heap"
                    f"{'s' if len(later) != 1 else ''}, worth {min(v for _, v in later)} to "
                    f"{max(v for _, v in later)}: "
                    + ", ".join(f"heap {h:,} worth {v}" for h, v in later) + "."
                    if later
                    else f" Past his depth, to {n:,} heaps, this run found no rare heap."
                )
            )
        ]  # fmt: skip
    else:
        L.append(f"- **Czajka** computed {cz['heaps']:,} heaps, deeper than this run.")
    L += [
        "",
        "## The family 0.0n7",
        "",
        (
            "Flammenkamp also tabulates `0.0n7` for `n <= 25`: remove exactly `n` counters, leaving "
            "nothing, one heap or two. Each was settled here within "
            f"{r['family_seconds']:,.0f} CPU seconds and {r['family_max_heaps']:,} heaps:"
        ),
        "",
        "| n | code | status | period | from heap | window | heaps | largest | mask | listed as |",
        "|---:|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for f in r["family"]:
        where = (
            f"`{f['listed_as']}`, {f['listed_status']}"
            + (f", period {f['listed_period']:,}" if f["listed_period"] else "")
            if f["listed_as"]
            else "–"
        )
        L.append(
            f"| {f['n']} | `{f['code']}` | {'certified' if f['settled'] else 'not settled'} | "
            f"{_opt(f['period'])} | {_opt(f['start'])} | {_opt(f['window'])} | {f['heaps']:,} | "
            f"{f['max']} | {f['mask'] or '–'} | {where} |"
        )
    settled = sum(1 for f in r["family"] if f["settled"])
    L += [
        "",
        (
            f"{settled} of the {len(r['family'])} settle within that budget; a longer one "
            "(`--family-seconds`) may settle more. Where Czajka's lookup of the codes of one to three "
            "digits names the same game, the table says what it is listed as (an equivalent game "
            "may count its heaps from another point, so its start is not compared). "
            "Flammenkamp's own periods and starts for this family could not be put beside them: "
            "his pages say the tables exist, but no copy of them could be reached when this page "
            "was made (`src/grundy/data/README.md`), and none is typed in from memory."
        ),
        "",
    ]
    return "\n".join(L)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where the page goes (docs/findings/)")
    ap.add_argument("--budget", type=float, default=3600.0,
                    help="CPU seconds for Grundy's game, over every run on the cache (default 3600)")
    ap.add_argument("--max-heaps", type=int, default=1 << 30, help="stop there even within the budget")
    ap.add_argument("--family-seconds", type=float, default=60.0, help="CPU seconds per 0.0n7 code")
    ap.add_argument("--family-max-heaps", type=int, default=1 << 24, help="heaps per 0.0n7 code")
    ap.add_argument("--quick", action="store_true", help="65,536 heaps, n <= 6, for the tests")
    ap.add_argument("--cache", type=Path, help="default: $GRUNDY_CACHE/findings/grundys_game")
    args = ap.parse_args(argv)  # fmt: skip
    cache = args.cache or cache_dir() / "findings" / "grundys_game"
    if args.quick:
        r = run(args.out, cache, 60.0, 1 << 16, range(1, 7), 10.0, 1 << 14)
    else:
        r = run(args.out, cache, args.budget, args.max_heaps, FAMILY, args.family_seconds,
                args.family_max_heaps)  # fmt: skip
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "grundys_game.json").write_text(json.dumps(r, indent=1, ensure_ascii=False) + "\n")
    (args.out / "grundys_game.md").write_text(page(r))


if __name__ == "__main__":
    main()
