"""Topic statistics for pages, the API and the CLI: papers per topic, per year and per venue.

Counts are of distinct papers holding the topic at any rank (a paper about diffusion models for
3D reconstruction counts for both topics); an area counts each of its papers once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TypedDict

from ..store import Store
from ..taxonomy import Topic, taxonomy


class TopicCounts(TypedDict):
    """A topic or an area with its counts (``overview``)."""

    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None
    papers: int
    years: dict[int, int]       # papers per year, oldest first
    venues: dict[str, int]      # the busiest venues (at most 8), busiest first; empty for an area


class AreaCounts(TopicCounts):
    topics: list[TopicCounts]


class TopicStats(TypedDict):
    """One topic or area (``topic_detail``)."""

    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None
    is_area: bool
    leaves: list[str]
    papers: int
    years: dict[int, int]           # papers per year, oldest first
    venues: dict[str, int]          # papers per venue, busiest first
    venue_years: dict[str, int]     # "venue:year" -> papers


def overview(store: Store, venue: str | None = None, year: int | None = None) -> list[AreaCounts]:
    """Every area with its topics: slug, names, papers, papers per year (oldest first) and the
    venues with most papers. ``venue`` / ``year`` restrict the counts to one conference(-year)."""
    tax = taxonomy()
    counts = store.topic_counts(venue=venue, year=year)
    per_topic: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    per_venue: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (topic, y, v), n in counts.items():
        per_topic[topic][y] += n
        per_venue[topic][v] += n
    out: list[AreaCounts] = []
    for area in tax.areas:
        leaves = tax.children(area.slug)
        by_year = store.topic_year_counts([t.slug for t in leaves], venue=venue)
        if year is not None:
            by_year = {y: n for y, n in by_year.items() if y == year}
        out.append({**_entry(area, by_year, {}), "topics": [
            _entry(t, dict(per_topic.get(t.slug, {})), dict(per_venue.get(t.slug, {}))) for t in leaves]})
    return out


def _entry(t: Topic, by_year: dict[int, int], by_venue: dict[str, int]) -> TopicCounts:
    return {"slug": t.slug, "en": t.en, "zh": t.zh, "desc_en": t.desc_en, "desc_zh": t.desc_zh,
            "parent": t.parent, "papers": sum(by_year.values()),
            "years": dict(sorted(by_year.items())),
            "venues": dict(sorted(by_venue.items(), key=lambda kv: -kv[1])[:8])}


def topic_detail(store: Store, slug: str, venue: str | None = None) -> TopicStats | None:
    """One topic or area: papers per year, per venue and year, and (for an area) its topics."""
    tax = taxonomy()
    t = tax.get(slug)
    if t is None:
        return None
    leaves = tax.leaves(slug)
    by_vy = store.topic_venue_year_counts(leaves)
    if venue:
        by_vy = {k: n for k, n in by_vy.items() if k[0] == venue}
    by_year = store.topic_year_counts(leaves, venue=venue)
    venues: dict[str, int] = defaultdict(int)
    for (v, _y), n in by_vy.items():
        venues[v] += n
    return {"slug": t.slug, "en": t.en, "zh": t.zh, "desc_en": t.desc_en, "desc_zh": t.desc_zh,
            "parent": t.parent, "is_area": t.is_area, "leaves": leaves, "papers": sum(by_year.values()),
            "years": dict(sorted(by_year.items())),
            "venues": dict(sorted(venues.items(), key=lambda kv: -kv[1])),
            "venue_years": {f"{v}:{y}": n for (v, y), n in sorted(by_vy.items())}}


def all_details(store: Store) -> Iterator[tuple[str, TopicStats]]:
    """Every area's and topic's ``topic_detail``: what topic assignment stores for the pages."""
    tax = taxonomy()
    for t in (*tax.areas, *tax.topics):
        d = topic_detail(store, t.slug)
        if d is not None:
            yield t.slug, d


def stored_detail(store: Store, slug: str) -> TopicStats | None:
    """A topic's ``topic_detail`` as topic assignment stored it (None when not stored or stale)."""
    d = store.stored_topic_stats(slug)
    if not isinstance(d, dict):
        return None
    d["years"] = {int(y): n for y, n in d["years"].items()}          # JSON keys are text
    detail: TopicStats = d  # type: ignore[assignment]
    return detail
