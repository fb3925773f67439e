"""The catalogue: one SQLite file holding what the family runner computed (standard library, WAL).

Three tables, each fact stored once:

``results``
    one row per (code, heaps, options) of the survey: the scalar results as
    columns, the false readings packed (:func:`pack_false_readings`), the
    other keys as JSON in ``extra``, and ``analysis``, the version of the
    analysis that made the row.
``sequences``
    one row per (code, heaps): the values, as zlib of the bytes of the
    smallest unsigned type that holds them, so that no reader recomputes them.
``records``
    one JSON object per (kind, code, params) for any other per-code analysis
    (``kind = "settlement"`` for :func:`grundy.catalogue.campaign.settle_many` and a campaign,
    :mod:`grundy.catalogue.campaign`; :meth:`Catalogue.settlements` gives each code's deepest).

Storing a code replaces all its rows in one transaction, so a survey killed
and run again finds what it stored and duplicates nothing, and two surveys
writing the same file at once lose nothing.  A row that cannot be decoded, or
whose columns hold what no survey writes, is reported as :class:`DamagedRow`
naming the code and the file.  A file written under another schema is
refused.  Every error SQLite raises (a damaged file, a full disk, a read-only
file, a file locked too long) becomes a :class:`CatalogueError` of one
sentence that says what is wrong and what to do.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Self
from urllib.parse import quote

import numpy as np

from ..codes import Code, parse
from ..errors import CodeError, GrundyError
from ..readings.status import STATUSES
from ..readings.trajectory import KINDS
from ..sequence import digest
from .record import SurveyRecord

SCHEMA = 2
DEFAULT_PATH = "catalogue.sqlite"
"""The catalogue every command reads and writes unless told otherwise."""
BUSY_SECONDS = 60.0
"""How long a writer waits for another to release the file."""


class CatalogueError(GrundyError):
    """A catalogue file, or a row of one, that cannot be read or written."""


class DamagedRow(CatalogueError):
    """A stored row that does not decode: ``problem`` says which and why, the message adds
    the command that stores it again."""

    def __init__(self, path: Path, code: str, heaps: int, what: str, reason: Exception):
        self.code = code
        at = f"{heaps:,}" if isinstance(heaps, int) else repr(heaps)
        self.problem = f"{path}: the stored {what} of {code} at {at} heaps is corrupt ({reason})"
        try:
            again = (f"grundy survey --codes {parse(code)} --heaps {heaps} --recompute {code} --db {path} "
                     "stores it again")
        except (CodeError, TypeError):
            again = "survey again into a new file"
        if isinstance(heaps, bool) or not isinstance(heaps, int) or heaps < 1:
            again = "survey again into a new file"
        super().__init__(f"{self.problem}; {again}")


def sqlite_error(path: Path, exc: sqlite3.Error) -> CatalogueError:
    """What an SQLite error on the catalogue ``path`` means for its user, and what to do."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or "malformed" in str(exc):
        return CatalogueError(
            f"{path} is damaged ({exc}): restore it from a copy, or survey again into a new file "
            f"(sqlite3 {path} .recover may save what is left)"
        )
    if name.startswith("SQLITE_READONLY"):
        return CatalogueError(f"{path} cannot be written (a read-only file or folder): copy it to a "
                              "writable folder to add to it")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return CatalogueError(f"{path} stayed locked by another process for {BUSY_SECONDS:g} s: run the "
                              "command again when that process is done")
    if name.startswith("SQLITE_FULL"):
        return CatalogueError(f"the disk holding {path} is full: free some space and run the command "
                              "again (what was stored before is kept)")
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return CatalogueError(f"cannot read or write {path} ({exc}): check the file, its folder and "
                              "the disk, or copy the catalogue somewhere else")
    return CatalogueError(f"{path}: SQLite refused ({exc})")


def _guarded(method: Callable) -> Callable:
    """``method`` of :class:`Catalogue`, with every SQLite error it raises (while it runs, or while
    its results are iterated) turned into :func:`sqlite_error`."""
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generator(self, *args, **kwargs):
            try:
                yield from method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                raise sqlite_error(self.path, exc) from None

        return generator

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise sqlite_error(self.path, exc) from None

    return call


