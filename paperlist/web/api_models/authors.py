"""An author (`/authors/{key}`): their papers, venues and coauthors."""

from __future__ import annotations

from pydantic import Field

from .common import FormatLinks, Model, Pagination, PaperSummary


class AuthorVenue(Model):
    key: str
    short: str
    count: int
    href: str


class Coauthor(Model):
    key: str
    name: str
    papers: int
    href: str


class AuthorDetail(Model):
    key: str
    name: str
    href: str
    spellings: list[str] = Field(description="Other written forms of the name.")
    total: int
    first_year: int | None
    last_year: int | None
    venue: str | None = Field(None, description="The venue the list is narrowed to (`venue=`), or null.")
    matching: int = Field(description="Papers at that venue (without `venue=`: all of them).")
    pagination: Pagination
    papers: list[PaperSummary] = Field(description="Newest year first; a page of them with `per_page=`.")
    venues: list[AuthorVenue]
    coauthors: list[Coauthor]
    links: FormatLinks
