"""Topic centrality: within the first page of a broad topic query, the papers at the topic's
centre come before its niche variants (issue 18).

A topic query ("self-supervised learning", "diffusion models") has dozens of papers whose
title has every word, and keyword scores barely tell "Revisiting Self-Supervised Visual
Representation Learning" from "Self-Supervised Learning of Motion Capture": both titles name
the topic. What tells them apart is what the rest of the paper is about. With paper vectors,
the mean of the top ``CENTROID_OF`` papers' vectors is the topic as the corpus writes it (no
query encoding: it costs a few dot products, and works as well for a translated Chinese query),
and a paper's cosine to that mean is how central it is. The first ``WINDOW`` papers (exactly
keyword search's first ``WINDOW``) are reordered by ``score / best score + WEIGHT * cosine``,
and the topic's landmarks (landmarks.py: the most important papers near that mean, whatever
their titles) join them; later pages keep keyword order without the landmarks, and every page
is cut from one order, so the pages of a search agree and show each paper once.

It is left out where keyword order is the answer: a query that is a paper's title (the title
was typed: ``semantic.names_title``) or has a name of its best hit's authors (someone's paper
was asked for: "Hinton description length"), a query without plain words (only field clauses
or phrases: ``author:"Yoshua Bengio"``), explicit keyword mode, sorts other than relevance and
searches without vectors. Landmarks that do not match the query are shown only when it does not
constrain its text (a phrase, a field clause or an excluded word must hold for them too).
Narrow queries are reordered too: their few papers are on topic, and the reordering only ever
weighs 40% of a cosine against the keyword scores.
``benchmarks/topical_eval.py`` measures it (BENCHMARKS.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tantivy
from tantivy import Occur

from ..text import words as text_words
from . import hits as stored
from . import landmarks
from .filters import combine
from .paging import Addr, Plan
from .semantic import Centre, SemanticRanker, ids_query, names_title

WINDOW = 30          # the papers reordered: a page and a half of 20 (50: the same figures, +0.3 ms)
CENTROID_OF = 30     # the papers whose mean vector is the topic
WEIGHT = 0.4         # a cosine 0.1 nearer the topic's centre is worth 4% of the best score


def order(scores: list[float], cosines: list[float | None]) -> list[int]:
    """The new order of a window (indexes into it): by ``score / best + WEIGHT * cosine``; a
    paper without a vector counts the window's mean cosine. Ties keep keyword order."""
    known = [c for c in cosines if c is not None]
    if not scores or not known or scores[0] <= 0:
        return list(range(len(scores)))
    mean = sum(known) / len(known)
    best = scores[0]
    key = [s / best + WEIGHT * (mean if c is None else c) for s, c in zip(scores, cosines, strict=True)]
    return sorted(range(len(scores)), key=lambda i: (-key[i], i))


def names_author(words: list[str], authors: list[str]) -> bool:
    """Whether a query word is a name of one of these authors ("Hinton description length"): the
    query asks for someone's paper, which keyword search finds by the name."""
    names = {w for a in authors for w in text_words(a)}
    return any(w in names for w in text_words(" ".join(words)))


def reorderer(searcher: tantivy.Searcher, schema: tantivy.Schema, ranker: SemanticRanker, plan: Plan,
              pool: landmarks.Pool | None = None) -> Callable[[list[Addr]], list[Addr]]:
    """The function that orders a relevance search's hits (best first, from the first): the
    window reordered by centrality, with the topic's landmarks from ``pool`` (search.landmarks)
    put in and left out of their later places; the stored documents it reads are left in
    ``plan.loaded`` (by ``hits.key``), the landmarks that do not match the query in
    ``plan.added``."""
    words = plan.pq.words

    def reorder(hits: list[Addr]) -> list[Addr]:
        plan.added, plan.marked = [], set()
        window = hits[:WINDOW]
        if len(window) < 2:
            return hits
        # decided on the first hit alone (a title typed, an author named): the others are not read
        first = stored.doc(searcher, window[0][1])
        plan.loaded[stored.key(window[0][1])] = first
        if (names_title(words, str(first.get("title_plain") or first.get("title") or ""))
                or names_author(words, first.get("authors") or [])):
            return hits
        docs = [first] + [stored.doc(searcher, addr) for _, addr in window[1:]]
        plan.loaded.update((stored.key(addr), d) for (_, addr), d in zip(window[1:], docs[1:], strict=True))
        ids = [str(d.get("id")) for d in docs]
        centre = ranker.centrality(ids, CENTROID_OF)
        if centre is None:
            return hits
        new = order([float(sc) for sc, _ in window], [centre.cosines.get(pid) for pid in ids])
        ordered = [window[i] for i in new]
        marks = _landmarks(searcher, schema, plan, pool, centre, docs) if pool is not None else []
        if not marks:
            return ordered + hits[WINDOW:]
        taken = plan.marked = {stored.key(a) for _, a in marks}
        return landmarks.place(ordered, marks) + [h for h in hits[WINDOW:] if stored.key(h[1]) not in taken]
    return reorder


def _landmarks(searcher: tantivy.Searcher, schema: tantivy.Schema, plan: Plan, pool: landmarks.Pool,
               centre: Centre, docs: list[dict[str, Any]]) -> list[Addr]:
    """The topic's landmarks that the request's filters admit, as hits (most important first);
    those that do not match the query are listed in ``plan.added``."""
    exclude = ({str(d.get("id")) for d in docs}
               | {str(v.get("id")) for d in docs for v in d.get("versions") or []})
    ids, mat = pool.vectors(centre.generation)
    # a query that constrains its text (a phrase, a field, an excluded word) admits only the
    # landmarks that match it: "-survey large language models" shows no survey
    constrained = bool(plan.pq.constraints())
    # with filters or constraints, more candidates: the most important may be of other years or
    # venues, or excluded
    cosines = list(centre.cosines.values())
    narrowed = plan.filters.any() or constrained
    chosen = landmarks.pick(ids, mat, centre.vector, cosines, exclude,
                            landmarks.FILTERED if narrowed else landmarks.CANDIDATES,
                            None if narrowed else landmarks.SHOWN)
    if not chosen:
        return []
    # one search: the landmarks the filters admit, scoring 1 where they match the query too
    these = ids_query(schema, [(pid, 0.0) for pid, _ in chosen])
    matching = tantivy.Query.const_score_query(combine(plan.query(ranked=False), [(Occur.Must, these)]), 1.0)
    admitted = searcher.search(tantivy.Query.boolean_query(
        [(Occur.Must, tantivy.Query.const_score_query(plan.within(these), 0.0)),
         (Occur.Must if constrained else Occur.Should, matching)]),
        len(chosen)).hits
    found: dict[str, tuple[float, tantivy.DocAddress]] = {}
    for score, addr in admitted:
        d = stored.doc(searcher, addr)
        plan.loaded[stored.key(addr)] = d
        found[str(d.get("id"))] = (float(score), addr)
    words = {pid for pid, (score, _) in found.items() if score >= 0.5}
    shown = landmarks.admit([(pid, c) for pid, c in chosen if pid in found], words, cosines)
    plan.added = [pid for pid in shown if pid not in words]
    return [(0.0, found[pid][1]) for pid in shown]