_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    code TEXT NOT NULL,
    heaps INTEGER NOT NULL,
    options TEXT NOT NULL,
    t INTEGER NOT NULL,
    status TEXT NOT NULL,
    start INTEGER,
    period INTEGER,
    window INTEGER,
    certificate_depth INTEGER,
    right_from INTEGER,
    changes INTEGER NOT NULL,
    repetitions_needed,
    max_value INTEGER NOT NULL,
    argmax INTEGER NOT NULL,
    mask INTEGER,
    position INTEGER,
    rare_heaps INTEGER,
    last_rare INTEGER,
    values_sha256 TEXT NOT NULL,
    version TEXT NOT NULL,
    analysis INTEGER NOT NULL,
    false_count INTEGER NOT NULL,
    false_readings BLOB NOT NULL,
    extra TEXT NOT NULL,
    PRIMARY KEY (code, heaps, options)
);
CREATE TABLE IF NOT EXISTS sequences (
    code TEXT NOT NULL,
    heaps INTEGER NOT NULL,
    dtype TEXT NOT NULL,
    zlib BLOB NOT NULL,
    PRIMARY KEY (code, heaps)
);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    code TEXT NOT NULL,
    params TEXT NOT NULL,
    analysis INTEGER NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (kind, code, params)
);
"""

_COLUMNS = (
    "code", "t", "heaps", "status", "start", "period", "window", "certificate_depth",
    "right_from", "changes", "repetitions_needed", "max_value", "argmax", "mask", "position",
    "rare_heaps", "last_rare", "values_sha256", "version", "analysis",
)
"""The keys of a survey result kept as columns (``repetitions_needed`` has no type, so a
float stays a float); ``false_readings`` and the rest follow them in a result."""
_BOOLEAN = ("position",)
_FALSE_FIELDS = (
    "start", "period", "first_depth", "last_depth", "held_to", "window", "kind", "before_start",
    "saltus",
)
"""The fields of a packed false reading; ``kind`` is an index into ``reading.KINDS`` and
``reach`` is not stored (it is ``held_to / window``)."""


_COUNTS = ("t", "changes", "max_value", "argmax", "analysis")
_OPTIONAL = ("start", "period", "window", "certificate_depth", "right_from", "mask", "rare_heaps",
             "last_rare")


def _check_columns(r: dict) -> None:
    """Raise ``ValueError`` or ``TypeError`` unless the columns of a stored result are what a survey
    writes: whole numbers where numbers go, a known status, a settled code with its period, a SHA-256."""

    def count(key, lo=0):
        x = r[key]
        if isinstance(x, bool) or not isinstance(x, int) or x < lo:
            raise ValueError(f"{key} is {x!r}, not a whole number of at least {lo}")

    if not isinstance(r["code"], str) or str(parse(r["code"])) != r["code"]:
        raise ValueError(f"{r['code']!r} is not a code as the catalogue writes codes")
    for key in _COUNTS:
        count(key)
    count("heaps", 1)
    for key in _OPTIONAL:
        if r[key] is not None:
            count(key, 0 if key in ("mask", "rare_heaps", "last_rare", "right_from") else 1)
    if r["status"] not in STATUSES:
        raise ValueError(f"status {r['status']!r} is none of {', '.join(STATUSES)}")
    if r["status"] == "settled" and None in (r["start"], r["period"], r["window"], r["certificate_depth"]):
        raise ValueError("a settled code without its period")
    needed = r["repetitions_needed"]
    if needed is not None and (isinstance(needed, bool) or not isinstance(needed, (int, float))):
        raise ValueError(f"repetitions_needed is {needed!r}")
    digest = r["values_sha256"]
    if not isinstance(digest, str) or len(digest) != 64 or digest.strip("0123456789abcdef"):
        raise ValueError("values_sha256 is not a SHA-256")
    if not isinstance(r["version"], str):
        raise TypeError(f"version is {r['version']!r}")


def _check_extra(r: dict) -> None:
    """Raise ``ValueError`` or ``TypeError`` unless the extra keys that the tallies and the pages read
    have their shape."""
    believed, heap0, arith = r.get("believed", {}), r.get("heap0_reached", []), r.get("arithmetic")
    if not isinstance(believed, dict) or not all(isinstance(n, int) for n in believed.values()):
        raise ValueError("believed is not a count per number of repetitions")
    if not isinstance(heap0, list):
        raise TypeError("heap0_reached is not a list")
    keys = ("start", "period", "window")
    for reading, needs in [*((h, keys) for h in heap0), *([(arith, (*keys, "saltus"))] if arith else [])]:
        if not isinstance(reading, dict) or not all(isinstance(reading.get(k), int) for k in needs):
            raise ValueError(f"a stored reading is not {', '.join(needs)}: {reading!r}")


def options_key(options: dict) -> str:
    """The canonical text of the options that change a result (sorted JSON)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------- packing


