"""Search: a checked request (``requests.search_request``) run by the home's search engine, its
hits as plain data, the URL parameters of a request (every state of a search is an address), and
every hit id of a search (what an export holds)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from .. import venues as venue_registry
from ..refs import parse_citation
from ..search import InvalidRequest, NoIndex
from ..search.model import MAX_PER_PAGE, MAX_WINDOW, Hit, SearchRequest, SearchResult
from .cited import cited_search
from .empty import why_empty
from .errors import N_, BadRequest, Unavailable
from .home import Home
from .paths import API_ROOT, format_links, href, paper_path
from .types import Facets, FacetValue, FormatLinks, OtherVersion, SearchHit, SearchResponse

DEFAULT_FACET_SIZE = 20
_NOT_MARK = re.compile(r"<(?!/?mark>)")


def run_search(home: Home, r: SearchRequest) -> SearchResult:
    """The search engine's answer; no index is ``Unavailable``, a request past the limits a
    ``BadRequest``. A pasted citation (a reference line, a BibTeX entry) is searched on its title
    and re-ranked by how well each hit matches it (``cited``); every other query goes to the
    engine as it is."""
    cite = parse_citation(r.q) if r.q and r.sort == "relevance" else None
    if cite is not None:
        return cited_search(r, cite, lambda req: _engine(home, req))
    return _engine(home, r)


def _engine(home: Home, r: SearchRequest) -> SearchResult:
    searcher = home.searcher
    if searcher is None:
        raise Unavailable(N_("Search is not available yet: the search index has not been built."),
                          "paperlist index")
    try:
        return searcher.search(r)
    except InvalidRequest as e:
        raise BadRequest(N_("A parameter has a value this page does not understand."), str(e)[:200]) from None
    except NoIndex:
        raise Unavailable(N_("Search is not available yet: the search index has not been built."),
                          "paperlist index") from None


def only_marks(html: str) -> Markup:
    """The engine's escaped snippet, with any tag other than <mark> neutralized (defense in depth)."""
    return Markup(_NOT_MARK.sub("&lt;", html or ""))


def hit_data(h: Hit) -> SearchHit:
    """A hit as plain data: ``title_html`` and ``snippet_html`` are the engine's escaped plain
    text with <mark> around matches, and no other tag; ``lists`` (the curated reading lists that
    include it) only when there are any."""
    d: SearchHit = {"id": h.id, "href": paper_path(h.id), "title": h.title,
                    "title_html": str(only_marks(h.title_html)),
                    "authors": [{"name": n, "key": k} for n, k in zip(h.authors, h.author_keys, strict=True)],
                    "venue": h.venue, "venue_short": h.venue_short, "year": h.year, "status": h.status,
                    "accepted": h.accepted, "track": h.track, "citations": h.citations,
                    "rating": h.rating, "snippet_html": str(only_marks(h.abstract_html)),
                    "score": round(h.score, 4),
                    "versions": [other_version(v) for v in h.versions], "landmark": h.landmark}
    if h.lists > 0:
        d["lists"] = h.lists
    return d


def other_version(v: dict[str, Any]) -> OtherVersion:
    return {"id": v["id"], "href": paper_path(v["id"]), "venue": v["venue"],
            "venue_short": venue_registry.get(v["venue"]).short, "year": int(v["year"]),
            "status": v.get("status"),
            "published": bool(v.get("published"))}


def request_params(r: SearchRequest, **change: Any) -> list[tuple[str, Any]]:
    """The URL parameters of a request (defaults left out), with some values changed."""
    state: dict[str, Any] = {"q": r.q, "venue": r.venues, "status": r.statuses, "year_from": r.year_from,
                             "year_to": r.year_to, "sort": r.sort, "page": r.page, "per_page": r.per_page,
                             "mode": r.mode, "topic": r.topics, "rating_min": r.rating_min,
                             "rating_max": r.rating_max}
    state.update(change)
    out: list[tuple[str, Any]] = [("q", state["q"])]
    out += [("venue", v) for v in state["venue"]]
    if state["year_from"] and state["year_from"] == state["year_to"]:
        out.append(("year", state["year_from"]))
    else:
        out += [("year_from", state["year_from"]), ("year_to", state["year_to"])]
    out += [("status", s) for s in state["status"]]
    out += [("topic", t) for t in state["topic"]]
    out += [(k, _number(state[k])) for k in ("rating_min", "rating_max")]
    out += [("sort", None if state["sort"] == "relevance" else state["sort"]),
            ("mode", None if state["mode"] == "auto" else state["mode"]),
            ("per_page", None if state["per_page"] == 20 else state["per_page"]),
            ("page", None if state["page"] == 1 else state["page"])]
    return out


