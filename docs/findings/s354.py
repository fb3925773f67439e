"""Issue 8, question 1: the odd values of ·354 past the range anyone watched, through its certificate.

    python docs/findings/s354.py --out docs/findings/          # through the certificate
    python docs/findings/s354.py --out /tmp/f --quick          # 200,000 heaps

:func:`grundy.readings.settle.settle` finds the certified period; the values to that
depth are kept in the cache (``$GRUNDY_CACHE/findings/``, resumable through
:func:`grundy.engine.checkpoint.compute_resumable`), and so are the move counts and
the ledger, so a rerun redoes only the page.  Writes ``s354.md``,
``s354.json`` and the figures under ``s354/``.  The class throughout is mask 1,
parity 1 (the odd values, XOR-respecting).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

from grundy import rare
from grundy.catalogue import published
from grundy.codes import parse
from grundy.engine.checkpoint import cache_dir, compute_resumable
from grundy.files import write_json
from grundy.present.figures import rare as rare_figures
from grundy.present.figures import save
from grundy.present.text import ledger_summary
from grundy.readings.settle import settle

HERE = Path(__file__).resolve().parent
CODE = parse("·354")
ODD = rare.RareClass(1, 1)
VALUE = 37
AFTER = 10_000
STRETCHES = 4
DRIFT = 0.2  # a relative change in rate or gap ratio the page calls a drift


class Log:
    """Stage and progress lines on stderr, at most one every few seconds within a stage."""

    def __init__(self):
        self.t0 = time.monotonic()
        self.last = 0.0

    def __call__(self, text: str, force: bool = True) -> None:
        now = time.monotonic()
        if force or now - self.last > 5:
            print(f"[{now - self.t0:6.0f} s] {text}", file=sys.stderr)
            self.last = now



def _ledger_dict(led) -> dict:
    """The ledger's JSON with its plain-words summary."""
    return dict(led.to_dict(), summary=ledger_summary(led))

def cached(path: Path, make):
    """The JSON at ``path``, or ``make()`` written there first."""
    if path.exists():
        return json.loads(path.read_text())
    obj = make()
    write_json(path, obj)
    return obj


def certify(cache: Path, max_heaps: int, log: Log) -> tuple[dict, np.ndarray]:
    """Settle ·354 (within ``max_heaps``) and the values to the depth settle reached."""
    log(f"settle {CODE} (at most {max_heaps:,} heaps)")
    found = cached(
        cache / f"settle-354-{max_heaps}.json", lambda: settle(CODE, max_heaps).to_dict()
    )
    heaps = found["heaps"]
    log(f"values to {heaps:,} heaps ({cache / '354'})")
    seq, _, _ = compute_resumable(
        CODE, heaps, cache / "354", on_progress=lambda n: log(f"  {n:,} heaps", force=False)
    )
    return found, seq.values[:heaps]


def stretch_stats(values, odd, lo, hi, schedule, period) -> dict:
    """Arrival statistics of the odd heaps in ``[lo, hi)``."""
    h = odd[(odd >= lo) & (odd < hi)]
    g = rare.gaps(h)
    out = {
        "from": int(lo),
        "to": int(hi),
        "odd_heaps": int(h.size),
        "per_million": h.size * 1e6 / (hi - lo),
        "gap_mean": g.mean,
        "gap_sd": g.sd,
        "gap_ratio": g.ratio,
        "first_empty_modulus": rare.first_empty_modulus(h) if h.size else None,
        "even_heap_share": float(np.mean(h % 2 == 0)) if h.size else None,
        "worth_37_share": float(np.mean(values[h] == VALUE)) if h.size else None,
    }
    if period:
        out["on_schedule_share"] = float(np.isin(h % period, schedule).mean()) if h.size else None
    return out


