"""``grundy settle``: a thin shell over :func:`grundy.readings.settle.settle`."""

from __future__ import annotations

import click

from ..engine.store import CHECKPOINT_SECONDS, store_path, stored_heaps
from ..readings.settle import FIRST_DEPTH, MAX_HEAPS, settle
from .common import CODE, HEAPS, cli, emit_json, progress, sigterm_interrupts, warn

NOT_SETTLED = 3
"""Exit status when the code is not certified within the budget (0: certified, 2: bad input)."""


@cli.command(name="settle")
@click.argument("code", type=CODE)
@click.option(
    "--max-heaps",
    type=HEAPS,
    default=MAX_HEAPS,
    show_default=True,
    help="Give up (not settled) once this many heaps are known.",
)
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.0, min_open=True),
    help="Give up (not settled) once this much CPU time is spent.",
)
@click.option(
    "--out",
    type=click.Path(),
    help="Keep the values in the store OUT (a folder): an interrupted run resumes from it, a "
         "finished one answers again at once; an old OUT.npy + OUT.json is migrated into one.",
)  # fmt: skip
@click.option(
    "--checkpoint-seconds",
    type=click.FloatRange(min=0.0),
    default=CHECKPOINT_SECONDS,
    show_default=True,
    help="How often --out is brought up to date while the run goes on (Ctrl-C and SIGTERM too).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (with the checksum).")
def settle_command(code, max_heaps, seconds, out, checkpoint_seconds, as_json):
    """Compute CODE deeper and deeper until its period is certified (Guy–Smith window).

    Exit status 0 when the period is certified, 3 when it is not within
    --max-heaps or --seconds (the JSON still says how far it got), 2 on bad input.
    """
    done = min(stored_heaps(out), max_heaps) if out else 0
    with sigterm_interrupts(), progress(max(FIRST_DEPTH, done), f"{code}", done, unit="heaps") as update:
        result = settle(
            code,
            max_heaps,
            out,
            seconds=seconds,
            checkpoint_seconds=checkpoint_seconds,
            on_depth=lambda depth, done: update(done, total=depth),
            on_chunk=lambda values: update(values.size),
            on_status=lambda status: update(status.heaps, str(status)),
            on_warning=warn,
        )
    if as_json:
        emit_json(result.to_dict())
    else:
        _print(result, max_heaps, out)
    return 0 if result.settled else NOT_SETTLED


def _print(result, max_heaps, out) -> None:
    r, s, code = result.reading, result.stats, result.code
    click.echo(f"code      {code}   (t = {code.t})")
    if result.settled:
        click.echo(
            f"settled   period {r.period:,} from heap {r.start:,}, certified: "
            f"window {r.window:,} (tight {r.tight_window:,})"
        )
    else:
        seen = f"the reading is period {r.period:,} from heap {r.start:,}" if r else "no reading"
        click.echo(f"unsettled within {result.heaps:,} heaps: {seen}")
    reused = f", {result.reused:,} reused from {out}" if result.reused else ""
    click.echo(f"heaps     {result.heaps:,} computed in {result.seconds:.2f} s{reused}")
    click.echo(f"largest   {result.max}")
    click.echo(f"checksum  {result.checksum}   (Fletcher-32, as the published programs print it)")
    if s:
        last = "none" if s.last_rare is None else f"the last at heap {s.last_rare:,}"
        click.echo(
            f"sparse    mask {s.rare_class.label}, "
            f"{s.rare_heaps:,} rare heaps, {last}"
        )
    if out:
        click.echo(f"stored    {store_path(out)}")
