"""Reads: papers by id (and by retired or external id), corpus figures, venues."""

from __future__ import annotations

import sqlite3

import orjson

from ..models import Author, Paper, Record, Review
from .base import StoreBase
from .reviews import review_from_row
from .rows import CorpusStats, CoverageRow, VenueRow


class ReadMixin(StoreBase):
    def get_paper(self, paper_id: str) -> Paper | None:
        row = self.db.execute("SELECT * FROM papers WHERE id=?", (paper_id,)).fetchone()
        return self._paper(row) if row else None

    def get_papers(self, ids: list[str]) -> list[Paper]:
        """Papers in the order of ``ids`` (unknown ids are left out). Reads each child table once
        per 500 ids rather than three queries per paper (exports read 10,000 papers at a time)."""
        if not ids:
            return []
        out: dict[str, Paper] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"SELECT * FROM papers WHERE id IN ({marks})", chunk).fetchall()  # noqa: S608
            authors: dict[str, list[Author]] = {}
            for r in self.db.execute("SELECT paper_id, name, author_key, affiliation, orcid"
                                     f" FROM paper_authors WHERE paper_id IN ({marks})"  # noqa: S608
                                     " ORDER BY paper_id, position", chunk):
                authors.setdefault(r[0], []).append(Author(name=r[1], key=r[2], affiliation=r[3], orcid=r[4]))
            links: dict[str, list[tuple[str, str]]] = {}
            for r in self.db.execute(f"SELECT paper_id, kind, url FROM links WHERE paper_id IN ({marks})",  # noqa: S608
                                     chunk):
                links.setdefault(r[0], []).append((r[1], r[2]))
            keywords: dict[str, list[str]] = {}
            for r in self.db.execute(f"SELECT paper_id, keyword FROM keywords WHERE paper_id IN ({marks})"  # noqa: S608
                                     " ORDER BY paper_id, position", chunk):
                keywords.setdefault(r[0], []).append(r[1])
            for row in rows:
                pid = row["id"]
                out[pid] = self._paper(row, authors.get(pid, []), links.get(pid, []), keywords.get(pid, []))
        return [out[i] for i in ids if i in out]

    def papers_lacking(self, year_from: int, limit: int) -> list[tuple[str, str, int, str, dict[str, str]]]:
        """(id, venue, year, title, ids) of accepted papers since ``year_from`` that have no authors or
        no abstract, newest first: what an enrichment source can fill."""
        rows = self.db.execute(
            "SELECT id, venue, year, title, ids FROM papers WHERE year >= ? AND accepted = 1"
            " AND (n_authors = 0 OR abstract IS NULL) ORDER BY year DESC, venue, id LIMIT ?",
            (year_from, limit))
        return [(pid, venue, year, title, orjson.loads(ids) if ids else {})
                for pid, venue, year, title, ids in rows]

    def resolve_id(self, ref: str) -> list[str]:
        """Paper ids for a reference: a paper id, a retired id, or an external id
        (doi, arXiv, OpenReview, ACL Anthology, or a source's own id such as papercopilot's)."""
        ref = ref.strip()
        if self.db.execute("SELECT 1 FROM papers WHERE id=?", (ref,)).fetchone():
            return [ref]
        row = self.db.execute("SELECT paper_id FROM paper_aliases WHERE old_id=?", (ref,)).fetchone()
        if row:
            return [row[0]]
        hits = [r[0] for r in self.db.execute(
            "SELECT DISTINCT paper_id FROM paper_ids WHERE value=? OR value=? ORDER BY paper_id",
            (ref, ref.lower()))]
        if hits:
            return hits
        return [r[0] for r in self.db.execute(
            "SELECT DISTINCT paper_id FROM records WHERE key=? AND paper_id IS NOT NULL ORDER BY paper_id",
            (ref,))]

    def papers_with_id(self, kind: str, value: str) -> list[str]:
        """Paper ids carrying one external id (doi, arxiv, openreview, acl): an index lookup, as
        it is as typed or lower-cased."""
        return [r[0] for r in self.db.execute(
            "SELECT DISTINCT paper_id FROM paper_ids WHERE kind=? AND value IN (?, ?) ORDER BY paper_id",
            (kind, value.strip(), value.strip().lower()))]

    def _paper(self, row: sqlite3.Row, authors: list[Author] | None = None,
               links: list[tuple[str, str]] | None = None, keywords: list[str] | None = None) -> Paper:
        """A Paper from its row; children not given are read here."""
        pid = row["id"]
        if authors is None:
            authors = [Author(name=r[0], key=r[1], affiliation=r[2], orcid=r[3]) for r in self.db.execute(
                "SELECT name, author_key, affiliation, orcid FROM paper_authors WHERE paper_id=?"
                " ORDER BY position", (pid,))]
        if links is None:
            links = [(r[0], r[1])
                     for r in self.db.execute("SELECT kind, url FROM links WHERE paper_id=?", (pid,))]
        if keywords is None:
            keywords = [r[0] for r in self.db.execute(
                "SELECT keyword FROM keywords WHERE paper_id=? ORDER BY position", (pid,))]
        return Paper(
            id=pid, venue=row["venue"], year=row["year"], title=row["title"],
            title_plain=row["title_plain"] or row["title"], authors=authors, abstract=row["abstract"],
            abstract_plain=row["abstract_plain"] or row["abstract"], track=row["track"],
            status=row["status"], accepted=bool(row["accepted"]), keywords=keywords,
            primary_area=row["primary_area"], links=links, ids=orjson.loads(row["ids"]),
            citations=row["citations"], bibtex=row["bibtex"], tldr=row["tldr"], summary_zh=row["summary_zh"],
            award=row["award"], biblio=orjson.loads(row["biblio"]),
            institutions=orjson.loads(row["institutions"]) if row["institutions"] else [],
            countries=orjson.loads(row["countries"]) if row["countries"] else [],
            review=self._review(pid),
            sources=orjson.loads(row["sources"]), provenance=orjson.loads(row["provenance"]),
        )

    def _review(self, paper_id: str) -> Review | None:
        r = self.db.execute("SELECT * FROM paper_reviews WHERE paper_id=?", (paper_id,)).fetchone()
        return review_from_row(r) if r is not None else None

    def paper_records(self, paper_id: str) -> list[Record]:
        """The source records merged into a paper (with every field the sources gave)."""
        return [Record.from_dict(orjson.loads(r[0])) for r in self.db.execute(
            "SELECT data FROM records WHERE paper_id=? ORDER BY file, key", (paper_id,))]

    # --- figures ----------------------------------------------------------------------------
    def stats(self) -> CorpusStats:
        q = self.db.execute
        p = q("SELECT count(*), coalesce(sum(accepted),0), count(abstract), count(DISTINCT venue),"
              " count(DISTINCT venue || ':' || year) FROM papers").fetchone()
        # "venues" counts top-level venues: Findings of ACL is a sub-venue of ACL, not a venue of its own.
        top = q("SELECT count(DISTINCT coalesce(v.parent, p.venue))"
                " FROM (SELECT DISTINCT venue FROM papers) p"
                " LEFT JOIN venues v ON v.key = p.venue").fetchone()[0]
        return {
            "papers": p[0], "accepted": p[1], "with_abstract": p[2], "venues": top, "venue_keys": p[3],
            "venue_years": p[4],
            "authors": q("SELECT count(*) FROM authors").fetchone()[0],
            "records": q("SELECT count(*) FROM records").fetchone()[0],
            "files": q("SELECT count(*) FROM files").fetchone()[0],
            "sources": dict(q("SELECT source, count(*) FROM files GROUP BY source"
                              " ORDER BY source").fetchall()),
            "pending_merge": q("SELECT count(*) FROM dirty_blocks").fetchone()[0],
        }

    def venue_rows(self) -> list[VenueRow]:
        """Every venue with its paper counts and years (venues without papers included)."""
        counts = {r[0]: (r[1], r[2], r[3], r[4]) for r in self.db.execute(
            "SELECT venue, count(*), sum(accepted), min(year), max(year) FROM papers GROUP BY venue")}
        years: dict[str, list[int]] = {}
        for v, y in self.db.execute("SELECT DISTINCT venue, year FROM papers ORDER BY venue, year"):
            years.setdefault(v, []).append(y)
        out: list[VenueRow] = []
        for r in self.db.execute("SELECT * FROM venues ORDER BY key"):
            n, acc, lo, hi = counts.get(r["key"], (0, 0, None, None))
            out.append({
                "key": r["key"], "short": r["short"], "name": r["name"], "field": r["field"],
                "kind": r["kind"], "parent": r["parent"], "aliases": orjson.loads(r["aliases"]),
                "known": bool(r["known"]), "papers": n, "accepted": acc or 0,
                "years": years.get(r["key"], []),
            })
        return out

    def plain_titles(self) -> list[tuple[str, str, str, int]]:
        """(id, plain title, venue, year) of every paper, by id (for evaluations and samples)."""
        return [tuple(r) for r in self.db.execute(
            "SELECT id, coalesce(title_plain, title), venue, year FROM papers ORDER BY id")]

    def papers_only_from(self, sources: list[str]) -> set[str]:
        """Ids of the papers every record of which comes from these sources (for evaluations of
        what a set of sources added)."""
        marks = ",".join("?" * len(sources))
        return {r[0] for r in self.db.execute(
            "SELECT paper_id FROM records WHERE paper_id IS NOT NULL GROUP BY paper_id"
            f" HAVING sum(source NOT IN ({marks})) = 0", sources)}  # noqa: S608

    def paper_author_names(self, paper_id: str) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT name FROM paper_authors WHERE paper_id=? ORDER BY position", (paper_id,))]

    def first_author_names(self) -> dict[str, str]:
        """Paper id -> its first author's name, for every paper with authors (for evaluations)."""
        return dict(self.db.execute(
            "SELECT paper_id, name FROM paper_authors WHERE position = 0"))     # positions count from 0

    def check(self) -> None:
        """Read one row: raises when the database cannot be read (the health check)."""
        self.db.execute("SELECT 1 FROM papers LIMIT 1").fetchone()

    def paper_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM papers ORDER BY id")]

    def author_papers(self, key: str) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT pa.paper_id FROM paper_authors pa JOIN papers p ON p.id = pa.paper_id"
            " WHERE pa.author_key=? ORDER BY p.year DESC, p.id", (key,))]

    def coverage(self, venue: str | None = None) -> list[CoverageRow]:
        """Per venue and year: papers, accepted, with abstract, with authors, when a source file
        behind it was last ingested, and every source file that contributed (records, when it was
        ingested)."""
        where, args = ("WHERE p.venue = ?", (venue,)) if venue else ("", ())
        rows: dict[tuple[str, int], CoverageRow] = {}
        for v, y, n, acc, ab, au in self.db.execute(
                "SELECT venue, year, count(*), sum(accepted), count(abstract), sum(n_authors > 0)"
                f" FROM papers p {where} GROUP BY venue, year ORDER BY venue, year", args):  # noqa: S608
            rows[(v, y)] = {"venue": v, "year": y, "papers": n, "accepted": acc, "with_abstract": ab,
                            "with_authors": au, "updated": None, "sources": []}
        vwhere = "WHERE c.venue = ?" if venue else ""
        for v, y, f, src, n, at in self.db.execute(
                "SELECT c.venue, c.year, c.file, f.source, c.records, f.ingested_at FROM venue_year_files c"
                f" JOIN files f ON f.key = c.file {vwhere} ORDER BY c.file", args):  # noqa: S608
            row = rows.get((v, y))
            if row is None:
                continue
            row["sources"].append({"file": f, "source": src, "records": n, "ingested_at": at})
            row["updated"] = max(row["updated"] or at, at)
        return list(rows.values())
