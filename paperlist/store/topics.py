"""Reads and writes for topics and embeddings: the text to embed, the documents topic assignment
reads, the paper_topics table, and topic statistics (per topic, venue and year)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from .base import StoreBase, sync_rows
from .browse import _CARD_COLS, _card
from .rows import Card


@dataclass(slots=True)
class TopicDoc:
    """What topic assignment reads of a paper."""

    id: str
    venue: str
    year: int
    title: str
    abstract: str
    primary_area: str | None
    keywords: list[str] = field(default_factory=list)


def _marks(n: int) -> str:
    return ",".join("?" * n)


class TopicsMixin(StoreBase):
    # --- inputs -------------------------------------------------------------------------------
    def iter_embed_items(self) -> Iterator[tuple[str, str, int, str, str | None]]:
        """(id, venue, year, plain title, plain abstract) of every paper, by id."""
        yield from self.db.execute(
            "SELECT id, venue, year, coalesce(title_plain, title), coalesce(abstract_plain, abstract)"
            " FROM papers ORDER BY id")

    def iter_summaries_zh(self) -> Iterator[tuple[str, str, str]]:
        """(id, Chinese summary, the paper's English text: title, TL;DR, abstract) of every paper a
        source gives a Chinese summary, by id (index.bridge learns words from them)."""
        for pid, zh, title, tldr, abstract in self.db.execute(
                "SELECT id, summary_zh, coalesce(title_plain, title), coalesce(tldr, ''),"
                " coalesce(abstract_plain, abstract, '') FROM papers"
                " WHERE summary_zh IS NOT NULL AND summary_zh <> '' ORDER BY id"):
            yield pid, zh, f"{title}\n{tldr}\n{abstract}"

    def iter_topic_docs(self, start: str = "", end: str | None = None) -> Iterator[TopicDoc]:
        """Every paper with its keywords, by id (two ordered scans merged, not a query per paper);
        only ids in [start, end) when given (workers take a range each)."""
        rng = "WHERE {col} >= ?" + (" AND {col} < ?" if end is not None else "")
        args = (start,) if end is None else (start, end)
        kdb = self._connect()
        try:
            keywords = kdb.execute(f"SELECT paper_id, keyword FROM keywords {rng.format(col='paper_id')}"
                                   " ORDER BY paper_id, position", args)
            krow = keywords.fetchone()
            for r in self.db.execute(
                    "SELECT id, venue, year, coalesce(title_plain, title),"
                    " coalesce(abstract_plain, abstract, ''),"
                    f" primary_area FROM papers {rng.format(col='id')} ORDER BY id", args):
                doc = TopicDoc(r[0], r[1], int(r[2]), r[3], r[4], r[5])
                while krow is not None and krow[0] <= doc.id:
                    if krow[0] == doc.id:
                        doc.keywords.append(krow[1])
                    krow = keywords.fetchone()
                yield doc
        finally:
            kdb.close()

    # --- writes -------------------------------------------------------------------------------
    def replace_topics(self, rows: Iterable[tuple[str, str, int, float, str, int]], fingerprint: str) -> int:
        """Replace every topic assignment with ``rows`` (paper id, topic, rank, score, venue,
        year) in one transaction: readers see the old set or the new one. Only the rows that differ
        are written: an unchanged row keeps its place in the file, so a snapshot of the store after
        a small update shares almost every page with the one before (``snapshots``)."""
        n = 0
        with self.transaction() as db:
            db.execute("DROP TABLE IF EXISTS temp.new_topics")
            db.execute("CREATE TEMP TABLE new_topics (paper_id TEXT NOT NULL, topic TEXT NOT NULL,"
                       " rank INTEGER, score REAL, venue TEXT, year INTEGER,"
                       " published INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (paper_id, topic)) WITHOUT ROWID")
            batch: list[tuple[str, str, int, float, str, int]] = []
            for r in rows:
                batch.append(r)
                if len(batch) >= 10_000:
                    db.executemany("INSERT INTO temp.new_topics VALUES (?,?,?,?,?,?,1)", batch)
                    n += len(batch)
                    batch = []
            db.executemany("INSERT INTO temp.new_topics VALUES (?,?,?,?,?,?,1)", batch)
            n += len(batch)
            db.execute("UPDATE temp.new_topics SET published = 0 WHERE paper_id IN"
                       " (SELECT id FROM papers WHERE accepted = 0)")
            db.execute("DELETE FROM paper_topics WHERE NOT EXISTS (SELECT 1 FROM temp.new_topics n"
                       " WHERE n.paper_id = paper_topics.paper_id AND n.topic = paper_topics.topic"
                       " AND n.rank IS paper_topics.rank AND n.score IS paper_topics.score"
                       " AND n.venue IS paper_topics.venue AND n.year IS paper_topics.year"
                       " AND n.published IS paper_topics.published)")
            db.execute("INSERT INTO paper_topics SELECT * FROM temp.new_topics n WHERE NOT EXISTS"
                       " (SELECT 1 FROM paper_topics p WHERE p.paper_id = n.paper_id AND p.topic = n.topic)")
            db.execute("DROP TABLE temp.new_topics")
            self.set_meta(db, "topics_fingerprint", fingerprint)
        return n

    def replace_topic_stats(self, rows: Iterable[tuple[str, Any]], fingerprint: str) -> int:
        """Every topic's page statistics (slug, JSON-able data), in one transaction, current for the
        topics of ``fingerprint`` (a row whose data did not change is not written)."""
        with self.transaction() as db:
            n = sync_rows(db, "topic_stats", ("slug",), "data",
                          ((slug, orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)) for slug, data in rows))
            self.set_meta(db, "topic_stats_fingerprint", fingerprint)
        return n

    def stored_topic_stats(self, slug: str) -> Any | None:
        """A topic's stored page statistics, or None when there are none or they are not of the
        current topics (an assignment interrupted before they were written)."""
        if self.meta("topic_stats_fingerprint") != self.topics_fingerprint():
            return None
        row = self.db.execute("SELECT data FROM topic_stats WHERE slug=?", (slug,)).fetchone()
        return orjson.loads(row[0]) if row else None

    def topics_fingerprint(self) -> str | None:
        return self.meta("topics_fingerprint")

    # --- reads --------------------------------------------------------------------------------
    def paper_topics(self, paper_id: str) -> list[tuple[str, float]]:
        """A paper's topics, main topic first: [(slug, score)]."""
        return [(r[0], float(r[1])) for r in self.db.execute(
            "SELECT topic, score FROM paper_topics WHERE paper_id=? ORDER BY rank", (paper_id,))]

    def iter_paper_topics(self) -> Iterator[tuple[str, list[str]]]:
        """(paper id, topic slugs main first) for every paper with topics, by id."""
        pid: str | None = None
        slugs: list[str] = []
        for p, t in self.db.execute("SELECT paper_id, topic FROM paper_topics ORDER BY paper_id, rank"):
            if p != pid:
                if pid is not None:
                    yield pid, slugs
                pid, slugs = p, []
            slugs.append(t)
        if pid is not None:
            yield pid, slugs

    def topic_counts(self, venue: str | None = None,
                     year: int | None = None) -> dict[tuple[str, int, str], int]:
        """Papers per (topic, year, venue), optionally within one venue and/or year."""
        where, args = self._topic_where(None, venue, year)
        return {(r[0], int(r[1]), r[2]): int(r[3]) for r in self.db.execute(
            f"SELECT topic, year, venue, count(*) FROM paper_topics WHERE {where}"  # noqa: S608
            " GROUP BY topic, year, venue", args)}

    def topic_paper_count(self, topics: list[str], venue: str | None = None, year: int | None = None) -> int:
        """Distinct papers with any of ``topics`` (a parent topic passes its children)."""
        where, args = self._topic_where(topics, venue, year)
        return int(self.db.execute(
            f"SELECT count(DISTINCT paper_id) FROM paper_topics WHERE {where}", args).fetchone()[0])  # noqa: S608

    def topic_cards(self, topics: list[str], venue: str | None = None, year: int | None = None,
                    offset: int = 0, limit: int = 50,
                    year_counts: dict[int, int] | None = None) -> list[Card]:
        """Cards of papers with any of ``topics``: newest year first, then the papers most clearly
        about the topic (main topic before secondary, then by score). ``year_counts`` (the distinct
        papers per year under the same filters, as the topic statistics have them) lets an area's
        page read only the years it shows."""
        if year is None and year_counts and len(topics) > 1:
            ids: list[str] = []
            skip = offset
            for y in sorted(year_counts, reverse=True):
                if skip >= year_counts[y]:
                    skip -= year_counts[y]
                    continue
                ids += self._topic_ids(topics, venue, y, skip, limit - len(ids))
                skip = 0
                if len(ids) >= limit:
                    break
        else:
            ids = self._topic_ids(topics, venue, year, offset, limit)
        rows: dict[str, Card] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for r in self.db.execute(f"SELECT {_CARD_COLS} FROM papers WHERE id IN ({_marks(len(chunk))})",  # noqa: S608
                                     chunk):
                rows[r["id"]] = _card(r)
        out = [rows[i] for i in ids if i in rows]
        self._attach_authors(out)     # type: ignore[attr-defined]  # BrowseMixin, in the same Store
        return out

    def _topic_ids(self, topics: list[str], venue: str | None, year: int | None, offset: int,
                   limit: int) -> list[str]:
        where, args = self._topic_where(topics, venue, year)
        if len(topics) == 1:
            # one topic lists each paper once: the page index gives the order without a sort
            sql = (f"SELECT paper_id FROM paper_topics WHERE {where}"  # noqa: S608
                   " ORDER BY year DESC, rank, score DESC, paper_id LIMIT ? OFFSET ?")
        else:
            sql = (f"SELECT paper_id FROM paper_topics WHERE {where} GROUP BY paper_id"  # noqa: S608
                   " ORDER BY max(year) DESC, min(rank), max(score) DESC, paper_id LIMIT ? OFFSET ?")
        return [r[0] for r in self.db.execute(sql, [*args, int(limit), int(offset)])]

    def topics_of(self, ids: list[str]) -> dict[str, list[str]]:
        """Topic slugs (main first) of each listed paper."""
        out: dict[str, list[str]] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            for pid, t in self.db.execute(
                    f"SELECT paper_id, topic FROM paper_topics WHERE paper_id IN ({_marks(len(chunk))})"  # noqa: S608
                    " ORDER BY paper_id, rank", chunk):
                out.setdefault(pid, []).append(t)
        return out

    @staticmethod
    def _topic_where(topics: list[str] | None, venue: str | None,
                     year: int | None) -> tuple[str, list[str | int]]:
        """A WHERE clause for topics (None: any), a venue and a year, and its arguments. Topics
        count published work: rejected and withdrawn submissions (listed for some years only, so
        they would make a trend jump) are left out."""
        # the flag is copied from papers when topics are assigned (replace_topics): no join per row
        where = [f"topic IN ({_marks(len(topics))})" if topics is not None else "1=1", "published = 1"]
        args: list[str | int] = list(topics or [])
        if venue:
            where.append("venue=?")
            args.append(venue)
        if year:
            where.append("year=?")
            args.append(year)
        return " AND ".join(where), args

    def topic_year_counts(self, topics: list[str], venue: str | None = None) -> dict[int, int]:
        """Distinct papers per year with any of ``topics`` (an area counts each paper once)."""
        where, args = self._topic_where(topics, venue, None)
        return {int(r[0]): int(r[1]) for r in self.db.execute(
            f"SELECT year, count(DISTINCT paper_id) FROM paper_topics WHERE {where} GROUP BY year"  # noqa: S608
            " ORDER BY year", args)}

    def topic_venue_year_counts(self, topics: list[str]) -> dict[tuple[str, int], int]:
        """Distinct papers per (venue, year) with any of ``topics``."""
        where, args = self._topic_where(topics, None, None)
        return {(r[0], int(r[1])): int(r[2]) for r in self.db.execute(
            f"SELECT venue, year, count(DISTINCT paper_id) FROM paper_topics WHERE {where}"  # noqa: S608
            " GROUP BY venue, year", args)}
