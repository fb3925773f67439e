"""``grundy period`` and ``grundy readings``: the reading at a depth, and the trajectory."""

from __future__ import annotations

import click

from ..engine import compute
from ..errors import UsageError
from ..present.figures import FORMATS
from ..readings.periods import arithmetic_reading, reading
from ..readings.trajectory import trajectory
from .common import CODE, HEAPS, cli, emit_json, progress

HEAP0 = click.option(
    "--heap0", is_flag=True, help="Let a reading start at heap 0 (never certified)."
)
JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def _values(code, heaps):
    with progress(heaps, f"{code}") as update:
        return compute(code, heaps, on_chunk=lambda v: update(v.size))


@cli.command()
@click.argument("code", type=CODE)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Read heaps 0..N-1.")
@HEAP0
@JSON
def period(code, heaps, heap0, as_json):
    """The reading of CODE at depth N, and beside it the arithmetic reading (saltus > 0), if any."""
    values = _values(code, heaps)
    found = reading(values, code, heap0=heap0)
    arith = None if heap0 else arithmetic_reading(values, code)
    if as_json:
        emit_json({
            "code": str(code), "t": code.t, "heaps": heaps,
            "reading": found and found.to_dict(), "arithmetic": arith and arith.to_dict(),
        })
        return
    click.echo(f"code        {code}   (t = {code.t})")
    click.echo(f"heaps       {heaps:,}")
    if found is None:
        click.echo("reading     none: no stretch ending at the last heap repeats twice")
    else:
        click.echo(f"reading     period {found.period} from heap {found.start}")
        click.echo(f"window      {found.window} (tight {found.tight_window})")
        if found.certified:
            state = "certified: the period holds for ever (Guy–Smith)"
        elif found.start == 0:
            state = "not certified: a period that includes heap 0 is never certified"
        else:
            state = f"not certified: the window needs {found.window:,} heaps, {heaps:,} known"
        click.echo(f"status      {state}")
    if arith is not None:
        click.echo(
            f"arithmetic  period {arith.period} from heap {arith.start}, saltus {arith.saltus} "
            f"(three periods seen; never certified: docs/arithmetic.md)"
        )


@cli.command()
@click.argument("code", type=CODE)
@click.option("--heaps", "-n", type=HEAPS, required=True, help="Read heaps 0..N-1.")
@click.option(
    "--plot", type=click.Path(dir_okay=False), help="Draw the trajectory to PATH (.png or .svg)."
)
@HEAP0
@JSON
def readings(code, heaps, plot, heap0, as_json):
    """The reading of CODE at every depth until the final window closes, and every false reading."""
    if plot and not plot.lower().endswith(FORMATS):
        raise UsageError(f"--plot writes a .png or .svg file, not {plot!r}")
    tr = trajectory(_values(code, heaps), code, heap0=heap0)
    if plot:
        from ..present.figures import save
        from ..present.figures.trajectory import plot as draw

        save(draw(tr), plot)
    if as_json:
        emit_json(tr.to_dict())
        return
    click.echo(f"code          {code}   (t = {code.t}){'   heap 0 allowed' if heap0 else ''}")
    click.echo(f"heaps         {heaps:,}")
    if tr.final is None:
        click.echo(f"final         none: no reading at depth {heaps:,}")
    else:
        f = tr.final
        click.echo(f"final         period {f.period} from heap {f.start}, window {f.window}")
    if tr.certified:
        click.echo(
            f"certified     at depth {tr.certificate_depth:,}; right from depth {tr.right_from:,}; "
            f"{tr.repetitions_needed:.2f} repetitions needed"
        )
    else:
        click.echo(f"certified     no: the window has not closed by depth {heaps:,}")
    click.echo(f"changes       {tr.changes}")
    believed = "  ".join(f"r={r}: {n}" for r, n in tr.believed.items())
    click.echo(f"believed      {believed}")
    click.echo(f"false         {len(tr.false_readings)}")
    if tr.false_readings:
        head = ("start", "period", "first", "last", "held to", "window", "reach")
        click.echo("  " + " ".join(f"{h:>7}" for h in head) + "  kind")
        for r in tr.false_readings:
            row = (r.start, r.period, r.first_depth, r.last_depth, r.held_to, r.window)
            early = ", before the final start" if r.before_start else ""
            kind = r.kind.replace("_", " ") + early
            click.echo("  " + " ".join(f"{v:>7}" for v in row) + f" {r.reach:>7.3f}  {kind}")
    if plot:
        click.echo(f"plot          {plot}")
