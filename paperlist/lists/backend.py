"""What the lists gateway (``store.ListStore``) needs of a database: reads, and write transactions
that are atomic and durable when they return. Two implementations: ``SQLiteBackend`` here (the
embedded default: one file, WAL, one writer at a time) and ``pg.PostgresBackend`` (psycopg 3 and a
connection pool, for several serving machines). SQL is written once, with ``?`` placeholders; a
backend translates them if its driver wants another style."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

Row = tuple[Any, ...]


class Tx(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @property
    def rowcount(self) -> int: ...


class Backend(Protocol):
    name: str
    for_update: str          # appended to a SELECT that locks the rows it reads until commit

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def write(self) -> Any: ...   # a context manager yielding a Tx; commits on exit, rolls back on error

    def close(self) -> None: ...


class _SQLiteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._rowcount = 0

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        cur = self.conn.execute(sql, tuple(params))
        rows = cur.fetchall()
        self._rowcount = cur.rowcount
        return rows

    @property
    def rowcount(self) -> int:
        return self._rowcount


class SQLiteBackend:
    """A lists file: WAL (readers never wait for the writer), ``synchronous=FULL`` (a committed
    write is on disk before the request is answered, so a crash or ``kill -9`` loses nothing
    acknowledged), ``BEGIN IMMEDIATE`` (one writer at a time; other processes wait on SQLite's
    lock up to ``busy_timeout``). One connection per thread."""

    name = "sqlite"
    for_update = ""                  # BEGIN IMMEDIATE already holds the write lock

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._lock = threading.Lock()
        self._all: list[sqlite3.Connection] = []

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._conn().execute(sql, tuple(params)).fetchall()

    @contextmanager
    def write(self) -> Iterator[_SQLiteTx]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield _SQLiteTx(conn)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def check(self) -> None:
        bad = self._conn().execute("PRAGMA integrity_check").fetchone()
        if bad is None or bad[0] != "ok":
            raise RuntimeError(f"lists file {self.path} is damaged: {bad}")

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()