def _number(x: float | None) -> str | None:
    """A rating bound as a URL writes it: 6, not 6.0."""
    return None if x is None else f"{x:g}" if float(x).is_integer() else repr(float(x))


def search_links(r: SearchRequest) -> FormatLinks:
    """The search in the API's formats: JSON (this page), exports of every hit, an Atom feed of the
    newest matches."""
    whole = request_params(r, page=1, per_page=20)
    feed = href(API_ROOT + "/search",
                request_params(r, sort="newest", page=1, per_page=50) + [("format", "atom")])
    return format_links("/search", whole, [("per_page", r.per_page if r.per_page != 20 else None),
                                           ("page", r.page if r.page != 1 else None)], atom=feed)


def response(r: SearchRequest, res: SearchResult, facet_size: int = DEFAULT_FACET_SIZE) -> SearchResponse:
    """A SearchResult as plain data: the total, this page's hits, the facets (top ``facet_size`` per
    dimension), the suggestion, how the query was understood, links to other pages and formats."""
    def top(dim: str) -> list[FacetValue]:
        return [{"value": fv.value, "label": fv.label, "count": fv.count, "selected": fv.selected}
                for fv in (res.facets.get(dim) or [])[:facet_size]]

    facets: Facets = {"venue": top("venue"), "year": top("year"), "status": top("status"),
                      "topic": top("topic")}
    links = search_links(r)
    pages = res.pages
    links["next"] = href(API_ROOT + "/search", request_params(r, page=r.page + 1)) if r.page < pages else None
    links["prev"] = href(API_ROOT + "/search", request_params(r, page=r.page - 1)) if r.page > 1 else None
    return {
        "query": {"q": r.q, "venues": r.venues, "year_from": r.year_from, "year_to": r.year_to,
                  "statuses": r.statuses, "topics": r.topics, "rating_min": r.rating_min,
                  "rating_max": r.rating_max, "sort": r.sort, "mode": r.mode, "page": r.page,
                  "per_page": r.per_page},
        "total": res.total, "pages": pages, "took_ms": round(res.took_ms, 2),
        "hits": [hit_data(h) for h in res.hits], "facets": facets,
        "suggestion": res.suggestion, "interpreted": res.interpreted, "nothing_found": [], "links": links,
    }


def search(home: Home, r: SearchRequest, facet_size: int = DEFAULT_FACET_SIZE) -> SearchResponse:
    """Run a request and answer it as plain data (``response``); with no hits, why, where the
    filters ask for what the data does not hold (``empty.why_empty``)."""
    res = run_search(home, r)
    out = response(r, res, facet_size)
    if res.total == 0:
        out["nothing_found"] = why_empty(home, res.interpreted.get("filters", {}))
    return out


def search_ids(home: Home, r: SearchRequest, limit: int) -> Iterator[str]:
    """Every hit id of a search in its order, up to ``limit`` (what an export holds): pages of
    100 without facets or snippets; the engine's window (page × per_page ≤ 10,000) is also the
    export cap."""
    done = 0
    for page in range(1, MAX_WINDOW // MAX_PER_PAGE + 1):
        res = run_search(home, replace(r, page=page, per_page=MAX_PER_PAGE, facets=False, snippets=False))
        for h in res.hits:
            if done >= limit:
                return
            done += 1
            yield h.id
        if len(res.hits) < MAX_PER_PAGE:
            return


def total(home: Home, r: SearchRequest) -> int:
    """How many papers a request matches (one cheap search: one hit, no facets, no snippets)."""
    return run_search(home, replace(r, page=1, per_page=1, facets=False, snippets=False)).total
