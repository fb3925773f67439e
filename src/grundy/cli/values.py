"""``grundy values``: compute a sequence, save or extend it, print a summary or JSON."""

from __future__ import annotations

import time

import click

from ..checkpoint import CHECKPOINT_SECONDS, cache_dir, compute_resumable, file_stem
from ..engine import ENGINES, sparse
from ..errors import Interrupted
from ..present.formats import FORMATS, export
from ..sequence import paths
from .common import CODE, HEAPS, cli, emit_json, progress

FIRST = 60


@cli.command()
@click.argument("code", type=CODE)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Compute heaps 0..N-1.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Store the sequence as OUT.npy + OUT.json; an existing one is reused or extended.",
)
@click.option(
    "--checkpoint-seconds",
    type=click.FloatRange(min=0.0),
    default=CHECKPOINT_SECONDS,
    show_default=True,
    help="How often a long run saves what it has (an interrupted run resumes from there).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every value.")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Print only the values: text (the compact notation when a period is certified), "
                   "csv, bfile (OEIS b-file lines 'n G(n)') or json.")
def values(code, heaps, engine, out, checkpoint_seconds, as_json, fmt):
    """Grundy values of CODE for heaps 0..N-1."""
    if fmt and as_json:
        raise click.UsageError("--json and --format print different things: give one")
    path = out or cache_dir() / "runs" / file_stem(code)
    start = time.perf_counter()
    last = [None]
    with progress(heaps, f"{code}", unit="heaps") as update:

        def on_status(status: sparse.Status) -> None:
            last[0] = status
            update(status.heaps, str(status))

        try:
            seq, reused = compute_resumable(
                code, heaps, path, engine=engine, every=checkpoint_seconds,
                on_progress=update, on_status=on_status,
            )  # fmt: skip
        except KeyboardInterrupt:
            where = f" at {paths(path)[0]}" if out or paths(path)[0].exists() else ""
            raise Interrupted(
                f"the last checkpoint{where} is kept: run the same command to resume"
            ) from None
    seconds = time.perf_counter() - start
    if out is None:
        for p in paths(path):
            p.unlink(missing_ok=True)
    seq = seq if seq.depth == heaps else type(seq)(seq.code, seq.values[:heaps], seq.engine)
    if fmt:
        click.echo(export(seq.code, seq.values, fmt), nl=False)
        return
    stats = None if last[0] is None else sparse.statistics(seq.code, seq.values, last[0].mask)
    if as_json:
        obj = seq.to_dict()
        obj.update(argmax=seq.argmax, engine=seq.engine, seconds=round(seconds, 3), reused=reused)
        obj.update(stats.to_dict() if stats else {})
        emit_json(obj)
        return
    first = " ".join(str(int(v)) for v in seq.values[:FIRST])
    more = " …" if seq.depth > FIRST else ""
    click.echo(f"code      {seq.code}   (t = {seq.code.t})")
    click.echo(f"heaps     {seq.depth:,}   (0..{seq.depth - 1:,})")
    click.echo(f"largest   {seq.max}, first at heap {seq.argmax:,}")
    click.echo(f"engine    {seq.engine}, {seconds:.3f} s" + (f", {reused:,} heaps reused" if reused else ""))
    if stats:
        last_rare = "none" if stats.last_rare is None else f"the last at heap {stats.last_rare:,}"
        click.echo(f"sparse    mask {stats.mask}{'+position' if stats.position else ''}, "
                   f"{stats.rare_heaps:,} rare heaps, {last_rare}")  # fmt: skip
    if out:
        click.echo(f"stored    {paths(out)[0]}")
    click.echo(f"values    {first}{more}")
