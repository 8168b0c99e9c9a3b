"""Exports of paper lists (BibTeX, CSV, JSON Lines) and Atom feeds.

Writers take papers in the order given and yield text chunks, so a 10,000-paper export is streamed
as it is read (papers are read from the store ``CHUNK`` at a time). Everything written is
untrusted source text, so each format escapes it its own way:

- BibTeX: entries come from ``citation.bibtex`` (the source's entry when it parses, else one
  generated with bibtexparser); keys are made unique within the file (``smith2020deep``,
  ``smith2020deepa`` …), case-insensitively, as BibTeX compares them.
- CSV (RFC 4180 through the csv module): a cell starting with ``= + - @``, a tab or a carriage
  return is prefixed with ``'`` so spreadsheets show it as text instead of running it as a formula;
  NUL and other control characters are dropped.
- Atom (RFC 4287) is built with lxml, which escapes all text; characters XML 1.0 forbids are dropped.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import bibtexparser
import orjson
from bibtexparser import Library
from bibtexparser.model import Field
from lxml import etree

from . import venues
from .citation import bibtex, escape_latex
from .cite import ris
from .models import Paper
from .store import Store

MAX_ROWS = 10_000          # the most papers one export holds
CHUNK = 100                # papers read from the store at a time
FORMATS = ("bib", "ris", "csv", "jsonl")
MEDIA_TYPES = {
    "ris": ris.MEDIA_TYPE,
    "bib": "application/x-bibtex; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "jsonl": "application/x-ndjson",
    "atom": "application/atom+xml; charset=utf-8",
}
EXTENSIONS = {"ris": "ris", "bib": "bib", "csv": "csv", "jsonl": "jsonl", "atom": "atom"}
CSV_COLUMNS = ("id", "title", "authors", "venue", "venue_name", "year", "status", "accepted", "track",
               "award", "abstract", "keywords", "doi", "arxiv", "openreview", "pdf", "url", "citations",
               "lists")          # lists: how many curated reading lists include the paper (paperlist/curated)

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_XML_INVALID = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# The key of the first entry of a BibTeX text: "@inproceedings{key," (not @string / @comment / @preamble).
_BIB_KEY = re.compile(r"@(?!(?:string|comment|preamble)\b)(\w+)\s*([{(])\s*([^,\s]*)\s*,", re.IGNORECASE)


def read_papers(store: Store, ids: Iterable[str]) -> Iterator[list[Paper]]:
    """Papers for ids, ``CHUNK`` at a time, in order."""
    chunk: list[str] = []
    for pid in ids:
        chunk.append(pid)
        if len(chunk) >= CHUNK:
            yield store.get_papers(chunk)
            chunk = []
    if chunk:
        yield store.get_papers(chunk)


def export(store: Store, ids: Iterable[str], fmt: str, record: Callable[[Paper], Mapping[str, Any]],
           paper_url: Callable[[str], str], notes: Mapping[str, str] | None = None) -> Iterator[str]:
    """The export of these papers (at most MAX_ROWS) as text chunks. ``record`` makes a JSON Lines
    record of a paper; ``paper_url`` its page's address (CSV's url column, RIS's first UR).
    ``notes`` (a reading list's note per paper id) are written as BibTeX ``annote``, RIS ``N1``, a
    CSV ``note`` column and a JSON Lines ``note`` field. CSV's ``lists`` column counts the curated
    reading lists that include a paper (JSON Lines records carry the lists: ``record``'s)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (use {', '.join(FORMATS)})")
    limited = _first(ids, MAX_ROWS)
    if fmt == "csv":
        yield csv_line(CSV_COLUMNS + (("note",) if notes is not None else ()))
    keys = BibKeys()
    note = (notes or {}).get
    for papers in read_papers(store, limited):
        if fmt == "bib":
            yield "".join((with_list_fields(keys.entry(p), p.id, note(p.id) or "") if notes is not None
                           else keys.entry(p)) + "\n\n" for p in papers)
        elif fmt == "ris":
            yield ris.dumps(papers, paper_url, notes)
        elif fmt == "csv":
            yield "".join(csv_line(csv_row(p, paper_url, store.count_paper_lists(p.id))
                                   + ([safe_cell(note(p.id) or "")] if notes is not None else []))
                          for p in papers)
        else:
            extra = (lambda p: {"note": note(p.id) or ""}) if notes is not None else (lambda p: {})
            yield "".join(orjson.dumps({**record(p), **extra(p)}, option=orjson.OPT_NON_STR_KEYS).decode()
                          + "\n" for p in papers)


def with_list_fields(entry: str, paper_id: str, note: str) -> str:
    """A reading list's BibTeX entry: the note as its ``annote`` field (escaped like any value) and
    the paper's id as ``paperlist`` (styles ignore it; an import back finds the paper by it even
    when the source's entry differs from our record)."""
    lib = bibtexparser.parse_string(entry)
    if len(lib.entries) != 1:
        return entry
    e = lib.entries[0]
    e.set_field(Field("paperlist", paper_id))
    if note:
        e.set_field(Field("annote", escape_latex(" ".join(note.split()))))
    fmt = bibtexparser.BibtexFormat()
    fmt.indent = "  "
    return bibtexparser.write_string(Library([e]), bibtex_format=fmt).strip()


def _first(ids: Iterable[str], n: int) -> Iterator[str]:
    for i, pid in enumerate(ids):
        if i >= n:
            return
        yield pid


# --- BibTeX -----------------------------------------------------------------------------------
class BibKeys:
    """Citation keys made unique within one file."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def unique(self, key: str) -> str:
        base = key or "paper"
        candidate, n = base, 0
        while candidate.lower() in self.seen:
            n += 1
            candidate = base + _suffix(n)
        self.seen.add(candidate.lower())
        return candidate

    def entry(self, p: Paper) -> str:
        """The paper's BibTeX entry with a key unique in this file."""
        text = bibtex(p)
        m = _BIB_KEY.search(text)
        if m is None:            # cannot happen for entries citation.bibtex accepts; keep it as is
            return text
        key = self.unique(m.group(3))
        return text[:m.start(3)] + key + text[m.end(3):] if key != m.group(3) else text


def _suffix(n: int) -> str:
    """a, b, … z, aa, ab … (the usual disambiguation of equal keys)."""
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(97 + r) + out
    return out


# --- CSV --------------------------------------------------------------------------------------
def safe_cell(value: Any) -> Any:
    """A cell value that no spreadsheet runs as a formula and that has no control characters."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if not isinstance(value, str):
        return value
    value = _CONTROL.sub("", value)
    return "'" + value if value.startswith(_FORMULA_START) else value


def csv_line(cells: Iterable[Any]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\r\n").writerow([safe_cell(c) for c in cells])
    return buf.getvalue()


def csv_row(p: Paper, paper_url: Callable[[str], str], lists: int = 0) -> list[Any]:
    v = venues.get(p.venue)
    links = dict(reversed(p.links))          # the first link of each kind
    pdf = links.get("pdf", "")
    return [p.id, p.title_plain, "; ".join(a.name for a in p.authors), p.venue, v.name, p.year, p.status,
            p.accepted, p.track, p.award, p.abstract_plain or p.abstract, "; ".join(p.keywords),
            p.ids.get("doi"), p.ids.get("arxiv"), p.ids.get("openreview"),
            pdf if pdf.startswith(("http://", "https://")) else "", paper_url(p.id),
            p.citations if p.citations is not None and p.citations >= 0 else None, lists]


# --- Atom -------------------------------------------------------------------------------------
ATOM_NS = "http://www.w3.org/2005/Atom"


@dataclass(slots=True)
class FeedEntry:
    id: str                       # an absolute IRI (the paper page's URL)
    title: str
    url: str
    updated: str                  # RFC 3339
    authors: list[str] = field(default_factory=list)
    summary: str = ""
    categories: list[tuple[str, str]] = field(default_factory=list)     # (term, label)
    links: list[tuple[str, str]] = field(default_factory=list)          # (rel or kind, href)


def feed_entries(papers: list[Paper], updated: dict[str, str], paper_url: Callable[[str], str],
                 fallback_updated: str) -> list[FeedEntry]:
    """Feed entries for papers: title, authors, the plain abstract, venue / year / status as
    categories, the paper page and its PDF."""
    out = []
    for p in papers:
        v = venues.get(p.venue)
        cats = [(p.venue, v.short), (str(p.year), str(p.year))] + ([(p.status, p.status)] if p.status else [])
        pdf = next((u for k, u in p.links if k == "pdf" and u.startswith(("http://", "https://"))), None)
        url = paper_url(p.id)
        out.append(FeedEntry(id=url, title=p.title_plain, url=url,
                             updated=updated.get(p.id) or fallback_updated,
                             authors=[a.name for a in p.authors],
                             summary=p.abstract_plain or p.abstract or "", categories=cats,
                             links=[("related", pdf)] if pdf else []))
    return out


def _text(s: str) -> str:
    return _XML_INVALID.sub("", s)


def atom_feed(feed_id: str, title: str, self_url: str, html_url: str, updated: str,
              entries: list[FeedEntry], subtitle: str = "") -> bytes:
    """An Atom 1.0 feed document (UTF-8, with the XML declaration)."""
    E = lambda tag: f"{{{ATOM_NS}}}{tag}"  # noqa: E731 - a namespaced tag name
    feed = etree.Element(E("feed"), nsmap={None: ATOM_NS})

    def sub(parent: etree._Element, tag: str, text: str | None = None, **attrs: str) -> etree._Element:
        el = etree.SubElement(parent, E(tag), {k: _text(v) for k, v in attrs.items()})
        if text is not None:
            el.text = _text(text)
        return el

    sub(feed, "id", feed_id)
    sub(feed, "title", title)
    if subtitle:
        sub(feed, "subtitle", subtitle)
    sub(feed, "updated", updated)
    sub(feed, "link", rel="self", type="application/atom+xml", href=self_url)
    sub(feed, "link", rel="alternate", type="text/html", href=html_url)
    sub(sub(feed, "author"), "name", "paperlist")
    sub(feed, "generator", "paperlist")
    for e in entries:
        entry = sub(feed, "entry")
        sub(entry, "id", e.id)
        sub(entry, "title", e.title)
        sub(entry, "updated", e.updated)
        sub(entry, "link", rel="alternate", type="text/html", href=e.url)
        for rel, href in e.links:
            sub(entry, "link", rel=rel, href=href)
        for name in e.authors:
            sub(sub(entry, "author"), "name", name)
        for term, label in e.categories:
            sub(entry, "category", term=term, label=label)
        if e.summary:
            sub(entry, "summary", e.summary, type="text")
    return bytes(etree.tostring(feed, xml_declaration=True, encoding="UTF-8", pretty_print=True))
