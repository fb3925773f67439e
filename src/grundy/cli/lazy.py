"""The ``grundy`` group loads a sub-command's module only when that command runs.

``grundy --help`` lists every command from :data:`COMMANDS` without importing
one (the modules pull in numpy, numba, matplotlib); running a command imports
its module, which registers it on the group as usual.  A test keeps the table
equal to what the modules register.
"""

from __future__ import annotations

import importlib

import click

COMMANDS = {
    "counts": ("rare", "Move counts and split counts of value V at every heap of a range."),
    "ledger": ("rare", "Which rare heaps supply value V, and how concentrated the supply is."),
    "nim": ("position", "The nim-value of the position HEAPS of CODE and every winning move."),
    "period": (
        "periods",
        "The reading of CODE at depth N, and beside it the arithmetic reading (saltus > 0), if any.",
    ),
    "rare": ("rare", "Where the heaps of a rare class of CODE arrive past a cut-off."),
    "rare-survey": (
        "rare",
        "Try every class (mask and parity) on every code of a family; list the classes that thin.",
    ),
    "readings": (
        "periods",
        "The reading of CODE at every depth until the final window closes, and every false reading.",
    ),
    "report": (
        "report",
        "Write index.html, a page per code and the tallies of a catalogue as a static site.",
    ),
    "settle": (
        "settle",
        "Compute CODE deeper and deeper until its period is certified (Guy–Smith window).",
    ),
    "show": ("survey", "One code as stored in the catalogue."),
    "survey": (
        "survey",
        "Read every code of a family to N heaps, store each in the catalogue, print the tallies.",
    ),
    "values": ("values", "Grundy values of CODE for heaps 0..N-1."),
}
"""Each command: the module of this package that defines it, and its summary line."""


class LazyGroup(click.Group):
    """A click group whose commands live in modules imported on first use (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(f"{__package__}.{COMMANDS[cmd_name][0]}")
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = [n for n in self.list_commands(ctx) if n in COMMANDS or not self.commands[n].hidden]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            if name in self.commands:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
            else:
                rows.append((name, click.utils.make_default_short_help(COMMANDS[name][1], limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
