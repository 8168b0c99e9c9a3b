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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import tantivy
from tantivy import Occur, Query

from ..index import analyzers
from .clauses import field_clause, phrase_words
from .combine import all_clauses, all_of, bm25, chain, required_clauses
from .negation import keeps_meaning
from .proximity import proximity_parts
from .query import ParsedQuery
from .tiers import AUTHOR_TIER_MAX, TIER_MIN_MATCHES, Part, Tier, bm25_max, make_tier
from .variants import number_forms, same_stems
from .weights import DEFAULT_WEIGHTS, Weights

MATCH_MODES = ("all", "most", "any")
# Words beyond this are ignored (a pasted abstract is not a better query than its first
# sentence); it also bounds how deeply the ranking query nests.
MAX_CLAUSES = 24
DF_CACHE = 100_000          # document frequencies kept per index generation (see ``_df``)
FLAT_MAX_MATCHES = 300      # see ``_build``: below this many matches and above FLAT_MIN_PARTS parts
FLAT_MIN_PARTS = 12


@dataclass(slots=True)
class QTerm:
    word: str          # unstemmed token ("networks")
    stem: str          # stemmed token ("network")
    stop: bool
    prefix: bool       # the user may still be typing it
    known: int = 0     # papers that have it in any field (rough: summed document frequencies)
    verbatim: int = 1  # papers with the word exactly as typed in the title or a name
    joined: bool = False   # the next token is of the same hyphenated word ("self" of "self-supervised")
    whole: str = ""        # the hyphenated word it is part of, written as one ("selfsupervised")


