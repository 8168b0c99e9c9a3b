"""One paper (its plain fields, its detail with renderings) and the papers similar to it."""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

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


class CuratedList(TypedDict):
    """A curated reading list (an "awesome" list on GitHub) that includes the paper
    (paperlist/curated): all of it untrusted text but ``url``."""

    name: str                   # owner/repo
    url: str                    # https://github.com/owner/repo
    topic: str                  # what the list is about ("" when not known)
    kind: Literal["curated", "dump"]   # "dump": every paper of a conference, not a choice
    headings: list[list[str]]   # the headings above the paper's entries, outermost first
    date: str                   # the date of the list's commit read ("" when not known)
    commit: str


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
    lists: list[CuratedList]    # curated lists first (by name), whole-conference dumps last


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
    citations_source: str | None    # the source kind that gave ``citations`` (papercopilot, openalex)
    citations_as_of: NotRequired[str]   # the date of that count, when the source gives one


class SimilarPapers(TypedDict):
    id: str
    href: str
    method: str
    papers: list[SimilarPaper]
