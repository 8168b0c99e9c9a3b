"""Landmarks: the most important papers at a topic's centre, on its first page even when their
titles do not name the topic (issue 18).

Keyword search puts a topic's papers first by the words of their titles, and many of the papers
a topic builds on have none of them: "Towards Deep Learning Models Resistant to Adversarial
Attacks" for "adversarial examples", "Auto-Encoding Variational Bayes" for "variational
autoencoders", "Communication-Efficient Learning of Deep Networks from Decentralized Data" for
"federated learning". With paper vectors, search.central knows the topic's centre (the mean
vector of the first keyword hits); the landmarks are the ``SHOWN`` most important papers of the
library (importance of at least ``FROM_CITATIONS`` citations, or a name as much written: see
index/prior.py) whose cosine to that centre is within ``SLACK`` of the window's ``NEAR``-th best,
shown at ``AT`` on the first page. A landmark without the query's words has only its meaning to
speak for it, and must be nearer: within ``SLACK_UNMATCHED`` (Feature Pyramid Networks, a detection
paper, was a landmark of "semantic segmentation"; Deep Voice, text-to-speech, of "speech
recognition"). A landmark that matches the query is taken from its later
place (each paper once); one that does not is added to the results (the total counts it, the
facets count the matching papers). Filters apply to landmarks as to any result.

Measured on benchmarks/topical_eval.py (BENCHMARKS.md): canonical works of broad topics in the
top 10 54 -> 72 of 225 (English) and 44 -> 53 of 161 (Chinese) for nDCG@10 0.908 -> 0.903 and
0.889 -> 0.889; on the held-out queries 8 -> 10 of 29 for 0.916 -> 0.902. Three landmarks, or a
wider slack, bring more papers that are only near the topic. The nearer floor for landmarks
without the query's words took the landmarks graded off topic by both raters from 3 of 96 to none
(BENCHMARKS.md).
"""

from __future__ import annotations

import threading
from typing import Any

import tantivy
from tantivy import FieldType, Occur, Order, Query

from ..index.prior import importance
from . import hits as stored
from .semantic import vector_rows

FROM_CITATIONS = 1000
SHOWN = 2            # landmarks on a first page at most (3: +3 canonical works, 12 papers only near)
AT = (3, 6)          # their places on it (0-based): after the third and the sixth paper
NEAR = 5             # the window's 5th best cosine to the centre ...
SLACK = 0.1          # ... less this is as near as a landmark must be (0.05: 63 canonical, not 70)
SLACK_UNMATCHED = 0.07   # ... and one without the query's words (0.06 lost a canonical work, ComplEx)
CANDIDATES = 6       # looked at, most important first, for the SHOWN (some fail the nearer floor)
FILTERED = 50        # candidates looked at when the request has filters (they may admit few)
BLOCK = 256          # pool papers compared with the centre at a time (pick)


class Pool:
    """The papers that may be landmarks, most important first: published versions whose
    importance is at least that of FROM_CITATIONS citations (a few thousand of the library's
    papers), read from one index generation on first use; their vectors are read once per
    vector generation."""

    def __init__(self, searcher: tantivy.Searcher, schema: tantivy.Schema,
                 secondary: tantivy.Query | None) -> None:
        self._searcher = searcher
        self._schema = schema
        self._secondary = secondary
        self._ids: list[str] | None = None
        self._rows: tuple[Any, list[str], Any] | None = None     # vector generation, ids, matrix
        self._lock = threading.Lock()

    def ids(self) -> list[str]:
        with self._lock:
            if self._ids is None:
                floor = importance(FROM_CITATIONS, None, False)
                q = Query.range_query(self._schema, "prior", FieldType.Float, floor, None)
                if self._secondary is not None:
                    q = Query.boolean_query([(Occur.Must, q), (Occur.MustNot, self._secondary)])
                n = self._searcher.search(q, 1, count=True).count or 0  # type: ignore[attr-defined]
                found = self._searcher.search(q, max(1, n), order_by_field="prior", order=Order.Desc).hits
                self._ids = [str(stored.doc(self._searcher, a).get("id")) for _, a in found]
            return self._ids

    def vectors(self, g: Any) -> tuple[list[str], Any]:
        """The pool's papers that have a vector in generation ``g`` (most important first) and
        their vectors."""
        import numpy as np

        cached = self._rows
        if cached is not None and cached[0] is g:
            return cached[1], cached[2]
        have, sub = vector_rows(g, self.ids())
        ids = [pid for _, pid in have]
        mat = sub if sub is not None else np.zeros((0, 1), dtype=np.float32)
        self._rows = (g, ids, mat)
        return ids, mat


def floor(window_cosines: list[float], slack: float) -> float:
    """As near to the centre as a landmark must be: the window's NEAR-th best cosine less ``slack``."""
    best = sorted(window_cosines, reverse=True)
    return best[min(NEAR, len(best)) - 1] - slack


def pick(ids: list[str], mat: Any, centre: Any, window_cosines: list[float], exclude: set[str],
         limit: int = CANDIDATES, enough: int | None = None) -> list[tuple[str, float]]:
    """The candidate landmarks of a topic (at most ``limit``, most important first) and their
    cosines: pool papers (``ids``, their vectors ``mat``) whose cosine to ``centre`` is within SLACK
    of the window's NEAR-th best, other than ``exclude`` (the window's papers and their versions).
    With ``enough``, the list ends at the ``enough``-th candidate within SLACK_UNMATCHED: when
    every candidate is admitted (no filters), ``admit`` shows none after it."""
    import numpy as np

    if not window_cosines or not len(ids):
        return []
    least = floor(window_cosines, SLACK)
    nearer = floor(window_cosines, SLACK_UNMATCHED)
    out: list[tuple[str, float]] = []
    # most important first, a block at a time: the search stops at the block that completes the
    # choice (most topics find theirs in the first blocks; a topic far from every landmark reads
    # them all). einsum, not ``block @ centre``: a matrix-vector product of the whole pool runs
    # on OpenBLAS's threads, which then spin for a while after every search (5.7 ms of CPU
    # against 0.5, measured)
    for start in range(0, len(ids), BLOCK):
        cosines = np.einsum("ij,j->i", mat[start:start + BLOCK], centre)
        out += [(ids[start + i], float(cosines[i])) for i in np.flatnonzero(cosines >= least)
                if ids[start + i] not in exclude]
        if enough is not None:
            sure = [i for i, (_, c) in enumerate(out) if c >= nearer]
            if len(sure) >= enough:
                return out[:min(limit, sure[enough - 1] + 1)]
        if len(out) >= limit:
            break
    return out[:limit]


def admit(candidates: list[tuple[str, float]], matching: set[str], window_cosines: list[float],
          limit: int = SHOWN) -> list[str]:
    """The landmarks shown, most important first, of the ``candidates`` (id, cosine) that the
    request admits: those with the query's words (``matching``) within SLACK of the window's
    NEAR-th best cosine (as ``pick`` chose them), the others within SLACK_UNMATCHED."""
    nearer = floor(window_cosines, SLACK_UNMATCHED)
    return [pid for pid, cosine in candidates if pid in matching or cosine >= nearer][:limit]


def place(window: list[Any], marks: list[Any]) -> list[Any]:
    """The window with the landmarks put at AT (or after its end when it is short)."""
    out = list(window)
    for at, m in zip(AT, marks, strict=False):
        out.insert(min(at, len(out)), m)
    return out
