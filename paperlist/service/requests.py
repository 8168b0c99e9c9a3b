"""Requests from user input: the one place a search request and a conference-year list request
are made from what a person or a program typed. The site and the API read URL parameters
(``*_from_params``), MCP and the CLI pass typed values; all of them end in ``search_request`` /
``list_request``, which check every value and raise ``BadRequest`` naming the one that is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .. import venues as venue_registry
from ..models import STATUSES
from ..search.model import MAX_PER_PAGE, MAX_QUERY_CHARS, MAX_WINDOW, MODES, SORTS, SearchRequest
from ..search.query import (
    RATING_MAX,
    RATING_MIN,
    YEAR_MAX,
    YEAR_MIN,
    RatingRange,
    parse_ratings,
    parse_years,
    resolve_status,
)
from ..taxonomy import taxonomy
from .errors import N_, BadRequest

YEAR_RANGE = (YEAR_MIN, YEAR_MAX)     # the query language's years; every interface's year bounds
LIST_PER_PAGE = ("100", "250", "500", "all")      # what a conference-year page offers
MAX_LIST_PAGE = 1000                              # the most papers one list page (API) holds
_UNDERSTOOD = N_("A parameter has a value this page does not understand.")
_OUT_OF_RANGE = N_("A parameter is out of range.")


# --- parameters -----------------------------------------------------------------------------
def int_param(params: Mapping[str, Any], name: str, default: int | None, lo: int, hi: int) -> int | None:
    """An integer URL parameter within [lo, hi]; anything else is a BadRequest."""
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise BadRequest(_UNDERSTOOD, f"{name}={str(raw)[:40]}") from None
    return _in_range(name, value, lo, hi)


def _in_range(name: str, value: int, lo: int, hi: int) -> int:
    if not lo <= value <= hi:
        raise BadRequest(_OUT_OF_RANGE, f"{name}={value} ({lo}–{hi})")
    return value


def float_param(params: Mapping[str, Any], name: str, lo: float, hi: float) -> float | None:
    """A number URL parameter within [lo, hi] (not nan or inf); anything else is a BadRequest."""
    raw = params.get(name)
    if raw is None or raw == "":
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise BadRequest(_UNDERSTOOD, f"{name}={str(raw)[:40]}") from None
    return _float_in(name, value, lo, hi)


def _float_in(name: str, value: float, lo: float, hi: float) -> float:
    if not math.isfinite(value):
        raise BadRequest(_UNDERSTOOD, f"{name}={value}")
    if not lo <= value <= hi:
        raise BadRequest(_OUT_OF_RANGE, f"{name}={value:g} ({lo:g}–{hi:g})")
    return value


def list_param(params: Mapping[str, Any], name: str) -> list[str]:
    """A repeatable URL parameter (``venue=a&venue=b`` or ``venue=a,b``), de-duplicated in order."""
    values = (params.getlist(name) if hasattr(params, "getlist")
              else ([params[name]] if name in params else []))
    return _split(values)


def _split(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for v in values:
        for part in str(v).split(","):
            if part.strip() and part.strip() not in out:
                out.append(part.strip())
    return out


# --- search ---------------------------------------------------------------------------------
def search_request(*, q: str = "", venues: Iterable[str] = (), year: int | str | None = None,
                   year_from: int | None = None, year_to: int | None = None, statuses: Iterable[str] = (),
                   topics: Iterable[str] = (), rating: str | None = None,
                   rating_min: float | None = None, rating_max: float | None = None, sort: str = "relevance",
                   mode: str = "auto", page: int = 1, per_page: int = 20, facets: bool = True,
                   snippets: bool = True) -> SearchRequest:
    """A checked SearchRequest. Lists may hold comma-separated values; venue aliases resolve to
    keys (``nips`` -> ``neurips``); ``year`` is one year or a range as typed (``2020..2024``,
    ``>=2022``) and fills ``year_from`` / ``year_to`` where they are not given; ``rating`` is a
    mean-rating filter as the query language writes it (``>=6``, ``>6``, ``5..6``) and
    ``rating_min`` / ``rating_max`` inclusive bounds that replace its own."""
    keys: list[str] = []
    for name in _split(venues):
        key = venue_registry.resolve(name) or name.lower()
        if key not in keys:
            keys.append(key)
    canon: list[str] = []
    for s in _split(statuses):
        c = s if s in STATUSES else resolve_status(s)
        if c is None or c not in STATUSES:
            raise BadRequest(_UNDERSTOOD, f"status={s[:40]}")
        if c not in canon:
            canon.append(c)
    lo, hi = _years(year)
    year_from = lo if year_from is None else _in_range("year_from", year_from, *YEAR_RANGE)
    year_to = hi if year_to is None else _in_range("year_to", year_to, *YEAR_RANGE)
    if year_from and year_to and year_from > year_to:
        raise BadRequest(_OUT_OF_RANGE, f"year_from={year_from} > year_to={year_to}")
    rr = _ratings(rating, rating_min, rating_max)
    if sort not in SORTS:
        raise BadRequest(_UNDERSTOOD, f"sort={sort[:40]}")
    if mode not in MODES:
        raise BadRequest(_UNDERSTOOD, f"mode={mode[:40]}")
    per_page = _in_range("per_page", per_page, 1, MAX_PER_PAGE)
    page = _in_range("page", page, 1, MAX_WINDOW)
    if page * per_page > MAX_WINDOW:
        raise BadRequest(N_("This page number is past the last page."), f"page={page}")
    return SearchRequest(q=(q or "")[:MAX_QUERY_CHARS].strip(), venues=keys, year_from=year_from,
                         year_to=year_to, statuses=canon, sort=sort, page=page, per_page=per_page, mode=mode,
                         topics=[t.lower() for t in _split(topics)], facets=facets, snippets=snippets,
                         rating_min=rr.lo, rating_max=rr.hi, rating_min_exclusive=rr.lo_exclusive,
                         rating_max_exclusive=rr.hi_exclusive)


def _years(year: int | str | None) -> tuple[int | None, int | None]:
    if year is None or year == "":
        return None, None
    if isinstance(year, int):
        y = _in_range("year", year, *YEAR_RANGE)
        return y, y
    rng = parse_years(year)
    if rng is None:
        raise BadRequest(_UNDERSTOOD, f"year={year[:40]} (use 2024, 2020..2024, >=2022)")
    return rng


def _ratings(rating: str | None, lo: float | None, hi: float | None) -> RatingRange:
    rr = RatingRange()
    if rating is not None and rating != "":
        parsed = parse_ratings(rating)
        if parsed is None:
            raise BadRequest(_UNDERSTOOD, f"rating={rating[:40]} (use 6, >=6, >6, <5, 5..6, 5.5..)")
        rr = parsed
    if lo is not None:
        rr = RatingRange(_float_in("rating_min", lo, RATING_MIN, RATING_MAX), rr.hi, False, rr.hi_exclusive)
    if hi is not None:
        rr = RatingRange(rr.lo, _float_in("rating_max", hi, RATING_MIN, RATING_MAX), rr.lo_exclusive, False)
    if rr.lo is not None and rr.hi is not None and rr.lo > rr.hi:
        raise BadRequest(_OUT_OF_RANGE, f"rating_min={rr.lo:g} > rating_max={rr.hi:g}")
    return rr


def search_request_from_params(params: Mapping[str, Any]) -> SearchRequest:
    """The SearchRequest a URL's parameters describe (the search page and the API)."""
    return search_request(
        q=params.get("q") or "", venues=list_param(params, "venue"),
        year=int_param(params, "year", None, *YEAR_RANGE),
        year_from=int_param(params, "year_from", None, *YEAR_RANGE),
        year_to=int_param(params, "year_to", None, *YEAR_RANGE), statuses=list_param(params, "status"),
        topics=list_param(params, "topic"),
        rating_min=float_param(params, "rating_min", RATING_MIN, RATING_MAX),
        rating_max=float_param(params, "rating_max", RATING_MIN, RATING_MAX),
        sort=params.get("sort") or "relevance",
        mode=params.get("mode") or "auto", page=int_param(params, "page", 1, 1, MAX_WINDOW) or 1,
        per_page=int_param(params, "per_page", 20, 1, MAX_PER_PAGE) or 20)


