"""``grundy nim``: a thin shell over :func:`grundy.readings.position.position`."""

from __future__ import annotations

import click

from ..readings.position import position
from .common import CODE, cli, emit_json


@cli.command()
@click.argument("code", type=CODE)
@click.argument("heaps", nargs=-1, required=True, type=click.IntRange(min=0))
@click.option("--sequence", type=click.Path(dir_okay=False),
              help="Start from the values stored at PATH (grundy values --out, grundy settle --out).")
@click.option("--db", type=click.Path(dir_okay=False, exists=True),
              help="Start from the values of CODE in this catalogue.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def nim(code, heaps, sequence, db, as_json):
    """The nim-value of the position HEAPS of CODE and every winning move.

    The player to move wins exactly when the value is not 0; each winning
    move leaves a position worth 0.  Once the period of CODE is certified
    (within the values computed, or those of --sequence or --db), a heap of
    any size is answered at once, and the splits of a heap past the period
    are listed as progressions.
    """
    if sequence and db:
        raise click.UsageError("--sequence and --db both give values to start from: give one")
    if sequence:
        from ..sequence import load

        p = position(code, heaps, source=load(sequence))
    elif db:
        from ..catalogue.database import Catalogue

        with Catalogue(db, readonly=True) as cat:
            p = position(code, heaps, source=cat)
    else:
        p = position(code, heaps)
    if as_json:
        emit_json(p.to_dict())
        return
    click.echo(f"code      {p.code}   (t = {p.code.t})")
    click.echo(f"heaps     {' '.join(f'{h:,}' for h in p.heaps)}")
    click.echo(f"values    {p.how}")
    click.echo(f"value     {p.value}: the player to move {'wins' if p.winning else 'loses'}")
    for m in p.winning_moves:
        left = " + ".join(f"{x:,}" for x in m.leaves) or "nothing"
        click.echo(f"move      take {m.removes} from {m.heap:,}, leaving {left}: "
                   f"{' '.join(f'{x:,}' for x in m.after) or 'no heaps'}")
    for s in p.winning_splits:
        click.echo(f"splits    {s}")
    if p.winning_splits:
        click.echo(f"in all    {p.count:,} winning moves")
