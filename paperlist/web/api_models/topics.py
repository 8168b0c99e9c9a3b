"""Topics and areas (`/topics`, `/topics/{slug}`) and a paper's reference to one."""

from __future__ import annotations

from pydantic import Field

from .common import Model, Pagination, PaperSummary


class TopicRef(Model):
    slug: str = Field(description="Topic slug (`/api/v1/topics/{slug}`; `topic:` in search).")
    name: str
    zh: str = Field(description="The topic's Chinese name.")
    score: float = Field(description="0..1: how clearly the paper is about the topic (first = main topic).")
    href: str
    conference_href: str = Field(description="The topic at the paper's conference-year (site page).")


class TopicSummary(Model):
    slug: str
    en: str
    zh: str
    desc_en: str
    desc_zh: str
    parent: str | None = Field(description="The area of a topic; null for an area.")
    papers: int = Field(description="Distinct papers with the topic (at any rank).")
    years: dict[str, int] = Field(description="Papers per year.")
    venues: dict[str, int] = Field(default_factory=dict, description="Papers at the busiest venues.")
    href: str


class TopicArea(TopicSummary):
    topics: list[TopicSummary]


class TopicList(Model):
    areas: list[TopicArea]
    venue: str | None = Field(description="Counts restricted to this venue, or null.")
    year: int | None = Field(description="Counts restricted to this year, or null.")
    topics: int


class VenueYearCount(Model):
    venue: str
    year: int
    papers: int


class TopicPaper(PaperSummary):
    topics: list[str] = Field(description="The paper's topic slugs, main topic first.")


class TopicFilters(Model):
    venue: str | None = Field(description="The venue the list is restricted to, or null.")
    year: int | None = Field(description="The year the list is restricted to, or null.")


class TopicDetail(Model):
    slug: str
    en: str
    zh: str
    desc: str
    is_area: bool
    parent: str | None
    topics: list[str] = Field(description="For an area, its topics.")
    papers: int
    years: dict[str, int]
    venues: dict[str, int]
    venue_years: list[VenueYearCount] = Field(description="Topic statistics: papers per venue and year.")
    filters: TopicFilters
    total: int = Field(description="Papers matching the venue/year filters.")
    pagination: Pagination
    list: list[TopicPaper]
    href: str
