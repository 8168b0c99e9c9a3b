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


class AuthorGroup(Model):
    key: str = Field(description="The group's most frequent co-author's key; `group=` narrows to it.")
    papers: int
    coauthors: list[str] = Field(description="Names of the group's most frequent co-authors.")
    affiliation: str | None = Field(description="The author's most frequent affiliation in it.")
    first_year: int
    last_year: int
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
    matching: int = Field(description="Papers at that venue and in that group (without filters: all).")
    group: str | None = Field(None, description="The group the list is narrowed to (`group=`), or null.")
    several_people: bool = Field(description=(
        "The name likely covers several people: its papers fall into groups with disjoint co-authors "
        "and affiliations (listed in `groups`)."))
    groups: list[AuthorGroup]
    pagination: Pagination
    papers: list[PaperSummary] = Field(description="Newest year first; a page of them with `per_page=`.")
    venues: list[AuthorVenue]
    coauthors: list[Coauthor]
    links: FormatLinks
