"""Finding one page of hits for a planned request: by relevance (from a tier of the matches when
the query is broad, see tiers.py), by year, title, citations, rating or curated lists, or in browse
order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tantivy
from tantivy import Occur, Order

from .facets import Counts, count_facets
from .filters import combine
from .model import SearchRequest
from .query import Filters, ParsedQuery
from .terms import TextQuery
from .tiers import TIER_MIN_MATCHES

# Expected matches (TextQuery.expected) from which a query's tier is tried before it is known how
# many papers match. Over search_bench's queries the tier gave the page, and cheaper than ranking
# every match, from about 700 expected (BENCHMARKS.md, 2026-12-04 evening); at 3,000 "large language
# models reasoning" (2,588) ranked all its matches: 6.6 ms, 3.0 from its tier.
BROAD = 1000
Addr = tuple[Any, tantivy.DocAddress]


@dataclass(slots=True)
class Plan:
    """One request, parsed and turned into queries against one generation."""

    pq: ParsedQuery
    filters: Filters
    text: TextQuery
    dims: dict[str, list[tuple[Occur, tantivy.Query]]] = field(default_factory=dict)
    # reorders the first ``window`` relevance hits (best first; search.central), or None
    reorder: Callable[[list[Addr]], list[Addr]] | None = None
    window: int = 0
    loaded: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)   # stored docs read
    extra: int = 0      # hits ``reorder`` may put in from outside (search.landmarks.SHOWN)
    added: list[str] = field(default_factory=list)   # ids it put in that do not match the query
    marked: set[tuple[int, int]] = field(default_factory=set)   # the landmarks it put in (hits.key)

    def query(self, without: str | None = None, ranked: bool = True) -> tantivy.Query:
        """The whole query; ``without`` leaves one filter dimension out (for its facet);
        ``ranked=False`` drops the clauses that only add score (cheaper for counting)."""
        clauses = [c for dim, cs in self.dims.items() if dim != without for c in cs]
        return combine(self.text.query if ranked else self.text.match, clauses)

    def within(self, query: tantivy.Query) -> tantivy.Query:
        """``query`` restricted by the request's filters (not by its text)."""
        return combine(query, [c for cs in self.dims.values() for c in cs])


@dataclass(frozen=True, slots=True)
class Step:
    """One search that may give the page: ``bound`` set, only when the page is full and its last
    score beats it (a tier, see tiers.py); else always."""

    query: tantivy.Query
    limit: int
    options: dict[str, Any]
    bound: float | None = None
    post: Callable[[list[Addr]], list[Addr]] | None = None   # makes the page of the hits found


def counted_page(s: tantivy.Searcher, schema: tantivy.Schema, plan: Plan, req: SearchRequest, browse: bool,
                 offset: int) -> tuple[Counts, list[Addr]]:
    """Counts first, then the page they help to find: years sorts search only the years the
    page spans, and the relevance page of a broad query comes from its tier (tiers.py) when
    the matches are many, from ranking them all when few."""
    counts = count_facets(s, plan, req, total=True)
    if not counts.total:
        return counts, []
    if req.sort in ("newest", "oldest"):
        return counts, by_year(s, schema, plan.query(), req.sort == "newest", browse, offset, req.per_page,
                               counts.years)
    return counts, run(s, steps(plan, req.sort, browse, offset, req.per_page,
                                tier=counts.total >= TIER_MIN_MATCHES))


def steps(plan: Plan, sort: str, browse: bool, offset: int, limit: int,
          tier: bool | None = None) -> list[Step]:
    """The searches that find the page (not for year sorts), in order: with ``tier`` (by default:
    when the query looks broad, a guess — the page is exact either way, only its cost differs)
    a broad query's tier comes first."""
    query = plan.query()
    if sort == "title":
        return [Step(query, limit, {"offset": offset, "order_by_field": "title_rank", "order": Order.Asc})]
    if sort == "citations":
        return [Step(query, limit, {"offset": offset, "order_by_field": "citations", "order": Order.Desc})]
    if sort == "listed":    # in the most curated reading lists first (0 for none: those last)
        return [Step(query, limit, {"offset": offset, "order_by_field": "lists", "order": Order.Desc})]
    if sort == "rating":    # highest mean first, ties in browse order, unrated last (index.writer.features)
        return [Step(query, limit, {"offset": offset, "order_by_field": "rating_rank", "order": Order.Asc})]
    if browse:
        return [Step(query, limit, {"offset": offset, "order_by_field": "browse_rank", "order": Order.Asc})]
    post = None
    if plan.reorder is not None:
        # searched from the first hit, then the page is cut from the reordered hits: every page
        # sees the same order, and a paper the reordering put in earlier is not on a later page
        # (``extra`` more hits make up for those it takes out)
        post = _cut(plan.reorder, offset, limit)
        offset, limit = 0, max(plan.window, offset + limit) + plan.extra
    ranked = {"offset": offset, "weight_by_field": "prior"}
    out = []
    if tier is None:
        tier = plan.text.expected >= BROAD
    t = plan.text.tiering() if tier and plan.text.tiering is not None else None
    if t is not None:
        out = [Step(combine(query, [(Occur.Must, t.query)]), limit, ranked, t.bound, post)]
    return out + [Step(query, limit, ranked, post=post)]


def _cut(reorder: Callable[[list[Addr]], list[Addr]], offset: int,
         limit: int) -> Callable[[list[Addr]], list[Addr]]:
    return lambda hits: reorder(hits)[offset:offset + limit]


def run(s: tantivy.Searcher, todo: list[Step]) -> list[Addr]:
    """The page from the first step that gives it."""
    for step in todo:
        hits = s.search(step.query, step.limit, count=False, **step.options).hits
        if step.bound is None or (len(hits) == step.limit and hits[-1][0] > step.bound):
            return step.post(hits) if step.post is not None else hits
    return []


def relevance(s: tantivy.Searcher, query: tantivy.Query, offset: int, limit: int) -> list[Addr]:
    """By score; scores carry a small prior (accepted and newer papers first, see
    index/prior.py), so equal matches list the accepted, then the newer, first."""
    return s.search(query, limit, count=False, offset=offset, weight_by_field="prior").hits


def by_year(s: tantivy.Searcher, schema: tantivy.Schema, query: tantivy.Query, newest: bool, browse: bool,
            offset: int, limit: int, year_counts: dict[int, int]) -> list[Addr]:
    """Newest (or oldest) year first, and within a year by relevance (browse: status, title).
    Uses the year counts of the match set to search only the years the page spans."""
    out: list[Addr] = []
    skip = offset
    for year in sorted(year_counts, reverse=newest):
        n = year_counts[year]
        if skip >= n:
            skip -= n
            continue
        q = combine(query, [(Occur.Must, tantivy.Query.term_query(schema, "year", year))])
        want = min(limit - len(out), n - skip)
        if browse:
            got = s.search(q, want, offset=skip, order_by_field="browse_rank", order=Order.Asc).hits
        else:
            got = relevance(s, q, skip, want)
        out.extend(got)
        skip = 0
        if len(out) >= limit:
            break
    return out
