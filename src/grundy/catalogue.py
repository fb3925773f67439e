"""The catalogue: an SQLite file of per-code survey results (standard library, WAL mode).

One row per (code, heaps, options) in ``results`` and one per false reading
in ``false_readings``.  Each code's rows are written in one transaction with
``INSERT OR IGNORE``, so a survey killed and run again finds what it stored,
recomputes nothing and duplicates nothing, and two surveys writing the same
file at once lose nothing.  A file written under another schema is refused.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import GrundyError

SCHEMA = 1
BUSY_SECONDS = 60.0
"""How long a writer waits for another to release the file."""


class CatalogueError(GrundyError):
    """A catalogue file that cannot be read as one of this schema."""


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
    repetitions_needed REAL,
    max_value INTEGER NOT NULL,
    argmax INTEGER NOT NULL,
    values_sha256 TEXT NOT NULL,
    version TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (code, heaps, options)
);
CREATE TABLE IF NOT EXISTS false_readings (
    code TEXT NOT NULL,
    heaps INTEGER NOT NULL,
    options TEXT NOT NULL,
    idx INTEGER NOT NULL,
    start INTEGER NOT NULL,
    period INTEGER NOT NULL,
    first_depth INTEGER NOT NULL,
    last_depth INTEGER NOT NULL,
    held_to INTEGER NOT NULL,
    window INTEGER NOT NULL,
    reach REAL NOT NULL,
    kind TEXT NOT NULL,
    before_start INTEGER NOT NULL,
    PRIMARY KEY (code, heaps, options, idx)
);
"""

_COLUMNS = (
    "code", "heaps", "options", "t", "status", "start", "period", "window", "certificate_depth",
    "right_from", "changes", "repetitions_needed", "max_value", "argmax", "values_sha256", "version",
)
_FALSE_COLUMNS = (
    "start", "period", "first_depth", "last_depth", "held_to", "window", "reach", "kind", "before_start",
)


def options_key(options: dict) -> str:
    """The canonical text of the options that change a result (sorted JSON)."""
    return json.dumps(options, sort_keys=True, separators=(",", ":"))


class Catalogue:
    """An open catalogue file; use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, timeout=BUSY_SECONDS)
            self._check_schema()
            self._use_wal()
        except sqlite3.DatabaseError as exc:
            raise CatalogueError(f"{self.path} is not a grundy catalogue ({exc})") from None

    def _check_schema(self) -> None:
        """Create the tables, or check the schema of existing ones, in one write transaction.

        ``BEGIN IMMEDIATE`` takes the write lock first, so a second process
        opening the same new file waits, then finds the tables and the schema
        row together, never the tables without the row.
        """
        self.db.execute("BEGIN IMMEDIATE")
        try:
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise CatalogueError(f"{self.path} is an SQLite file but not a grundy catalogue")
            if "meta" in tables:
                row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                found = row[0] if row else None
                if found != str(SCHEMA):
                    raise CatalogueError(
                        f"{self.path} was written with catalogue schema {found}; this version reads "
                        f"schema {SCHEMA}: survey into a new file"
                    )
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

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Catalogue:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def stored_codes(self, heaps: int, options: dict) -> set[str]:
        """The codes already stored at this depth with these options."""
        rows = self.db.execute(
            "SELECT code FROM results WHERE heaps=? AND options=?", (heaps, options_key(options))
        )
        return {r[0] for r in rows}

    def add(self, result: dict, options: dict) -> bool:
        """Store one code's result and its false readings; False if it was already there."""
        key = options_key(options)
        row = dict(result, options=key)
        with self.db:
            cur = self.db.execute(
                f"INSERT OR IGNORE INTO results ({', '.join(_COLUMNS)}, result) "
                f"VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
                [row.get(c) for c in _COLUMNS] + [json.dumps(result, ensure_ascii=False)],
            )
            if cur.rowcount == 0:
                return False
            self.db.executemany(
                f"INSERT INTO false_readings (code, heaps, options, idx, {', '.join(_FALSE_COLUMNS)}) "
                f"VALUES ({', '.join('?' * (4 + len(_FALSE_COLUMNS)))})",
                [
                    (result["code"], result["heaps"], key, i, *(fr[c] for c in _FALSE_COLUMNS))
                    for i, fr in enumerate(result["false_readings"])
                ],
            )
        return True

    def results(self, heaps: int | None = None, options: dict | None = None,
                codes: Iterable[str] | None = None) -> Iterator[dict]:
        """Stored results (the full JSON of each), optionally filtered, in code order."""
        sql, args = "SELECT result FROM results WHERE 1=1", []
        if heaps is not None:
            sql, args = sql + " AND heaps=?", args + [heaps]
        if options is not None:
            sql, args = sql + " AND options=?", args + [options_key(options)]
        wanted = None if codes is None else set(codes)
        for (text,) in self.db.execute(sql + " ORDER BY length(code), code, heaps", args):
            obj = json.loads(text)
            if wanted is None or obj["code"] in wanted:
                yield obj

    def count_false_readings(self) -> int:
        return self.db.execute("SELECT count(*) FROM false_readings").fetchone()[0]
