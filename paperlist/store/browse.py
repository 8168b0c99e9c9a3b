"""Reads for browsing: a venue's years, a conference-year's paper list, an author's papers and
co-authors, papers that share authors. They return light "cards" (what a list shows), not whole
Papers, so list pages stay fast on the full corpus."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from .base import StoreBase
from .rows import AuthorRow, Card, VenueYear, YearSourceFile

# Card columns: what a paper list shows. The abstract is cut in SQL (a list shows two lines of it).
_CARD_COLS = ("id, venue, year, title, coalesce(title_plain, title) AS title_plain, status, accepted, track,"
              " award, citations, updated_at,"
              " (SELECT r.rating FROM paper_reviews r WHERE r.paper_id = papers.id) AS rating,"
              " substr(coalesce(abstract_plain, abstract), 1, 420) AS abstract_head")
# How a conference-year list is ordered: the most selective status first, then by title.
_STATUS_ORDER = ("CASE status WHEN 'oral' THEN 0 WHEN 'spotlight' THEN 1 WHEN 'highlight' THEN 2"
                 " WHEN 'poster' THEN 3 WHEN 'accepted' THEN 4 WHEN 'rejected' THEN 6 WHEN 'withdrawn' THEN 7"
                 " WHEN 'desk-rejected' THEN 8 WHEN 'under-review' THEN 5 ELSE 5 END")


@dataclass(slots=True)
class ListFilter:
    """Filters of a conference-year list: statuses (OR-ed), one track, and keywords that must all
    appear in the title, an author name or the abstract."""

    statuses: list[str] = field(default_factory=list)
    track: str | None = None
    words: list[str] = field(default_factory=list)
    accepted: bool | None = None            # only accepted papers (True), only the others (False)
    sort: str = "decision"                  # LIST_ORDERS: best decision first, title, or rating
    topics: list[str] = field(default_factory=list)   # papers with any of these topics (leaf slugs)


def _card(r: sqlite3.Row) -> Card:
    """A card from a row of ``_CARD_COLS``; ``_attach_authors`` fills in its authors."""
    return {"id": r["id"], "venue": r["venue"], "year": r["year"], "title": r["title"],
            "title_plain": r["title_plain"], "status": r["status"], "accepted": r["accepted"],
            "track": r["track"], "award": r["award"], "citations": r["citations"],
            "rating": r["rating"], "updated_at": r["updated_at"], "abstract_head": r["abstract_head"],
            "authors": []}


# How a conference-year list may be ordered (ties always fall back to the title, then the id).
LIST_ORDERS = {
    "decision": f"{_STATUS_ORDER}, coalesce(title_plain, title) COLLATE NOCASE, id",
    "title": "coalesce(title_plain, title) COLLATE NOCASE, id",
    "rating": f"rating IS NULL, rating DESC, {_STATUS_ORDER},"
              " coalesce(title_plain, title) COLLATE NOCASE, id",
}


def _words_where(words: list[str]) -> tuple[list[str], list[str | int]]:
    """Conditions that every word appear in the title, the abstract or an author's name."""
    where: list[str] = []
    args: list[str | int] = []
    for w in words:
        where.append("(coalesce(title_plain, title) LIKE ? ESCAPE '\\'"
                     " OR coalesce(abstract_plain, abstract) LIKE ? ESCAPE '\\' OR EXISTS"
                     " (SELECT 1 FROM paper_authors a WHERE a.paper_id = papers.id"
                     " AND a.name LIKE ? ESCAPE '\\'))")
        args.extend([_like(w)] * 3)
    return where, args


