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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import tantivy
from tantivy import Occur, Query

from ..index import fulltext
from ..index.bridge import DIR as BRIDGE_DIR
from ..index.bridge import Bridge, Budget
from . import central, glossary, paging, semantic
from . import hits as stored
from .explain import explain
from .facets import Counts, count_facets
from .filters import filter_queries, secondary_versions
from .landmarks import SHOWN, Pool
from .model import MAX_WINDOW, Hit, SearchRequest, SearchResult, unavailable_note
from .paging import Plan
from .query import Filters, ParsedQuery, parse
from .rank import TextQueryBuilder
from .request import check_request, merge_filters, request_filters
from .seeds import seed_ids, seeded_ranking
from .similar import distinctive_terms
from .spare import SpareCore
from .suggest import Suggester
from .terms import TextQuery
from .tiers import important_papers
from .weights import DEFAULT_WEIGHTS, Weights

# sorts by a number: they list only the papers that match closely (see ``Searcher._loosen``)
NUMBER_SORTS = frozenset({"citations", "rating", "listed"})


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
    secondary: tantivy.Query | None        # the versions that unfiltered searches leave out
    bridge: Bridge                         # Chinese words the glossary lacks, from summaries
    landmarks: Pool | None                 # the papers that may be a topic's landmarks

    def warm(self) -> None:
        self.suggester.warm()
        self.bridge.load()
        if self.landmarks is not None:
            self.landmarks.ids()


