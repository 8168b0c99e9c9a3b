"""Writes: source files and their records, the merged papers of a block, authors, venues."""

from __future__ import annotations

import hashlib
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import orjson

from .. import venues as venue_registry
from ..models import Paper, Record
from .base import StoreBase, utcnow


@dataclass(slots=True)
class FileCounts:
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: int = 0


@dataclass(slots=True)
class PaperCounts:
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0

    def add(self, other: PaperCounts) -> None:
        self.new += other.new
        self.updated += other.updated
        self.unchanged += other.unchanged
        self.removed += other.removed


@dataclass(slots=True)
class FileState:
    sha256: str
    reader_version: int
    records: int
    skipped: int


def record_block(rec: Record) -> str:
    return f"{venue_registry.family(rec.venue)}:{rec.year}"


def _dumps(obj: object) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


def encode_record(rec: Record) -> tuple[str, str, str, bytes]:
    """(key, block, content hash, stored JSON) for a record; pure, so workers can run it."""
    blob = _dumps(rec.to_dict())
    return rec.key, record_block(rec), hashlib.sha1(blob).hexdigest(), blob


class IngestMixin(StoreBase):
    # --- files and records ------------------------------------------------------------------
    def file_state(self, file_key: str) -> FileState | None:
        row = self.db.execute("SELECT sha256, reader_version, records, skipped FROM files WHERE key=?",
                              (file_key,)).fetchone()
        return FileState(*row) if row else None

    def file_versions(self) -> dict[str, tuple[str, int]]:
        """file key -> (sha256, reader version) of every stored file."""
        return {k: (h, v) for k, h, v in self.db.execute("SELECT key, sha256, reader_version FROM files")}

    def file_rows(self, file_key: str) -> list[tuple[str, str, str, bytes]]:
        """A file's stored records as ``replace_file_records`` takes them (key, block, hash, data)."""
        return [(k, b, h, bytes(d)) for k, b, h, d in self.db.execute(
            "SELECT key, block, hash, data FROM records WHERE file=? ORDER BY key", (file_key,))]

    def replace_file_records(self, file_key: str, source: str, location: str, sha256: str,
                             reader_version: int, rows: list[tuple[str, str, str, bytes]],
                             skipped: int) -> FileCounts:
        """Make the stored records of one file exactly ``rows`` (from encode_record), in one
        transaction; the blocks whose records changed are marked dirty for the merge."""
        counts = FileCounts(skipped=skipped)
        with self.transaction() as db:
            existing = {k: (h, b) for k, h, b in db.execute(
                "SELECT key, hash, block FROM records WHERE file=?", (file_key,))}
            dirty: set[str] = set()
            inserts, updates = [], []
            seen: set[str] = set()
            for key, block, h, blob in rows:
                seen.add(key)
                old = existing.get(key)
                if old is None:
                    inserts.append((file_key, key, source, block, h, blob))
                    dirty.add(block)
                    counts.new += 1
                elif old[0] != h:
                    updates.append((block, h, blob, file_key, key))
                    dirty.update((block, old[1]))
                    counts.updated += 1
                else:
                    counts.unchanged += 1
            gone = [(file_key, k) for k in existing if k not in seen]
            dirty.update(existing[k][1] for _, k in gone)
            counts.removed = len(gone)
            db.executemany("INSERT INTO records (file, key, source, block, hash, data) VALUES (?,?,?,?,?,?)",
                           inserts)
            db.executemany("UPDATE records SET block=?, hash=?, data=? WHERE file=? AND key=?", updates)
            db.executemany("DELETE FROM records WHERE file=? AND key=?", gone)
            db.executemany("INSERT OR IGNORE INTO dirty_blocks VALUES (?)", [(b,) for b in dirty])
            # ingested_at says when the file's content last reached the store: a forced re-parse
            # that changes nothing keeps it (and leaves the store byte for byte as it was)
            same = db.execute("SELECT ingested_at FROM files WHERE key=? AND sha256=? AND reader_version=?"
                              " AND records=? AND skipped=?",
                              (file_key, sha256, reader_version, len(rows), skipped)).fetchone()
            when = same[0] if same and not (inserts or updates or gone) else utcnow()
            db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)",
                       (file_key, source, location, sha256, reader_version, len(rows), skipped, when))
        return counts

    def touch_file(self, file_key: str, location: str) -> None:
        """Record that an unchanged file was seen again (its location may have changed)."""
        with self.transaction() as db:
            db.execute("UPDATE files SET location=? WHERE key=?", (location, file_key))

    def set_merge_version(self, version: int) -> None:
        if self.meta("merge_version") != str(version):
            with self.transaction() as db:
                self.set_meta(db, "merge_version", version)

    def dirty_blocks(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT block FROM dirty_blocks ORDER BY block")]

    def mark_all_dirty(self) -> int:
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO dirty_blocks SELECT DISTINCT block FROM records")
            return int(db.execute("SELECT count(*) FROM dirty_blocks").fetchone()[0])

    def block_records(self, block: str) -> list[Record]:
        return [Record.from_dict(orjson.loads(r[0])) for r in self.db.execute(
            "SELECT data FROM records WHERE block=? ORDER BY file, key", (block,))]

    # --- merged papers ----------------------------------------------------------------------
    def apply_block(self, block: str, papers: list[tuple[Paper, str]],
                    members: dict[str, list[tuple[str, str]]],
                    prepare: Callable[[Paper], None]) -> PaperCounts:
        """Make the stored papers of ``block`` exactly ``papers`` ((paper, content hash) pairs),
        in one transaction. ``members`` maps each paper id to its (file, key) records. Only
        new or changed papers are written (``prepare`` fills their derived fields first);
        retired ids become aliases of the paper that now holds their records."""
        counts = PaperCounts()
        with self.transaction() as db:
            existing = dict(db.execute("SELECT id, hash FROM papers WHERE block=?", (block,)).fetchall())
            old_owner = {(f, k): p for f, k, p in db.execute(
                "SELECT file, key, paper_id FROM records WHERE block=?", (block,))}
            new_ids = {p.id for p, _ in papers}
            stale = [pid for pid in existing if pid not in new_ids]
            changed = [p for p, h in papers if p.id in existing and existing[p.id] != h]
            self._delete_children(db, stale + [p.id for p in changed])
            db.executemany("DELETE FROM papers WHERE id=?", [(pid,) for pid in stale])
            writes = []
            for paper, h in papers:
                old = existing.get(paper.id)
                if old == h:
                    counts.unchanged += 1
                    continue
                prepare(paper)
                writes.append((paper, h))
                if old is None:
                    counts.new += 1
                else:
                    counts.updated += 1
            self._write_papers(db, writes, block)
            counts.removed = len(stale)
            new_owner = {ref: pid for pid, refs in members.items() for ref in refs}
            db.executemany("UPDATE records SET paper_id=? WHERE file=? AND key=?",
                           [(pid, f, k) for (f, k), pid in new_owner.items() if old_owner.get((f, k)) != pid])
            self._retire(db, stale, old_owner, new_owner)
            self._venue_year_files(db, block, papers, members)
            db.execute("DELETE FROM dirty_blocks WHERE block=?", (block,))
            if writes or stale:
                self.set_meta(db, "venues_stale", 1)
        return counts

    def _venue_year_files(self, db: sqlite3.Connection, block: str, papers: list[tuple[Paper, str]],
                          members: dict[str, list[tuple[str, str]]]) -> None:
        """The block's rows of venue_year_files: per venue, year and source file, its papers and records."""
        counts: dict[tuple[str, int, str], list[int]] = {}
        for paper, _ in papers:
            files = Counter(f for f, _ in members.get(paper.id, []))
            for f, n in files.items():
                c = counts.setdefault((paper.venue, paper.year, f), [0, 0])
                c[0] += 1
                c[1] += n
        db.execute("DELETE FROM venue_year_files WHERE block=?", (block,))
        db.executemany("INSERT INTO venue_year_files VALUES (?,?,?,?,?,?)",
                       [(block, v, y, f, n, r) for (v, y, f), (n, r) in sorted(counts.items())])

    def _delete_children(self, db: sqlite3.Connection, ids: list[str]) -> None:
        for pid in ids:
            db.execute("INSERT OR IGNORE INTO pending_authors SELECT author_key FROM paper_authors"
                       " WHERE paper_id=?", (pid,))
            for table in ("paper_authors", "links", "keywords", "paper_ids", "paper_reviews"):
                db.execute(f"DELETE FROM {table} WHERE paper_id=?", (pid,))  # noqa: S608 - fixed names

    def _write_papers(self, db: sqlite3.Connection, papers: list[tuple[Paper, str]], block: str) -> None:
        """Insert (or replace) papers and their child rows, batched per table."""
        now = utcnow()
        db.executemany(
            "INSERT OR REPLACE INTO papers (id, block, venue, family, year, title, title_plain, abstract,"
            " abstract_plain, track, status, accepted, primary_area, citations, bibtex, tldr, summary_zh,"
            " award, n_authors, biblio, institutions, ids, sources, provenance, hash, updated_at, countries)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(p.id, block, p.venue, venue_registry.family(p.venue), p.year, p.title,
              None if p.title_plain == p.title else p.title_plain, p.abstract,
              None if p.abstract_plain == p.abstract else p.abstract_plain, p.track, p.status,
              int(p.accepted), p.primary_area, p.citations, p.bibtex, p.tldr, p.summary_zh, p.award,
              len(p.authors), _dumps(p.biblio).decode(),
              _dumps(p.institutions).decode() if p.institutions else None, _dumps(p.ids).decode(),
              _dumps(p.sources).decode(), _dumps(p.provenance).decode(), h, now,
              _dumps(p.countries).decode() if p.countries else None) for p, h in papers])
        db.executemany("INSERT INTO paper_authors VALUES (?,?,?,?,?,?)",
                       [(p.id, i, a.key, a.name, a.affiliation, a.orcid)
                        for p, _ in papers for i, a in enumerate(p.authors)])
        db.executemany("INSERT OR IGNORE INTO pending_authors VALUES (?)",
                       [(a.key,) for p, _ in papers for a in p.authors])
        db.executemany("INSERT OR IGNORE INTO links VALUES (?,?,?)",
                       [(p.id, k, u) for p, _ in papers for k, u in p.links])
        db.executemany("INSERT INTO keywords VALUES (?,?,?)",
                       [(p.id, i, k) for p, _ in papers for i, k in enumerate(p.keywords)])
        db.executemany("INSERT OR IGNORE INTO paper_ids VALUES (?,?,?)",
                       [(k, v, p.id) for p, _ in papers for k, v in p.ids.items()])
        db.executemany(
            "INSERT OR REPLACE INTO paper_reviews (paper_id, venue, year, n, rating, confidence, ratings,"
            " confidences, dims, from_mean, source, as_of) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [(p.id, p.venue, p.year, r.count, r.mean, r.confidence_mean, _dumps(r.ratings).decode(),
              _dumps(r.confidences).decode(), _dumps(r.dims).decode(), int(r.from_mean),
              p.provenance.get("review", ""), r.as_of) for p, _ in papers if (r := p.review) is not None])

    def _retire(self, db: sqlite3.Connection, stale: list[str], old_owner: dict[tuple[str, str], str],
                new_owner: dict[tuple[str, str], str]) -> None:
        for old_id in stale:
            heirs = Counter(new_owner[ref] for ref, pid in old_owner.items()
                            if pid == old_id and ref in new_owner)
            if not heirs:
                continue
            heir = sorted(heirs.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            db.execute("INSERT OR REPLACE INTO paper_aliases VALUES (?, ?)", (old_id, heir))
            db.execute("UPDATE paper_aliases SET paper_id=? WHERE paper_id=?", (heir, old_id))
        # An id that is live again is no longer an alias.
        db.executemany("DELETE FROM paper_aliases WHERE old_id=?",
                       [(pid,) for pid in set(new_owner.values())])

    # --- derived tables ---------------------------------------------------------------------
    def pending_authors(self) -> int:
        """How many authors a merge touched whose ``authors`` row is not recomputed yet."""
        return int(self.db.execute("SELECT count(*) FROM pending_authors").fetchone()[0])

    def venues_stale(self) -> bool:
        """True when merged papers changed since the venues table was last synced."""
        return self.meta("venues_stale") is not None

    def refresh_authors(self) -> int:
        """Recompute the authors table for every key a merge touched (``pending_authors``) and
        clear them, in one transaction: display name = the most common written form (ties: the one
        with more non-ASCII letters, then alphabetical)."""
        with self.transaction() as db:
            n = int(db.execute("SELECT count(*) FROM pending_authors").fetchone()[0])
            if not n:
                return 0
            if n > 20000:
                rows: Iterable[tuple[str, str]] = db.execute("SELECT author_key, name FROM paper_authors")
                db.execute("DELETE FROM authors")
            else:
                db.execute("DELETE FROM authors WHERE key IN (SELECT key FROM pending_authors)")
                rows = db.execute("SELECT author_key, name FROM paper_authors"
                                  " WHERE author_key IN (SELECT key FROM pending_authors)").fetchall()
            forms: dict[str, Counter[str]] = {}
            for key, name in rows:
                forms.setdefault(key, Counter())[name] += 1
            db.executemany("INSERT INTO authors VALUES (?,?,?)", [
                (k, max(c.items(), key=lambda kv: (kv[1], sum(ord(ch) > 127 for ch in kv[0]), kv[0]))[0],
                 sum(c.values())) for k, c in forms.items()])
            db.execute("DELETE FROM pending_authors")
        return n

    def sync_venues(self) -> None:
        """The venues table: every registry venue plus any unknown venue the papers use."""
        with self.transaction() as db:
            used = {r[0] for r in db.execute("SELECT DISTINCT venue FROM papers")}
            known = {v.key for v in venue_registry.all_venues()}
            rows = []
            for key in sorted(known | used):
                v = venue_registry.get(key)
                rows.append((v.key, v.short, v.name, v.field, v.kind, v.parent, v.family,
                             _dumps(list(v.aliases)).decode(), int(v.known)))
            db.execute("DELETE FROM venues")
            db.executemany("INSERT INTO venues VALUES (?,?,?,?,?,?,?,?,?)", rows)
            db.execute("DELETE FROM meta WHERE key='venues_stale'")
