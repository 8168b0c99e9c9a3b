"""Venues and their years (`/venues`, `/venues/{key}`, `/venues/{key}/{year}`), what the library
holds of each (`/coverage`) and the corpus figures (`/stats`)."""

from __future__ import annotations

from pydantic import Field

from .common import FormatLinks, Model, Pagination, PaperSummary, VenueRef


class VenueSummary(Model):
    key: str
    short: str
    name: str
    kind: str = Field(description="conference, journal or workshop.")
    field: str = Field(description="ml, cv, nlp, ai, robotics …")
    parent: str | None = Field(description="The parent venue of a sub-venue (Findings of ACL → acl).")
    aliases: list[str]
    papers: int
    accepted: int
    years: list[int]
    href: str


class VenueList(Model):
    venues: list[VenueSummary]
    total: int


class VenueYearRow(Model):
    year: int
    href: str
    total: int
    accepted: int
    oral: int
    spotlight: int = Field(description="Spotlight and highlight papers.")
    poster: int
    rejected: int = Field(description="Rejected, withdrawn and desk-rejected submissions.")
    with_abstract: int = Field(description="Papers whose abstract the library holds.")
    with_authors: int = Field(description="Papers whose authors the library holds.")
    updated: str | None = Field(description="When a source file behind this year was last ingested "
                                            "(ISO 8601, UTC).")


class YearSource(Model):
    source: str = Field(description="The source kind (papercopilot, aitopconf …).")
    name: str = Field(description="Its display name.")
    papers: int = Field(description="Papers of this conference-year it lists.")
    updated: str = Field(description="When its file was last ingested (ISO 8601, UTC).")


class YearCoverage(Model):
    """What the library holds of a conference-year."""

    papers: int
    with_abstract: int
    with_authors: int
    updated: str | None
    sources: list[YearSource]


class VenueInfo(VenueRef):
    kind: str
    field: str
    field_name: str
    papers: int
    accepted: int


class VenueStatsRow(Model):
    year: int
    href: str = Field(description="The year's statistics page.")
    papers: int
    accepted: int
    listing: str
    acceptance_rate: float | None
    rated: int
    mean_rating: float | None
    accepted_mean_rating: float | None


class VenueDetail(Model):
    venue: VenueInfo
    years: list[VenueYearRow] = Field(description="Newest year first.")
    totals: dict[str, int]
    related: list[VenueSummary] = Field(description="The parent venue and sub-venues (Findings, workshops).")
    stats: list[VenueStatsRow] = Field(description="The figures year over year, newest first.")
    links: FormatLinks


class CountLink(Model):
    value: str
    count: int
    active: bool
    href: str


class ListFilters(Model):
    """A conference-year list's filters, as the request gave them."""

    q: str = Field(description="Keywords that must all appear in the title, an author or the abstract.")
    status: list[str] = Field(description="Statuses (OR-ed; `unknown`: no source says).")
    track: str | None
    per_page: str = Field(description="Papers per page as the list's URLs write it: `100`, `250` … or `all`.")
    decision: str = Field(description="`accepted` (the default), `not-accepted` (rejected, withdrawn, desk-"
                                      "rejected) or `all` listed submissions; statuses, when given, decide.")
    sort: str = Field(description="`decision` (best decision first, then title; the default), `title`, or "
                                  "`rating` (highest mean review rating first, unrated last).")
    topic: str | None = Field(None, description="A topic or area slug the list is narrowed to.")


class VenueYearList(Model):
    venue: VenueRef
    year: int
    total: int = Field(description="Papers matching the filters.")
    year_total: int = Field(description="All papers of this conference-year.")
    papers: list[PaperSummary]
    filters: ListFilters
    status_counts: list[CountLink]
    decision_counts: list[CountLink] = Field(default_factory=list, description=(
        "Papers accepted, not accepted and all listed, with links; empty where the year lists no "
        "rejected papers."))
    topic_counts: list[CountLink] = Field(default_factory=list, description=(
        "The year's busiest topics (slugs) by accepted papers, each a link narrowing the list to it."))
    track_counts: list[CountLink]
    pagination: Pagination
    prev_year: int | None
    next_year: int | None
    coverage: YearCoverage
    links: FormatLinks


class Stats(Model):
    papers: int
    accepted: int
    with_abstract: int
    venues: int = Field(description="Top-level venues (sub-venues such as Findings count with their parent).")
    venue_keys: int
    venue_years: int
    authors: int
    records: int = Field(description="Source records merged into the papers.")
    files: int
    sources: dict[str, int] = Field(description="Source files per source kind.")
    pending_merge: int
    last_ingest: str | None = Field(description="When a source file was last ingested (ISO 8601, UTC).")


class CoverageSource(Model):
    file: str
    source: str
    records: int
    ingested_at: str


class CoverageRow(Model):
    venue: str
    year: int
    papers: int
    accepted: int
    with_abstract: int
    with_authors: int = Field(description="Papers whose authors the library holds.")
    updated: str | None = Field(description="When a source file behind it was last ingested (ISO 8601, UTC).")
    sources: list[CoverageSource]


class Coverage(Model):
    rows: list[CoverageRow]
    total: int
