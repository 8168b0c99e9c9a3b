"""The lists store's schema, one for both backends (SQLite and PostgreSQL): portable SQL only
(TEXT, BIGINT, INTEGER, ON CONFLICT upserts). ``MIGRATIONS[n]`` takes the schema from version n
to n + 1; a store records its version in ``schema_version`` and applies the missing steps in one
transaction when it is opened."""

from __future__ import annotations

MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE IF NOT EXISTS shelves (
             key TEXT PRIMARY KEY,
             created BIGINT NOT NULL,
             hide_seen INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE IF NOT EXISTS lists (
             id TEXT PRIMARY KEY,
             shelf TEXT NOT NULL REFERENCES shelves(key) ON DELETE CASCADE,
             share TEXT NOT NULL UNIQUE,
             name TEXT NOT NULL,
             created BIGINT NOT NULL,
             updated BIGINT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS lists_shelf ON lists (shelf)",
        """CREATE TABLE IF NOT EXISTS items (
             list_id TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
             paper TEXT NOT NULL,
             note TEXT NOT NULL DEFAULT '',
             added BIGINT NOT NULL,
             PRIMARY KEY (list_id, paper))""",
        "CREATE INDEX IF NOT EXISTS items_added ON items (list_id, added)",
        """CREATE TABLE IF NOT EXISTS seen (
             shelf TEXT NOT NULL REFERENCES shelves(key) ON DELETE CASCADE,
             paper TEXT NOT NULL,
             venue TEXT NOT NULL,
             year INTEGER NOT NULL,
             at BIGINT NOT NULL,
             PRIMARY KEY (shelf, paper))""",
        "CREATE INDEX IF NOT EXISTS seen_venue ON seen (shelf, venue, year)",
    ],
    [
        # write-rate buckets shared by every serving machine (web/limits.py; PostgreSQL only)
        """CREATE TABLE IF NOT EXISTS write_buckets (
             client TEXT PRIMARY KEY,
             tokens DOUBLE PRECISION NOT NULL,
             at DOUBLE PRECISION NOT NULL)""",
    ],
]
VERSION = len(MIGRATIONS)
