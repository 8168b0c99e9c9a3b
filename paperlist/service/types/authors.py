"""An author: their papers, venues and coauthors."""

from __future__ import annotations

from typing import TypedDict

from .common import FormatLinks, Pagination, PaperSummary


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
    venue: str | None                # the venue the list is narrowed to, or None
    matching: int                    # papers at that venue (all of them: total)
    venues: list[AuthorVenue]        # every venue, most papers first; href narrows (or widens) the list
    coauthors: list[Coauthor]
    links: FormatLinks
    pagination: Pagination
    papers: list[PaperSummary]