# --- a conference-year's list ---------------------------------------------------------------
@dataclass(slots=True)
class ListRequest:
    """A conference-year list as asked for: statuses (OR-ed; "unknown" = no status known), one
    track, words that must all appear, a page of ``per_page`` papers (None: all of them), and
    which decisions (``accepted`` papers by default, ``not-accepted`` or ``all`` listed; statuses,
    when given, decide instead)."""

    statuses: list[str]
    track: str | None
    q: str
    page: int
    per_page: int | None
    decision: str = "accepted"
    sort: str = "decision"
    topic: str | None = None            # a topic or area slug

    @property
    def words(self) -> list[str]:
        return self.q.split()[:8]


DECISIONS = ("accepted", "not-accepted", "all")
LIST_SORTS = ("decision", "title", "rating")


def list_request(*, statuses: Iterable[str] = (), track: str | None = None, q: str = "", page: int = 1,
                 per_page: int | None = 100, decision: str = "accepted",
                 sort: str = "decision", topic: str | None = None) -> ListRequest:
    """A checked ListRequest (statuses are canonical names or ``unknown``)."""
    sts = list(dict.fromkeys(statuses))
    for s in sts:
        if s not in STATUSES and s != "unknown":
            raise BadRequest(_UNDERSTOOD, f"status={s[:40]}")
    if decision not in DECISIONS:
        raise BadRequest(_UNDERSTOOD, f"decision={str(decision)[:40]}")
    if sort not in LIST_SORTS:
        raise BadRequest(_UNDERSTOOD, f"sort={str(sort)[:40]}")
    if topic and taxonomy().get(topic) is None:
        raise BadRequest(_UNDERSTOOD, f"topic={str(topic)[:60]}")
    if per_page is not None:
        per_page = _in_range("per_page", per_page, 1, MAX_LIST_PAGE)
    return ListRequest(statuses=sts, track=(track or "").strip() or None, q=(q or "").strip()[:200],
                       page=_in_range("page", page, 1, 100_000), per_page=per_page, decision=decision,
                       sort=sort, topic=topic or None)


def list_request_from_params(params: Mapping[str, Any], page_choices: bool = True) -> ListRequest:
    """A conference-year list's URL parameters; with ``page_choices`` (the page's links) ``per_page``
    is one of LIST_PER_PAGE, else (the API) any number up to MAX_LIST_PAGE."""
    raw = params.get("per_page") or "100"
    if page_choices and raw not in LIST_PER_PAGE:
        raise BadRequest(_UNDERSTOOD, f"per_page={str(raw)[:20]}")
    per_page = None if raw == "all" else int_param(params, "per_page", 100, 1, MAX_LIST_PAGE)
    statuses = params.getlist("status") if hasattr(params, "getlist") else []
    return list_request(statuses=statuses, track=params.get("track"), q=params.get("q") or "",
                        page=int_param(params, "page", 1, 1, 100_000) or 1, per_page=per_page,
                        decision=params.get("decision") or "accepted", sort=params.get("sort") or "decision",
                        topic=params.get("topic") or None)
