"""Reads and writes for a file of records built a few at a time (OpenAlex's citation counts,
``paperlist update --source citations``): which papers want a count, and adding records to the file
without rewriting it whole."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import orjson

from .base import StoreBase, utcnow
from .ingest import FileCounts


@dataclass(slots=True)
class CountWanted:
    """A paper and what ``file`` last said of it (``as_of``/``citations`` None: nothing yet)."""

    paper_id: str
    venue: str
    year: int
    title: str
    ids: dict[str, str]
    as_of: str | None = None
    citations: int | None = None


class CountsMixin(StoreBase):
    def papers_for_counts(self, file_key: str) -> list[CountWanted]:
        """Every paper, with the date and count of its record in ``file_key`` (found by the paper
        that holds it since the last merge, or, not merged yet, by its key: the id of the paper
        it was written for). Accepted papers first, then the newest years, then by venue and id:
        a run that stops part way has done the papers most read, and the next goes on in order."""
        last: dict[str, tuple[str, int | None]] = {}
        for key, pid, as_of, cites in self.db.execute(
                "SELECT key, paper_id, json_extract(CAST(data AS TEXT), '$.citations_as_of'),"
                " json_extract(CAST(data AS TEXT), '$.citations') FROM records WHERE file=?", (file_key,)):
            if not as_of:
                continue
            for owner in {pid or key, key}:
                if owner not in last or as_of > last[owner][0]:
                    last[owner] = (as_of, cites)
        out = []
        for pid, venue, year, title, ids in self.db.execute(
                "SELECT id, venue, year, coalesce(title_plain, title), ids FROM papers"
                " ORDER BY accepted DESC, year DESC, venue, id"):
            as_of, cites = last.get(pid, (None, None))
            out.append(CountWanted(pid, venue, year, title, orjson.loads(ids) if ids else {}, as_of, cites))
        return out

    def add_file_records(self, file_key: str, source: str, location: str,
                         rows: list[tuple[str, str, str, bytes]]) -> FileCounts:
        """Add or replace ``rows`` (from encode_record, keyed by paper id) in one file, in one
        transaction, leaving its other records alone; a record the same paper held under another
        key (its id before a re-merge) is dropped. The blocks touched are marked dirty for the
        merge. The file's digest is chained over the updates (the file is never read whole)."""
        counts = FileCounts()
        if not rows:
            return counts
        with self.transaction() as db:
            dirty: set[str] = set()
            for key, block, h, blob in rows:
                old = db.execute("SELECT hash, block FROM records WHERE file=? AND key=?",
                                 (file_key, key)).fetchone()
                if old is None:
                    db.execute("INSERT INTO records (file, key, source, block, hash, data)"
                               " VALUES (?,?,?,?,?,?)", (file_key, key, source, block, h, blob))
                    counts.new += 1
                elif old[0] != h:
                    db.execute("UPDATE records SET block=?, hash=?, data=? WHERE file=? AND key=?",
                               (block, h, blob, file_key, key))
                    dirty.add(old[1])
                    counts.updated += 1
                else:
                    counts.unchanged += 1
                    continue
                dirty.add(block)
                gone = "FROM records WHERE file=? AND paper_id=? AND key<>?"
                for (gone_block,) in db.execute(f"SELECT block {gone}", (file_key, key, key)).fetchall():
                    dirty.add(gone_block)
                    counts.removed += 1
                db.execute(f"DELETE {gone}", (file_key, key, key))
            db.executemany("INSERT OR IGNORE INTO dirty_blocks VALUES (?)", [(b,) for b in sorted(dirty)])
            prev = db.execute("SELECT sha256 FROM files WHERE key=?", (file_key,)).fetchone()
            digest = hashlib.sha256(((prev[0] if prev else "") + "".join(r[2] for r in rows)).encode())
            n = db.execute("SELECT count(*) FROM records WHERE file=?", (file_key,)).fetchone()[0]
            db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)",
                       (file_key, source, location, digest.hexdigest(), 1, n, 0, utcnow()))
        return counts
