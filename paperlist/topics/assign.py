"""Assigning 1-3 topics to every paper.

Evidence, per topic: seed terms in the title (x3), keywords (x2.5) and abstract (x1), each term
weighted by hand in the taxonomy times a multiplier learned from labelled papers (``learn.py``,
``weights.tsv``), and the primary area a source gives (OpenReview, AAAI tracks ...): an area that
names a topic makes it the main topic. When paper vectors exist, a paper's
cosine similarity to each topic's centroid (the mean vector of papers confidently assigned to it
by terms) adds evidence too, and gives topics to papers whose words matched nothing; and so does
a probe learned from the papers their sources label (``probe.py``: ``PROBE_GAIN`` x its topic
probability), which carries those labels to the papers that have none. A second probe learns the
same from the papers' words (``textprobe.py``, ``TEXT_GAIN`` x its probability) and needs no
vectors.

A paper's main topic is its best-scoring one; up to two more follow when they score at least
``SECOND_RATIO`` of it. Scores are squashed to 0..1 (``s / (s + 3)``) for display.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import islice, pairwise
from pathlib import Path
from typing import Any

from ..store import Store, TopicDoc
from .learn import packaged_weights, parse_weights
from .match import Matcher
from .probe import Probe, confirmed, corpus_mix, fit_probe, labelling_groups, shift_rows, shift_towards
from .taxonomy import Taxonomy, taxonomy
from .textprobe import TextProbe, fit_text_probe

TITLE_W, KEYWORD_W, ABSTRACT_W = 3.0, 2.5, 1.0
AREA_TOPIC = 2.0             # the source's primary area names this topic
AREA_LEAD = 0.5              # ... and leads the next topic by at least this much
AREA_PARENT = 1.3            # ... or this topic's area: multiply the area's topics' evidence
GENERIC = 0.7                # evidence factor of topics marked generic in the taxonomy
MIN_SCORE = 1.0              # less evidence than one strong term in the abstract: no topic
SECOND_RATIO = 0.45
MAX_TOPICS = 3
CONFIDENT = 4.0              # main-topic evidence that makes a paper part of its topic's centroid
EMB_FLOOR, EMB_GAIN = 0.25, 8.0   # similarity above the floor, times the gain, is added evidence
EMB_ONLY_MIN = 0.35          # a paper without term evidence gets its nearest topic above this
PROBE_GAIN, PROBE_MIN = 10.0, 0.02   # evidence per unit of the vector probe's probability (probe.py)
TEXT_GAIN = 20.0             # ... and of the text probe's (textprobe.py), also counted from PROBE_MIN
TEXT_ONLY_MIN = 0.3          # a paper without word evidence takes a topic the text probe gives this
PARALLEL_MIN = 20_000       # fewer papers than this: one process (forking costs more)
TEXT_CHUNK = 4_000          # papers a worker reads at once for the text probe
_NORM = re.compile(r"[^a-z0-9]+")


def _norm(s: str) -> str:
    return " " + _NORM.sub(" ", s.lower()).strip() + " "


@dataclass(slots=True)
class Assignment:
    paper_id: str
    venue: str
    year: int
    topics: list[tuple[str, float]] = field(default_factory=list)   # (slug, 0..1), main first


class Assigner:
    """Scores papers against a taxonomy (compiled once, reused for every paper). ``weights`` is the
    text of a learned-multiplier file (``learn.py``); by default the packaged one, "" for none."""

    def __init__(self, tax: Taxonomy | None = None, weights: str | None = None) -> None:
        self.tax = tax or taxonomy()
        text = packaged_weights() if weights is None else weights
        self.matcher = Matcher(self.tax, parse_weights(text))
        self.index = {t.slug: i for i, t in enumerate(self.tax.topics)}
        # primary-area substrings -> (topic indexes named directly, topic indexes of a named area)
        self.area_topic = [(_norm(a), i) for i, t in enumerate(self.tax.topics) for a in t.areas]
        self.area_parent = [(_norm(a), [self.index[c.slug] for c in self.tax.children(ar.slug)])
                            for ar in self.tax.areas for a in ar.areas]
        self._area_memo: dict[str, tuple[set[int], set[int]]] = {}
        self.term_factor = [GENERIC if self.tax.topics[t.topic].generic else 1.0 for t in self.matcher.terms]

    def _areas(self, primary_area: str) -> tuple[set[int], set[int]]:
        hit = self._area_memo.get(primary_area)
        if hit is None:
            pa = _norm(primary_area)
            direct = {i for a, i in self.area_topic if a in pa}
            parent = {i for a, idx in self.area_parent if a in pa for i in idx}
            hit = self._area_memo[primary_area] = (direct, parent)
        return hit

    def term_evidence(self, doc: TopicDoc) -> list[tuple[int, float]]:
        """(term index, evidence) for every seed term in the title, keywords and abstract; the
        evidence of generic topics' terms is damped."""
        m, f = self.matcher, self.term_factor
        out = m.evidence(doc.title, TITLE_W, True)
        if doc.keywords:
            out += m.evidence(" ; ".join(doc.keywords), KEYWORD_W, True)
        if doc.abstract:
            out += m.evidence(doc.abstract, ABSTRACT_W, False)
        return [(i, v * f[i]) for i, v in out]

    def evidence(self, doc: TopicDoc, use_area: bool = True) -> dict[int, float]:
        """Topic index -> evidence from words and primary area."""
        return self.scored(doc, use_area)[0]

    def scored(self, doc: TopicDoc, use_area: bool = True) -> tuple[dict[int, float], int | None]:
        """The evidence, and the topic the source's primary area names (None if it names no
        specific one): that topic decides the main topic and leads here (a generic one, such as
        benchmarks, yields to what the benchmark is of)."""
        s: dict[int, float] = {}
        terms = self.matcher.terms
        for i, v in self.term_evidence(doc):
            t = terms[i].topic
            s[t] = s.get(t, 0.0) + v
        if not (use_area and doc.primary_area):
            return s, None
        direct, parent = self._areas(doc.primary_area)
        for i in parent:
            if i in s:
                s[i] *= AREA_PARENT
        for i in direct:
            s[i] = s.get(i, 0.0) + AREA_TOPIC
        named = sorted(i for i in direct if not self.tax.topics[i].generic)
        if not named:
            return s, None
        pin = max(named, key=lambda i: s[i])
        lead(s, pin)
        return s, pin

    def choose(self, s: dict[int, float]) -> list[tuple[str, float]]:
        """The main topic and up to two more, as (slug, 0..1)."""
        if not s:
            return []
        ranked = sorted(s.items(), key=lambda kv: (-kv[1], kv[0]))   # ties: taxonomy order, not hash order
        top = ranked[0][1]
        if top < MIN_SCORE:
            return []
        out = []
        for i, v in ranked[:MAX_TOPICS]:
            if v < MIN_SCORE or v < SECOND_RATIO * top:
                break
            out.append((self.tax.topics[i].slug, round(v / (v + 3.0), 4)))
        return out


