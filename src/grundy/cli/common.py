"""What every sub-command shares: the click group, code parsing, output and progress."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager

import click

from .. import __version__, checks
from ..codes import Code, parse
from ..errors import CodeError, UsageError
from .lazy import LazyGroup


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="grundy")
def cli() -> None:
    """Exact Grundy sequences of octal games, certified periods, surveys."""


class CodeParam(click.ParamType):
    """A game code such as ·137, .137, 0.137, 4.07, 4· (or bare 4) or 0x·9."""

    name = "CODE"

    def convert(self, value, param, ctx) -> Code:
        if isinstance(value, Code):
            return value
        try:
            return parse(value)
        except CodeError as exc:
            raise click.BadParameter(str(exc)) from None


class HeapsParam(click.IntRange):
    """A number of heaps to compute: at least 1, and whose values fit in the memory available."""

    name = "N"

    def __init__(self) -> None:
        super().__init__(min=1)

    def convert(self, value, param, ctx) -> int:
        heaps = super().convert(value, param, ctx)
        try:
            checks.heaps(heaps)
        except UsageError as exc:
            self.fail(str(exc), param, ctx)
        return heaps


CODE = CodeParam()
HEAPS = HeapsParam()
"""A heap count to compute (refused before any work when its values would not fit in memory)."""
DEPTH = click.IntRange(min=1)
"""A heap count that only selects stored results (nothing is allocated for it)."""


def warn(message: str) -> None:
    """One line on stderr that does not stop the command (``grundy: warning: ...``)."""
    click.echo(f"grundy: warning: {message}", err=True)


def emit_json(obj: dict) -> None:
    """Print one JSON object on stdout (non-ASCII kept, so codes read ·137)."""
    click.echo(json.dumps(obj, ensure_ascii=False))


@contextmanager
def progress(total: int, description: str, done: int = 0, *, unit: str | None = None):
    """A rich progress bar on stderr, quiet when stderr is not a terminal.

    Yields ``update(n, info=None, total=None)`` that sets the number of units
    done and, when given, a short status text shown after the bar and a new
    total.  With ``unit`` the bar also shows the rate (``unit``/s).
    """
    if not sys.stderr.isatty():
        yield lambda n, info=None, total=None: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.0f} {unit}/s")

    rate = [Rate()] if unit else []
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *rate,
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[info]}"),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task(description, total=total, completed=done, info="")

        def update(n: int, info: str | None = None, total: int | None = None) -> None:
            fields = {"info": info} if info is not None else {}
            bar.update(task, completed=n, total=total, **fields)

        yield update
