"""A paper as a CSL-JSON item: the input every CSL style renders.

Names are split into given / particle / family by bibtexparser's BibTeX name rules ("Ludwig van
Beethoven" -> given Ludwig, particle van, family Beethoven; "Beethoven, Ludwig van" the same).
A name written in CJK characters is passed as a ``literal``: CSL neither inverts nor initialises it
(张三 stays 张三). Titles are the plain text of the display title (LaTeX turned into Unicode by
pylatexenc at ingest); a missing field is simply absent, and the style decides what that means.
"""

from __future__ import annotations

import re
from typing import Any

from bibtexparser.middlewares.names import parse_single_name_into_parts

from .. import venues
from ..models import Paper

# Han, kana, hangul: a name in these scripts is written family-first without spaces.
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_URL_KINDS = ("proceedings", "site", "openreview", "oa", "arxiv", "pdf")
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                       "nov", "dec"), start=1)}


def name(full: str) -> dict[str, str]:
    """One author as a CSL name."""
    full = " ".join(full.split())
    if not full or _CJK.search(full):
        return {"literal": full.replace(" ", "") if _CJK.search(full) else full}
    try:
        parts = parse_single_name_into_parts(full, strict=False)
    except Exception:  # noqa: BLE001 - a name BibTeX rules cannot split is shown as written
        return {"literal": full}
    out: dict[str, str] = {}
    if parts.last:
        out["family"] = " ".join(parts.last)
    if parts.first:
        out["given"] = " ".join(parts.first)
    if parts.von:
        out["non-dropping-particle"] = " ".join(parts.von)
    if parts.jr:
        out["suffix"] = " ".join(parts.jr)
    return out if "family" in out else {"literal": full}


def _url(p: Paper) -> str | None:
    by_kind: dict[str, str] = {}
    for kind, url in p.links:
        by_kind.setdefault(kind, url)
    return next((by_kind[k] for k in _URL_KINDS if k in by_kind), None)


def is_journal(p: Paper) -> bool:
    kind = p.biblio.get("entrytype")
    return kind == "article" or (not kind and venues.get(p.venue).kind == "journal")


def item(p: Paper, key: str | None = None) -> dict[str, Any]:
    """The CSL-JSON item of a paper (``key`` its id in a bibliography; the paper id by default)."""
    v = venues.get(p.venue)
    b = p.biblio
    journal = is_journal(p)
    out: dict[str, Any] = {
        "id": key or p.id,
        "type": "article-journal" if journal else "paper-conference",
        "title": p.title_plain or p.title,
        "container-title": (b.get("journal") if journal else b.get("booktitle")) or v.name,
        "issued": {"date-parts": [[p.year] + ([m] if (m := _MONTHS.get(b.get("month", "")[:3].lower()))
                                              else [])]},
    }
    if p.authors:
        out["author"] = [name(a.name) for a in p.authors]
    if b.get("editor"):
        out["editor"] = [name(e) for e in re.split(r"\s*,\s*|\s+and\s+", b["editor"]) if e.strip()]
    if b.get("pages"):
        out["page"] = re.sub(r"\s*[-\u2013\u2014]+\s*", "-", b["pages"])
    for ours, theirs in (("volume", "volume"), ("number", "issue"), ("publisher", "publisher"),
                         ("address", "publisher-place")):
        if b.get(ours):
            out[theirs] = b[ours]
    if p.ids.get("doi"):
        out["DOI"] = p.ids["doi"]
    url = _url(p)
    if url:
        out["URL"] = url
    return out
