"""User state: reading lists and the papers marked seen while triaging, in a store of their own
(never the paper store, which is read-only when serving). ``open_lists(url)`` opens it: a path
(or ``sqlite:///path``) is an SQLite file, the embedded default; ``postgresql://…`` a PostgreSQL
database that several serving machines share."""

from __future__ import annotations

import re
from pathlib import Path

from .errors import BadListInput, ListFull, ListsError, UnknownList
from .store import Item, ListRow, ListStore, Shelf

LISTS_FILE = "lists.db"

__all__ = ["BadListInput", "Item", "ListFull", "ListRow", "ListStore", "ListsError", "Shelf", "UnknownList",
           "open_lists", "redact_url", "LISTS_FILE"]


def redact_url(url: str) -> str:
    """A lists URL fit for a message: a PostgreSQL password replaced by ``***``."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def open_lists(url: str | Path) -> ListStore:
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        from .pg import PostgresBackend

        return ListStore(PostgresBackend(text))
    from .backend import SQLiteBackend

    return ListStore(SQLiteBackend(text.removeprefix("sqlite://")))
