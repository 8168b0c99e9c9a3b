"""Filters as tantivy queries, one per dimension, so facets can leave their own dimension out.

Venue semantics: ``venue:acl`` is exactly the ACL main conference (the value the venue facet
shows); ``family:acl`` is ACL together with the sub-venues whose papers belong to its family
(Findings of ACL). Workshops are never included by either: they are separate publications with
their own keys (``venue:cvprw``).
"""

from __future__ import annotations

import tantivy
from tantivy import FieldType, Occur, Query

from .query import Filters, RatingRange


def secondary_versions(schema: tantivy.Schema) -> Query | None:
    """The papers that are not the published version of their work (versions.py), or None for an
    index built before versions were linked."""
    try:
        return Query.term_query(schema, "secondary", True)
    except ValueError:
        return None


def filter_queries(schema: tantivy.Schema, f: Filters,
                   secondary: Query | None = None) -> dict[str, list[tuple[Occur, Query]]]:
    """Per dimension ("venue", "year", "status", "accepted", "rating", "track", "topic"), the clauses that
    restrict to it. Every clause scores 0, so filters never change the ranking. Without any filter,
    the ``secondary`` versions of a work are left out (dimension "versions"): a search shows each
    work once, as its published version; a filter (a venue, a year, a status) finds each version."""
    out: dict[str, list[tuple[Occur, Query]]] = {}
    if secondary is not None and not f.any():
        out["versions"] = [(Occur.MustNot, secondary)]

    def add(dim: str, occ: Occur, q: Query) -> None:
        out.setdefault(dim, []).append((occ, Query.const_score_query(q, 0.0)))

    def terms(fieldname: str, values: list[str]) -> Query:
        return (Query.term_query(schema, fieldname, values[0]) if len(values) == 1
                else Query.term_set_query(schema, fieldname, values))

    # venue and family are one dimension: the venue facet lets users widen or narrow both
    if f.venues or f.families:
        alts = (([terms("venue", f.venues)] if f.venues else [])
                + ([terms("family", f.families)] if f.families else []))
        add("venue", Occur.Must,
            alts[0] if len(alts) == 1 else Query.boolean_query([(Occur.Should, a) for a in alts]))
    if f.not_venues:
        add("venue", Occur.MustNot, terms("venue", f.not_venues))
    if f.not_families:
        add("venue", Occur.MustNot, terms("family", f.not_families))
    if f.year_from is not None or f.year_to is not None:
        add("year", Occur.Must, year_range(schema, f.year_from, f.year_to))
    for lo, hi in f.not_years:
        add("year", Occur.MustNot, year_range(schema, lo, hi))
    if f.statuses:
        add("status", Occur.Must, terms("status", f.statuses))
    if f.not_statuses:
        add("status", Occur.MustNot, terms("status", f.not_statuses))
    if f.accepted is not None:
        add("accepted", Occur.Must, Query.term_query(schema, "accepted", f.accepted))
    if f.tracks:
        add("track", Occur.Must, terms("track", f.tracks))
    if f.not_tracks:
        add("track", Occur.MustNot, terms("track", f.not_tracks))
    if (r := f.rating_range()) is not None:
        add("rating", Occur.Must, rating_range(schema, r))
    if f.topics:
        add("topic", Occur.Must, terms("topic", f.topics))
    if f.not_topics:
        add("topic", Occur.MustNot, terms("topic", f.not_topics))
    return out


def year_range(schema: tantivy.Schema, lo: int | None, hi: int | None) -> Query:
    if lo is None and hi is None:
        return Query.all_query()
    return Query.range_query(schema, "year", FieldType.Integer, lo, hi)


def rating_range(schema: tantivy.Schema, r: RatingRange) -> Query:
    """Papers whose mean rating is within ``r``: only rated papers have a ``rating`` value, so an
    unrated paper matches no range."""
    return Query.range_query(schema, "rating", FieldType.Float, r.lo, r.hi,
                             include_lower=r.lo is None or not r.lo_exclusive,
                             include_upper=r.hi is None or not r.hi_exclusive)


def combine(text: Query | None, clauses: list[tuple[Occur, Query]]) -> Query:
    """The text query (or every paper) AND the filter clauses."""
    if not clauses:
        return text if text is not None else Query.all_query()
    base = text if text is not None else Query.all_query()
    if all(occ == Occur.MustNot for occ, _ in clauses):
        return Query.boolean_query([(Occur.Must, base), *clauses])
    return Query.boolean_query(([(Occur.Must, base)] if text is not None else []) + clauses)
