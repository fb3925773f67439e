"""``grundy survey`` and ``grundy show``: a family into the catalogue, and one stored code."""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager

import click

from ..catalogue.database import DEFAULT_PATH, Catalogue
from ..checks import MAX_DIGITS
from ..codes import family, parse
from ..errors import CodeError, Interrupted, UsageError
from .common import HEAPS, cli, emit_json, progress, warn

DEFAULT_DB = DEFAULT_PATH


def code_list(text: str, option: str) -> list:
    """The codes of a comma-separated list; an empty list is a usage error, not "every code"."""
    names = [c.strip() for c in text.split(",") if c.strip()]
    if not names:
        raise UsageError(f"{option} needs at least one code (a comma-separated list such as ·137,·45)")
    try:
        return [parse(c) for c in names]
    except CodeError as exc:
        raise UsageError(f"{option}: {exc}") from None


def _codes(digits, codes, d0=False, hexadecimal=False):
    """The family asked for: ``--codes``, or every code of ``--digits`` (3 by default); options
    that would change a family given by ``--codes`` contradict it and are refused."""
    if codes is None:
        return list(family(3 if digits is None else digits, d0=d0, hexadecimal=hexadecimal))
    given = [name for name, value in (("--digits", digits), ("--d0", d0), ("--hex", hexadecimal)) if value]
    if given:
        raise UsageError(f"{' and '.join(given)} make a family, and --codes lists one: give one or the other")
    return code_list(codes, "--codes")


def _recompute(text, wanted):
    """The codes of ``--recompute``, each of which must be in the family surveyed."""
    again = code_list(text, "--recompute")
    outside = [str(c) for c in again if c not in set(wanted)]
    if outside:
        raise UsageError(f"--recompute {', '.join(outside)}: not in the family surveyed "
                         "(add them to --codes, or survey them on their own)")
    return again


def _workers(workers):
    """``--workers``, capped at the cores this process may run on (with a note)."""
    from ..catalogue.executors import cores

    if workers is not None and workers > cores():
        warn(f"--workers {workers} is more than the {cores()} cores here: using {cores()}")
        return cores()
    return workers


def _not_an_address(scheduler: str, why) -> UsageError:
    return UsageError(f"--scheduler {scheduler!r} is not the address of a Dask scheduler ({why}): "
                      "write it as tcp://HOST:PORT")


def _check_scheduler(scheduler: str) -> None:
    """Refuse a ``--scheduler`` that is no address (or whose port cannot be) before anything is
    opened, and before Dask would spend its timeout on it."""
    if not scheduler.strip():
        raise UsageError("--scheduler needs the address of a Dask scheduler, such as tcp://HOST:8786")
    try:
        from distributed.comm.addressing import get_address_host_port, parse_address
        from distributed.comm.registry import get_backend
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'grundy[dask]'") from None
    try:
        scheme = parse_address(scheduler)[0]
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            port = get_address_host_port(scheduler)[1]
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not between 1 and 65535")
    except (ValueError, TypeError) as exc:
        raise _not_an_address(scheduler, exc) from None


@contextmanager
def _sigterm_interrupts(db):
    """Turn SIGTERM into :class:`Interrupted`, so that the pool's workers are ended on the way out."""

    def stop(signum, frame):
        raise Interrupted(f"survey stopped by SIGTERM; every code finished is stored in {db}: "
                          "run the same command to go on")

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _executor(workers, scheduler):
    if scheduler is not None:
        from distributed import Client

        try:
            client = Client(scheduler, timeout="10s")
        except (ValueError, TypeError) as exc:
            raise _not_an_address(scheduler, exc) from None
        except OSError as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        return client.get_executor(), client
    from ..catalogue.executors import default_executor

    return default_executor(workers), None


@cli.command()
@click.option("--digits", type=click.IntRange(1, MAX_DIGITS),
              help="Every octal code of 1..DIGITS digits  [default: 3, unless --codes]")
@click.option("--d0", is_flag=True, help="Each code of the family also with 4 before the point.")
@click.option("--hex", "hexadecimal", is_flag=True,
              help="Digits up to f (three-heap moves; the engine is cubic there, keep N modest).")
@click.option("--codes", help="An explicit comma-separated list of codes instead (·137,·45).")
@click.option("--recompute", metavar="CODES",
              help="Compute these codes of the family again even if stored (comma-separated).")
@click.option("--heaps", "-n", type=HEAPS, default=2400, show_default=True)
@click.option("--db", type=click.Path(dir_okay=False), default=DEFAULT_DB, show_default=True,
              help="The catalogue file (SQLite); codes already in it are not recomputed.")
@click.option("--workers", type=click.IntRange(min=1),
              help="Processes (default and most: one per core).")
