"""``grundy report``: the catalogue as a static website."""

from __future__ import annotations

import time
from pathlib import Path

import click

from ..catalogue.database import Catalogue
from .common import HEAPS, cli, emit_json, progress


@cli.command()
@click.option("--db", type=click.Path(dir_okay=False, exists=True), default="catalogue.sqlite", show_default=True,
              help="The catalogue file written by grundy survey.")
@click.option("--out", type=click.Path(file_okay=False), default="report", show_default=True,
              help="The folder of the site; running again updates it.")
@click.option("--heaps", "-n", type=HEAPS, help="Only results at this depth (default: each code's deepest).")
@click.option("--json", "as_json", is_flag=True, help="Print what was done as one JSON object.")
def report(db, out, heaps, as_json):
    """Write index.html, a page per code and the tallies of a catalogue as a static site."""
    from ..present.site import choose, write_report

    start = time.perf_counter()
    with Catalogue(db, readonly=True) as cat:
        codes = len(choose(cat.results(heaps=heaps)))
        with progress(codes, "report", unit="pages") as update:
            outcome = write_report(cat, out, heaps=heaps, on_page=lambda done, total: update(done))
    summary = dict(outcome.to_dict(), seconds=round(time.perf_counter() - start, 3))
    if as_json:
        emit_json(summary)
        return
    click.echo(f"report of {outcome.codes} codes in {out}: {outcome.written} pages written, "
               f"{outcome.kept} up to date, {outcome.removed} removed ({summary['seconds']} s)")
    click.echo(f"open {Path(out) / 'index.html'}")
