"""Reads and writes for peer review: a paper's review scores, the inputs of the venue-year
statistics (paperlist/stats), and the statistics themselves (derived, rebuilt whole)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator

import orjson

from ..models import Review
from .base import StoreBase, sync_rows
from .rows import ReviewRank, StatsPaper


def review_from_row(r: sqlite3.Row) -> Review:
    return Review(ratings=orjson.loads(r["ratings"]), confidences=orjson.loads(r["confidences"]),
                  dims=orjson.loads(r["dims"]), mean=r["rating"], confidence_mean=r["confidence"],
                  count=r["n"], from_mean=bool(r["from_mean"]), as_of=r["as_of"])


class ReviewsMixin(StoreBase):
    # --- one paper ----------------------------------------------------------------------------
    def paper_review(self, paper_id: str) -> tuple[Review, str, ReviewRank | None] | None:
        """A paper's review, the file it came from, and its place in its venue-year (None before
        the statistics were derived)."""
        r = self.db.execute("SELECT * FROM paper_reviews WHERE paper_id=?", (paper_id,)).fetchone()
        if r is None:
            return None
        rank: ReviewRank | None = {"rank": r["rank"], "rated": r["rated"]} if r["rank"] else None
        return review_from_row(r), r["source"], rank

    def paper_ratings(self, ids: list[str]) -> dict[str, float]:
        """Mean rating of each of these papers that has one."""
        out: dict[str, float] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            out.update(self.db.execute(
                f"SELECT paper_id, rating FROM paper_reviews WHERE rating IS NOT NULL"
                f" AND paper_id IN ({','.join('?' * len(chunk))})", chunk).fetchall())
        return out

    # --- statistics inputs --------------------------------------------------------------------
    def iter_stats_papers(self) -> Iterator[StatsPaper]:
        """Every paper with what the venue-year statistics count, ordered by venue, year, id."""
        for r in self.db.execute(
                "SELECT p.id, p.venue, p.year, p.status, p.accepted, p.institutions, p.countries,"
                " r.n, r.rating, r.confidence, r.ratings, r.confidences, r.dims, r.from_mean, r.source,"
                " r.as_of"
                " FROM papers p LEFT JOIN paper_reviews r ON r.paper_id = p.id"
                " ORDER BY p.venue, p.year, p.id"):
            yield {"id": r[0], "venue": r[1], "year": r[2], "status": r[3], "accepted": bool(r[4]),
                   "institutions": orjson.loads(r[5]) if r[5] else [],
                   "countries": orjson.loads(r[6]) if r[6] else [],
                   "review": None if r[10] is None else Review(
                       ratings=orjson.loads(r[10]), confidences=orjson.loads(r[11]), dims=orjson.loads(r[12]),
                       mean=r[8], confidence_mean=r[9], count=r[7], from_mean=bool(r[13]), as_of=r[15]),
                   "review_source": r[14]}

    def iter_stats_authors(self) -> Iterator[tuple[str, str, int, str, str, str | None]]:
        """(venue, year, paper id, author key, name, affiliation) of every authorship, ordered
        by venue, year, paper id and position."""
        yield from self.db.execute(
            "SELECT p.venue, p.year, a.paper_id, a.author_key, a.name, a.affiliation"
            " FROM paper_authors a JOIN papers p ON p.id = a.paper_id"
            " ORDER BY p.venue, p.year, a.paper_id, a.position")

    # --- statistics (derived) -----------------------------------------------------------------
    def replace_stats(self, rows: Iterable[tuple[str, int, str]], ranks: Iterable[tuple[int, int, str]],
                      fingerprint: str) -> int:
        """Every venue-year's statistics (venue, year, JSON) and every rated paper's (rank, rated,
        id), in one transaction with the fingerprint of the papers they were computed from. Only
        what changed is written (rows kept in place: see ``replace_topics``)."""
        with self.transaction() as db:
            n = sync_rows(db, "venue_year_stats", ("venue", "year"), "data",
                          ((venue, year, data) for venue, year, data in rows))
            db.execute("DROP TABLE IF EXISTS temp.new_ranks")
            db.execute("CREATE TEMP TABLE new_ranks (paper_id TEXT PRIMARY KEY, rank INTEGER, rated INTEGER)")
            db.executemany("INSERT INTO temp.new_ranks (rank, rated, paper_id) VALUES (?,?,?)", ranks)
            db.execute("UPDATE paper_reviews SET rank = n.rank, rated = n.rated FROM temp.new_ranks n"
                       " WHERE n.paper_id = paper_reviews.paper_id"
                       " AND (paper_reviews.rank IS NOT n.rank OR paper_reviews.rated IS NOT n.rated)")
            db.execute("UPDATE paper_reviews SET rank = NULL, rated = NULL"
                       " WHERE (rank IS NOT NULL OR rated IS NOT NULL)"
                       " AND paper_id NOT IN (SELECT paper_id FROM temp.new_ranks)")
            db.execute("DROP TABLE temp.new_ranks")
            self.set_meta(db, "stats_fingerprint", fingerprint)
        return n

    def stats_fingerprint(self) -> str | None:
        return self.meta("stats_fingerprint")

    def venue_year_stats(self, venue: str, year: int) -> str | None:
        """The statistics of a venue-year as stored (JSON), or None."""
        r = self.db.execute("SELECT data FROM venue_year_stats WHERE venue=? AND year=?",
                            (venue, year)).fetchone()
        return str(r[0]) if r else None

    def rated_papers(self, venue: str, year_from: int | None, year_to: int | None) -> int:
        """How many of a venue's papers in [year_from, year_to] (open ends allowed) have a mean rating."""
        return int(self.db.execute(
            "SELECT count(*) FROM paper_reviews WHERE venue=? AND year BETWEEN ? AND ?"
            " AND rating IS NOT NULL",
            (venue, year_from if year_from is not None else 0, year_to if year_to is not None else 9999),
        ).fetchone()[0])

    def venue_stats(self, venue: str) -> list[tuple[int, str]]:
        """(year, JSON) of every year of a venue, oldest first."""
        return [(y, d) for y, d in self.db.execute(
            "SELECT year, data FROM venue_year_stats WHERE venue=? ORDER BY year", (venue,))]
