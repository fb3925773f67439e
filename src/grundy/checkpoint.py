"""Resumable computation: a growing sequence checkpointed to disk as it is computed.

Running the same computation again after an interrupt (Ctrl-C or ``kill -9``)
starts from the last checkpoint, so at most ``every`` seconds of work are lost,
and the values are bit-identical to an uninterrupted run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from .codes import Code, parse
from .engine import choose, compute_with_stats
from .errors import SequenceFileError
from .sequence import Sequence, paths

CHECKPOINT_SECONDS = 30.0


def cache_dir() -> Path:
    """Where runs without ``--out`` keep their checkpoints (``$GRUNDY_CACHE`` or ``~/.cache/grundy``)."""
    env = os.environ.get("GRUNDY_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "grundy"


def file_stem(code: Code) -> str:
    """A file name for ``code`` (``·137`` becomes ``137``, ``4·07`` becomes ``4.07``)."""
    return str(code).replace("·", ".").removeprefix(".")


def load_existing(path: str | os.PathLike, code: Code) -> Sequence | None:
    """The sequence stored at ``path`` if there is one; refuses one of another code."""
    npy, side = paths(path)
    if not npy.exists() and not side.exists():
        return None
    seq = Sequence.load(path)
    if seq.code != code:
        raise SequenceFileError(f"{npy} holds {seq.code}, not {code}")
    return seq


def compute_resumable(
    code: Code | str,
    heaps: int,
    path: str | os.PathLike,
    *,
    engine: str = "auto",
    every: float = CHECKPOINT_SECONDS,
    on_progress: Callable[[int], None] | None = None,
    on_status: Callable | None = None,
) -> tuple[Sequence, int]:
    """Extend the sequence at ``path`` (or start one) to ``heaps``, checkpointing as it goes.

    Returns the sequence (saved at ``path``) and the number of heaps that were
    already on disk.  A file already deeper than ``heaps`` is left as it is.
    ``on_status`` receives the sparse engine's status (mask, rare count) as it runs.
    """
    code = parse(code)
    seq = load_existing(path, code) or Sequence(code, np.zeros(0, dtype=np.uint8))
    reused = seq.depth
    if seq.depth >= heaps:
        return seq, reused
    name = choose(code, engine)
    last = time.monotonic()

    def on_chunk(values: np.ndarray) -> None:
        nonlocal last
        if on_progress is not None:
            on_progress(values.size)
        now = time.monotonic()
        if now - last >= every and values.size < heaps:
            Sequence(code, values.copy(), name).save(path)
            last = now

    values, _ = compute_with_stats(
        code, heaps, engine=engine, prefix=seq.values, on_chunk=on_chunk, on_status=on_status
    )
    out = Sequence(code, values, name)
    out.save(path)
    return out, reused
