"""Keyword ranking: turn parsed text into one tantivy query whose BM25-based score ranks papers.

How a score is made (weights in ``weights.Weights``, tuned on benchmarks/search_eval.py):

- Every query word is one *clause*, which a paper matches when the word is in its text (title,
  keywords and abstract, stemmed: one posting list) or in an author's name (unstemmed). Its
  score is the word's BM25 in the title, the author names and the text times a field weight
  (title > authors > text), summed: the text and author BM25 come with the match, the title BM25
  is an optional part added where it matches (seeking a few papers in a short list is cheaper
  than merging the lists). Constants add to it: the word exactly as typed in the title, a word
  of the first author's name, the first author's surname (x its IDF among surnames). A word that
  the index does not know (or barely knows) also matches its spelling neighbours (Levenshtein 1,
  or 2 for long words) in titles and author names: typo tolerance. The last word, when the user
  is still typing it, also matches its most frequent completions (search as you type).
- Matching (``MATCH_MODES``): first every clause is required ("all": an intersection, which
  tantivy runs fast by leap-frogging posting lists). Only if no paper has every word, *most*
  clauses are required (all but one of 3-5, 70% of more), and if that finds nothing either, any
  one clause ("any"), so forgiving queries still answer.
- A hyphenated word is one word: in "all" and "most" its parts must be adjacent in the text or an
  author's name ("in-context" matches "in-context", "in context" and "incontext", never "in" and
  "context" apart). Only "any" lets them go.
- In "most" and "any", a *coverage* bonus per matched clause (proportional to the word's IDF)
  makes more matched words beat fewer, whatever the BM25 details.
- Proximity: consecutive query words found near each other in the title (phrase, slop 2) add a
  bonus; the whole query as a title phrase adds more; the whole query equal to a title (case,
  accents and punctuation ignored) adds the most: exact and near-exact titles come first.
- The caller multiplies scores by a small prior: accepted main-venue papers get about +2%, workshop
  ones +1%, and each year +0.007% (ties go to the newer paper); see index/prior.py.

Every optional part records the most it can add (``tiers.Part``), so that broad queries can be
ranked exactly from a small tier of papers (see tiers.py).

This module puts a query together from its pieces; one word's clause is made in words.py, the
proximity parts in proximity.py, and the query's words and the result are described in terms.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial

import tantivy
from tantivy import Occur, Query

from .clauses import field_clause
from .combine import all_clauses, all_of, chain, required_clauses
from .proximity import proximity_parts
from .query import ParsedQuery
from .terms import QTerm, TextQuery, corrected, distinct, query_terms
from .tiers import AUTHOR_TIER_MAX, TIER_MIN_MATCHES, Part, Tier, make_tier
from .variants import same_stems
from .weights import DEFAULT_WEIGHTS, Weights
from .words import WordClause, WordClauses

MATCH_MODES = ("all", "most", "any")
# Words beyond this are ignored (a pasted abstract is not a better query than its first
# sentence); it also bounds how deeply the ranking query nests.
MAX_CLAUSES = 24
DF_CACHE = 100_000          # document frequencies kept per index generation (see ``_df``)
FLAT_MAX_MATCHES = 300      # see ``_ranking``: below this many matches and above FLAT_MIN_PARTS parts
FLAT_MIN_PARTS = 12

Clauses = list[tuple[Occur, Query]]


class TextQueryBuilder:
    """Builds ``TextQuery`` objects against one index generation (its schema and term statistics)."""

    def __init__(self, index: tantivy.Index, searcher: tantivy.Searcher, weights: Weights = DEFAULT_WEIGHTS,
                 corrector: Callable[[str], str | None] | None = None,
                 completer: Callable[[str, str, int], list[tuple[str, int]]] | None = None,
                 important: tantivy.Query | None = None) -> None:
        self.schema = index.schema
        self.important = important            # tiers.important_papers, when the index has it
        self.corrector = corrector
        # (field, prefix, limit) -> the most frequent terms with that prefix
        self.completer = completer or (lambda f, p, n: searcher.terms_with_prefix(f, p, limit=n))
        self.searcher = searcher
        self.w = weights
        self.n_docs = max(1, searcher.num_docs)
        self._dfs: dict[tuple[str, str], int] = {}
        self.words = WordClauses(self.schema, weights, self._df, self._idf, corrector, self.completer)

    # --- statistics -------------------------------------------------------------------------
    def _df(self, fieldname: str, term: str) -> int:
        """Document frequency. Kept per index generation (term statistics do not change within
        one; a query looks up ~5 per word, ~3 us each when the term dictionary is cold), in a
        table emptied when it grows past DF_CACHE entries."""
        if not term:
            return 0
        key = (fieldname, term)
        df = self._dfs.get(key)
        if df is None:
            if len(self._dfs) >= DF_CACHE:
                self._dfs.clear()
            df = self._dfs[key] = self.searcher.doc_freq(fieldname, term)
        return df

    def doc_freq(self, fieldname: str, term: str) -> int:
        """Papers with ``term`` in ``fieldname`` (kept as ``_df`` keeps it)."""
        return self._df(fieldname, term)

    def _idf(self, df: int) -> float:
        return math.log(1 + (self.n_docs - df + 0.5) / (df + 0.5))

    # --- building -----------------------------------------------------------------------------
    def terms(self, pq: ParsedQuery) -> list[QTerm]:
        """The tokens of the query's plain words (terms.query_terms)."""
        return query_terms(pq)

    def build(self, pq: ParsedQuery, mode: str = "all") -> TextQuery:
        """The query for ``pq`` needing all, most or any of its word clauses (see ``MATCH_MODES``):
        the field clauses and exclusions, the word clauses, each hyphenated word held together,
        and the optional parts that only add score."""
        terms = query_terms(pq)
        tq = TextQuery(None, terms=terms, mode=mode)
        if self._pasted_id(pq, tq):
            return tq
        fixed = self._field_clauses(pq, tq)
        content = distinct([t for t in terms if not t.stop] or terms)[:MAX_CLAUSES]
        clauses = [c for c in (self.words.clause(t, tq) for t in content) if c is not None]
        tq.clauses = len(clauses)
        match: Clauses = list(fixed)
        rank: Clauses = list(fixed)
        bonuses: list[Part] = []
        if clauses:
            words_match, words_rank = self._words(clauses, mode, tq)
            tight = self.words.tight(terms, tq) if mode != "any" else []
            match += [(Occur.Must, q) for q in (words_match, *tight)]
            rank += [(Occur.Must, q) for q in (words_rank, *tight)]
            bonuses = self._bonuses(terms, content, clauses, tq)
        if not any(occ == Occur.Must for occ, _ in match):
            return _excluding(tq, match)
        tq.match = all_clauses(match)
        tq.query = self._ranking(all_clauses(rank), bonuses, clauses, tq)
        if self._broad(clauses, fixed, tq):
            # broad: the top hits can come from a small tier (see tiers.py)
            tq.tiering = partial(self._tiers, clauses, bonuses)
            tq.expected = min(c.term.known for c in clauses) / 2 ** (len(clauses) - 1)
        return tq

    def _pasted_id(self, pq: ParsedQuery, tq: TextQuery) -> bool:
        """A pasted paper id ("neurips2018-uhgcpawt"): ``tq`` becomes that paper."""
        pid = pq.raw.strip()
        if not (len(pq.words) == 1 and not pq.clauses and self._df("id", pid)):
            return False
        tq.query = tq.match = Query.term_query(self.schema, "id", pid)
        tq.clauses = tq.required = 1
        return True

    def _field_clauses(self, pq: ParsedQuery, tq: TextQuery) -> Clauses:
        """The phrases, field clauses (``author:``) and exclusions, each required or excluded."""
        fixed: Clauses = []
        for c in pq.clauses:
            q = field_clause(self.schema, self.w, c, tq.stems)
            if q is not None:
                fixed.append((Occur.MustNot if c.negated else Occur.Must, q))
        return fixed

    def _words(self, clauses: list[WordClause], mode: str, tq: TextQuery) -> tuple[Query, Query]:
        """The word clauses a paper must match (all, most or any of them), to count and to rank."""
        if mode == "all":
            tq.required = len(clauses)
            words_q = all_of(c.anyfield for c in clauses)
            return words_q, words_q
        need = 1 if mode == "any" else required_clauses(len(clauses))
        tq.required = need
        match = Query.boolean_query([(Occur.Should, c.anyfield) for c in clauses],
                                    minimum_number_should_match=need)
        # coverage: a constant per matched word, so that more matched words beat fewer
        covered = [Query.boolean_query([
            (Occur.Should, c.anyfield),
            (Occur.Should, Query.const_score_query(c.anyfield,
                                                   self.w.coverage * self._idf(max(1, c.term.known))))])
                   for c in clauses]
        rank = Query.boolean_query([(Occur.Should, c) for c in covered], minimum_number_should_match=need)
        return match, rank

    def _bonuses(self, terms: list[QTerm], content: list[QTerm], clauses: list[WordClause],
                 tq: TextQuery) -> list[Part]:
        """The optional parts: each word's, then the proximity parts (as typed and as corrected)."""
        bonuses = [b for c in clauses for b in c.bonuses] + self._proximity(terms, content, tq)
        if tq.corrections:   # "denoising difusion probabilistic models" is still that exact title
            fixed_terms = [corrected(t, tq.corrections) for t in terms]
            bonuses += self._proximity(fixed_terms, [corrected(t, tq.corrections) for t in content], tq)
        return bonuses

    def _ranking(self, base: Query, bonuses: list[Part], clauses: list[WordClause], tq: TextQuery) -> Query:
        """``base`` with the optional parts added where they match."""
        few = tq.mode == "all" and bool(clauses) and min(c.term.known for c in clauses) <= FLAT_MAX_MATCHES
        if few and len(bonuses) >= FLAT_MIN_PARTS and not tq.guessed:
            # Few papers can match (a pasted title): the optional parts as one union, built in
            # one go. A chain of n levels costs n copies of the growing query in tantivy's
            # bindings (~0.3 ms for a 10-word title); merging the parts' postings costs little
            # when few papers are visited.
            return Query.boolean_query([(Occur.Must, base), *((Occur.Should, b.query) for b in bonuses)])
        return chain(base, [b.query for b in bonuses])

    def _broad(self, clauses: list[WordClause], fixed: Clauses, tq: TextQuery) -> bool:
        """Whether the query matches so many papers that its top hits may come from a tier: every
        word required, none of them guessed, no required field clause, and each word common."""
        return (tq.mode == "all" and bool(clauses) and not tq.guessed
                and not any(occ == Occur.Must for occ, _ in fixed)
                and min(c.term.known for c in clauses) >= TIER_MIN_MATCHES)

    def _proximity(self, terms: list[QTerm], content: list[QTerm], tq: TextQuery) -> list[Part]:
        # The last word is read as unfinished only when it was completed (``WordClauses.clause``):
        # otherwise "diffusion models" would look for titles with a word starting "models",
        # and the stemmed titles have "model".
        typing = bool(terms) and terms[-1].prefix and terms[-1].word in tq.prefixes
        hyphenated = {(a.stem, b.stem) for a, b in zip(terms, terms[1:], strict=False) if a.joined}
        return proximity_parts(self.schema, self.w, [t.word for t in terms], [t.stem for t in terms],
                               [t.stem for t in content], typing, self._df, self._idf, hyphenated,
                               [t.joined for t in terms])

    def _tiers(self, clauses: list[WordClause], parts: list[Part]) -> Tier | None:
        """The tier for ``clauses`` (all required). Papers with a word in an author's name
        join the tier when few authors have it ("deep", "large"): that word's author BM25 and
        first-author bonus, large for rare names, then leave the bound."""
        must = 0.0
        alternatives = [p.query for p in parts if p.in_tier]
        rare = set()
        for c in clauses:
            must += c.most
            if 0 < c.author_df <= AUTHOR_TIER_MAX:
                alternatives.append(Query.term_query(self.schema, "authors", c.term.word, "basic"))
                must -= c.author_most
                rare.add(c.term.word)
        parts = [replace(p, in_tier=True) if p.author in rare else p for p in parts]
        # a word is in a title in any of its forms: "Graph Neural Nets" has "networks"
        return make_tier(self.schema, [(c.term.stem, *same_stems(c.term.stem)) for c in clauses], must, parts,
                         alternatives, self.important)


def _excluding(tq: TextQuery, match: Clauses) -> TextQuery:
    """A query of only exclusions: every paper but those (none for an empty query)."""
    tq.query = tq.match = (None if not match else
                           Query.boolean_query([(Occur.Must, Query.all_query()), *match]))
    return tq
