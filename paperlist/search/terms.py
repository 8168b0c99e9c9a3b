"""The query's words as the keyword ranking sees them (``QTerm``: as typed, stemmed, joined by a
hyphen), and what a built text query carries for the rest of the search (``TextQuery``: the
tantivy queries, and the words that highlighting and suggestions need). Apart from rank.py so that
the per-word clauses (words.py) can fill them in without importing the builder that calls them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import tantivy

from ..index import analyzers
from .query import ParsedQuery
from .tiers import Tier


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

    @property
    def guessed(self) -> bool:
        """Whether a word was completed, corrected or matched with typos (its forms are guesses)."""
        return bool(self.prefixes or self.fuzzy or self.corrections)


def query_terms(pq: ParsedQuery) -> list[QTerm]:
    """The tokens of the query's plain words, in order."""
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


def distinct(terms: list[QTerm]) -> list[QTerm]:
    """``terms`` without repeats (the same word, as typed and stemmed), in order."""
    seen: set[tuple[str, str]] = set()
    out = []
    for t in terms:
        if (t.stem, t.word) not in seen:
            seen.add((t.stem, t.word))
            out.append(t)
    return out


def corrected(t: QTerm, corrections: dict[str, str]) -> QTerm:
    """``t`` as the spelling correction that was used for it, if any."""
    fix = corrections.get(t.word)
    return t if fix is None else QTerm(fix, analyzers.stem(fix), t.stop, False, t.known)
