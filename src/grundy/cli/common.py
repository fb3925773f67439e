"""What every sub-command shares: the click group, code parsing, output and progress."""

from __future__ import annotations

import json
import signal
import sys
import threading
from contextlib import contextmanager

import click

from .. import __version__
from ..codes import Code, parse
from ..errors import CodeError, UsageError
from ..memory import check_heaps
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
            check_heaps(heaps)
        except UsageError as exc:
            self.fail(str(exc), param, ctx)
        return heaps


CODE = CodeParam()
HEAPS = HeapsParam()
"""A heap count to compute (refused before any work when its values would not fit in memory)."""
DEPTH = click.IntRange(min=1)
"""A heap count that only selects stored results (nothing is allocated for it)."""
RUN_HEAPS = click.IntRange(min=1)
"""A heap count for a run that keeps its values in a store: the run checks it against memory
itself, since a bounded run (:func:`grundy.store.grow`) needs little whatever the depth."""


@contextmanager
def sigterm_interrupts():
    """While the block runs, SIGTERM interrupts it as Ctrl-C does, so that a run killed by
    ``kill`` (a scheduler's time limit) saves what it holds before it exits."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def warn(message: str) -> None:
    """One line on stderr that does not stop the command (``grundy: warning: ...``)."""
    click.echo(f"grundy: warning: {message}", err=True)


def emit_json(obj: dict) -> None:
    """Print one JSON object on stdout (non-ASCII kept, so codes read ·137)."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def duration(seconds: float) -> str:
    """``h:mm:ss``, with the days in front past one (a long run's time to go: ``3 d 04:05:06``)."""
    days, rest = divmod(round(seconds), 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{hours}:{minutes:02d}:{secs:02d}"


def pace(done: int, total: int | None, speed: float | None, unit: str) -> str:
    """The rate and the time left to ``total`` at that rate: ``1,234 heaps/s, 0:00:42 to 65,536``."""
    if not speed:
        return ""
    rate = f"{speed:,.0f} {unit}/s"
    if total is None or done >= total:
        return rate
    return f"{rate}, {duration((total - done) / speed)} to {total:,}"


@contextmanager
def progress(total: int, description: str, done: int = 0, *, unit: str | None = None):
    """A rich progress bar on stderr, quiet when stderr is not a terminal.

    Yields ``update(n, info=None, total=None)`` that sets the number of units
    done and, when given, a short status text shown after the bar and a new
    total.  With ``unit`` the bar shows the rate and the estimated time to the
    total (:func:`pace`), measured from ``done`` (what an earlier run left), so
    a resumed run's rate counts only its own work.
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

    class Pace(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            total = None if task.total is None else int(task.total)
            return Text(pace(int(task.completed), total, speed, unit))

    timing = [Pace()] if unit else [TimeRemainingColumn()]
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        *timing,
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
