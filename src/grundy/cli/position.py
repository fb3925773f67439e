"""``grundy nim``: a thin shell over :func:`grundy.position.position`."""

from __future__ import annotations

import click

from ..position import position
from .common import CODE, cli, emit_json


@cli.command()
@click.argument("code", type=CODE)
@click.argument("heaps", nargs=-1, required=True, type=click.IntRange(min=0))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def nim(code, heaps, as_json):
    """The nim-value of the position HEAPS of CODE and every winning move.

    The player to move wins exactly when the value is not 0; each winning
    move leaves a position worth 0.
    """
    p = position(code, heaps)
    if as_json:
        emit_json(p.to_dict())
        return
    click.echo(f"code      {p.code}   (t = {p.code.t})")
    click.echo(f"heaps     {' '.join(str(h) for h in p.heaps)}")
    click.echo(f"value     {p.value}: the player to move {'wins' if p.winning else 'loses'}")
    for m in p.winning_moves:
        left = " + ".join(str(x) for x in m.leaves) or "nothing"
        click.echo(f"move      take {m.removes} from {m.heap}, leaving {left}: "
                   f"{' '.join(str(x) for x in m.after) or 'no heaps'}")
