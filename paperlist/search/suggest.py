""""Did you mean": replace words no paper has with the most common close spelling.

The vocabulary is the unstemmed words of titles and author names that occur in at least two
papers (a word seen once may itself be a typo), loaded from the index's term dictionary the
first time a suggestion is needed (~0.1 s) and grouped by length so one lookup compares the
word with a few thousand candidates in C (rapidfuzz).
"""

from __future__ import annotations

import re
import threading

import tantivy
from rapidfuzz import process
from rapidfuzz.distance import OSA

from ..index import analyzers
from .query import ParsedQuery
from .rank import TextQuery

MIN_DF = 2


class Suggester:
    def __init__(self, searcher: tantivy.Searcher) -> None:
        self.searcher = searcher
        self._buckets: dict[tuple[int, str], tuple[list[str], list[int]]] | None = None
        self._lock = threading.Lock()
        self._cache: dict[str, str | None] = {}

    def _vocab(self) -> dict[tuple[int, str], tuple[list[str], list[int]]]:
        """Words by (length, first letter): a lookup compares a word with a few hundred others."""
        if self._buckets is None:
            with self._lock:
                if self._buckets is None:
                    counts: dict[str, int] = {}
                    for fieldname in ("title_words", "authors"):
                        for term, df in self.searcher.terms_with_prefix(fieldname, ""):
                            if df >= MIN_DF and len(term) >= 2 and not term.isdigit():
                                counts[term] = counts.get(term, 0) + df
                    buckets: dict[tuple[int, str], tuple[list[str], list[int]]] = {}
                    for term, df in counts.items():
                        words, dfs = buckets.setdefault((len(term), term[0]), ([], []))
                        words.append(term)
                        dfs.append(df)
                    self._buckets = buckets
        return self._buckets

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
                for cand, dist, i in process.extract(word, words, scorer=OSA.distance, score_cutoff=maxd, limit=20):
                    key = (int(dist), -dfs[i], cand)
                    if cand != word and (best is None or key < best):
                        best = key
        return best[2] if best else None

    def suggest(self, pq: ParsedQuery, tq: TextQuery) -> str | None:
        """The query with unknown words corrected, or None when nothing could be corrected."""
        if tq.corrections:
            fixed = pq.raw
            for w, c in tq.corrections.items():
                fixed = re.sub(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", c, fixed, flags=re.IGNORECASE)
            return " ".join(fixed.split())
        unknown = list(dict.fromkeys(tq.unknown))
        if not unknown:
            # nothing matched well but every word exists: try correcting the rarest words
            unknown = [t.word for t in tq.terms if not t.stop and t.known < MIN_DF * 5 and not t.prefix]
        fixed = pq.raw
        changed = False
        for w in unknown:
            c = self.correct(w)
            if c:
                fixed, n = re.subn(rf"(?<![^\W_]){re.escape(w)}(?![^\W_])", c, fixed, flags=re.IGNORECASE)
                changed = changed or n > 0
        if not changed:
            return None
        fixed = " ".join(fixed.split())
        return fixed if analyzers.word_tokens(fixed) != analyzers.word_tokens(pq.raw) else None
