"""Derive every venue-year's statistics from the store, once per ingest (like topics).

One ordered scan of the papers and one of the authorships, grouped by venue and year; the
result replaces the venue_year_stats table and the rated papers' ranks in one transaction,
stamped with the fingerprint of the papers it was computed from, so an interrupted build
leaves the previous statistics whole and the next ingest (or `paperlist stats --build`)
converges.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from ..store import Store
from ..store.rows import StatsPaper
from .figures import Authorship, InstitutionNames, ranks, venue_year

# Bump when the figures change: statistics built by an older version are rebuilt.
STATS_VERSION = 3          # 3: the dates of scores taken before decisions; accepted = a source says so


@dataclass(slots=True)
class StatsReport:
    venue_years: int = 0
    rated_papers: int = 0
    seconds: float = 0.0
    skipped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"venue_years": self.venue_years, "rated_papers": self.rated_papers,
                "seconds": round(self.seconds, 2), "skipped": self.skipped}


def fingerprint(store: Store) -> str:
    return f"{STATS_VERSION}:{store.papers_fingerprint()}"


def is_current(store: Store) -> bool:
    return store.stats_fingerprint() == fingerprint(store)


def build_stats(store: Store, force: bool = False) -> StatsReport:
    """Compute and store the statistics of every venue-year (skipped when current, unless ``force``)."""
    t0 = time.perf_counter()
    rep = StatsReport()
    fp = fingerprint(store)
    if not force and store.stats_fingerprint() == fp:
        rep.skipped = True
        rep.seconds = time.perf_counter() - t0
        return rep
    inst = InstitutionNames()
    authors = store.iter_stats_authors()
    pending: list[Any] = [next(authors, None)]
    rows: list[tuple[str, int, str]] = []
    all_ranks: list[tuple[int, int, str]] = []
    papers_by_venue_year = itertools.groupby(store.iter_stats_papers(), key=lambda p: (p["venue"], p["year"]))
    for (venue, year), group in papers_by_venue_year:
        papers: list[StatsPaper] = list(group)
        figures = venue_year(papers, _authorships(authors, pending, venue, year), inst)
        rows.append((venue, year, orjson.dumps(figures).decode()))
        all_ranks.extend(ranks(papers))
    rep.venue_years = store.replace_stats(rows, all_ranks, fp)
    rep.rated_papers = len(all_ranks)
    rep.seconds = time.perf_counter() - t0
    return rep


def _authorships(authors: Iterator[tuple[str, str, int, str, str, str | None]], pending: list[Any],
                 venue: str, year: int) -> list[Authorship]:
    """The authorships of (venue, year) from the ordered authorship scan: both scans are ordered
    by venue then year, so this advances the shared cursor up to the next venue-year."""
    out: list[Authorship] = []
    while pending[0] is not None and (pending[0][0], pending[0][1]) <= (venue, year):
        v, y, pid, key, name, aff = pending[0]
        if (v, y) == (venue, year):
            out.append((pid, key, name, aff))
        pending[0] = next(authors, None)
    return out