def pack_values(values: np.ndarray) -> tuple[str, bytes]:
    """``(dtype, zlib bytes)`` of ``values`` in the smallest unsigned type that holds them."""
    values = np.asarray(values)
    top = int(values.max()) if values.size else 0
    dtype = np.dtype(np.min_scalar_type(top))
    if dtype.kind != "u" or (values.size and int(values.min()) < 0):
        raise ValueError("values are non-negative integers")
    return dtype.str, zlib.compress(values.astype(dtype, copy=False).tobytes(), 6)


def unpack_values(dtype: str, blob: bytes, heaps: int) -> np.ndarray:
    """The values packed by :func:`pack_values`; ``ValueError`` when the blob is damaged."""
    try:
        raw = zlib.decompress(blob)
        dt = np.dtype(dtype)
    except (zlib.error, TypeError) as exc:
        raise ValueError(str(exc)) from None
    if dt.kind != "u" or len(raw) != heaps * dt.itemsize:
        raise ValueError(f"{len(raw)} bytes of {dtype} for {heaps} heaps")
    return np.frombuffer(raw, dt).copy()


def pack_false_readings(false_readings: list[dict]) -> bytes:
    """zlib of the false readings as int32 columns (one column after another: they compress
    far better than rows), in the order of :data:`_FALSE_FIELDS`."""
    rows = []
    for fr in false_readings:
        unknown = set(fr) - set(_FALSE_FIELDS) - {"reach"}
        if unknown:
            raise ValueError(f"a false reading with fields the catalogue does not store: {unknown}")
        rows.append([KINDS.index(fr["kind"]) if f == "kind" else int(fr.get(f, 0)) for f in _FALSE_FIELDS])
    table = np.array(rows, dtype="<i4").reshape(-1, len(_FALSE_FIELDS))
    return zlib.compress(np.ascontiguousarray(table.T).tobytes(), 6)


def false_reading_columns(blob: bytes, count: int) -> np.ndarray:
    """The ``(fields, count)`` int32 table packed by :func:`pack_false_readings`, checked;
    ``ValueError`` when the blob is damaged."""
    try:
        raw = zlib.decompress(blob)
    except (zlib.error, TypeError) as exc:
        raise ValueError(str(exc)) from None
    if len(raw) != 4 * count * len(_FALSE_FIELDS):
        raise ValueError(f"{len(raw)} bytes for {count} false readings")
    table = np.frombuffer(raw, "<i4").reshape(len(_FALSE_FIELDS), count)
    kind, window = table[_FALSE_FIELDS.index("kind")], table[_FALSE_FIELDS.index("window")]
    if count and (kind.min() < 0 or kind.max() >= len(KINDS) or window.min() <= 0):
        raise ValueError("a false reading out of range")
    return table


def unpack_false_readings(blob: bytes, count: int) -> list[dict]:
    """The dicts packed by :func:`pack_false_readings` (``reach`` recomputed, ``saltus`` only
    when non-zero, as ``FalseReading.to_dict`` writes them)."""
    out = []
    for start, period, first, last, held_to, window, kind, before, saltus in zip(
        *false_reading_columns(blob, count).tolist(), strict=True
    ):
        fr = {"start": start, "period": period, "first_depth": first, "last_depth": last,
              "held_to": held_to, "window": window, "reach": held_to / window,
              "kind": KINDS[kind], "before_start": bool(before)}
        if saltus:
            fr["saltus"] = saltus
        out.append(fr)
    return out


