"""The home page, the venue directory, a venue's years, a conference-year's paper list and the
coverage page: the service's venues, with field names in the page's language, the chart of a
venue's years and a list's navigation links."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from ... import venues as venue_registry
from ...service import list_request_from_params
from ...service import venues as sv
from ...service.requests import LIST_PER_PAGE, LIST_SORTS
from ...service.reviews import figures
from ...service.semantic_status import semantic_status
from ...service.types import VenueSummary
from ..charts import year_bars
from ..labels import DECISION, KIND, LIST_SORT, STATUS, status_key
from .base import Ctx, card, page_numbers, topic_name


def _field_name(fld: str, lang: str) -> str:
    en, zh = venue_registry.FIELDS.get(fld, (fld, fld))
    return zh if lang == "zh" else en


def _venue_entry(v: VenueSummary) -> dict[str, Any]:
    years = sorted(v["years"], reverse=True)
    return {**v, "years": [{"year": y, "href": f"{v['href']}/{y}"} for y in years],
            "first_year": years[-1] if years else None, "last_year": years[0] if years else None}


def _by_field(ctx: Ctx, kinds: tuple[str, ...], top_level: bool) -> list[dict[str, Any]]:
    return [{"field": f, "name": _field_name(f, ctx.lang), "venues": [_venue_entry(v) for v in vs]}
            for f, vs in sv.by_field(ctx.home, kinds, top_level)]


def _figures(ctx: Ctx) -> dict[str, Any]:
    s = sv.stats(ctx.home)
    return {"papers": s["papers"], "accepted": s["accepted"], "with_abstract": s["with_abstract"],
            "venues": s["venues"], "venue_years": s["venue_years"], "authors": s["authors"],
            "updated": s["last_ingest"]}


def build_home(ctx: Ctx) -> dict[str, Any]:
    """Search box, then the newest proceedings' first papers (with authors and abstracts), the newest
    conference-years with what we hold of each, corpus figures, conferences by field."""
    featured = sv.featured_proceedings(ctx.home)
    return {"page": "home", "figures": _figures(ctx), "recent": sv.latest_proceedings(ctx.home),
            "featured": {**featured, "papers": [card(p) for p in featured["papers"]],
                         "status_labels": [STATUS[s] for s in featured["statuses"]]} if featured else None,
            "semantic": semantic_status(ctx.home),
            "fields": _by_field(ctx, ("conference",), top_level=True)}


def build_conferences(ctx: Ctx) -> dict[str, Any]:
    """Every venue with papers, grouped by field, then by kind."""
    sections = []
    for kind in sv.KIND_ORDER:
        groups = _by_field(ctx, (kind,), top_level=False)
        if groups:
            sections.append({"kind": kind, "label": KIND[kind], "fields": groups})
    return {"page": "conferences", "figures": _figures(ctx), "sections": sections}


def build_venue(ctx: Ctx, name: str) -> dict[str, Any]:
    """A venue: its years with counts and status breakdown, and a chart of papers per year."""
    d = sv.venue(ctx.home, name)
    key = d["venue"]["key"]
    stats_href = {s["year"]: s["href"] for s in d["stats"]}
    return {"page": "venue", **d,
            "venue": {**d["venue"], "field_name": _field_name(d["venue"]["field"], ctx.lang)},
            "years": [{**y, "stats_href": stats_href.get(y["year"])} for y in d["years"]],
            # the year-over-year figures are worth a table where a year has a rate or ratings
            "stats_table": any(s["rated"] or s["acceptance_rate"] is not None for s in d["stats"]),
            "related": [_venue_entry(r) for r in d["related"]],
            "chart": year_bars(sv.year_rows(ctx.home, key))}


def build_venue_year(ctx: Ctx, name: str, year_s: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The complete paper list of one conference-year, with status / track / keyword filters and
    links for 100 / 250 / 500 papers a page or all of them."""
    lr = list_request_from_params(params, page_choices=True)
    d = sv.conference_year(ctx.home, name, year_s, lr)
    key, year = d["venue"]["key"], d["year"]
    per_raw = sv.per_page_value(lr)
    years = {"prev_year": d["prev_year"], "next_year": d["next_year"]}
    f = figures(ctx.home, key, year)
    rated = bool(f and f["ratings"])
    shown = d["filters"]
    # the list as filtered, for the triage counter's count of seen marks (issue 46 item 8)
    view = [("decision", shown["decision"]), *(("status", st) for st in shown["status"]),
            ("track", shown["track"]), ("q", shown["q"]), ("topic", shown["topic"])]
    # "all" is the triage view of a whole proceedings: compact rows (render.py compact_rows), made
    # from the summaries as they are; a status badge on each only where the list mixes statuses
    compact = per_raw == "all"
    known = {p["status"] for p in d["papers"] if status_key(p["status"]) != "unknown"} if compact else set()
    return {
        "page": "venue_year", **d, "papers": d["papers"] if compact else [card(p) for p in d["papers"]],
        "compact": compact, "row_status": len(known) > 1,
        "view_query": urlencode([(k, v) for k, v in view if v]),
        "status_links": [{**s, "label": STATUS[status_key(None if s["value"] == "unknown" else s["value"])]}
                         for s in d["status_counts"]],
        "track_links": d["track_counts"],
        "topic_links": [{**t, "label": topic_name(t["value"], ctx.lang)} for t in d["topic_counts"]],
        "decision_labels": DECISION,
        "clear_href": sv.list_href(key, year, lr, q=None, status=[], track=None, topic=None, per_page=None,
                                   decision="accepted")
        if (lr.q or lr.statuses or lr.track or lr.topic or lr.decision != "accepted") else None,
        "per_page_links": [{"value": c,
                            "href": sv.list_href(key, year, lr, per_page=None if c == "100" else c),
                            "active": c == per_raw} for c in LIST_PER_PAGE],
        "sort_links": [{"value": s, "label": LIST_SORT[s], "active": s == lr.sort,
                        "href": sv.list_href(key, year, lr, sort=s, page=None)}
                       for s in LIST_SORTS if s != "rating" or rated or lr.sort == "rating"],
        "page_links": [{"page": n, "current": n == lr.page,
                        "href": sv.list_href(key, year, lr, page=n if n > 1 else None) if n else None}
                       for n in page_numbers(lr.page, d["pagination"]["pages"])],
        **{k: ({"year": y, "href": f"{d['venue']['href']}/{y}"} if y is not None else None)
           for k, y in years.items()},
    }


def build_coverage(ctx: Ctx) -> dict[str, Any]:
    """Every venue-year: papers, how many have an abstract and authors, when its sources were last
    ingested: "titles only" at a glance."""
    rows = sv.coverage_table(ctx.home)
    return {"page": "coverage", "figures": _figures(ctx), "rows": rows,
            "titles_only": sum(1 for r in rows if not r["with_abstract"] and not r["with_authors"])}
