"""A conference's orals and spotlights as its virtual site lists them (``neurips2026/highlights.json``).

A JSON list of ``{id, title, authors, url, openreview, decision, track, area, summary_ko, in_scope}``:
``id`` is the neurips.cc poster id (``url`` its page), ``openreview`` the forum URL, ``decision``
"Oral" or "Spotlight", ``track`` "Main" or "Evaluations & Datasets" (the track NeurIPS called Datasets &
Benchmarks until 2025, so it keeps that track's slug). ``authors`` is ONE string,
"Name (Affiliation), Name (Affiliation), …", with HTML entities (some escaped twice), names without an
affiliation, and commas and parentheses inside affiliations ("University of California, Berkeley",
"China University of Petroleum (East China)"): it is split at the commas outside parentheses, and
a part's last parenthesised group is the affiliation. ``area``, ``summary_ko`` and ``in_scope`` are
the collecting repository's own, not the conference's: ``area`` is kept in ``extra``, the rest dropped.

Venue and year come from the virtual-site links (``neurips.cc/virtual/2026/poster/…``). There are
no abstracts: the OpenReview id lets the merge and ``paperlist update`` find them.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import partial
from typing import Any

import orjson

from .. import venues
from ..models import Author, Record
from ..names import make_authors
from ..text import clean
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile

_SITE = re.compile(r"https?://(?:www\.)?([a-z]+)\.cc/virtual/((?:19|20)\d{2})/", re.I)


class HighlightsReader:
    name = "highlights"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        """A JSON list whose first objects carry a virtual-site poster link and a decision."""
        head = src.data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
        return (
            head.startswith(b"[")
            and b'"decision"' in head
            and b'"openreview"' in head
            and _SITE.search(head.decode("utf-8", "replace")) is not None
        )

    def file_key(self, src: SourceFile) -> str:
        venue, year = _venue_year(_load(src))
        return f"highlights:{venue}{year}-{src.stem}"

    def parse(self, src: SourceFile) -> Parsed:
        data = _load(src)
        venue, year = _venue_year(data)
        fkey = f"highlights:{venue}{year}-{src.stem}"
        col = Collector()
        for i, raw in enumerate(data):
            col.add(f"record {i}", partial(self._record, raw, fkey, venue, year))
        return col.out

    def _record(self, p: Any, fkey: str, venue: str, year: int) -> Record:
        if not isinstance(p, dict):
            raise nz.RecordError(f"expected an object, found {type(p).__name__}")
        decision = clean(p.get("decision"))
        status = nz.status(decision)
        if status not in ("oral", "spotlight", "highlight", "poster", "accepted"):
            raise nz.RecordError(f"decision {decision!r} is not an acceptance")
        authors = p.get("authors")
        if authors is not None and not isinstance(authors, str):
            raise nz.RecordError(f"'authors' should be one string, found {type(authors).__name__}")
        ids: dict[str, str] = {}
        if oid := nz.openreview_id(p.get("openreview")):
            ids["openreview"] = oid
        links = {"site": u} if (u := nz.url(p.get("url"))) and _SITE.match(u) else {}
        pid = clean(str(p.get("id") or ""))
        extra: dict[str, Any] = {"area": a} if (a := clean(p.get("area"))) else {}
        return nz.record(
            source=self.name,
            file=fkey,
            key=oid or (f"site:{pid}" if pid else ""),
            venue=venue,
            year=year,
            title=p.get("title"),
            authors=split_authors(authors or ""),
            status=status,
            track=nz.track(p.get("track")),
            ids=ids,
            links=links,
            extra=extra,
        )


def split_authors(value: str) -> list[Author]:
    """ "Ann Lee (MIT), Bo Li, Cy Wu (University of California, Berkeley)" -> three authors, the
    last two with and without an affiliation. Only commas outside parentheses separate authors; a
    part's trailing parenthesised group is its affiliation, and a group inside a name (a nickname:
    "Yun-Nung (Vivian) Chen") is dropped."""
    names: list[str] = []
    affs: list[str] = []
    for part in _top_level_split(clean(value)):
        name, aff = _name_and_affiliation(part)
        if name:
            names.append(name)
            affs.append(aff)
    return make_authors(names, affs)


def _top_level_split(s: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    cur: list[str] = []
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _name_and_affiliation(part: str) -> tuple[str, str]:
    aff = ""
    if part.endswith(")"):
        depth = 0
        for i in range(len(part) - 1, -1, -1):
            if part[i] == ")":
                depth += 1
            elif part[i] == "(":
                depth -= 1
                if depth == 0:
                    aff, part = part[i + 1 : -1], part[:i]
                    break
    name = clean(re.sub(r"\([^()]*\)", " ", part))
    return name, clean(aff).strip(" \"'")


def _load(src: SourceFile) -> list[Any]:
    try:
        data = orjson.loads(src.data)
    except orjson.JSONDecodeError as e:
        raise SourceError(f"not valid JSON: {str(e).splitlines()[0]}") from None
    if not isinstance(data, list) or not data:
        raise SourceError("expected a non-empty JSON list of papers")
    return data


def _venue_year(data: list[Any]) -> tuple[str, int]:
    """The venue and year most of the papers' virtual-site links name."""
    found: Counter[tuple[str, int]] = Counter()
    for p in data:
        if isinstance(p, dict) and (m := _SITE.match(clean(p.get("url")))):
            found[(venues.canonical(m.group(1).lower()), int(m.group(2)))] += 1
    if not found:
        raise SourceError(
            "no paper links to a conference's virtual site (e.g. neurips.cc/virtual/2026/…), "
            "so the venue and year are unknown"
        )
    return found.most_common(1)[0][0]