def values_sha256(values: np.ndarray) -> str:
    """The digest a survey record keeps of its values: :func:`grundy.sequence.digest` of their
    ``uint32`` bytes."""
    return digest(values, np.uint32)


# ---------------------------------------------------------------- the file


class Catalogue:
    """An open catalogue file; use as a context manager or call :meth:`close`.

    ``readonly=True`` opens it without writing anything (SQLite ``mode=ro``,
    no schema created, no change of journal mode), as ``show`` and the report
    do; in a folder that cannot be written (a read-only disk, another user's
    folder), where SQLite cannot create the ``-shm`` file that a WAL reader
    needs, it is opened as immutable.  Every SQLite error a method meets is
    raised as a :class:`CatalogueError` of one sentence (:func:`sqlite_error`).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        if readonly:
            self._open_readonly()
            return
        existed = self.path.exists()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CatalogueError(f"cannot create the catalogue {self.path}: {exc.strerror}") from None
        self.db = None
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
            self._create_or_check()
            self._use_wal()
        except (sqlite3.DatabaseError, CatalogueError) as exc:
            self._close_quietly()
            if isinstance(exc, CatalogueError):
                raise
            raise self._error(exc, existed) from None

    def _close_quietly(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def _error(self, exc: sqlite3.DatabaseError, existed: bool) -> CatalogueError:
        name = getattr(exc, "sqlite_errorname", "")
        if not existed and name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")):
            return CatalogueError(
                f"cannot create the catalogue {self.path}: the folder {self.path.parent} is read-only"
            )
        if name.startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")) and not self.readonly:
            return CatalogueError(
                f"{self.path} cannot be written (a read-only file or disk): copy it to a writable "
                "folder to add to it"
            )
        if name.startswith("SQLITE_NOTADB"):
            return CatalogueError(f"{self.path} is not a grundy catalogue ({exc})")
        return sqlite_error(self.path, exc)

    def _open_readonly(self) -> None:
        """Open without writing: ``mode=ro`` where the folder is writable (a reader of a WAL
        file needs its ``-shm`` file), else ``immutable`` (nothing can change the file then),
        after checking that no ``-wal`` file holds writes that immutable reading would miss."""
        if not self.path.is_file():
            raise CatalogueError(f"there is no catalogue at {self.path}")
        if not os.access(self.path, os.R_OK):
            raise CatalogueError(f"cannot read {self.path}: permission denied")
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        if not os.access(self.path.resolve().parent, os.W_OK | os.X_OK):
            wal = self.path.with_name(self.path.name + "-wal")
            if wal.exists() and wal.stat().st_size:
                raise CatalogueError(
                    f"{self.path} has writes not yet merged into it (in {wal.name}) and its folder is "
                    "read-only: copy the folder somewhere writable to read them"
                )
            uri += "&immutable=1"
        self.db = None
        try:
            self.db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
            self._check(self._tables())
        except CatalogueError:
            self._close_quietly()
            raise
        except sqlite3.DatabaseError as exc:
            self._close_quietly()
            raise self._error(exc, True) from None

    def _tables(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def _check(self, tables: set[str]) -> None:
        """Refuse a file that is not a catalogue, or one of another schema."""
        if "meta" not in tables:
            raise CatalogueError(f"{self.path} is an SQLite file but not a grundy catalogue")
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            raise CatalogueError(f"{self.path} has no schema row: it is damaged, or not a grundy "
                                 "catalogue; survey again into a new file")
        found = row[0]
        if found != str(SCHEMA):
            raise CatalogueError(
                f"{self.path} was written with catalogue schema {found} and this version reads "
                f"schema {SCHEMA}: survey again into a new file (or delete this one)"
            )

    def _create_or_check(self) -> None:
        """Create the tables, or check the schema of existing ones, in one write transaction.

        ``BEGIN IMMEDIATE`` takes the write lock first, so a second process
        opening the same new file waits, then finds the tables and the schema
        row together, never the tables without the row.
        """
        self.db.execute("BEGIN IMMEDIATE")
        try:
            tables = self._tables()
            if tables:
                self._check(tables)
            else:
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        except BaseException:
            self.db.rollback()
            raise
        self.db.commit()

    def _use_wal(self) -> None:
        """Switch to write-ahead logging (readers never block the writer).

        Changing the journal mode needs the file to itself and SQLite does not
        wait for that on its own, so a busy file is retried until
        :data:`BUSY_SECONDS` have passed.
        """
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    @_guarded
    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ survey results

    @_guarded
    def stored_codes(self, heaps: int, options: dict, analysis: int | None = None) -> set[str]:
        """The codes stored at this depth with these options (and this analysis version)."""
        sql, args = "SELECT code FROM results WHERE heaps=? AND options=?", [heaps, options_key(options)]
        if analysis is not None:
            sql, args = sql + " AND analysis=?", args + [analysis]
        return {r[0] for r in self.db.execute(sql, args)}

    @_guarded
    def add(self, record: SurveyRecord | dict, values: np.ndarray, options: dict | None = None) -> None:
        """Store one code's survey record and its values, replacing what was stored for them.

        ``record`` is a :class:`~grundy.catalogue.record.SurveyRecord` (or its
        ``to_dict()``); the columns, the false readings and the values are
        written in one transaction, so a reader sees the code's old rows or
        its new ones.
        """
        if not isinstance(record, SurveyRecord):
            record = SurveyRecord.from_dict(record)
        result = record.to_dict()
        code, heaps = record.code, record.heaps
        options = options or {}
        if len(values) != heaps or values_sha256(values) != result["values_sha256"]:
            raise ValueError(f"the values given for {code} are not those of its result")
        extra = {k: v for k, v in result.items() if k not in _COLUMNS and k != "false_readings"}
        row = [result[c] for c in _COLUMNS] + [
            options_key(options),
            len(result["false_readings"]),
            pack_false_readings(result["false_readings"]),
            json.dumps(extra, ensure_ascii=False),
        ]
        dtype, blob = pack_values(values)
        names = (*_COLUMNS, "options", "false_count", "false_readings", "extra")
        with self.db:
            self.db.execute(
                f"INSERT OR REPLACE INTO results ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                row,
            )
            self.db.execute("INSERT OR REPLACE INTO sequences VALUES (?, ?, ?, ?)", (code, heaps, dtype, blob))

    @_guarded
    def remove(self, codes: Iterable[str], heaps: int | None = None) -> None:
        """Forget the survey rows and values of ``codes`` (at ``heaps``, or at every depth)."""
        with self.db:
            for code in codes:
                for table in ("results", "sequences"):
                    sql, args = f"DELETE FROM {table} WHERE code=?", [code]
                    if heaps is not None:
                        sql, args = sql + " AND heaps=?", args + [heaps]
                    self.db.execute(sql, args)

    def _decode(self, row: tuple, check_only: bool = False) -> SurveyRecord | dict:
        """The record stored in ``row``; with ``check_only`` its columns only, as a dict, with the
        packed false readings checked, not read."""
        *cols, false_count, packed, extra = row
        result = dict(zip(_COLUMNS, cols, strict=True))
        for key in _BOOLEAN:
            if result[key] is not None:
                result[key] = bool(result[key])
        try:
            _check_columns(result)
            if check_only:
                false_reading_columns(packed, false_count)
            else:
                result["false_readings"] = unpack_false_readings(packed, false_count)
            more = json.loads(extra)
            if not isinstance(more, dict):
                raise TypeError("extra keys are not a JSON object")
            _check_extra(more)
            if check_only:
                return result
            return SurveyRecord.from_dict(result | more)
        except (ValueError, TypeError) as exc:
            raise DamagedRow(self.path, result["code"], result["heaps"], "result", exc) from None

    def _rows(self, heaps, options, codes, analysis) -> Iterator[tuple]:
        where, args = "1=1", []
        for column, value in (("heaps", heaps), ("analysis", analysis)):
            if value is not None:
                where, args = where + f" AND {column}=?", args + [value]
        if options is not None:
            where, args = where + " AND options=?", args + [options_key(options)]
        wanted = None if codes is None else set(codes)
        sql = (f"SELECT {', '.join(_COLUMNS)}, false_count, false_readings, extra FROM results "
               f"WHERE {where} ORDER BY length(code), code, heaps")
        for row in self.db.execute(sql, args):
            if wanted is None or row[0] in wanted:
                yield row

    @_guarded
    def results(self, heaps: int | None = None, options: dict | None = None,
                codes: Iterable[str] | None = None, analysis: int | None = None) -> Iterator[SurveyRecord]:
        """Stored survey records, optionally filtered, in code order.

        Each is the :class:`~grundy.catalogue.record.SurveyRecord` that
        :func:`grundy.catalogue.survey.survey_code` returned for it; a row that cannot be
        decoded raises :class:`CatalogueError`.
        """
        for row in self._rows(heaps, options, codes, analysis):
            yield self._decode(row)

    @_guarded
    def values(self, code: str, heaps: int, options: dict | None = None) -> np.ndarray | None:
        """The stored values ``G(0..heaps-1)`` of ``code``, or None when it is not stored.

        Values do not depend on the options; ``options`` (when given) asks
        for a code surveyed with them.  A blob that does not decode to the
        values the result describes raises :class:`CatalogueError`.
        """
        sql, args = "SELECT values_sha256 FROM results WHERE code=? AND heaps=?", [code, heaps]
        if options is not None:
            sql, args = sql + " AND options=?", args + [options_key(options)]
        digest = self.db.execute(sql, args).fetchone()
        if digest is None:
            return None
        row = self.db.execute("SELECT dtype, zlib FROM sequences WHERE code=? AND heaps=?",
                              (code, heaps)).fetchone()
        try:
            if row is None:
                raise ValueError("no values row")
            values = unpack_values(row[0], row[1], heaps)
            if values_sha256(values) != digest[0]:
                raise ValueError("they do not match their digest")
        except ValueError as exc:
            raise DamagedRow(self.path, code, heaps, "values", exc) from None
        return values

    @_guarded
    def damaged(self, heaps: int, options: dict, codes: Iterable[str] | None = None,
                analysis: int | None = None) -> dict[str, str]:
        """The codes stored at this depth (and of this analysis version) whose result or values
        cannot be read, with the reason."""
        out = {}
        for row in list(self._rows(heaps, options, codes, analysis)):
            try:
                self._decode(row, check_only=True)
                self.values(row[0], heaps, options)
            except DamagedRow as exc:
                out[row[0]] = exc.problem
        return out

    @_guarded
    def record(self, code: Code | str, heaps: int | None = None) -> SurveyRecord:
        """One code's survey record (the deepest stored, or at ``heaps``)."""
        name = str(parse(code))
        found = list(self.results(heaps, codes=[name]))
        if not found:
            at = "" if heaps is None else f" at {heaps:,} heaps"
            raise CatalogueError(f"{self.path} holds no result for {name}{at}")
        return found[-1]

    @_guarded
    def table(self, heaps: int | None = None):
        """The scalar columns of every stored result, one row a result, for sorting and selecting.

        A pandas ``DataFrame`` when pandas is installed (missing numbers are
        ``<NA>``); else a numpy structured array with the same column names
        (``table()["period"]``; missing numbers are -1, a missing
        ``repetitions_needed`` NaN, a missing ``position`` False).  A row that
        does not decode raises :class:`DamagedRow`.
        """
        kinds = {"code": "U24", "status": "U20", "values_sha256": "U64", "version": "U16",
                 "repetitions_needed": "f8", "position": "?"}
        names = (*_COLUMNS, "false_readings")
        rows = []
        for row in self._rows(heaps, None, None, None):
            result = self._decode(row, check_only=True)
            rows.append([result[c] for c in _COLUMNS] + [row[-3]])
        try:
            import pandas
        except ImportError:
            dtype = [(c, kinds.get(c, "i8")) for c in names]
            missing = {"i8": -1, "f8": float("nan"), "?": False}
            return np.array([tuple(missing[k] if x is None else x for x, (_, k) in zip(cells, dtype, strict=True))
                             for cells in rows], dtype=dtype)
        frame = pandas.DataFrame(rows, columns=list(names))
        whole = [c for c in names if kinds.get(c, "i8") == "i8"]
        return frame.astype(dict.fromkeys(whole, "Int64") | {"position": "boolean"})

    @_guarded
    def tallies(self, heaps: int | None = None) -> dict:
        """The survey tallies (:func:`grundy.readings.tallies.tallies`) over the results stored."""
        from ..readings.tallies import tallies

        return tallies(self.results(heaps))

    @_guarded
    def __repr__(self) -> str:
        counts = dict(self.db.execute("SELECT status, count(*) FROM results GROUP BY status"))
        shown = ", ".join(f"{n:,} {s.replace('_', ' ')}" for s, n in sorted(counts.items()))
        return f"<Catalogue {self.path}: {sum(counts.values()):,} results ({shown or 'none'})>"

    @_guarded
    def _repr_html_(self) -> str:
        from ..present.notebook import catalogue_html

        return catalogue_html(self)

    @_guarded
    def count_false_readings(self) -> int:
        """The false readings of every stored survey result."""
        return self.db.execute("SELECT coalesce(sum(false_count), 0) FROM results").fetchone()[0]

    # ------------------------------------------------------------ other records

    @_guarded
    def stored_records(self, kind: str, params: dict, analysis: int | None = None) -> set[str]:
        """The codes with a record of ``kind`` for ``params`` (and this analysis version)."""
        sql, args = "SELECT code FROM records WHERE kind=? AND params=?", [kind, options_key(params)]
        if analysis is not None:
            sql, args = sql + " AND analysis=?", args + [analysis]
        return {r[0] for r in self.db.execute(sql, args)}

    @_guarded
    def add_record(self, kind: str, code: str, params: dict, analysis: int, record: dict) -> None:
        """Store (or replace) the JSON ``record`` of ``code`` for ``kind`` and ``params``."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)",
                (kind, code, options_key(params), analysis, json.dumps(record, ensure_ascii=False)),
            )

    @_guarded
    def record_rows(self, kinds: Iterable[str] | None = None) -> list[tuple[str, str, str, int, str]]:
        """The stored records (of ``kinds``, default all) as ``(kind, code, params, analysis,
        result)`` rows, ``params`` and ``result`` as stored, sorted: what :mod:`.archive` writes."""
        rows = self.db.execute("SELECT kind, code, params, analysis, result FROM records").fetchall()
        wanted = None if kinds is None else set(kinds)
        return sorted(r for r in rows if wanted is None or r[0] in wanted)

    @_guarded
    def add_record_rows(self, rows: Iterable[tuple[str, str, str, int, str]]) -> int:
        """Store the rows of :meth:`record_rows` that this catalogue lacks (a record of the same
        kind, code and params already stored is kept); the number stored."""
        with self.db:
            before = self.db.total_changes
            self.db.executemany("INSERT OR IGNORE INTO records VALUES (?, ?, ?, ?, ?)", rows)
            return self.db.total_changes - before

    def settlements(self, codes: Iterable[str] | None = None) -> dict[str, dict]:
        """Each code's deepest stored settlement: of its records of kind ``settlement``, whatever
        their parameters (:func:`grundy.catalogue.campaign.settle_many`'s, a campaign's), a certified one
        before any other, then the one that reached the most heaps."""
        best: dict[str, tuple] = {}
        for r in self.records("settlement", codes=codes):
            key = (bool(r.get("settled")), r.get("heaps") or 0)
            if r["code"] not in best or key > best[r["code"]][0]:
                best[r["code"]] = (key, r)
        return {code: r for code, (_, r) in best.items()}

    @_guarded
    def records(self, kind: str, params: dict | None = None, codes: Iterable[str] | None = None,
                analysis: int | None = None) -> Iterator[dict]:
        """The stored records of ``kind``, optionally filtered, in code order."""
        sql, args = "SELECT code, params, result FROM records WHERE kind=?", [kind]
        if params is not None:
            sql, args = sql + " AND params=?", args + [options_key(params)]
        if analysis is not None:
            sql, args = sql + " AND analysis=?", args + [analysis]
        wanted = None if codes is None else set(codes)
        for code, key, text in self.db.execute(sql + " ORDER BY length(code), code, params", args):
            if wanted is not None and code not in wanted:
                continue
            try:
                yield json.loads(text)
            except ValueError as exc:
                raise CatalogueError(
                    f"{self.path}: the stored {kind} of {code} ({key}) is corrupt ({exc})"
                ) from None
