"""The lists gateway: the only module with SQL for user lists. Papers are referenced by id (the
service resolves a retired id through its alias when it reads a list); nothing here touches the
paper store.

A *shelf* is what one private link opens: its lists (each with a name, papers, a note per paper
and a read-only share link), the papers marked seen while triaging, and whether seen papers are
hidden. Every write is one transaction of the backend, checked against ``limits`` inside it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from . import limits, tokens
from .backend import Backend, Tx
from .errors import BadListInput, ListFull, UnknownList
from .schema import MIGRATIONS, VERSION


@dataclass(frozen=True, slots=True)
class ListRow:
    id: str
    name: str
    count: int
    created: int
    updated: int
    share: str = ""          # the share token (known to the owner only; "" when read by share link)


@dataclass(frozen=True, slots=True)
class Item:
    paper: str
    note: str
    added: int


@dataclass(frozen=True, slots=True)
class Shelf:
    key: str
    hide_seen: bool
    lists: list[ListRow]
    seen: int


_COUNT = "(SELECT COUNT(*) FROM items i WHERE i.list_id = l.id)"


def _now() -> int:
    return time.time_ns() // 1_000


def _name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise BadListInput("A list needs a name.")
    if len(name) > limits.MAX_NAME:
        raise BadListInput("A list's name is too long.", f"at most {limits.MAX_NAME} characters")
    return name


def _note(note: str) -> str:
    note = (note or "").replace("\x00", "").strip()
    if len(note) > limits.MAX_NOTE:
        raise BadListInput("This note is too long.", f"at most {limits.MAX_NOTE:,} characters")
    return note


def _paper(paper: str) -> str:
    if not paper or len(paper) > 200 or any(c.isspace() for c in paper):
        raise BadListInput("This is not a paper id.", paper[:60])
    return paper


class ListStore:
    def __init__(self, backend: Backend) -> None:
        self.db = backend
        self.migrate()

    # --- schema -------------------------------------------------------------------------
    def migrate(self) -> None:
        with self.db.write() as tx:
            if self.db.name == "postgresql":     # two servers starting at once migrate one at a time
                tx.execute("SELECT pg_advisory_xact_lock(2121)")
            tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            rows = tx.execute("SELECT version FROM schema_version")
            have = rows[0][0] if rows else 0
            if have > VERSION:
                raise RuntimeError(f"lists store has schema {have}, newer than this paperlist ({VERSION})")
            for step in MIGRATIONS[have:]:
                for sql in step:
                    tx.execute(sql)
            if not rows:
                tx.execute("INSERT INTO schema_version (version) VALUES (?)", (VERSION,))
            elif have < VERSION:
                tx.execute("UPDATE schema_version SET version = ?", (VERSION,))

    def version(self) -> int:
        return int(self.db.read("SELECT version FROM schema_version")[0][0])

    # --- write budgets ------------------------------------------------------------------
    @property
    def spans_machines(self) -> bool:
        """Whether every serving machine sees this store (PostgreSQL), so that a client's write
        budget kept here holds across machines."""
        return self.db.name == "postgresql"

    def take_writes(self, client: str, cost: float, rate: float, burst: float,
                    now: float | None = None) -> float:
        """Take ``cost`` tokens from ``client``'s write bucket (``rate`` per second, at most
        ``burst``): 0.0 when allowed, else the seconds until they will be there. One statement,
        atomic on every machine; a refused take leaves the bucket as it was."""
        now = time.time() if now is None else now
        cost = min(cost, burst)
        with self.db.write() as tx:
            rows = tx.execute(
                "INSERT INTO write_buckets AS b (client, tokens, at) VALUES (?, ?, ?) "
                "ON CONFLICT (client) DO UPDATE SET "
                "tokens = MIN_OF(?, b.tokens + (? - b.at) * ?) - ?, at = ? "
                "WHERE MIN_OF(?, b.tokens + (? - b.at) * ?) >= ? RETURNING tokens".replace(
                    "MIN_OF", "LEAST" if self.spans_machines else "MIN"),
                (client, burst - cost, now, burst, now, rate, cost, now, burst, now, rate, cost))
            if rows:
                if int(now) % 600 == 0:          # now and then, forget clients idle for an hour
                    tx.execute("DELETE FROM write_buckets WHERE at < ?", (now - 3600,))
                return 0.0
            left = tx.execute("SELECT tokens, at FROM write_buckets WHERE client = ?", (client,))
        tokens_now = min(burst, left[0][0] + (now - left[0][1]) * rate) if left else 0.0
        return max(0.001, (cost - tokens_now) / rate) if rate > 0 else 1.0

    # --- shelves ------------------------------------------------------------------------
    def create_shelf(self, first_list: str) -> tuple[str, str]:
        """A new private link with one list: (token, list id)."""
        token = tokens.new_token()
        with self.db.write() as tx:
            # triage hides what it marks seen ("x"), so a new link starts with seen papers hidden
            tx.execute("INSERT INTO shelves (key, created, hide_seen) VALUES (?, ?, 1)",
                       (tokens.digest(token), _now()))
            list_id = self._insert_list(tx, token, first_list)
        return token, list_id

    def _key(self, token: str, tx: Tx | None = None) -> str:
        """The shelf's key for a private token, or UnknownList (the same for a malformed token)."""
        if not tokens.well_formed(token):
            raise UnknownList("There is no list at this link.")
        key = tokens.digest(token)
        sql = "SELECT key FROM shelves WHERE key = ?" + (self.db.for_update if tx else "")
        rows = tx.execute(sql, (key,)) if tx else self.db.read(sql, (key,))
        if not rows or not tokens.same(rows[0][0], key):
            raise UnknownList("There is no list at this link.")
        return key

    def shelf(self, token: str) -> Shelf:
        key = self._key(token)
        hide = self.db.read("SELECT hide_seen FROM shelves WHERE key = ?", (key,))[0][0]
        rows = self.db.read(
            f"SELECT l.id, l.name, l.created, l.updated, {_COUNT} "
            "FROM lists l WHERE l.shelf = ? ORDER BY l.created, l.id", (key,))
        seen = self.db.read("SELECT COUNT(*) FROM seen WHERE shelf = ?", (key,))[0][0]
        return Shelf(key, bool(hide), [ListRow(r[0], r[1], int(r[4]), int(r[2]), int(r[3]),
                                               tokens.share_token(token, r[0])) for r in rows], int(seen))

    def set_hide_seen(self, token: str, hide: bool) -> None:
        with self.db.write() as tx:
            key = self._key(token, tx)
            tx.execute("UPDATE shelves SET hide_seen = ? WHERE key = ?", (1 if hide else 0, key))

    # --- lists --------------------------------------------------------------------------
    def _insert_list(self, tx: Tx, token: str, name: str) -> str:
        list_id = tokens.new_list_id()
        now = _now()
        tx.execute("INSERT INTO lists (id, shelf, share, name, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                   (list_id, tokens.digest(token), tokens.digest(tokens.share_token(token, list_id)),
                    _name(name), now, now))
        return list_id

    def create_list(self, token: str, name: str) -> str:
        with self.db.write() as tx:
            key = self._key(token, tx)
            if tx.execute("SELECT COUNT(*) FROM lists WHERE shelf = ?", (key,))[0][0] >= limits.MAX_LISTS:
                raise ListFull("This link holds as many lists as it may.", f"at most {limits.MAX_LISTS}")
            return self._insert_list(tx, token, name)

    def _list(self, tx: Tx, token: str, list_id: str) -> str:
        key = self._key(token, tx)
        rows = tx.execute("SELECT id FROM lists WHERE id = ? AND shelf = ?" + self.db.for_update,
                          (list_id, key))
        if not rows:
            raise UnknownList("There is no such list at this link.", list_id[:40])
        return key

    def rename_list(self, token: str, list_id: str, name: str) -> None:
        with self.db.write() as tx:
            self._list(tx, token, list_id)
            tx.execute("UPDATE lists SET name = ?, updated = ? WHERE id = ?", (_name(name), _now(), list_id))

    def delete_list(self, token: str, list_id: str) -> None:
        with self.db.write() as tx:
            self._list(tx, token, list_id)
            tx.execute("DELETE FROM items WHERE list_id = ?", (list_id,))
            tx.execute("DELETE FROM lists WHERE id = ?", (list_id,))

    def list_row(self, token: str, list_id: str) -> ListRow:
        for row in self.shelf(token).lists:
            if row.id == list_id:
                return row
        raise UnknownList("There is no such list at this link.", list_id[:40])

    def items(self, list_id: str) -> list[Item]:
        """A list's papers, oldest first (the caller has checked the link)."""
        return [Item(r[0], r[1], int(r[2])) for r in self.db.read(
            "SELECT paper, note, added FROM items WHERE list_id = ? ORDER BY added, paper", (list_id,))]

    def item(self, list_id: str, paper: str) -> Item | None:
        rows = self.db.read("SELECT paper, note, added FROM items WHERE list_id = ? AND paper = ?",
                            (list_id, paper))
        return Item(rows[0][0], rows[0][1], int(rows[0][2])) if rows else None

    def shared(self, share: str) -> ListRow:
        """The list a share token opens (read-only)."""
        if not tokens.well_formed(share):
            raise UnknownList("There is no list at this link.")
        digest = tokens.digest(share)
        rows = self.db.read(f"SELECT l.id, l.name, l.created, l.updated, l.share, {_COUNT} "
                            "FROM lists l WHERE l.share = ?", (digest,))
        if not rows or not tokens.same(rows[0][4], digest):
            raise UnknownList("There is no list at this link.")
        r = rows[0]
        return ListRow(r[0], r[1], int(r[5]), int(r[2]), int(r[3]))

    # --- papers in a list ---------------------------------------------------------------
    def add(self, token: str, list_id: str, paper: str, note: str | None = None) -> bool:
        """Add a paper (or set its note when ``note`` is given and it is there): True if added."""
        return self.add_many(token, list_id, [(paper, note)]) == 1

    def add_many(self, token: str, list_id: str, papers: Iterable[tuple[str, str | None]]) -> int:
        """Add papers in one transaction (all or none); the number newly added."""
        wanted = [(_paper(p), None if n is None else _note(n)) for p, n in papers]
        with self.db.write() as tx:
            self._list(tx, token, list_id)
            count = tx.execute("SELECT COUNT(*) FROM items WHERE list_id = ?", (list_id,))[0][0]
            added = 0
            now = _now()
            for i, (paper, note) in enumerate(wanted):
                if tx.execute("SELECT 1 FROM items WHERE list_id = ? AND paper = ?", (list_id, paper)):
                    if note is not None:
                        tx.execute("UPDATE items SET note = ? WHERE list_id = ? AND paper = ?",
                                   (note, list_id, paper))
                    continue
                if count >= limits.MAX_ITEMS:
                    raise ListFull("This list holds as many papers as it may.",
                                   f"at most {limits.MAX_ITEMS:,}")
                tx.execute("INSERT INTO items (list_id, paper, note, added) VALUES (?, ?, ?, ?)",
                           (list_id, paper, note or "", now + i))
                count += 1
                added += 1
            tx.execute("UPDATE lists SET updated = ? WHERE id = ?", (now, list_id))
        return added

    def remove(self, token: str, list_id: str, paper: str) -> bool:
        with self.db.write() as tx:
            self._list(tx, token, list_id)
            tx.execute("DELETE FROM items WHERE list_id = ? AND paper = ?", (list_id, paper))
            gone = tx.rowcount > 0
            if gone:
                tx.execute("UPDATE lists SET updated = ? WHERE id = ?", (_now(), list_id))
        return gone

    def set_note(self, token: str, list_id: str, paper: str, note: str) -> None:
        with self.db.write() as tx:
            self._list(tx, token, list_id)
            tx.execute("UPDATE items SET note = ? WHERE list_id = ? AND paper = ?",
                       (_note(note), list_id, paper))
            if tx.rowcount == 0:
                raise UnknownList("This paper is not in the list.", paper[:60])

    def starred(self, token: str) -> dict[str, list[str]]:
        """Paper id -> the ids of this link's lists that hold it."""
        key = self._key(token)
        out: dict[str, list[str]] = {}
        for paper, list_id in self.db.read("SELECT i.paper, i.list_id FROM items i "
                                           "JOIN lists l ON l.id = i.list_id WHERE l.shelf = ?", (key,)):
            out.setdefault(paper, []).append(list_id)
        return out

    # --- seen marks ---------------------------------------------------------------------
    def mark_seen(self, token: str, paper: str, venue: str, year: int, seen: bool = True) -> None:
        with self.db.write() as tx:
            key = self._key(token, tx)
            if not seen:
                tx.execute("DELETE FROM seen WHERE shelf = ? AND paper = ?", (key, paper))
                return
            if tx.execute("SELECT COUNT(*) FROM seen WHERE shelf = ?", (key,))[0][0] >= limits.MAX_SEEN:
                raise ListFull("This link holds as many seen marks as it may.",
                               f"at most {limits.MAX_SEEN:,}")
            tx.execute("INSERT INTO seen (shelf, paper, venue, year, at) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (shelf, paper) DO NOTHING", (key, _paper(paper), venue, year, _now()))

    def seen(self, token: str, venue: str | None = None, year: int | None = None) -> list[str]:
        key = self._key(token)
        sql, params = "SELECT paper FROM seen WHERE shelf = ?", list[Any]([key])
        if venue is not None:
            sql += " AND venue = ?"
            params.append(venue)
        if year is not None:
            sql += " AND year = ?"
            params.append(year)
        return [r[0] for r in self.db.read(sql + " ORDER BY at", params)]

    def stats(self) -> dict[str, Any]:
        return {k: int(self.db.read(f"SELECT COUNT(*) FROM {k}")[0][0])
                for k in ("shelves", "lists", "items", "seen")}

    def close(self) -> None:
        self.db.close()
