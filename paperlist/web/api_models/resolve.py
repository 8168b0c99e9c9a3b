"""A resolved bibliography (`POST /resolve`)."""

from __future__ import annotations

from pydantic import Field

from .common import Model


class ResolvedPaper(Model):
    id: str
    href: str
    title: str = Field(description="Untrusted text: escape it.")
    authors: list[str]
    venue: str
    venue_short: str
    year: int
    confidence: float = Field(description="0..1: mostly the title, then authors, year and venue (1 when "
                                          "an id the entry carries names the paper).")
    title_similarity: float = Field(description="0..1 after case, accents, LaTeX, punctuation and hyphens.")
    authors_agree: float | None = Field(description="Share of the cited family names among the paper's "
                                                    "authors; null when either side has none.")
    year_agrees: bool | None = Field(description="Within a year (a preprint's year may be earlier); null "
                                                 "when the entry gives none.")
    venue_agrees: bool | None = Field(description="The cited venue names the paper's; null when it names "
                                                  "none or only a preprint server.")
    accepted: bool = Field(description="False: a rejected or withdrawn submission (never used as the "
                                       "published version).")
    by_id: bool = Field(description="Found by a DOI, arXiv, Anthology or OpenReview id of the entry.")


class ResolvedEntry(Model):
    key: str = Field(description="The citation key, or `line N` for a line of a reference list.")
    line: int = Field(description="Where the entry starts in the input (1-based).")
    status: str = Field(description="`matched`, `ambiguous`, `not_found` (not in the library) or `error`.")
    title: str = Field(description="The title as cited (plain text).")
    error: str | None = Field(description="Why the entry could not be read (status `error`).")
    paper: ResolvedPaper | None = Field(description="The matched paper.")
    candidates: list[ResolvedPaper] = Field(description="`ambiguous`: the papers it cannot tell apart; "
                                                        "`not_found`: the closest titles.")
    duplicate_of: list[str] = Field(description="Other keys that cite the same paper.")
    rewritten: bool = Field(description="The cleaned bibliography has this entry as the published version "
                                        "(not for rejected submissions, nor when cited at another venue).")
    changed: list[str] = Field(description="Fields the cleaned entry changes, adds or drops.")


class ResolveCounts(Model):
    entries: int
    matched: int
    ambiguous: int
    not_found: int
    errors: int
    rewritten: int
    duplicates: int = Field(description="Papers cited under two keys or more.")


class DuplicateGroup(Model):
    paper_id: str
    keys: list[str]


class ResolveReport(Model):
    """Each entry of a bibliography matched to the library, and the cleaned bibliography."""

    counts: ResolveCounts
    entries: list[ResolvedEntry]
    duplicates: list[DuplicateGroup]
    bibtex: str = Field(description="The cleaned bibliography: matched entries rewritten as the published "
                                    "version (the citation keys kept), the rest as written.")
    took_ms: float
