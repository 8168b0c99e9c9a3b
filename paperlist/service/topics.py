"""Topics: every area and topic with counts (overall, or within a venue and/or year), one topic's
counts and papers, and a conference-year's topics. Names come in English and Chinese (``en``,
``zh``); the site shows the one of its language."""

from __future__ import annotations

from typing import TypedDict

from .. import venues as venue_registry
from ..taxonomy import Topic, taxonomy
from ..topics.stats import AreaCounts, TopicCounts, TopicStats, overview, stored_detail, topic_detail
from .errors import N_, BadRequest, Moved, NotFound
from .home import Home
from .papers import summary
from .paths import href, topic_path, venue_path
from .types import TopicArea, TopicDetail, TopicList, TopicSummary, VenueRef
from .venues import venue_rows, venue_year

PER_PAGE = 50


class ConferenceTopic(TypedDict):
    slug: str
    en: str
    zh: str
    papers: int
    href: str                   # the topic at the conference-year


class ConferenceArea(TypedDict):
    slug: str
    en: str
    zh: str
    papers: int
    topics: list[ConferenceTopic]


class ConferenceTopics(TypedDict):
    """A conference-year's areas and topics (``venue_year_topics``; the site's page only)."""

    venue: VenueRef
    year: int
    year_href: str
    areas: list[ConferenceArea]
    year_total: int


def _summary(t: TopicCounts) -> TopicSummary:
    return {"slug": t["slug"], "en": t["en"], "zh": t["zh"], "desc_en": t["desc_en"], "desc_zh": t["desc_zh"],
            "parent": t["parent"], "papers": t["papers"], "years": {str(y): n for y, n in t["years"].items()},
            "venues": t.get("venues", {}), "href": topic_path(t["slug"])}


def overview_data(home: Home, venue: str | None = None, year: int | None = None) -> list[AreaCounts]:
    """``topics.stats.overview`` (cached): every area with its topics and their counts."""
    data: list[AreaCounts] = home.cache.get(("topic_overview", venue, year),
                                            lambda: overview(home.store, venue=venue, year=year))
    return data


def topics(home: Home, venue: str | None = None, year: int | None = None) -> TopicList:
    """Every area and topic with papers, papers per year and top venues; ``venue`` / ``year`` count
    one conference(-year) only."""
    if venue is not None:
        key = venue_registry.resolve(venue) or venue.lower()
        if key not in venue_rows(home):
            raise NotFound(N_("We have no papers from this venue."), venue[:100])
        venue = key
    areas: list[TopicArea] = [{**_summary(a), "topics": [_summary(t) for t in a["topics"]]}
                              for a in overview_data(home, venue, year)]
    return {"areas": areas, "venue": venue, "year": year, "topics": sum(len(a["topics"]) for a in areas)}


def find_topic(slug: str) -> Topic:
    t = taxonomy().get(slug)
    if t is None:
        if slug != slug.lower() and taxonomy().get(slug.lower()):
            raise Moved(topic_path(slug.lower()))
        raise NotFound(N_("There is no such topic."), slug[:80])
    return t


def topic_filter(home: Home, venue: str | None, year: int | None) -> tuple[str | None, int | None]:
    """A topic list's venue filter as a key (an alias resolves; an unknown venue is a BadRequest)."""
    raw = (venue or "").strip()
    key = (venue_registry.resolve(raw) or raw.lower()) if raw else None
    if key and key not in venue_rows(home):
        raise BadRequest(N_("A parameter has a value this page does not understand."), f"venue={raw[:40]}")
    return key, year


def stats(home: Home, slug: str) -> TopicStats | None:
    """``topics.stats.topic_detail`` (cached): a topic's counts per year, venue and venue-year
    (None for an unknown slug)."""
    detail: TopicStats | None = home.cache.get(
        ("topic", slug), lambda: stored_detail(home.store, slug) or topic_detail(home.store, slug))
    return detail


