"""Topic pages: every topic with counts and sparklines, one topic's papers with venue and year
filters and its statistics, and a conference-year's topics (as the seed site has them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import venues
from ...topics import taxonomy
from ...topics.stats import overview, topic_detail
from ..i18n import N_
from ..topic_charts import sparkline, stacked_by_venue
from .base import BadRequest, Ctx, NotFound, Redirect, card, href, int_param, venue_path, venue_stats
from .venues import venue_year

PER_PAGE = 50
SPARK_YEARS = 12             # sparklines show the last dozen years: topics are a recent story


def topic_path(slug: str, venue: str | None = None, year: int | None = None) -> str:
    return (f"{venue_path(venue, year)}/topics/{slug}" if venue and year else f"/topics/{slug}")


def _topic_ref(slug: str, lang: str, venue: str | None = None, year: int | None = None) -> dict[str, Any]:
    t = taxonomy().get(slug)
    return {"slug": slug, "name": t.name(lang) if t else slug, "href": topic_path(slug, venue, year)}


def paper_topics(ctx: Ctx, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Topic links for papers (paper pages and cards)."""
    return {pid: [_topic_ref(s, ctx.lang) for s in slugs] for pid, slugs in ctx.store.topics_of(ids).items()}


def _corpus_years(ctx: Ctx) -> list[int]:
    years = sorted({y for r in venue_stats(ctx).values() for y in r["years"]})
    last = years[-1] if years else 2025
    return list(range(last - SPARK_YEARS + 1, last + 1))


def build_topics(ctx: Ctx) -> dict[str, Any]:
    """Every area and topic: papers, papers per year (sparkline), main venues."""
    data = ctx.cache.get("topic_overview", lambda: overview(ctx.store))
    years = _corpus_years(ctx)
    areas = []
    for a in data:
        areas.append({"slug": a["slug"], "name": a[ctx.lang], "desc": a[f"desc_{ctx.lang}"], "papers": a["papers"],
                      "href": topic_path(a["slug"]), "spark": sparkline(a["years"], years), "topics": [
                          {"slug": t["slug"], "name": t[ctx.lang], "desc": t[f"desc_{ctx.lang}"], "papers": t["papers"],
                           "href": topic_path(t["slug"]), "spark": sparkline(t["years"], years),
                           "recent": sum(n for y, n in t["years"].items() if y >= years[-3]),
                           "venues": [{"key": v, "short": venues.get(v).short, "count": n}
                                      for v, n in list(t["venues"].items())[:3]]}
                          for t in a["topics"]]})
    return {"page": "topics", "areas": areas, "years": {"first": years[0], "last": years[-1]},
            "assigned": any(a["papers"] for a in areas)}


def _topic(slug: str) -> Any:
    t = taxonomy().get(slug)
    if t is None:
        if slug != slug.lower() and taxonomy().get(slug.lower()):
            raise Redirect(topic_path(slug.lower()))
        raise NotFound(N_("There is no such topic."), slug[:80])
    return t