class Searcher:
    """Searches the live index generation under ``<home>/index``."""

    def __init__(self, home: str | Path, weights: Weights = DEFAULT_WEIGHTS, parallel: bool = True) -> None:
        self.home = Path(home)
        self.root = fulltext.index_root(self.home)
        self.weights = weights
        self._gen: _Generation | None = None
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.semantic = semantic.SemanticRanker(self.home)
        self.parallel = parallel
        self._pool: tuple[int, ThreadPoolExecutor] | None = None
        self._keep_warm = False                # see warm()
        self.spare = SpareCore()     # one search at a time gets a second core, while one is idle
        self.reload()

    @classmethod
    def open(cls, home: str | Path) -> Searcher:
        """A searcher over ``home``; raises ``NoIndex`` when no index was built there yet."""
        s = cls(home)
        if s._gen is None:
            raise NoIndex(f"no search index in {s.root} (run 'paperlist index')")
        return s

    def warm(self) -> None:
        """Load what the first misspelled or unfinished query would otherwise load (the spelling
        vocabulary and the completions of short prefixes: ~0.4 s on the full corpus, which a
        server's first titles with a rare word waited for; the Chinese bridge), and from now on
        load it for each new generation as soon as it is switched in (in the background)."""
        self._keep_warm = True
        self._generation().warm()

    def _workers(self) -> ThreadPoolExecutor:
        """The thread that ranks a page while the calling thread counts facets (made per process:
        a pool inherited through a fork has no threads)."""
        pool = self._pool
        if pool is None or pool[0] != os.getpid():
            with self._lock:
                pool = self._pool
                if pool is None or pool[0] != os.getpid():
                    pool = self._pool = (os.getpid(),
                                         ThreadPoolExecutor(max_workers=1, thread_name_prefix="search"))
        return pool[1]

    @property
    def generation(self) -> str | None:
        return self._gen.name if self._gen else None

    # --- generations --------------------------------------------------------------------------
    def reload(self, force: bool = False) -> bool:
        """Switch to the live generation if it changed (cheap when it did not). True if switched."""
        stamp = fulltext.current_stamp(self.root)
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
            if self._keep_warm:
                threading.Thread(target=self._gen.warm, name="search-warm", daemon=True).start()
            return True

    def _open(self, name: str) -> _Generation:
        index = fulltext.open_index(self.root / name)
        searcher = index.searcher()
        venues = searcher.aggregate(tantivy.Query.all_query(),
                                    {"v": {"terms": {"field": "venue", "size": 10_000}}})
        keys = frozenset(b["key"] for b in venues["v"]["buckets"])
        suggester = Suggester(searcher)
        version = int(str(fulltext.generation_info(self.root / name).get("version", 0)))
        builder = TextQueryBuilder(index, searcher, self.weights, corrector=suggester.correct,
                                   completer=suggester.completions,
                                   important=important_papers(index.schema)
                                   if version >= fulltext.PRIOR_INDEXED_SINCE else None)
        return _Generation(name, index, searcher, builder, keys, suggester, secondary_versions(index.schema),
                           Bridge(self.root / name / BRIDGE_DIR),
                           Pool(searcher, index.schema, secondary_versions(index.schema))
                           if version >= fulltext.PRIOR_INDEXED_SINCE else None)

    def _generation(self) -> _Generation:
        self.reload()
        gen = self._gen
        if gen is None:
            raise NoIndex(f"no search index in {self.root} (run 'paperlist index')")
        return gen

    # --- the search ---------------------------------------------------------------------------
    def search(self, req: SearchRequest) -> SearchResult:
        """Run one request: hits for its page, total, facets, snippets and a suggestion. Its steps:
        translate the Chinese, plan the query, choose the mode (keyword, or by meaning), run it for
        the page and the counts (loosened when nothing matches), suggest a spelling, explain."""
        t0 = time.perf_counter()
        check_request(req)
        gen = self._generation()
        tr = self._translate(gen, req.q)
        plan = self._plan(gen, req, tr.query)
        choice = self._choose(gen, req, plan, tr)
        self._centre(gen, req, plan, choice)
        counts, hits, total = self._run(gen, req, plan, choice)
        suggestion = gen.suggester.suggest(plan.pq, plan.text) if _suggests(plan, total) else None
        interpreted = explain(req, plan, tr, choice.mode, choice.note, choice.browse,
                              self.semantic.unavailable())
        return SearchResult(request=req, total=total, hits=hits, facets=counts.facets,
                            took_ms=(time.perf_counter() - t0) * 1000, suggestion=suggestion,
                            interpreted=interpreted)

    def _translate(self, gen: _Generation, q: str) -> glossary.Translation:
        """The query with its Chinese in English (glossary.py), and the Chinese nothing translated."""
        budget = Budget()           # one query's guesses, whatever it holds (index.bridge)
        return glossary.translate(q, lambda zh: gen.bridge.learn(zh, glossary.containing, budget))

    def _plan(self, gen: _Generation, req: SearchRequest, q: str | None = None) -> Plan:
        """The parsed query (``q``: the request's, translated), its filters, and its text query
        needing every word."""
        pq = parse(req.q if q is None else q, gen.venues)
        f = merge_filters(pq.filters, request_filters(req, gen.venues, pq.notes))
        pq.filters = f
        text = gen.builder.build(pq)
        return Plan(pq, f, text, filter_queries(gen.index.schema, f, gen.secondary))

    def _choose(self, gen: _Generation, req: SearchRequest, plan: Plan, tr: glossary.Translation) -> _Choice:
        """The mode to run, and the ranking by meaning when it is not keyword search (the plan's text
        query then becomes its id list)."""
        # Chinese nothing translated stands for itself by the papers whose summary has it
        seeds = tuple(seed_ids(gen.bridge, tr.unknown)) if tr.unknown else ()
        mode, note = self._mode(req, plan, seeded=bool(seeds))
        fused = (self._fuse(gen, plan, mode, auto=req.mode == "auto", near=seeds)
                 if mode != "keyword" else None)
        if fused is None:
            mode = "keyword"
        elif seeds:
            tr.seeded = len(seeds)
        untranslated = bool(tr.unknown) and not plan.pq.has_text
        if untranslated:
            fused, mode = self._untranslated(gen, plan, tr, list(seeds), req.mode != "keyword")
        return _Choice(mode, note, fused, browse=not plan.pq.has_text and not untranslated)

    def _centre(self, gen: _Generation, req: SearchRequest, plan: Plan, choice: _Choice) -> None:
        """In auto mode, a keyword search by relevance has its first page ordered by how central each
        paper is to the topic, with the topic's landmarks (central.py), when vectors exist."""
        if (choice.fused is None and not choice.browse and req.mode == "auto" and req.sort == "relevance"
                and plan.pq.words and self.semantic.unavailable() is None):
            plan.reorder = central.reorderer(gen.searcher, gen.index.schema, self.semantic, plan,
                                             gen.landmarks)
            plan.window = central.WINDOW
            plan.extra = SHOWN if gen.landmarks is not None else 0

    def _run(self, gen: _Generation, req: SearchRequest, plan: Plan,
             choice: _Choice) -> tuple[Counts, list[Hit], int]:
        """The counts, the page's hits and the total, from the loosest match mode needed to find any."""
        offset = (req.page - 1) * req.per_page
        while True:
            counts, hits = self._page(gen, req, plan, choice.browse, offset)
            total = counts.total + len(plan.added)     # landmarks that do not match (landmarks.py)
            if total or not self._loosen(gen, req, plan, choice):
                return counts, hits, total

    def _page(self, gen: _Generation, req: SearchRequest, plan: Plan, browse: bool,
              offset: int) -> tuple[Counts, list[Hit]]:
        """The counts (facets and total over the whole match set) and the page's hits."""
        if req.sort in ("newest", "oldest") or not self.parallel or not self.spare.acquire():
            counts, addrs = paging.counted_page(gen.searcher, gen.index.schema, plan, req, browse, offset)
            return counts, stored.hits(gen.searcher, plan, addrs, req.snippets)
        # A core is idle and no other search of this process has it: it ranks the page and makes
        # its hits (stored documents, snippets) while this thread counts the facets and the total
        # over the whole match set. Tantivy's search and, for the most part, its aggregation run
        # without the GIL, so the two overlap. Under load every core is busy, and the handover
        # would only cost (spare.py).
        try:
            todo = paging.steps(plan, req.sort, browse, offset, req.per_page)
            pending = self._workers().submit(stored.page_hits, gen.searcher, plan, todo, req.snippets)
            counts = count_facets(gen.searcher, plan, req, total=True)
            return counts, pending.result()
        finally:
            self.spare.release()

    def _loosen(self, gen: _Generation, req: SearchRequest, plan: Plan, choice: _Choice) -> bool:
        """No paper has every word: accept papers with most of them, then with any (the plan's text
        query becomes the looser one). False when nothing looser may be tried."""
        # a list sorted by a number holds only close matches: every word (the loose modes
        # would fill it with papers that have a common word or two and many citations)
        looser = _next_mode(plan.text) if choice.fused is None and req.sort not in NUMBER_SORTS else None
        if looser is None:
            return False
        plan.text = gen.builder.build(plan.pq, looser)
        return True

    def rank(self, q: str, filters: Filters | None = None, limit: int = 100) -> list[tuple[str, float]]:
        """The ranker contract shared with future rankers (vectors, recency) for fusion:
        ``(query, filters, limit) -> [(paper_id, score)]``, best first."""
        gen = self._generation()
        pq = parse(q, gen.venues)
        if filters is not None:
            pq.filters = merge_filters(pq.filters, filters)
        plan = Plan(pq, pq.filters, gen.builder.build(pq),
                    filter_queries(gen.index.schema, pq.filters, gen.secondary))
        if plan.text.query is None:
            return []
        limit = min(max(1, limit), MAX_WINDOW)
        hits = paging.run(gen.searcher, paging.steps(plan, "relevance", False, 0, limit, tier=True))
        return [(stored.doc(gen.searcher, a)["id"], float(sc)) for sc, a in hits]

    def more_like(self, title: str, keywords: list[str], abstract: str | None, limit: int = 10,
                  exclude: tuple[str, ...] = ()) -> list[tuple[str, float]]:
        """Papers sharing the distinctive words of a title, keywords and abstract, best first: the
        text ranker behind similar papers (see ``similar.distinctive_terms``)."""
        gen = self._generation()
        terms = distinctive_terms(title, keywords, abstract, lambda t: gen.builder.doc_freq("text", t),
                                  gen.builder.n_docs)
        if not terms:
            return []
        schema = gen.index.schema
        q = Query.boolean_query([(Occur.Should, Query.boost_query(Query.term_query(schema, "text", t), w))
                                 for t, w in terms])
        # a few extra so that papers tied at the cut are chosen by id, not by segment order
        res = gen.searcher.search(q, limit + len(exclude) + 10, count=False)
        out = sorted(((stored.doc(gen.searcher, a)["id"], float(sc)) for sc, a in res.hits),
                     key=lambda x: (-round(x[1], 4), x[0]))
        return [(pid, sc) for pid, sc in out if pid not in exclude][:limit]

    def _untranslated(self, gen: _Generation, plan: Plan, tr: glossary.Translation, seeds: list[str],
                      vectors: bool) -> tuple[list[tuple[str, float]] | None, str]:
        """A query of only Chinese that nobody translated: the papers whose Chinese summary has it
        and their neighbours (search.seeds), else nothing (not every paper: nothing was asked
        for that could be searched). The plan's text query becomes that list."""
        fused, by_vectors = (seeded_ranking(seeds, self.semantic if vectors else None,
                                            lambda ids: self._more_like_papers(gen, ids))
                             if seeds else ([], False))
        tr.seeded = len(seeds)
        ids = semantic.ids_query(gen.index.schema, fused) if fused else tantivy.Query.boolean_query([])
        plan.text = replace(plan.text, query=ids, match=ids, mode="all", tiering=None)
        return fused, "semantic" if by_vectors else "keyword"

    def _more_like_papers(self, gen: _Generation, ids: list[str],
                          limit: int = 200) -> list[tuple[str, float]]:
        """Papers sharing the distinctive words of these papers' titles and abstracts (a few)."""
        found = gen.searcher.search(semantic.ids_query(gen.index.schema, [(p, 1.0) for p in ids[:5]]), 5)
        docs = [stored.doc(gen.searcher, a) for _, a in found.hits]
        return self.more_like(" ".join(d.get("title_plain") or "" for d in docs), [],
                              " ".join(d.get("abstract") or "" for d in docs), limit, exclude=tuple(ids))

    # --- semantic and hybrid ----------------------------------------------------------------------
    def _mode(self, req: SearchRequest, plan: Plan, seeded: bool = False) -> tuple[str, str | None]:
        """The mode to run and, when a requested mode cannot run, a note saying so. Auto mode is
        hybrid for natural-language queries, and for those with Chinese that only the papers
        whose summary has it can stand for (``seeded``), when vectors exist."""
        if not plan.pq.has_text or not plan.pq.words:
            return "keyword", None
        if req.mode == "keyword":
            return "keyword", None
        if req.mode == "auto":
            if req.sort in NUMBER_SORTS and not seeded:
                return "keyword", None         # sorted by a number: the papers that have the words
            if not seeded and not semantic.wants_semantic(plan.pq):
                return "keyword", None
            return ("keyword", None) if self.semantic.unavailable() else ("hybrid", None)
        reason = self.semantic.unavailable()
        if reason:
            return "keyword", unavailable_note(req.mode, reason)
        return req.mode, None

    def _fuse(self, gen: _Generation, plan: Plan, mode: str, auto: bool = False,
              near: tuple[str, ...] = ()) -> list[tuple[str, float]] | None:
        """Rank by meaning (and, for hybrid, fuse with BM25); the plan's text query becomes the
        fused id list, still ANDed with field clauses and filters. In auto mode, None (keyword
        search) when the best keyword match is the paper whose title was typed."""
        text = " ".join(plan.pq.words + [c.text for c in plan.pq.clauses
                                         if not c.negated and c.field is None])
        kw: list[tuple[str, float]] = []
        if mode == "hybrid":
            hits = self._keyword_candidates(gen, plan)
            docs = [stored.doc(gen.searcher, a) for _, a in hits[:1]]
            if auto and docs and semantic.names_title(plan.pq.words, str(docs[0].get("title") or "")):
                return None         # decided on the first hit alone: the other 99 are not read
            docs += [stored.doc(gen.searcher, a) for _, a in hits[1:]]
            kw = [(d["id"], float(sc)) for d, (sc, _) in zip(docs, hits, strict=True)]
        vec = dict(self.semantic.rank(text, plan.filters, semantic.VECTOR_K, near))
        if mode == "hybrid":
            # the keyword candidates' own cosines, so a paper both rankers found is judged on both
            vec.update(self.semantic.scores(text, [pid for pid, _ in kw if pid not in vec], near))
            # Chinese that only its papers' vectors stand for is in the meaning side alone: it
            # weighs more there
            fused = semantic.relative_fusion(kw, vec, semantic.SEEDED_WEIGHTS if near else None)
        else:
            fused = sorted(((pid, (c + 1) / 2) for pid, c in vec.items()), key=lambda kv: -kv[1])   # 0..1
        ids = semantic.ids_query(gen.index.schema, fused) if fused else tantivy.Query.boolean_query([])
        # field clauses, phrases and exclusions still restrict (author:, "…", -word)
        clauses = plan.pq.constraints()
        if clauses:
            constraint = gen.builder.build(ParsedQuery(plan.pq.raw, clauses=clauses,
                                                       filters=plan.filters)).match
            if constraint is not None:
                ids = tantivy.Query.boolean_query([
                    (Occur.Must, ids), (Occur.Must, tantivy.Query.const_score_query(constraint, 0.0))])
        # the fused order is final
        plan.text = replace(plan.text, query=ids, match=ids, mode="all", tiering=None)
        return fused

    def _keyword_candidates(self, gen: _Generation, plan: Plan) -> list[paging.Addr]:
        """Hybrid's keyword side: the papers with every word, as keyword search ranks them, or when
        no paper has them all (a sentence rarely does), those with most of them. Taking the "most"
        query only then halves hybrid's time (p50 27 -> 14 ms on 4+-word titles: over many words
        it scores a large share of the corpus) and keeps a title typed in full first: known-item
        hit@1 0.982 / 0.985 / 0.982 against 0.980 / 0.983 / 0.981 (BENCHMARKS.md, issue 23)."""
        def top(text: TextQuery) -> list[paging.Addr]:
            # the exact top K: from a broad query's tier when its K-th beats the bound (tiers.py)
            return paging.run(gen.searcher, paging.steps(Plan(plan.pq, plan.filters, text, plan.dims),
                                                         "relevance", False, 0, semantic.KEYWORD_K))

        every = top(plan.text)
        return every if every or plan.text.clauses < 3 else top(gen.builder.build(plan.pq, "most"))


@dataclass(slots=True)
class _Choice:
    """How a request is ranked (``Searcher._choose``)."""

    mode: str                                  # keyword, semantic or hybrid
    note: str | None                           # why the requested mode could not run
    fused: list[tuple[str, float]] | None      # the ranking by meaning (None: keyword search)
    browse: bool                               # nothing to rank: the filters' papers in order


def _suggests(plan: Plan, total: int) -> bool:
    """Whether to look for a better spelling of the query: it found nothing, was loosened, or has
    a word that was corrected, that no paper has, or that no title or name has as typed."""
    t = plan.text
    return plan.pq.has_text and (total == 0 or t.mode != "all" or bool(t.corrections) or bool(t.unknown)
                                 or any(x.verbatim == 0 and not x.stop and not x.prefix for x in t.terms))


def _next_mode(t: TextQuery) -> str | None:
    """The looser match mode to try when ``t`` found nothing (None: nothing looser exists)."""
    if t.mode == "all" and t.clauses >= 3:
        return "most"
    if t.mode in ("all", "most") and t.clauses >= 2:
        return "any"
    return None
