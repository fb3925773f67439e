"""What every sub-command shares: the click group, code parsing, output and progress."""

from __future__ import annotations

import json
import signal
import sys
import threading
from contextlib import contextmanager

import click

from .. import checks
from .._version import __version__
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
RUN_HEAPS = click.IntRange(min=1)
"""A heap count for a run that keeps its values in a store: the run checks it against memory
itself, since a bounded run (:func:`grundy.engine.store.grow`) needs little whatever the depth."""


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


def compact(n: float) -> str:
    """A count in at most five characters: ``9,999``, then ``12.3K``, ``4.19M``, ``1.07G``
    (three significant digits, rounded into the next unit rather than to ``1e+03K``)."""
    if n < 10_000:
        return f"{n:,.0f}"
    for size, unit in ((1e3, "K"), (1e6, "M"), (1e9, "G")):
        text = f"{n / size:.3g}"
        if float(text) < 1000:
            return text + unit
    return f"{n / 1e12:.3g}T"


PRIORITY = ("rate", "count", "eta", "percent")
"""The columns of a progress bar left out first when the terminal is too narrow for all of them."""
BAR_MIN, INFO_MIN = 10, 16
"""The least room a progress bar keeps for the bar and for the status text before it drops a column."""


def progress_bar(console, description: str, *, unit: str | None = None):
    """A rich ``Progress`` that fits on one line of ``console``: every column has a fixed width, the
    bar takes what is left up to 30 columns, then the status text (cut with an ellipsis, never
    wrapped); on a narrow terminal the rate, the count, the time left and the percentage go first."""
    from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn
    from rich.table import Column
    from rich.text import Text

    def fixed(width: int) -> Column:
        return Column(width=width, no_wrap=True, overflow="ellipsis")

    class Count(ProgressColumn):
        def render(self, task):
            total = "?" if task.total is None else compact(task.total)
            return Text(f"{compact(task.completed)}/{total}")

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{compact(speed)} {unit}/s")

    widths = {"description": min(24, max(8, len(description))), "percent": 4, "count": 11, "eta": 7}
    if unit:
        widths["rate"] = 8 + len(unit)
    room = console.width - 1
    dropped = iter(PRIORITY)
    while sum(widths.values()) + len(widths) + BAR_MIN + 1 + INFO_MIN > room and len(widths) > 1:
        widths.pop(next(dropped), None)
    spare = room - sum(widths.values()) - len(widths)
    bar = max(5, min(30, spare - 1 - INFO_MIN))
    info = spare - bar - 1
    makers = {
        "description": lambda w: TextColumn("{task.description}", table_column=fixed(w)),
        "percent": lambda w: TextColumn("{task.percentage:>3.0f}%", table_column=fixed(w)),
        "count": lambda w: Count(table_column=fixed(w)),
        "rate": lambda w: Rate(table_column=fixed(w)),
        "eta": lambda w: TimeRemainingColumn(table_column=fixed(w)),
    }
    columns = [makers["description"](widths.pop("description")), BarColumn(bar_width=bar)]
    columns += [makers[name](w) for name, w in widths.items()]
    if info >= 1:
        columns.append(TextColumn("{task.fields[info]}", table_column=fixed(info)))
    return Progress(*columns, console=console, transient=True)


@contextmanager
def progress(total: int, description: str, done: int = 0, *, unit: str | None = None):
    """A progress bar on stderr (:func:`progress_bar`), quiet when stderr is not a terminal.

    Yields ``update(n, info=None, total=None)`` that sets the number of units
    done and, when given, a short status text shown after the bar and a new
    total.  With ``unit`` the bar also shows the rate (``unit``/s) and the time
    left where the terminal is wide enough; the bar starts at ``done`` (what
    an earlier run left), so a resumed run's rate counts only its own work.
    """
    if not sys.stderr.isatty():
        yield lambda n, info=None, total=None: None
        return
    from rich.console import Console

    bar = progress_bar(Console(stderr=True), description, unit=unit)
    with bar:
        task = bar.add_task(description, total=total, completed=done, info="")

        def update(n: int, info: str | None = None, total: int | None = None) -> None:
            fields = {"info": info} if info is not None else {}
            bar.update(task, completed=n, total=total, **fields)

        yield update
