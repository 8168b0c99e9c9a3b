"""The search page: a SearchRequest from the URL, the searcher's result, and facet links that add
or remove one filter each. Every state is a URL."""

from __future__ import annotations

import re
import time
from typing import Any, Mapping

from markupsafe import Markup

from ... import venues
from ...models import STATUSES
from ...search import InvalidRequest, NoIndex
from ...search.model import MAX_PER_PAGE, MAX_QUERY_CHARS, MAX_WINDOW, MODES, SORTS, Hit, SearchRequest, SearchResult
from ..i18n import N_
from ..labels import FACET, SORT, STATUS, status_key
from ..richtext import render_inline
from .base import (API_ROOT, BadRequest, Ctx, PageError, author_path, format_links, href, int_param, paper_path,
                   venue_path)

YEAR_RANGE = (1900, 2100)
_NOT_MARK = re.compile(r"<(?!/?mark>)")


class SearchUnavailable(PageError):
    """No search index in this home yet."""

    status = 503


def _list(params: Mapping[str, Any], name: str) -> list[str]:
    values = params.getlist(name) if hasattr(params, "getlist") else ([params[name]] if name in params else [])
    out: list[str] = []
    for v in values:
        for part in str(v).split(","):
            if part.strip() and part.strip() not in out:
                out.append(part.strip())
    return out


def parse_request(params: Mapping[str, Any]) -> SearchRequest:
    """The SearchRequest a URL describes; a malformed parameter is a 400."""
    venue_keys = []
    for name in _list(params, "venue"):
        key = venues.resolve(name) or name.lower()
        if key not in venue_keys:
            venue_keys.append(key)
    statuses = _list(params, "status")
    for s in statuses:
        if s not in STATUSES:
            raise BadRequest(N_("A parameter has a value this page does not understand."), f"status={s[:40]}")
    year = int_param(params, "year", None, *YEAR_RANGE)
    year_from = int_param(params, "year_from", year, *YEAR_RANGE)
    year_to = int_param(params, "year_to", year, *YEAR_RANGE)
    if year_from and year_to and year_from > year_to:
        raise BadRequest(N_("A parameter is out of range."), f"year_from={year_from} > year_to={year_to}")
    sort = params.get("sort") or "relevance"
    if sort not in SORTS:
        raise BadRequest(N_("A parameter has a value this page does not understand."), f"sort={sort[:40]}")
    mode = params.get("mode") or "auto"
    if mode not in MODES:
        raise BadRequest(N_("A parameter has a value this page does not understand."), f"mode={mode[:40]}")
    per_page = int_param(params, "per_page", 20, 1, MAX_PER_PAGE) or 20
    page = int_param(params, "page", 1, 1, MAX_WINDOW) or 1
    if page * per_page > MAX_WINDOW:
        raise BadRequest(N_("This page number is past the last page."), f"page={page}")
    topics = [t.lower() for t in _list(params, "topic")]
    return SearchRequest(q=(params.get("q") or "")[:MAX_QUERY_CHARS].strip(), venues=venue_keys,
                         year_from=year_from, year_to=year_to, statuses=statuses, sort=sort, page=page,
                         per_page=per_page, mode=mode, topics=topics)


def request_params(r: SearchRequest, **change: Any) -> list[tuple[str, Any]]:
    """URL parameters of a request (defaults left out), with some values changed."""
    state: dict[str, Any] = {"q": r.q, "venue": r.venues, "status": r.statuses, "year_from": r.year_from,
                             "year_to": r.year_to, "sort": r.sort, "page": r.page, "per_page": r.per_page,
                             "mode": r.mode, "topic": r.topics}
    state.update(change)
    out: list[tuple[str, Any]] = [("q", state["q"])]
    out += [("venue", v) for v in state["venue"]]
    if state["year_from"] and state["year_from"] == state["year_to"]:
        out.append(("year", state["year_from"]))
    else:
        out += [("year_from", state["year_from"]), ("year_to", state["year_to"])]
    out += [("status", s) for s in state["status"]]
    out += [("topic", t) for t in state["topic"]]
    out += [("sort", None if state["sort"] == "relevance" else state["sort"]),
            ("mode", None if state["mode"] == "auto" else state["mode"]),
            ("per_page", None if state["per_page"] == 20 else state["per_page"]),
            ("page", None if state["page"] == 1 else state["page"])]
    return out


def _toggle(values: list[str], v: str) -> list[str]:
    return [x for x in values if x != v] if v in values else values + [v]


