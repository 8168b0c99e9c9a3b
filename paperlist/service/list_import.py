"""Importing a BibTeX or RIS file into a reading list.

Each entry is resolved to one paper of the store: by the ids it carries (its RIS ``ID``, the
``paperlist`` field of our BibTeX exports, its BibTeX key when it is one of our paper ids or a
retired one, its DOI, arXiv eprint, and the ids in its
URLs: OpenReview, ACL Anthology, our own paper pages), else by its exact title (the same after
folding case, accents and punctuation; found through the search index, checked on the store; the
year decides between equal titles). Entries no paper matches are reported, not guessed. The
papers found are added in one transaction (all or none); an entry's ``annote`` / ``note`` (BibTeX)
or ``N1`` (RIS) becomes its note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import bibtexparser

from ..cite import ris
from ..lists import limits
from ..search.model import SearchRequest
from ..text import plain, title_key, words
from .errors import N_, BadRequest
from .home import Home
from .lists import _call
from .types import ImportReport

_URL_IDS = (re.compile(r"openreview\.net/(?:forum|pdf)\?id=([\w-]+)"),
            re.compile(r"aclanthology\.org/([\w.-]+?)(?:\.pdf)?/?$"),
            re.compile(r"/papers/([\w.:-]+)"))
_ARXIV = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})")


@dataclass
class Entry:
    title: str = ""
    year: int | None = None
    refs: tuple[str, ...] = ()     # ids to try, most specific first
    note: str | None = None
    label: str = ""


def _refs(ours: str, key: str, doi: str, eprint: str, urls: list[str]) -> tuple[str, ...]:
    out = [x for x in (ours, key, doi, eprint) if x]
    for url in urls:
        out += [m.group(1) for rx in (*_URL_IDS, _ARXIV) if (m := rx.search(url))]
    return tuple(dict.fromkeys(x.strip() for x in out if x.strip()))


def _year(text: str | None) -> int | None:
    m = re.search(r"\d{4}", text or "")
    return int(m.group()) if m else None


def parse_bibtex(text: str) -> list[Entry]:
    lib = bibtexparser.parse_string(text)
    if not lib.entries:
        raise BadRequest(N_("This file is neither BibTeX nor RIS."), "no entry could be read")
    out = []
    for e in lib.entries:
        f = {k.lower(): str(v.value) for k, v in e.fields_dict.items()}
        title = plain(f.get("title", ""))
        note = f.get("annote") or f.get("note")
        out.append(Entry(title, _year(f.get("year")),
                         _refs(f.get("paperlist", ""), e.key, f.get("doi", ""), f.get("eprint", ""),
                               [f.get("url", "")]),
                         plain(note) if note else None, title or e.key))
    return out


def parse_ris(text: str) -> list[Entry]:
    try:
        recs = ris.loads(text)
    except ValueError as e:
        raise BadRequest(N_("This file is neither BibTeX nor RIS."), str(e)[:200]) from e
    out = []
    for r in recs:
        title = str(r.get("primary_title") or r.get("title") or "")
        notes = r.get("notes") or []
        out.append(Entry(title, _year(str(r.get("year") or r.get("publication_year") or "")),
                         _refs(str(r.get("id") or ""), "", str(r.get("doi") or ""), "",
                               [str(u) for u in r.get("urls", [])]),
                         " ".join(notes) if notes else None, title or str(r.get("id") or "")))
    return out


def parse(text: str) -> list[Entry]:
    """The entries of a BibTeX or RIS file (told apart by RIS's ``TY  -`` tag)."""
    entries = parse_ris(text) if re.search(r"^TY  - ", text, re.MULTILINE) else parse_bibtex(text)
    if len(entries) > limits.MAX_IMPORT:
        raise BadRequest(N_("This file has too many entries."), f"at most {limits.MAX_IMPORT:,}")
    return entries


def resolve(home: Home, e: Entry) -> str | None:
    """The id of the one paper an entry names, or None."""
    store = home.store
    for ref in e.refs:
        hits = store.resolve_id(ref)
        if len(hits) == 1:
            return hits[0]
    key = title_key(e.title)
    searcher = home.searcher
    if len(key) < 8 or searcher is None:
        return None
    phrase = " ".join(words(e.title))[:900]
    found = searcher.search(SearchRequest(q=f'title:"{phrase}"', per_page=20, facets=False, snippets=False))
    same = [h for h in found.hits if title_key(h.title) == key]
    if e.year is not None and len(same) > 1:
        same = [h for h in same if h.year == e.year] or same
    return same[0].id if len(same) == 1 or (same and e.year is not None) else None


def import_file(home: Home, token: str, list_id: str, text: str) -> ImportReport:
    """Resolve a file's entries and add the papers found to the list (one transaction)."""
    _call(home, lambda ls: ls.list_row(token, list_id))
    entries = parse(text)
    found: dict[str, str | None] = {}
    unresolved: list[str] = []
    for e in entries:
        pid = resolve(home, e)
        if pid is None:
            unresolved.append(e.label[:200])
        elif pid not in found or e.note:
            found[pid] = e.note
    before = {i.paper for i in home.lists.items(list_id)}
    added = _call(home, lambda ls: ls.add_many(token, list_id, list(found.items())))
    return {"entries": len(entries), "added": added, "already": len(set(found) & before),
            "unresolved": unresolved}
