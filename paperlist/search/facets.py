"""Facets: counts over the whole match set (one aggregation pass per filtered dimension), and
their values with labels, the selected flag and a stable order per dimension."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import tantivy

from ..index import fulltext
from ..models import STATUSES
from ..taxonomy import taxonomy
from .model import FacetValue, SearchRequest
from .query import Filters

FACET_SIZE = {"venue": 500, "year": 300, "status": 20, "topic": 100}
STATUS_RANK = {s: i for i, s in enumerate(STATUSES)}


@dataclass(slots=True)
class Counts:
    """What one aggregation pass over the match set gives."""

    facets: dict[str, list[FacetValue]]
    years: dict[int, int] = field(default_factory=dict)   # papers per year (year sorts)
    total: int = 0


def count_facets(s: tantivy.Searcher, plan: Any, req: SearchRequest, total: bool = False) -> Counts:
    """Facet counts over the whole match set of ``plan`` (the engine's parsed request: its
    ``query(without, ranked)``, filter ``dims`` and ``filters``). A facet whose own dimension is filtered is
    counted without that filter (so choosing NeurIPS still shows how many ICML has). With
    ``total`` (or a year sort), also the size of the match set (and its year counts)."""
    need_years = req.sort in ("newest", "oldest")
    groups: dict[str | None, list[str]] = {}
    dims = ("venue", "year", "status", "topic") if req.facets else ()
    for dim in dims:
        groups.setdefault(dim if dim in plan.dims else None, []).append(dim)
    if (total or need_years) and None not in groups:
        groups[None] = []
    results: dict[str, list[dict[str, Any]]] = {}
    out = Counts({})
    for without, names in groups.items():
        spec: dict[str, Any] = {n: {"terms": {"field": n, "size": FACET_SIZE[n]}} for n in names}
        if without is None:
            if need_years and "year" not in names:
                spec["year"] = {"terms": {"field": "year", "size": FACET_SIZE["year"]}}
            if total and "year" not in spec:     # (else the year counts add up to it)
                spec["n"] = {"value_count": {"field": "year"}}      # every paper has a year
        res = s.aggregate(plan.query(without, ranked=False), spec)
        for n in names:
            results[n] = res[n]["buckets"]
        if without is None:
            if "year" in spec:
                out.years = {int(b["key"]): b["doc_count"] for b in res["year"]["buckets"]}
                out.total = sum(out.years.values())
            if "n" in spec:
                out.total = int(res["n"]["value"] or 0)
    out.facets = {dim: facet_values(dim, results.get(dim, []), plan.filters) for dim in dims}
    return out


def facet_values(dim: str, buckets: list[dict[str, Any]], f: Filters) -> list[FacetValue]:
    selected: set[str] = set()
    if dim == "venue":
        selected = set(f.venues)
    elif dim == "status":
        selected = set(f.statuses)
    elif dim == "topic":
        selected = set(f.topics)
    elif dim == "year" and f.year_from is not None and f.year_to == f.year_from:
        selected = {str(f.year_from)}
    vals = []
    for b in buckets:
        v = str(b["key"])
        vals.append(FacetValue(v, _label(dim, v), int(b["doc_count"]), v in selected))
    if selected:
        have = {v.value for v in vals}
        vals += [FacetValue(v, _label(dim, v), 0, True) for v in selected - have]
    if dim == "year":
        vals.sort(key=lambda v: -int(v.value) if v.value.isdigit() else 0)
    elif dim == "status":
        vals.sort(key=lambda v: STATUS_RANK.get(v.value, len(STATUS_RANK)))
    else:
        vals.sort(key=lambda v: (-v.count, v.label.lower()))
    return vals


@lru_cache(maxsize=4096)
def _label(dim: str, value: str) -> str:
    """What a facet value shows (labels are fixed for a process: the registries are code)."""
    if dim == "topic":
        t = taxonomy().get(value)
        return t.en if t else value
    return fulltext.venue_label(value) if dim == "venue" else value
