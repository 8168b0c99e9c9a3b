"""How the pieces of a keyword query are put together into one tantivy query: a BM25 term, all of
several queries, a base with optional bonuses, and how many word clauses a paper must match."""

from __future__ import annotations

import math
from collections.abc import Iterable

import tantivy
from tantivy import Occur, Query


def bm25(schema: tantivy.Schema, fieldname: str, term: str, boost: float) -> Query:
    """A BM25-scored term (frequencies only: positions are for phrases)."""
    return Query.boost_query(Query.term_query(schema, fieldname, term, "freq"), boost)


def chain(base: Query, bonuses: list[Query]) -> Query:
    """``base`` plus each bonus where it matches. Nested one optional clause per level rather
    than one flat list: tantivy then *seeks* each bonus to the base's matches (skip lists)
    instead of scanning the union of all their postings, twice as fast on common words."""
    q = base
    for b in bonuses:
        q = Query.boolean_query([(Occur.Must, q), (Occur.Should, b)])
    return q


def all_of(queries: Iterable[Query]) -> Query:
    qs = list(queries)
    return qs[0] if len(qs) == 1 else Query.boolean_query([(Occur.Must, q) for q in qs])


def all_clauses(clauses: list[tuple[Occur, Query]]) -> Query:
    if len(clauses) == 1 and clauses[0][0] == Occur.Must:
        return clauses[0][1]
    return Query.boolean_query(clauses)


def required_clauses(n: int) -> int:
    """How many of ``n`` word clauses a paper must match (all of 1-2, all but one of 3-5, 70%)."""
    if n <= 2:
        return n
    if n <= 5:
        return n - 1
    return max(1, math.ceil(0.7 * n))
