"""Surveys: a family of codes through the flow, over any ``concurrent.futures.Executor``.

Each code is computed to ``heaps``, read (its trajectory: the reading at every
depth, with heap 0 excluded and, separately, allowed), classified (settled when
the reading at ``heaps`` is certified, else growing or bounded, see
:func:`grundy.readings.status.is_growing`) and described by the sparse engine's
statistics of its run: one :class:`grundy.catalogue.record.SurveyRecord`.  :func:`run` is the family runner
(:mod:`grundy.catalogue.runner`) with :func:`survey_code` per code: the driver process
stores every result and the values as they arrive, so an interrupted survey
loses nothing it had finished.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from .._version import __version__
from ..codes import Code, parse

if TYPE_CHECKING:
    from concurrent.futures import Executor

    import numpy as np

    from .database import Catalogue
    from .record import SurveyRecord
    from .runner import FamilyRun

DEFAULT_HEAPS = 2400
ANALYSIS_VERSION = 2
"""The meaning of :func:`survey_code`'s output: bump it whenever that changes, and the next
survey recomputes every row stored under another version (2: the sparse statistics; taking
them from the engine's run rather than recomputing them changed no stored row of the 2- and
3-digit families, so it is still 2)."""


def analyse(code: Code | str, heaps: int = DEFAULT_HEAPS) -> tuple[SurveyRecord, np.ndarray]:
    """:func:`survey_code`'s record of ``code`` and the values ``G(0..heaps-1)`` it read."""
    import numpy as np

    from ..engine.store import grow
    from ..readings.periods import arithmetic_reading
    from ..readings.status import classify
    from ..readings.trajectory import trajectories
    from ..sequence import digest
    from .record import SurveyRecord

    code = parse(code)
    run = grow(None, code, heaps, powers=False)
    values, end = run.values, run.frontier.summary()
    traj, heap0 = trajectories(values, code)
    arith = arithmetic_reading(values, code)
    final = traj.final if traj.certified else None
    record = SurveyRecord(
        code=str(code),
        t=code.t,
        heaps=heaps,
        status=classify(traj.certified, values),
        start=final.start if final else None,
        period=final.period if final else None,
        window=final.window if final else None,
        certificate_depth=traj.certificate_depth,
        right_from=traj.right_from,
        changes=traj.changes,
        repetitions_needed=traj.repetitions_needed,
        max_value=int(values.max()),
        argmax=int(np.argmax(values)),
        mask=end.mask,
        position=end.position,
        rare_heaps=end.rare_heaps,
        last_rare=end.last_rare,
        values_sha256=digest(values, np.uint32),
        version=__version__,
        analysis=ANALYSIS_VERSION,
        false_readings=tuple(traj.false_readings),
        believed={str(r): n for r, n in traj.believed.items()},
        heap0_reached=tuple(
            {"start": fr.start, "period": fr.period, "window": fr.window} for fr in heap0.reaching
        ),
        arithmetic=arith.to_dict() if arith is not None else None,
    )
    return record, values


def survey_code(code: Code | str, heaps: int = DEFAULT_HEAPS) -> SurveyRecord:
    """Everything a survey stores about one code but its values.

    ``mask``, ``position``, ``rare_heaps`` and ``last_rare`` are the sparse
    engine's statistics as it ran (those ``grundy values --json`` prints),
    None where it did not run (no two-heap moves, or hexadecimal).
    """
    return analyse(code, heaps)[0]


def warm_up(heaps: int = DEFAULT_HEAPS, hexadecimal: bool = True) -> None:
    """Compile (or load from numba's cache) every kernel a survey to ``heaps`` may run, in this
    process, before any worker starts: the engines' and the readings' kernels for each value
    type the values may take (no two processes ever compile at once, see
    :mod:`grundy.engine._jit`)."""
    from ..engine import value_types
    from ..engine import warm_up as warm_engine
    from ..readings.trajectory import trajectory

    warm_engine(heaps, hexadecimal=hexadecimal)
    _, values = analyse("·137", 200)
    for dtype in value_types(heaps, hexadecimal=hexadecimal):
        trajectory(values.astype(dtype), "·137")


@dataclass(frozen=True)
class SurveyEntry:
    """Where survey results go: the catalogue's results and values at ``heaps`` with ``options``."""

    heaps: int
    options: dict = field(default_factory=dict)
    analysis: int = ANALYSIS_VERSION

    def stored(self, catalogue: Catalogue) -> set[str]:
        return catalogue.stored_codes(self.heaps, self.options, self.analysis)

    def store(self, catalogue: Catalogue, output: tuple[SurveyRecord, np.ndarray]) -> None:
        result, values = output
        catalogue.add(result, values, self.options)


def run(
    codes: Iterable[Code | str],
    catalogue: Catalogue,
    *,
    heaps: int = DEFAULT_HEAPS,
    executor: Executor | None = None,
    batch: int = 1,
    recompute: Iterable[Code | str] = (),
    on_result: Callable[[SurveyRecord], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    on_damaged: Callable[[str, str], None] | None = None,
) -> FamilyRun:
    """Survey ``codes`` into ``catalogue``, skipping those it holds for this analysis version.

    Codes stored under another :data:`ANALYSIS_VERSION`, codes in
    ``recompute``, and codes whose stored row (of this version) cannot be
    read are computed again and replace their rows; each damaged row is
    reported through ``on_damaged(code, message)`` (a warning when None).  Codes go to
    ``executor`` (serial when None) ``batch`` at a time and each result is
    stored by this process as soon as it returns.
    """
    from ..checks import heaps as checked
    from .runner import run as run_family

    heaps = checked(heaps)
    names = list(dict.fromkeys(str(parse(c)) for c in codes))
    entry = SurveyEntry(heaps)
    damaged = catalogue.damaged(heaps, entry.options, names, entry.analysis)
    for code, message in damaged.items():
        if on_damaged is None:
            warnings.warn(message, stacklevel=2)
        else:
            on_damaged(code, message)
    return run_family(
        partial(analyse, heaps=heaps),
        names,
        catalogue,
        entry,
        executor=executor,
        batch=batch,
        recompute=[*recompute, *damaged],
        warm_up=partial(warm_up, heaps, any(parse(c).hexadecimal for c in names)),
        on_result=None if on_result is None else lambda output: on_result(output[0]),
        on_progress=on_progress,
    )


def survey(
    codes: Iterable[Code | str] | int,
    heaps: int = DEFAULT_HEAPS,
    db: str | os.PathLike | None = None,
    executor: Executor | None = None,
    *,
    on_progress: Callable[[int, int], None] | None = None,
) -> Catalogue:
    """Survey a family into a catalogue and return it, open, to query.

    ``codes`` is a number of digits (every code of 1..digits digits, digits
    1..6 as on the command line), one code (``"·137"``: a family of one) or an
    iterable of codes; ``heaps`` a whole number (:mod:`grundy.checks`); ``db``
    the catalogue's file (None: one in memory, gone when closed);
    ``executor`` any ``concurrent.futures.Executor`` (serial by default).
    Codes already stored are not computed again.

    Examples
    --------
    >>> cat = survey(2, 600)
    >>> len(cat.table(600)), cat.record("·77")["period"]
    (63, 12)
    >>> cat.tallies(600)["codes"]
    63
    """
    from ..checks import codes as family_of
    from ..checks import heaps as checked
    from .database import Catalogue

    codes, heaps = family_of(codes), checked(heaps)
    catalogue = Catalogue(":memory:" if db is None else db)
    run(codes, catalogue, heaps=heaps, executor=executor, on_progress=on_progress)
    return catalogue
