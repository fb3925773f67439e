"""``grundy rare``, ``counts``, ``ledger``, ``rare-survey``: rare classes and their arrivals.

See docs/rare-classes.md, docs/arrivals.md and docs/counts.md.
"""

from __future__ import annotations

from pathlib import Path

import click

from .. import rare as R
from ..codes import family, file_name
from ..engine import compute
from ..engine.checkpoint import compute_resumable
from .common import CODE, HEAPS, cli, emit_json, progress

SEQUENCE = click.option(
    "--sequence",
    type=click.Path(),
    help="Reuse the sequence at PATH (written by `grundy values --out`); extend it if short.",
)
PLOTS = click.option(
    "--plots", type=click.Path(file_okay=False), help="Write the figures as PNG files into DIR."
)
SHOWN = 12


def load_values(code, heaps: int, sequence: str | None):
    """``G(0..heaps-1)``, from the stored sequence if given, else computed; with progress."""
    with progress(heaps, f"{code}: values") as update:
        if sequence:
            seq, _, _ = compute_resumable(code, heaps, sequence, on_progress=update)
            return seq.values[:heaps]
        return compute(code, heaps, on_chunk=lambda v: update(v.size))


def plots_dir(plots: str | None) -> Path | None:
    """The folder for figures, made now so that a bad one fails before the work, not after."""
    if plots is None:
        return None
    try:
        Path(plots).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.ClickException(f"cannot write figures into {plots}: {exc.strerror}") from None
    return Path(plots)


def _fmt(x, spec: str = ",.1f") -> str:
    return "-" if x is None else format(x, spec)


def _short(items: list, shown: int = SHOWN) -> str:
    if not items:
        return "-"
    more = f" … ({len(items) - shown:,} more)" if len(items) > shown else ""
    return " ".join(str(x) for x in items[:shown]) + more


@cli.command()
@click.argument("code", type=CODE)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Read heaps 0..N-1.")
@click.option(
    "--mask", type=click.IntRange(min=1), default=1, show_default=True, help="The class's bit mask."
)
@click.option(
    "--parity",
    type=click.Choice(["0", "1"]),
    default="1",
    show_default=True,
    help="1: the class XOR respects; 0: the sparse-space convention (holds 0).",
)
@click.option(
    "--after",
    type=click.IntRange(min=0),
    help="The cut-off: arrivals are the rare heaps from this heap on "
    "[default: a tenth of the heaps, at most 10,000].",
)
@click.option(
    "--block",
    type=click.IntRange(min=1),
    default=10_000,
    show_default=True,
    help="Heaps per block.",
)
@click.option(
    "--max-period",
    type=click.IntRange(min=1),
    default=40_000,
    show_default=True,
    help="The largest period P tried over the last W heaps.",
)
@click.option(
    "--window",
    type=click.IntRange(min=1),
    default=20_000,
    show_default=True,
    help="The W last heaps over which a period must hold.",
)
@SEQUENCE
@PLOTS
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rare(code, heaps, mask, parity, after, block, max_period, window, sequence, plots, as_json):
    """Where the heaps of a rare class of CODE arrive past a cut-off."""
    cls = R.RareClass(mask, int(parity))
    plots = plots_dir(plots)
    values = load_values(code, heaps, sequence)
    arr = R.arrivals(
        code, values, cls, after=after, block=block, max_period=max_period, window=window
    )
    fit = R.gap_fit(arr.gap_array)
    if plots:
        from ..present.figures import rare as figs
        from ..present.figures import save

        stem = plots / f"{file_name(code)}-m{mask}p{parity}"
        for name, fig in (
            ("strip", figs.strip(arr)),
            ("blocks", figs.blocks(arr)),
            ("gaps", figs.gap_histogram(arr, fit)),
        ):
            save(fig, f"{stem}-{name}.png")
    if as_json:
        emit_json(arr.to_dict())
        return
    thin = R.thinning(values, cls)
    g = arr.gaps
    click.echo(f"code      {arr.code}, heaps 0..{arr.heaps - 1:,}")
    click.echo(f"class     mask {cls.mask}, {cls.convention}")
    last = _fmt(arr.last_rare, ",")
    click.echo(f"rare      {arr.rare.size:,} from heap {arr.after:,}; last rare heap {last}")
    click.echo("values    " + (", ".join(f"{v}: {c:,}" for v, c in arr.values.items()) or "-"))
    click.echo(f"blocks    per {arr.block:,} from heap 0: {_short(arr.blocks.tolist(), 20)}")
    click.echo(
        f"thirds    {' '.join(f'{c:,}' for c in thin.thirds)} rare heaps in three stretches of "
        f"{thin.length:,}: {'thins' if thin.thins else 'does not thin'}"
    )
    click.echo(
        f"gaps      {g.count:,}; min {_fmt(g.min, ',')}, max {_fmt(g.max, ',')}, "
        f"mean {_fmt(g.mean)}, sd {_fmt(g.sd)}, sd/mean {_fmt(g.ratio, '.3f')} "
        "(1 memoryless, 0 scheduled)"
    )
    if g.longest:
        click.echo(f"longest   {g.longest[0]:,} to {g.longest[1]:,}")
    if fit.pvalue is not None:
        click.echo(
            f"fit       {len(fit.edges)} bins against an exponential of mean {fit.mean:,.1f}: "
            f"chi-square {fit.statistic:.2f}, {fit.dof} dof, p = {fit.pvalue:.3g}"
        )
    click.echo("residues  (rare heaps from the cut-off, by residue)")
    for m in (2, 3, 4, 6, 8, 12, 24):
        click.echo(f"  mod {m:<3}  {_short(arr.residues[m], 24)}")
    click.echo(f"first modulus with an empty residue class: {arr.first_empty_modulus}")
    period = _fmt(arr.tail_period, ",")
    click.echo(f"tail period (p <= {max_period:,} over the last {window:,} heaps): {period}")