FACET_LIMITS = {"venue": 20, "year": 40, "status": 20, "topic": 15}   # what the sidebar shows (busiest first)


def _facets(r: SearchRequest, res: SearchResult, lang: str = "zh") -> list[dict[str, Any]]:
    from ...topics import taxonomy

    tax = taxonomy()
    groups = []
    for name in ("venue", "year", "status", "topic"):
        values = res.facets.get(name) or []
        if name == "topic":     # topics, not their areas (an area is the sum of its topics)
            values = [fv for fv in values if (t := tax.get(fv.value)) is not None and not t.is_area
                      or fv.value in r.topics]
        limit = FACET_LIMITS[name]
        # keep the selected values even when they are not among the busiest
        values = values[:limit] + [fv for fv in values[limit:] if getattr(fv, "selected", False)]
        items = []
        for fv in values:
            selected = bool(getattr(fv, "selected", False))     # also set by filters typed in the query
            if name == "venue":
                active = fv.value in r.venues
                link = request_params(r, venue=_toggle(r.venues, fv.value), page=1)
                label = fv.label or venues.get(fv.value).short
            elif name == "year":
                y = int(fv.value) if str(fv.value).isdigit() else None
                active = y is not None and r.year_from == y == r.year_to
                link = request_params(r, year_from=None if active else y, year_to=None if active else y, page=1)
                label = str(fv.value)
            elif name == "topic":
                active = fv.value in r.topics
                link = request_params(r, topic=_toggle(r.topics, fv.value), page=1)
                t = tax.get(fv.value)
                label = t.name(lang) if t else fv.value
            else:
                active = fv.value in r.statuses
                link = request_params(r, status=_toggle(r.statuses, fv.value), page=1)
                label = STATUS.get(status_key(fv.value), fv.label)
            items.append({"value": fv.value, "label": label, "count": fv.count, "active": active or selected,
                          "href": href("/search", link)})
        if name == "year":
            items.sort(key=lambda i: str(i["value"]), reverse=True)
        if items:
            groups.append({"name": name, "label": FACET[name], "options": items, "translate": name == "status",
                           "more": max(0, len(res.facets.get(name) or []) - len(items))})
    return groups


def _topic_name(slug: str, lang: str) -> str:
    from ...topics import taxonomy

    t = taxonomy().get(slug)
    return t.name(lang) if t else slug


MODE_LABELS = {"auto": N_("Automatic"), "keyword": N_("Keywords"), "hybrid": N_("Keywords + meaning"),
               "semantic": N_("Meaning")}


def _modes(r: SearchRequest, interpreted: dict[str, Any]) -> dict[str, Any]:
    """The search-mode switch: which mode ran, links to the others, and whether vectors exist."""
    sem = interpreted.get("semantic") or {}
    return {"used": interpreted.get("mode", "keyword"), "requested": r.mode,
            "unavailable": sem.get("unavailable"),
            "links": [{"value": m, "label": MODE_LABELS[m], "active": m == r.mode,
                       "href": href("/search", request_params(r, mode=m, page=1))} for m in MODES]}


def only_marks(html: str) -> Markup:
    """The searcher's escaped snippet, with any tag other than <mark> neutralized (defense in depth)."""
    return Markup(_NOT_MARK.sub("&lt;", html or ""))


def hit_data(h: Hit) -> dict[str, Any]:
    """A hit as plain data (the API's hit): ``title_html`` and ``snippet_html`` are the engine's
    escaped plain text with <mark> around matches, and no other tag."""
    return {"id": h.id, "href": paper_path(h.id), "title": h.title, "title_html": str(only_marks(h.title_html)),
            "authors": [{"name": n, "key": k} for n, k in zip(h.authors, h.author_keys)],
            "venue": h.venue, "venue_short": h.venue_short, "year": h.year, "status": h.status,
            "accepted": h.accepted, "track": h.track, "citations": h.citations,
            "snippet_html": str(only_marks(h.abstract_html)), "score": round(h.score, 4)}


def _hit(h: Hit) -> dict[str, Any]:
    """A hit as the page shows it: the plain data plus links, and the title rendered (MathML)
    when the query did not mark a word in it."""
    d = hit_data(h)
    d.update(title_html=Markup(d["title_html"]) if "<mark>" in d["title_html"] else render_inline(h.title),
             authors=[{**a, "href": author_path(a["key"])} for a in d["authors"]],
             venue_href=venue_path(h.venue, h.year), status_key=status_key(h.status),
             abstract_html=Markup(d.pop("snippet_html")))
    return d


