"""Exact top hits from fewer papers: for broad queries, rank only the papers that can reach the page.

A broad query ("diffusion models") matches thousands of papers, most of them through the
abstract only, and ranking scores every one (BM25 in several fields, bonuses, title phrases).
But a paper that lacks a query word in its title also lacks that word's title BM25, its title
bonuses and every title phrase with the word, and those are most of a score. So the *tier* is
the papers whose title has every query word (or whose title is the query, or whose author is
the query, or has a query word in an author's name when few authors do), and the query builder
bounds from above what any paper outside the tier can score: the sum of each scored part's
largest possible value, less the title parts of the word it lacks. A BM25 term (or phrase)
scores below ``boost * idf * (k1 + 1)`` whatever its frequency and the field's length; a
constant is itself.

The engine ranks the tier first and keeps its page if the page's last score is above the
bound: no paper outside can then enter the page, so the page is exactly what ranking every
match gives. Otherwise it ranks every match, as before. ``tests/test_search_tiers.py`` checks
both the bound and the equality.

There used to be wider *levels* after the tier (the papers whose title lacks at most k of the
words, a minimum-should-match query): over search_bench's 50 tiered queries none was ever cheaper
than ranking every match (e.g. "multi-agent reinforcement learning" 5.5 ms against 3.9), so a
tier that does not give the page now falls through to the full ranking at once (BENCHMARKS.md,
2026-12-04 evening).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import tantivy
from tantivy import FieldType, Occur, Query

from ..index.prior import MAX_PRIOR, TIER_PRIOR

BM25_K1 = 1.2                    # tantivy's constants (tantivy::query::bm25)
BM25_CAP = 1 + BM25_K1           # idf * tf * (k1 + 1) / (tf + k1 * norm) < idf * (k1 + 1)
MAX_FACTOR = math.log2(2 + MAX_PRIOR)   # the largest factor ``weight_by_field`` applies (the prior)
# the largest for a paper outside a tier: the papers with a larger prior are in every tier
OUTSIDE_FACTOR = math.log2(2 + TIER_PRIOR)
SAFETY = 1.001                   # tantivy sums float32 scores; these bounds are float64
TIER_MIN_MATCHES = 1500          # below this many matches, ranking them all is cheaper than trying
AUTHOR_TIER_MAX = 2000           # a query word in fewer author names than this: those papers join the tier


@dataclass(slots=True)        # (not frozen: a frozen dataclass is twice as slow to make, and a
class Part:                   # query builds dozens)
    """One optional scored piece of a ranking query: a paper matching it gets at most ``max``."""

    query: Query
    max: float
    needs: frozenset[str] = frozenset()   # title stems a paper must have for the part to match
    in_tier: bool = False                 # the tier holds every paper this part matches
    author: str = ""                      # matches only papers with this word in an author's name
    form: str = ""                        # needs its one word in the title in this form (a stem)


@dataclass(frozen=True, slots=True)
class Tier:
    query: Query    # the papers that may score above ``bound``
    bound: float    # no paper outside ``query`` scores more than this (prior factor included)


def bm25_max(boost: float, idf: float) -> float:
    """The most a BM25 term or phrase query with this boost and (summed) idf can score."""
    return boost * BM25_CAP * idf


def important_papers(schema: tantivy.Schema) -> Query:
    """The papers whose prior is above TIER_PRIOR (an index that indexes ``prior``: version 13+):
    one posting list from version 19, a range of ``prior`` before."""
    try:
        return Query.term_query(schema, "important", True)
    except ValueError:
        return Query.range_query(schema, "prior", FieldType.Float, TIER_PRIOR, None)


def make_tier(schema: tantivy.Schema, words: list[tuple[str, ...]], must_max: float, parts: list[Part],
              alternatives: list[Query], important: Query | None = None) -> Tier | None:
    """The tier of a query whose every word (``words``, its content words) is required.
    A word is its stem and the stems of its other forms (variants.py: "network", "net"), any of
    which puts it in a title; parts name the word they need by its first stem, and a part of the
    word in one form says which (``Part.form``).

    ``must_max``: the most the required clauses can score together; ``parts``: the optional
    parts; ``alternatives``: queries whose papers join the tier (their parts are ``in_tier``);
    ``important``: the papers whose prior is above TIER_PRIOR, which join the tier too, so the
    bound of the papers outside can use OUTSIDE_FACTOR (None: MAX_FACTOR)."""
    words = list(dict.fromkeys(words))
    if not words:
        return None
    stems = [w[0] for w in words]
    factor = MAX_FACTOR
    if important is not None:      # the important papers join the tier
        alternatives = [*alternatives, important]
        factor = OUTSIDE_FACTOR
    # A title with two forms of one word ("Nets and Networks", rare) joins the tier too, so
    # that outside, a word is in a title in one form at most: its parts add up by form and the
    # form that can score most bounds them ("graph neural networks": the rare "net" alone is 92).
    both = [Query.boolean_query([(Occur.Must, _title(schema, a)), (Occur.Must, _title(schema, b))])
            for w in words for a, b in combinations(w, 2)]
    alternatives = [*alternatives, *both]
    outside = [p for p in parts if not p.in_tier]
    plain = [p for p in outside if not p.form]
    by_form: dict[str, dict[str, float]] = {}     # word -> form -> its parts' most
    for p in outside:
        if p.form:
            (word,) = p.needs
            forms = by_form.setdefault(word, {})
            forms[p.form] = forms.get(p.form, 0.0) + p.max

    def most(lost: set[str]) -> float:
        """The most a paper can score whose title lacks the words ``lost``."""
        return (must_max + sum(p.max for p in plain if not p.needs.intersection(lost))
                + sum(max(forms.values()) for word, forms in by_form.items() if word not in lost))

    title = [_title(schema, w[0]) if len(w) == 1 else
             Query.boolean_query([(Occur.Should, _title(schema, x)) for x in w]) for w in words]
    # a paper outside lacks one of the words in its title at least: the one whose loss costs least
    bound = max(most({lost}) for lost in stems)
    tier = title[0] if len(title) == 1 else Query.boolean_query([(Occur.Must, t) for t in title])
    if alternatives:
        tier = Query.boolean_query([(Occur.Should, q) for q in (tier, *alternatives)])
    return Tier(Query.const_score_query(tier, 0.0), bound * factor * SAFETY)


def _title(schema: tantivy.Schema, stem: str) -> Query:
    return Query.term_query(schema, "title", stem, "basic")