@dataclass(slots=True)
class _Clause:
    term: QTerm
    anyfield: tantivy.Query          # matches the word (or a variant) in any field, BM25-scored
    bonuses: list[Part]              # score only: title and keyword BM25, title and first-author constants
    most: float                      # the most ``anyfield`` can score
    author_df: int = 0               # papers with the word in an author's name
    author_most: float = 0.0         # the most its author BM25 can score


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
    unknown: list[str] = field(default_factory=list)        # words no paper has (suggestions)
    corrections: dict[str, str] = field(default_factory=dict)  # rare word -> common neighbour used
    required: int = 0                                       # clauses a paper must match
    clauses: int = 0                                        # word clauses in the query
    # the tier (tiers.py) of a broad query, made when the match set proves large
    tiering: Callable[[], Tier | None] | None = None
    # a rough guess of the matches, to plan the work (a pasted title of common words has tiering
    # but few matches): the rarest word's papers, halved for each further word (query words are
    # far from independent: "graph neural networks" matches 5,000 papers, not the 700 that
    # independence predicts)
    expected: float = 0.0


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
        out: list[QTerm] = []
        for wi, text in enumerate(pq.words):
            toks = analyzers.word_tokens(text)
            # a hyphenated word is one concept: "in-context" needs its "in" (a stop word alone),
            # so that "in context" stays a pair of the title's words
            joined = len(toks) > 1
            for ti, tok in enumerate(toks):
                stem = analyzers.stem(tok)
                last = pq.prefix_last and wi == len(pq.words) - 1 and ti == len(toks) - 1
                out.append(QTerm(tok, stem, tok in analyzers.STOP_WORDS and not joined, last,
                                 joined=ti < len(toks) - 1, whole="".join(toks) if joined else ""))
        return out

    def build(self, pq: ParsedQuery, mode: str = "all") -> TextQuery:
        """The query for ``pq`` needing all, most or any of its word clauses (see ``MATCH_MODES``)."""
        terms = self.terms(pq)
        tq = TextQuery(None, terms=terms, mode=mode)
        pid = pq.raw.strip()
        if len(pq.words) == 1 and not pq.clauses and self._df("id", pid):
            # a pasted paper id ("neurips2018-uhgcpawt"): that paper
            tq.query = tq.match = Query.term_query(self.schema, "id", pid)
            tq.clauses = tq.required = 1
            return tq
        fixed: list[tuple[Occur, Query]] = []
        for c in pq.clauses:
            q = field_clause(self.schema, self.w, c, tq.stems)
            if q is not None:
                fixed.append((Occur.MustNot if c.negated else Occur.Must, q))
        content = _distinct([t for t in terms if not t.stop] or terms)[:MAX_CLAUSES]
        clauses = [c for c in (self._term_clause(t, tq) for t in content) if c is not None]
        tq.clauses = len(clauses)
        match: list[tuple[Occur, Query]] = list(fixed)
        rank: list[tuple[Occur, Query]] = list(fixed)
        bonuses: list[Part] = []
        if clauses:
            if mode == "all":
                tq.required = len(clauses)
                words_q = all_of(c.anyfield for c in clauses)
                match.append((Occur.Must, words_q))
                rank.append((Occur.Must, words_q))
            else:
                need = 1 if mode == "any" else required_clauses(len(clauses))
                tq.required = need
                match.append((Occur.Must, Query.boolean_query(
                    [(Occur.Should, c.anyfield) for c in clauses], minimum_number_should_match=need)))
                # coverage: a constant per matched word, so that more matched words beat fewer
                covered = [Query.boolean_query([
                    (Occur.Should, c.anyfield),
                    (Occur.Should, Query.const_score_query(
                        c.anyfield, self.w.coverage * self._idf(max(1, c.term.known))))])
                           for c in clauses]
                rank.append((Occur.Must, Query.boolean_query(
                    [(Occur.Should, c) for c in covered], minimum_number_should_match=need)))
            if mode != "any":
                for q in self._tight(terms, tq):
                    match.append((Occur.Must, q))
                    rank.append((Occur.Must, q))
            bonuses = [b for c in clauses for b in c.bonuses] + self._proximity(terms, content, tq)
            if tq.corrections:   # "denoising difusion probabilistic models" is still that exact title
                fixed_terms = [_corrected(t, tq.corrections) for t in terms]
                bonuses += self._proximity(fixed_terms, [_corrected(t, tq.corrections) for t in content], tq)
        if not any(occ == Occur.Must for occ, _ in match):
            # only exclusions: every paper but those
            tq.query = tq.match = (None if not match else
                                   Query.boolean_query([(Occur.Must, Query.all_query()), *match]))
            return tq
        tq.match = all_clauses(match)
        few = mode == "all" and bool(clauses) and min(c.term.known for c in clauses) <= FLAT_MAX_MATCHES
        if few and len(bonuses) >= FLAT_MIN_PARTS and not (tq.prefixes or tq.fuzzy or tq.corrections):
            # Few papers can match (a pasted title): the optional parts as one union, built in
            # one go. A chain of n levels costs n copies of the growing query in tantivy's
            # bindings (~0.3 ms for a 10-word title); merging the parts' postings costs little
            # when few papers are visited.
            tq.query = Query.boolean_query([(Occur.Must, all_clauses(rank)),
                                            *((Occur.Should, b.query) for b in bonuses)])
        else:
            tq.query = chain(all_clauses(rank), [b.query for b in bonuses])
        if (mode == "all" and clauses and not tq.prefixes and not tq.fuzzy and not tq.corrections
                and not any(occ == Occur.Must for occ, _ in fixed)
                and min(c.term.known for c in clauses) >= TIER_MIN_MATCHES):
            # broad: the top hits can come from a small tier (see tiers.py)
            tq.tiering = partial(self._tiers, clauses, bonuses)
            tq.expected = min(c.term.known for c in clauses) / 2 ** (len(clauses) - 1)
        return tq

    def _tight(self, terms: list[QTerm], tq: TextQuery) -> list[Query]:
        """Each hyphenated word of the query as one word: its parts adjacent in the text or in an
        author's name ("in-context", "in context", "Zhi-Hua"), or written as one ("incontext",
        "Zhihua"). Filters that score nothing (a tier's bound is unchanged). None for a word still
        being typed or corrected: its parts are guesses."""
        out: list[Query] = []
        group: list[QTerm] = []
        for t in terms:
            group.append(t)
            if t.joined:
                continue
            guessed = set(tq.prefixes) | set(tq.corrections) | set(tq.fuzzy)
            if len(group) > 1 and not any(g.word in guessed for g in group):
                alts = [Query.phrase_query(self.schema, "text", phrase_words([g.stem for g in group])),
                        Query.phrase_query(self.schema, "authors", phrase_words([g.word for g in group]))]
                alts += [q for q, _, _, _ in self._whole_branches(t.whole)]
                either = Query.boolean_query([(Occur.Should, a) for a in alts])
                out.append(Query.const_score_query(either, 0.0))
            group = []
        return out

    def _proximity(self, terms: list[QTerm], content: list[QTerm], tq: TextQuery) -> list[Part]:
        # The last word is read as unfinished only when it was completed (``_term_clause``):
        # otherwise "diffusion models" would look for titles with a word starting "models",
        # and the stemmed titles have "model".
        typing = bool(terms) and terms[-1].prefix and terms[-1].word in tq.prefixes
        hyphenated = {(a.stem, b.stem) for a, b in zip(terms, terms[1:], strict=False) if a.joined}
        return proximity_parts(self.schema, self.w, [t.word for t in terms], [t.stem for t in terms],
                               [t.stem for t in content], typing, self._df, self._idf, hyphenated,
                               [t.joined for t in terms])

    def _tiers(self, clauses: list[_Clause], parts: list[Part]) -> Tier | None:
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

    def _term_clause(self, t: QTerm, tq: TextQuery) -> _Clause | None:
        """The word in any field (with typo and prefix variants), and its bonuses; None if no
        paper can match it."""
        w, s = self.w, self.schema
        # a stop word inside a hyphenated word ("in" of "in-context", "to" of "text-to-image") is
        # no one's name: without the author branch, its clause is the text's posting list alone,
        # which an intersection seeks; a union with the names must be walked (1.1 ms of 2.3 to
        # count "in-context learning")
        people = not (t.joined and t.word in analyzers.STOP_WORDS)
        branches, bonuses = self._word_branches(t.word, t.stem, 1.0, people=people)
        if t.whole:     # "incontext" has the "in" and the "context" of "in-context" (see ``_tight``)
            branches += self._whole_branches(t.whole)
        for same in same_stems(t.stem):      # "networks" also finds "Nets" (variants.py)
            more, more_bonuses = self._word_branches(same, same, 1.0, people=False, of=t.stem)
            branches += more
            bonuses += more_bonuses
            tq.stems.add(same)
        t.known = sum(df for _, df, _, _ in branches)
        t.verbatim = self._df("title_words", t.word) + self._df("authors", t.word)
        out = [q for q, _, _, _ in branches]
        most = sum(m for _, _, m, _ in branches)
        tq.stems.add(t.stem)
        completed = 0      # papers with a completion of the word (when still typing it)
        rare = t.known < w.typo_df
        if (t.prefix and (rare or len(t.word) <= 3)) or (rare and t.verbatim == 0 and len(t.word) >= 3):
            # still typing, or an abbreviation ("netw"): the most frequent completions in titles
            # and author names
            for fname in ("title_words", "authors"):
                done = [(x, n) for x, n in self.completer(fname, t.word, w.prefix_expansions) if x != t.word]
                if done:
                    out.append(Query.boost_query(Query.term_set_query(s, fname, [x for x, _ in done]),
                                                 w.prefix))
                    most += w.prefix
                    completed += sum(n for _, n in done)
            if completed:
                tq.prefixes.append(t.word)
        unfinished = completed >= 10 * max(1, t.known)
        if (not unfinished and len(t.word) >= 4 and not t.word.isdigit() and t.known < w.typo_df
                and not self._df("authors", t.word)):
            # a rare or unknown word, likely a typo: its most common spelling neighbour (unless it
            # is someone's name: "Frew tracking" is Eric Frew's paper, not "free tracking")
            fix = self.corrector(t.word) if self.corrector is not None else None
            if fix and fix != t.word and keeps_meaning(t.word, fix):
                alt, alt_bonuses = self._word_branches(fix, analyzers.stem(fix), w.correction)
                if sum(df for _, df, _, _ in alt) >= 10 * max(1, t.known):
                    out += [q for q, _, _, _ in alt]
                    most += sum(m for _, _, m, _ in alt)
                    bonuses += alt_bonuses
                    tq.corrections[t.word] = fix
                    tq.stems.add(analyzers.stem(fix))
            if t.known < w.fuzzy_df and t.word not in tq.corrections:
                # no paper has the word and no common neighbour was found: every neighbour
                # (tantivy walks the term dictionary with a Levenshtein automaton; costly)
                dist = 1 if len(t.word) < 8 else 2
                for fname in ("title_words", "authors"):
                    out.append(Query.boost_query(
                        Query.fuzzy_term_query(s, fname, t.word, distance=dist, transposition_cost_one=True),
                        w.fuzzy))
                    most += w.fuzzy
                tq.fuzzy.append(t.word)
        if t.known == 0 and not unfinished:
            tq.unknown.append(t.word)
        if not out:
            return None
        anyfield = out[0] if len(out) == 1 else Query.boolean_query([(Occur.Should, b) for b in out])
        adf, amost = next(((df, m) for q, df, m, f in branches if f == "authors"), (0, 0.0))
        return _Clause(t, anyfield, bonuses, most, adf, amost)

    def _whole_branches(self, whole: str) -> list[tuple[Query, int, float, str]]:
        """A hyphenated word written as one, in the text and in author names ("Zhihua" for
        "Zhi-Hua"): BM25 branches of each of its parts' clauses."""
        out: list[tuple[Query, int, float, str]] = []
        for fname, term, weight in (("text", analyzers.stem(whole), self.w.text),
                                    ("authors", whole, self.w.authors)):
            df = self._df(fname, term)
            if df:
                out.append((bm25(self.schema, fname, term, weight), df, bm25_max(weight, self._idf(df)),
                            fname + "-whole"))
        return out

    def _word_branches(self, word: str, stem: str, scale: float, people: bool = True,
                       of: str | None = None) -> tuple[list[tuple[Query, int, float, str]], list[Part]]:
        """Where a paper has the word: (weighted BM25 query, document frequency, most it can
        score, field) for the text and author names (a paper matches the word if it matches one), and
        the parts that only add score: BM25 in the title and keywords, a constant for the word in
        the title (its stem, and the very word: "variate" is not "variational") and one in the
        first author's name. BM25 alone lets a short title with one query word beat the long
        title that has them all. ``of``: the query word's stem when this is another form of it
        ("net" of "network"), which the title parts need in the tiers' terms (tiers.py)."""
        w, s = self.w, self.schema
        out: list[tuple[Query, int, float, str]] = []
        parts: list[Part] = []
        fields = (("text", stem, w.text), ("authors", word, w.authors))
        for fname, term, weight in fields if people else fields[:1]:
            df = self._df(fname, term)
            if df:
                out.append((bm25(s, fname, term, weight * scale), df,
                            bm25_max(weight * scale, self._idf(df)), fname))
        needs = frozenset([of or stem])
        df = self._df("title", stem)
        if df:
            parts.append(Part(bm25(s, "title", stem, w.title * scale),
                              bm25_max(w.title * scale, self._idf(df)), needs, form=stem))
            if w.title_hit:
                hit = w.title_hit * scale * self._idf(df)
                parts.append(Part(Query.const_score_query(Query.term_query(s, "title", stem, "basic"), hit),
                                  hit, needs, form=stem))
        df = self._df("keywords", stem) if w.keywords else 0
        if df:
            parts.append(Part(bm25(s, "keywords", stem, w.keywords * scale),
                              bm25_max(w.keywords * scale, self._idf(df))))
        # the word as typed in the title, its singular or plural alike ("Diffusion Model" and
        # "Diffusion Models" both have the query's "models")
        forms = [x for x in number_forms(word) if self._df("title_words", x)] if w.title_word else []
        if forms:
            # (a boolean of terms, not a term set: tantivy makes a term set a bitset of every
            # paper with the words, 0.4 ms a query for "model"/"models")
            typed = (Query.term_query(s, "title_words", forms[0], "basic") if len(forms) == 1
                     else Query.boolean_query([(Occur.Should, Query.term_query(s, "title_words", f, "basic"))
                                               for f in forms]))
            parts.append(Part(Query.const_score_query(typed, w.title_word * scale), w.title_word * scale,
                              needs, form=stem))
        if people and w.first_author and self._df("first_author", word):
            parts.append(Part(Query.const_score_query(Query.term_query(s, "first_author", word, "basic"),
                                                      w.first_author * scale), w.first_author * scale,
                              author=word))
            df = self._df("first_surname", word)
            if w.surname and df:
                v = w.surname * scale * self._idf(df)
                parts.append(Part(Query.const_score_query(
                    Query.term_query(s, "first_surname", word, "basic"), v), v, author=word))
        return out, parts


def _corrected(t: QTerm, corrections: dict[str, str]) -> QTerm:
    fix = corrections.get(t.word)
    return t if fix is None else QTerm(fix, analyzers.stem(fix), t.stop, False, t.known)


def _distinct(terms: list[QTerm]) -> list[QTerm]:
    seen: set[tuple[str, str]] = set()
    out = []
    for t in terms:
        if (t.stem, t.word) not in seen:
            seen.add((t.stem, t.word))
            out.append(t)
    return out
