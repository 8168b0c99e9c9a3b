"""Search by meaning: the vector ranker, its fusion with BM25 (relative score fusion), and the choice
of mode.

``mode=semantic`` ranks papers by the cosine similarity of their vector (title + abstract, see
``paperlist embed``) to the query's; ``mode=hybrid`` fuses that list with BM25's by relative score
fusion: each paper scores ¾·(BM25 / best BM25) + ¼·(its cosine, min-max scaled over the candidates),
and a paper without a vector is judged by its words alone. Reciprocal rank fusion (``rrf``, kept
for comparison) was measured first and lost known-item searches: a paper typed by its exact title
is far ahead in BM25 *score* but only one rank ahead, so papers about the same thing that both
rankers liked overtook it (hit@1 on title queries 0.98 -> 0.15 with RRF; see BENCHMARKS.md).
``mode=auto`` (the default) uses hybrid for natural-language queries (four or more words; a Chinese
query counts the words of its translation) when vectors exist, and keyword search otherwise. A
short translated query used to go hybrid too: with 324k vectors that cost the Chinese topic
queries 0.21 nDCG@10 (0.834 -> 0.620), as short phrases find papers that echo them by meaning
rather than the ones that matter.

The fused list becomes a tantivy query (each candidate id with its fused score as a constant), so
filters, field clauses, facets, paging and snippets work exactly as for keyword search.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tantivy
from tantivy import Occur, Query

from ..text import words as text_words
from .query import Filters, ParsedQuery

RRF_K = 60
# Meaning orders what the words found rather than overruling them: on the full corpus (324k
# vectors) 0.5/0.5 cost known-item hit@1 0.5 points and 0.25 kept it within 0.2; the topical
# evaluation's long queries gained a little either way (BENCHMARKS.md, issue 23).
KEYWORD_WEIGHT, VECTOR_WEIGHT = 0.75, 0.25
VECTOR_K = 300               # vector candidates per query (15 pages of 20)
KEYWORD_K = 100              # BM25 candidates fused with them
EXACT_SCOPE = 30_000         # a venue/year scope this small is scanned exactly instead of the graph
AUTO_MIN_WORDS = 4
SEEDED_WEIGHTS = (0.35, 0.65)   # keyword, meaning: a query with Chinese only vectors can read


def rrf(lists: list[list[str]], weights: list[float] | None = None,
        k: int = RRF_K) -> list[tuple[str, float]]:
    """Reciprocal rank fusion of ranked id lists (best first) -> [(id, score)], best first; ties
    keep the order of first appearance (the keyword list comes first)."""
    weights = weights or [1.0] * len(lists)
    score: dict[str, float] = {}
    for ranked, w in zip(lists, weights, strict=False):
        for r, pid in enumerate(ranked, 1):
            score[pid] = score.get(pid, 0.0) + w / (k + r)
    return sorted(score.items(), key=lambda kv: -kv[1])


def relative_fusion(keyword: list[tuple[str, float]], vector: dict[str, float],
                    weights: tuple[float, float] | None = None,
                    ) -> list[tuple[str, float]]:
    """Fuse BM25 hits [(id, score)] with cosine scores {id: cos} of every candidate that has a vector:
    w_k * score / best score + w_v * (cos - lowest) / (highest - lowest); papers without a vector
    get their keyword part scaled to the full weight. Best first, ties in keyword order."""
    wk, wv = weights or (KEYWORD_WEIGHT, VECTOR_WEIGHT)
    best = max((s for _, s in keyword), default=0.0) or 1.0
    lo, hi = (min(vector.values()), max(vector.values())) if vector else (0.0, 1.0)
    span = (hi - lo) or 1.0
    out: dict[str, float] = {}
    for pid, s in keyword:
        kw = max(0.0, s) / best
        out[pid] = wk * kw + wv * (vector[pid] - lo) / span if pid in vector else (wk + wv) * kw
    for pid, c in vector.items():
        if pid not in out:
            out[pid] = wv * (c - lo) / span
    order = {pid: i for i, (pid, _) in enumerate(keyword)}
    return sorted(out.items(), key=lambda kv: (-kv[1], order.get(kv[0], len(order))))


def wants_semantic(pq: ParsedQuery) -> bool:
    """Natural language (auto mode uses hybrid): several plain words (a translated query's
    English ones); not a query made of field clauses (author:, title:) or phrases."""
    if any(c.field in ("authors",) or c.phrase for c in pq.clauses if not c.negated):
        return False
    return len(pq.words) >= AUTO_MIN_WORDS


TITLE_OVERLAP = 0.8


def names_title(words: list[str], title: str) -> bool:
    """Whether the query's words are (nearly) this title's: each side has at least 80% of its
    words in the other (a word dropped, a typo, the order changed). Auto mode then keeps keyword
    search, whose title bonus already puts the paper first: meaning would only cost ~12 ms."""
    q = set(text_words(" ".join(words)))
    t = set(text_words(title))
    if not q or not t:
        return False
    shared = len(q & t)
    return shared >= TITLE_OVERLAP * len(q) and shared >= TITLE_OVERLAP * len(t)


def ids_query(schema: tantivy.Schema, scored: list[tuple[str, float]]) -> Query:
    """Papers in ``scored``, each scoring its given score."""
    return Query.boolean_query([(Occur.Should,
                                 Query.const_score_query(Query.term_query(schema, "id", pid), float(s)))
                                for pid, s in scored])


class SemanticRanker:
    """The vectors of a home and the query encoder, both loaded on first use and optional.

    ``unavailable()`` says why semantic search cannot run (no vectors published yet, or the
    semantic extra not installed); ``rank`` is the ranker contract: (text, filters, limit) ->
    [(paper_id, cosine)], best first."""

    def __init__(self, home: str | Path) -> None:
        self.home = Path(home)
        self._vectors: Any = None
        self._reason: str | None = None
        self._seen: Any = ()            # the vectors' CURRENT stamp when they were last looked for
        self._lock = threading.Lock()

    def vectors(self) -> Any | None:
        """The live vectors, or None. While there are none, each call costs one stat: they are
        looked for again as soon as a generation is published (the background job publishes
        while the site serves), and the query model is then loaded at once, in the background."""
        if self._vectors is None:
            from ..index.generations import current_stamp
            from ..index.vectors import vectors_root

            stamp = current_stamp(vectors_root(self.home))
            if stamp != self._seen:
                with self._lock:
                    if self._vectors is None and stamp != self._seen:
                        retry = self._seen != ()
                        self._seen = stamp
                        self._vectors, self._reason = self._open()
                        if retry and self._vectors is not None:
                            threading.Thread(target=self._warm_model, name="semantic-warm",
                                             daemon=True).start()
        vi = self._vectors
        if vi is not None:
            from ..index.encoder import MODEL_NAME

            model = vi.current().info.get("model")
            if model != MODEL_NAME:         # vectors of two models never meet in one query
                self._reason = (f"the paper vectors were made by {model}, not {MODEL_NAME} "
                                "(run 'paperlist embed')")
                return None
        return vi

    def _warm_model(self) -> None:
        try:
            self.encode("warm up")
        except Exception:  # noqa: BLE001 - the first query by meaning will report it
            pass

    def _open(self) -> tuple[Any | None, str | None]:
        # imported here: the vector side (usearch, torch: the optional semantic extra) stays
        # unloaded until a search asks for vectors
        from ..index.encoder import missing_reason
        from ..index.vectorindex import VectorIndex
        from ..index.vectors import available

        reason = available() or missing_reason()
        if reason:
            return None, reason
        try:
            vi = VectorIndex.open(self.home)
        except Exception as e:  # noqa: BLE001 - unreadable vectors: keyword search still works
            return None, f"the vectors could not be read ({e})"
        if vi is None:
            return None, "no paper vectors yet (run 'paperlist embed')"
        return vi, None

    def unavailable(self) -> str | None:
        return None if self.vectors() is not None else (self._reason or "no paper vectors yet")

    def encode(self, text: str) -> Any:
        from ..index.encoder import shared_encoder  # as in _open

        vi = self.vectors()
        tokens = int(vi.info.get("max_tokens", 128)) if vi is not None else 128
        return shared_encoder(tokens).encode_query(text)

    def warm(self) -> None:
        """Load the vectors and the model now rather than on the first semantic query."""
        if self.vectors() is not None:
            self.encode("warm up")

    def query_vector(self, text: str, near: tuple[str, ...] = ()) -> Any | None:
        """The query's encoding; with ``near`` (the papers whose Chinese summary has a word of the
        query that nothing translated: search.seeds) the mean of it and of their vectors' mean,
        so that the word's meaning counts as much as the rest. None when there is neither."""
        q = self.encode(text) if text.strip() else None
        c = self._centroid(near) if near else None
        if c is None or q is None:
            return q if c is None else c
        import numpy as np

        m = np.asarray(q, dtype=np.float32) + c
        norm = float(np.linalg.norm(m))
        return m / norm if norm > 0 else q

    def _centroid(self, ids: tuple[str, ...] | list[str]) -> Any | None:
        """The unit mean of these papers' vectors (None without vectors or when none has one)."""
        vi = self.vectors()
        if vi is None:
            return None
        _, sub = vector_rows(vi.current(), ids)
        return None if sub is None else _unit_mean(sub)

    def rank(self, text: str, filters: Filters | None = None, limit: int = VECTOR_K,
             near: tuple[str, ...] = ()) -> list[tuple[str, float]]:
        vi = self.vectors()
        q = self.query_vector(text, near) if vi is not None else None
        if vi is None or q is None:
            return []
        g = vi.current()        # one generation for the scope and the search in it
        rows = None
        f = filters
        if f is not None and not f.families and (f.venues or f.year_from is not None
                                                 or f.year_to is not None):
            scope = g.scope(f.venues, f.year_from, f.year_to)
            if scope is not None and len(scope) <= EXACT_SCOPE:
                rows = scope
        return g.search(q, limit, rows=rows)

    def scores(self, text: str, ids: list[str], near: tuple[str, ...] = ()) -> dict[str, float]:
        """Cosine of the query to each listed paper that has a vector (the encoding is cached)."""
        vi = self.vectors()
        q = self.query_vector(text, near) if vi is not None and ids else None
        return {} if vi is None or q is None else vi.scores(q, ids)

    def centrality(self, ids: list[str], of: int) -> Centre | None:
        """The centre of the first ``of`` listed papers (search.central); None without vectors or
        when none of those has one."""
        vi = self.vectors()
        if vi is None:
            return None
        g = vi.current()
        have, sub = vector_rows(g, ids)
        first = sum(i < of for i, _ in have)
        c = _unit_mean(sub[:first]) if sub is not None and first else None
        if sub is None or c is None:
            return None
        return Centre({pid: float(x) for (_, pid), x in zip(have, sub @ c, strict=True)}, c, g)

    def near(self, ids: list[str], limit: int = VECTOR_K) -> list[tuple[str, float]] | None:
        """The papers nearest the mean of these papers' vectors (they are among them), best first;
        None without vectors or when none of them has one."""
        vi = self.vectors()
        c = self._centroid(ids) if vi is not None else None
        return None if vi is None or c is None else vi.current().search(c, limit)

    def similar(self, paper_id: str, limit: int = 10) -> list[tuple[str, float]] | None:
        """Nearest papers to a paper's vector; None when the paper has no vector."""
        vi = self.vectors()
        g = vi.current() if vi is not None else None
        if g is None or paper_id not in g.row:
            return None
        return g.neighbours(paper_id, limit)


@dataclass(frozen=True, slots=True)
class Centre:
    """A topic's centre: the unit mean vector of its first papers (``vector``), each listed
    paper's cosine to it, and the vector generation they come from."""

    cosines: dict[str, float]
    vector: Any
    generation: Any


def vector_rows(g: Any, ids: tuple[str, ...] | list[str]) -> tuple[list[tuple[int, str]], Any | None]:
    """The listed papers that have a vector, as (position in ``ids``, id), and their vectors
    (float32, read in one go), or None when none has one."""
    import numpy as np

    have = [(i, pid) for i, pid in enumerate(ids) if pid in g.row]
    if not have:
        return have, None
    return have, np.asarray(g.mat[np.array([g.row[pid] for _, pid in have])], dtype=np.float32)


def _unit_mean(sub: Any) -> Any | None:
    """The mean of these rows scaled to length 1 (None when it is zero)."""
    import numpy as np

    c = sub.mean(axis=0)
    norm = float(np.linalg.norm(c))
    return c / norm if norm > 0 else None
