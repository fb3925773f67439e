"""A catalogue's records as one small file that travels with the results it holds.

A long campaign keeps its state on one machine: a catalogue and the values of the games under
way.  The values are large and are computed again at will; the records (each step's settlement
and statistics, each check, each parting) are what was found, and they are small.  :func:`save`
writes the records, sorted, to a gzip file of JSON lines that is byte for byte the same for the
same records (so a repository holding it changes only when they do); :func:`restore` stores in
a catalogue every record of an archive that it lacks, so that a run on a new machine takes up the
results where the last one left them and computes again only the values a further step needs.

The first line is a header, ``{"archive": 1, "records": N, "extra": {...}}`` (``extra``: whatever
JSON the caller keeps beside the records); every other line is one record, ``[kind, code,
params, analysis, result]`` as :meth:`Catalogue.record_rows` gives it.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..files import write_whole
from .database import Catalogue, CatalogueError

FORMAT = 1


class ArchiveError(CatalogueError):
    """An archive file that cannot be read or is not one."""


@dataclass(frozen=True)
class Archive:
    """What an archive holds: its record rows and the caller's ``extra``."""

    rows: list[tuple[str, str, str, int, str]]
    extra: dict = field(default_factory=dict)


def save(catalogue: Catalogue, path: str | os.PathLike, kinds: Iterable[str] | None = None,
         extra: dict | None = None) -> int:
    """Write ``catalogue``'s records (of ``kinds``, default all) and ``extra`` to the archive
    ``path`` (replaced whole, never left half written); the number of records."""
    rows = catalogue.record_rows(kinds)
    write(path, Archive(rows, extra or {}))
    return len(rows)


def write(path: str | os.PathLike, archive: Archive) -> None:
    """Write ``archive`` to ``path``: the same bytes for the same rows and extra."""
    path = Path(path)
    lines = [json.dumps({"archive": FORMAT, "records": len(archive.rows), "extra": archive.extra},
                        sort_keys=True, ensure_ascii=False)]
    lines += [json.dumps(list(r), ensure_ascii=False) for r in sorted(archive.rows)]

    def zipped(raw) -> None:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(("\n".join(lines) + "\n").encode())

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, zipped)
    except OSError as exc:
        raise ArchiveError(f"cannot write the archive {path}: {exc.strerror}") from None


def read(path: str | os.PathLike) -> Archive:
    """The archive at ``path``; :class:`ArchiveError` in one sentence if it cannot be read or any
    line is not what :func:`write` writes."""
    path = Path(path)
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"cannot read the archive {path}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        head = json.loads(lines[0]) if lines else None
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("archive") != FORMAT or not isinstance(head.get("extra"), dict):
        raise ArchiveError(f"{path} is not an archive of format {FORMAT} (its first line says otherwise)")
    rows = [_row(path, i, line) for i, line in enumerate(lines[1:], start=2)]
    if head.get("records") != len(rows):
        raise ArchiveError(f"{path} is cut short: its header counts {head.get('records')} records, "
                          f"it holds {len(rows)}")
    return Archive(rows, head["extra"])


def _row(path: Path, number: int, line: str) -> tuple[str, str, str, int, str]:
    try:
        kind, code, params, analysis, result = json.loads(line)
        if not (isinstance(kind, str) and isinstance(code, str) and isinstance(params, str)
                and type(analysis) is int and isinstance(json.loads(params), dict)
                and isinstance(json.loads(result), dict)):
            raise TypeError
    except (ValueError, TypeError):
        raise ArchiveError(f"{path}: line {number} is not an archive record") from None
    return kind, code, params, analysis, result


def restore(catalogue: Catalogue, path: str | os.PathLike) -> tuple[int, Archive]:
    """Store in ``catalogue`` every record of the archive ``path`` that it lacks (one it holds
    already, of the same kind, code and params, is kept: it is at least as new); the number
    stored and the archive."""
    archive = read(path)
    return catalogue.add_record_rows(archive.rows), archive
