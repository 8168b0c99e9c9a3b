"""Facet values: labels, the selected flag, and a stable order per dimension."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..index import fulltext
from ..models import STATUSES
from .model import FacetValue
from .query import Filters

FACET_SIZE = {"venue": 500, "year": 300, "status": 20, "topic": 100}
STATUS_RANK = {s: i for i, s in enumerate(STATUSES)}


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
        from ..topics import taxonomy
        t = taxonomy().get(value)
        return t.en if t else value
    return fulltext.venue_label(value) if dim == "venue" else value
