"""A Chinese word that neither the glossary nor the bridge can put in English.

The bridge (``index.bridge``) still knows which papers' Chinese summaries have the word, even when
they are too few to learn its English from (商空间, quotient space: one summary). A query left with
nothing to search once such words are dropped shows those papers first, then the papers nearest
them: by meaning when vectors exist (the mean of the seeds' vectors), else by the distinctive
words the seeds share (``Searcher.more_like``). Without seeds the query stays as before: its
words are reported unknown and nothing is searched for them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..index.bridge import MIN_CHARS, Bridge
from ..text import to_simplified_chinese
from . import glossary
from .semantic import SemanticRanker

MAX_SEEDS = 50
SEED_SCORE = 2.0            # the seeds themselves rank above every neighbour (scores <= 1)


def seed_ids(bridge: Bridge, unknown: list[str]) -> list[str]:
    """The papers whose Chinese summary has one of the ``unknown`` words (up to MAX_SEEDS)."""
    out: dict[str, None] = {}
    for piece in unknown:
        zh = to_simplified_chinese(piece)
        if len(zh) >= MIN_CHARS and bridge.load():
            for row in bridge.papers_with(zh, glossary.containing(zh)):
                out.setdefault(bridge.ids[row])
    return list(out)[:MAX_SEEDS]


Scored = list[tuple[str, float]]


def seeded_ranking(seeds: list[str], sem: SemanticRanker | None,
                   more_like: Callable[[list[str]], Scored]) -> tuple[Scored, bool]:
    """The seeds, then their neighbours, scored for an ids query; and whether vectors chose them
    (``sem`` None: keyword search was asked for, so words choose)."""
    near = sem.near(seeds) if sem is not None and sem.unavailable() is None else None
    by_vectors = near is not None
    if near is None:
        found = more_like(seeds)
        top = max((s for _, s in found), default=1.0) or 1.0
        near = [(pid, s / top) for pid, s in found]
    else:
        near = [(pid, (c + 1) / 2) for pid, c in near]             # cosine -> 0..1
    score = dict(near)
    ranked = [(pid, SEED_SCORE + score.get(pid, 0.0)) for pid in seeds]
    first = set(seeds)
    ranked += [(pid, s) for pid, s in near if pid not in first]
    return sorted(ranked, key=lambda kv: -kv[1]), by_vectors