@cli.command()
@click.argument("code", type=CODE)
@click.option(
    "--value", "-v", "value", type=click.IntRange(min=0), required=True, help="The value v counted."
)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Count at heaps FROM..N-1.")
@click.option(
    "--from",
    "lo",
    type=click.IntRange(min=1),
    help="The first heap [default: a tenth of the heaps, at most 10,000, at least 1].",
)
@click.option(
    "--mask",
    type=click.IntRange(min=1),
    help="The parity-1 class holding v whose heaps are tried "
    "as the rare part of a split [default: the one with the fewest heaps].",
)
@SEQUENCE
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def counts(code, value, heaps, lo, mask, sequence, as_json):
    """Move counts and split counts of value V at every heap of a range."""
    lo = max(1, R.cutoff(heaps)) if lo is None else lo
    values = load_values(code, heaps, sequence)
    with progress(heaps - lo, f"{code}: counts of {value}") as update:
        res = R.counts(code, values, value, lo=lo, mask=mask, on_progress=update)
    if as_json:
        emit_json(res.to_dict())
        return
    how = (
        f"rare parts from the parity-1 class of mask {res.mask}"
        if res.mask
        else "every split enumerated"
    )
    click.echo(f"code      {res.code}, value {res.value}, heaps {res.lo:,}..{res.hi - 1:,} ({how})")
    click.echo(f"{'':26}{'mean':>10}{'zero':>10}{'worth v':>10}{'less':>10}{'Poisson':>12}")
    for label, t in (
        ("move count (every move)", res.moves),
        ("split count (splits only)", res.splits),
    ):
        click.echo(
            f"{label:26}{t.mean:10.3f}{t.zero:10,}{t.zero_worth_value:10,}{t.zero_worth_less:10,}"
            f"{t.poisson_zero:12,.1f}"
        )
    click.echo(
        "zero: heaps with no such move; worth v / less: those heaps worth v / less than v; "
        "Poisson: zero-count heaps independent chances with the same mean would give"
    )


