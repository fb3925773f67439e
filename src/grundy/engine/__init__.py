"""Engines that compute Grundy sequences, behind one function, :func:`compute`.

``reference`` is plain Python (the tests' truth), ``dense`` the numba kernel
over every move, ``sparse`` the sparse-space method (SPEC.md §9), which runs
the dense kernel wherever no mask pays; ``auto`` picks the fastest engine
that applies: sparse for octal codes with two-heap moves, dense otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..codes import Code, parse
from ..errors import UsageError
from . import dense, reference, sparse

ENGINES = ("auto", "dense", "reference", "sparse")


def smallest_dtype(values: np.ndarray) -> np.dtype:
    """The smallest unsigned type that holds every entry of ``values``."""
    top = int(values.max()) if values.size else 0
    for dt in dense.DTYPES:
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise UsageError(f"value {top} does not fit 32 bits")


def choose(code: Code, engine: str = "auto") -> str:
    """The engine that ``engine`` resolves to for ``code`` (sparse: dense where it cannot apply)."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    if engine in ("auto", "sparse"):
        return "sparse" if sparse.applies(code) else "dense"
    return engine


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
    return compute_with_stats(code, heaps, engine=engine, prefix=prefix, on_chunk=on_chunk)[0]


def compute_with_stats(
    code: Code | str,
    heaps: int,
    *,
    engine: str = "auto",
    prefix: np.ndarray | None = None,
    on_chunk: Callable[[np.ndarray], None] | None = None,
    on_status: Callable[[sparse.Status], None] | None = None,
    mask: sparse.Mask | None = None,
) -> tuple[np.ndarray, sparse.SparseStats | None]:
    """:func:`compute`, and the sparse engine's statistics when it ran (else None).

    ``on_status`` receives the sparse engine's :class:`~.sparse.Status` (mask,
    rare count) after each chunk; ``mask`` forces the sparse engine's mask.
    """
    code = parse(code)
    if not isinstance(heaps, (int, np.integer)) or heaps < 1:
        raise UsageError(f"the number of heaps must be a whole number of at least 1, not {heaps!r}")
    heaps = int(heaps)
    known = np.zeros(0, dtype=np.uint8) if prefix is None else np.asarray(prefix)
    name = choose(code, engine)
    if mask is not None and (engine != "sparse" or name != "sparse"):
        raise UsageError(f"only the sparse engine takes a mask, for a code it covers: {code}")
    if known.size >= heaps:
        return known[:heaps].astype(smallest_dtype(known[:heaps])), None
    known = known.astype(smallest_dtype(known))
    if name == "reference":
        values = np.asarray(reference.grundy_values(code, heaps), dtype=np.int64)
        if known.size and not np.array_equal(values[: known.size], known):
            raise UsageError("the prefix given does not match the reference values")
        out = values.astype(smallest_dtype(values))
        if on_chunk is not None:
            on_chunk(out)
        return out, None
    if name == "sparse":
        return sparse.run(code, heaps, known, on_chunk, mask=mask, on_status=on_status)
    return dense.run(code, heaps, known, on_chunk), None
