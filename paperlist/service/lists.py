"""Reading lists: what a private link opens, one list with its papers and notes, adding and
removing papers, notes, export, seen marks and whether seen papers are hidden.

Lists hold paper ids; reading a list resolves an id that a later merge retired through its alias
(``store.resolve_id``), so lists stay valid across re-ingests. The lists store (``paperlist.lists``)
raises its own errors; they leave here as the service's (404, 409, 400).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TypeVar

from .. import exports
from ..cite import STYLES, cite_many
from ..lists import ListsError, ListStore, limits
from ..lists.store import Item, ListRow
from ..store.rows import Card
from .errors import N_, BadRequest, Conflict, NotFound, ServiceError
from .home import Home
from .papers import export_record, summary
from .paths import API_ROOT, list_api_path, list_path, shared_path
from .requests import ListRequest
from .types import ListEntry, ListShelf, ReadingList, ReadingListInfo, SeenMarks, StarredPapers
from .venues import list_filter

T = TypeVar("T")
DEFAULT_NAME = N_("Reading list")
EXPORT_FORMATS = exports.FORMATS + tuple(k for k, s in STYLES.items() if s.csl)
_BY_STATUS: dict[int, type[ServiceError]] = {404: NotFound, 409: Conflict, 400: BadRequest}


@contextmanager
def translated() -> Iterator[None]:
    """The lists store's errors as the service's."""
    try:
        yield
    except ListsError as e:
        raise _BY_STATUS.get(e.status, BadRequest)(e.message, e.detail) from e


def _call(home: Home, f: Callable[[ListStore], T]) -> T:
    with translated():
        return f(home.lists)


def _iso(us: int) -> str:
    return datetime.fromtimestamp(us / 1e6, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _info(token: str, row: ListRow) -> ReadingListInfo:
    return {"id": row.id, "name": row.name, "count": row.count, "created": _iso(row.created),
            "updated": _iso(row.updated), "href": list_path(token, row.id),
            "api_href": list_api_path(token, row.id), "share_href": shared_path(row.share),
            "share_api_href": API_ROOT + shared_path(row.share)}


def shelf(home: Home, token: str) -> ListShelf:
    s = _call(home, lambda ls: ls.shelf(token))
    return {"token": token, "href": list_path(token), "api_href": list_api_path(token),
            "hide_seen": s.hide_seen, "seen": s.seen, "lists": [_info(token, r) for r in s.lists],
            "limits": {"lists": limits.MAX_LISTS, "papers": limits.MAX_ITEMS, "note": limits.MAX_NOTE,
                       "name": limits.MAX_NAME}}


def create_shelf(home: Home, first_list: str = DEFAULT_NAME) -> ListShelf:
    token, _list_id = _call(home, lambda ls: ls.create_shelf(first_list))
    return shelf(home, token)


def create_list(home: Home, token: str, name: str) -> ReadingListInfo:
    list_id = _call(home, lambda ls: ls.create_list(token, name))
    return _info(token, _call(home, lambda ls: ls.list_row(token, list_id)))


def rename_list(home: Home, token: str, list_id: str, name: str) -> ReadingListInfo:
    _call(home, lambda ls: ls.rename_list(token, list_id, name))
    return _info(token, _call(home, lambda ls: ls.list_row(token, list_id)))


def delete_list(home: Home, token: str, list_id: str) -> ListShelf:
    _call(home, lambda ls: ls.delete_list(token, list_id))
    return shelf(home, token)


def set_hide_seen(home: Home, token: str, hide: bool) -> ListShelf:
    _call(home, lambda ls: ls.set_hide_seen(token, hide))
    return shelf(home, token)


def _current(home: Home, items: list[Item]) -> list[tuple[Item, str, Card | None]]:
    """Each item with the paper's current id and card: an id retired by a merge follows its alias."""
    cards = {c["id"]: c for c in home.store.cards([i.paper for i in items])}
    out: list[tuple[Item, str, Card | None]] = []
    for it in items:
        card = cards.get(it.paper)
        pid = it.paper
        if card is None:
            hits = home.store.resolve_id(it.paper)
            if len(hits) == 1:
                pid = hits[0]
                found = home.store.cards([pid])
                card = found[0] if found else None
        out.append((it, pid, card))
    return out


def _entries(home: Home, items: list[Item]) -> list[ListEntry]:
    return [{"id": pid, "stored_id": it.paper, "note": it.note, "added": _iso(it.added),
             "paper": summary(card) if card is not None else None} for it, pid, card in _current(home, items)]


def _reading_list(home: Home, row: ListRow, href: str, share_href: str, read_only: bool,
                  api_href: str) -> ReadingList:
    items = home.lists.items(row.id)
    base = api_href
    return {"id": row.id, "name": row.name, "count": row.count, "created": _iso(row.created),
            "updated": _iso(row.updated), "read_only": read_only, "href": href, "share_href": share_href,
            "entries": _entries(home, items), "exports": {f: f"{base}?format={f}" for f in EXPORT_FORMATS}}


def reading_list(home: Home, token: str, list_id: str) -> ReadingList:
    row = _call(home, lambda ls: ls.list_row(token, list_id))
    return _reading_list(home, row, list_path(token, list_id), shared_path(row.share), False,
                         list_api_path(token, list_id))


