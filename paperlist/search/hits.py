"""A page's hits from the index's stored documents, with the query's words marked."""

from __future__ import annotations

import html
from typing import Any

import orjson
import tantivy

from ..index import fulltext
from . import paging
from .highlight import Highlighter
from .model import Hit
from .paging import Plan


def page_hits(s: tantivy.Searcher, plan: Plan, todo: list[paging.Step], snippets: bool) -> list[Hit]:
    return hits(s, plan, paging.run(s, todo), snippets)


def hits(s: tantivy.Searcher, plan: Plan, addrs: list[tuple[Any, tantivy.DocAddress]],
          snippets: bool) -> list[Hit]:
    """The page's hits: stored documents, with the query's words marked when ``snippets``."""
    hl = Highlighter(plan.text.stems, plan.text.fuzzy, plan.text.prefixes) if snippets else None
    out = []
    for score, addr in addrs:
        d = plan.loaded.get(key(addr)) or doc(s, addr)
        plain = d["title_plain"]
        out.append(Hit(
            id=d["id"], title=d["title"], title_html=hl.title(plain) if hl else escape(plain),
            authors=d["authors"], author_keys=d["author_keys"], venue=d["venue"],
            venue_short=fulltext.venue_label(d["venue"]), year=d["year"], status=d["status"],
            accepted=d["accepted"], track=d["track"], citations=d["citations"],
            abstract_html=hl.snippet(d["abstract"] or "") if hl else "",
            score=float(score) if isinstance(score, float) else 0.0, rating=d.get("rating"),
            versions=d.get("versions") or [], landmark=key(addr) in plan.marked,
            lists=int(d.get("lists") or 0)))
    return out


def key(addr: tantivy.DocAddress) -> tuple[int, int]:
    """A document's address as a dict key (one searcher's: segment and document)."""
    return addr.segment_ord, addr.doc


def doc(s: tantivy.Searcher, addr: tantivy.DocAddress) -> dict[str, Any]:
    blob = s.doc(addr).get_first("doc")
    return orjson.loads(blob) if blob else {}


def escape(text: str) -> str:
    return html.escape(text, quote=True)
