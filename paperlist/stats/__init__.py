"""Conference-year statistics: decisions, review scores, institutions, countries and authors,
derived from the store after each ingest (build.py) by pure figure code (figures.py) over folded
names (names.py)."""

from .build import STATS_VERSION, StatsReport, build_stats, is_current

__all__ = ["STATS_VERSION", "StatsReport", "build_stats", "is_current"]
