"""Peer review: a paper's review scores and where they sit in its conference-year, a venue's
figures year over year, and the stored figures of a conference-year (derived after each ingest by
paperlist.stats; ``conference_stats`` serves them as a resource)."""

from __future__ import annotations

import math

import orjson

from ..models import Paper
from ..stats.model import VenueYearFigures
from .home import Home
from .paths import venue_path
from .types import ReviewPlace, ReviewScores, VenueStatsRow

# What a paper is ranked among ("top 12% of …"): all submissions, the listed ones, or accepted papers.
SCOPES = {"all-submissions": "submissions", "public-rejections": "listed", "accepted-only": "accepted"}


def stats_path(key: str, year: int) -> str:
    return venue_path(key, year) + "/stats"


def figures(home: Home, key: str, year: int) -> VenueYearFigures | None:
    """The stored figures of a venue-year (cached), None when none were derived."""
    def load() -> VenueYearFigures | None:
        raw = home.store.venue_year_stats(key, year)
        return orjson.loads(raw) if raw is not None else None

    found: VenueYearFigures | None = home.cache.get(("venue_year_stats", key, year), load)
    return found


def venue_series(home: Home, key: str) -> list[VenueStatsRow]:
    """A venue's figures year by year, newest first (cached)."""
    def load() -> list[VenueStatsRow]:
        out: list[VenueStatsRow] = []
        for year, raw in reversed(home.store.venue_stats(key)):
            f: VenueYearFigures = orjson.loads(raw)
            r = f["ratings"]
            out.append({"year": year, "href": stats_path(key, year), "papers": f["papers"],
                        "accepted": f["accepted"], "listing": f["listing"],
                        "acceptance_rate": f["acceptance_rate"], "rated": r["papers"] if r else 0,
                        "mean_rating": r["mean"] if r else None,
                        "accepted_mean_rating": r["accepted_mean"] if r else None})
        return out

    rows: list[VenueStatsRow] = home.cache.get(("venue_series", key), load)
    return rows


def review_scores(p: Paper) -> ReviewScores | None:
    """A paper's review scores as plain data (None when no source gives any)."""
    rv = p.review
    if rv is None:
        return None
    return {"ratings": rv.ratings, "confidences": rv.confidences, "dims": rv.dims, "mean": rv.mean,
            "confidence_mean": rv.confidence_mean, "count": rv.count, "from_mean": rv.from_mean,
            "as_of": rv.as_of, "source": p.provenance.get("review", "")}


def review_place(home: Home, p: Paper) -> ReviewPlace | None:
    """Where the paper's mean rating sits among its conference-year's rated papers (None when it
    has none, or before the statistics were derived)."""
    found = home.store.paper_review(p.id)
    if found is None or found[2] is None:
        return None
    rank = found[2]
    f = figures(home, p.venue, p.year)
    return {"rank": rank["rank"], "rated": rank["rated"],
            "top_percent": float(math.ceil(100 * rank["rank"] / rank["rated"])),
            "scope": SCOPES.get(f["listing"], "listed") if f else "listed",
            "stats_href": stats_path(p.venue, p.year)}
