"""A conference-year's statistics page: the service's figures (``conference_stats``) as they are,
plus what the page draws from them — the decision rows without empty statuses, the rating
histogram and the acceptance-rate curve as SVG geometry, the per-decision and per-dimension
tables, links to the authors and the neighbouring years' statistics."""

from __future__ import annotations

from typing import Any

from ...service.conference_stats import conference_stats
from ...service.paths import author_path
from ...service.reviews import stats_path
from ...stats.model import RatingFigures
from ..labels import STATUS, dimension_label, status_key
from ..rating_charts import STACK, acceptance_curve, rating_histogram
from .base import Ctx

REJECTED = ("rejected", "withdrawn", "desk-rejected")


def _decisions(by_status: dict[str, int], papers: int) -> list[dict[str, Any]]:
    """The decisions with papers, in the stacking order (a status without papers is left out)."""
    return [{"status": s, "label": STATUS[status_key(s)], "papers": n, "of": papers}
            for s in STACK if (n := by_status.get(s, 0))]


def _rating_rows(r: RatingFigures) -> list[dict[str, Any]]:
    order = [s for s in STACK if s in r["papers_by_status"]]
    return [{"status": s, "label": STATUS[status_key(s)], "papers": r["papers_by_status"][s],
             "mean": r["mean_by_status"].get(s), "median": r["median_by_status"].get(s)} for s in order]


def build_conference_stats(ctx: Ctx, venue_seg: str, year_s: str) -> dict[str, Any]:
    """``/conferences/{venue}/{year}/stats``: 404 for an unknown venue-year, 503 before the
    statistics are derived (the service's errors)."""
    d = conference_stats(ctx.home, venue_seg, year_s)
    key = d["venue"]["key"]
    r = d["ratings"]
    dims = d["dimensions"]
    dim_statuses = [s for s in STACK if any(s in f["mean_by_status"] for f in dims.values())]
    return {
        "page": "stats", **d,
        "decision_rows": _decisions(d["by_status"], d["papers"]),
        "rating_rows": _rating_rows(r) if r else [],
        "charts": {"histogram": rating_histogram(r["histogram"]) if r else None,
                   "acceptance": acceptance_curve(r["histogram"], d["acceptance_rate"]) if r else None},
        "dimension_rows": {"statuses": dim_statuses, "rows": [
            {"key": k, "label": dimension_label(k), "papers": f["papers"], "mean": f["mean"],
             "by_status": [f["mean_by_status"].get(s) for s in dim_statuses]}
            for k, f in sorted(dims.items())]},
        "author_rows": [{**a, "href": author_path(a["key"])} for a in d["authors"]],
        "source_rows": [{"file": f, "papers": n} for f, n in sorted(d["review_sources"].items())],
        **{k: ({"year": y, "href": stats_path(key, y)} if y is not None else None)
           for k, y in (("prev", d["prev_year"]), ("next", d["next_year"]))},
    }
