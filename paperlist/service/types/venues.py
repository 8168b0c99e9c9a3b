"""Venues and their years, what the library holds of each (coverage) and the corpus figures."""

from __future__ import annotations

from typing import TypedDict

from ...store.rows import CorpusStats, CoverageFile, CoverageRow
from .common import FormatLinks, Pagination, PaperSummary, VenueRef


class VenueSummary(TypedDict):
    key: str
    short: str
    name: str
    kind: str
    field: str
    parent: str | None
    aliases: list[str]
    papers: int
    accepted: int
    years: list[int]
    href: str


class VenueList(TypedDict):
    venues: list[VenueSummary]
    total: int


class LatestProceedings(TypedDict):
    key: str
    short: str
    year: int
    href: str
    papers: int                 # the year's accepted papers (all listed ones where none is marked)
    with_authors: int           # of all the year's listed papers
    with_abstract: int
    listed: int                 # every paper the year lists (the coverage counts' denominator)
    titles_only: bool           # fewer than one in twenty listed papers has authors or an abstract


class FeaturedProceedings(TypedDict):
    """The newest proceedings whose papers have their authors: what the home page leads with."""

    venue: VenueRef
    year: int
    href: str                   # the full list
    stats_href: str
    papers: list[PaperSummary]  # the first of its list: the most selective decisions first
    total: int                  # the year's accepted papers
    statuses: list[str]         # the decisions among them, most selective first ("oral", "spotlight")
    with_abstract: int


class VenueYearRow(TypedDict):
    year: int
    href: str
    total: int
    accepted: int
    oral: int
    spotlight: int
    poster: int
    rejected: int
    with_abstract: int
    with_authors: int
    updated: str | None


class VenueInfo(TypedDict):
    key: str
    short: str
    name: str
    href: str
    kind: str
    field: str
    field_name: str
    papers: int
    accepted: int


class VenueStatsRow(TypedDict):
    """One year of a venue, as the venue page compares them."""

    year: int
    href: str                        # the year's statistics page
    papers: int
    accepted: int
    listing: str
    acceptance_rate: float | None
    rated: int                       # papers with a mean rating
    mean_rating: float | None
    accepted_mean_rating: float | None


class VenueDetail(TypedDict):
    venue: VenueInfo
    years: list[VenueYearRow]
    totals: dict[str, int]
    related: list[VenueSummary]
    stats: list[VenueStatsRow]             # the figures year over year, newest first
    links: FormatLinks


class CountLink(TypedDict):
    value: str
    count: int
    active: bool
    href: str


class YearSource(TypedDict):
    source: str
    name: str
    papers: int
    updated: str


class YearCoverage(TypedDict):
    papers: int
    with_abstract: int
    with_authors: int
    updated: str | None
    sources: list[YearSource]


class ListFilters(TypedDict):
    """A conference-year list's filters as the request gave them."""

    q: str
    status: list[str]
    track: str | None
    per_page: str               # "100", "250" … or "all"
    decision: str               # "accepted" (the default), "not-accepted" or "all"
    sort: str                   # "decision" (the default: best first, then title), "title", "rating"
    topic: str | None           # a topic or area slug


class VenueYearList(TypedDict):
    venue: VenueRef
    year: int
    total: int
    year_total: int
    papers: list[PaperSummary]
    filters: ListFilters
    status_counts: list[CountLink]
    decision_counts: list[CountLink]    # accepted / not-accepted / all, where the year lists rejections
    topic_counts: list[CountLink]       # the year's busiest topics (slugs), accepted papers
    track_counts: list[CountLink]
    pagination: Pagination
    prev_year: int | None
    next_year: int | None
    coverage: YearCoverage
    links: FormatLinks


# The store's coverage rows are the service's as they are.
CoverageSource = CoverageFile


class Coverage(TypedDict):
    rows: list[CoverageRow]
    total: int


class Stats(CorpusStats):
    """The corpus figures (the store's) and when a source file was last ingested."""

    last_ingest: str | None
