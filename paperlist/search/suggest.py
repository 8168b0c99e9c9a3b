""""Did you mean": replace words no paper has with the most common close spelling.

The vocabulary is the unstemmed words of titles and author names that occur in at least two
papers (a word seen once may itself be a typo), loaded from the index's term dictionary the
first time a suggestion is needed (~0.1 s) and grouped by length so one lookup compares the
word with a few thousand candidates in C (rapidfuzz).

The same pass keeps, for every prefix of one to three letters, its most frequent completions in
each field: search as you type asks for them after every keystroke, and tantivy finds them by
walking every term with the prefix (~1 ms for "he").
"""

from __future__ import annotations

import re
import threading

import tantivy
from rapidfuzz import process
from rapidfuzz.distance import OSA

from ..index import analyzers
from .negation import keeps_meaning
from .query import ParsedQuery
from .terms import TextQuery

MIN_DF = 2
SHORT_PREFIX = 3            # completions of prefixes up to this long are kept in memory
COMPLETIONS = 40            # ... this many per prefix and field


class Suggester:
    def __init__(self, searcher: tantivy.Searcher) -> None:
        self.searcher = searcher
        self._buckets: dict[tuple[int, str], tuple[list[str], list[int]]] | None = None
        self._short: dict[tuple[str, str], list[tuple[str, int]]] = {}
        self._lock = threading.Lock()
        self._cache: dict[str, str | None] = {}

    def _vocab(self) -> dict[tuple[int, str], tuple[list[str], list[int]]]:
        """Words by (length, first letter): a lookup compares a word with a few hundred others."""
        if self._buckets is None:
            with self._lock:
                if self._buckets is None:
                    counts: dict[str, int] = {}
                    for fieldname in ("title_words", "authors"):
                        terms = self.searcher.terms_with_prefix(fieldname, "")
                        self._keep_short_prefixes(fieldname, terms)
                        for term, df in terms:
                            if df >= MIN_DF and len(term) >= 2 and not term.isdigit():
                                counts[term] = counts.get(term, 0) + df
                    buckets: dict[tuple[int, str], tuple[list[str], list[int]]] = {}
                    for term, df in counts.items():
                        words, dfs = buckets.setdefault((len(term), term[0]), ([], []))
                        words.append(term)
                        dfs.append(df)
                    self._buckets = buckets
        return self._buckets

    def _keep_short_prefixes(self, fieldname: str, terms: list[tuple[str, int]]) -> None:
        short = self._short
        for term, df in sorted(terms, key=lambda x: -x[1]):       # most frequent first
            for n in range(1, min(SHORT_PREFIX, len(term)) + 1):
                got = short.setdefault((fieldname, term[:n]), [])
                if len(got) < COMPLETIONS:
                    got.append((term, df))

    def completions(self, fieldname: str, prefix: str, limit: int) -> list[tuple[str, int]]:
        """The ``limit`` most frequent terms of ``fieldname`` (title_words or authors) that start
        with ``prefix``, most frequent first. From memory once the vocabulary is loaded (``warm``,
        or the first suggestion), from the term dictionary before: never waits for the load."""
        if (self._buckets is not None and len(prefix) <= SHORT_PREFIX and limit <= COMPLETIONS
                and fieldname in ("title_words", "authors")):
            return self._short.get((fieldname, prefix), [])[:limit]
        return self.searcher.terms_with_prefix(fieldname, prefix, limit=limit)

    def warm(self) -> None:
        """Load the vocabulary now rather than on the first misspelled query."""
        self._vocab()

    def correct(self, word: str) -> str | None:
        """The most frequent vocabulary word within 1 edit (2 for words of 8+ letters), or None."""
        word = word.lower()
        if word in self._cache:
            return self._cache[word]
        fix = self._correct(word)
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[word] = fix
        return fix

    def _correct(self, word: str) -> str | None:
        if len(word) < 3 or word.isdigit():
            return None
        maxd = 1 if len(word) < 8 else 2
        vocab = self._vocab()
        best: tuple[int, int, str] | None = None
        # Candidates start with the word's first or second letter: this misses only typos in both
        # (and a dropped first letter), and keeps a lookup well under a millisecond.
        for first in dict.fromkeys(word[:2]):
            for n in range(len(word) - maxd, len(word) + maxd + 1):
                words, dfs = vocab.get((n, first), ([], []))
                if not words:
                    continue
                for cand, dist, i in process.extract(word, words, scorer=OSA.distance,
                                                     score_cutoff=maxd, limit=20):
                    key = (int(dist), -dfs[i], cand)
                    if cand != word and (best is None or key < best):
                        best = key
        return best[2] if best else None

    def suggest(self, pq: ParsedQuery, tq: TextQuery) -> str | None:
        """The query with misspelled words corrected, or None when nothing needs correcting.

        A word is corrected when ranking already used a correction for it, when no paper has it,
        or when it never appears as typed in a title or a name ("reinforcment" still finds
        papers through its stem, but it is a typo all the same)."""
        fixes = dict(tq.corrections)
        for t in tq.terms:
            if t.word in fixes or t.word in tq.prefixes or t.stop or len(t.word) < 4 or t.word.isdigit():
                continue
            # (an unfinished last word is not a typo: "transf" will become "transformer")
            if t.word in tq.unknown or (t.verbatim == 0 and not t.prefix):
                c = self.correct(t.word)
                if c:
                    fixes[t.word] = c
        fixes = {w: c for w, c in fixes.items() if keeps_meaning(w, c)}
        if not fixes:
            return None
        fixed = pq.raw
        for w, c in fixes.items():
            fixed = re.sub(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", c, fixed, flags=re.IGNORECASE)
        fixed = " ".join(fixed.split())
        return fixed if analyzers.word_tokens(fixed) != analyzers.word_tokens(pq.raw) else None

