"""Review scores and author countries as the sources write them -> a Review and a country list.

papercopilot writes each score dimension as the reviews' values joined by ';' (``"rating":
"8;6;6;5"``) next to a mean (``"rating_avg"``: a number, a ``[mean, std]`` pair, or 0 when the
list is empty), so a dimension is any field that has an ``_avg`` twin. The means are never
trusted where the list is there: they are computed from it. A mean alone (ICLR 2026's export:
``avg_rating``, ``avg_confidence``, ``n_ratings``) is kept as the source's and says so.
Unknown is None, never 0: a 0 mean next to an empty list means "no reviews here".
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..models import Review

_NUMBER = re.compile(r"\s*(-?\d+(?:\.\d+)?)(?![\w.])")   # "8: accept" is 8; "1e9" is junk
# Fields with an _avg twin that are not scores: reply counts, author counts, review lengths.
_NOT_SCORES = {"replies", "authors#", "wc_review", "wc_summary", "wc_strengths", "wc_weaknesses",
               "wc_questions"}
_LIMIT = 100.0                    # no review scale goes past this; a larger value is garbage


def scores(value: object) -> list[float]:
    """The numbers of a ';'-joined list ("5;6;;8: strong accept" -> [5, 6, 8]); [] for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [float(value)] if _usable(float(value)) else []
    if not isinstance(value, str):
        return []
    out = []
    for piece in value.split(";"):
        m = _NUMBER.match(piece)
        if m and _usable(x := float(m.group(1))):
            out.append(x)
    return out


def _usable(x: float) -> bool:
    return math.isfinite(x) and abs(x) <= _LIMIT


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def source_mean(value: object) -> float | None:
    """A mean as a source writes it: "5.5", 5.5, [5.5, 1.2] or "[5.5, 1.2]"; None for 0 or junk
    (the sources write 0 where there were no reviews)."""
    if isinstance(value, list) and value:
        value = value[0]
    elif isinstance(value, str) and value.strip().startswith("["):
        value = value.strip()[1:].split(",")[0]
    if isinstance(value, bool):
        return None
    try:
        x = float(str(value))
    except (TypeError, ValueError):
        return None
    return x if _usable(x) and x > 0 else None


def from_lists(r: dict[str, Any]) -> Review | None:
    """papercopilot's per-review lists (and, where a file has no lists, its mean rating)."""
    dims: dict[str, list[float]] = {}
    for k, v in r.items():
        if k.endswith("_avg") or k in _NOT_SCORES or f"{k}_avg" not in r:
            continue
        vals = scores(v)
        if vals:
            dims[k] = vals
    ratings, confidences = dims.pop("rating", []), dims.pop("confidence", [])
    if ratings or confidences or dims:
        return Review(ratings=ratings, confidences=confidences, dims=dict(sorted(dims.items())),
                      mean=mean(ratings), confidence_mean=mean(confidences),
                      count=len(ratings) or None)
    return from_means(r.get("rating_avg"), r.get("confidence_avg"), None)


def review_of_lists(ratings: list[float], confidences: list[float], dims: dict[str, list[float]],
                    as_of: str | None = None) -> Review | None:
    """Each review's scores as lists (ratings, confidences, other dimensions) -> one Review; None when
    there is no score at all. ``as_of``: the date of a snapshot taken before decisions."""
    if not (ratings or confidences or dims):
        return None
    return Review(ratings=ratings, confidences=confidences, dims=dict(sorted(dims.items())),
                  mean=mean(ratings), confidence_mean=mean(confidences), count=len(ratings) or None,
                  as_of=as_of)


def from_means(rating: object, confidence: object, count: object) -> Review | None:
    """A source's means alone (no list to compute them from); None when it has no rating."""
    m = source_mean(rating)
    if m is None:
        return None
    n = source_mean(count)
    return Review(mean=m, confidence_mean=source_mean(confidence),
                  count=int(n) if n is not None and n == int(n) else None, from_mean=True)


def countries(value: object) -> list[str]:
    """papercopilot's ``aff_country_unique`` ("China;United States;") -> ["China", "United States"]."""
    if not isinstance(value, str):
        return []
    out: list[str] = []
    for c in value.split(";"):
        c = " ".join(c.split())
        if c and len(c) <= 80 and c not in out:
            out.append(c)
    return out
