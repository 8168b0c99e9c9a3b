"""The search page: a SearchRequest from the URL, the searcher's result, and facet links that add
or remove one filter each. Every state is a URL."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from ... import venues
from ...richtext import render_inline
from ...search.model import MODES, SORTS, Hit, Interpreted, SearchRequest, SearchResult, unavailable_note
from ...service import search_request_from_params
from ...service.empty import why_empty
from ...service.errors import N_
from ...service.paths import author_path, href, venue_path
from ...service.search import hit_data, request_params, run_search, search_links
from ...service.semantic_status import semantic_status, unavailable_kind
from ...topics import taxonomy
from .. import i18n
from ..labels import FACET, SORT, STATUS, status_key
from .base import Ctx, topic_name


def _toggle(values: list[str], v: str) -> list[str]:
    return [x for x in values if x != v] if v in values else values + [v]


FACET_LIMITS = {"venue": 20, "year": 40, "status": 20, "topic": 15}   # what the sidebar shows (busiest first)


def _facets(r: SearchRequest, res: SearchResult, lang: str = "zh") -> list[dict[str, Any]]:
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
                link = request_params(r, year_from=None if active else y,
                                      year_to=None if active else y, page=1)
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
            groups.append({"name": name, "label": FACET[name], "options": items,
                           "translate": name == "status",
                           "more": max(0, len(res.facets.get(name) or []) - len(items))})
    return groups


MODE_LABELS = {"auto": N_("Automatic"), "keyword": N_("Keywords"), "hybrid": N_("Keywords + meaning"),
               "semantic": N_("Meaning")}


def _modes(r: SearchRequest, interpreted: Interpreted) -> dict[str, Any]:
    """The search-mode switch: which mode ran, and links to the others that can run here (no
    "meaning" mode is offered where vectors or the model are missing)."""
    sem = interpreted.get("semantic")
    unavailable = unavailable_kind(sem["unavailable"] if sem else None)
    offered = [m for m in MODES if not unavailable or m in ("auto", "keyword") or m == r.mode]
    return {"used": interpreted.get("mode", "keyword"), "requested": r.mode, "unavailable": unavailable,
            "links": [{"value": m, "label": MODE_LABELS[m], "active": m == r.mode,
                       "href": href("/search", request_params(r, mode=m, page=1))} for m in offered]}


def _hit(h: Hit) -> dict[str, Any]:
    """A hit as the page shows it: the plain data plus links, and the title rendered (MathML)
    when the query did not mark a word in it."""
    d: dict[str, Any] = dict(hit_data(h))
    d.update(title_html=Markup(d["title_html"]) if "<mark>" in d["title_html"] else render_inline(h.title),
             authors=[{**a, "href": author_path(a["key"])} for a in d["authors"]],
             venue_href=venue_path(h.venue, h.year), status_key=status_key(h.status),
             abstract_html=Markup(d.pop("snippet_html")))
    return d


def _notes(interpreted: Interpreted) -> dict[str, Any]:
    """What the page should say about how the query was understood (a mode that could not run
    is said by the mode switch, in plain words, not among the syntax notes)."""
    corrected = interpreted.get("corrected") or {}
    sem = interpreted.get("semantic")
    mode_note = unavailable_note(sem["requested"], sem["unavailable"]) if sem and sem["unavailable"] else None
    return {"corrected": [{"typed": k, "used": v} for k, v in corrected.items()],
            "loose": interpreted.get("match") in ("most", "any"),
            "parse": [n for n in interpreted.get("notes") or [] if n != mode_note]}


def _active_filters(ctx: Ctx, r: SearchRequest) -> list[dict[str, Any]]:
    """The filters in force, each with the link that removes it: venues, statuses, topics, the
    years and the rating range."""
    active = ([{"label": venues.get(v).short,
                "href": href("/search", request_params(r, venue=_toggle(r.venues, v), page=1))}
               for v in r.venues]
              + [{"label": STATUS[s], "translate": True,
                  "href": href("/search", request_params(r, status=_toggle(r.statuses, s), page=1))}
                 for s in r.statuses]
              + [{"label": topic_name(t, ctx.lang), "href": href("/search", request_params(
                  r, topic=_toggle(r.topics, t), page=1))} for t in r.topics])
    if r.year_from or r.year_to:
        label = (str(r.year_from) if r.year_from == r.year_to
                 else f"{r.year_from or ''}–{r.year_to or ''}")
        active.append({"label": label, "href": href("/search", request_params(r, year_from=None, year_to=None,
                                                                               page=1))})
    if r.rating_min is not None or r.rating_max is not None:
        lo, hi = (f"{x:g}" if x is not None else "" for x in (r.rating_min, r.rating_max))
        word = i18n.translations(ctx.lang).gettext("Rating")
        bounds = f"{lo}–{hi}" if lo and hi else (f"≥ {lo}" if lo else f"≤ {hi}")
        active.append({"label": f"{word} {bounds}",
                       "href": href("/search", request_params(r, rating_min=None, rating_max=None, page=1))})
    return active


def _pagination(r: SearchRequest, pages: int) -> dict[str, Any]:
    return {"page": r.page, "pages": pages, "first_index": (r.page - 1) * r.per_page + 1,
            "prev": href("/search", request_params(r, page=r.page - 1)) if r.page > 1 else None,
            "next": href("/search", request_params(r, page=r.page + 1)) if r.page < pages else None}


def build_search(ctx: Ctx, params: Mapping[str, Any]) -> dict[str, Any]:
    """The search page's data. With no query and no filter it is the search help page."""
    t0 = time.perf_counter()
    r = search_request_from_params(params)
    data: dict[str, Any] = {"page": "search", "q": r.q, "request": {
        "q": r.q, "venues": r.venues, "year_from": r.year_from, "year_to": r.year_to, "statuses": r.statuses,
        "sort": r.sort, "page": r.page, "per_page": r.per_page, "mode": r.mode, "topics": r.topics,
        "rating_min": r.rating_min, "rating_max": r.rating_max}}
    rated = r.rating_min is not None or r.rating_max is not None
    if not (r.q or r.venues or r.statuses or r.year_from or r.year_to or r.topics or rated):
        return data | {"empty_query": True, "hits": [], "total": 0}
    res = run_search(ctx.home, r)
    active = _active_filters(ctx, r)
    return data | {
        "empty_query": False, "total": res.total, "took_ms": round(res.took_ms, 1),
        "hits": [_hit(h) for h in res.hits], "facets": _facets(r, res, ctx.lang), "active_filters": active,
        "translated": res.interpreted.get("translated"),
        "modes": _modes(r, res.interpreted), "semantic": semantic_status(ctx.home),
        "suggestion": ({"q": res.suggestion,
                        "href": href("/search", request_params(r, q=res.suggestion, page=1))}
                       if res.suggestion else None),
        "interpreted": res.interpreted, "notes": _notes(res.interpreted),
        "nothing_found": ([{**x, "have": [STATUS[status_key(s)] for s in x["have"]]}
                           for x in why_empty(ctx.home, res.interpreted.get("filters", {}))]
                          if res.total == 0 else []),
        "sorts": [{"value": s, "label": SORT[s], "active": s == r.sort,
                   "href": href("/search", request_params(r, sort=s, page=1))} for s in SORTS],
        "pagination": _pagination(r, res.pages),
        "full_href": href("/search", request_params(r, per_page=20, page=1)),
        "links": search_links(r),
        "server_ms": round((time.perf_counter() - t0) * 1000, 1),
    }
