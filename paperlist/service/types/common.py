"""Pieces every resource shares: format links, references to authors and venues, a paper in a
list, links and ids, pagination."""

from __future__ import annotations

from typing import TypedDict

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
    rating: float | None             # mean review rating, None when no source gives reviews
    abstract_head: str


class Link(TypedDict):
    kind: str
    label: str
    url: str


class ExternalId(TypedDict):
    kind: str
    name: str
    value: str
    url: str


class VenueRef(TypedDict):
    key: str
    short: str
    name: str
    href: str


class Pagination(TypedDict):
    page: int
    pages: int
    per_page: int | None
    prev: str | None
    next: str | None
    first_index: int
