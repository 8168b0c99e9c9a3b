"""Keyword ranking: turn parsed text into one tantivy query whose BM25-based score ranks papers.

How a score is made (weights in ``Weights``, tuned on benchmarks/search_eval.py):

- Every query word is one *clause*: the word in the title (stemmed), authors (unstemmed), keywords
  and abstract (stemmed), each with its BM25 score times a field weight (title > authors >
  keywords > abstract), summed. A word that the index does not know (or barely knows) also
  matches its spelling neighbours (Levenshtein 1, or 2 for long words) in titles and author names:
  typo tolerance. The last word, when the user is still typing it, also matches its most frequent
  completions (search as you type).
- Matching (``MATCH_MODES``): first every clause is required ("all": an intersection, which
  tantivy runs fast by leap-frogging posting lists). Only if no paper has every word, *most*
  clauses are required (all but one of 3-5, 70% of more), and if that finds nothing either, any
  one clause ("any"), so forgiving queries still answer.
- In "most" and "any", a *coverage* bonus per matched clause (proportional to the word's IDF)
  makes more matched words beat fewer, whatever the BM25 details.
- Proximity: consecutive query words found near each other in the title (phrase, slop 2) add a
  bonus; the whole query as a title phrase adds more; the whole query equal to a title (case,
  accents and punctuation ignored) adds the most: exact and near-exact titles come first.
- Ties go to the newer paper: the caller multiplies scores by a tiny recency factor.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable

import tantivy
from tantivy import Occur, Query

from ..index import analyzers
from ..text import title_key
from .query import ParsedQuery, TextClause


MATCH_MODES = ("all", "most", "any")


@dataclass(frozen=True, slots=True)
class Weights:
    title: float = 3.0
    authors: float = 2.5
    keywords: float = 1.5
    abstract: float = 1.0
    fuzzy: float = 4.0            # constant score of a spelling neighbour (per field)
    prefix: float = 3.0           # constant score of a completion of the last word
    coverage: float = 2.0         # x IDF per matched clause
    title_hit: float = 4.0        # x IDF per word found in the title
    title_word: float = 8.0       # the word itself (unstemmed) is in the title
    first_author: float = 20.0    # a word of the first author's name
    pair: float = 2.0             # consecutive words close together in the title
    phrase: float = 6.0           # the whole query is a phrase of the title
    phrase_slop: int = 3
    exact: float = 40.0           # the whole query is the title
    author: float = 10.0          # the whole query is an author's name
    fuzzy_df: int = 2             # words in fewer papers than this also match spelling neighbours
    typo_df: int = 30             # words in fewer papers than this also match a common neighbour
    correction: float = 0.9       # weight of that neighbour relative to the word itself
    prefix_expansions: int = 40


DEFAULT_WEIGHTS = Weights()


@dataclass(slots=True)
class QTerm:
    word: str          # unstemmed token ("networks")
    stem: str          # stemmed token ("network")
    stop: bool
    prefix: bool       # the user may still be typing it
    known: int = 0     # papers that have it in any field (rough: summed document frequencies)


@dataclass(slots=True)
class TextQuery:
    """The tantivy query for the text part, and what highlighting and suggestions need."""

    query: tantivy.Query | None                             # to rank with
    match: tantivy.Query | None = None                      # same matches, no ranking extras (counts)
    mode: str = "all"
    terms: list[QTerm] = field(default_factory=list)
    stems: set[str] = field(default_factory=set)            # highlight: stemmed words
    fuzzy: list[str] = field(default_factory=list)          # highlight: words matched with typos
    prefixes: list[str] = field(default_factory=list)       # highlight: unfinished last word
    phrases: list[list[str]] = field(default_factory=list)  # highlight: words of quoted phrases
    unknown: list[str] = field(default_factory=list)        # words no paper has (suggestions)
    corrections: dict[str, str] = field(default_factory=dict)  # rare word -> common neighbour used
    required: int = 0                                       # clauses a paper must match
    clauses: int = 0                                        # word clauses in the query


class TextQueryBuilder:
    """Builds ``TextQuery`` objects against one index generation (its schema and term statistics)."""

    def __init__(self, index: tantivy.Index, searcher: tantivy.Searcher, weights: Weights = DEFAULT_WEIGHTS,
                 corrector: Callable[[str], str | None] | None = None) -> None:
        self.schema = index.schema
        self.corrector = corrector
        self.searcher = searcher
        self.w = weights
        self.n_docs = max(1, searcher.num_docs)

    # --- statistics -------------------------------------------------------------------------
    def _df(self, fieldname: str, term: str) -> int:
        return self.searcher.doc_freq(fieldname, term) if term else 0

    def _idf(self, df: int) -> float:
        return math.log(1 + (self.n_docs - df + 0.5) / (df + 0.5))

    # --- building -----------------------------------------------------------------------------
    def terms(self, pq: ParsedQuery) -> list[QTerm]:
        out: list[QTerm] = []
        for wi, text in enumerate(pq.words):
            toks = analyzers.word_tokens(text)
            for ti, tok in enumerate(toks):
                stem = analyzers.stem(tok)
                last = pq.prefix_last and wi == len(pq.words) - 1 and ti == len(toks) - 1
                out.append(QTerm(tok, stem, tok in analyzers.STOP_WORDS, last))
        return out

    def build(self, pq: ParsedQuery, mode: str = "all") -> TextQuery:
        """The query for ``pq`` needing all, most or any of its word clauses (see ``MATCH_MODES``)."""
        terms = self.terms(pq)
        tq = TextQuery(None, terms=terms, mode=mode)
        fixed: list[tuple[Occur, Query]] = []
        for c in pq.clauses:
            q = self._clause(c, tq)
            if q is not None:
                fixed.append((Occur.MustNot if c.negated else Occur.Must, q))
        content = [t for t in terms if not t.stop] or terms
        clauses = [c for c in (self._term_clause(t, tq) for t in content) if c is not None]
        tq.clauses = len(clauses)
        match: list[tuple[Occur, Query]] = list(fixed)
        rank: list[tuple[Occur, Query]] = list(fixed)
        if clauses:
            if mode == "all":
                tq.required = len(clauses)
                words_q = _all(anyfield for anyfield, _ in clauses)
                match.append((Occur.Must, words_q))
                rank.append((Occur.Must, words_q))
            else:
                need = 1 if mode == "any" else required_clauses(len(clauses))
                tq.required = need
                match.append((Occur.Must, Query.boolean_query(
                    [(Occur.Should, a) for a, _ in clauses], minimum_number_should_match=need)))
                covered = [Query.boolean_query([(Occur.Should, a), (Occur.Should, c)]) for a, c in clauses]
                rank.append((Occur.Must, Query.boolean_query(
                    [(Occur.Should, c) for c in covered], minimum_number_should_match=need)))
            rank += [(Occur.Should, b) for b in self._proximity(terms, content)]
        if not any(occ == Occur.Must for occ, _ in match):
            # only exclusions: every paper but those
            tq.query = tq.match = (None if not match else
                                   Query.boolean_query([(Occur.Must, Query.all_query()), *match]))
            return tq
        tq.match = _all_clauses(match)
        tq.query = _all_clauses(rank)
        return tq

    def _term_clause(self, t: QTerm, tq: TextQuery) -> tuple[Query, Query] | None:
        """(the word in any field, a constant coverage score for it), or None if it cannot match."""
        w, s = self.w, self.schema
        branches = self._word_branches(t.word, t.stem, 1.0)
        t.known = sum(df for _, df in branches)
        out = [q for q, _ in branches]
        tq.stems.add(t.stem)
        completed = 0      # papers with a completion of the word (when still typing it)
        if t.prefix and (t.known < w.typo_df or len(t.word) <= 3):
            # still typing: the most frequent completions in titles and author names
            for fname in ("title_words", "authors"):
                done = [(x, n) for x, n in self.searcher.terms_with_prefix(fname, t.word, limit=w.prefix_expansions)
                        if x != t.word]
                if done:
                    out.append(Query.boost_query(Query.term_set_query(s, fname, [x for x, _ in done]), w.prefix))
                    completed += sum(n for _, n in done)
            if completed:
                tq.prefixes.append(t.word)
        unfinished = completed >= 10 * max(1, t.known)
        if not unfinished and len(t.word) >= 4 and not t.word.isdigit():
            if t.known < w.fuzzy_df:
                # unknown word: its spelling neighbours in titles and names
                dist = 1 if len(t.word) < 8 else 2
                for fname in ("title_words", "authors"):
                    out.append(Query.boost_query(
                        Query.fuzzy_term_query(s, fname, t.word, distance=dist, transposition_cost_one=True), w.fuzzy))
                tq.fuzzy.append(t.word)
            if t.known < w.typo_df and self.corrector is not None:
                # a rare word (a typo some papers share): also its much more common neighbour
                fix = self.corrector(t.word)
                if fix and fix != t.word:
                    alt = self._word_branches(fix, analyzers.stem(fix), w.correction)
                    if sum(df for _, df in alt) >= 10 * max(1, t.known):
                        out += [q for q, _ in alt]
                        tq.corrections[t.word] = fix
                        tq.stems.add(analyzers.stem(fix))
        if t.known == 0 and not unfinished:
            tq.unknown.append(t.word)
        if not out:
            return None
        anyfield = out[0] if len(out) == 1 else Query.boolean_query([(Occur.Should, b) for b in out])
        # Coverage: a constant per matched word, so that more matched words beat fewer.
        cover = Query.const_score_query(anyfield, w.coverage * self._idf(max(1, t.known)))
        return anyfield, cover

    def _word_branches(self, word: str, stem: str, scale: float) -> list[tuple[Query, int]]:
        """The word in each text field where it occurs: (weighted term query, document frequency).
        Title and first-author matches also add a constant: BM25 alone lets a short title that
        has one query word beat the long title that has them all."""
        w, s = self.w, self.schema
        out = []
        for fname, term, weight in (("title", stem, w.title), ("authors", word, w.authors),
                                    ("keywords", stem, w.keywords), ("abstract", stem, w.abstract)):
            df = self._df(fname, term)
            if df:
                out.append((Query.boost_query(Query.term_query(s, fname, term), weight * scale), df))
                if fname == "title" and w.title_hit:
                    out.append((Query.const_score_query(Query.term_query(s, "title", term, "basic"),
                                                        w.title_hit * scale * self._idf(df)), 0))
                    # the very word, not only its stem ("variate" is not "variational")
                    if w.title_word and self._df("title_words", word):
                        out.append((Query.const_score_query(Query.term_query(s, "title_words", word, "basic"),
                                                            w.title_word * scale), 0))
        if w.first_author and self._df("first_author", word):
            out.append((Query.const_score_query(Query.term_query(s, "first_author", word, "basic"),
                                                w.first_author * scale), 0))
        return out

    def _proximity(self, terms: list[QTerm], content: list[QTerm]) -> list[Query]:
        w, s = self.w, self.schema
        out: list[Query] = []
        stems = [t.stem for t in terms if t.stem]
        # consecutive content words near each other in the title
        for a, b in zip(content, content[1:]):
            if a.stem and b.stem and a.stem != b.stem and not b.prefix:
                out.append(Query.boost_query(Query.phrase_query(s, "title", [a.stem, b.stem], slop=2), w.pair))
        if len(stems) >= 2:
            if terms[-1].prefix:
                words = [t.word for t in terms]
                out.append(Query.boost_query(Query.phrase_prefix_query(s, "title_words", words), w.phrase))
            else:   # loose: words dropped from the title still count as "the title"
                out.append(Query.boost_query(Query.phrase_query(s, "title", stems, slop=w.phrase_slop), w.phrase))
        key = title_key(" ".join(t.word for t in terms))
        if key:
            out.append(Query.boost_query(Query.term_query(s, "title_key", key), w.exact))
        if 2 <= len(terms) <= 5:     # the query may be a person's name
            from ..names import author_key
            out.append(Query.boost_query(Query.term_query(s, "author_key", author_key(
                " ".join(t.word for t in terms))), w.author))
        return out

    def _clause(self, c: TextClause, tq: TextQuery) -> Query | None:
        """A quoted phrase or a field clause: required (or excluded when negated)."""
        s = self.schema
        words = analyzers.word_tokens(c.text)
        if not words:
            return None
        stems = [analyzers.stem(x) for x in words]
        if not c.negated:
            tq.stems.update(stems)
            if c.phrase or c.field == "authors":
                tq.phrases.append(words)
        if c.field == "authors":
            return self._author_clause(c.text, words)
        fields = [c.field] if c.field else ["title", "abstract", "keywords", "authors"]
        per_field: list[Query] = []
        for f in fields:
            toks = words if f == "authors" else stems
            if c.phrase and len(toks) > 1:
                q = Query.phrase_query(s, f, toks)
            elif len(toks) == 1:
                q = Query.term_query(s, f, toks[0])
            else:   # field:words without quotes: every word in that field
                q = Query.boolean_query([(Occur.Must, Query.term_query(s, f, x)) for x in toks])
            weight = {"title": self.w.title, "authors": self.w.authors, "keywords": self.w.keywords}.get(f, 1.0)
            per_field.append(Query.boost_query(q, weight))
        return per_field[0] if len(per_field) == 1 else Query.boolean_query([(Occur.Should, q) for q in per_field])

    def _author_clause(self, text: str, words: list[str]) -> Query:
        """An author: the whole name as its author key ("Zhi-Hua Zhou" = "Zhihua Zhou" =
        "Zhou, Zhi-Hua"), or its words as a phrase in one author's name, in either order."""
        from ..names import author_key, flip_comma_name

        s = self.schema
        alts: list[Query] = []
        key = author_key(flip_comma_name(text))
        if key:
            alts.append(Query.term_query(s, "author_key", key))
        if len(words) == 1:
            alts.append(Query.term_query(s, "authors", words[0]))
        else:
            alts.append(Query.phrase_query(s, "authors", words))
            alts.append(Query.phrase_query(s, "authors", words[::-1]))
        q = Query.boolean_query([(Occur.Should, a) for a in alts])
        # constant: any paper of the author is as good as another (then newest first)
        return Query.const_score_query(q, self.w.author)


def _all(queries: Iterable[Query]) -> Query:
    qs = list(queries)
    return qs[0] if len(qs) == 1 else Query.boolean_query([(Occur.Must, q) for q in qs])


def _all_clauses(clauses: list[tuple[Occur, Query]]) -> Query:
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
