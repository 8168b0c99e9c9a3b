"""Ranking weights: the numbers of the keyword ranking (see rank.py for how a score is made), tuned
on benchmarks/search_eval.py. Shared by rank.py, clauses.py and proximity.py; imports none of them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    title: float = 6.0
    authors: float = 2.5
    keywords: float = 0.0         # BM25 in keywords besides the text's (off: it favoured OpenReview twins)
    text: float = 1.0             # title, keywords and abstract together
    fuzzy: float = 4.0            # constant score of a spelling neighbour (per field)
    prefix: float = 3.0           # constant score of a completion of the last word
    coverage: float = 2.0         # x IDF per matched clause
    title_hit: float = 0.0        # x IDF per word found in the title (off: title x 6 does as well)
    # the word itself (unstemmed) is in the title: "Properties" is not "Property"
    title_word: float = 20.0
    first_author: float = 8.0     # a word of the first author's name
    # the first author's surname, x its IDF among first-author surnames: "Rice robust learning"
    # is Leslie Rice's paper before one with "rice" in its title, "Young ..." Andrew Young's
    # before Su Young Lee's; a common surname ("Li") adds less than a rare one
    surname: float = 5.0
    pair: float = 2.0             # consecutive words close together in the title
    phrase: float = 6.0           # the whole query is a phrase of the title
    phrase_slop: int = 3
    exact: float = 40.0           # the whole query is the title
    head: float = 50.0            # the whole query is the title's head before a colon (a constant)
    # a title among the first to write the query as a phrase, which later titles made a topic
    # (index/pioneers.py); a constant
    pioneer: float = 30.0
    # several curated reading lists put the paper under a heading with the query's words in a row
    # (a constant)
    listed: float = 40.0
    author: float = 10.0          # the whole query is an author's name
    fuzzy_df: int = 1             # words in fewer papers than this also match spelling neighbours
    typo_df: int = 30             # words in fewer papers than this also match a common neighbour
    correction: float = 0.9       # weight of that neighbour relative to the word itself
    prefix_expansions: int = 40


DEFAULT_WEIGHTS = Weights()
