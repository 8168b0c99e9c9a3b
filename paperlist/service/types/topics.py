"""Topics and areas, and a paper's reference to one."""

from __future__ import annotations

from typing import TypedDict

from .common import Pagination, PaperSummary


class TopicRef(TypedDict):
    slug: str
    name: str
    zh: str
    score: float
    href: str
    conference_href: str


class TopicSummary(TypedDict):
    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None
    papers: int
    years: dict[str, int]
    venues: dict[str, int]
    href: str


class TopicArea(TopicSummary):
    topics: list[TopicSummary]


class TopicList(TypedDict):
    areas: list[TopicArea]
    venue: str | None
    year: int | None
    topics: int


class VenueYearCount(TypedDict):
    venue: str
    year: int
    papers: int


class TopicPaper(PaperSummary):
    topics: list[str]


class TopicFilters(TypedDict):
    venue: str | None
    year: int | None


class TopicDetail(TypedDict):
    slug: str
    en: str
    zh: str
    desc: str
    is_area: bool
    parent: str | None
    topics: list[str]
    papers: int
    years: dict[str, int]
    venues: dict[str, int]
    venue_years: list[VenueYearCount]
    filters: TopicFilters
    total: int
    pagination: Pagination
    list: list[TopicPaper]
    href: str
