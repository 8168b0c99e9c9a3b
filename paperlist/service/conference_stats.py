"""A conference-year's statistics as a resource (``/conferences/{venue}/{year}/stats``): the
figures derived after each ingest, with the venue, the sources they count and the neighbouring
years."""

from __future__ import annotations

from .errors import N_, Unavailable
from .home import Home
from .paths import format_links, venue_path
from .reviews import figures, stats_path
from .types import ConferenceStats
from .venues import venue_year, year_coverage


def _years_with_stats(home: Home, key: str) -> list[int]:
    years: list[int] = home.cache.get(("stats_years", key),
                                      lambda: [y for y, _ in home.store.venue_stats(key)])
    return years


def conference_stats(home: Home, venue_name: str, year_s: str) -> ConferenceStats:
    """A conference-year's statistics; 404 for an unknown venue-year, 503 before they are derived."""
    key, year, row = venue_year(home, venue_name, year_s, "/stats")
    f = figures(home, key, year)
    if f is None:
        raise Unavailable(N_(
            "The statistics for this conference-year are not computed yet; the next ingest computes them."))
    years = _years_with_stats(home, key)
    earlier = [y for y in years if y < year]
    later = [y for y in years if y > year]
    path = stats_path(key, year)
    return {
        **f,
        "venue": {"key": key, "short": row["short"], "name": row["name"], "href": venue_path(key)},
        "year": year, "href": path, "year_href": venue_path(key, year),
        "coverage": year_coverage(home, key, year),
        "prev_year": earlier[-1] if earlier else None, "next_year": later[0] if later else None,
        "links": format_links(path, [], exports=False),
    }
