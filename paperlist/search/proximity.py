"""Proximity parts of a ranking query: query words near each other in a title, the whole query as
a title phrase, the whole query as a title or as a person's name. Each is an optional ``Part``
that records the most it can add (for tiers.py)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import tantivy
from tantivy import Occur, Query

from ..curated.signal import MAX_KEY_WORDS
from ..index import pioneers
from ..names import author_key as _cached_author_key
from ..text import title_key as _cached_title_key
from .clauses import phrase_words
from .tiers import Part, bm25_max
from .variants import number_forms, same_stems
from .weights import Weights

# Queries are mostly new: the ingest-side caches of these (a quarter million entries) would only
# grow a serving worker's memory with every distinct query, so the query side calls them uncached.
author_key = _cached_author_key.__wrapped__
title_key = _cached_title_key.__wrapped__

MAX_PHRASE_WORDS = 48
MAX_VARIANT_KEYS = 4


def title_keys(words: list[str], stems: list[str]) -> list[str]:
    """The title keys the query may be: as typed, then with one word in a variant form (variants.py:
    "generative adversarial networks" is also the title "Generative Adversarial Nets")."""
    key = title_key(" ".join(words))
    out = [key] if key else []
    for i, stem in enumerate(stems):
        for same in same_stems(stem):
            for form in number_forms(same):
                k = title_key(" ".join([*words[:i], form, *words[i + 1:]]))
                if k and k not in out and len(out) < MAX_VARIANT_KEYS:
                    out.append(k)
    return out


def compounded(schema: tantivy.Schema, ws: list[str], before: dict[str, str | None],
               df: Callable[[str, str], int]) -> list[Query]:
    """The titles where a word of the phrase ``ws`` follows a hyphen, other than after the word
    that comes before it in the query (``before``): "Large Vision-Language Models" for "large
    language models", "Self-Supervised Learning" for "supervised learning", where the word is
    part of another concept; "Test-Time Adaptation" stays for "test time adaptation". Only words
    some title has after a hyphen cost a clause. Empty for an index without the fields (before
    version 18)."""
    out = []
    try:
        for x in ws:
            if not df("title_tail", x):
                continue
            prev = before.get(x)
            tail = Query.term_query(schema, "title_tail", x)
            join = f"{prev} {x}" if prev is not None else ""
            out.append(tail if not join or not df("title_join", join) else Query.boolean_query([
                (Occur.Must, tail), (Occur.MustNot, Query.term_query(schema, "title_join", join))]))
    except ValueError:          # an index without the fields
        return []
    return out


def proximity_parts(schema: tantivy.Schema, w: Weights, words: list[str], stems_all: list[str],
                    content: list[str], typing: bool, df: Callable[[str, str], int],
                    idf: Callable[[int], float], hyphenated: set[tuple[str, str]] | None = None,
                    tied: list[bool] | None = None) -> list[Part]:
    """``words``/``stems_all``: every query word as typed and stemmed; ``content``: the stems of
    its content words (no stop words, no repeats); ``typing``: the last word is unfinished;
    ``hyphenated``: pairs of stems that are one hyphenated word of the query, which count as a
    pair only side by side ("self-supervised" is not "Self-Joint Supervised"); ``tied``: for each
    word, whether a hyphen joins it to the next (the "in" of "in-context")."""
    stems = [x for x in stems_all if x]
    phrases = _Phrases(schema, df, idf, hyphenated or set(), stems)
    out = _phrase_parts(phrases, w, words, stems_all, content, typing)
    out += _title_key_parts(schema, w, words, stems_all, df, idf)
    if not typing:
        first = pioneer(schema, w, list(zip(words, tied or [False] * len(words), strict=True)), df)
        if first is not None:
            out.append(first)
        heading = listed(schema, w, [x for x in content if x], df)
        if heading is not None:
            out.append(heading)
    name = _person(schema, w, words, df, idf)
    if name is not None:
        out.append(name)
    return out


class _Phrases:
    """Query words as a title phrase, each hyphenated word's parts side by side, and never where a
    word is part of another hyphenated concept (``compounded``)."""

    def __init__(self, schema: tantivy.Schema, df: Callable[[str, str], int], idf: Callable[[int], float],
                 hyphenated: set[tuple[str, str]], stems: list[str]) -> None:
        self.schema, self.df, self.idf, self.hyphenated = schema, df, idf, hyphenated
        self.stems = stems
        self.before: dict[str, str | None] = {}      # each stem's first predecessor in the query
        for i, x in enumerate(stems):
            self.before.setdefault(x, stems[i - 1] if i else None)

    def part(self, ws: list[str], boost: float, slop: int) -> Part:
        """The stems ``ws`` as a title phrase within ``slop``."""
        schema = self.schema
        most = bm25_max(boost, sum(self.idf(self.df("title", x)) for x in ws))
        q = Query.boost_query(Query.phrase_query(schema, "title", phrase_words(ws), slop=slop), boost)
        tight = [p for p in pairwise(ws) if p in self.hyphenated] if slop else []
        if tight:       # a loose phrase still needs each hyphenated word's parts side by side
            q = Query.boolean_query([(Occur.Must, q), *((Occur.Must, Query.const_score_query(
                Query.phrase_query(schema, "title", phrase_words(list(p)), slop=0), 0.0)) for p in tight)])
        inside = compounded(schema, ws, self.before, self.df)
        if inside:
            q = Query.boolean_query([(Occur.Must, q), *((Occur.MustNot, x) for x in inside)])
        return Part(q, most, frozenset(ws))

    def unfinished(self, boost: float, words: list[str], stems_all: list[str]) -> Part:
        """The whole query as a title phrase whose last word is still being typed: the stems, then
        that word as typed ("graph neural netw")."""
        fixed = stems_all[:-1]
        most = max(1.0, bm25_max(boost, sum(self.idf(self.df("title", x)) for x in fixed)))
        q = Query.phrase_prefix_query(self.schema, "title", phrase_words([*fixed, words[-1]]))
        return Part(Query.boost_query(q, boost), most, frozenset(fixed))


def _phrase_parts(phrases: _Phrases, w: Weights, words: list[str], stems_all: list[str], content: list[str],
                  typing: bool) -> list[Part]:
    """Consecutive content words near each other in the title, and the whole query as a loose
    title phrase (words dropped from the title still count as "the title")."""
    stems = phrases.stems
    out: list[Part] = []
    # consecutive content words near each other in the title (not the word still being typed)
    pairs = [(a, b) for a, b in pairwise(content) if a and b and a != b]
    if typing and pairs and content[-1] == stems_all[-1]:
        pairs.pop()
    whole = 2 <= len(stems) <= MAX_PHRASE_WORDS
    if whole and not typing and [list(p) for p in pairs] == [stems]:
        pairs, whole = [], False     # a two-word query: its pair is the whole phrase
        out.append(phrases.part(stems, w.pair + w.phrase, 2))
    for a, b in pairs:
        out.append(phrases.part([a, b], w.pair, 2))
    if whole:
        out.append(phrases.unfinished(w.phrase, words, stems_all) if typing
                   else phrases.part(stems, w.phrase, w.phrase_slop))
    return out


def _title_key_parts(schema: tantivy.Schema, w: Weights, words: list[str], stems_all: list[str],
                     df: Callable[[str, str], int], idf: Callable[[int], float]) -> list[Part]:
    """The whole query equal to a title (as typed, or with a word's variant: "Nets"), or to the
    head of one ("batch normalization" -> "Batch Normalization: ...")."""
    out: list[Part] = []
    for k in title_keys(words, stems_all):
        n = df("title_key", k)
        if n:
            out.append(Part(Query.boost_query(Query.term_query(schema, "title_key", k, "freq"), w.exact),
                            bm25_max(w.exact, idf(n)), in_tier=True))
        n = df("title_head", k) if w.head else 0
        if n:   # the query names the paper
            out.append(Part(Query.const_score_query(Query.term_query(schema, "title_head", k), w.head),
                            w.head, in_tier=True))
    return out


def _person(schema: tantivy.Schema, w: Weights, words: list[str], df: Callable[[str, str], int],
            idf: Callable[[int], float]) -> Part | None:
    """The query as a person's name (of two to five words); None when no author has it."""
    if not 2 <= len(words) <= 5:
        return None
    name = author_key(" ".join(words))
    n = df("author_key", name)
    if not n:
        return None
    return Part(Query.boost_query(Query.term_query(schema, "author_key", name, "freq"), w.author),
                bm25_max(w.author, idf(n)), in_tier=True)


def pioneer(schema: tantivy.Schema, w: Weights, words: list[tuple[str, bool]],
            df: Callable[[str, str], int]) -> Part | None:
    """The bonus of the papers whose titles were the first to write the query as a phrase, when
    it then became a topic (index/pioneers.py: "Neural Machine Translation by Jointly Learning to
    Align and Translate" for "neural machine translation"); None when no paper is such for it.
    ``words``: the query's words, each with whether a hyphen joins it to the next."""
    phrase = pioneers.query_key(words) if w.pioneer else None
    return None if phrase is None else _key_bonus(schema, "pioneer", phrase, w.pioneer, df)


def _key_bonus(schema: tantivy.Schema, field: str, key: str, weight: float,
               df: Callable[[str, str], int]) -> Part | None:
    """A constant for the papers with ``key`` in a raw-keyed field; None when none has it (or
    the index predates the field)."""
    try:
        if not df(field, key):
            return None
    except ValueError:          # an index without the field
        return None
    return Part(Query.const_score_query(Query.term_query(schema, field, key), weight), weight, in_tier=True)


def listed(schema: tantivy.Schema, w: Weights, stems: list[str],
           df: Callable[[str, str], int]) -> Part | None:
    """The bonus of the papers that several curated reading lists put under a heading with the
    query's words in a row ("Federated Learning" above FedAvg, whose title does not say it; the
    ``listed_topic`` field, curated/signal.py). Only a bonus: a paper must match the query's words
    to be found at all, so a heading cannot bring in a paper about something else."""
    if not w.listed or not stems or len(stems) > MAX_KEY_WORDS:
        return None
    return _key_bonus(schema, "listed_topic", " ".join(stems), w.listed, df)
