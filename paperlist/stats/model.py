"""The shapes of a venue-year's statistics, as figures.py computes them and the store keeps them.

Status keys are the canonical statuses (paperlist.models.STATUSES) and "unknown"; a figure that
cannot be computed is None (JSON null), never 0.
"""

from __future__ import annotations

from typing import TypedDict

# A histogram bin of mean ratings [from, to): the last bin also holds its upper edge.
RatingBin = TypedDict("RatingBin", {
    "from": float, "to": float, "papers": int, "accepted": int,
    "by_status": dict[str, int], "acceptance_rate": float | None,
})


class RatingFigures(TypedDict):
    papers: int                       # papers with a mean rating
    without: int                      # papers of the venue-year without one
    from_source_mean: int             # of papers: the mean is the source's (no list of reviews)
    as_of: dict[str, int]             # of papers: those whose scores are a snapshot before decisions, by date
    reviews: int                      # ratings counted (the reviews behind the means)
    reviews_per_paper: float | None
    mean: float | None
    median: float | None
    accepted_mean: float | None
    accepted_median: float | None
    min: float | None                 # lowest and highest single rating (or mean) seen: the scale
    max: float | None
    mean_by_status: dict[str, float | None]
    median_by_status: dict[str, float | None]
    papers_by_status: dict[str, int]
    confidence_mean: float | None
    rating_confidence_r: float | None  # Pearson's r over every review's (rating, confidence)
    rating_confidence_pairs: int
    histogram: list[RatingBin]


class DimensionFigures(TypedDict):
    papers: int
    mean: float | None
    mean_by_status: dict[str, float | None]


class Ranked(TypedDict):
    name: str
    accepted: int                     # accepted papers with it
    papers: int                       # listed papers with it


class RankedAuthor(Ranked):
    key: str


class VenueYearFigures(TypedDict):
    papers: int                       # papers (submissions) the sources list
    accepted: int
    rejected: int                     # rejected, withdrawn and desk-rejected
    by_status: dict[str, int]         # every status key, zeros included
    listing: str                      # "all-submissions", "public-rejections" or "accepted-only"
    acceptance_rate: float | None     # accepted / papers, where the sources list rejected papers
    accepted_statuses: list[str]      # the accepted statuses present, best first
    ratings: RatingFigures | None
    dimensions: dict[str, DimensionFigures]
    review_sources: dict[str, int]    # file key -> papers whose review it gave
    institutions: list[Ranked]
    institutions_papers: int          # papers with any institution known
    countries: list[Ranked]
    countries_papers: int
    authors: list[RankedAuthor]
    authors_papers: int
