"""Surveys: a family of codes through the flow, over any ``concurrent.futures.Executor``.

Each code is computed to ``heaps``, read (the trajectory of SPEC.md §4, with
heap 0 excluded and, separately, allowed) and classified (§6).  Workers only
compute; the driver process writes every result to the catalogue as it
arrives, so an interrupted survey loses nothing it had finished.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

from . import __version__
from .catalogue import Catalogue
from .codes import Code, parse
from .engine import compute
from .executors import SerialExecutor, batch_results
from .growth import is_growing
from .periods import arithmetic_reading
from .trajectory import trajectory

DEFAULT_HEAPS = 2400
STATUSES = ("settled", "growing", "bounded_unsettled")


def survey_code(code: Code | str, heaps: int = DEFAULT_HEAPS) -> dict:
    """Everything a survey stores about one code, as a JSON-ready dict."""
    code = parse(code)
    values = compute(code, heaps)
    traj = trajectory(values, code)
    heap0 = trajectory(values, code, heap0=True)
    arith = arithmetic_reading(values, code)
    if traj.certified:
        status = "settled"
    elif is_growing(values):
        status = "growing"
    else:
        status = "bounded_unsettled"
    final = traj.final if traj.certified else None
    return {
        "code": str(code),
        "t": code.t,
        "heaps": heaps,
        "status": status,
        "start": final.start if final else None,
        "period": final.period if final else None,
        "window": final.window if final else None,
        "certificate_depth": traj.certificate_depth,
        "right_from": traj.right_from,
        "changes": traj.changes,
        "repetitions_needed": traj.repetitions_needed,
        "max_value": int(values.max()),
        "argmax": int(np.argmax(values)),
        "values_sha256": hashlib.sha256(values.astype(np.uint32).tobytes()).hexdigest(),
        "version": __version__,
        "false_readings": [fr.to_dict() for fr in traj.false_readings],
        "believed": {str(r): n for r, n in traj.believed.items()},
        "heap0_reached": [
            {"start": fr.start, "period": fr.period, "window": fr.window}
            for fr in heap0.false_readings
            if fr.held_to >= fr.window
        ],
        "arithmetic": arith.to_dict() if arith is not None else None,
    }


def _survey_batch(codes: list[str], heaps: int) -> list[dict]:
    return [survey_code(c, heaps) for c in codes]


def warm_up() -> None:
    """Compile (or load from the numba cache) every kernel before workers start."""
    survey_code("·137", 200)
    survey_code("4·07", 200)
    survey_code("·6", 300)


@dataclass
class SurveyRun:
    """What one call of :func:`run` did: codes asked for, already stored, computed now."""

    codes: int
    stored_before: int
    computed: int


def run(
    codes: Iterable[Code | str],
    catalogue: Catalogue,
    *,
    heaps: int = DEFAULT_HEAPS,
    executor: Executor | None = None,
    batch: int | None = None,
    on_result: Callable[[dict], None] | None = None,
) -> SurveyRun:
    """Survey ``codes`` into ``catalogue``, skipping those it already holds.

    Codes go to ``executor`` (serial when None) in batches of ``batch``
    (default: one code in serial, eight otherwise); each result is written by
    this process as soon as its batch returns.
    """
    names = list(dict.fromkeys(str(parse(c)) for c in codes))
    options: dict = {}
    stored = catalogue.stored_codes(heaps, options)
    todo = [c for c in names if c not in stored]
    executor = executor or SerialExecutor()
    batch = batch or (1 if isinstance(executor, SerialExecutor) else 8)
    if todo:
        warm_up()
    computed = 0
    for results in batch_results(executor, _survey_batch, todo, batch, heaps):
        for result in results:
            catalogue.add(result, options)
            computed += 1
            if on_result is not None:
                on_result(result)
    return SurveyRun(len(names), len(names) - len(todo), computed)
