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


@dataclass(eq=False)
class Sequence:
    """``values[n] = G(n)`` for ``0 <= n < depth`` of ``code``, with the analyses as methods.

    A sequence behaves like its values: ``len(s)``, ``s[n]`` (an ``int``),
    ``s[a:b]`` (a numpy array); ``s.values`` is the array itself.

    Examples
    --------
    >>> s = values("·137", 3000)
    >>> len(s), s[1:10].tolist()
    (3000, [1, 1, 2, 0, 3, 1, 1, 0, 3])
    >>> s.reading()
    <Reading: period 34 from heap 52, certified (window 175)>
    """

    code: Code
    values: np.ndarray
    engine: str = "dense"
    version: str = field(default=__version__)

    def __len__(self) -> int:
        return int(self.values.size)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.values[index]
        return int(self.values[index])

    def __iter__(self):
        return (int(v) for v in self.values)

    def __repr__(self) -> str:
        head = " ".join(str(int(v)) for v in self.values[:24])
        more = " …" if self.depth > 24 else ""
        return f"<Sequence {self.code}, {self.depth:,} heaps: {head}{more}; {self._reading_text()}>"

    def _repr_html_(self) -> str:
        from .present.notebook import sequence_html

        return sequence_html(self)

    def _reading_text(self) -> str:
        r = self.reading()
        return f"no reading at depth {self.depth:,}" if r is None else str(r)

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

    # ------------------------------------------------------------ analyses

    def reading(self, depth: int | None = None, *, heap0: bool = False):
        """The pure reading at ``depth`` (default: every heap known), or None
        (:func:`grundy.periods.reading`)."""
        from .periods import reading

        return reading(self.values, self.code, depth, heap0=heap0)

    def arithmetic_reading(self, depth: int | None = None):
        """The arithmetic reading at ``depth``, shown beside the reading, never certified
        (:func:`grundy.periods.arithmetic_reading`)."""
        from .periods import arithmetic_reading

        return arithmetic_reading(self.values, self.code, depth)

    def trajectory(self, *, heap0: bool = False, arithmetic: bool = False):
        """The readings at every depth, the false readings and the certificate
        (:func:`grundy.trajectory.trajectory`)."""
        from .trajectory import trajectory

        return trajectory(self.values, self.code, heap0=heap0, arithmetic=arithmetic)

    def rare(self, mask: int | None = None, parity: int | None = None, **options):
        """Where the heaps of a value class arrive (:func:`grundy.rare.arrivals`).

        Without ``mask`` the class is the one with the fewest heaps: the sparse
        engine's choice, with ``parity`` 0 (the class holding 0); ``parity``
        defaults to 1 (the class XOR respects) when a mask is given.  Options
        (``after``, ``block``, ...) pass on to :func:`grundy.rare.arrivals`;
        ``after`` defaults to a tenth of the heaps, at most 10,000, as on the command line.
        """
        from .classes import RareClass, fewest
        from .rare import arrivals

        if mask is None:
            cls = fewest(self.values, 0 if parity is None else parity)[0]
        else:
            cls = RareClass(mask, 1 if parity is None else parity)
        return arrivals(self.code, self.values, cls, **options)

    def counts(self, value: int, **options):
        """Move and split counts of ``value`` at every heap from ``lo`` (default: the cut-off of
        :meth:`rare`, at least 1) on (:func:`grundy.rare.counts`)."""
        from .rare import counts

        return counts(self.code, self.values, value, **options)

    def ledger(self, value: int, **options):
        """Which rare heaps supply ``value`` (:func:`grundy.rare.ledger`)."""
        from .rare import ledger

        return ledger(self.code, self.values, value, **options)

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
        """This sequence to ``heaps`` heaps, computing only the heaps it lacks (a new
        Sequence; this one if it is already that deep)."""
        from .checks import heaps as checked
        from .engine import choose, compute

        heaps = checked(heaps)
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


def values(code: Code | str, heaps: int, *, engine: str = "auto", on_chunk=None) -> Sequence:
    """The Grundy values of ``code`` for heaps ``0..heaps-1``, as a :class:`Sequence`.

    ``engine`` is ``auto`` (the fastest that applies), ``dense``, ``sparse`` or
    ``reference``; ``on_chunk(values_so_far)`` is called as the work advances.
    ``heaps`` is refused (:class:`~grundy.errors.UsageError`) unless it is a
    whole number of at least 1 whose values fit in memory (:mod:`grundy.checks`).
    """
    from .checks import heaps as checked
    from .engine import choose, compute

    code = parse(code)
    computed = compute(code, checked(heaps), engine=engine, on_chunk=on_chunk)
    return Sequence(code, computed, choose(code, engine))



def load(path: str | os.PathLike) -> Sequence:
    """The sequence stored at ``path`` by :meth:`Sequence.save` (``PATH.npy`` + ``PATH.json``)."""
    return Sequence.load(path)


__all__ = ["Sequence", "checksum", "load", "paths", "values"]