def _like(word: str) -> str:
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class BrowseMixin(StoreBase):
    def cards(self, ids: list[str]) -> list[Card]:
        """Cards for paper ids, in the order given (unknown ids are left out)."""
        if not ids:
            return []
        rows: dict[str, Card] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for r in self.db.execute(f"SELECT {_CARD_COLS} FROM papers WHERE id IN ({marks})", chunk):  # noqa: S608
                rows[r["id"]] = _card(r)
        out = [rows[i] for i in ids if i in rows]
        self._attach_authors(out)
        return out

    def _attach_authors(self, cards: list[Card]) -> None:
        by_id = {c["id"]: c for c in cards}
        for c in cards:
            c["authors"] = []
        ids = list(by_id)
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for pid, name, key in self.db.execute(
                    f"SELECT paper_id, name, author_key FROM paper_authors WHERE paper_id IN ({marks})"  # noqa: S608
                    " ORDER BY paper_id, position", chunk):
                by_id[pid]["authors"].append({"name": name, "key": key})

    # --- venues -----------------------------------------------------------------------------
    def venue_year_counts(self, venue: str) -> list[VenueYear]:
        """One row per year of a venue: total, accepted, counts per status (None = unknown), how many
        papers have an abstract and authors, and when a source file behind the year was last ingested."""
        years: dict[int, VenueYear] = {}
        for year, status, accepted, n, ab, au in self.db.execute(
                "SELECT year, status, accepted, count(*), count(abstract), sum(n_authors > 0) FROM papers"
                " WHERE venue=? GROUP BY year, status ORDER BY year", (venue,)):
            row = years.setdefault(year, {"year": year, "total": 0, "accepted": 0, "statuses": {},
                                          "with_abstract": 0, "with_authors": 0, "updated": None})
            row["total"] += n
            row["accepted"] += n if accepted else 0
            row["statuses"][status] = n
            row["with_abstract"] += ab
            row["with_authors"] += au
        for year, at in self.db.execute(
                "SELECT c.year, max(f.ingested_at) FROM venue_year_files c JOIN files f ON f.key = c.file"
                " WHERE c.venue=? GROUP BY c.year", (venue,)):
            if year in years:
                years[year]["updated"] = at
        return list(years.values())

    def venue_year_sources(self, venue: str, year: int) -> list[YearSourceFile]:
        """The source files behind a conference-year's papers: file key, source, papers it gave,
        when it was last ingested (newest first)."""
        return [{"file": r[0], "source": r[1], "papers": r[2], "ingested_at": r[3]} for r in self.db.execute(
            "SELECT c.file AS file, f.source AS source, c.papers AS papers, f.ingested_at AS ingested_at"
            " FROM venue_year_files c JOIN files f ON f.key = c.file WHERE c.venue=? AND c.year=?"
            " ORDER BY f.ingested_at DESC, c.file", (venue, year))]

    def venue_year_source_papers(self, venue: str, year: int) -> dict[str, int]:
        """How many of a conference-year's papers each source gave (distinct papers: a source's
        files may overlap, or split one year by category)."""
        return dict(self.db.execute(
            "SELECT substr(j.value, 1, instr(j.value, ':') - 1) AS source, count(DISTINCT p.id)"
            " FROM papers p, json_each(p.sources) j WHERE p.venue=? AND p.year=? GROUP BY source",
            (venue, year)).fetchall())

    def list_facets(self, venue: str, year: int,
                    words: list[str] | None = None) -> dict[str, dict[str | None, int]]:
        """Status, track and decision (accepted / not-accepted) counts of a conference-year, for
        its filter links: of the papers with all ``words`` (the list's text filter) when given."""
        q = self.db.execute
        wh, wargs = _words_where(words or [])
        cond = " AND ".join(["venue=?", "year=?", *wh])
        args = [venue, year, *wargs]
        return {
            "status": {r[0]: r[1] for r in q(
                f"SELECT status, count(*) FROM papers WHERE {cond} GROUP BY status"  # noqa: S608
                f" ORDER BY min({_STATUS_ORDER})", args)},
            "track": {r[0]: r[1] for r in q(
                f"SELECT track, count(*) FROM papers WHERE {cond} GROUP BY track ORDER BY 2 DESC",  # noqa: S608
                args)},
            "decision": {"accepted" if r[0] else "not-accepted": r[1] for r in q(
                f"SELECT accepted, count(*) FROM papers WHERE {cond} GROUP BY accepted", args)},  # noqa: S608
        }

    def list_papers(self, venue: str, year: int, flt: ListFilter, offset: int = 0,
                    limit: int | None = 100) -> tuple[int, list[Card]]:
        """(matching count, cards) of one conference-year, in ``flt.sort``'s order (best status
        first, then by title, unless asked otherwise)."""
        cond, args = _list_where(venue, year, flt)
        total = self.db.execute(f"SELECT count(*) FROM papers WHERE {cond}", args).fetchone()[0]  # noqa: S608
        page = "" if limit is None else f" LIMIT {int(limit)} OFFSET {int(offset)}"
        # the page's ids first (the sort carries only its keys), then their cards
        rating = ", (SELECT r.rating FROM paper_reviews r WHERE r.paper_id = papers.id) AS rating"
        ids = [r[0] for r in self.db.execute(
            f"SELECT id{rating if flt.sort == 'rating' else ''} FROM papers WHERE {cond}"  # noqa: S608
            f" ORDER BY {LIST_ORDERS.get(flt.sort, LIST_ORDERS['decision'])}{page}", args)]
        return total, self.cards(ids)

    def listed_among(self, venue: str, year: int, flt: ListFilter, ids: list[str]) -> set[str]:
        """Which of ``ids`` a conference-year's list shows under ``flt`` (the seen marks it counts)."""
        cond, args = _list_where(venue, year, flt)
        out: set[str] = set()
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            out.update(r[0] for r in self.db.execute(
                f"SELECT id FROM papers WHERE {cond} AND id IN ({','.join('?' * len(chunk))})",  # noqa: S608
                [*args, *chunk]))
        return out

    def recent_papers(self, venue: str, limit: int = 50) -> list[Card]:
        """A venue's most recently added or changed papers as cards (its Atom feed): newest
        ``updated_at`` first, then the newest year, best status, title."""
        rows = [_card(r) for r in self.db.execute(
            f"SELECT {_CARD_COLS} FROM papers WHERE venue=?"  # noqa: S608
            f" ORDER BY updated_at DESC, year DESC, {_STATUS_ORDER},"
            " coalesce(title_plain, title) COLLATE NOCASE, id LIMIT ?", (venue, limit))]
        self._attach_authors(rows)
        return rows

    def updated_at(self, ids: list[str]) -> dict[str, str]:
        """When each paper was last added or changed (ISO 8601, UTC)."""
        out: dict[str, str] = {}
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            out.update(self.db.execute(f"SELECT id, updated_at FROM papers WHERE id IN ({marks})", chunk))  # noqa: S608
        return out

    # --- authors ----------------------------------------------------------------------------
    def author(self, key: str) -> AuthorRow | None:
        """An author's name and paper count, or None."""
        row = self.db.execute("SELECT key, name, papers FROM authors WHERE key=?", (key,)).fetchone()
        return {"key": row[0], "name": row[1], "papers": row[2]} if row else None

    def author_cards(self, key: str, limit: int = 2000) -> list[Card]:
        """An author's papers as cards, newest year first."""
        rows = [_card(r) for r in self.db.execute(
            f"SELECT {_CARD_COLS} FROM papers"
            " WHERE id IN (SELECT paper_id FROM paper_authors WHERE author_key=?)"
            " ORDER BY year DESC, venue, coalesce(title_plain, title) COLLATE NOCASE LIMIT ?", (key, limit))]
        self._attach_authors(rows)
        return rows

    def authorships(self, key: str) -> list[tuple[str, int, str | None, list[str]]]:
        """Each paper of an author: (paper id, year, the author's affiliation on it, the other
        authors' keys), by paper id (the evidence for telling namesakes apart)."""
        out: dict[str, tuple[str, int, str | None, list[str]]] = {}
        for pid, year, aff, co in self.db.execute(
                "SELECT s.paper_id, p.year, s.affiliation, o.author_key FROM paper_authors s"
                " JOIN papers p ON p.id = s.paper_id"
                " LEFT JOIN paper_authors o ON o.paper_id = s.paper_id AND o.author_key != s.author_key"
                " WHERE s.author_key=? ORDER BY s.paper_id, o.position", (key,)):
            row = out.setdefault(pid, (pid, year, aff, []))
            if co is not None:
                row[3].append(co)
        return list(out.values())

    def coauthors(self, key: str, limit: int = 24) -> list[AuthorRow]:
        """The author's most frequent co-authors: key, name, shared papers."""
        return [{"key": r[0], "name": r[1], "papers": r[2]} for r in self.db.execute(
            "SELECT b.author_key AS key, a.name AS name, count(DISTINCT b.paper_id) AS papers"
            " FROM paper_authors p"
            " JOIN paper_authors b ON b.paper_id = p.paper_id AND b.author_key != p.author_key"
            " JOIN authors a ON a.key = b.author_key"
            " WHERE p.author_key=? GROUP BY b.author_key ORDER BY papers DESC, a.name LIMIT ?", (key, limit))]

    def same_author_ids(self, paper_id: str, limit: int = 10) -> list[str]:
        """Other papers by this paper's authors: most shared authors first, then newest."""
        return [r[0] for r in self.db.execute(
            "SELECT o.paper_id FROM paper_authors s JOIN paper_authors o"
            " ON o.author_key = s.author_key AND o.paper_id != s.paper_id"
            " JOIN papers p ON p.id = o.paper_id"
            " WHERE s.paper_id=? GROUP BY o.paper_id ORDER BY count(*) DESC, p.year DESC, p.id LIMIT ?",
            (paper_id, limit))]

    def data_stamp(self) -> str:
        """Changes whenever the store's content changes (for caches and ETags)."""
        parts = []
        for suffix in ("", "-wal"):
            p = self.path.with_name(self.path.name + suffix)
            try:
                st = p.stat()
                parts.append(f"{st.st_mtime_ns:x}.{st.st_size:x}")
            except OSError:
                parts.append("-")
        return "/".join(parts)

    def last_ingest(self) -> str | None:
        """When a source file was last ingested (ISO 8601, UTC), or None."""
        row = self.db.execute("SELECT max(ingested_at) FROM files").fetchone()
        return row[0] if row else None


def _list_where(venue: str, year: int, flt: ListFilter) -> tuple[str, list[str | int]]:
    """The WHERE clause (and its arguments) of a conference-year's list under ``flt``."""
    where = ["venue=?", "year=?"]
    args: list[str | int] = [venue, year]
    if flt.accepted is not None:
        where.append("accepted=?")
        args.append(int(flt.accepted))
    if flt.statuses:
        known = [s for s in flt.statuses if s != "unknown"]
        parts = []
        if known:
            parts.append(f"status IN ({','.join('?' * len(known))})")
            args.extend(known)
        if len(known) < len(flt.statuses):
            parts.append("status IS NULL")
        where.append("(" + " OR ".join(parts) + ")")
    if flt.track:
        where.append("track=?")
        args.append(flt.track)
    wh, wargs = _words_where(flt.words)
    where += wh
    args += wargs
    if flt.topics:
        marks = ",".join("?" * len(flt.topics))
        where.append(f"id IN (SELECT paper_id FROM paper_topics WHERE topic IN ({marks}))")
        args.extend(flt.topics)
    return " AND ".join(where), args
