"""The JSON API's resources: the page builders' data, reshaped into the documented representations
of ``api_models`` (the HTTP API and the MCP server both call these).

Nothing here queries the store or the index on its own: each function calls the builder (or the
cached data function) its page uses and only picks, renames and drops fields, so a page and its API
resource cannot drift apart. Adding a resource (topics, similar papers) is one function here and
one route in ``web/api.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ... import venues
from ...search.model import MAX_PER_PAGE, MAX_WINDOW, SearchRequest, SearchResult
from ..i18n import N_
from .base import API_ROOT, Ctx, NotFound, corpus_stats, href, venue_path, venue_stats
from .papers import build_author, build_paper
from .search import hit_data, parse_request, request_params, run_search, search_links
from .venues import build_venue, build_venue_year

# The fields of a paper in a list (views.base.card has more, for the page).
SUMMARY_FIELDS = ("id", "href", "title", "title_plain", "authors", "venue", "venue_short", "year", "status",
                  "accepted", "track", "award", "citations", "abstract_head")
DEFAULT_FACET_SIZE = 20


def summary(card: Mapping[str, Any]) -> dict[str, Any]:
    """A page card as the API's PaperSummary."""
    d = {k: card[k] for k in SUMMARY_FIELDS}
    d["authors"] = [{"name": a["name"], "key": a["key"]} for a in card["authors"]]
    return d


def venue_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """A venue row (store.venue_rows) as the API's VenueSummary."""
    return {"key": row["key"], "short": row["short"], "name": row["name"], "kind": row["kind"],
            "field": row["field"], "parent": row["parent"], "aliases": row["aliases"], "papers": row["papers"],
            "accepted": row["accepted"], "years": row["years"], "href": venue_path(row["key"])}


# --- papers and authors -------------------------------------------------------------------------
def paper(ctx: Ctx, ref: str) -> dict[str, Any]:
    """One paper: the paper page's data without its page-only keys."""
    d = build_paper(ctx, ref)
    d.pop("page", None)
    d.pop("status_key", None)
    d["more_by_authors"] = [summary(c) for c in d["more_by_authors"]]
    d["similar"] = [summary(c) | {"score": c["score"]} for c in d.get("similar", [])]
    return d


def author(ctx: Ctx, key: str) -> dict[str, Any]:
    """An author with every paper (newest year first), venues and frequent co-authors."""
    d = build_author(ctx, key)
    d.pop("page", None)
    d["papers"] = [summary(c) for y in d.pop("years") for c in y["papers"]]
    return d


# --- search -------------------------------------------------------------------------------------
def search_request(params: Mapping[str, Any]) -> SearchRequest:
    """The SearchRequest of the API's parameters: the page's parser, so both read them alike."""
    return parse_request(params)


def search(ctx: Ctx, r: SearchRequest, facet_size: int = DEFAULT_FACET_SIZE) -> dict[str, Any]:
    """The search response: total, hits with snippets, facets (top ``facet_size`` per dimension)."""
    res = run_search(ctx, r)
    return search_data(r, res, facet_size)


def search_data(r: SearchRequest, res: SearchResult, facet_size: int = DEFAULT_FACET_SIZE) -> dict[str, Any]:
    """A SearchResult as the API's SearchResponse."""
    facets = {dim: [{"value": fv.value, "label": fv.label, "count": fv.count, "selected": fv.selected}
                    for fv in (res.facets.get(dim) or [])[:facet_size]] for dim in ("venue", "year", "status", "topic")}
    links = search_links(r)
    pages = res.pages
    links["next"] = href(API_ROOT + "/search", request_params(r, page=r.page + 1)) if r.page < pages else None
    links["prev"] = href(API_ROOT + "/search", request_params(r, page=r.page - 1)) if r.page > 1 else None
    return {
        "query": {"q": r.q, "venues": r.venues, "year_from": r.year_from, "year_to": r.year_to,
                  "statuses": r.statuses, "topics": r.topics, "sort": r.sort, "mode": r.mode, "page": r.page,
                  "per_page": r.per_page},
        "total": res.total, "pages": pages, "took_ms": round(res.took_ms, 2),
        "hits": [hit_data(h) for h in res.hits], "facets": facets, "suggestion": res.suggestion,
        "interpreted": res.interpreted, "links": links,
    }


