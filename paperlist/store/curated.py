"""Curated reading lists in the store: each list's entries as read (``curated_lists``,
``curated_entries``), and which papers they name (``paper_lists``, derived; see paperlist/curated)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from .base import StoreBase, sync_rows

MATCHED_KEY = "curated_matched"          # meta: what paper_lists was derived from
REPORT_KEY = "curated_report"            # meta: the last match's share per list (JSON)


class CuratedMixin(StoreBase):
    def curated_digests(self) -> dict[str, str]:
        """Every stored list and the digest of the files it was read from."""
        return dict(self.db.execute("SELECT list, digest FROM curated_lists"))

    def replace_curated_list(self, name: str, data: dict[str, Any], digest: str,
                             entries: list[dict[str, Any]]) -> None:
        """Store one list and its entries in one transaction, replacing what it held."""
        with self.transaction() as db:
            db.execute("DELETE FROM curated_entries WHERE list = ?", (name,))
            db.executemany("INSERT INTO curated_entries VALUES (?, ?, ?)",
                           [(name, i, orjson.dumps(e).decode()) for i, e in enumerate(entries)])
            db.execute("INSERT OR REPLACE INTO curated_lists VALUES (?, ?, ?)",
                       (name, orjson.dumps(data).decode(), digest))

    def remove_curated_lists(self, names: list[str]) -> None:
        with self.transaction() as db:
            for name in names:
                db.execute("DELETE FROM curated_entries WHERE list = ?", (name,))
                db.execute("DELETE FROM curated_lists WHERE list = ?", (name,))

    def curated_lists(self) -> dict[str, dict[str, Any]]:
        """Every list's description (commit, date, licence, topic, kind, url), by name."""
        rows = self.db.execute("SELECT list, data FROM curated_lists")
        return {name: orjson.loads(data) for name, data in rows}

    def curated_entries_digest(self) -> str:
        """One string that changes whenever any list changes."""
        rows = self.db.execute("SELECT list, digest FROM curated_lists ORDER BY list").fetchall()
        return ";".join(f"{a}={b}" for a, b in rows)

    def iter_curated_entries(self) -> Iterator[tuple[str, int, dict[str, Any]]]:
        for name, pos, data in self.db.execute("SELECT list, position, data FROM curated_entries"
                                               " ORDER BY list, position"):
            yield name, pos, orjson.loads(data)

    def iter_match_titles(self) -> Iterator[tuple[str, int, str]]:
        """(id, year, title) of every paper: what list entries are matched against by title."""
        yield from self.db.execute("SELECT id, year, coalesce(title_plain, title) FROM papers")

    def iter_match_ids(self) -> Iterator[tuple[str, str, str]]:
        """(kind, value, paper id) of every paper's ids."""
        yield from self.db.execute("SELECT kind, value, paper_id FROM paper_ids")

    def iter_match_links(self) -> Iterator[tuple[str, str]]:
        """(paper id, url) of the links that may be proceedings pages."""
        yield from self.db.execute("SELECT paper_id, url FROM links"
                                   " WHERE kind IN ('pdf', 'site', 'proceedings')")

    def replace_paper_lists(self, rows: Iterator[tuple[str, str, str]], matched: str,
                            report: dict[str, Any]) -> int:
        """Make paper_lists hold exactly ``rows`` (paper id, list, JSON), writing only what
        differs, and record what it was derived from; one transaction."""
        with self.transaction() as db:
            n = sync_rows(db, "paper_lists", ("paper_id", "list"), "data", rows)
            self.set_meta(db, MATCHED_KEY, matched)
            self.set_meta(db, REPORT_KEY, orjson.dumps(report).decode())
        return n

    def clear_paper_lists(self) -> None:
        """No lists: no rows and no record of a match (a home that never read lists keeps its
        store as it was; one whose lists all went loses what they said)."""
        rows = self.db.execute("SELECT 1 FROM paper_lists LIMIT 1").fetchone()
        if self.meta(MATCHED_KEY) is None and rows is None:
            return
        with self.transaction() as db:
            db.execute("DELETE FROM paper_lists")
            db.execute("DELETE FROM meta WHERE key IN (?, ?)", (MATCHED_KEY, REPORT_KEY))

    def curated_report(self) -> dict[str, Any]:
        raw = self.meta(REPORT_KEY)
        return orjson.loads(raw) if raw else {}

    def paper_lists(self, paper_id: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """The lists that include a paper: (list name, what paper_lists holds, the list's
        description), in name order; one query, as a paper page asks it on every request."""
        rows = self.db.execute("SELECT p.list, p.data, coalesce(c.data, '{}') FROM paper_lists p"
                               " LEFT JOIN curated_lists c ON c.list = p.list"
                               " WHERE p.paper_id = ? ORDER BY p.list", (paper_id,))
        return [(name, orjson.loads(data), orjson.loads(info)) for name, data, info in rows]

    def count_paper_lists(self, paper_id: str) -> int:
        row = self.db.execute("SELECT count(*) FROM paper_lists WHERE paper_id = ?", (paper_id,)).fetchone()
        return int(row[0])

    def iter_paper_lists(self) -> Iterator[tuple[str, str, dict[str, Any]]]:
        """(paper id, list, data) of every paper in a list, ordered by paper id (the index's scan)."""
        for pid, name, data in self.db.execute("SELECT paper_id, list, data FROM paper_lists"
                                               " ORDER BY paper_id, list"):
            yield pid, name, orjson.loads(data)
