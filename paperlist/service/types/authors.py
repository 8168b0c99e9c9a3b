"""An author: their papers, venues and coauthors."""

from __future__ import annotations

from typing import TypedDict

from .common import FormatLinks, PaperSummary


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
