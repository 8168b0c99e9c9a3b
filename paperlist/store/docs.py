"""Reads for the search index: every paper as a flat document, and a fingerprint of the papers.

The index is derived from the store and rebuilt from scratch, so this reads the papers table (with
its review's mean rating joined in) and its children in three ordered scans merged by paper id,
instead of one query per paper (which would cost ~4 queries x 250k papers).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from .base import StoreBase


@dataclass(slots=True)
class IndexDoc:
    """What the search index needs of one paper (display fields, text to search, filter values)."""

    id: str
    venue: str
    family: str
    year: int
    title: str
    title_plain: str
    abstract_plain: str
    status: str | None
    accepted: bool
    track: str | None
    citations: int | None
    rating: float | None = None                                     # mean review rating, None: unknown
    authors: list[tuple[str, str]] = field(default_factory=list)   # (display name, key), in order
    keywords: list[str] = field(default_factory=list)
    primary_area: str | None = None
    topics: list[str] = field(default_factory=list)                 # topic slugs, main first


class DocsMixin(StoreBase):
    def count_papers(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM papers").fetchone()[0])

    def papers_fingerprint(self) -> str:
        """A digest of every paper's id and content hash: equal digests mean the same papers, so an
        index built from them is still current (~0.2 s for 250k papers)."""
        h = hashlib.sha1()
        for pid, phash in self.db.execute("SELECT id, hash FROM papers ORDER BY id"):
            h.update(f"{pid}\x1f{phash}\x1e".encode())
        return h.hexdigest()

    def iter_sort_keys(self) -> Iterator[tuple[str, str | None, int, str, float | None]]:
        """(id, status, year, plain title, mean rating) of every paper, ordered by id: what global
        sort orders (browse, title, rating) need, without the heavy columns."""
        yield from self.db.execute("SELECT p.id, p.status, p.year, coalesce(p.title_plain, p.title), r.rating"
                                   " FROM papers p LEFT JOIN paper_reviews r ON r.paper_id = p.id"
                                   " ORDER BY p.id")

    def iter_index_docs(self) -> Iterator[IndexDoc]:
        """Every paper, ordered by id, with its authors and keywords. Uses a separate connection
        per scan so the three cursors can advance together."""
        db = self._connect()
        try:
            authors = db.execute(
                "SELECT paper_id, name, author_key FROM paper_authors ORDER BY paper_id, position")
            kdb = self._connect()
            tdb = self._connect()
            try:
                keywords = kdb.execute("SELECT paper_id, keyword FROM keywords ORDER BY paper_id, position")
                topics = tdb.execute("SELECT paper_id, topic FROM paper_topics ORDER BY paper_id, rank")
                papers = self.db.execute(
                    "SELECT p.id, p.venue, p.family, p.year, p.title, coalesce(p.title_plain, p.title),"
                    " coalesce(p.abstract_plain, p.abstract), p.status, p.accepted, p.track, p.citations,"
                    " p.primary_area, r.rating"
                    " FROM papers p LEFT JOIN paper_reviews r ON r.paper_id = p.id ORDER BY p.id")
                arow = authors.fetchone()
                krow = keywords.fetchone()
                trow = topics.fetchone()
                for r in papers:
                    pid = r[0]
                    doc = IndexDoc(id=pid, venue=r[1], family=r[2], year=int(r[3]), title=r[4],
                                   title_plain=r[5], abstract_plain=r[6] or "", status=r[7],
                                   accepted=bool(r[8]), track=r[9], citations=r[10], primary_area=r[11],
                                   rating=r[12])
                    # Children rows of papers that no longer exist sort before pid: skip them.
                    while arow is not None and arow[0] <= pid:
                        if arow[0] == pid:
                            doc.authors.append((arow[1], arow[2]))
                        arow = authors.fetchone()
                    while krow is not None and krow[0] <= pid:
                        if krow[0] == pid:
                            doc.keywords.append(krow[1])
                        krow = keywords.fetchone()
                    while trow is not None and trow[0] <= pid:
                        if trow[0] == pid:
                            doc.topics.append(trow[1])
                        trow = topics.fetchone()
                    yield doc
            finally:
                kdb.close()
                tdb.close()
        finally:
            db.close()
