"""The PostgreSQL backend of the lists store (psycopg 3 and its connection pool), for several
serving machines sharing one store: ``PAPERLIST_LISTS_URL=postgresql://…``.

A write is one transaction on a pooled connection, committed before the request is answered
(PostgreSQL's commit is durable: ``synchronous_commit`` on by default). The gateway locks the rows
it checks a limit on (``SELECT … FOR UPDATE`` on the private link's row), so concurrent writers on
one link, from any machine, are serialized there and limits hold exactly. The schema and its
migrations are the SQLite backend's (``schema.py``); ``?`` placeholders become ``%s``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .backend import Row

POOL_SIZE = 8            # connections per serving process


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


class _PgTx:
    def __init__(self, cur: Any) -> None:
        self.cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        self.cur.execute(_pg(sql), tuple(params))
        return list(self.cur.fetchall()) if self.cur.description else []

    @property
    def rowcount(self) -> int:
        return int(self.cur.rowcount)


CONNECT_TIMEOUT = 5        # seconds


class PostgresBackend:
    name = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, url: str, size: int = POOL_SIZE) -> None:
        try:
            from psycopg_pool import ConnectionPool
        except ImportError as e:   # psycopg is a base dependency; say so if an install lacks it
            raise RuntimeError("PostgreSQL lists need psycopg 3 and psycopg-pool: "
                               "pip install 'psycopg[binary,pool]'") from e
        import psycopg

        self.url = url
        # one plain connection first: an unreachable server or a refused login fails at once with
        # its reason, where the pool would retry for 30 s and log a line per attempt
        psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
        self.pool = ConnectionPool(url, min_size=1, max_size=size, open=False, timeout=30.0,
                                   name="paperlist-lists")
        self._lock = threading.Lock()
        self.pool.open(wait=True, timeout=30.0)

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self.pool.connection() as conn, conn.cursor() as cur:
            cur.execute(_pg(sql), tuple(params))
            return list(cur.fetchall()) if cur.description else []

    @contextmanager
    def write(self) -> Iterator[_PgTx]:
        """A transaction: the pool's connection block commits when it ends cleanly and rolls back
        on an exception."""
        with self.pool.connection() as conn, conn.cursor() as cur:
            yield _PgTx(cur)

    def close(self) -> None:
        with self._lock:
            self.pool.close()
