"""Topic pages: every topic with counts and sparklines, one topic's papers with venue and year
filters and its statistics, and a conference-year's topics (as the seed site has them) — the
service's topics, with names in the page's language, charts and filter links."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ... import venues as venue_registry
from ...service import topics as st
from ...service.paths import href, topic_path, venue_path
from ...service.requests import YEAR_MAX, YEAR_MIN, int_param
from ...service.topics import ConferenceArea, ConferenceTopic
from ...service.venues import venue_rows
from ...topics import Topic, taxonomy
from ...topics.stats import TopicCounts
from ..charts import is_partial
from ..topic_charts import sparkline, stacked_by_venue
from .base import Ctx, card

SPARK_YEARS = 12             # sparklines show the last dozen years: topics are a recent story


def _name(t: TopicCounts | ConferenceArea | ConferenceTopic, lang: str) -> str:
    """An entry's name in the page's language (as ``Topic.name``)."""
    return t["zh"] if lang == "zh" else t["en"]


def _desc(t: TopicCounts, lang: str) -> str:
    return t["desc_zh"] if lang == "zh" else t["desc_en"]


def _topic_ref(slug: str, lang: str, venue: str | None = None, year: int | None = None) -> dict[str, Any]:
    t = taxonomy().get(slug)
    return {"slug": slug, "name": t.name(lang) if t else slug, "href": topic_path(slug, venue, year)}


def _corpus_years(ctx: Ctx) -> list[int]:
    years = sorted({y for r in venue_rows(ctx.home).values() for y in r["years"]})
    last = years[-1] if years else 2025
    return list(range(last - SPARK_YEARS + 1, last + 1))


def build_topics(ctx: Ctx) -> dict[str, Any]:
    """Every area and topic: papers, papers per year (sparkline), main venues."""
    data = st.overview_data(ctx.home)
    years = _corpus_years(ctx)
    areas = []
    for a in data:
        areas.append({"slug": a["slug"], "name": _name(a, ctx.lang), "desc": _desc(a, ctx.lang),
                      "papers": a["papers"],
                      "href": topic_path(a["slug"]), "spark": sparkline(a["years"], years), "topics": [
                          {"slug": t["slug"], "name": _name(t, ctx.lang), "desc": _desc(t, ctx.lang),
                           "papers": t["papers"], "href": topic_path(t["slug"]),
                           "spark": sparkline(t["years"], years),
                           "recent": sum(n for y, n in t["years"].items() if y >= years[-3]),
                           "venues": [{"key": v, "short": venue_registry.get(v).short, "count": n}
                                      for v, n in list(t["venues"].items())[:3]]}
                          for t in a["topics"]]})
    return {"page": "topics", "areas": areas,
            "years": {"first": years[0], "last": years[-1], "partial": is_partial(years[-1])},
            "assigned": any(a["papers"] for a in areas)}


def _topic_links(slug: str, scope: tuple[str, str] | None, venue: str | None,
                 year: int | None) -> Callable[..., str]:
    """Links to a topic page with some of its filters changed (on a conference-year's topic page
    the venue and year are the path, never parameters)."""
    base = topic_path(slug, venue, year) if scope else topic_path(slug)

    def link(**change: Any) -> str:
        state = {"venue": None if scope else venue, "year": None if scope else year, "page": None}
        state.update(change)
        return href(base, [(k, v) for k, v in state.items() if v is not None])
    return link


def _venue_totals(vy: dict[tuple[str, int], int]) -> list[tuple[str, int]]:
    """The topic's venues with their papers, most first."""
    return sorted(((v, sum(n for (vv, _), n in vy.items() if vv == v)) for v in {v for v, _ in vy}),
                  key=lambda kv: -kv[1])


def _relatives(ctx: Ctx, slug: str, t: Topic, counts: dict[str, int]) -> dict[str, Any]:
    """A topic's area, or an area's topics with their papers; the other topics of its area."""
    return {"parent": _topic_ref(t.parent, ctx.lang) if t.parent else None,
            "children": [_topic_ref(c, ctx.lang) | {"papers": n} for c, n in counts.items()],
            "siblings": [_topic_ref(c.slug, ctx.lang) for c in taxonomy().children(t.parent)
                         if c.slug != slug] if t.parent else []}


