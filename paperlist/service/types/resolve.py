"""A resolved bibliography: for each entry the paper it cites (with a confidence and why), the
papers it cannot tell apart, or nothing; the counts; the cleaned BibTeX."""

from __future__ import annotations

from typing import TypedDict


class ResolvedPaper(TypedDict):
    """A paper an entry may cite, with how well it matches."""

    id: str
    href: str
    title: str
    authors: list[str]
    venue: str
    venue_short: str
    year: int
    confidence: float                # 0..1
    title_similarity: float          # 0..1, after case, accents, LaTeX, punctuation, hyphens
    authors_agree: float | None      # share of the cited family names among the paper's authors
    year_agrees: bool | None         # within a year (a preprint's year may be earlier)
    venue_agrees: bool | None        # the cited venue names the paper's venue
    accepted: bool                   # False: a rejected or withdrawn submission (never the published version)
    by_id: bool                      # found by an id the entry carries (DOI, arXiv, Anthology, OpenReview)


class ResolvedEntry(TypedDict):
    key: str                         # the citation key (or "line N" for a reference line)
    line: int                        # where the entry starts in the input (1-based)
    status: str                      # matched, ambiguous, not_found, error
    title: str                       # the title as cited (plain text)
    error: str | None                # why the entry could not be read (status error)
    paper: ResolvedPaper | None      # the matched paper
    candidates: list[ResolvedPaper]  # ambiguous: the papers it cannot tell apart; not_found: the closest
    duplicate_of: list[str]          # other keys that cite the same paper
    rewritten: bool                  # the cleaned bibliography has the published version of this entry
    changed: list[str]               # fields the cleaned entry changes, adds or drops


class ResolveCounts(TypedDict):
    entries: int
    matched: int
    ambiguous: int
    not_found: int
    errors: int
    rewritten: int
    duplicates: int                  # papers cited under two keys or more


class DuplicateGroup(TypedDict):
    paper_id: str
    keys: list[str]


class ResolveReport(TypedDict):
    counts: ResolveCounts
    entries: list[ResolvedEntry]
    duplicates: list[DuplicateGroup]
    bibtex: str                      # the cleaned bibliography
    took_ms: float
