"""The rows the store hands to the layers above it (the service, topic statistics, the CLI): plain
dicts, typed here so that what reads them is checked.

The store is the lowest layer: these types name only what SQL returns (SQLite integers stay
integers: ``Card.accepted`` is 0 or 1). The service shapes them into its own types
(``service/types/``), which the JSON API documents.
"""

from __future__ import annotations

from typing import TypedDict

from ..models import Review


class CorpusStats(TypedDict):
    """The corpus figures (``Store.stats``)."""

    papers: int
    accepted: int
    with_abstract: int
    venues: int                 # top-level venues: a sub-venue (Findings of ACL) counts with its parent
    venue_keys: int             # every venue key with papers, sub-venues included
    venue_years: int
    authors: int
    records: int
    files: int
    sources: dict[str, int]     # source files per source kind
    pending_merge: int          # blocks whose records changed since they were last merged


class VenueRow(TypedDict):
    """A registry venue with its paper counts and years (``Store.venue_rows``)."""

    key: str
    short: str
    name: str
    field: str
    kind: str
    parent: str | None
    aliases: list[str]
    known: bool
    papers: int
    accepted: int
    years: list[int]            # the years with papers, oldest first


class CoverageFile(TypedDict):
    """A source file behind a venue-year: its records there, when it was ingested."""

    file: str
    source: str
    records: int
    ingested_at: str


class CoverageRow(TypedDict):
    """What the library holds of one venue-year (``Store.coverage``)."""

    venue: str
    year: int
    papers: int
    accepted: int
    with_abstract: int
    with_authors: int
    updated: str | None         # when a source file behind it was last ingested
    sources: list[CoverageFile]


class CardAuthor(TypedDict):
    name: str
    key: str


class Card(TypedDict):
    """A paper as a list shows it (``Store.cards`` and the other lists): the card columns and the
    authors."""

    id: str
    venue: str
    year: int
    title: str
    title_plain: str
    status: str | None
    accepted: int               # 0 or 1
    track: str | None
    award: str | None
    citations: int | None
    rating: float | None        # the mean review rating (paper_reviews), None when none is known
    updated_at: str
    abstract_head: str | None   # the first 420 characters of the plain abstract
    authors: list[CardAuthor]


class VenueYear(TypedDict):
    """One year of a venue (``Store.venue_year_counts``)."""

    year: int
    total: int
    accepted: int
    statuses: dict[str | None, int]     # papers per status (None: no source says)
    with_abstract: int
    with_authors: int
    updated: str | None


class YearSourceFile(TypedDict):
    """A source file behind a conference-year (``Store.venue_year_sources``)."""

    file: str
    source: str
    papers: int
    ingested_at: str


class AuthorRow(TypedDict):
    """An author (``Store.author``) or a co-author (``Store.coauthors``: ``papers`` is then the
    papers shared)."""

    key: str
    name: str
    papers: int


class ReviewRank(TypedDict):
    """A rated paper's place in its venue-year by mean rating: 1 = the highest of ``rated``."""

    rank: int
    rated: int


class StatsPaper(TypedDict):
    """What the venue-year statistics read of a paper (``iter_stats_papers``)."""

    id: str
    venue: str
    year: int
    status: str | None
    accepted: bool
    institutions: list[str]
    countries: list[str]
    review: Review | None
    review_source: str | None
