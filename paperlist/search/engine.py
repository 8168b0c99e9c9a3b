"""The search library call: ``Searcher(home).search(SearchRequest) -> SearchResult``.

One ``Searcher`` serves any number of threads. Before each search it checks (one ``stat``)
whether ``paperlist index`` switched in a new generation and, if so, opens it; searches already
running finish on the generation they started with, whose files stay readable even after the
build deletes them.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson
import tantivy
from tantivy import Occur, Order

from ..index import fulltext
from ..models import STATUSES
from .filters import combine, filter_queries
from .highlight import Highlighter
from .model import (MAX_PER_PAGE, MAX_WINDOW, MODES, SORTS, FacetValue, Hit, SearchRequest, SearchResult)
from .query import Filters, ParsedQuery, parse, resolve_status, resolve_venue
from .rank import DEFAULT_WEIGHTS, TextQuery, TextQueryBuilder, Weights
from .suggest import Suggester

FACET_SIZE = {"venue": 500, "year": 300, "status": 20}
STATUS_RANK = {s: i for i, s in enumerate(STATUSES)}


class InvalidRequest(ValueError):
    """A request outside the documented limits (page, per_page, sort, mode): a client error."""


class NoIndex(RuntimeError):
    """No index has been built in this home yet (run ``paperlist index``)."""


@dataclass(slots=True)
class _Generation:
    name: str
    index: tantivy.Index
    searcher: tantivy.Searcher
    builder: TextQueryBuilder
    venues: frozenset[str]
    suggester: Suggester


@dataclass(slots=True)
class _Plan:
    """One request, parsed and turned into queries against one generation."""

    pq: ParsedQuery
    filters: Filters
    text: TextQuery
    dims: dict[str, list[tuple[Occur, tantivy.Query]]] = field(default_factory=dict)

    def query(self, without: str | None = None, ranked: bool = True) -> tantivy.Query:
        """The whole query; ``without`` leaves one filter dimension out (for its facet);
        ``ranked=False`` drops the clauses that only add score (cheaper for counting)."""
        clauses = [c for dim, cs in self.dims.items() if dim != without for c in cs]
        return combine(self.text.query if ranked else self.text.match, clauses)


class Searcher:
    """Searches the live index generation under ``<home>/index``."""

    def __init__(self, home: str | Path, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.home = Path(home)
        self.root = fulltext.index_root(self.home)
        self.weights = weights
        self._gen: _Generation | None = None
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.reload()

    @classmethod
    def open(cls, home: str | Path) -> Searcher:
        """A searcher over ``home``; raises ``NoIndex`` when no index was built there yet."""
        s = cls(home)
        if s._gen is None:
            raise NoIndex(f"no search index in {s.root} (run 'paperlist index')")
        return s

    @property
    def generation(self) -> str | None:
        return self._gen.name if self._gen else None

    # --- generations --------------------------------------------------------------------------
    def _current_stamp(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.root / fulltext.CURRENT_FILE)
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns

    def reload(self, force: bool = False) -> bool:
        """Switch to the live generation if it changed (cheap when it did not). True if switched."""
        stamp = self._current_stamp()
        if stamp == self._stamp and not force:
            return False
        with self._lock:
            if stamp == self._stamp and not force:
                return False
            name = fulltext.current_generation(self.root)
            if name is None or (self._gen is not None and self._gen.name == name and not force):
                self._stamp = stamp
                return False
            self._gen = self._open(name)
            self._stamp = stamp
            return True

    def _open(self, name: str) -> _Generation:
        index = fulltext.open_index(self.root / name)
        searcher = index.searcher()
        venues = searcher.aggregate(tantivy.Query.all_query(), {"v": {"terms": {"field": "venue", "size": 10_000}}})
        keys = frozenset(b["key"] for b in venues["v"]["buckets"])
        suggester = Suggester(searcher)
        builder = TextQueryBuilder(index, searcher, self.weights, corrector=suggester.correct)
        return _Generation(name, index, searcher, builder, keys, suggester)

    def _generation(self) -> _Generation:
        self.reload()
        gen = self._gen
        if gen is None:
            raise NoIndex(f"no search index in {self.root} (run 'paperlist index')")
        return gen

    # --- the search ---------------------------------------------------------------------------
    def search(self, req: SearchRequest) -> SearchResult:
        """Run one request: hits for its page, total, facets, snippets and a suggestion."""
        t0 = time.perf_counter()
        check_request(req)
        gen = self._generation()
        plan = self._plan(gen, req)
        offset = (req.page - 1) * req.per_page
        browse = not plan.pq.has_text
        by_year = req.sort in ("newest", "oldest")
        while True:
            query = plan.query()
            facets, year_counts = self._facets(gen, plan, req) if by_year else ({}, {})
            if by_year:
                total = sum(year_counts.values())
                addrs = self._by_year(gen, plan, query, req.sort == "newest", browse, offset, req.per_page,
                                      year_counts)
            else:
                addrs, total = self._page(gen, query, req.sort, browse, offset, req.per_page)
            mode = _next_mode(plan.text)
            if total or mode is None:
                break
            # no paper has every word: accept papers with most of them, then with any
            plan.text = gen.builder.build(plan.pq, mode)
        if not by_year:
            facets, _ = self._facets(gen, plan, req)
        hits = self._hits(gen, plan, addrs, req.snippets)
        suggestion = None
        if plan.pq.has_text and (total == 0 or plan.text.mode != "all" or plan.text.unknown
                                      or plan.text.corrections):
            suggestion = gen.suggester.suggest(plan.pq, plan.text)
        interpreted = self._interpreted(plan, browse)
        return SearchResult(request=req, total=total, hits=hits, facets=facets,
                            took_ms=(time.perf_counter() - t0) * 1000, suggestion=suggestion,
                            interpreted=interpreted)

    def rank(self, q: str, filters: Filters | None = None, limit: int = 100) -> list[tuple[str, float]]:
        """The ranker contract shared with future rankers (vectors, recency) for fusion:
        ``(query, filters, limit) -> [(paper_id, score)]``, best first."""
        gen = self._generation()
        pq = parse(q, gen.venues)
        if filters is not None:
            pq.filters = _merge_filters(pq.filters, filters)
        plan = _Plan(pq, pq.filters, gen.builder.build(pq), filter_queries(gen.index.schema, pq.filters))
        if plan.text.query is None:
            return []
        res = gen.searcher.search(plan.query(), min(max(1, limit), MAX_WINDOW))
        return [(_doc(gen.searcher, a)["id"], float(sc)) for sc, a in res.hits]

    def _plan(self, gen: _Generation, req: SearchRequest) -> _Plan:
        pq = parse(req.q, gen.venues)
        f = _merge_filters(pq.filters, request_filters(req, gen.venues, pq.notes))
        pq.filters = f
        text = gen.builder.build(pq)
        return _Plan(pq, f, text, filter_queries(gen.index.schema, f))

    def _page(self, gen: _Generation, query: tantivy.Query, sort: str, browse: bool, offset: int,
              limit: int) -> tuple[list[tuple[Any, tantivy.DocAddress]], int]:
        """One page of hits in the requested order, and the total."""
        s = gen.searcher
        if sort == "title":
            res = s.search(query, limit, offset=offset, order_by_field="title_rank", order=Order.Asc)
        elif sort == "citations":
            res = s.search(query, limit, offset=offset, order_by_field="citations", order=Order.Desc)
        elif browse:
            res = s.search(query, limit, offset=offset, order_by_field="browse_rank", order=Order.Asc)
        else:
            return self._relevance(s, query, offset, limit, count=True)
        return res.hits, int(res.count or 0)

    def _relevance(self, s: tantivy.Searcher, query: tantivy.Query, offset: int, limit: int,
                   count: bool = False) -> tuple[list[tuple[float, tantivy.DocAddress]], int]:
        """By score; scores carry a tiny recency factor, so equal matches list the newer first."""
        res = s.search(query, limit, count=count, offset=offset, weight_by_field="recency")
        return res.hits, int(res.count or 0)

    def _by_year(self, gen: _Generation, plan: _Plan, query: tantivy.Query, newest: bool, browse: bool, offset: int,
                 limit: int, year_counts: dict[int, int]) -> list[tuple[float, tantivy.DocAddress]]:
        """Newest (or oldest) year first, and within a year by relevance (browse: status, title).
        Uses the year counts of the match set to search only the years the page spans."""
        out: list[tuple[float, tantivy.DocAddress]] = []
        skip = offset
        for year in sorted(year_counts, reverse=newest):
            n = year_counts[year]
            if skip >= n:
                skip -= n
                continue
            q = combine(query, [(Occur.Must, tantivy.Query.term_query(gen.index.schema, "year", year))])
            want = min(limit - len(out), n - skip)
            if browse:
                got = gen.searcher.search(q, want, offset=skip, order_by_field="browse_rank", order=Order.Asc).hits
            else:
                got, _ = self._relevance(gen.searcher, q, skip, want)
            out.extend(got)
            skip = 0
            if len(out) >= limit:
                break
        return out

    # --- facets -------------------------------------------------------------------------------
    def _facets(self, gen: _Generation, plan: _Plan,
                req: SearchRequest) -> tuple[dict[str, list[FacetValue]], dict[int, int]]:
        """Facet counts over the whole match set. A facet whose own dimension is filtered is
        counted without that filter (so choosing NeurIPS still shows how many ICML has)."""
        need_years = req.sort in ("newest", "oldest")
        if not req.facets and not need_years:
            return {}, {}
        s = gen.searcher
        aggs: dict[str, dict[str, Any]] = {}
        groups: dict[str | None, list[str]] = {}
        dims = ("venue", "year", "status") if req.facets else ()
        for dim in dims:
            groups.setdefault(dim if dim in plan.dims else None, []).append(dim)
        results: dict[str, list[dict[str, Any]]] = {}
        year_all: dict[int, int] | None = None
        for without, names in groups.items():
            spec = {n: {"terms": {"field": n, "size": FACET_SIZE[n]}} for n in names}
            res = s.aggregate(plan.query(without, ranked=False), spec)
            for n in names:
                results[n] = res[n]["buckets"]
            if without is None and "year" in names:
                year_all = {int(b["key"]): b["doc_count"] for b in res["year"]["buckets"]}
        if need_years and year_all is None:
            res = s.aggregate(plan.query(ranked=False), {"year": {"terms": {"field": "year", "size": FACET_SIZE["year"]}}})
            year_all = {int(b["key"]): b["doc_count"] for b in res["year"]["buckets"]}
        facets = {dim: _facet_values(dim, results.get(dim, []), plan.filters) for dim in dims}
        return facets, year_all or {}

    # --- hits ---------------------------------------------------------------------------------
    def _hits(self, gen: _Generation, plan: _Plan, addrs: list[tuple[Any, tantivy.DocAddress]],
              snippets: bool) -> list[Hit]:
        hl = Highlighter(plan.text.stems, plan.text.fuzzy, plan.text.prefixes) if snippets else None
        out = []
        for score, addr in addrs:
            d = _doc(gen.searcher, addr)
            plain = d["title_plain"]
            out.append(Hit(
                id=d["id"], title=d["title"], title_html=hl.title(plain) if hl else _escape(plain),
                authors=d["authors"], author_keys=d["author_keys"], venue=d["venue"],
                venue_short=fulltext.venue_label(d["venue"]), year=d["year"], status=d["status"],
                accepted=d["accepted"], track=d["track"], citations=d["citations"],
                abstract_html=hl.snippet(d["abstract"] or "") if hl else "",
                score=float(score) if isinstance(score, float) else 0.0))
        return out

    def _interpreted(self, plan: _Plan, browse: bool) -> dict[str, Any]:
        t = plan.text
        out: dict[str, Any] = {"mode": "browse" if browse else "keyword"}
        if plan.pq.words:
            out["words"] = plan.pq.words
        clauses = [{"text": c.text, "field": c.field or "any", "phrase": c.phrase, "exclude": c.negated}
                   for c in plan.pq.clauses]
        if clauses:
            out["clauses"] = clauses
        if plan.filters.any():
            out["filters"] = plan.filters.to_dict()
        if t.fuzzy:
            out["fuzzy"] = t.fuzzy
        if t.prefixes:
            out["prefix"] = t.prefixes
        if t.corrections:
            out["corrected"] = t.corrections
        if t.clauses:
            out["match"] = t.mode
            out["required_words"] = t.required
        if plan.pq.notes:
            out["notes"] = plan.pq.notes
        return out


def _next_mode(t: TextQuery) -> str | None:
    """The looser match mode to try when ``t`` found nothing (None: nothing looser exists)."""
    if t.mode == "all" and t.clauses >= 3:
        return "most"
    if t.mode in ("all", "most") and t.clauses >= 2:
        return "any"
    return None


def check_request(req: SearchRequest) -> None:
    """Raise ``InvalidRequest`` for values outside the documented limits (no silent clamping:
    a client asking for page 10,001 has a bug worth seeing)."""
    if not isinstance(req.page, int) or req.page < 1:
        raise InvalidRequest(f"page must be >= 1 (got {req.page!r})")
    if not isinstance(req.per_page, int) or not 1 <= req.per_page <= MAX_PER_PAGE:
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
        if v is not None and not isinstance(v, int):
            raise InvalidRequest(f"{name} must be an integer (got {v!r})")


def request_filters(req: SearchRequest, known: frozenset[str], notes: list[str]) -> Filters:
    """The request's explicit filters, with venue aliases and status names resolved."""
    f = Filters(year_from=req.year_from, year_to=req.year_to, accepted=req.accepted)
    for v in req.venues:
        key = resolve_venue(v, set(known))
        if key is None:
            notes.append(f"unknown venue {v!r}")
            key = v.strip().lower()          # matches nothing, honestly: no silent widening
        if key not in f.venues:
            f.venues.append(key)
    for st in req.statuses:
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
    return f


