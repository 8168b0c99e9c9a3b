"""A paper's page and its BibTeX; an author's page."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import quote

from ... import venues
from ...citation import bibtex
from ...models import LINK_KINDS, Paper
from ..i18n import N_
from ..labels import LINK, status_key
from ..richtext import render_block, render_inline
from ...search.similar import similar_papers
from .base import Ctx, NotFound, Redirect, author_path, card, format_links, paper_path, venue_path
from .topics import topic_path

_HTTP = re.compile(r"^https?://[^\s<>\"'`\\]+$", re.IGNORECASE)
# External ids and where they lead.
_ID_URLS = {
    "doi": ("DOI", "https://doi.org/{}"),
    "arxiv": ("arXiv", "https://arxiv.org/abs/{}"),
    "openreview": ("OpenReview", "https://openreview.net/forum?id={}"),
    "acl": ("ACL Anthology", "https://aclanthology.org/{}"),
}


def find_paper(ctx: Ctx, ref: str) -> Paper:
    """The paper for a URL segment. A retired id, an external id (DOI, arXiv …) or another case
    redirects to the current id; several matches list them (409 page); nothing is a 404."""
    paper = ctx.store.get_paper(ref)
    if paper is not None:
        return paper
    hits = ctx.store.resolve_id(ref) or (ctx.store.resolve_id(ref.lower()) if ref != ref.lower() else [])
    if len(hits) == 1:
        raise Redirect(paper_path(hits[0]))
    if hits:
        raise Ambiguous(hits)
    raise NotFound(N_("There is no paper with this id."), ref[:120])


class Ambiguous(NotFound):
    """An external id shared by several papers (the page lists them)."""

    status = 300

    def __init__(self, ids: list[str]) -> None:
        super().__init__(N_("This id belongs to several papers."), ", ".join(ids[:20]))
        self.ids = ids


def _links(p: Paper) -> list[dict[str, str]]:
    order = {k: i for i, k in enumerate(LINK_KINDS)}
    seen: set[str] = set()
    out = []
    for kind, url in sorted(p.links, key=lambda kv: (order.get(kv[0], 99), kv[1])):
        if url in seen or not _HTTP.match(url):
            continue
        seen.add(url)
        out.append({"kind": kind, "label": LINK.get(kind, kind), "url": url})
    return out


def _ids(p: Paper) -> list[dict[str, str]]:
    out = []
    for kind, value in sorted(p.ids.items()):
        name, pattern = _ID_URLS.get(kind, (kind, ""))
        url = pattern.format(quote(value, safe="/:.()-_~")) if pattern else ""
        out.append({"kind": kind, "name": name, "value": value, "url": url if _HTTP.match(url) else ""})
    return out


def paper_fields(p: Paper) -> dict[str, Any]:
    """A paper's plain data: no HTML, no query. The paper page adds its renderings to it, and the
    JSON Lines export writes it as is (so a line there and the API's paper have the same fields)."""
    v = venues.get(p.venue)
    cite = bibtex(p)
    return {
        "id": p.id, "href": paper_path(p.id), "title": p.title, "title_plain": p.title_plain,
        "authors": [{"name": a.name, "key": a.key, "href": author_path(a.key), "affiliation": a.affiliation}
                    for a in p.authors],
        "venue": {"key": p.venue, "short": v.short, "name": v.name, "href": venue_path(p.venue),
                  "year_href": venue_path(p.venue, p.year)},
        "year": p.year, "status": p.status, "accepted": p.accepted,
        "track": p.track if p.track and p.track != "main" else None, "award": p.award,
        "abstract": p.abstract, "tldr": p.tldr, "summary_zh": p.summary_zh,
        "keywords": p.keywords, "primary_area": p.primary_area, "citations": p.citations,
        "institutions": p.institutions,
        "links": _links(p), "ids": _ids(p),
        "bibtex": cite, "bibtex_from_source": bool(p.bibtex and cite == p.bibtex.strip()),
        "bib_href": paper_path(p.id) + ".bib",
        "sources": sorted({s.split(":", 1)[0] for s in p.sources}),
    }


def build_paper(ctx: Ctx, ref: str) -> dict[str, Any]:
    """Everything the paper page shows: the paper's fields, their renderings, more by its authors."""
    p = find_paper(ctx, ref)
    more = [card(c) for c in ctx.store.cards(ctx.store.same_author_ids(p.id, limit=12))]
    similar, method = similar_papers(ctx.searcher, p, limit=10)
    sim_cards = {c["id"]: card(c) for c in ctx.store.cards([pid for pid, _ in similar])}
    return {
        "page": "paper", **paper_fields(p), "status_key": status_key(p.status),
        "title_html": render_inline(p.title), "abstract_html": render_block(p.abstract),
        "tldr_html": render_inline(p.tldr), "summary_zh_html": render_block(p.summary_zh),
        "more_by_authors": more,
        "topics": _topics(ctx, p),
        "similar": [sim_cards[pid] | {"score": round(sc, 4)} for pid, sc in similar if pid in sim_cards],
        "similar_method": method,
    }


def _topics(ctx: Ctx, p: Paper) -> list[dict[str, Any]]:
    """The paper's topics, main first, with links to the topic and to it at this conference-year."""
    from ...topics import taxonomy

    tax = taxonomy()
    out = []
    for slug, score in ctx.store.paper_topics(p.id):
        t = tax.get(slug)
        if t is not None:
            out.append({"slug": slug, "name": t.name(ctx.lang), "score": score, "href": topic_path(slug),
                        "conference_href": topic_path(slug, p.venue, p.year)})
    return out


def build_bibtex(ctx: Ctx, ref: str) -> str:
    """The BibTeX entry alone (the .bib download)."""
    return bibtex(find_paper(ctx, ref)) + "\n"


def build_author(ctx: Ctx, key: str) -> dict[str, Any]:
    """An author: papers by year with venues, frequent co-authors, venues they publish at."""
    if key != key.lower():
        raise Redirect(author_path(key.lower()))
    info = ctx.store.author(key)
    if info is None:
        raise NotFound(N_("There is no author with this name key."), key[:120])
    cards = [card(c) for c in ctx.store.author_cards(key)]
    by_year: dict[int, list[dict[str, Any]]] = {}
    for c in cards:
        by_year.setdefault(c["year"], []).append(c)
    venue_counts = Counter(c["venue"] for c in cards)
    names = Counter(a["name"] for c in cards for a in c["authors"] if a["key"] == key)
    return {
        "page": "author", "key": key, "name": info["name"], "href": author_path(key),
        "spellings": [n for n, _ in names.most_common() if n != info["name"]][:5],
        "total": len(cards),
        "years": [{"year": y, "papers": ps} for y, ps in by_year.items()],
        "first_year": min(by_year) if by_year else None, "last_year": max(by_year) if by_year else None,
        "venues": [{"key": k, "short": venues.get(k).short, "count": n, "href": venue_path(k)}
                   for k, n in venue_counts.most_common(12)],
        "coauthors": [{"key": c["key"], "name": c["name"], "papers": c["papers"], "href": author_path(c["key"])}
                      for c in ctx.store.coauthors(key)],
        "links": format_links(author_path(key), []),
    }


__all__ = ["Ambiguous", "build_author", "build_bibtex", "build_paper", "find_paper", "paper_fields"]