def lead(s: dict[int, float], i: int) -> None:
    """Make topic ``i`` the main one, ``AREA_LEAD`` ahead of the next."""
    s[i] = max(s.get(i, 0.0), max(s.values()) + AREA_LEAD)


def assign_all(docs: Iterable[TopicDoc], vectors: Any | None = None, assigner: Assigner | None = None,
               use_area: bool = True, probe: Probe | None = None, cent: Any | None = None,
               text_probe: TextProbe | None | str = "fit", cache: Path | None = None) -> Iterator[Assignment]:
    """Topics for every paper. The text probe (``text_probe``, by default fitted from the labelled
    papers among ``docs``, kept in ``cache`` when given; None for none) adds evidence; with
    ``vectors`` (a vector ``Generation``) embedding similarity joins in: to topic centroids (``cent``, or
    those of ``docs``) and through a probe (``probe``, or one fitted from the labelled papers
    among ``docs``)."""
    a = assigner or Assigner()
    ev: list[Evidence] = [(d, *a.scored(d, use_area)) for d in docs]
    confirmations = [(d, confirmed(a, d, s)) for d, s, _ in ev]
    labelling = labelling_groups([(d.venue, d.year) for d, _, _ in ev], [c for _, c in confirmations])
    mix = corpus_mix(len(a.tax.topics), ev, labelling)
    if text_probe == "fit":
        text_probe = shift_towards(fit_text_probe(((d, c) for d, c in confirmations if c is not None),
                                                  len(a.tax.topics), cache=cache), mix, labelling)
    if isinstance(text_probe, TextProbe):
        _add_text_evidence(ev, text_evidence(text_probe, [d for d, _, _ in ev]))
    if vectors is not None and probe is None:
        probe = shift_towards(fit_probe(((d.id, c) for d, c in confirmations), vectors, len(a.tax.topics)),
                              mix, labelling)
    return _choose_all(a, ev, vectors, probe, cent)


