"""Peer review: a conference-year's statistics, and a paper's review scores and their place."""

from __future__ import annotations

from pydantic import Field

from .common import FormatLinks, Model, VenueRef
from .venues import YearCoverage

_STATUS_KEYS = ("keys: oral, spotlight, highlight, poster, accepted, rejected, withdrawn, desk-rejected, "
                "unknown")


class RatingBin(Model):
    from_: float = Field(alias="from", description="Lower edge of the bin (mean rating, inclusive).")
    to: float = Field(description="Upper edge (exclusive, except for the last bin).")
    papers: int
    accepted: int
    by_status: dict[str, int] = Field(description="Papers of the bin by decision (only decisions present).")
    acceptance_rate: float | None = Field(description="accepted / papers of the bin; null where the sources "
                                                      "list no rejected papers.")


class RatingFigures(Model):
    papers: int = Field(description="Papers with a mean rating.")
    without: int = Field(description="Papers of the conference-year without one.")
    as_of: dict[str, int] = Field(
        default_factory=dict,
        description="Of `papers`: those whose scores are a snapshot taken before decisions (reviews could "
                    "still change), by the snapshot's date (\"2025-11-22\": 14,115); the others are final.")
    from_source_mean: int = Field(description="Of `papers`: those whose mean is the source's (no list of "
                                              "the reviews' scores).")
    reviews: int = Field(description="Ratings counted: the reviews behind the means.")
    reviews_per_paper: float | None
    mean: float | None = Field(description="Mean of the papers' mean ratings.")
    median: float | None
    accepted_mean: float | None = Field(description="Mean rating of the accepted papers.")
    accepted_median: float | None
    min: float | None = Field(description="The lowest single rating (or mean) seen: the scale's bottom.")
    max: float | None
    mean_by_status: dict[str, float | None] = Field(description="Mean of mean ratings by decision; "
                                                                + _STATUS_KEYS + ".")
    median_by_status: dict[str, float | None]
    papers_by_status: dict[str, int]
    confidence_mean: float | None
    rating_confidence_r: float | None = Field(description="Pearson's r over every review's (rating, "
                                                          "confidence) pair.")
    rating_confidence_pairs: int
    histogram: list[RatingBin] = Field(description="Mean ratings in bins of width 0.5, with counts by "
                                                   "decision: the distribution and what score gets in.")


class DimensionFigures(Model):
    papers: int
    mean: float | None
    mean_by_status: dict[str, float | None]


class Ranked(Model):
    name: str
    accepted: int = Field(description="Accepted papers with it.")
    papers: int = Field(description="Listed papers with it.")


class RankedAuthor(Ranked):
    key: str = Field(description="Author key (`/api/v1/authors/{key}`).")


class ConferenceStats(Model):
    """A conference-year's numbers, derived once per ingest from the merged papers."""

    venue: VenueRef
    year: int
    href: str = Field(description="The statistics page on the site.")
    year_href: str = Field(description="The conference-year's papers on the site.")
    papers: int = Field(description="Papers (submissions) the sources list.")
    accepted: int
    rejected: int = Field(description="Rejected, withdrawn and desk-rejected.")
    by_status: dict[str, int] = Field(description="Papers by decision; " + _STATUS_KEYS
                                      + " (zeros included).")
    listing: str = Field(description="What the sources list: `all-submissions`; `public-rejections` "
                                     "(rejected papers only where authors made them public, so the rate is "
                                     "an upper bound); `accepted-only`.")
    acceptance_rate: float | None = Field(description="accepted / papers; null where the sources list no "
                                                      "rejected papers.")
    accepted_statuses: list[str]
    ratings: RatingFigures | None = Field(description="Review scores; null where no source gives any.")
    dimensions: dict[str, DimensionFigures] = Field(description="Other score dimensions (soundness, "
                                                                "presentation, novelty …).")
    review_sources: dict[str, int] = Field(description="The files the scores come from, with their papers.")
    institutions: list[Ranked] = Field(description="Top institutions by accepted papers (names folded: "
                                                   "MIT = Massachusetts Institute of Technology).")
    institutions_papers: int = Field(description="Papers with any institution known.")
    countries: list[Ranked]
    countries_papers: int
    authors: list[RankedAuthor] = Field(description="The most prolific authors, by accepted papers.")
    authors_papers: int
    coverage: YearCoverage
    prev_year: int | None = Field(description="The previous year with statistics.")
    next_year: int | None
    links: FormatLinks


class ReviewScores(Model):
    ratings: list[float] = Field(description="Each review's rating, in the source's order.")
    confidences: list[float]
    dims: dict[str, list[float]] = Field(description="Other dimensions per review (soundness, presentation, "
                                                     "correctness, novelty …).")
    mean: float | None = Field(description="Mean rating: computed from `ratings`, or the source's when "
                                           "`from_mean`.")
    confidence_mean: float | None
    count: int | None = Field(description="Number of ratings.")
    from_mean: bool = Field(description="Only the source's mean is known, not each review's score.")
    as_of: str | None = Field(default=None, description=(
        "The date of a snapshot taken before decisions, when the scores are one (reviews could still "
        "change); null for final scores."))
    source: str = Field(description="The source file the scores come from.")


class ReviewPlace(Model):
    rank: int = Field(description="1 = the highest mean rating of the conference-year.")
    rated: int = Field(description="Rated papers of the conference-year.")
    top_percent: float = Field(description="rank / rated as a percentage, rounded up.")
    scope: str = Field(description="What it is ranked among: `submissions`, `listed` (rejections only "
                                   "where public) or `accepted` papers.")
    stats_href: str
