"""``grundy values``: compute a sequence, save or extend it, print a summary or JSON."""

from __future__ import annotations

import contextlib
import time

import click

from ..checkpoint import CHECKPOINT_SECONDS, compute_resumable, scratch
from ..engine import ENGINES, sparse
from ..errors import Interrupted
from ..present.formats import FORMATS, export
from ..sequence import paths
from .common import CODE, HEAPS, cli, emit_json, progress, warn

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
    """Grundy values of CODE for heaps 0..N-1.

    Without --out a long run keeps its checkpoint in the cache, the folder
    $GRUNDY_CACHE (default $XDG_CACHE_HOME/grundy or ~/.cache/grundy), under
    runs/: run the same command after an interrupt to resume; the checkpoint
    is deleted when the run ends.  Each checkpoint is locked by the one run
    using it; a bad file there is ignored, and a cache that cannot be written
    only means no checkpoints (each with a warning).
    """
    if fmt and as_json:
        raise click.UsageError("--json and --format print different things: give one")
    start = time.perf_counter()
    path = None
    holder = contextlib.nullcontext(out) if out else scratch(code, on_warning=warn)
    try:
        with holder as path, progress(heaps, f"{code}", unit="heaps") as update:

            def on_status(status: sparse.Status) -> None:
                update(status.heaps, str(status))

            seq, reused, stats = compute_resumable(
                code, heaps, path, engine=engine, every=checkpoint_seconds,
                on_progress=update, on_status=on_status, disposable=not out, on_warning=warn,
            )  # fmt: skip
    except KeyboardInterrupt:
        if path is None or not paths(path)[0].exists():
            raise Interrupted("stopped before any checkpoint was written") from None
        raise Interrupted(
            f"the last checkpoint at {paths(path)[0]} is kept: run the same command to resume"
        ) from None
    seconds = time.perf_counter() - start
    seq = seq if seq.depth == heaps else type(seq)(seq.code, seq.values[:heaps], seq.engine)
    if fmt:
        click.echo(export(seq.code, seq.values, fmt), nl=False)
        return
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
        click.echo(f"sparse    mask {stats.rare_class.label}, "
                   f"{stats.rare_heaps:,} rare heaps, {last_rare}")  # fmt: skip
    if out:
        click.echo(f"stored    {paths(out)[0]}")
    click.echo(f"values    {first}{more}")
