"""The shapes of what the service returns: plain dicts (sent as they are with orjson: no model is
built per response), typed here so that every layer that reads them is checked.

They are the JSON API's representations; ``web/api_models.py`` documents the same fields for
the OpenAPI document, and a test checks that the two agree.
"""

from __future__ import annotations

from typing import TypedDict

from ..search.model import Interpreted
from ..store.rows import CorpusStats

FormatLinks = dict[str, str | None]     # json, html, atom, bib, csv, jsonl (and prev / next for searches)


class AuthorRef(TypedDict):
    name: str
    key: str


class PaperAuthor(TypedDict):
    name: str
    key: str
    href: str
    affiliation: str | None


class PaperSummary(TypedDict):
    """A paper in a list (a conference-year, an author, a topic, similar papers)."""

    id: str
    href: str
    title: str
    title_plain: str
    authors: list[AuthorRef]
    venue: str
    venue_short: str
    year: int
    status: str | None
    accepted: bool
    track: str | None
    award: str | None
    citations: int | None
    abstract_head: str


class SimilarPaper(PaperSummary):
    score: float


class Link(TypedDict):
    kind: str
    label: str
    url: str


class ExternalId(TypedDict):
    kind: str
    name: str
    value: str
    url: str


class PaperVenue(TypedDict):
    key: str
    short: str
    name: str
    href: str
    year_href: str


class TopicRef(TypedDict):
    slug: str
    name: str
    zh: str
    score: float
    href: str
    conference_href: str


class PaperFields(TypedDict):
    """A paper's plain data: no HTML. The JSON Lines export writes it as it is."""

    id: str
    href: str
    title: str
    title_plain: str
    authors: list[PaperAuthor]
    venue: PaperVenue
    year: int
    status: str | None
    accepted: bool
    track: str | None
    award: str | None
    abstract: str | None
    tldr: str | None
    summary_zh: str | None
    keywords: list[str]
    primary_area: str | None
    citations: int | None
    institutions: list[str]
    links: list[Link]
    ids: list[ExternalId]
    bibtex: str
    bibtex_from_source: bool
    bib_href: str
    sources: list[str]


class PaperDetail(PaperFields):
    """One paper with its renderings (sanitized HTML), topics and related papers."""

    title_html: str
    abstract_html: str
    tldr_html: str
    summary_zh_html: str
    more_by_authors: list[PaperSummary]
    topics: list[TopicRef]
    similar: list[SimilarPaper]
    similar_method: str


class AuthorVenue(TypedDict):
    key: str
    short: str
    count: int
    href: str


class Coauthor(TypedDict):
    key: str
    name: str
    papers: int
    href: str


class AuthorDetail(TypedDict):
    key: str
    name: str
    href: str
    spellings: list[str]
    total: int
    first_year: int | None
    last_year: int | None
    venues: list[AuthorVenue]
    coauthors: list[Coauthor]
    links: FormatLinks
    papers: list[PaperSummary]


class SimilarPapers(TypedDict):
    id: str
    href: str
    method: str
    papers: list[SimilarPaper]


# --- search ---------------------------------------------------------------------------------
class SearchHit(TypedDict):
    id: str
    href: str
    title: str
    title_html: str
    authors: list[AuthorRef]
    venue: str
    venue_short: str
    year: int
    status: str | None
    accepted: bool
    track: str | None
    citations: int | None
    snippet_html: str
    score: float


class FacetValue(TypedDict):
    value: str
    label: str
    count: int
    selected: bool


class Facets(TypedDict):
    venue: list[FacetValue]
    year: list[FacetValue]
    status: list[FacetValue]
    topic: list[FacetValue]


class SearchQuery(TypedDict):
    q: str
    venues: list[str]
    year_from: int | None
    year_to: int | None
    statuses: list[str]
    topics: list[str]
    sort: str
    mode: str
    page: int
    per_page: int


class SearchResponse(TypedDict):
    query: SearchQuery
    total: int
    pages: int
    took_ms: float
    hits: list[SearchHit]
    facets: Facets
    suggestion: str | None
    interpreted: Interpreted
    links: FormatLinks


# --- venues ---------------------------------------------------------------------------------
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


class VenueDetail(TypedDict):
    venue: VenueInfo
    years: list[VenueYearRow]
    totals: dict[str, int]
    related: list[VenueSummary]
    links: FormatLinks


class VenueRef(TypedDict):
    key: str
    short: str
    name: str
    href: str


class CountLink(TypedDict):
    value: str
    count: int
    active: bool
    href: str


class Pagination(TypedDict):
    page: int
    pages: int
    per_page: int | None
    prev: str | None
    next: str | None
    first_index: int


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


class VenueYearList(TypedDict):
    venue: VenueRef
    year: int
    total: int
    year_total: int
    papers: list[PaperSummary]
    filters: ListFilters
    status_counts: list[CountLink]
    track_counts: list[CountLink]
    pagination: Pagination
    prev_year: int | None
    next_year: int | None
    coverage: YearCoverage
    links: FormatLinks


class CoverageSource(TypedDict):
    file: str
    source: str
    records: int
    ingested_at: str


class CoverageRow(TypedDict):
    venue: str
    year: int
    papers: int
    accepted: int
    with_abstract: int
    with_authors: int
    updated: str | None
    sources: list[CoverageSource]


class Coverage(TypedDict):
    rows: list[CoverageRow]
    total: int


class Stats(CorpusStats):
    """The corpus figures (the store's) and when a source file was last ingested."""

    last_ingest: str | None


# --- topics ---------------------------------------------------------------------------------
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
