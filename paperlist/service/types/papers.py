"""One paper (its plain fields, its detail with renderings) and the papers similar to it."""

from __future__ import annotations

from typing import Literal, TypedDict

from .common import ExternalId, Link, PaperAuthor, PaperSummary
from .reviews import ReviewPlace, ReviewScores
from .search import OtherVersion
from .topics import TopicRef


class SimilarPaper(PaperSummary):
    score: float


class PaperVenue(TypedDict):
    key: str
    short: str
    name: str
    href: str
    year_href: str


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
    status_inferred: bool       # "rejected" inferred: listed by a census of submissions, accepted by none
    author_order: Literal["known", "unknown"]   # "unknown": the only list is a source's alphabetical one
    track: str | None
    award: str | None
    abstract: str | None
    tldr: str | None
    summary_zh: str | None
    keywords: list[str]
    primary_area: str | None
    citations: int | None
    institutions: list[str]
    countries: list[str]
    review: ReviewScores | None
    links: list[Link]
    ids: list[ExternalId]
    bibtex: str
    bibtex_from_source: bool
    bib_href: str
    sources: list[str]


class CiteText(TypedDict):
    """The paper in one citation style (plain text; BibTeX is the entry)."""

    style: str
    label: str
    text: str
    href: str


class PaperDetail(PaperFields):
    """One paper with its renderings (sanitized HTML), topics and related papers."""

    title_html: str
    abstract_html: str
    tldr_html: str
    summary_zh_html: str
    more_by_authors: list[PaperSummary]
    versions: list[OtherVersion]     # the work's other versions (versions.py), published first
    topics: list[TopicRef]
    similar: list[SimilarPaper]
    similar_method: str
    review_place: ReviewPlace | None
    cite: list[CiteText]
    ris_href: str


class SimilarPapers(TypedDict):
    id: str
    href: str
    method: str
    papers: list[SimilarPaper]
