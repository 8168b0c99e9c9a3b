"""One query word's clause in the keyword ranking: where a paper has the word (the text, author
names, other forms of it, the hyphenated word written as one), what guesses stand in when the
word is unfinished or misspelled (completions, the common spelling neighbour, every neighbour),
and the parts that only add score (the title, keywords, the first author). rank.py puts the
clauses of all the words together; this is the part that reads one word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tantivy
from tantivy import Occur, Query

from ..index import analyzers
from .clauses import phrase_words
from .combine import bm25
from .negation import keeps_meaning
from .terms import QTerm, TextQuery
from .tiers import Part, bm25_max
from .variants import number_forms, same_stems
from .weights import Weights

# where a paper has a word: (weighted BM25 query, document frequency, most it can score, field)
Branch = tuple[Query, int, float, str]


@dataclass(slots=True)
class WordClause:
    term: QTerm
    anyfield: tantivy.Query          # matches the word (or a variant) in any field, BM25-scored
    bonuses: list[Part]              # score only: title and keyword BM25, title and first-author constants
    most: float                      # the most ``anyfield`` can score
    author_df: int = 0               # papers with the word in an author's name
    author_most: float = 0.0         # the most its author BM25 can score


@dataclass(slots=True)
class _Alternatives:
    """What a paper may match for one word (any of ``queries``), growing as guesses are added."""

    queries: list[Query]
    most: float              # the most the word's clause can score
    bonuses: list[Part]


class WordClauses:
    """Builds ``WordClause`` objects against one index generation's schema and term statistics."""

    def __init__(self, schema: tantivy.Schema, weights: Weights, df: Callable[[str, str], int],
                 idf: Callable[[int], float], corrector: Callable[[str], str | None] | None,
                 completer: Callable[[str, str, int], list[tuple[str, int]]]) -> None:
        self.schema = schema
        self.w = weights
        self.df = df
        self.idf = idf
        self.corrector = corrector
        self.completer = completer      # (field, prefix, limit) -> the most frequent terms with it

    def clause(self, t: QTerm, tq: TextQuery) -> WordClause | None:
        """The word in any field (with typo and prefix variants), and its bonuses; None if no
        paper can match it. Records in ``tq`` the stems, completions, corrections and unknown words."""
        branches, bonuses = self._forms(t, tq)
        t.known = sum(df for _, df, _, _ in branches)
        t.verbatim = self.df("title_words", t.word) + self.df("authors", t.word)
        alts = _Alternatives([q for q, _, _, _ in branches], sum(m for _, _, m, _ in branches), bonuses)
        tq.stems.add(t.stem)
        completed = self._complete(t, tq, alts)
        unfinished = completed >= 10 * max(1, t.known)
        if not unfinished and self._maybe_typo(t):
            self._correct(t, tq, alts)
            if t.known < self.w.fuzzy_df and t.word not in tq.corrections:
                self._fuzzy(t, tq, alts)
        if t.known == 0 and not unfinished:
            tq.unknown.append(t.word)
        if not alts.queries:
            return None
        out = alts.queries
        anyfield = out[0] if len(out) == 1 else Query.boolean_query([(Occur.Should, b) for b in out])
        adf, amost = next(((df, m) for q, df, m, f in branches if f == "authors"), (0, 0.0))
        return WordClause(t, anyfield, alts.bonuses, alts.most, adf, amost)

    def _forms(self, t: QTerm, tq: TextQuery) -> tuple[list[Branch], list[Part]]:
        """The word as typed, written as one when hyphenated, and in its other forms (variants.py)."""
        # a stop word inside a hyphenated word ("in" of "in-context", "to" of "text-to-image") is
        # no one's name: without the author branch, its clause is the text's posting list alone,
        # which an intersection seeks; a union with the names must be walked (1.1 ms of 2.3 to
        # count "in-context learning")
        people = not (t.joined and t.word in analyzers.STOP_WORDS)
        branches, bonuses = self.branches(t.word, t.stem, 1.0, people=people)
        if t.whole:     # "incontext" has the "in" and the "context" of "in-context" (see ``tight``)
            branches += self.whole(t.whole)
        for same in same_stems(t.stem):      # "networks" also finds "Nets" (variants.py)
            more, more_bonuses = self.branches(same, same, 1.0, people=False, of=t.stem)
            branches += more
            bonuses += more_bonuses
            tq.stems.add(same)
        return branches, bonuses

    def _complete(self, t: QTerm, tq: TextQuery, alts: _Alternatives) -> int:
        """Papers with a completion of the word, whose most frequent completions in titles and
        author names join its alternatives, when it is still being typed or is an abbreviation
        ("netw"); 0 when it is neither."""
        w = self.w
        rare = t.known < w.typo_df
        if not ((t.prefix and (rare or len(t.word) <= 3)) or (rare and t.verbatim == 0 and len(t.word) >= 3)):
            return 0
        completed = 0
        for fname in ("title_words", "authors"):
            done = [(x, n) for x, n in self.completer(fname, t.word, w.prefix_expansions) if x != t.word]
            if done:
                alts.queries.append(Query.boost_query(
                    Query.term_set_query(self.schema, fname, [x for x, _ in done]), w.prefix))
                alts.most += w.prefix
                completed += sum(n for _, n in done)
        if completed:
            tq.prefixes.append(t.word)
        return completed

    def _maybe_typo(self, t: QTerm) -> bool:
        """A rare or unknown word, likely a typo (unless it is someone's name: "Frew tracking" is
        Eric Frew's paper, not "free tracking")."""
        return (len(t.word) >= 4 and not t.word.isdigit() and t.known < self.w.typo_df
                and not self.df("authors", t.word))

    def _correct(self, t: QTerm, tq: TextQuery, alts: _Alternatives) -> None:
        """The word's most common spelling neighbour joins its alternatives, when many more papers
        have it and it keeps the query's meaning."""
        fix = self.corrector(t.word) if self.corrector is not None else None
        if not fix or fix == t.word or not keeps_meaning(t.word, fix):
            return
        alt, alt_bonuses = self.branches(fix, analyzers.stem(fix), self.w.correction)
        if sum(df for _, df, _, _ in alt) >= 10 * max(1, t.known):
            alts.queries += [q for q, _, _, _ in alt]
            alts.most += sum(m for _, _, m, _ in alt)
            alts.bonuses += alt_bonuses
            tq.corrections[t.word] = fix
            tq.stems.add(analyzers.stem(fix))

    def _fuzzy(self, t: QTerm, tq: TextQuery, alts: _Alternatives) -> None:
        """No paper has the word and no common neighbour was found: every neighbour (tantivy walks
        the term dictionary with a Levenshtein automaton; costly) in titles and author names."""
        dist = 1 if len(t.word) < 8 else 2
        for fname in ("title_words", "authors"):
            near = Query.fuzzy_term_query(self.schema, fname, t.word, distance=dist,
                                          transposition_cost_one=True)
            alts.queries.append(Query.boost_query(near, self.w.fuzzy))
            alts.most += self.w.fuzzy
        tq.fuzzy.append(t.word)

    # --- where a paper has a word ---------------------------------------------------------------
    def whole(self, whole: str) -> list[Branch]:
        """A hyphenated word written as one, in the text and in author names ("Zhihua" for
        "Zhi-Hua"): BM25 branches of each of its parts' clauses."""
        out: list[Branch] = []
        for fname, term, weight in (("text", analyzers.stem(whole), self.w.text),
                                    ("authors", whole, self.w.authors)):
            df = self.df(fname, term)
            if df:
                out.append((bm25(self.schema, fname, term, weight), df, bm25_max(weight, self.idf(df)),
                            fname + "-whole"))
        return out

    def branches(self, word: str, stem: str, scale: float, people: bool = True,
                 of: str | None = None) -> tuple[list[Branch], list[Part]]:
        """Where a paper has the word: (weighted BM25 query, document frequency, most it can
        score, field) for the text and author names (a paper matches the word if it matches one), and
        the parts that only add score: BM25 in the title and keywords, a constant for the word in
        the title (its stem, and the very word: "variate" is not "variational") and one in the
        first author's name. BM25 alone lets a short title with one query word beat the long
        title that has them all. ``of``: the query word's stem when this is another form of it
        ("net" of "network"), which the title parts need in the tiers' terms (tiers.py)."""
        out: list[Branch] = []
        fields = (("text", stem, self.w.text), ("authors", word, self.w.authors))
        for fname, term, weight in fields if people else fields[:1]:
            df = self.df(fname, term)
            if df:
                out.append((bm25(self.schema, fname, term, weight * scale), df,
                            bm25_max(weight * scale, self.idf(df)), fname))
        needs = frozenset([of or stem])
        parts = self._title_parts(stem, scale, needs) + self._typed_parts(word, stem, scale, needs)
        if people:
            parts += self._author_parts(word, scale)
        return out, parts

    def _title_parts(self, stem: str, scale: float, needs: frozenset[str]) -> list[Part]:
        """The stem's BM25 in the title and a constant for it there, and its BM25 in the keywords."""
        w, s = self.w, self.schema
        parts: list[Part] = []
        df = self.df("title", stem)
        if df:
            parts.append(Part(bm25(s, "title", stem, w.title * scale),
                              bm25_max(w.title * scale, self.idf(df)), needs, form=stem))
            if w.title_hit:
                hit = w.title_hit * scale * self.idf(df)
                parts.append(Part(Query.const_score_query(Query.term_query(s, "title", stem, "basic"), hit),
                                  hit, needs, form=stem))
        df = self.df("keywords", stem) if w.keywords else 0
        if df:
            parts.append(Part(bm25(s, "keywords", stem, w.keywords * scale),
                              bm25_max(w.keywords * scale, self.idf(df))))
        return parts

    def _typed_parts(self, word: str, stem: str, scale: float, needs: frozenset[str]) -> list[Part]:
        """A constant for the word as typed in the title, its singular or plural alike ("Diffusion
        Model" and "Diffusion Models" both have the query's "models")."""
        w, s = self.w, self.schema
        forms = [x for x in number_forms(word) if self.df("title_words", x)] if w.title_word else []
        if not forms:
            return []
        # (a boolean of terms, not a term set: tantivy makes a term set a bitset of every
        # paper with the words, 0.4 ms a query for "model"/"models")
        typed = (Query.term_query(s, "title_words", forms[0], "basic") if len(forms) == 1
                 else Query.boolean_query([(Occur.Should, Query.term_query(s, "title_words", f, "basic"))
                                           for f in forms]))
        return [Part(Query.const_score_query(typed, w.title_word * scale), w.title_word * scale,
                     needs, form=stem)]

    def _author_parts(self, word: str, scale: float) -> list[Part]:
        """A constant for the word in the first author's name, and one for it as the first
        author's surname (times its IDF among surnames)."""
        w, s = self.w, self.schema
        if not (w.first_author and self.df("first_author", word)):
            return []
        parts = [Part(Query.const_score_query(Query.term_query(s, "first_author", word, "basic"),
                                              w.first_author * scale), w.first_author * scale, author=word)]
        df = self.df("first_surname", word)
        if w.surname and df:
            v = w.surname * scale * self.idf(df)
            parts.append(Part(Query.const_score_query(
                Query.term_query(s, "first_surname", word, "basic"), v), v, author=word))
        return parts

    # --- hyphenated words -----------------------------------------------------------------------
    def tight(self, terms: list[QTerm], tq: TextQuery) -> list[Query]:
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
                alts += [q for q, _, _, _ in self.whole(t.whole)]
                either = Query.boolean_query([(Occur.Should, a) for a in alts])
                out.append(Query.const_score_query(either, 0.0))
            group = []
        return out
