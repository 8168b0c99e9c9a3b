"""Checking a SearchRequest against the documented limits and turning its explicit filters
(venue chips, year range, statuses ...) into the same ``Filters`` the query language produces."""

from __future__ import annotations

import math
from dataclasses import replace

from .model import MAX_PER_PAGE, MAX_WINDOW, MODES, SORTS, SearchRequest
from .query import RATING_MAX, RATING_MIN, Filters, RatingRange, resolve_status, resolve_venue


class InvalidRequest(ValueError):
    """A request outside the documented limits (page, per_page, sort, mode): a client error."""


def check_request(req: SearchRequest) -> None:
    """Raise ``InvalidRequest`` for values outside the documented limits (no silent clamping:
    a client asking for page 10,001 has a bug worth seeing)."""
    if not isinstance(req.q, str):
        raise InvalidRequest(f"q must be a string (got {type(req.q).__name__})")
    for name in ("venues", "statuses", "tracks", "topics"):
        v = getattr(req, name)
        if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
            raise InvalidRequest(f"{name} must be a list of strings (got {v!r})")
    if req.accepted is not None and not isinstance(req.accepted, bool):
        raise InvalidRequest(f"accepted must be true, false or absent (got {req.accepted!r})")
    if not _is_int(req.page) or req.page < 1:
        raise InvalidRequest(f"page must be >= 1 (got {req.page!r})")
    if not _is_int(req.per_page) or not 1 <= req.per_page <= MAX_PER_PAGE:
        raise InvalidRequest(f"per_page must be between 1 and {MAX_PER_PAGE} (got {req.per_page!r})")
    if req.page * req.per_page > MAX_WINDOW:
        raise InvalidRequest(f"page x per_page must be <= {MAX_WINDOW} (got {req.page} x {req.per_page}); "
                             "narrow the search instead")
    if req.sort not in SORTS:
        raise InvalidRequest(f"sort must be one of {', '.join(SORTS)} (got {req.sort!r})")
    if req.mode not in MODES:
        raise InvalidRequest(f"mode must be one of {', '.join(MODES)} (got {req.mode!r})")
    for name in ("year_from", "year_to"):
        v = getattr(req, name)
        if v is not None and not _is_int(v):
            raise InvalidRequest(f"{name} must be an integer (got {v!r})")
    for name in ("rating_min", "rating_max"):
        v = getattr(req, name)
        if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v)
                              or not RATING_MIN <= v <= RATING_MAX):
            raise InvalidRequest(f"{name} must be a number from {RATING_MIN:g} to {RATING_MAX:g} (got {v!r})")
    if req.rating_min is not None and req.rating_max is not None and req.rating_min > req.rating_max:
        raise InvalidRequest(f"rating_min must be <= rating_max (got {req.rating_min} > {req.rating_max})")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def request_filters(req: SearchRequest, known: frozenset[str], notes: list[str]) -> Filters:
    """The request's explicit filters, with venue aliases and status names resolved."""
    f = Filters(year_from=req.year_from, year_to=req.year_to, accepted=req.accepted)
    for v in req.venues:
        if not v.strip():             # an empty form field is no filter
            continue
        key = resolve_venue(v, set(known))
        if key is None:
            notes.append(f"unknown venue {v!r}")
            key = v.strip().lower()          # matches nothing, honestly: no silent widening
        if key not in f.venues:
            f.venues.append(key)
    for st in req.statuses:
        if not st.strip():
            continue
        canon = resolve_status(st)
        if canon is None:
            notes.append(f"unknown status {st!r}")
            canon = st.strip().lower()
        if canon not in f.statuses:
            f.statuses.append(canon)
    f.tracks = [t.strip().lower() for t in req.tracks if t.strip()]
    f.topics = [t.strip().lower() for t in req.topics if t.strip()]
    if f.year_from is not None and f.year_to is not None and f.year_from > f.year_to:
        f.year_from, f.year_to = f.year_to, f.year_from
    f.restrict_rating(RatingRange(
        None if req.rating_min is None else float(req.rating_min),
        None if req.rating_max is None else float(req.rating_max),
        req.rating_min_exclusive, req.rating_max_exclusive))
    return f


def merge_filters(a: Filters, b: Filters) -> Filters:
    """Both sets of filters at once: lists OR-ed within a kind when both give one (the request's
    venue chips and a typed ``venue:`` widen each other); year ranges intersected."""
    out = replace(a)
    for name in ("venues", "families", "statuses", "tracks", "topics", "not_venues", "not_families",
                 "not_statuses", "not_tracks", "not_topics"):
        merged = list(getattr(a, name))
        merged += [v for v in getattr(b, name) if v not in merged]
        setattr(out, name, merged)
    out.not_years = a.not_years + b.not_years
    lo = [y for y in (a.year_from, b.year_from) if y is not None]
    hi = [y for y in (a.year_to, b.year_to) if y is not None]
    out.year_from = max(lo) if lo else None
    out.year_to = min(hi) if hi else None
    out.accepted = b.accepted if b.accepted is not None else a.accepted
    if (r := b.rating_range()) is not None:
        out.restrict_rating(r)              # both rating filters at once: the ranges intersected
    return out