def assign_store(store: Store, vectors: Any | None = None, assigner: Assigner | None = None,
                 jobs: int | None = None, parallel_min: int = PARALLEL_MIN,
                 cache: Path | None = None) -> Iterator[Assignment]:
    """``assign_all`` over every paper of a store. The word evidence (nearly all the time) is
    computed by ``jobs`` worker processes (default: the CPUs, at most 4) when the store has at
    least ``parallel_min`` papers: they are forked before any paper is read, and each reads its
    own range of ids from the store, so that no paper text is held twice. A second round of
    workers, forked once the text probe is fitted (from the labelled papers' texts, which the
    first round returns), reads the ranges again for the probe's evidence. ``cache``: a file that
    keeps the fitted text probe between assignments (``textprobe.fit_text_probe``)."""
    a = assigner or Assigner()
    jobs = jobs or min(4, os.cpu_count() or 1)
    ids = sorted(store.paper_ids())
    if jobs <= 1 or len(ids) < parallel_min:
        return assign_all(store.iter_topic_docs(), vectors, a, cache=cache)
    step = -(-len(ids) // (jobs * 4))
    bounds = ids[::step] + [None]
    ranges = list(pairwise(bounds))
    parts = _forked(jobs, _evidence_range, ranges, (a, store.path, None))
    ev: list[Evidence] = [(TopicDoc(pid, venue, year, "", "", None), e, pin)
                          for part in parts for pid, venue, year, e, pin, _, _ in part]
    labelling = labelling_groups([(d.venue, d.year) for d, _, _ in ev], [r[5] for part in parts for r in part])
    mix = corpus_mix(len(a.tax.topics), ev, labelling)
    labelled = ((doc, c) for part in parts for *_, c, doc in part if c is not None)
    tp = shift_towards(fit_text_probe(labelled, len(a.tax.topics), cache=cache), mix, labelling)
    if tp is not None:
        _add_text_evidence(ev, [row for part in _forked(jobs, _text_range, ranges, (a, store.path, tp))
                                for row in part])
    probe = None
    if vectors is not None:
        probe = shift_towards(fit_probe(((r[0], r[5]) for part in parts for r in part), vectors, len(a.tax.topics)),
                              mix, labelling)
    return _choose_all(a, ev, vectors, probe)


# (paper, topic index -> evidence, the topic its source's area names or None)
Evidence = tuple[TopicDoc, dict[int, float], int | None]


def _choose_all(a: Assigner, ev: list[Evidence], vectors: Any | None, probe: Probe | None,
                cent: Any | None = None) -> Iterator[Assignment]:
    if vectors is not None and len(vectors):
        _add_embedding_evidence(a, ev, vectors, probe, cent if cent is not None else centroids(a, ev, vectors))
    for _, s, pin in ev:
        if pin is not None:     # probes and similarity are evidence; the source's own area still decides
            lead(s, pin)
    for d, s, _ in ev:
        yield Assignment(d.id, d.venue, d.year, a.choose(s))


def text_evidence(tp: TextProbe, docs: list[TopicDoc]) -> list[list[tuple[int, float]]]:
    """Per paper, (topic index, ``TEXT_GAIN`` x probability) where the probability reaches
    ``PROBE_MIN``."""
    import numpy as np

    p = tp.proba(docs)
    return [[(int(j), TEXT_GAIN * float(row[j])) for j in np.flatnonzero(row >= PROBE_MIN)] for row in p]


def _add_text_evidence(ev: list[Evidence], rows: list[list[tuple[int, float]]]) -> None:
    """Adds the text probe's evidence; a paper whose words name no seed term takes only a topic the
    probe is confident of (``TEXT_ONLY_MIN``)."""
    assert len(rows) == len(ev)
    for (_, s, _), row in zip(ev, rows):
        floor = 0.0 if s else TEXT_GAIN * TEXT_ONLY_MIN
        for j, v in row:
            if v >= floor:
                s[j] = s.get(j, 0.0) + v


# What the forked workers use: the compiled assigner, the store's path and the text probe (set
# just before the fork).
_FORKED: tuple[Assigner, Path, TextProbe | None] | None = None


def _forked(jobs: int, fn: Callable[[tuple[str, str | None]], list[Any]], ranges: list[tuple[str, str | None]],
            state: tuple[Assigner, Path, TextProbe | None]) -> list[list[Any]]:
    """``fn`` over ``ranges`` in ``jobs`` processes forked with ``state`` (as ``_FORKED``)."""
    global _FORKED
    _FORKED = state
    # The parent's objects are shared with the workers copy-on-write; a garbage collection in a
    # worker would walk (and so copy) every one of them. Frozen, they are left alone: on the full
    # corpus the second round's workers grew by ~800 MB each without this.
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as ex:
            return list(ex.map(fn, ranges))
    finally:
        gc.unfreeze()
        _FORKED = None


def _evidence_range(r: tuple[str, str | None]) -> list[tuple[str, str, int, dict[int, float], int | None,
                                                              int | None, TopicDoc | None]]:
    """(id, venue, year, evidence, named topic, confirmed topic, the paper if it has one) of the
    papers whose ids are in [r[0], r[1]), read by this worker."""
    assert _FORKED is not None
    a, path, _ = _FORKED
    out = []
    for d in Store(path, readonly=True).iter_topic_docs(*r):
        s, pin = a.scored(d)
        c = confirmed(a, d, s)
        out.append((d.id, d.venue, d.year, s, pin, c, d if c is not None else None))
    return out


def _text_range(r: tuple[str, str | None]) -> list[list[tuple[int, float]]]:
    """The text probe's evidence (``text_evidence``) for the papers whose ids are in [r[0], r[1])."""
    assert _FORKED is not None and _FORKED[2] is not None
    _, path, tp = _FORKED
    docs = Store(path, readonly=True).iter_topic_docs(*r)
    out: list[list[tuple[int, float]]] = []
    while chunk := list(islice(docs, TEXT_CHUNK)):       # a few thousand texts in memory at a time
        out.extend(text_evidence(tp, chunk))
    return out


def centroids(a: Assigner, ev: list[Evidence], vectors: Any) -> Any | None:
    """Per topic, the unit mean vector of the papers whose main evidence for it is confident
    (zeros for topics with fewer than 20 of them); None when no topic has enough."""
    import numpy as np

    n_topics = len(a.tax.topics)
    sums = np.zeros((n_topics, int(vectors.mat.shape[1])), dtype=np.float32)
    counts = np.zeros(n_topics, dtype=np.int64)
    for d, s, _ in ev:
        r = vectors.row.get(d.id)
        if r is not None and s:
            i, v = max(s.items(), key=lambda kv: kv[1])
            if v >= CONFIDENT:
                sums[i] += np.asarray(vectors.mat[r], dtype=np.float32)
                counts[i] += 1
    usable = counts >= 20
    if not usable.any():
        return None
    cent = sums / np.maximum(counts, 1)[:, None]
    cent /= np.maximum(np.linalg.norm(cent, axis=1, keepdims=True), 1e-9)
    cent[~usable] = 0.0
    return cent


def _add_embedding_evidence(a: Assigner, ev: list[Evidence], vectors: Any, probe: Probe | None,
                            cent: Any | None) -> None:
    """Similarity to the topic centroids (``centroids``) as extra evidence; and the probe's topic
    probabilities (``PROBE_GAIN`` x p, above ``PROBE_MIN``)."""
    import numpy as np

    if cent is None:
        if probe is None:
            return
        cent = np.zeros((len(a.tax.topics), int(vectors.mat.shape[1])), dtype=np.float32)
    rows = np.array([vectors.row.get(d.id, -1) for d, _, _ in ev], dtype=np.int64)
    have = np.flatnonzero(rows >= 0)
    for start in range(0, len(have), 20_000):
        ks = have[start:start + 20_000]
        sims = np.asarray(vectors.mat[np.sort(rows[ks])], dtype=np.float32)
        # rows were sorted for a sequential read: map back to ks order
        order = np.argsort(rows[ks])
        block = np.empty_like(sims)
        block[order] = sims
        sim = block @ cent.T
        prob = None
        if probe is not None:
            prob = probe.proba(block, shift_rows(probe.labelling, [ev[int(k)][0] for k in ks]))
        for n, (k, srow) in enumerate(zip(ks, sim)):
            s = ev[int(k)][1]
            if prob is not None and s:
                for j in np.flatnonzero(prob[n] >= PROBE_MIN).tolist():
                    s[j] = s.get(j, 0.0) + PROBE_GAIN * float(prob[n, j])
            best = int(np.argmax(srow))
            if not s:
                if srow[best] >= EMB_ONLY_MIN:
                    s[best] = MIN_SCORE + EMB_GAIN * (float(srow[best]) - EMB_FLOOR)
                continue
            for j in np.flatnonzero(srow > EMB_FLOOR).tolist():
                s[j] = s.get(j, 0.0) + EMB_GAIN * (float(srow[j]) - EMB_FLOOR) * 0.5


def assignment_rows(assignments: Iterable[Assignment]) -> Iterator[tuple[str, str, int, float, str, int]]:
    """paper_topics rows: (paper id, topic, rank, score, venue, year)."""
    for asg in assignments:
        for rank, (slug, score) in enumerate(asg.topics, 1):
            yield asg.paper_id, slug, rank, score, asg.venue, asg.year


def timed(fn: Any) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
