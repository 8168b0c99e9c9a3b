"""Proximity parts of a ranking query: query words near each other in a title, the whole query as
a title phrase, the whole query as a title or as a person's name. Each is an optional ``Part``
that records the most it can add (for tiers.py)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import tantivy
from tantivy import Query

from ..names import author_key
from ..text import title_key
from .clauses import phrase_words
from .tiers import Part, bm25_max
from .weights import Weights

MAX_PHRASE_WORDS = 48


def proximity_parts(schema: tantivy.Schema, w: Weights, words: list[str], stems_all: list[str],
                    content: list[str], typing: bool, df: Callable[[str, str], int],
                    idf: Callable[[int], float]) -> list[Part]:
    """``words``/``stems_all``: every query word as typed and stemmed; ``content``: the stems of
    its content words (no stop words, no repeats); ``typing``: the last word is unfinished."""
    out: list[Part] = []
    stems = [x for x in stems_all if x]

    def phrase(ws: list[str], boost: float, slop: int) -> Part:
        most = bm25_max(boost, sum(idf(df("title", x)) for x in ws))
        return Part(
            Query.boost_query(Query.phrase_query(schema, "title", phrase_words(ws), slop=slop), boost),
            most, frozenset(ws))

    # consecutive content words near each other in the title (not the word still being typed)
    pairs = [(a, b) for a, b in pairwise(content) if a and b and a != b]
    if typing and pairs and content[-1] == stems_all[-1]:
        pairs.pop()
    whole = 2 <= len(stems) <= MAX_PHRASE_WORDS
    if whole and not typing and [list(p) for p in pairs] == [stems]:
        pairs, whole = [], False     # a two-word query: its pair is the whole phrase
        out.append(phrase(stems, w.pair + w.phrase, 2))
    for a, b in pairs:
        out.append(phrase([a, b], w.pair, 2))
    if whole:
        if typing:    # stems, then the unfinished word as typed ("graph neural netw")
            fixed = stems_all[:-1]
            most = max(1.0, bm25_max(w.phrase, sum(idf(df("title", x)) for x in fixed)))
            q = Query.phrase_prefix_query(schema, "title", phrase_words([*fixed, words[-1]]))
            out.append(Part(Query.boost_query(q, w.phrase), most, frozenset(fixed)))
        else:   # loose: words dropped from the title still count as "the title"
            out.append(phrase(stems, w.phrase, w.phrase_slop))
    key = title_key(" ".join(words))
    n = df("title_key", key) if key else 0
    if n:
        out.append(Part(Query.boost_query(Query.term_query(schema, "title_key", key, "freq"), w.exact),
                        bm25_max(w.exact, idf(n)), in_tier=True))
    if 2 <= len(words) <= 5:     # the query may be a person's name
        name = author_key(" ".join(words))
        n = df("author_key", name)
        if n:
            out.append(Part(Query.boost_query(Query.term_query(schema, "author_key", name, "freq"), w.author),
                            bm25_max(w.author, idf(n)), in_tier=True))
    return out