def topic(home: Home, slug: str, venue: str | None = None, year: int | None = None, page: int = 1,
          scope: tuple[str, str] | None = None) -> TopicDetail:
    """A topic or area: names, counts per year and per venue and year, and one page of its papers
    (newest year first, then those most clearly about it), filtered by venue and year — or, with
    ``scope`` (venue and year as a conference-year page's path gives them), within that one."""
    t = find_topic(slug)
    if scope is not None:
        key, year_n, _ = venue_year(home, scope[0], scope[1], f"/topics/{slug}")
        venue, year = key, year_n
    else:
        venue, year = topic_filter(home, venue, year)
    leaves = taxonomy().leaves(slug)
    detail = stats(home, slug)
    # the unfiltered count is the cached statistics' (an area's distinct papers cost 65 ms to count)
    total = detail["papers"] if detail and not venue and not year else \
        home.store.topic_paper_count(leaves, venue, year)
    pages = max(1, -(-total // PER_PAGE))
    if page > pages:
        raise BadRequest(N_("This page number is past the last page."), f"page={page} (1–{pages})")
    unfiltered = detail is not None and not venue and not year
    cards = home.store.topic_cards(leaves, venue, year, offset=(page - 1) * PER_PAGE, limit=PER_PAGE,
                                   year_counts=detail["years"] if unfiltered and detail else None)
    tops = home.store.topics_of([c["id"] for c in cards])
    base = topic_path(slug, venue, year) if scope else topic_path(slug)

    def page_href(n: int | None) -> str:
        state = [] if scope else [("venue", venue), ("year", year)]
        return href(base, [*state, ("page", n)])

    return {
        "slug": slug, "en": t.en, "zh": t.zh, "desc": t.desc_en, "is_area": t.is_area, "parent": t.parent,
        "topics": [c.slug for c in taxonomy().children(slug)] if t.is_area else [],
        "papers": detail["papers"] if detail else 0,
        "years": {str(y): n for y, n in (detail["years"] if detail else {}).items()},
        "venues": detail["venues"] if detail else {},
        "venue_years": [{"venue": k.split(":")[0], "year": int(k.split(":")[1]), "papers": n}
                        for k, n in (detail["venue_years"] if detail else {}).items()],
        "filters": {"venue": venue, "year": year}, "total": total,
        "pagination": {"page": page, "pages": pages, "per_page": PER_PAGE,
                       "first_index": (page - 1) * PER_PAGE + 1,
                       "prev": page_href(page - 1 if page > 2 else None) if page > 1 else None,
                       "next": page_href(page + 1) if page < pages else None},
        "list": [{**summary(c), "topics": tops.get(c["id"], [])} for c in cards],
        "href": topic_path(slug),
    }


def child_counts(home: Home, slug: str, venue: str | None, year: int | None) -> dict[str, int]:
    """An area's topics with their paper counts (within a venue and/or year)."""
    return {c.slug: home.store.topic_paper_count([c.slug], venue, year) for c in taxonomy().children(slug)}


def venue_year_topics(home: Home, venue_seg: str, year_seg: str) -> ConferenceTopics:
    """A conference-year's areas and topics with paper counts, busiest first."""
    key, year, row = venue_year(home, venue_seg, year_seg, "/topics")
    areas: list[ConferenceArea] = [
        {"slug": a["slug"], "en": a["en"], "zh": a["zh"], "papers": a["papers"], "topics": [
            {"slug": t["slug"], "en": t["en"], "zh": t["zh"], "papers": t["papers"],
             "href": topic_path(t["slug"], key, year)}
            for t in sorted(a["topics"], key=lambda t: -t["papers"]) if t["papers"]]}
        for a in overview_data(home, key, year) if a["papers"]]
    areas.sort(key=lambda a: -a["papers"])
    return {"venue": {"key": key, "short": row["short"], "name": row["name"], "href": venue_path(key)},
            "year": year, "year_href": venue_path(key, year), "areas": areas,
            "year_total": home.store.topic_paper_count([t.slug for t in taxonomy().topics], key, year)}