def search_ids(ctx: Ctx, r: SearchRequest, limit: int) -> Iterator[str]:
    """Every hit id of a search in its order, up to ``limit`` (what an export holds): pages of
    100 without facets or snippets; the engine's window (page × per_page ≤ 10,000) is also the
    export cap."""
    done = 0
    for page in range(1, MAX_WINDOW // MAX_PER_PAGE + 1):
        res = run_search(ctx, replace(r, page=page, per_page=MAX_PER_PAGE, facets=False, snippets=False))
        for h in res.hits:
            if done >= limit:
                return
            done += 1
            yield h.id
        if len(res.hits) < MAX_PER_PAGE:
            return


# --- venues -------------------------------------------------------------------------------------
def conferences(ctx: Ctx) -> dict[str, Any]:
    """Every venue with papers: conferences first, then journals and workshops; busiest first."""
    order = {"conference": 0, "journal": 1, "workshop": 2}
    rows = sorted(venue_stats(ctx).values(), key=lambda r: (order.get(r["kind"], 3), -r["papers"], r["key"]))
    return {"venues": [venue_summary(r) for r in rows], "total": len(rows)}


def conference(ctx: Ctx, name: str) -> dict[str, Any]:
    """A venue: its years with status counts (newest first), related venues."""
    d = build_venue(ctx, name)
    stats = venue_stats(ctx)
    return {"venue": d["venue"] | {"href": venue_path(d["venue"]["key"])}, "years": d["years"],
            "totals": d["totals"], "related": [venue_summary(stats[r["key"]]) for r in d["related"]],
            "links": d["links"]}


def conference_year(ctx: Ctx, name: str, year: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """One page of a conference-year's list, with its filters and their counts."""
    d = build_venue_year(ctx, name, year, params, any_per_page=True)
    counts = [{k: x[k] for k in ("value", "count", "active", "href")} for x in d["status_links"]]
    return {"venue": d["venue"], "year": d["year"], "total": d["total"], "year_total": d["year_total"],
            "papers": [summary(c) for c in d["papers"]], "filters": d["filters"], "status_counts": counts,
            "track_counts": d["track_links"], "pagination": d["pagination"],
            "prev_year": (d["prev_year"] or {}).get("year"), "next_year": (d["next_year"] or {}).get("year"),
            "coverage": d["coverage"], "links": d["links"]}


# --- corpus -------------------------------------------------------------------------------------
def stats(ctx: Ctx) -> dict[str, Any]:
    """The corpus figures and when it was last ingested."""
    return corpus_stats(ctx) | {"last_ingest": ctx.cache.get("last_ingest", ctx.store.last_ingest)}


def coverage(ctx: Ctx, venue: str | None = None) -> dict[str, Any]:
    """Per venue and year: papers, accepted, with abstract, and the source files behind them."""
    key = None
    if venue:
        key = venues.resolve(venue) or venue.lower()
        if key not in venue_stats(ctx):
            raise NotFound(N_("We have no papers from this venue."), venue[:120])
    rows = ctx.cache.get(("coverage", key), lambda: ctx.store.coverage(key))
    return {"rows": rows, "total": len(rows)}


# --- topics and similar papers (issue 7) ------------------------------------------------------
def _topic_entry(t: Mapping[str, Any]) -> dict[str, Any]:
    return {"slug": t["slug"], "en": t["en"], "zh": t["zh"], "desc_en": t["desc_en"], "desc_zh": t["desc_zh"],
            "parent": t["parent"], "papers": t["papers"], "years": {str(y): n for y, n in t["years"].items()},
            "venues": t.get("venues", {}), "href": f"/topics/{t['slug']}"}


def topics(ctx: Ctx, venue: str | None = None, year: int | None = None) -> dict[str, Any]:
    """Every area and topic with papers, papers per year and top venues; ``venue`` / ``year`` count
    one conference(-year) only."""
    from ...topics.stats import overview

    if venue is not None:
        key = venues.resolve(venue) or venue.lower()
        if key not in venue_stats(ctx):
            raise NotFound(N_("We have no papers from this venue."), venue[:100])
        venue = key
    data = ctx.cache.get(("topic_overview", venue, year), lambda: overview(ctx.store, venue=venue, year=year))
    areas = [_topic_entry(a) | {"topics": [_topic_entry(t) for t in a["topics"]]} for a in data]
    return {"areas": areas, "venue": venue, "year": year, "topics": sum(len(a["topics"]) for a in areas)}


def topic(ctx: Ctx, slug: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """A topic or area: names, counts per year and per venue and year, and a page of its papers."""
    from ...topics.stats import topic_detail
    from .topics import build_topic

    d = build_topic(ctx, slug, params)
    stats = ctx.cache.get(("topic", d["slug"]), lambda: topic_detail(ctx.store, d["slug"])) or {}
    return {"slug": d["slug"], "en": d["name_en"], "zh": d["name_zh"], "desc": d["desc"], "is_area": d["is_area"],
            "parent": d["parent"]["slug"] if d["parent"] else None,
            "topics": [c["slug"] for c in d["children"]], "papers": stats.get("papers", 0),
            "years": {str(y): n for y, n in stats.get("years", {}).items()},
            "venues": stats.get("venues", {}),
            "venue_years": [{"venue": k.split(":")[0], "year": int(k.split(":")[1]), "papers": n}
                            for k, n in stats.get("venue_years", {}).items()],
            "filters": d["filters"], "total": d["total"], "pagination": d["pagination"],
            "list": [summary(c) | {"topics": [t["slug"] for t in c["topics"]]} for c in d["papers"]],
            "href": f"/topics/{d['slug']}"}


def similar(ctx: Ctx, ref: str, limit: int = 10) -> dict[str, Any]:
    """Papers similar to one paper: by vector when it has one, else by shared words."""
    from ...search.similar import similar_papers
    from .base import card
    from .papers import find_paper

    p = find_paper(ctx, ref)
    got, method = similar_papers(ctx.searcher, p, limit)
    cards = {c["id"]: c for c in ctx.store.cards([pid for pid, _ in got])}
    return {"id": p.id, "href": f"/papers/{p.id}", "method": method,
            "papers": [summary(card(cards[pid])) | {"score": round(sc, 4)} for pid, sc in got if pid in cards]}