@click.option("--scheduler", help="Address of a Dask scheduler to run the codes on.")
@click.option("--json", "as_json", is_flag=True, help="Print the tallies as one JSON object.")
def survey(digits, d0, hexadecimal, codes, recompute, heaps, db, workers, scheduler, as_json):
    """Read every code of a family to N heaps, store each in the catalogue, print the tallies."""
    from ..catalogue.survey import run
    from ..readings.tallies import tallies

    wanted = list(dict.fromkeys(_codes(digits, codes, d0, hexadecimal)))
    again = [] if recompute is None else _recompute(recompute, wanted)
    if scheduler is not None:
        if workers is not None:
            raise UsageError("--workers sets the processes of this machine and --scheduler sends the "
                             "codes to Dask's workers: give one or the other")
        _check_scheduler(scheduler)
    workers = _workers(workers)
    start = time.perf_counter()
    with Catalogue(db) as cat:
        executor, client = _executor(workers, scheduler)
        try:
            with _sigterm_interrupts(db), progress(len(wanted), "survey") as update, executor:
                outcome = run(
                    wanted, cat, heaps=heaps, executor=executor, recompute=again,
                    on_progress=lambda done, total: update(done),
                    on_damaged=lambda code, message: click.echo(
                        f"grundy: warning: {message}: computing it again", err=True),
                )
        finally:
            if client is not None:
                client.close()
        summary = tallies(cat.results(heaps=heaps, options={}, codes={str(c) for c in wanted}))
    summary["survey"] = {
        "heaps": heaps,
        "db": str(db),
        "stored_before": outcome.stored_before,
        "computed": outcome.computed,
        "seconds": round(time.perf_counter() - start, 3),
    }
    if as_json:
        emit_json(summary)
    else:
        _print_tallies(summary)


def _print_tallies(s: dict) -> None:
    run = s["survey"]
    click.echo(f"survey of {s['codes']} codes to {run['heaps']:,} heaps in {run['db']} "
               f"({run['computed']} computed, {run['stored_before']} already stored, {run['seconds']} s)")
    click.echo(f"  settled {s['settled']}   growing {s['growing']} "
               f"({s['distinct_sequences_growing']} distinct sequences)   "
               f"bounded, unsettled {s['bounded_unsettled']}")
    click.echo(click.wrap_text(
        f"Settled: the period is certified within {run['heaps']:,} heaps, a theorem. Growing and bounded "
        "describe the values at this depth and prove nothing. Below, readings are scored on the settled "
        "codes, each read to its certificate depth (an unsettled code has no truth to score against): a "
        "false reading is one the sweep reported on the way that the certificate proves wrong, and its "
        "reach is held to / window (1 would have made it a certificate).",
        width=100, initial_indent="  ", subsequent_indent="  "))
    click.echo("scored on the settled codes:")
    rows = [
        ("right from the first reading", s["right_first"]),
        ("  of those periodic from heap 1", f"{s['periodic_from_1_right_first']} of {s['periodic_from_1']}"),
        ("  of those periodic later", f"{s['periodic_later_right_first']} of {s['periodic_later']}"),
        ("one change", s["changes_once"]),
        ("5 to 100 changes", s["changes_5_to_100"]),
        ("over 150 changes", s["changes_over_150"]),
        ("false readings", s["false_readings"]),
        ("  started before the final start", s["false_before_start"]),
        ("  reached their window (must be 0)", s["reached_window"]),
        ("  median / max reach", f"{_fmt(s['median_reach'])} / {_fmt(s['max_reach'])}"),
        ("repetitions needed (min/median/max)", _spread(s["repetitions_needed"])),
        ("certificate - right from (min/median/max)", _spread(s["right_to_window_gap"])),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        click.echo(f"  {k:<{width}}  {v}")
    click.echo("  false readings by period: " + ", ".join(f"{p}: {n}" for p, n in s["false_by_period"].items()))
    click.echo("  kinds (period > 1): " + ", ".join(f"{k} {n}" for k, n in s["kinds"].items()))
    click.echo("  still believed by r repetitions: " + ", ".join(f"r={r}: {n}" for r, n in s["believed"].items()))
    if s["most_convincing"]:
        click.echo("most convincing false readings:")
        for fr in s["most_convincing"]:
            click.echo(f"  {fr['code']:>8}  period {fr['period']} from {fr['start']}, held to "
                       f"{fr['held_to']} of window {fr['window']} (reach {fr['reach']:.3f})")
    click.echo(f"heap 0 allowed: {len(s['heap0'])} false readings reach their window"
               + "".join(f"\n  {h['code']:>8}  period {h['period']} from {h['start']}, window {h['window']}"
                         for h in s["heap0"][:10]))


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.3f}" if isinstance(x, float) else str(x)


def _spread(d: dict) -> str:
    return " / ".join(_fmt(d[k]) for k in ("min", "median", "max"))


@cli.command()
@click.argument("code")
@click.option("--db", type=click.Path(dir_okay=False, exists=True), default=DEFAULT_DB, show_default=True)
@click.option("--heaps", "-n", type=HEAPS, help="Which depth, when the code is stored at several.")
@click.option("--json", "as_json", is_flag=True)
def show(code, db, heaps, as_json):
    """One code as stored in the catalogue."""
    name = str(parse(code))
    with Catalogue(db, readonly=True) as cat:
        found = list(cat.results(heaps=heaps, codes=[name]))
    if not found:
        raise UsageError(f"{name} is not in {db}" + (f" at {heaps} heaps" if heaps else ""))
    record = found[-1]
    if as_json:
        emit_json(record.to_dict())
    else:
        click.echo(str(record))
