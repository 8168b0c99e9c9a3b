"""Peer review: a conference-year's statistics, a venue's figures year over year, a paper's scores
and their place in its conference-year."""

from __future__ import annotations

from typing import TypedDict

from ...stats.model import VenueYearFigures
from .common import FormatLinks, VenueRef
from .venues import YearCoverage


class ConferenceStats(VenueYearFigures):
    """A conference-year's statistics (``/conferences/{venue}/{year}/stats``): the figures, the
    sources they count, and the neighbouring years that have statistics."""

    venue: VenueRef
    year: int
    href: str
    year_href: str
    coverage: YearCoverage
    prev_year: int | None
    next_year: int | None
    links: FormatLinks


class ReviewScores(TypedDict):
    """What a paper's reviewers gave it, as the source it comes from lists it."""

    ratings: list[float]
    confidences: list[float]
    dims: dict[str, list[float]]
    mean: float | None
    confidence_mean: float | None
    count: int | None
    from_mean: bool                  # only the source's mean is known, not each review's score
    as_of: str | None                # a snapshot's date (scores before decisions); None: final
    source: str                      # the file the scores come from


class ReviewPlace(TypedDict):
    """Where a paper's mean rating sits among its conference-year's rated papers."""

    rank: int                        # 1 = the highest mean rating
    rated: int
    top_percent: float               # rank / rated as a percentage, rounded up
    scope: str                       # what it is ranked among: "submissions", "listed" or "accepted"
    stats_href: str