def _conference(ctx: Ctx, scope: tuple[str, str] | None, venue: str | None,
                year: int | None) -> dict[str, Any] | None:
    """The conference-year a topic page is scoped to (None on a topic's own page)."""
    if not (scope and venue and year):
        return None
    return {"key": venue, "short": venue_rows(ctx.home)[venue]["short"], "year": year,
            "href": venue_path(venue, year), "topics_href": venue_path(venue, year) + "/topics"}


def _filter_links(venue: str | None, year: int | None, venue_totals: list[tuple[str, int]],
                  years_all: list[int], labels: dict[str, str], link: Callable[..., str]) -> dict[str, Any]:
    """The venue and year filters of a topic's own page, each link adding or removing one."""
    return {"venue_links": [{"key": v, "short": labels[v], "count": n, "active": v == venue,
                             "href": link(venue=None if v == venue else v)} for v, n in venue_totals[:20]],
            "year_links": [{"year": y, "active": y == year, "href": link(year=None if y == year else y)}
                           for y in years_all[:15]],
            "clear_href": link(venue=None, year=None) if venue or year else None}


def build_topic(ctx: Ctx, slug: str, params: Mapping[str, Any], venue_seg: str | None = None,
                year_seg: str | None = None) -> dict[str, Any]:
    """A topic (or area): description, chart of papers per year by venue, counts per venue and
    year, and its papers, filterable by venue and year (fixed on a conference-year's topic page)."""
    scope = (venue_seg or "", year_seg or "") if venue_seg is not None else None
    year = int_param(params, "year", None, YEAR_MIN, YEAR_MAX)
    d = st.topic(ctx.home, slug, venue=params.get("venue"), year=year,
                 page=int_param(params, "page", 1, 1, 10_000) or 1, scope=scope)
    t = taxonomy().get(d["slug"])
    assert t is not None
    venue, year = d["filters"]["venue"], d["filters"]["year"]
    vy = {(r["venue"], r["year"]): r["papers"] for r in d["venue_years"]}
    link = _topic_links(slug, scope, venue, year)
    labels = {v: venue_registry.get(v).short for v, _ in vy}
    venue_totals = _venue_totals(vy)
    years_all = sorted({y for _, y in vy}, reverse=True)
    recent = years_all[:6]
    table = [{"venue": v, "short": labels[v], "href": link(venue=v, page=None), "total": n,
              "years": [vy.get((v, y), 0) for y in recent]} for v, n in venue_totals[:15]]
    counts = st.child_counts(ctx.home, slug, venue, year) if t.is_area else {}
    conf = _conference(ctx, scope, venue, year)
    return {
        "page": "topic", "slug": slug, "name": t.name(ctx.lang), "name_en": t.en, "name_zh": t.zh,
        "desc": t.desc(ctx.lang), "is_area": t.is_area, **_relatives(ctx, slug, t, counts),
        "conference": conf, "papers_total": d["papers"], "total": d["total"], "filters": d["filters"],
        **(_filter_links(venue, year, venue_totals, years_all, labels, link) if not scope
           else {"venue_links": [], "year_links": [], "clear_href": None}),
        "chart": stacked_by_venue({k: n for k, n in vy.items() if not venue or k[0] == venue}, labels),
        "table": {"years": recent, "rows": table},
        "search_href": href("/search", [("q", ""), ("topic", slug)] + ([("venue", venue)] if venue else [])
                            + ([("year", year)] if year else [])),
        "papers": [card(p) | {"topics": [_topic_ref(s, ctx.lang) for s in p["topics"]]} for p in d["list"]],
        "pagination": d["pagination"],
    }


def build_venue_year_topics(ctx: Ctx, venue_seg: str, year_seg: str) -> dict[str, Any]:
    """A conference-year's topics with paper counts (links to its topic pages)."""
    d = st.venue_year_topics(ctx.home, venue_seg, year_seg)
    areas = [{"slug": a["slug"], "name": _name(a, ctx.lang), "papers": a["papers"],
              "topics": [t | {"name": _name(t, ctx.lang)} for t in a["topics"]]} for a in d["areas"]]
    return {"page": "venue_topics", **d, "areas": areas}
