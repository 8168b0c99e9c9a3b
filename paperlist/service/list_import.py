"""Importing a BibTeX or RIS file into a reading list.

Each entry is resolved to one paper of the store: by the ids it carries (its RIS ``ID``, the
``paperlist`` field of our BibTeX exports, its BibTeX key when it is one of our paper ids or a
retired one, its DOI, arXiv eprint, and the ids in its
URLs: OpenReview, ACL Anthology, our own paper pages), else by the bibliography resolver
(service/resolve.py: title, authors, year and venue, precision first; an ambiguous entry is not
guessed). Entries no paper matches are reported. The
papers found are added in one transaction (all or none); an entry's ``annote`` / ``note`` (BibTeX)
or ``N1`` (RIS) becomes its note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import bibtexparser

from ..cite import ris
from ..lists import limits
from ..refs.parse import Citation
from ..text import plain, title_key
from .errors import N_, BadRequest
from .home import Home
from .lists import _call
from .resolve import Resolver
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
    authors: list[str] | None = None
    venue: str = ""


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
                         plain(note) if note else None, title or e.key,
                         [a.strip() for a in re.split(r"\s+and\s+", plain(f.get("author", ""))) if a.strip()],
                         plain(f.get("booktitle") or f.get("journal") or "")))
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
                         " ".join(notes) if notes else None, title or str(r.get("id") or ""),
                         [str(a) for a in r.get("authors") or []],
                         str(r.get("secondary_title") or r.get("journal_name") or "")))
    return out


def parse(text: str) -> list[Entry]:
    """The entries of a BibTeX or RIS file (told apart by RIS's ``TY  -`` tag)."""
    entries = parse_ris(text) if re.search(r"^TY  - ", text, re.MULTILINE) else parse_bibtex(text)
    if len(entries) > limits.MAX_IMPORT:
        raise BadRequest(N_("This file has too many entries."), f"at most {limits.MAX_IMPORT:,}")
    return entries


def resolve(home: Home, e: Entry, resolver: Resolver | None) -> str | None:
    """The id of the one paper an entry names, or None: our own id or an id it carries (DOI,
    arXiv, OpenReview, Anthology), else what the bibliography resolver matches (title, authors,
    year and venue, precision first: service/resolve.py)."""
    store = home.store
    for ref in e.refs:
        hits = store.resolve_id(ref)
        if len(hits) == 1:
            return hits[0]
    if resolver is None or len(title_key(e.title)) < 8:
        return None
    status, found, _by_id = resolver.resolve(Citation(title=e.title, authors=e.authors or [], year=e.year,
                                                      venue=e.venue, kind="bibtex"))
    return found[0][0].id if status == "matched" and found else None


def import_file(home: Home, token: str, list_id: str, text: str) -> ImportReport:
    """Resolve a file's entries and add the papers found to the list (one transaction)."""
    _call(home, lambda ls: ls.list_row(token, list_id))
    entries = parse(text)
    found: dict[str, str | None] = {}
    unresolved: list[str] = []
    resolver = Resolver(home) if home.searcher is not None else None
    for e in entries:
        pid = resolve(home, e, resolver)
        if pid is None:
            unresolved.append(e.label[:200])
        elif pid not in found or e.note:
            found[pid] = e.note
    before = {i.paper for i in home.lists.items(list_id)}
    added = _call(home, lambda ls: ls.add_many(token, list_id, list(found.items())))
    return {"entries": len(entries), "added": added, "already": len(set(found) & before),
            "unresolved": unresolved}