def _merge_filters(a: Filters, b: Filters) -> Filters:
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
    return out


def _facet_values(dim: str, buckets: list[dict[str, Any]], f: Filters) -> list[FacetValue]:
    selected: set[str] = set()
    if dim == "venue":
        selected = set(f.venues)
    elif dim == "status":
        selected = set(f.statuses)
    elif dim == "year" and f.year_from is not None and f.year_from == f.year_to:
        selected = {str(f.year_from)}
    vals = [FacetValue(str(b["key"]), _label(dim, str(b["key"])), int(b["doc_count"]), str(b["key"]) in selected)
            for b in buckets]
    have = {v.value for v in vals}
    vals += [FacetValue(v, _label(dim, v), 0, True) for v in selected - have]
    if dim == "year":
        vals.sort(key=lambda v: -int(v.value) if v.value.isdigit() else 0)
    elif dim == "status":
        vals.sort(key=lambda v: STATUS_RANK.get(v.value, len(STATUS_RANK)))
    else:
        vals.sort(key=lambda v: (-v.count, v.label.lower()))
    return vals


def _label(dim: str, value: str) -> str:
    return fulltext.venue_label(value) if dim == "venue" else value


def _doc(s: tantivy.Searcher, addr: tantivy.DocAddress) -> dict[str, Any]:
    return orjson.loads(s.doc(addr).get_first("doc"))


def _escape(text: str) -> str:
    import html
    return html.escape(text, quote=True)
