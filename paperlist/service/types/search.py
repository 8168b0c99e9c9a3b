"""A search's response: the request as understood, the hits and facets."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ...search.model import Interpreted
from .common import AuthorRef, FormatLinks


class OtherVersion(TypedDict):
    id: str
    href: str
    venue: str
    venue_short: str
    year: int
    status: str | None
    published: bool                  # the work's published version (the one searches show)


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
    rating: float | None             # mean review rating, None when no source gives reviews
    snippet_html: str
    score: float
    versions: list[OtherVersion]     # the work's other versions (versions.py), newest first
    landmark: bool                   # one of the topic's landmarks (search.landmarks)
    lists: NotRequired[int]          # the curated reading lists that include it, when any


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
    rating_min: float | None
    rating_max: float | None
    sort: str
    mode: str
    page: int
    per_page: int


class EmptyReason(TypedDict):
    """Why a venue in a search's filters cannot give a hit: no papers in the filtered years
    (``no-papers``), none with the asked decisions (``no-decision``: ``have`` lists those there
    are), or no rated papers for a rating filter (``no-ratings``)."""

    kind: str
    venue: str
    venue_short: str
    years: str                      # "2025", "2020–2024", "" for any year
    href: str                       # the venue-year's or the venue's page
    have: list[str]


class SearchResponse(TypedDict):
    query: SearchQuery
    total: int
    pages: int
    took_ms: float
    hits: list[SearchHit]
    facets: Facets
    suggestion: str | None
    interpreted: Interpreted
    nothing_found: list[EmptyReason]
    links: FormatLinks
