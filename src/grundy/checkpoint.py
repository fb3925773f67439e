"""Resumable computation: a growing sequence checkpointed to disk as it is computed.

Running the same computation again after an interrupt (Ctrl-C or ``kill -9``)
starts from the last checkpoint, so at most ``every`` seconds of work are lost,
and the values are bit-identical to an uninterrupted run.

A run given no file of its own (``grundy values`` without ``--out``) keeps its
checkpoint in the cache (:func:`cache_dir`, ``$GRUNDY_CACHE``), under a hashed
name, and holds it with an ``fcntl`` lock while it runs (:func:`scratch`): a
second identical run at the same time computes without one rather than share
half-written work.  The cache is only an aid: a bad file there is ignored, and
a cache that cannot be written means no checkpoints, both with a warning.
"""

from __future__ import annotations

import hashlib
import os
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from .codes import Code, file_safe, parse
from .engine import choose, compute_with_stats
from .engine.sparse import SparseStats
from .errors import SequenceFileError
from .memory import check_heaps
from .sequence import Sequence, paths

try:
    import fcntl
except ImportError:  # not POSIX: no locks, so runs keep no checkpoint in the cache
    fcntl = None

CHECKPOINT_SECONDS = 30.0


class CacheWarning(UserWarning):
    """The cache could not be used as asked; the computation goes on without it."""


def _warn(message: str) -> None:
    warnings.warn(message, CacheWarning, stacklevel=3)


def cache_dir() -> Path:
    """Where runs without ``--out`` keep their checkpoints (``$GRUNDY_CACHE`` or ``~/.cache/grundy``)."""
    env = os.environ.get("GRUNDY_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "grundy"


def file_stem(code: Code) -> str:
    """A file name for ``code`` (``·137`` becomes ``137``, ``4·07`` becomes ``4.07``, ``·4!``
    becomes ``4u``: :func:`grundy.codes.file_safe`)."""
    return file_safe(str(code)).replace("·", ".").removeprefix(".")


def scratch_path(code: Code | str) -> Path:
    """Where a run of ``code`` without a file of its own keeps its checkpoint in the cache.

    The name is the code (cut to 32 characters, for the reader) and a hash of
    it, so that no code makes a name longer than a file system allows.
    """
    code = parse(code)
    digest = hashlib.sha256(str(code).encode()).hexdigest()[:16]
    return cache_dir() / "runs" / f"{file_stem(code)[:32]}-{digest}"


@contextmanager
def scratch(code: Code | str, on_warning: Callable[[str], None] = _warn) -> Iterator[Path | None]:
    """Hold the cache checkpoint of ``code`` for one run: its path, or None for no checkpoint.

    The checkpoint is locked (``fcntl.flock`` on a ``.lock`` file beside it)
    until the block ends; on a normal end it is deleted, after an exception
    (an interrupt) it is kept for the next run to resume.  When another run
    holds it, or the cache cannot be written, ``on_warning`` says so once and
    the block gets None: compute without checkpoints.
    """
    try:
        path = scratch_path(code)
    except RuntimeError as exc:  # no home folder to hold the cache
        on_warning(f"no cache folder ({exc}): no checkpoints")
        path = None
    lock = None if path is None else path.with_name(path.name + ".lock")
    fd = None if lock is None else _lock(lock, code, on_warning)
    if fd is None:
        yield None
        return
    try:
        yield path
        for p in paths(path):
            try:
                p.unlink(missing_ok=True)
            except OSError as exc:
                on_warning(f"cannot delete the finished checkpoint {p} ({exc.strerror or exc})")
    finally:
        lock.unlink(missing_ok=True)
        os.close(fd)


def _lock(lock: Path, code: Code, on_warning: Callable[[str], None]) -> int | None:
    """An open descriptor holding ``lock`` exclusively, or None (after a warning) when it cannot."""
    if fcntl is None:
        on_warning(f"no file locks on this system: this run of {code} keeps no checkpoint")
        return None
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                same = os.fstat(fd).st_ino == os.stat(lock).st_ino
            except FileNotFoundError:
                same = False
            except BlockingIOError:
                on_warning(f"another run of {code} holds its checkpoint: this one keeps none")
                os.close(fd)
                return None
            except OSError:
                os.close(fd)
                raise
            if same:  # not a lock file that its holder has just deleted
                return fd
            os.close(fd)
    except OSError as exc:
        on_warning(f"cannot use the cache {lock.parent} ({exc.strerror or exc}): no checkpoints")
        return None


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
    path: str | os.PathLike | None,
    *,
    engine: str = "auto",
    every: float = CHECKPOINT_SECONDS,
    on_progress: Callable[[int], None] | None = None,
    on_status: Callable | None = None,
    disposable: bool = False,
    on_warning: Callable[[str], None] = _warn,
) -> tuple[Sequence, int, SparseStats | None]:
    """Extend the sequence at ``path`` (or start one) to ``heaps``, checkpointing as it goes.

    Returns the sequence (saved at ``path``), the number of heaps that were
    already on disk, and the sparse engine's statistics when it ran (None when
    nothing was computed or another engine ran).  A file already deeper than
    ``heaps`` is left as it is.
    ``on_status`` receives the sparse engine's status (mask, rare count) as it runs.

    With ``path`` None nothing is read or written.  A ``disposable`` path is a
    checkpoint only (the cache's, see :func:`scratch`): a bad file there is
    ignored and a failed write stops the checkpoints, each with one
    ``on_warning``, and the finished sequence is not saved.
    """
    code = parse(code)
    check_heaps(heaps)
    seq = _existing(path, code, disposable, on_warning)
    reused = seq.depth
    if seq.depth >= heaps:
        return seq, reused, None
    name = choose(code, engine)
    last = time.monotonic()
    target = path

    def on_chunk(values: np.ndarray) -> None:
        nonlocal last, target
        if on_progress is not None:
            on_progress(values.size)
        now = time.monotonic()
        if target is not None and now - last >= every and values.size < heaps:
            try:
                Sequence(code, values.copy(), name).save(target)
            except OSError as exc:
                if not disposable:
                    raise
                on_warning(f"cannot write the checkpoint {target} ({exc.strerror or exc}): no more")
                target = None
            last = now

    values, stats = compute_with_stats(
        code, heaps, engine=engine, prefix=seq.values, on_chunk=on_chunk, on_status=on_status
    )
    out = Sequence(code, values, name)
    if path is not None and not disposable:
        out.save(path)
    return out, reused, stats


def _existing(path, code: Code, disposable: bool, on_warning) -> Sequence:
    """The sequence already at ``path`` (empty if none); a bad disposable one is ignored."""
    empty = Sequence(code, np.zeros(0, dtype=np.uint8))
    if path is None:
        return empty
    try:
        return load_existing(path, code) or empty
    except SequenceFileError as exc:
        if not disposable:
            raise
        on_warning(f"ignoring a bad checkpoint: {exc}")
        return empty
