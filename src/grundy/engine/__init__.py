"""Engines that compute Grundy sequences, behind one function, :func:`compute`.

``reference`` is plain Python (the tests' truth), ``dense`` the numba kernel
over every move, ``sparse`` the sparse-space method (docs/ and the module
docstring of :mod:`.sparse`), which runs the dense kernel wherever no mask
pays; ``auto`` picks the fastest engine that applies: sparse for octal codes
with two-heap moves, dense otherwise.

Small work (:func:`.numpy_dense.suits`) in a process that has not loaded numba yet
is computed by the dense method in plain numpy (:mod:`.numpy_dense`): the same
values, without the second or so that numba takes to start.  Importing this package
imports no numba; the first kernel call does (:mod:`._jit`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..codes import Code, parse
from ..errors import UsageError
from ..value_classes import RareClass
from . import _jit, dense, numpy_dense, reference, sparse

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
    mask: RareClass | None = None,
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
    if known.ndim != 1 or not (known.size == 0 or np.issubdtype(known.dtype, np.integer)):
        raise UsageError("the known values must be a one-dimensional array of whole numbers")
    if known.size and int(known.min()) < 0:
        raise UsageError("the known values must not be negative")
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
    if name in ("dense", "sparse") and mask is None and numpy_dense.suits(code, heaps) and not _jit.ready():
        values = numpy_dense.run(code, heaps, known, on_chunk)
        if name == "dense":
            return values, None
        stats = sparse.statistics(code, values)
        if on_status is not None:
            on_status(sparse.Status(heaps, sparse.even_class(stats.mask, stats.position), stats.rare_heaps))
        return values, stats
    if name == "sparse":
        return sparse.run(code, heaps, known, on_chunk, mask=mask, on_status=on_status)
    return dense.run(code, heaps, known, on_chunk), None


def value_types(heaps: int, *, hexadecimal: bool = True) -> tuple:
    """The value types that codes of up to 16 digits can reach within ``heaps`` heaps.

    A value is at most the number of moves from a heap: for each digit, two
    that leave at most one heap, ``n/2`` splits in two and, when
    ``hexadecimal``, ``n²/12`` in three.
    """
    moves = 16 * (2 + heaps // 2 + (heaps * heaps // 12 if hexadecimal else 0))
    out = []
    for dtype in dense.DTYPES:
        out.append(dtype)
        if moves <= np.iinfo(dtype).max:
            break
    return tuple(out)


def warm_up(heaps: int = 1 << 20, *, hexadecimal: bool = True) -> None:
    """Compile (or load from numba's cache) every kernel signature that work to ``heaps`` may use.

    The sparse and the dense kernels (the shared split sets too), and the three-heap kernel of
    hexadecimal codes unless ``hexadecimal`` is false, for each of
    :func:`value_types`.  A survey calls it in the parent before its workers
    start, so that no two processes compile at once (see :mod:`._jit`).
    """
    for dtype in value_types(heaps, hexadecimal=hexadecimal):
        prefix = np.zeros(1, dtype=dtype)
        dense.run(parse("·6"), 40, prefix)
        dense.warm_shared(dtype)
        if hexadecimal:
            dense.run(parse("0x·9"), 12, prefix)
        sparse.run(parse("·6"), 40, prefix, mask=sparse.even_class(1))
