"""The ``grundy`` command: one sub-command per module in this package.

Every user mistake becomes one line on stderr and exit status 2; ``--json``
prints the same data as the human table, as one JSON object.  A command's
module is imported only when it runs (:mod:`.lazy`), so ``grundy --help``
starts in a few hundredths of a second.
"""

from __future__ import annotations

import sys

import click

from ..errors import GrundyError, Interrupted
from .common import cli


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning errors into one line and exit status 2."""
    try:
        rv = cli.main(args=argv, prog_name="grundy", standalone_mode=False)
    except Interrupted as exc:
        click.echo(f"grundy: interrupted: {exc}", err=True)
        sys.exit(130)
    except GrundyError as exc:
        click.echo(f"grundy: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort as exc:
        if isinstance(exc.__cause__, EOFError):
            click.echo(f"grundy: error: unexpected end of a file ({exc.__cause__})", err=True)
            sys.exit(2)
        click.echo("grundy: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"grundy: error: {exc.format_message()}", err=True)
        sys.exit(2)
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        click.echo(f"grundy: error: {exc.strerror or exc}{where}", err=True)
        sys.exit(2)
    except MemoryError as exc:
        detail = f" ({exc})" if str(exc) else ""
        click.echo(f"grundy: error: out of memory{detail}: ask for fewer heaps", err=True)
        sys.exit(2)
    sys.exit(rv if isinstance(rv, int) else 0)
