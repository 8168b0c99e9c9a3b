"""The IROS paper index as JSON (gisbi-kim/iros2026-explorer, ``output/papers.json``).

``{papers: [{id, code, paper_number, day, time, session, session_title, session_type, room,
title, authors: [{name: "Last, First", aff}], keywords, abstract}], n_papers, source}``, parsed
by the explorer from the conference's PaperPlaza "Paper & Author Index". Names are PaperPlaza's
"Last, First" (flipped as the papercept reader flips them); ``abstract`` is empty throughout;
the session fields are kept in ``extra``. Papers of the "Award Candidates" sessions are award
candidates, and the session title names the award. Venue and year come from the file name
(``iros2026-papers.json``) or ``source`` ("IROS 2026 Paper & Author Index"); every paper was accepted.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Author, Record
from ..names import make_authors
from ..text import clean, title_key
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile, json_with_papers
from .papercept import person_name

SESSION_FIELDS = ("day", "time", "session", "session_title", "session_type", "room", "code", "paper_number")
_NAME = re.compile(r"^([a-z]+)[-_]?((?:19|20)\d{2})(?![0-9])", re.IGNORECASE)
_SOURCE = re.compile(r"\b([A-Za-z]+)\s*'?((?:19|20)\d{2})\b")
_ROMAN_PART = re.compile(r"\s*[-–]\s*(?:[IVX]+|\d+)$")


class ExplorerReader:
    name = "explorer"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        """A JSON object whose 'papers' hold the explorer's session keys: the head is checked
        first, the file is parsed only when it looks right."""
        head = src.data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
        if not head.startswith(b"{") or not all(k in head
                                                for k in (b'"papers"', b'"session_title"', b'"code"')):
            return False
        try:
            data = orjson.loads(src.data)
        except orjson.JSONDecodeError:
            return False
        papers = data.get("papers") if isinstance(data, dict) else None
        return isinstance(papers, list) and any(
            isinstance(p, dict) and {"code", "session_title", "title", "authors"} <= p.keys()
            for p in papers[:5])

    def file_key(self, src: SourceFile) -> str:
        return f"explorer:{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        data = json_with_papers(src)
        papers = data["papers"]
        if not papers:
            raise SourceError("the 'papers' list is empty")
        venue, year = _venue_year(src, data.get("source"))
        fkey = self.file_key(src)
        col = Collector()
        for i, raw in enumerate(papers):
            col.add(f"paper {i}", partial(self._record, raw, fkey, venue, year))
        return col.out

    def _record(self, p: Any, fkey: str, venue: str, year: int) -> Record:
        if not isinstance(p, dict):
            raise nz.RecordError(f"expected an object, found {type(p).__name__}")
        title = p.get("title")
        if not isinstance(title, str) or not clean(title):
            raise nz.RecordError("record has no title")
        extra = {f: clean(str(v)) for f in SESSION_FIELDS
                 if isinstance(v := p.get(f), (str, int)) and not isinstance(v, bool) and clean(str(v))}
        pid = p.get("id")
        key = clean(pid) if isinstance(pid, str) else ""
        return nz.record(
            source=self.name, file=fkey, key=key or f"t:{title_key(title)[:120]}", venue=venue, year=year,
            title=title, authors=_authors(p.get("authors")), abstract=nz.abstract(_text(p, "abstract")),
            status="accepted", keywords=_keywords(p.get("keywords")),
            award=award_name(extra.get("session_type", ""), extra.get("session_title", "")), extra=extra,
        )


def award_name(session_type: str, session_title: str) -> str | None:
    """"IROS Best Paper Award on Agri-Robotics sponsored by YANMAR candidate" for a paper of an
    award session; the numbered parts of one award ("… Award - II") name the same award."""
    if "award" not in session_type.lower():
        return None
    name = _ROMAN_PART.sub("", session_title).strip()
    return f"{name} candidate" if "award" in name.lower() else "award candidate"


def _authors(value: object) -> list[Author]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise nz.RecordError(f"'authors' should be a list, found {type(value).__name__}")
    names: list[str] = []
    affs: list[str] = []
    for a in value:
        if not isinstance(a, dict) or not isinstance(a.get("name"), str):
            raise nz.RecordError("each author should be an object with a 'name'")
        name = person_name(a["name"])
        if name:
            names.append(name)
            affs.append(clean(a.get("aff")))
    return make_authors(names, affs)


def _keywords(value: object) -> list[str]:
    if value is None or isinstance(value, str):
        return nz.keywords(value or "")
    if isinstance(value, list) and all(isinstance(k, str) for k in value):
        return nz.keywords(value)
    raise nz.RecordError("'keywords' should be a list of text")


def _text(p: dict[str, Any], field: str) -> str:
    v = p.get(field)
    if v is not None and not isinstance(v, str):
        raise nz.RecordError(f"'{field}' should be text, found {type(v).__name__}")
    return v or ""


def _venue_year(src: SourceFile, source: object) -> tuple[str, int]:
    """From the file name (iros2026-papers.json), else the index's own title ("IROS 2026 Paper &
    Author Index")."""
    m = _NAME.match(src.stem) or _SOURCE.search(clean(source))
    if not m:
        raise SourceError(f"no venue and year in 'source' or the file name {src.basename!r} "
                          "(expected e.g. 'IROS 2026 Paper & Author Index' or iros2026-papers.json)")
    return venues.canonical(m.group(1).lower()), int(m.group(2))
