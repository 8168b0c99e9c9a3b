"""The store's queries that serve pages use an index, never a scan of a whole table: a scan is
harmless on the fixtures and blocks a worker for a third of a second on the full corpus."""

from __future__ import annotations

import sqlite3

from paperlist.store import Store


def _plan(db: sqlite3.Connection, sql: str, args: tuple[object, ...]) -> str:
    return " | ".join(str(r[-1]) for r in db.execute("EXPLAIN QUERY PLAN " + sql, args))


def test_a_conference_years_topic_counts_use_an_index(web_store: Store) -> None:
    sql = ("SELECT topic, year, venue, count(*) FROM paper_topics WHERE venue = ? AND year = ?"
           " GROUP BY topic, year, venue")
    plan = _plan(web_store.db, sql, ("neurips", 2024))
    assert "paper_topics_venue" in plan and not plan.startswith("SCAN")
    # the store's own method asks exactly this (and answers it)
    counts = web_store.topic_counts(venue="neurips", year=2024)
    assert counts and all(v == "neurips" and y == 2024 for _t, y, v in counts)
