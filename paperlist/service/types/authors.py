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


class AuthorGroup(TypedDict):
    key: str                         # the group's most frequent co-author's key
    papers: int
    coauthors: list[str]             # names of its most frequent co-authors
    affiliation: str | None
    first_year: int
    last_year: int
    href: str                        # narrows the list to this group (or, when chosen, widens it)


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
    group: str | None                # the group the list is narrowed to, or None
    several_people: bool             # the name likely covers several people (then groups)
    groups: list[AuthorGroup]
    venues: list[AuthorVenue]        # every venue, most papers first; href narrows (or widens) the list
    coauthors: list[Coauthor]
    links: FormatLinks
    pagination: Pagination
    papers: list[PaperSummary]