def _notes(interpreted: dict[str, Any]) -> dict[str, Any]:
    """What the page should say about how the query was understood."""
    corrected = interpreted.get("corrected") or {}
    return {"corrected": [{"typed": k, "used": v} for k, v in corrected.items()],
            "loose": interpreted.get("match") in ("most", "any"),
            "parse": list(interpreted.get("notes") or [])}


def search_links(r: SearchRequest) -> dict[str, str | None]:
    """The search in the API's formats: JSON (this page), exports of every hit, an Atom feed of the
    newest matches."""
    whole = request_params(r, page=1, per_page=20)
    feed = href(API_ROOT + "/search", request_params(r, sort="newest", page=1, per_page=50) + [("format", "atom")])
    return format_links("/search", whole, [("per_page", r.per_page if r.per_page != 20 else None),
                                           ("page", r.page if r.page != 1 else None)], atom=feed)


def run_search(ctx: Ctx, r: SearchRequest) -> SearchResult:
    """The searcher's answer to a request; no index is a 503, a request past the limits a 400."""
    if ctx.searcher is None:
        raise SearchUnavailable(N_("Search is not available yet: the search index has not been built."),
                                "paperlist index")
    try:
        res: SearchResult = ctx.searcher.search(r)
        return res
    except InvalidRequest as e:
        raise BadRequest(N_("A parameter has a value this page does not understand."), str(e)[:200]) from None
    except NoIndex:
        raise SearchUnavailable(N_("Search is not available yet: the search index has not been built."),
                                "paperlist index") from None


def build_search(ctx: Ctx, params: Mapping[str, Any]) -> dict[str, Any]:
    """The search page's data. With no query and no filter it is the search help page."""
    t0 = time.perf_counter()
    r = parse_request(params)
    data: dict[str, Any] = {"page": "search", "q": r.q, "request": {
        "q": r.q, "venues": r.venues, "year_from": r.year_from, "year_to": r.year_to, "statuses": r.statuses,
        "sort": r.sort, "page": r.page, "per_page": r.per_page, "mode": r.mode, "topics": r.topics}}
    if not (r.q or r.venues or r.statuses or r.year_from or r.year_to or r.topics):
        return data | {"empty_query": True, "hits": [], "total": 0}
    res = run_search(ctx, r)
    active = ([{"label": venues.get(v).short, "href": href("/search", request_params(r, venue=_toggle(r.venues, v),
                                                                                      page=1))} for v in r.venues]
              + [{"label": STATUS[s], "translate": True,
                  "href": href("/search", request_params(r, status=_toggle(r.statuses, s), page=1))}
                 for s in r.statuses]
              + [{"label": _topic_name(t, ctx.lang), "href": href("/search", request_params(
                  r, topic=_toggle(r.topics, t), page=1))} for t in r.topics])
    if r.year_from or r.year_to:
        label = (str(r.year_from) if r.year_from == r.year_to
                 else f"{r.year_from or ''}–{r.year_to or ''}")
        active.append({"label": label, "href": href("/search", request_params(r, year_from=None, year_to=None,
                                                                               page=1))})
    pages = res.pages
    return data | {
        "empty_query": False, "total": res.total, "took_ms": round(res.took_ms, 1),
        "hits": [_hit(h) for h in res.hits], "facets": _facets(r, res, ctx.lang), "active_filters": active,
        "translated": res.interpreted.get("translated"),
        "modes": _modes(r, res.interpreted),
        "suggestion": ({"q": res.suggestion, "href": href("/search", request_params(r, q=res.suggestion, page=1))}
                       if res.suggestion else None),
        "interpreted": res.interpreted, "notes": _notes(res.interpreted),
        "sorts": [{"value": s, "label": SORT[s], "active": s == r.sort,
                   "href": href("/search", request_params(r, sort=s, page=1))} for s in SORTS],
        "pagination": {"page": r.page, "pages": pages, "first_index": (r.page - 1) * r.per_page + 1,
                       "prev": href("/search", request_params(r, page=r.page - 1)) if r.page > 1 else None,
                       "next": href("/search", request_params(r, page=r.page + 1)) if r.page < pages else None},
        "full_href": href("/search", request_params(r, per_page=20, page=1)),
        "links": search_links(r),
        "server_ms": round((time.perf_counter() - t0) * 1000, 1),
    }