def build_topic(ctx: Ctx, slug: str, params: Mapping[str, Any], venue_seg: str | None = None,
                year_seg: str | None = None) -> dict[str, Any]:
    """A topic (or area): description, chart of papers per year by venue, counts per venue and
    year, and its papers, filterable by venue and year (fixed on a conference-year's topic page)."""
    t = _topic(slug)
    scoped = venue_seg is not None
    venue: str | None
    if scoped:
        venue, year_n, _ = venue_year(ctx, venue_seg or "", year_seg or "", f"/topics/{slug}")
        year: int | None = year_n
    else:
        raw_v = (params.get("venue") or "").strip()
        venue = (venues.resolve(raw_v) or raw_v.lower()) if raw_v else None
        if venue and venue not in venue_stats(ctx):
            raise BadRequest(N_("A parameter has a value this page does not understand."), f"venue={raw_v[:40]}")
        year = int_param(params, "year", None, 1900, 2100)
    page = int_param(params, "page", 1, 1, 10_000) or 1
    tax = taxonomy()
    leaves = tax.leaves(slug)
    detail = ctx.cache.get(("topic", slug), lambda: topic_detail(ctx.store, slug)) or {}
    vy = {(k.split(":")[0], int(k.split(":")[1])): n for k, n in detail.get("venue_years", {}).items()}
    total = ctx.store.topic_paper_count(leaves, venue, year)
    pages = max(1, -(-total // PER_PAGE))
    if page > pages:
        raise BadRequest(N_("This page number is past the last page."), f"page={page} (1–{pages})")
    cards = ctx.store.topic_cards(leaves, venue, year, offset=(page - 1) * PER_PAGE, limit=PER_PAGE)
    tops = paper_topics(ctx, [c["id"] for c in cards])
    base = topic_path(slug, venue, year) if scoped else topic_path(slug)

    def link(**change: Any) -> str:
        state = {"venue": None if scoped else venue, "year": None if scoped else year, "page": None}
        state.update(change)
        return href(base, [(k, v) for k, v in state.items() if v is not None])

    labels = {v: venues.get(v).short for v, _ in vy}
    venue_totals = sorted(((v, sum(n for (vv, _), n in vy.items() if vv == v)) for v in {v for v, _ in vy}),
                          key=lambda kv: -kv[1])
    years_all = sorted({y for _, y in vy}, reverse=True)
    recent = years_all[:6]
    table = [{"venue": v, "short": labels[v], "href": link(venue=v, page=None), "total": n,
              "years": [vy.get((v, y), 0) for y in recent]} for v, n in venue_totals[:15]]
    parent = _topic_ref(t.parent, ctx.lang) if t.parent else None
    children = [_topic_ref(c.slug, ctx.lang) | {"papers": ctx.store.topic_paper_count([c.slug], venue, year)}
                for c in tax.children(slug)] if t.is_area else []
    siblings = [_topic_ref(c.slug, ctx.lang) for c in tax.children(t.parent) if c.slug != slug] if t.parent else []
    conf = None
    if scoped and venue and year:
        st = venue_stats(ctx)[venue]
        conf = {"key": venue, "short": st["short"], "year": year, "href": venue_path(venue, year),
                "topics_href": venue_path(venue, year) + "/topics"}
    return {
        "page": "topic", "slug": slug, "name": t.name(ctx.lang), "name_en": t.en, "name_zh": t.zh,
        "desc": t.desc(ctx.lang), "is_area": t.is_area, "parent": parent, "children": children,
        "siblings": siblings, "conference": conf,
        "papers_total": detail.get("papers", 0), "total": total,
        "filters": {"venue": venue, "year": year},
        "venue_links": [] if scoped else [{"key": v, "short": labels[v], "count": n, "active": v == venue,
                                           "href": link(venue=None if v == venue else v)} for v, n in venue_totals[:20]],
        "year_links": [] if scoped else [{"year": y, "active": y == year, "href": link(year=None if y == year else y)}
                                         for y in years_all[:15]],
        "clear_href": link(venue=None, year=None) if (venue or year) and not scoped else None,
        "chart": stacked_by_venue({k: n for k, n in vy.items() if not venue or k[0] == venue}, labels),
        "table": {"years": recent, "rows": table},
        "search_href": href("/search", [("q", ""), ("topic", slug)] + ([("venue", venue)] if venue else [])
                            + ([("year", year)] if year else [])),
        "papers": [card(c) | {"topics": tops.get(c["id"], [])} for c in cards],
        "pagination": {"page": page, "pages": pages, "first_index": (page - 1) * PER_PAGE + 1,
                       "prev": link(page=page - 1 if page > 2 else None) if page > 1 else None,
                       "next": link(page=page + 1) if page < pages else None},
    }


def build_venue_year_topics(ctx: Ctx, venue_seg: str, year_seg: str) -> dict[str, Any]:
    """A conference-year's topics with paper counts (links to its topic pages)."""
    key, year, st = venue_year(ctx, venue_seg, year_seg, "/topics")
    data = ctx.cache.get(("topic_overview", key, year), lambda: overview(ctx.store, venue=key, year=year))
    areas = [{"slug": a["slug"], "name": a[ctx.lang], "papers": a["papers"], "topics": [
        {"slug": t["slug"], "name": t[ctx.lang], "papers": t["papers"], "href": topic_path(t["slug"], key, year)}
        for t in sorted(a["topics"], key=lambda t: -t["papers"]) if t["papers"]]} for a in data if a["papers"]]
    areas.sort(key=lambda a: -a["papers"])
    return {"page": "venue_topics", "venue": {"key": key, "short": st["short"], "name": st["name"],
                                              "href": venue_path(key)},
            "year": year, "year_href": venue_path(key, year), "areas": areas,
            "year_total": ctx.store.topic_paper_count(
                [t.slug for t in taxonomy().topics], key, year)}
