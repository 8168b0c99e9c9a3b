"""The home page, the venue directory, a venue's years, and a conference-year's paper list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ... import venues
from ...models import STATUSES
from ...sources import SOURCE_TITLES
from ...store import ListFilter
from ..charts import year_bars
from ..i18n import N_
from ..labels import KIND, STATUS, status_key
from .base import (API_ROOT, BadRequest, Ctx, NotFound, Redirect, card, corpus_stats, format_links, href, int_param,
                   venue_path, venue_stats)

PER_PAGE_CHOICES = ("100", "250", "500", "all")
MAX_LIST_PAGE = 1000
_FIELD_ORDER = ("ml", "cv", "nlp", "ai", "robotics", "data-mining", "web", "graphics", "multimedia", "theory",
                "science", "health")


def _field_name(fld: str, lang: str) -> str:
    en, zh = venues.FIELDS.get(fld, (fld, fld))
    return zh if lang == "zh" else en


def _venue_entry(row: dict[str, Any]) -> dict[str, Any]:
    years = sorted(row["years"], reverse=True)
    return {"key": row["key"], "short": row["short"], "name": row["name"], "kind": row["kind"],
            "parent": row["parent"], "papers": row["papers"], "href": venue_path(row["key"]),
            "years": [{"year": y, "href": venue_path(row["key"], y)} for y in years],
            "first_year": years[-1] if years else None, "last_year": years[0] if years else None}


def _by_field(ctx: Ctx, kinds: tuple[str, ...], top_level: bool) -> list[dict[str, Any]]:
    """Venues with papers, grouped by field (fields in a fixed order, venues by paper count)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in venue_stats(ctx).values():
        if row["kind"] in kinds and not (top_level and row["parent"]):
            groups.setdefault(row["field"], []).append(_venue_entry(row))
    order = {f: i for i, f in enumerate(_FIELD_ORDER)}
    return [{"field": f, "name": _field_name(f, ctx.lang), "venues": _parents_first(vs)}
            for f, vs in sorted(groups.items(), key=lambda kv: (order.get(kv[0], 99), kv[0]))]


