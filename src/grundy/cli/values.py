"""``grundy values``: compute a sequence into a store, extend it, print a summary or JSON."""

from __future__ import annotations

import time

import click

from ..engine import ENGINES
from ..engine.checkpoint import compute_resumable, scratch
from ..engine.store import CHECKPOINT_SECONDS, MEMORY, Store
from ..errors import Interrupted
from ..present.formats import FORMATS, export
from ..value_classes import RareClass
from .common import CODE, RUN_HEAPS, cli, emit_json, progress, sigterm_interrupts, warn

FIRST = 60
JSON_VALUES = 1 << 20
"""``--json`` carries the values themselves up to this many heaps (beyond: ``--format``, the store)."""


@cli.command()
@click.argument("code", type=CODE)
@click.option("--heaps", "-n", type=RUN_HEAPS, required=True, help="Compute heaps 0..N-1.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True)
@click.option(
    "--out",
    type=click.Path(),
    help="Keep the values in the store OUT (a folder, made if missing): a store that holds M "
         "heaps computes only the rest; an old OUT.npy + OUT.json is migrated into one.",
)  # fmt: skip
@click.option(
    "--memory",
    type=click.FloatRange(min=1.0),
    default=MEMORY / 2**20,
    show_default=True,
    help="MiB of values a run with --out keeps in memory: a deeper run of a code with a sparse-space "
         "method keeps the first heaps and a tail, reading the rest back from the store.",
)  # fmt: skip
@click.option(
    "--checkpoint-seconds",
    type=click.FloatRange(min=0.0),
    default=CHECKPOINT_SECONDS,
    show_default=True,
    help="How often a long run stores what it has (Ctrl-C and SIGTERM store it too).",
)
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: the summary, the checksum, the frontier statistics, and "
                   f"the values themselves when there are at most {JSON_VALUES:,} heaps.")  # fmt: skip
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Print only the values: text (the compact notation when a period is certified), "
                   "csv, bfile (OEIS b-file lines 'n G(n)') or json.")
def values(code, heaps, engine, out, memory, checkpoint_seconds, as_json, fmt):
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
    with sigterm_interrupts():
        holder = Store.writer(out, code, on_warning=warn) if out else scratch(code, on_warning=warn)
        with holder as store:
            have = min(len(store), heaps) if store is not None else 0
            try:
                with progress(heaps, f"{code}", done=have, unit="heaps") as update:
                    seq, reused, _ = compute_resumable(
                        code, heaps, store, engine=engine, memory=int(memory * 2**20),
                        every=checkpoint_seconds, on_progress=update,
                        on_status=lambda status: update(status.heaps, str(status)),
                        disposable=not out, on_warning=warn,
                    )  # fmt: skip
            except KeyboardInterrupt:
                raise Interrupted(_kept(store)) from None
            seconds = time.perf_counter() - start
            _print(seq, heaps, reused, seconds, store if out else None, as_json, fmt)


def _kept(store) -> str:
    if store is None or not len(store):
        return "stopped before any heaps were stored"
    return f"{len(store):,} heaps are kept in {store.path}: run the same command to resume"


def _frontier(seq, heaps: int) -> list:
    """The frontier statistics of the first ``heaps`` heaps (a store may hold more)."""
    if len(seq) == heaps:
        return seq.frontier()
    return seq.store.frontier_at(heaps).history()


def _print(seq, heaps, reused, seconds, store, as_json, fmt) -> None:
    if fmt:
        click.echo(export(seq.code, seq[:heaps], fmt), nl=False)
        return
    records = _frontier(seq, heaps)
    end = records[-1]
    computed = heaps - reused
    if as_json:
        obj = {"code": str(seq.code), "t": seq.code.t, "heaps": heaps, "max": end.max,
               "argmax": end.argmax, "checksum": end.checksum, "engine": seq.engine,
               "seconds": round(seconds, 3), "reused": reused}  # fmt: skip
        if end.mask is not None:
            obj.update(mask=end.mask, position=end.position, rare_heaps=end.rare_heaps,
                       last_rare=end.last_rare)  # fmt: skip
        obj["frontier"] = [r.to_dict() for r in records]
        if store is not None:
            obj["store"] = str(store.path)
        if heaps <= JSON_VALUES:
            obj["values"] = seq[:heaps].tolist()
        emit_json(obj)
        return
    first = " ".join(str(int(v)) for v in seq[: min(FIRST, heaps)])
    more = " …" if heaps > FIRST else ""
    click.echo(f"code      {seq.code}   (t = {seq.code.t})")
    click.echo(f"heaps     {heaps:,}   (0..{heaps - 1:,})")
    click.echo(f"largest   {end.max}, first at heap {end.argmax:,}")
    click.echo(f"checksum  {end.checksum}   (Fletcher-32, as the published programs print it)")
    if computed:
        was = f", {reused:,} heaps reused" if reused else ""
        click.echo(f"engine    {seq.engine}, {seconds:.3f} s{was}")
    else:
        click.echo(f"engine    nothing computed: {len(seq):,} heaps were stored already")
    if end.mask is not None:
        last = "none" if end.last_rare is None else f"the last at heap {end.last_rare:,}"
        label = RareClass(end.mask, 0, end.position).label
        click.echo(f"sparse    mask {label}, {end.rare_heaps:,} rare heaps, {last}")
    if store is not None:
        click.echo(f"stored    {store.path}   ({len(store):,} heaps in {len(store.entries):,} chunks)")
    click.echo(f"values    {first}{more}")
