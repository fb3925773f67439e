"""Resumable computation: a growing sequence kept in a store (:mod:`grundy.engine.store`) as it is computed.

The store is the one checkpoint: a run appends its new values every
``every`` seconds, when it ends and when it is interrupted (Ctrl-C, SIGTERM),
so running the same computation again after an interrupt or ``kill -9``
starts from what is stored, at most ``every`` seconds of work are lost, and
the values are bit-identical to an uninterrupted run.

A run given no store of its own (``grundy values`` without ``--out``) keeps
one in the cache (:func:`cache_dir`, ``$GRUNDY_CACHE``), under a hashed name,
locked by the run that uses it (:func:`scratch`) and deleted when it
finishes: a second identical run at the same time computes without one
rather than share half-written work.  The cache is only an aid: a bad store
there is ignored, and a cache that cannot be written means no checkpoints,
both with a warning.  Checkpoints that an earlier version left there
(``NAME.npy`` + ``NAME.json``) are taken over.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ..codes import Code, file_name, file_safe, parse
from ..errors import GrundyError, SequenceFileError, StoreError
from ..sequence import Sequence, StoredSequence, paths
from .sparse import SparseStats
from .store import CHECKPOINT_SECONDS, MEMORY, Store, grow, is_store

__all__ = [
    "CHECKPOINT_SECONDS", "CacheWarning", "cache_dir", "code_path", "compute_resumable", "legacy_file_name",
    "load_existing", "scratch", "scratch_path",
]


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


def legacy_file_name(code: Code) -> str:
    """The file name this toolkit gave ``code``'s stores and cache entries before
    :func:`grundy.codes.file_name` (``·137`` → ``137``): read only to find them again."""
    return file_safe(str(code)).replace("·", ".").removeprefix(".")


def _held_code(path: Path) -> Code | None:
    """The code whose values or record ``path`` holds, as it says itself (a store's
    ``meta.json``, an old ``.npy``'s sidecar, a JSON record); None where it says none."""
    if path.is_dir():
        meta = path / "meta.json"
    elif path.suffix == ".npy":
        meta = path.with_name(path.stem + ".json")
    else:
        meta = path
    try:
        return parse(json.loads(meta.read_text())["code"])
    except (OSError, ValueError, KeyError, TypeError, GrundyError):
        return None


def code_path(folder: str | os.PathLike, code: Code | str, suffix: str = "") -> Path:
    """Where ``code``'s store (or its file ``suffix``) lives in ``folder``: named by
    :func:`grundy.codes.file_name`.

    An entry named by the earlier rule (:func:`legacy_file_name`) is renamed to it first, with
    the old ``.npy`` + ``.json`` pair of a store, when it holds ``code`` by its own account: the
    old name of one code can be the new name of another (``·4`` was ``4``, which ``4·`` is now).
    """
    code = parse(code)
    folder = Path(folder)
    new, old = file_name(code), legacy_file_name(code)
    if old != new:
        for ext in (suffix,) if suffix else ("", ".npy", ".json"):
            was, now = folder / (old + ext), folder / (new + ext)
            if was.exists() and not now.exists() and _held_code(was) == code:
                was.rename(now)
    return folder / (new + suffix)


def scratch_path(code: Code | str) -> Path:
    """The store in the cache where a run of ``code`` without a store of its own checkpoints.

    The name is the code's file name (cut to 32 characters, for the reader) and a hash of
    it, so that no code makes a name longer than a file system allows; one named by the
    earlier rule (:func:`legacy_file_name`) is renamed, so that an interrupted run resumes.
    """
    code = parse(code)
    digest = hashlib.sha256(str(code).encode()).hexdigest()[:16]
    runs = cache_dir() / "runs"
    new, old = (runs / f"{name[:32]}-{digest}" for name in (file_name(code), legacy_file_name(code)))
    if old.exists() and not new.exists():
        old.rename(new)
    return new


@contextmanager
def scratch(code: Code | str, on_warning: Callable[[str], None] = _warn) -> Iterator[Store | None]:
    """Hold the cache's store for one run of ``code``: a locked writer, or None for no checkpoints.

    On a normal end the store is deleted; after an exception (an interrupt)
    it is kept, holding what the run computed, for the next run to resume.
    When another run holds it, or the cache cannot be written, ``on_warning``
    says so once and the block gets None; a bad store there is deleted with
    one warning and the run starts afresh.
    """
    try:
        path = scratch_path(code)
    except RuntimeError as exc:  # no home folder to hold the cache
        on_warning(f"no cache folder ({exc}): no checkpoints")
        yield None
        return
    store = _open_disposable(path, parse(code), on_warning)
    if store is None:
        yield None
        return
    try:
        yield store
    except BaseException:
        store.close()
        raise
    store.remove()
    _remove_old(path, on_warning)


def _open_disposable(path: Path, code: Code, on_warning) -> Store | None:
    """The cache's store at ``path``, taking over an old checkpoint file; None after a warning."""
    for attempt in (1, 2):
        try:
            store = Store.writer(path, code, on_warning=lambda message: None)
        except StoreError as exc:
            if "another run" in str(exc):
                on_warning(f"another run of {code} holds its checkpoint: this one keeps none")
            else:
                on_warning(f"cannot use the cache {path.parent} ({exc}): no checkpoints")
            return None
        except SequenceFileError as exc:
            if attempt == 2:
                on_warning(f"cannot clear the bad checkpoint {path} ({exc}): no checkpoints")
                return None
            on_warning(f"ignoring a bad checkpoint: {exc}")
            _discard(path)
            continue
        _remove_old(path, on_warning)
        return store
    return None


def _discard(path: Path) -> None:
    """Delete a bad checkpoint: the store's folder and the files of an old one."""
    shutil.rmtree(path, ignore_errors=True)
    for p in paths(path):
        p.unlink(missing_ok=True)


def _remove_old(path: Path, on_warning) -> None:
    """Delete the files of an old checkpoint (``NAME.npy`` + ``NAME.json``) once taken over."""
    for p in paths(path):
        try:
            p.unlink(missing_ok=True)
        except OSError as exc:
            on_warning(f"cannot delete the old checkpoint {p} ({exc.strerror or exc})")


def load_existing(path: str | os.PathLike, code: Code) -> Sequence | None:
    """The sequence stored at ``path`` (a store, or an old ``PATH.npy`` + ``PATH.json``) if
    there is one; refuses one of another code."""
    if is_store(path):
        return StoredSequence(Store.open(path, code))
    npy, side = paths(path)
    if not npy.exists() and not side.exists():
        return None
    seq = Sequence.load(npy)
    if seq.code != code:
        raise SequenceFileError(f"{npy} holds {seq.code}, not {code}")
    return seq


def compute_resumable(
    code: Code | str,
    heaps: int,
    path: str | os.PathLike | Store | None,
    *,
    engine: str = "auto",
    memory: int | None = None,
    every: float = CHECKPOINT_SECONDS,
    on_progress: Callable[[int], None] | None = None,
    on_status: Callable | None = None,
    disposable: bool = False,
    on_warning: Callable[[str], None] = _warn,
) -> tuple[Sequence, int, SparseStats | None]:
    """Grow the store at ``path`` (or an open :class:`~grundy.engine.store.Store`) to ``heaps`` heaps.

    Returns the sequence, the number of heaps that were already stored (at most
    ``heaps``), and the sparse engine's statistics when it ran (None when
    nothing was computed or another engine ran).  The sequence holds the
    values in memory when a run kept them there, and reads the store when it
    did not: a store already as deep, left as it is, or a run bounded to
    ``memory`` bytes (:func:`grundy.engine.store.grow`, default :data:`~grundy.engine.store.MEMORY`).  An old ``PATH.npy`` + ``PATH.json`` is migrated into a store at
    ``PATH`` (``on_warning`` says so).  ``on_status`` receives the sparse
    engine's status (mask, rare count) as it runs.

    With ``path`` None nothing is read or written.  A ``disposable`` store is a
    checkpoint only: one that cannot be opened or written is given up with one
    ``on_warning`` and the run goes on without it.
    """
    code = parse(code)
    opened = None
    if isinstance(path, Store) or path is None:
        store = path
    elif disposable:
        store = opened = _open_disposable(Path(path), code, on_warning)
    else:
        store = opened = Store.writer(path, code, on_warning=on_warning)
    try:
        run = grow(
            store, code, heaps, engine=engine, memory=MEMORY if memory is None else memory,
            every=every,
            on_chunk=None if on_progress is None else (lambda values: on_progress(values.size)),
            on_status=on_status, disposable=disposable, on_warning=on_warning,
        )  # fmt: skip
    finally:
        if opened is not None:
            opened.close()
    if run.values is None:
        return StoredSequence(store), min(run.reused, heaps), None
    seq = Sequence(code, run.values, run.engine)
    seq._frontier = run.frontier
    return seq, run.reused, run.stats