def _parents_first(vs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Venues by paper count, each sub-venue (Findings of ACL) right after its parent."""
    by_key = {v["key"]: v for v in vs}

    def head(v: dict[str, Any]) -> dict[str, Any]:
        return by_key.get(v["parent"] or "", v)

    return sorted(vs, key=lambda v: (-head(v)["papers"], head(v)["short"], v["key"] != head(v)["key"],
                                     -v["papers"], v["short"]))


def _figures(ctx: Ctx) -> dict[str, Any]:
    s = corpus_stats(ctx)
    return {"papers": s["papers"], "accepted": s["accepted"], "with_abstract": s["with_abstract"],
            "venues": s["venues"], "venue_years": s["venue_years"], "authors": s["authors"],
            "updated": ctx.cache.get("last_ingest", ctx.store.last_ingest)}


def build_home(ctx: Ctx) -> dict[str, Any]:
    """Search box, corpus figures, the newest conference-years, conferences by field."""
    rows = venue_stats(ctx)
    # each conference's newest year; the newest years first, the largest conferences first within a year
    latest = sorted(((y, -r["papers"], r["key"]) for r in rows.values() if r["kind"] == "conference"
                     and not r["parent"] for y in r["years"][-1:]), key=lambda t: (-t[0], t[1], t[2]))
    newest_year = latest[0][0] if latest else None
    recent = []
    for y, _, key in latest:
        if newest_year is not None and y >= newest_year - 1:
            recent.append({"key": key, "short": rows[key]["short"], "year": y, "href": venue_path(key, y)})
    return {"page": "home", "figures": _figures(ctx), "recent": recent[:16],
            "fields": _by_field(ctx, ("conference",), top_level=True)}


def build_conferences(ctx: Ctx) -> dict[str, Any]:
    """Every venue with papers, grouped by field, then by kind."""
    sections = []
    for kind in ("conference", "journal", "workshop"):
        groups = _by_field(ctx, (kind,), top_level=False)
        if groups:
            sections.append({"kind": kind, "label": KIND[kind], "fields": groups})
    return {"page": "conferences", "figures": _figures(ctx), "sections": sections}


def canonical_venue(ctx: Ctx, name: str, rest: str = "") -> str:
    """The venue key for a URL segment; aliases and other spellings redirect, unknown ones are 404."""
    key = venues.resolve(name) or name.lower()
    if key not in venue_stats(ctx):
        raise NotFound(N_("We have no papers from this venue."), name)
    if key != name:
        raise Redirect(venue_path(key) + rest)
    return key


def build_venue(ctx: Ctx, name: str) -> dict[str, Any]:
    """A venue: its years with counts and status breakdown, and a chart of papers per year."""
    key = canonical_venue(ctx, name)
    v = venues.get(key)
    rows = ctx.cache.get(("venue_years", key), lambda: ctx.store.venue_year_counts(key))
    stats = venue_stats(ctx)
    years = [{"year": r["year"], "href": venue_path(key, r["year"]), "total": r["total"], "accepted": r["accepted"],
              "with_abstract": r["with_abstract"], "with_authors": r["with_authors"], "updated": r["updated"],
              "oral": r["statuses"].get("oral", 0),
              "spotlight": r["statuses"].get("spotlight", 0) + r["statuses"].get("highlight", 0),
              "poster": r["statuses"].get("poster", 0),
              "rejected": sum(r["statuses"].get(s, 0) for s in ("rejected", "withdrawn", "desk-rejected"))}
             for r in reversed(rows)]
    related = [_venue_entry(stats[k]) for k in venues.children(key) if k in stats]
    if v.parent and v.parent in stats:
        related.insert(0, _venue_entry(stats[v.parent]))
    return {"page": "venue", "venue": {"key": key, "short": v.short, "name": v.name, "kind": v.kind,
                                       "field": v.field, "field_name": _field_name(v.field, ctx.lang),
                                       "papers": stats[key]["papers"], "accepted": stats[key]["accepted"]},
            "years": years, "related": related, "chart": year_bars(rows),
            "links": format_links(venue_path(key), [], exports=False, atom=venue_feed(key)),
            "totals": {k: sum(y[k] for y in years) for k in ("oral", "spotlight", "poster", "rejected")}}


def _year_coverage(ctx: Ctx, key: str, year: int) -> dict[str, Any]:
    """What the library holds of a conference-year: how many papers have an abstract and authors,
    and which sources gave them, when each was last ingested."""
    rows = ctx.cache.get(("venue_years", key), lambda: ctx.store.venue_year_counts(key))
    row = next((r for r in rows if r["year"] == year), None) or {}
    files = ctx.cache.get(("year_sources", key, year), lambda: ctx.store.venue_year_sources(key, year))
    by_source: dict[str, dict[str, Any]] = {}
    for f in files:
        s = by_source.setdefault(f["source"], {"source": f["source"], "name": SOURCE_TITLES.get(f["source"], f["source"]),
                                               "papers": 0, "updated": f["ingested_at"]})
        s["papers"] = max(s["papers"], f["papers"])
        s["updated"] = max(s["updated"], f["ingested_at"])
    return {"papers": row.get("total", 0), "with_abstract": row.get("with_abstract", 0),
            "with_authors": row.get("with_authors", 0), "updated": row.get("updated"),
            "sources": sorted(by_source.values(), key=lambda s: -s["papers"])}


def build_coverage(ctx: Ctx) -> dict[str, Any]:
    """Every venue-year: papers, how many have an abstract and authors, when its sources were last
    ingested: "titles only" at a glance. Newest years first, then the largest."""
    rows = ctx.cache.get(("coverage", None), lambda: ctx.store.coverage(None))
    stats = venue_stats(ctx)
    out = [{"venue": r["venue"], "short": stats[r["venue"]]["short"] if r["venue"] in stats else r["venue"],
            "kind": stats[r["venue"]]["kind"] if r["venue"] in stats else "conference", "year": r["year"],
            "href": venue_path(r["venue"], r["year"]), "papers": r["papers"], "with_abstract": r["with_abstract"],
            "with_authors": r["with_authors"], "updated": r["updated"],
            "sources": sorted({SOURCE_TITLES.get(s["source"], s["source"]) for s in r["sources"]})}
           for r in rows]
    out.sort(key=lambda r: (-r["year"], -r["papers"], r["venue"]))
    return {"page": "coverage", "figures": _figures(ctx), "rows": out,
            "titles_only": sum(1 for r in out if not r["with_abstract"] and not r["with_authors"])}


@dataclass(slots=True)
class ListQuery:
    """A conference-year list as a URL asks for it: venue, year, filters (the page, the API and the
    exports read the same parameters the same way)."""

    key: str
    year: int
    stats: dict[str, Any]
    flt: ListFilter
    q: str


def venue_year(ctx: Ctx, name: str, year_s: str, rest: str = "") -> tuple[str, int, dict[str, Any]]:
    """(venue key, year, venue stats) of a conference-year page: unknown venues and years are 404s,
    aliases redirect (to the same page: ``rest`` is the path after the year)."""
    if not year_s.isdigit() or len(year_s) != 4:
        raise NotFound(N_("There is no such year."), year_s[:20])
    year = int(year_s)
    key = canonical_venue(ctx, name, f"/{year}{rest}")
    stats = venue_stats(ctx)[key]
    if year not in stats["years"]:
        raise NotFound(N_("We have no papers from this venue in this year."), f"{stats['short']} {year}")
    return key, year, stats


def list_query(ctx: Ctx, name: str, year_s: str, params: Mapping[str, Any]) -> ListQuery:
    """Check a conference-year list's venue, year, ``status`` / ``track`` / ``q`` filters; unknown
    venues and years are 404s, aliases redirect, malformed filters are 400s."""
    key, year, stats = venue_year(ctx, name, year_s)
    statuses = list(dict.fromkeys(params.getlist("status") if hasattr(params, "getlist") else []))
    for s in statuses:
        if s not in STATUSES and s != "unknown":
            raise BadRequest(N_("A parameter has a value this page does not understand."), f"status={s[:40]}")
    track = (params.get("track") or "").strip() or None
    q = (params.get("q") or "").strip()[:200]
    return ListQuery(key, year, stats, ListFilter(statuses=statuses, track=track, words=q.split()[:8]), q)


def list_ids(ctx: Ctx, lq: ListQuery, limit: int) -> list[str]:
    """The ids of a conference-year list, in the list's order (what its exports contain)."""
    return [r["id"] for r in ctx.store.list_papers(lq.key, lq.year, lq.flt, limit=limit)[1]]


def link_params(lq: ListQuery) -> list[tuple[str, Any]]:
    """A list's filters as URL parameters."""
    return [("q", lq.q)] + [("status", s) for s in lq.flt.statuses] + [("track", lq.flt.track)]


def venue_feed(key: str) -> str:
    """The Atom feed of a venue's newest papers."""
    return href(API_ROOT + venue_path(key), [("format", "atom")])


def build_venue_year(ctx: Ctx, name: str, year_s: str, params: Mapping[str, Any],
                     any_per_page: bool = False) -> dict[str, Any]:
    """The complete paper list of one conference-year, with status / track / keyword filters.
    ``per_page`` is one of PER_PAGE_CHOICES (the page's links), or with ``any_per_page`` (the API)
    any number from 1 to MAX_LIST_PAGE."""
    lq = list_query(ctx, name, year_s, params)
    key, year, stats, q = lq.key, lq.year, lq.stats, lq.q
    statuses, track = lq.flt.statuses, lq.flt.track
    per_raw = params.get("per_page") or "100"
    if per_raw not in PER_PAGE_CHOICES and not any_per_page:
        raise BadRequest(N_("A parameter has a value this page does not understand."), f"per_page={per_raw[:20]}")
    per_page = None if per_raw == "all" else int_param(params, "per_page", 100, 1, MAX_LIST_PAGE)
    page = int_param(params, "page", 1, 1, 100_000) or 1
    total, rows = ctx.store.list_papers(key, year, lq.flt, offset=(page - 1) * (per_page or 0), limit=per_page)
    pages = 1 if per_page is None else max(1, -(-total // per_page))
    if page > pages:
        raise BadRequest(N_("This page number is past the last page."), f"page={page} (1–{pages})")
    facets = ctx.store.list_facets(key, year)
    base = venue_path(key, year)

    def link(**change: Any) -> str:
        state = {"q": q, "status": statuses, "track": track, "per_page": per_raw if per_raw != "100" else None}
        state.update(change)
        items = [("q", state["q"])] + [("status", s) for s in state["status"] or []] + [
            ("track", state["track"]), ("per_page", state["per_page"]), ("page", state.get("page"))]
        return href(base, items)

    status_links = [{"value": s or "unknown", "label": STATUS[status_key(s)], "count": n,
                     "active": (s or "unknown") in statuses,
                     "href": link(status=[x for x in statuses if x != (s or "unknown")]
                                  if (s or "unknown") in statuses else statuses + [s or "unknown"])}
                    for s, n in facets["status"].items()]
    track_links = [{"value": t, "count": n, "active": t == track, "href": link(track=None if t == track else t)}
                   for t, n in facets["track"].items() if t]
    all_years = sorted(stats["years"])
    i = all_years.index(year)
    return {
        "page": "venue_year", "venue": {"key": key, "short": stats["short"], "name": stats["name"],
                                        "href": venue_path(key)},
        "year": year, "total": total, "year_total": sum(facets["status"].values()),
        "papers": [card(r) for r in rows],
        "filters": {"q": q, "status": statuses, "track": track, "per_page": per_raw},
        "status_links": status_links, "track_links": track_links if len(track_links) > 1 or track else [],
        "clear_href": base if (q or statuses or track) else None,
        "per_page_links": [{"value": c, "href": link(per_page=None if c == "100" else c), "active": c == per_raw}
                           for c in PER_PAGE_CHOICES],
        "pagination": {"page": page, "pages": pages, "per_page": per_page,
                       "prev": link(page=page - 1 if page > 2 else None) if page > 1 else None,
                       "next": link(page=page + 1) if page < pages else None,
                       "first_index": (page - 1) * (per_page or 0) + 1},
        "links": format_links(base, link_params(lq), [("per_page", per_raw if per_raw != "100" else None),
                                                     ("page", page if page != 1 else None)], atom=venue_feed(key)),
        "coverage": _year_coverage(ctx, key, year),
        "prev_year": {"year": all_years[i - 1], "href": venue_path(key, all_years[i - 1])} if i > 0 else None,
        "next_year": ({"year": all_years[i + 1], "href": venue_path(key, all_years[i + 1])}
                      if i + 1 < len(all_years) else None),
    }
