"""Conference programmes as dennis-fast/conference-paper-navigator publishes them
(``conferences/<id>/data/papers.json``: IJCAI-ECAI 2026, EACL 2026).

``{schema_version, conference_id, source_url, papers: [{id, title, abstract, authors, presenter,
track, primary_category, secondary_category, keywords, topics?, source_url, presentations}]}``,
scraped from the conferences' own accepted-papers and programme pages. The list fields may be
Python-repr strings inside the JSON ("['Ann Lee', 'Bo Li']") rather than lists: both are read.

Where each paper belongs:
* IJCAI (``conference_id`` "ijcai-2026", IJCAI-ECAI being IJCAI) names the track; its special
  tracks keep the slugs other IJCAI years use ("ai-and-social-good", "human-centred-ai"). Every
  paper was accepted; the oral and poster slots are where it is presented, not a decision (every
  IJCAI paper has an oral slot), so the status is "accepted" and the slots go to ``extra``.
  ``topics`` are IJCAI's own areas and labels: the labels are the keywords, the first area the
  primary area.
* EACL says the track in the id's suffix ("123-MAIN", "45-FIND"): Findings is its own venue
  (findings-eacl), as the ACL Anthology has it; SRW, industry and demo papers are tracks; TACL and CL
  papers are journal papers presented at the conference (track "journal"). Its orals are selected, so
  the presentation type is the status (oral, poster). EACL's ``keywords``, ``primary_category`` and
  ``secondary_category`` are the navigator's own (terms extracted from the abstract), not the
  conference's: they go to ``extra``, not to the keywords.
``source_url`` is the programme page, not the paper's: it is not a link of the paper.
"""

from __future__ import annotations

import ast
import re
from functools import partial
from typing import Any

from .. import venues
from ..models import Record
from ..names import make_authors
from ..text import clean, title_key
from . import normalize as nz
from .base import Collector, Parsed, SourceError, SourceFile, json_with_papers

_CONFERENCE = re.compile(r"^([a-z][a-z-]*?)-?((?:19|20)\d{2})$")
# EACL's id suffix -> (venue relative to the conference, track)
_ACL_SUFFIX = {
    "MAIN": ("", "main"),
    "FIND": ("findings", "main"),
    "SRW": ("", "srw"),
    "IND": ("", "industry"),
    "DEMO": ("", "demo"),
    "TACL": ("", "journal"),
    "CL": ("", "journal"),
}
# IJCAI's track names that do not slug to the names other IJCAI years use
_TRACKS = {
    "main-track": "main",
    "early-career-spotlight": "early-career",
    "demonstrations": "demo",
    "ai4tech-ai-enabling-critical-technologies": "ai4tech-ai-enabling-technologies",
    "sister-conferences-best-papers-track": "sister-conferences-best-papers",
}
_PROGRAMME_FIELDS = ("presenter", "primary_category", "secondary_category")


class NavigatorReader:
    name = "navigator"
    version = 1

    def sniff(self, src: SourceFile) -> bool:
        head = src.data[:4096].removeprefix(b"\xef\xbb\xbf").lstrip()
        return (
            head.startswith(b"{")
            and b'"conference_id"' in head
            and b'"papers"' in head
            and b'"presentations"' in src.data[:65536]
        )

    def file_key(self, src: SourceFile) -> str:
        venue, year = _venue_year(_load(src))
        return f"navigator:{venue}{year}"

    def parse(self, src: SourceFile) -> Parsed:
        data = _load(src)
        venue, year = _venue_year(data)
        fkey = f"navigator:{venue}{year}"
        acl_like = venues.get(venue).field == "nlp"  # the id's suffix names the track
        col = Collector()
        for i, raw in enumerate(data["papers"]):
            col.add(f"paper {i}", partial(self._record, raw, fkey, venue, year, acl_like))
        return col.out

    def _record(self, p: Any, fkey: str, venue: str, year: int, acl_like: bool) -> Record:
        if not isinstance(p, dict):
            raise nz.RecordError(f"expected an object, found {type(p).__name__}")
        pid = clean(str(p.get("id") or ""))
        track: str | None
        slots = _presentations(p.get("presentations"))
        extra: dict[str, Any] = {k: v for k in _PROGRAMME_FIELDS if (v := clean(p.get(k)))}
        if slots:
            extra["presentations"] = slots
        if acl_like:
            rec_venue, track, status = _acl_place(venue, pid, slots)
            if terms := nz.keywords(_strings(p.get("keywords"), "keywords")):
                extra["terms"] = terms  # the navigator's extracted terms, not the authors' keywords
            keywords: list[str] = []
            area = None
        else:
            rec_venue, status = venue, "accepted"
            track = _track(clean(p.get("track")))
            topics = _topics(p.get("topics"))
            keywords = nz.keywords([label for _, label in topics] or _strings(p.get("keywords"), "keywords"))
            area = topics[0][0] if topics else clean(p.get("primary_category")) or None
            extra.pop("primary_category", None)
        title = p.get("title")
        return nz.record(
            source=self.name,
            file=fkey,
            key=pid or f"t:{title_key(clean(title))[:120]}",
            venue=rec_venue,
            year=year,
            title=title,
            authors=make_authors([n for n in map(clean, _strings(p.get("authors"), "authors")) if n]),
            abstract=nz.abstract(p.get("abstract")),
            status=status,
            track=track,
            keywords=keywords,
            primary_area=area,
            extra=extra,
        )


