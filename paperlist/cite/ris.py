"""RIS (the tagged format of EndNote, Zotero, Mendeley) written and read by rispy, the maintained
RIS library, rather than by hand: ``dumps`` for an export, ``loads`` for an import."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import rispy

from ..models import Paper
from .csl import is_journal, item

MEDIA_TYPE = "application/x-research-info-systems; charset=utf-8"


def _name(n: dict[str, str]) -> str:
    if "literal" in n:
        return n["literal"]
    family = " ".join(x for x in (n.get("non-dropping-particle"), n.get("family")) if x)
    return ", ".join(x for x in (family, n.get("given"), n.get("suffix")) if x)


def record(p: Paper, url: str | None = None) -> dict[str, Any]:
    """One paper as a rispy record (rispy's field names: ``primary_title``, ``authors`` …)."""
    it = item(p)
    rec: dict[str, Any] = {"type_of_reference": "JOUR" if is_journal(p) else "CPAPER",
                           "primary_title": it["title"], "secondary_title": it["container-title"],
                           "year": str(p.year), "id": p.id}
    if it.get("author"):
        rec["authors"] = [_name(n) for n in it["author"]]
    if it.get("editor"):
        rec["secondary_authors"] = [_name(n) for n in it["editor"]]
    if it.get("page"):
        start, _, end = it["page"].partition("-")
        rec["start_page"] = start
        if end:
            rec["end_page"] = end
    for theirs, ours in (("volume", "volume"), ("issue", "number"), ("publisher", "publisher"),
                         ("publisher-place", "place_published"), ("DOI", "doi")):
        if it.get(theirs):
            rec[ours] = it[theirs]
    if p.abstract_plain or p.abstract:
        rec["abstract"] = re.sub(r"\s+", " ", p.abstract_plain or p.abstract or "").strip()
    if p.keywords:
        rec["keywords"] = list(p.keywords)
    urls = [u for u in (url, it.get("URL")) if u]
    if urls:
        rec["urls"] = urls
    return rec


class _Writer(rispy.RisWriter):
    """rispy's writer without its "1." counter line before each record (not part of RIS)."""

    def set_header(self, count: int) -> str:
        return ""


def dumps(papers: list[Paper], url_of: Callable[[str], str] | None = None,
          notes: Mapping[str, str] | None = None) -> str:
    """An RIS file of these papers (``url_of(id)``: the paper's page, listed first; ``notes``: a
    reading list's note per paper id, as ``N1``)."""
    out = []
    for p in papers:
        rec = record(p, url_of(p.id) if url_of else None)
        if notes and notes.get(p.id):
            rec["notes"] = [" ".join(notes[p.id].split())]
        out.append(rec)
    return rispy.dumps(out, implementation=_Writer)


def loads(text: str) -> list[dict[str, Any]]:
    """The records of an RIS file (rispy's dicts); a malformed file raises ValueError."""
    try:
        return list(rispy.loads(text))
    except Exception as e:  # noqa: BLE001 - rispy raises several kinds on malformed input
        raise ValueError(f"not an RIS file: {e}") from e