def shared_list(home: Home, share: str) -> ReadingList:
    row = _call(home, lambda ls: ls.shared(share))
    path = shared_path(share)
    return _reading_list(home, row, path, path, True, API_ROOT + path)


def _paper_id(home: Home, ref: str) -> str:
    """The current id of a paper named by any of its ids (404 when none; an ambiguous external id
    is refused: a list holds one paper per entry)."""
    hits = home.store.resolve_id(ref[:200]) if ref.strip() else []
    if len(hits) != 1:
        raise NotFound(N_("There is no paper with this id."), ref[:120]) if not hits else BadRequest(
            N_("This id belongs to several papers."), ", ".join(hits[:10]))
    return hits[0]


def add_paper(home: Home, token: str, list_id: str, ref: str, note: str | None = None) -> ListEntry:
    pid = _paper_id(home, ref)
    _call(home, lambda ls: ls.add(token, list_id, pid, note))
    return _entry(home, list_id, pid)


def set_note(home: Home, token: str, list_id: str, ref: str, note: str) -> ListEntry:
    pid = _stored_id(home, token, list_id, ref)
    _call(home, lambda ls: ls.set_note(token, list_id, pid, note))
    return _entry(home, list_id, pid)


def remove_paper(home: Home, token: str, list_id: str, ref: str) -> ReadingListInfo:
    pid = _stored_id(home, token, list_id, ref)
    _call(home, lambda ls: ls.remove(token, list_id, pid))
    return _info(token, _call(home, lambda ls: ls.list_row(token, list_id)))


def _stored_id(home: Home, token: str, list_id: str, ref: str) -> str:
    """The id a list holds for ``ref``: as given, or the stored id an alias resolved to ``ref``."""
    _call(home, lambda ls: ls.list_row(token, list_id))
    if home.lists.item(list_id, ref) is not None:
        return ref
    for it, pid, _card in _current(home, home.lists.items(list_id)):
        if pid == ref:
            return it.paper
    return ref


def _entry(home: Home, list_id: str, pid: str) -> ListEntry:
    item = home.lists.item(list_id, pid)
    if item is None:
        raise NotFound(N_("This paper is not in the list."), pid[:120])
    return _entries(home, [item])[0]


def starred(home: Home, token: str) -> StarredPapers:
    """Paper id -> the ids of this link's lists that hold it (what the star buttons show)."""
    return {"papers": _call(home, lambda ls: ls.starred(token))}


# --- seen marks (triage) ----------------------------------------------------------------
def mark_seen(home: Home, token: str, ref: str, seen: bool = True,
              view: ListRequest | None = None) -> SeenMarks:
    pid = _paper_id(home, ref)
    card = home.store.cards([pid])[0]
    _call(home, lambda ls: ls.mark_seen(token, pid, card["venue"], int(card["year"]), seen))
    return seen_marks(home, token, card["venue"], int(card["year"]), view)


def seen_marks(home: Home, token: str, venue: str | None = None, year: int | None = None,
               view: ListRequest | None = None) -> SeenMarks:
    """The papers marked seen (at one venue and year when given), and with ``view`` (a conference-
    year's list as filtered: accepted papers by default) how many of them that list shows, so that
    a triage counter reads "12 of 3,711" for the 3,711 it lists, not "12 of 11,677"."""
    ids = _call(home, lambda ls: ls.seen(token, venue, year))
    listed = None
    if view is not None and venue and year:
        listed = len(home.store.listed_among(venue, year, list_filter(view), ids))
    return {"venue": venue, "year": year, "count": len(ids), "listed": listed, "ids": ids}


# --- export -----------------------------------------------------------------------------
def export_text(home: Home, items: list[Item], fmt: str, paper_url: Callable[[str], str]) -> Iterator[str]:
    """A list in one format: an export (bib, ris, csv, jsonl; notes included) or a bibliography in
    a citation style (apa, mla, chicago, ieee, gbt7714), in the list's order."""
    current = [(it, pid) for it, pid, card in _current(home, items) if card is not None]
    notes = {pid: it.note for it, pid in current}
    ids = [pid for _it, pid in current]
    if fmt in exports.FORMATS:
        yield from exports.export(home.store, ids, fmt, record=export_record(home.store),
                                   paper_url=paper_url, notes=notes)
        return
    if fmt not in STYLES:
        raise BadRequest(N_("Unknown format."), fmt[:40])
    papers = [p for chunk in exports.read_papers(home.store, ids) for p in chunk]
    yield "".join(text + "\n\n" for text in cite_many(papers, fmt))   # one bibliography: sorted, numbered


def list_export(home: Home, token: str | None, ref: str, fmt: str,
                paper_url: Callable[[str], str]) -> tuple[ListRow, Iterator[str]]:
    """A list's row and its export; by private link (``token``, ``ref`` the list id) or, with no
    token, by share link (``ref`` the share token)."""
    if token is None:
        row = _call(home, lambda ls: ls.shared(ref))
    else:
        row = _call(home, lambda ls: ls.list_row(token, ref))
    items = home.lists.items(row.id)
    return row, export_text(home, items, fmt, paper_url)

