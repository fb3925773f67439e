"""One resumable runner for a family of codes over any ``concurrent.futures.Executor``.

:func:`run` maps a per-code function over codes (serially, on a process pool
or on a Dask ``Client.get_executor()``) and stores each code's output in the
catalogue as soon as it returns, in the driver process, so a run killed at any
moment loses at most the codes in flight and a run started again computes only
what is missing.  Where an output goes is an :class:`Entry`: the survey's
(:class:`grundy.catalogue.survey.SurveyEntry`) or a JSON record of any ``fn(code) ->
dict`` (:class:`Records`), such as the settlements of :func:`grundy.catalogue.campaign.settle_many`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..codes import Code, parse
from .database import Catalogue
from .executors import SerialExecutor, batch_results


class Entry(Protocol):
    """Where a family's per-code outputs live in the catalogue."""

    def stored(self, catalogue: Catalogue) -> set[str]:
        """The codes whose output is stored and current (same analysis version)."""

    def store(self, catalogue: Catalogue, output: Any) -> None:
        """Store one code's output, replacing what was stored for it."""


@dataclass(frozen=True)
class Records:
    """Outputs stored as JSON records of ``kind`` for ``params`` (a dict with a ``code`` key)."""

    kind: str
    params: dict = field(default_factory=dict)
    analysis: int = 1

    def stored(self, catalogue: Catalogue) -> set[str]:
        return catalogue.stored_records(self.kind, self.params, self.analysis)

    def store(self, catalogue: Catalogue, output: dict) -> None:
        catalogue.add_record(self.kind, output["code"], self.params, self.analysis, output)


@dataclass
class FamilyRun:
    """What one call of :func:`run` did: codes asked for, already stored, computed now."""

    codes: int
    stored_before: int
    computed: int


def _map(chunk: list[str], fn: Callable[[str], Any]) -> list:
    return [fn(code) for code in chunk]


def run(
    fn: Callable[[str], Any],
    codes: Iterable[Code | str],
    catalogue: Catalogue,
    entry: Entry,
    *,
    executor: Executor | None = None,
    batch: int = 1,
    recompute: Iterable[Code | str] = (),
    warm_up: Callable[[], None] | None = None,
    on_result: Callable[[Any], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> FamilyRun:
    """Compute ``fn(code)`` for each code not yet in ``entry`` and store each as it returns.

    ``fn`` takes the code's canonical string and must pickle for a process
    pool or Dask (a module-level function, or ``functools.partial`` of one).
    Codes in ``recompute`` are computed again even when stored.  Codes go to
    ``executor`` (serial when None) ``batch`` at a time; with another
    executor, ``warm_up()`` runs once in this process before the first is
    submitted (to fill the numba cache that workers load; a serial run
    compiles what it uses as it goes).  ``on_progress(done, total)`` is called at the
    start and after each code is stored, ``on_result(output)`` with each.
    """
    names = list(dict.fromkeys(str(parse(c)) for c in codes))
    again = {str(parse(c)) for c in recompute}
    stored = entry.stored(catalogue) - again
    todo = [c for c in names if c not in stored]
    done = len(names) - len(todo)
    if on_progress is not None:
        on_progress(done, len(names))
    executor = executor or SerialExecutor()
    if todo and warm_up is not None and not isinstance(executor, SerialExecutor):
        warm_up()
    computed = 0
    for outputs in batch_results(executor, _map, todo, batch, fn):
        for output in outputs:
            entry.store(catalogue, output)
            computed += 1
            if on_result is not None:
                on_result(output)
            if on_progress is not None:
                on_progress(done + computed, len(names))
    return FamilyRun(len(names), done, computed)
