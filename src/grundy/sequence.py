"""A Grundy sequence with its provenance, on disk as ``.npy`` plus a JSON sidecar.

The sidecar records the code, depth, dtype, engine, version and the SHA-256 of
the values, so that a file is never misread: a load that does not match its
checksum is refused.  Files are replaced atomically (write, then rename), the
values before the sidecar; a kill between the two renames leaves values longer
than the sidecar says, whose recorded prefix still matches its checksum, and
that prefix is what loads.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import __version__
from .codes import Code, parse
from .engine import choose, compute, smallest_dtype
from .errors import SequenceFileError

FORMAT = 1
"""Sidecar format; a file of another format is refused, not misread."""


def checksum(values: np.ndarray) -> str:
    """SHA-256 of the values' bytes in their stored type (C order)."""
    return hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()


def paths(path: str | os.PathLike) -> tuple[Path, Path]:
    """The ``.npy`` and ``.json`` files of a sequence stored at ``path`` (with or without suffix)."""
    p = Path(path)
    if p.suffix in (".npy", ".json"):
        p = p.with_suffix("")
    return p.with_name(p.name + ".npy"), p.with_name(p.name + ".json")


@dataclass
class Sequence:
    """``values[n] = G(n)`` for ``0 <= n < depth`` of ``code``."""

    code: Code
    values: np.ndarray
    engine: str = "dense"
    version: str = field(default=__version__)

    @property
    def depth(self) -> int:
        """The number of heaps known (heaps ``0..depth-1``)."""
        return int(self.values.size)

    @property
    def max(self) -> int:
        """The largest value."""
        return int(self.values.max())

    @property
    def argmax(self) -> int:
        """The first heap worth the largest value."""
        return int(np.argmax(self.values))

    def to_dict(self, values: bool = True) -> dict:
        """The JSON form: code, t, heaps, max, and the values unless ``values`` is false."""
        out = {"code": str(self.code), "t": self.code.t, "heaps": self.depth, "max": self.max}
        if values:
            out["values"] = self.values.tolist()
        return out

    def extend(
        self,
        heaps: int,
        *,
        engine: str = "auto",
        on_chunk: Callable[[np.ndarray], None] | None = None,
    ) -> Sequence:
        """This sequence to ``heaps`` heaps, computing only the heaps it lacks (never shorter)."""
        if heaps <= self.depth:
            return self
        values = compute(self.code, heaps, engine=engine, prefix=self.values, on_chunk=on_chunk)
        return Sequence(self.code, values, choose(self.code, engine))

    def save(self, path: str | os.PathLike) -> Path:
        """Write ``PATH.npy`` and ``PATH.json`` atomically; returns the ``.npy`` path."""
        npy, side = paths(path)
        npy.parent.mkdir(parents=True, exist_ok=True)
        values = np.ascontiguousarray(self.values)
        meta = {
            "format": FORMAT,
            "code": str(self.code),
            "depth": self.depth,
            "dtype": values.dtype.name,
            "sha256": checksum(values),
            "engine": self.engine,
            "version": self.version,
        }
        _atomic_write(npy, lambda f: np.save(f, values, allow_pickle=False))
        _atomic_write(side, lambda f: f.write(json.dumps(meta, indent=1).encode()))
        return npy

    @classmethod
    def load(cls, path: str | os.PathLike) -> Sequence:
        """Read a sequence written by :meth:`save`; refuses a file that fails its checksum.

        An empty, truncated or foreign file, values that are not unsigned
        integers (floats, signed or 2-D arrays are refused, never cast) and a
        sidecar that does not describe them all raise :class:`SequenceFileError`.
        """
        npy, side = paths(path)
        if not side.exists() or not npy.exists():
            raise SequenceFileError(f"no sequence at {npy} (needs {npy.name} and {side.name})")
        try:
            meta = json.loads(side.read_text())
            values = np.load(npy, allow_pickle=False)
            code = parse(meta["code"])
            depth = int(meta["depth"])
            dtype = np.dtype(meta["dtype"])
            digest = meta["sha256"]
            fmt = meta.get("format")
        except (OSError, EOFError, ValueError, KeyError, TypeError) as exc:
            why = " ".join(str(exc).split()) or type(exc).__name__
            raise SequenceFileError(f"{npy} is not a readable sequence file ({why})") from None
        if fmt != FORMAT:
            raise SequenceFileError(f"{side} has format {fmt!r}; this version reads format {FORMAT}")
        if not isinstance(values, np.ndarray) or values.ndim != 1 or values.dtype.kind != "u":
            what = (
                f"a {values.ndim}-D array of {values.dtype}"
                if isinstance(values, np.ndarray)
                else "an archive of arrays"
            )
            raise SequenceFileError(
                f"{npy} holds {what}, not the 1-D unsigned integers of a sequence file"
            )
        if dtype.kind != "u" or depth < 0:
            raise SequenceFileError(f"{side} describes no sequence (dtype {dtype}, depth {depth})")
        values = _verified_prefix(values, depth, dtype, digest)
        if values is None:
            raise SequenceFileError(f"{npy} is corrupt: its values do not match the checksum in {side.name}")
        return cls(code, values, meta.get("engine", "dense"), meta.get("version", "?"))


def _verified_prefix(values: np.ndarray, depth: int, dtype: np.dtype, digest: str):
    """The first ``depth`` values in ``dtype`` if they match ``digest``, else None."""
    if values.size < depth:
        return None
    head = values[:depth]
    if head.size and int(head.max()) > np.iinfo(dtype).max:
        return None
    head = head.astype(dtype)
    return head if checksum(head) == digest else None


def _atomic_write(target: Path, write: Callable) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)


def compute_sequence(code: Code | str, heaps: int, *, engine: str = "auto", on_chunk=None) -> Sequence:
    """Compute ``code`` to ``heaps`` heaps as a :class:`Sequence`."""
    code = parse(code)
    values = compute(code, heaps, engine=engine, on_chunk=on_chunk)
    return Sequence(code, values, choose(code, engine))


__all__ = ["Sequence", "checksum", "compute_sequence", "paths", "smallest_dtype"]
