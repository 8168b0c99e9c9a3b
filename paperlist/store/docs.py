"""Reads for the search index: every paper as a flat document, and a fingerprint of the papers.

The index is derived from the store and rebuilt from scratch, so this reads the papers table (with
its review's mean rating joined in) and its children in three ordered scans merged by paper id,
instead of one query per paper (which would cost ~4 queries x 250k papers).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..versions import Version, work_key
from .base import StoreBase

_WORK = "substr(id, instr(id, '-') + 1)"        # versions.work_key, as the index papers_work has it


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
    award: str | None = None


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

    def version_candidates(self, paper_ids: list[str] | None = None) -> list[Version]:
        """The papers whose work key (``versions.work_key``) another paper shares: of these papers'
        keys (themselves included), or of every key (what the index needs to show each work once)."""
        if paper_ids is not None:
            keys = sorted({work_key(pid) for pid in paper_ids})
            if not keys:
                return []
            where, args = f"{_WORK} IN ({','.join('?' * len(keys))})", keys
        else:
            where, args = f"{_WORK} IN (SELECT {_WORK} FROM papers GROUP BY {_WORK} HAVING count(*) > 1)", []
        rows = self.db.execute(f"SELECT id, venue, year, status, accepted, citations,"  # noqa: S608
                               f" length(coalesce(title_plain, title)) FROM papers WHERE {where}",
                               args).fetchall()
        if len(rows) < 2 and paper_ids is None:
            return []
        authors: dict[str, set[str]] = {r[0]: set() for r in rows}
        ids = list(authors)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for pid, key in self.db.execute(
                    f"SELECT paper_id, author_key FROM paper_authors WHERE paper_id IN ({marks})", chunk):  # noqa: S608
                authors[pid].add(key)
        return [Version(r[0], r[1], int(r[2]), r[3], bool(r[4]), r[5], frozenset(authors[r[0]]),
                        int(r[6] or 0)) for r in rows]

    def abstracts(self, ids: list[str]) -> dict[str, str]:
        """The plain abstracts of these papers (those that have one)."""
        out: dict[str, str] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for pid, text in self.db.execute(
                    "SELECT id, coalesce(abstract_plain, abstract) FROM papers"  # noqa: S608
                    f" WHERE id IN ({marks}) AND coalesce(abstract_plain, abstract) != ''", chunk):
                out[pid] = text
        return out

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
                    " p.primary_area, r.rating, p.award"
                    " FROM papers p LEFT JOIN paper_reviews r ON r.paper_id = p.id ORDER BY p.id")
                arow = authors.fetchone()
                krow = keywords.fetchone()
                trow = topics.fetchone()
                for r in papers:
                    pid = r[0]
                    doc = IndexDoc(id=pid, venue=r[1], family=r[2], year=int(r[3]), title=r[4],
                                   title_plain=r[5], abstract_plain=r[6] or "", status=r[7],
                                   accepted=bool(r[8]), track=r[9], citations=r[10], primary_area=r[11],
                                   rating=r[12], award=r[13] or None)
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
