"""The ``prior`` field of the search index: what every score is multiplied by, so that among
papers about as relevant the accepted, the important and the newer come first."""

from __future__ import annotations

import math

from .. import venues as venue_registry

# The ``prior`` field: searches multiply scores by log2(2 + prior) (tantivy's weight_by_field).
# A paper accepted at a main venue (conference or journal) gets about +2%, one in a workshop or a
# sub-venue (Findings) +1%, a rejected or withdrawn one nothing: the accepted version of a paper
# comes before its rejected or workshop twin, whose title, authors and abstract score the same
# or within a few percent (an OpenReview record has keywords the other lacks).
PRIOR_MAIN = 0.03
PRIOR_SUB = 0.015


def recency(year: int) -> float:
    """The year's part of the prior: 1 + 0.0072% per year after 1900, at most +1.4%. That orders
    equal scores (duplicate titles, an author's papers) newest first and barely moves anything else."""
    return max(0, min(year - 1900, 200)) * 1e-4


# Importance: the papers a field builds on come first among papers equally about a topic. Citation
# counts (a third of the papers have one) add up to PRIOR_CITED on a log scale from CITED_FROM
# citations to CITED_FULL (x1.52 at 100k citations, x1.24 at 1,000, nothing below 30); an award,
# an oral or a spotlight add a little. The factor is bounded, so it orders papers whose relevance is
# close (several titles naming the topic) and cannot lift a paper that merely mentions the words
# above one about them (title matches outweigh abstract matches several times over).
# A paper whose name later papers write (mentions.py) counts as cited, up to PRIOR_NAMED: from a
# novelty of NAMED_FROM (x1.0) to NAMED_FULL (x1.37); the larger of the two parts applies.
# (Twice the weights of before: the canonical works of 30 broad topics in the top 10 went 41 -> 51
# of 225, known-item hit@1 held at 0.98; a third more again added one work and 38 unjudged
# papers: BENCHMARKS.md, issue 18.)
PRIOR_CITED = 0.9
CITED_FROM, CITED_FULL = 30, 100_000
PRIOR_NAMED = 0.6
NAMED_FROM, NAMED_FULL = 5.0, 500.0
# Curated reading lists (curated/signal.py): a paper that several lists include counts as cited,
# up to PRIOR_LISTED, from one list (1 + 1 = LISTED_FROM: x1.0) to 15 (LISTED_FULL); the largest
# part applies.
PRIOR_LISTED = 0.9
LISTED_FROM, LISTED_FULL = 2.0, 16.0
PRIOR_STATUS = {"award": 0.06, "oral": 0.04, "spotlight": 0.02, "highlight": 0.02}


def _scale(x: float, lo: float, hi: float) -> float:
    """Where ``x`` sits between ``lo`` and ``hi`` on a log scale, 0..1."""
    if x <= lo:
        return 0.0
    return min(1.0, (math.log10(x) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)))


def importance(citations: int | None, status: str | None, award: bool, novelty: float = 0.0,
               listed: float = 0.0) -> float:
    """The importance part of the prior (see PRIOR_CITED, PRIOR_NAMED and PRIOR_LISTED)."""
    cited = PRIOR_CITED * _scale(1 + max(0, citations or 0), CITED_FROM, CITED_FULL)
    named = PRIOR_NAMED * _scale(novelty, NAMED_FROM, NAMED_FULL)
    lists = PRIOR_LISTED * _scale(1 + listed, LISTED_FROM, LISTED_FULL)
    return max(cited, named, lists) + PRIOR_STATUS.get("award" if award else status or "", 0.0)


def prior(year: int, accepted: bool, venue: str, citations: int | None = None, status: str | None = None,
          award: bool = False, novelty: float = 0.0, listed: float = 0.0) -> float:
    """The ``prior`` field of a paper (see PRIOR_MAIN and PRIOR_CITED)."""
    base = recency(year) + importance(citations, status, award, novelty, listed)
    if not accepted:
        return base
    v = venue_registry.get(venue)
    return base + (PRIOR_SUB if v.kind == "workshop" or v.parent else PRIOR_MAIN)


MAX_PRIOR = (recency(2100) + PRIOR_MAIN + max(PRIOR_CITED, PRIOR_NAMED, PRIOR_LISTED)
             + max(PRIOR_STATUS.values()))
# Papers with a larger prior (importance) join every tier of a broad query, so the tier bound of
# the papers outside needs only this prior's factor (x1.10), not MAX_PRIOR's (x1.37).
TIER_PRIOR = 0.1