@cli.command()
@click.argument("code", type=CODE)
@click.option(
    "--value", "-v", "value", type=click.IntRange(min=1), required=True, help="The rare value v."
)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Read heaps 0..N-1.")
@click.option(
    "--below",
    type=click.IntRange(min=2),
    default=5_000,
    show_default=True,
    help="List the rare heaps below this bound.",
)
@click.option(
    "--mask",
    type=click.IntRange(min=1),
    help="The parity-1 class holding v [default: the one with the fewest heaps].",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Suppliers shown in the table.",
)
@SEQUENCE
@PLOTS
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print one JSON object (every supplier below the bound).",
)
def ledger(code, value, heaps, below, mask, top, sequence, plots, as_json):
    """Which rare heaps supply value V, and how concentrated the supply is."""
    plots = plots_dir(plots)
    values = load_values(code, heaps, sequence)
    with progress(heaps - 1, f"{code}: ledger of {value}") as update:
        led = R.ledger(code, values, value, below=below, mask=mask, on_progress=update)
    if plots:
        from ..present.figures import rare as figs
        from ..present.figures import save

        save(figs.concentration(led), plots / f"{file_name(code)}-ledger-{value}.png")
    from ..present.text import ledger_summary

    if as_json:
        emit_json(dict(led.to_dict(), summary=ledger_summary(led)))
        return
    click.echo(
        f"code      {led.code}, value {led.value}, heaps 1..{led.heaps - 1:,}, "
        f"parity-1 class of mask {led.mask}"
    )
    click.echo("shares    " + ", ".join(f"top {k}: {s:.1%}" for k, s in led.shares.items()))
    click.echo(f"{'heap':>10}{'value':>7}{'supplies':>11}{'sole':>9}")
    for s in led.suppliers[:top]:
        click.echo(f"{s.heap:>10,}{s.value:>7}{s.supplies:>11,}{s.sole:>9,}")
    if len(led.suppliers) > top:
        click.echo(f"… {len(led.suppliers) - top:,} more below {led.below:,}")
    click.echo()
    click.echo(click.wrap_text(ledger_summary(led), width=100))


@cli.command("rare-survey")
@click.option(
    "--digits",
    type=click.IntRange(min=1, max=4),
    default=3,
    show_default=True,
    help="Every code of 1..DIGITS digits.",
)
@click.option(
    "--heaps",
    "-n",
    type=HEAPS,
    default=20_000,
    show_default=True,
    help="Read heaps 0..N-1 of each code.",
)
@click.option(
    "--all-codes", is_flag=True, help="Search every code, not only the growing ones (docs/surveys.md)."
)
@click.option(
    "--sigmas",
    type=click.FloatRange(min=0.0),
    default=2.0,
    show_default=True,
    help="How many standard deviations each fall must exceed.",
)
@click.option(
    "--keep",
    type=click.IntRange(min=1),
    default=3,
    show_default=True,
    help="Classes kept per code.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    help="Store each code's outcome in this catalogue as it finishes; a rerun resumes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def rare_survey(digits, heaps, all_codes, sigmas, keep, db, as_json):
    """Try every class (mask and parity) on every code of a family; list the classes that thin."""
    from contextlib import nullcontext

    from ..catalogue.database import Catalogue

    codes = list(family(digits))
    with (Catalogue(db) if db else nullcontext()) as cat, \
            progress(len(codes), f"rare classes of {len(codes)} codes") as update:
        res = R.rare_survey(codes, heaps, sigmas=sigmas, keep=keep, growing_only=not all_codes,
                            catalogue=cat, on_code=update)
    d = res.to_dict()
    if as_json:
        emit_json(d)
        return
    which = "every code" if all_codes else "the growing codes"
    click.echo(
        f"{d['codes_read']:,} codes read to {heaps:,} heaps; {d['codes_searched']:,} searched "
        f"({which}); {d['codes_with_thinning']:,} have a class that thins ({sigmas:g} sd per fall)"
    )
    head = f"{'code':>8}{'mask':>7}{'parity':>7}   {'rare heaps per third':<24}"
    click.echo(head + "values in the last third")
    for c in res.ranked:
        thirds = " ".join(f"{x:,}" for x in c.thirds)
        click.echo(
            f"{c.code:>8}{c.mask:>7}{c.parity:>7}   {thirds:<24}{_short(list(c.last_values))}"
        )
