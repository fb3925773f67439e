"""Engines that compute Grundy sequences, behind one function, :func:`compute`.

``reference`` is plain Python (the tests' truth), ``dense`` the numba kernel
over every move; ``auto`` picks the fastest engine that applies.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..codes import Code, parse
from ..errors import UsageError
from . import dense, reference

ENGINES = ("auto", "dense", "reference")


def smallest_dtype(values: np.ndarray) -> np.dtype:
    """The smallest unsigned type that holds every entry of ``values``."""
    top = int(values.max()) if values.size else 0
    for dt in dense.DTYPES:
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise UsageError(f"value {top} does not fit 32 bits")


def choose(code: Code, engine: str = "auto") -> str:
    """The engine that ``engine`` resolves to for ``code``."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    return "dense" if engine == "auto" else engine


def compute(
    code: Code | str,
    heaps: int,
    *,
    engine: str = "auto",
    prefix: np.ndarray | None = None,
    on_chunk: Callable[[np.ndarray], None] | None = None,
) -> np.ndarray:
    """The values ``G(0), …, G(heaps-1)`` of ``code`` in the smallest unsigned type.

    ``prefix`` holds values already known (heaps ``0..len(prefix)-1``); only
    the rest is computed.  ``on_chunk(values_so_far)`` is called as the work
    advances (progress bars and checkpoints hang on it).
    """
    code = parse(code)
    if not isinstance(heaps, (int, np.integer)) or heaps < 1:
        raise UsageError(f"the number of heaps must be a whole number of at least 1, not {heaps!r}")
    heaps = int(heaps)
    known = np.zeros(0, dtype=np.uint8) if prefix is None else np.asarray(prefix)
    if known.size >= heaps:
        return known[:heaps].astype(smallest_dtype(known[:heaps]))
    name = choose(code, engine)
    if name == "reference":
        values = np.asarray(reference.grundy_values(code, heaps), dtype=np.int64)
        if known.size and not np.array_equal(values[: known.size], known):
            raise UsageError("the prefix given does not match the reference values")
        out = values.astype(smallest_dtype(values))
        if on_chunk is not None:
            on_chunk(out)
        return out
    return dense.run(code, heaps, known.astype(smallest_dtype(known)), on_chunk)
