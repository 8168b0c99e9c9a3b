"""Why a search found nothing, when the reason is the data and not the words: the filters ask for
a venue-year we have no papers from, a decision our sources do not give for those years, or
review ratings no source gives there. "Check the spelling" would mislead then."""

from __future__ import annotations

from .. import venues as venue_registry
from ..search.model import InterpretedFilters
from .home import Home
from .paths import venue_path
from .types import EmptyReason
from .venues import venue_rows, year_rows

MAX_VENUES = 5


def _years_label(y0: int | None, y1: int | None) -> str:
    if y0 is not None and y0 == y1:
        return str(y0)
    return f"{y0 or ''}–{y1 or ''}" if y0 is not None or y1 is not None else ""


def why_empty(home: Home, filters: InterpretedFilters) -> list[EmptyReason]:
    """For each filtered venue (at most five), what its papers in the filtered years cannot answer:
    ``no-papers`` (no papers in those years), ``no-decision`` (none with the asked statuses; ``have``
    lists the statuses there are) or ``no-ratings`` (a rating filter where no paper is rated).
    Empty when the filters are not the reason (then it is the words)."""
    venues = [v for v in filters.get("venues", []) if v in venue_rows(home)][:MAX_VENUES]
    y0, y1 = filters.get("year_from"), filters.get("year_to")
    statuses = filters.get("statuses", [])
    rated = "rating_min" in filters or "rating_max" in filters
    out: list[EmptyReason] = []
    for key in venues:
        rows = [r for r in year_rows(home, key)
                if (y0 is None or r["year"] >= y0) and (y1 is None or r["year"] <= y1)]
        v = venue_registry.get(key)
        years = _years_label(y0, y1)
        single = y0 is not None and y0 == y1
        base: EmptyReason = {"kind": "", "venue": key, "venue_short": v.short, "years": years,
                             "href": venue_path(key, y0) if single and rows else venue_path(key),
                             "have": []}
        if not rows:
            out.append({**base, "kind": "no-papers"})
            continue
        present: dict[str, int] = {}
        for r in rows:
            for s, n in r["statuses"].items():
                present[s or "unknown"] = present.get(s or "unknown", 0) + n
        if statuses and not any(present.get(s) for s in statuses):
            out.append({**base, "kind": "no-decision",
                        "have": [s for s, _ in sorted(present.items(), key=lambda kv: -kv[1])]})
        elif rated and not home.store.rated_papers(key, y0, y1):
            out.append({**base, "kind": "no-ratings"})
    return out
