"""The connection, the schema and its migrations, and transactions."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 10

# from-version -> SQL that upgrades a store to from-version + 1. Add a step whenever schema.sql
# changes, and bump SCHEMA_VERSION; schema.sql always describes the newest version.
MIGRATIONS: dict[int, str] = {
    1: """CREATE TABLE IF NOT EXISTS paper_topics (
            paper_id TEXT NOT NULL, topic TEXT NOT NULL, rank INTEGER NOT NULL, score REAL NOT NULL,
            venue TEXT NOT NULL, year INTEGER NOT NULL, PRIMARY KEY (paper_id, topic)) WITHOUT ROWID;
          CREATE INDEX IF NOT EXISTS paper_topics_topic ON paper_topics(topic, year, venue);""",
    2: """ALTER TABLE papers ADD COLUMN institutions TEXT;
          CREATE TABLE IF NOT EXISTS venue_year_files (
            block TEXT NOT NULL, venue TEXT NOT NULL, year INTEGER NOT NULL, file TEXT NOT NULL,
            papers INTEGER NOT NULL, records INTEGER NOT NULL,
            PRIMARY KEY (venue, year, file)) WITHOUT ROWID;""",
    3: """ALTER TABLE papers ADD COLUMN countries TEXT;
          CREATE TABLE IF NOT EXISTS paper_reviews (
            paper_id TEXT PRIMARY KEY, venue TEXT NOT NULL, year INTEGER NOT NULL, n INTEGER,
            rating REAL, confidence REAL, ratings TEXT NOT NULL, confidences TEXT NOT NULL,
            dims TEXT NOT NULL, from_mean INTEGER NOT NULL, source TEXT NOT NULL,
            rank INTEGER, rated INTEGER) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS venue_year_stats (
            venue TEXT NOT NULL, year INTEGER NOT NULL, data TEXT NOT NULL,
            PRIMARY KEY (venue, year)) WITHOUT ROWID;""",
    # The pending author refresh moved from memory into the store. A store merged before may have
    # lost one to an interrupted merge: every author is refreshed once (and the venues synced).
    4: """CREATE TABLE IF NOT EXISTS pending_authors (key TEXT PRIMARY KEY) WITHOUT ROWID;
          INSERT OR IGNORE INTO pending_authors SELECT DISTINCT author_key FROM paper_authors;
          INSERT OR IGNORE INTO pending_authors SELECT key FROM authors;
          INSERT OR REPLACE INTO meta VALUES ('venues_stale', '1');""",
    # A conference-year page counts its topics: without this index that scanned every paper's
    # topics (280 ms on the full corpus, the event loop blocked; 0.5 ms with it).
    5: """CREATE INDEX IF NOT EXISTS paper_topics_venue ON paper_topics(venue, year, topic);""",
    # Versions of one work share the title hash after the id's dash (versions.work_key).
    6: """CREATE INDEX IF NOT EXISTS papers_work ON papers(substr(id, instr(id, '-') + 1));""",
    # A topic page filtered published papers through the set of rejected ids on every request
    # (0.27 s each for the count and the page on the full corpus): the flag is copied once.
    7: """ALTER TABLE paper_topics ADD COLUMN published INTEGER NOT NULL DEFAULT 1;
          UPDATE paper_topics SET published = 0 WHERE paper_id IN (SELECT id FROM papers WHERE accepted = 0);
          CREATE INDEX IF NOT EXISTS paper_topics_page
            ON paper_topics(topic, published, year DESC, rank, score DESC);
          CREATE TABLE IF NOT EXISTS topic_stats (
            slug TEXT PRIMARY KEY, data TEXT NOT NULL) WITHOUT ROWID;""",
    # Scores taken before decisions carry their snapshot's date ("scores as of 2025-11-22").
    8: """ALTER TABLE paper_reviews ADD COLUMN as_of TEXT;""",
    # Curated reading lists and the papers their entries name (paperlist/curated).
    9: """CREATE TABLE IF NOT EXISTS curated_lists (
            list TEXT PRIMARY KEY, data TEXT NOT NULL, digest TEXT NOT NULL) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS curated_entries (
            list TEXT NOT NULL, position INTEGER NOT NULL, data TEXT NOT NULL,
            PRIMARY KEY (list, position)) WITHOUT ROWID;
          CREATE TABLE IF NOT EXISTS paper_lists (
            paper_id TEXT NOT NULL, list TEXT NOT NULL, data TEXT NOT NULL,
            PRIMARY KEY (paper_id, list)) WITHOUT ROWID;
          CREATE INDEX IF NOT EXISTS paper_lists_list ON paper_lists(list);""",
}


class StoreError(Exception):
    """The store cannot be opened or used; the message is one line."""


def sync_rows(db: sqlite3.Connection, table: str, keys: tuple[str, ...], value: str,
              rows: Iterable[tuple[Any, ...]]) -> int:
    """Make ``table`` (key columns ``keys``, one ``value`` column) hold exactly ``rows`` (keys...,
    value), writing only the rows that differ: an unchanged row keeps its page, so a snapshot of the
    store after a small change shares almost every page with the one before. Inside the caller's
    transaction; returns the number of rows given."""
    cols = ", ".join((*keys, value))
    marks = ", ".join("?" * (len(keys) + 1))
    match = " AND ".join(f"n.{k} = t.{k}" for k in keys)
    db.execute("DROP TABLE IF EXISTS temp.sync_rows")
    db.execute(f"CREATE TEMP TABLE sync_rows ({cols}, PRIMARY KEY ({', '.join(keys)}))")
    n = 0
    for batch in _batches(rows, 10_000):
        db.executemany(f"INSERT INTO temp.sync_rows VALUES ({marks})", batch)
        n += len(batch)
    db.execute(f"DELETE FROM {table} AS t WHERE NOT EXISTS (SELECT 1 FROM temp.sync_rows n WHERE {match})")
    db.execute(f"INSERT INTO {table} ({cols}) SELECT {cols} FROM temp.sync_rows WHERE true"
               f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {value} = excluded.{value}"
               f" WHERE {table}.{value} IS NOT excluded.{value}")
    db.execute("DROP TABLE temp.sync_rows")
    return n


def _batches(rows: Iterable[tuple[Any, ...]], size: int) -> Iterator[list[tuple[Any, ...]]]:
    batch: list[tuple[Any, ...]] = []
    for r in rows:
        batch.append(r)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def utcnow() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class StoreBase:
    """Owns the SQLite file. Readers open it read-only; one writer at a time (SQLite's lock)."""

    def __init__(self, path: str | Path, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._local = threading.local()
        if readonly:
            if not self.path.exists():
                raise StoreError(f"no store at {self.path} (run 'paperlist ingest' first)")
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._check_schema()

    # --- connection -------------------------------------------------------------------------
    @property
    def db(self) -> sqlite3.Connection:
        """A connection per thread (sqlite3 connections must not be shared across threads)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False,
                                   isolation_level=None)
        else:
            conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            # Bulk ingests write hundreds of MB: checkpoint rarely (and once at the end, see checkpoint()).
            conn.execute("PRAGMA wal_autocheckpoint=25000")
        conn.execute("PRAGMA cache_size=-262144" if not self.readonly else "PRAGMA cache_size=-65536")
        conn.execute("PRAGMA temp_store=MEMORY")
        conn.row_factory = sqlite3.Row
        return conn

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file and truncate it."""
        if not self.readonly:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (nothing half-written)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        else:
            db.execute("COMMIT")

    # --- schema -----------------------------------------------------------------------------
    def _check_schema(self) -> None:
        try:
            version = self.schema_version()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path} is not a paperlist store: {e}") from None
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path} has schema version {version}; this paperlist knows up to "
                             f"{SCHEMA_VERSION} (upgrade paperlist)")
        if self.readonly:
            if version == 0:
                raise StoreError(f"{self.path} is empty (run 'paperlist ingest' first)")
            if version < SCHEMA_VERSION:
                raise StoreError(f"{self.path} has schema version {version}; open it once for writing "
                                 "(any 'paperlist ingest') to migrate it")
            return
        if version == 0:
            with self.transaction() as db:
                for stmt in _statements(_schema_sql()):
                    db.execute(stmt)
                db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                db.execute("INSERT OR REPLACE INTO meta VALUES ('created_at', ?)", (utcnow(),))
            return
        while version < SCHEMA_VERSION:
            with self.transaction() as db:
                for stmt in _statements(MIGRATIONS[version]):
                    try:
                        db.execute(stmt)
                    except sqlite3.OperationalError as e:
                        # a column a step adds that the store already has: that step was applied
                        added = stmt.lstrip().upper().startswith("ALTER TABLE")
                        if not (added and "duplicate column" in str(e)):
                            raise
                version += 1
                db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
        # after the migrations: an index may belong to a table a migration just created
        self.ensure_indexes()       # a bulk load interrupted before it rebuilt them

    def ensure_indexes(self) -> None:
        """Create every index of schema.sql that is missing (cheap when all exist)."""
        with self.transaction() as db:
            for stmt in _index_statements():
                db.execute(stmt)

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Drop the secondary indexes the merge does not read, and rebuild them at the end:
        writing 250k papers is three times faster without them."""
        with self.transaction() as db:
            for stmt in _index_statements():
                name = stmt.split("EXISTS", 1)[1].split()[0]
                if name not in _KEEP_DURING_BULK:
                    db.execute(f"DROP INDEX IF EXISTS {name}")
        try:
            yield
        finally:
            self.ensure_indexes()

    def schema_version(self) -> int:
        row = self.db.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if row is None:
            return 0
        v = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(v[0]) if v else 0

    def meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, db: sqlite3.Connection, key: str, value: Any) -> None:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(value)))


# indexes the merge itself reads (its lookups, and the deletes of a changed paper's rows): kept
# during bulk loads. Without paper_ids_paper, re-merging 200 blocks of changed papers scanned the
# whole paper_ids table once per paper (0.03 blocks/s instead of ~3).
_KEEP_DURING_BULK = {"records_block", "records_paper", "records_key", "papers_block",
                     "venue_year_files_block", "paper_ids_paper"}


def _schema_sql() -> str:
    return resources.files("paperlist.store").joinpath("schema.sql").read_text("utf-8")


def _index_statements() -> list[str]:
    return [s for s in _statements(_schema_sql()) if s.upper().startswith("CREATE INDEX")]


def _statements(sql: str) -> list[str]:
    """Split a schema file into statements (comments removed; the schema has no '--' or ';' in
    string literals)."""
    lines = [ln.split("--", 1)[0] for ln in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]