def schedule_from(values, odd, start, period) -> tuple[list[int], int]:
    """The residues of the odd heaps in one period, and the first heap from which the odd
    heaps are exactly the heaps with those residues."""
    n = values.size
    residues = sorted({int(h % period) for h in odd[(odd >= start) & (odd < start + period)]})
    expected = np.isin(np.arange(n, dtype=np.int64) % period, residues)
    expected[0] = False
    wrong = np.flatnonzero(expected != ((values & 1) == 1))
    return residues, int(wrong[-1]) + 1 if wrong.size else 1


def count_windows(values, found, width) -> list[tuple[int, int]]:
    """Windows of ``width`` heaps for the move counts: at decades, before and after the start."""
    n = values.size
    marks = [m for m in (100_000, 1_000_000, 5_000_000) if m + width <= n]
    if found["settled"]:
        marks += [found["start"] - width, n - width]
    else:
        marks += [n - width]
    return sorted({(m, m + width) for m in marks if m >= AFTER})


def run(
    out_dir: Path, max_heaps: int, block: int, width: int, ledger_heaps: int, cache: Path
) -> dict:
    """Every number the page states."""
    log = Log()
    cache.mkdir(parents=True, exist_ok=True)
    found, values = certify(cache, max_heaps, log)
    n = values.size
    start, period = (found["start"], found["period"]) if found["settled"] else (None, None)
    log("odd heaps and arrivals")
    odd = rare.rare_heaps(values, ODD)
    arr = rare.arrivals(CODE, values, ODD, after=AFTER, block=block)
    result = {
        "code": str(CODE),
        "heaps": n,
        "settled": found["settled"],
        "start": start,
        "period": period,
        "window": found["window"],
        "settle_seconds": found["seconds"],
        "sparse_mask": found["mask"],
        "sparse_rare_heaps": found["rare_heaps"],
        "sparse_last_rare": found["last_rare"],
        "max_value": found["max"],
        "odd_heaps": int(odd.size),
        "odd_values": {str(k): v for k, v in sorted(rare.value_counts(values, odd).items())},
        "block": block,
        "blocks": arr.blocks.tolist(),
        "last_block_heaps": n - (arr.blocks.size - 1) * block,
        "tail_period": arr.tail_period,
    }
    end = start or n
    bounds = [AFTER + k * (end - AFTER) // STRETCHES for k in range(STRETCHES + 1)]
    schedule = None
    if start:
        below = odd[odd < start]
        schedule, sched_from = schedule_from(values, odd, start, period)
        inside = odd[(odd >= start) & (odd < start + period)]
        off = odd[~np.isin(odd % period, schedule)]
        result.update(
            last_odd_before_start=int(below[-1]) if below.size else None,
            last_odd_before_start_value=int(values[below[-1]]) if below.size else None,
            odd_in_one_period=[[int(h), int(values[h])] for h in inside],
            schedule_residues=schedule,
            schedule_from=sched_from,
            off_schedule_last=int(off[-1]) if off.size else None,
            schedule_lead=start - sched_from,
        )
        bounds.append(n)
    result["stretches"] = [
        stretch_stats(values, odd, a, b, schedule, period) for a, b in itertools.pairwise(bounds)
    ]
    if start:
        result["stretches"][-1]["periodic"] = True

    log(f"move counts of {VALUE}")
    result["counts"] = [
        cached(
            cache / f"counts-354-{VALUE}-{a}-{b}.json",
            lambda a=a, b=b: rare.counts(CODE, values, VALUE, lo=a, hi=b, mask=1).to_dict(),
        )
        for a, b in count_windows(values, found, width)
    ]
    for c in result["counts"]:
        log(
            f"  {c['from']:,}..{c['to']:,}: mean {c['moves']['mean']:.2f}, zero {c['moves']['zero']}"
        )

    zeros = sum(c["moves"]["zero"] for c in result["counts"])
    poisson = sum(c["moves"]["poisson_zero"] for c in result["counts"])
    result.update(zero_counts=zeros, poisson_zero_counts=poisson, zero_ratio=zeros / poisson)

    depth = min(ledger_heaps, n)
    log(f"ledger of {VALUE} over {depth:,} heaps")
    led = cached(
        cache / f"ledger-354-{VALUE}-{depth}.json",
        lambda: _ledger_dict(rare.ledger(CODE, values[:depth], VALUE, mask=1)),
    )
    sole = sorted((s[3] for s in led["suppliers"]), reverse=True)
    led["sole_shares"] = {
        str(k): (sum(sole[:k]) / led["single"]) if led["single"] else 0.0 for k in rare.TOP
    }
    led["top_sole"] = max(led["suppliers"], key=lambda s: s[3]) if led["suppliers"] else None
    result["ledger"] = led

    log("figures")
    figs = out_dir / "s354"
    for name, draw in (("strip", rare_figures.strip), ("blocks", rare_figures.blocks)):
        fig = draw(arr)
        if start:
            fig.axes[0].axvline(start, color="black", linestyle="--", linewidth=1)
        save(fig, figs / f"{name}.png")
    save(rare_figures.concentration(ledger_from(led)), figs / "concentration.png")
    result["figures"] = ["s354/strip.png", "s354/blocks.png", "s354/concentration.png"]
    log("done")
    return result


def ledger_from(d: dict) -> rare.Ledger:
    """A :class:`grundy.rare.Ledger` rebuilt from its JSON (for the figure)."""
    return rare.Ledger(
        code=d["code"],
        value=d["value"],
        heaps=d["heaps"],
        below=d["below"],
        mask=d["mask"],
        suppliers=[rare.Supplier(*s) for s in d["suppliers"]],
        rare_total=d["rare_total"],
        reached=d["reached"],
        single=d["single"],
        supplies_all=d["supplies_all"],
        shares={int(k): v for k, v in d["shares"].items()},
    )


def published_row() -> dict | None:
    """The published entry for ·354 (:mod:`grundy.catalogue.published`), for the comparison."""
    g = published.game("·354")
    if g is None:
        return None
    return {"game": g.name, "status": g.status, "prefix": g.prefix, "period": g.period,
            "rare_mask": g.rare_mask, "num_rare": g.rare_heaps, "last_rare": g.last_rare,
            "source": g.source}  # fmt: skip


def page(r: dict) -> str:
    """The Markdown page, every number taken from ``r``."""
    n, blk = r["heaps"], r["block"]
    L = [
        "# ·354 past the range anyone watched",
        "",
        (
            "Generated by `python docs/findings/s354.py`. The class throughout is **mask 1, parity 1**: "
            "the odd values, the XOR-respecting convention (a sum of heaps is odd exactly when an odd "
            "number of its parts are)."
        ),
        "",
        "## The certificate",
        "",
    ]
    if r["settled"]:
        L.append(
            f"`grundy settle ·354` computed {n:,} heaps with the sparse engine in "
            f"{r['settle_seconds']:.1f} s (mask {r['sparse_mask']}, {r['sparse_rare_heaps']} rare "
            f"heaps, the last at heap {r['sparse_last_rare']:,}; the largest value {r['max_value']}). "
            f"**·354 is periodic with period {r['period']:,} from heap {r['start']:,}**, certified: "
            f"the values repeat through the Guy–Smith window of {r['window']:,} heaps."
        )
        pub = r.get("published")
        if pub:
            same = (int(pub["prefix"]), int(pub["period"])) == (r["start"], r["period"])
            L.append(
                f"The published entry ({pub['source'].split('@')[0]} of tczajka/octal-games, after "
                f"Flammenkamp) gives period {int(pub['period']):,} from heap {int(pub['prefix']):,}: "
                + ("the same." if same else "**a disagreement**.")
            )
    else:
        L.append(
            f"Not certified within {n:,} heaps (a reduced run); the numbers below cover those heaps."
        )
    L += [
        "",
        "## Odd heaps per block",
        "",
        (
            f"{r['odd_heaps']:,} heaps below {n:,} are odd; {r['odd_values'].get('37', 0):,} of them are "
            f"worth 37 (every odd value and its count is in `s354.json`). Per block of {blk:,} heaps:"
        ),
        "",
        "| block from | odd heaps |",
        "|---:|---:|",
    ]
    L += [f"| {i * blk:,} | {c:,} |" for i, c in enumerate(r["blocks"])]
    if r["last_block_heaps"] < blk:
        L += ["", f"The last block is short: {r['last_block_heaps']:,} heaps."]
    L += [
        "",
        "![odd heaps per block](s354/blocks.png)",
        "",
        "![every odd heap](s354/strip.png)",
        "",
    ]
    if r["settled"]:
        inside = r["odd_in_one_period"]
        L += ["## The periodic part", ""]
        if inside:
            L.append(
                f"The periodic part holds odd heaps: {len(inside)} in each period of {r['period']:,} "
                f"(in the first period: "
                + ", ".join(f"heap {h:,} worth {v}" for h, v in inside)
                + f"; residues {', '.join(map(str, r['schedule_residues']))} mod {r['period']:,}). "
                "The odd heaps never stop arriving; from the start on they arrive on a fixed schedule."
            )
        else:
            L.append("The periodic part holds no odd heap.")
        L.append(
            f"The last odd heap before the periodic part is heap {r['last_odd_before_start']:,} "
            f"(worth {r['last_odd_before_start_value']}). The odd heaps are exactly the heaps on that "
            f"schedule from heap {r['schedule_from']:,} on, {r['schedule_lead']:,} heaps "
            f"before the period starts; the last odd heap off the schedule is heap "
            f"{r['off_schedule_last']:,}."
        )
        L.append("")
    L += [
        "## Do the arrivals change as the periodic part approaches?",
        "",
        f"The odd heaps from heap {AFTER:,}, in {STRETCHES} equal stretches"
        + (" before the start, then the periodic part" if r["settled"] else "")
        + ". Gap ratio = sd/mean of the gaps (1: memoryless, 0: a fixed schedule); the first empty "
        "modulus is the least m with a residue class mod m holding no odd heap"
        + ("; on schedule = the share at the periodic part's residues." if r["settled"] else "."),
        "",
        "| heaps | odd heaps | per 10^6 | gap mean | gap sd | gap ratio | first empty modulus | "
        "even heaps | worth 37 |" + (" on schedule |" if r["settled"] else ""),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if r["settled"] else ""),
    ]

    def f(x, fmt):
        return "" if x is None else format(x, fmt)

    for s in r["stretches"]:
        row = (
            f"| {s['from']:,}..{s['to']:,}{' (periodic)' if s.get('periodic') else ''} | "
            f"{s['odd_heaps']:,} | {s['per_million']:.0f} | {f(s['gap_mean'], ',.0f')} | "
            f"{f(s['gap_sd'], ',.0f')} | {f(s['gap_ratio'], '.2f')} | "
            f"{f(s['first_empty_modulus'], '')} | {f(s['even_heap_share'], '.1%')} | "
            f"{f(s['worth_37_share'], '.1%')} |"
        )
        if r["settled"]:
            row += f" {f(s['on_schedule_share'], '.2%')} |"
        L.append(row)
    pre = [s for s in r["stretches"] if not s.get("periodic") and s["gap_ratio"] is not None]
    if len(pre) >= 2:
        a, b = pre[0], pre[-1]
        L += [
            "",
            f"Before the periodic part nothing drifts: the rate goes from {a['per_million']:.0f} to "
            f"{b['per_million']:.0f} per million heaps and the gap ratio from {a['gap_ratio']:.2f} to "
            f"{b['gap_ratio']:.2f} between the first and the last stretch."
            if abs(b["gap_ratio"] / a["gap_ratio"] - 1) < DRIFT
            and abs(b["per_million"] / a["per_million"] - 1) < DRIFT
            else f"The arrivals drift: the rate goes from {a['per_million']:.0f} to "
            f"{b['per_million']:.0f} per million heaps and the gap ratio from {a['gap_ratio']:.2f} to "
            f"{b['gap_ratio']:.2f} between the first and the last stretch.",
        ]
    per = [s for s in r["stretches"] if s.get("periodic")]
    if per and pre:
        p = per[0]
        memoryless = all(abs(s["gap_ratio"] - 1) < DRIFT for s in pre)
        L.append(
            f"In the periodic part the gap ratio is {p['gap_ratio']:.2f} and the rate "
            f"{p['per_million']:.0f} per million. The earlier study saw the odd heaps arrive at a "
            "steady rate with no schedule up to 100,000 heaps; "
            + (
                "that held for the whole preperiod (every stretch's gap ratio within "
                f"{DRIFT:.0%} of 1), and then changed abruptly, not gradually: "
                if memoryless
                else "it did not hold for the whole preperiod (some stretch's gap ratio is more "
                f"than {DRIFT:.0%} from 1); "
            )
            + f"the arrivals follow the periodic schedule from {r['schedule_lead']:,} "
            "heaps before the start."
        )
    L += [
        "",
        "## Move counts of 37",
        "",
        (
            "Moves worth 37 at each heap of a window (every split worth 37 has exactly one odd part, "
            "so the kernel tries the odd heaps as that part); zero = heaps with no such move, and "
            "how many of those are worth 37 themselves or less; Poisson = the zeros that independent "
            "chances with the same mean would give."
        ),
        "",
        "| heaps | mean | zero | worth 37 | worth less | Poisson zeros |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for c in r["counts"]:
        m = c["moves"]
        L.append(
            f"| {c['from']:,}..{c['to']:,} | {m['mean']:.2f} | {m['zero']:,} | "
            f"{m['zero_worth_value']:,} | {m['zero_worth_less']:,} | {m['poisson_zero']:,.0f} |"
        )
    zeros, poisson = r["zero_counts"], r["poisson_zero_counts"]
    L += [
        "",
        f"Over these windows {zeros:,} heaps have no move worth 37 where independent chances would "
        f"leave {poisson:,.0f} ({r['zero_ratio']:.2f} times as many): a heap lacks a move worth 37 "
        + ("less" if zeros < poisson else "more")
        + " often than independent chances would make it.",
    ]
    led = r["ledger"]
    top = led["top_sole"]
    L += [
        "",
        "## The ledger of 37",
        "",
        f"Over {led['heaps']:,} heaps, suppliers below {led['below']:,}. {led['summary']}",
        "",
        f"The near-misses are the {led['single']:,} heaps that reach 37 through one odd heap alone. "
        f"The top supplier of those ({'heap ' + format(top[0], ',') if top else 'none'}) accounts for "
        f"{led['sole_shares']['1']:.1%} of them, the top 5 for {led['sole_shares']['5']:.1%}, the "
        f"top 10 for {led['sole_shares']['10']:.1%}: "
        + (
            "**yes, a few small odd heaps account for most of the near-misses.**"
            if led["sole_shares"]["5"] > 0.5
            else "no, the near-misses are spread over many suppliers."
        ),
        "",
        "![ledger concentration](s354/concentration.png)",
        "",
        "| supplier heap | value | supplies 37 to | as the only supplier |",
        "|---:|---:|---:|---:|",
    ]
    L += [f"| {h:,} | {v} | {s:,} | {o:,} |" for h, v, s, o in led["suppliers"][:10]]
    return "\n".join(L) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="where the page goes (docs/findings/)")
    ap.add_argument("--quick", action="store_true", help="200,000 heaps, blocks of 10,000")
    ap.add_argument("--cache", type=Path, help="default: $GRUNDY_CACHE/findings")
    args = ap.parse_args(argv)
    cache = args.cache or cache_dir() / "findings"
    if args.quick:
        r = run(args.out, 200_000, 10_000, 10_000, 200_000, cache)
    else:
        r = run(args.out, 10**8, 10**6, 100_000, 10**8, cache)
    r["published"] = published_row()
    (args.out / "s354.json").write_text(json.dumps(r, indent=1, ensure_ascii=False) + "\n")
    (args.out / "s354.md").write_text(page(r))


if __name__ == "__main__":
    main()