def _acl_place(venue: str, pid: str, slots: list[dict[str, str]]) -> tuple[str, str, str]:
    """(venue, track, status) of an ACL-family programme paper from its id's suffix."""
    suffix = pid.rsplit("-", 1)[-1].upper() if "-" in pid else ""
    if suffix not in _ACL_SUFFIX:
        raise nz.RecordError(
            f"id {pid!r} does not end in a known track (-MAIN, -FIND, -SRW, -IND, -DEMO, -TACL, -CL)"
        )
    prefix, track = _ACL_SUFFIX[suffix]
    rec_venue = venues.resolve(f"{prefix}-{venue}") or f"{prefix}-{venue}" if prefix else venue
    kinds = {s.get("type") for s in slots}
    status = "oral" if "oral" in kinds else "poster" if "poster" in kinds else "accepted"
    return rec_venue, track, status


def _track(name: str) -> str | None:
    """IJCAI's track name -> the slug other IJCAI years use ("Special Track on Human-Centred AI" ->
    "human-centred-ai", "Demonstrations Track" -> "demo")."""
    slug = nz.track(name)
    if slug is None:
        return None
    slug = _TRACKS.get(slug, slug).removeprefix("special-track-on-").removesuffix("-track")
    slug = nz.track(slug) or slug
    return _TRACKS.get(slug, slug)


def _python_list(value: object, what: str) -> list[Any]:
    """A JSON list, or a Python-repr string of one ("['Ann Lee', 'Bo Li']"), read without running it."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise nz.RecordError(f"'{what}' is text that is not a list") from None
    if not isinstance(value, list):
        raise nz.RecordError(f"'{what}' should be a list")
    return value


def _strings(value: object, what: str) -> list[str]:
    items = _python_list(value, what)
    if not all(isinstance(v, str) for v in items):
        raise nz.RecordError(f"'{what}' should be a list of text")
    return items


def _objects(value: object, what: str) -> list[dict[str, Any]]:
    items = _python_list(value, what)
    if not all(isinstance(v, dict) for v in items):
        raise nz.RecordError(f"'{what}' should be a list of objects")
    return items


def _topics(value: object) -> list[tuple[str, str]]:
    return [
        (clean(t.get("area")), label) for t in _objects(value, "topics") if (label := clean(t.get("label")))
    ]


def _presentations(value: object) -> list[dict[str, str]]:
    keep = ("type", "session", "date", "time", "location")
    return [{k: v for k in keep if (v := clean(s.get(k)))} for s in _objects(value, "presentations")]


def _load(src: SourceFile) -> dict[str, Any]:
    data = json_with_papers(src)
    if not data["papers"]:
        raise SourceError("the 'papers' list is empty")
    return data


def _venue_year(data: dict[str, Any]) -> tuple[str, int]:
    m = _CONFERENCE.match(clean(data.get("conference_id")).lower())
    if not m:
        raise SourceError(
            f"conference_id {clean(data.get('conference_id'))!r} names no venue and year "
            "(expected e.g. 'ijcai-2026')"
        )
    return venues.canonical(m.group(1)), int(m.group(2))
