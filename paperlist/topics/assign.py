"""Assigning 1-3 topics to every paper: the pipeline that gathers the evidence and chooses.

A paper's own evidence, from its words and the primary area its source gives, and the rule that
chooses its topics from the evidence are ``evidence.py``'s (``Assigner``). Here that evidence is
computed for every paper (by worker processes, for a large store) and more joins it. When paper
vectors exist, a paper's cosine similarity to each topic's centroid (the mean vector of papers
confidently assigned to it by terms) adds evidence too, and gives topics to papers whose words
matched nothing; and so does a probe learned from the papers their sources label (``probe.py``:
``PROBE_GAIN`` x its topic probability), which carries those labels to the papers that have none.
A second probe learns the same from the papers' words (``textprobe.py``, ``TEXT_GAIN`` x its
probability) and needs no vectors. The topic a source's primary area names stays the main one
whatever the probes and vectors add.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from ..pool import process_pool
from ..store import Store, TopicDoc
from .evidence import MIN_SCORE, Assigner, lead
from .probe import Probe, confirmed, corpus_mix, fit_probe, labelling_groups, shift_rows, shift_towards
from .textprobe import TextProbe, fit_text_probe

CONFIDENT = 4.0              # main-topic evidence that makes a paper part of its topic's centroid
EMB_FLOOR, EMB_GAIN = 0.25, 8.0   # similarity above the floor, times the gain, is added evidence
EMB_ONLY_MIN = 0.35          # a paper without term evidence gets its nearest topic above this
PROBE_GAIN, PROBE_MIN = 10.0, 0.02   # evidence per unit of the vector probe's probability (probe.py)
TEXT_GAIN = 20.0             # ... and of the text probe's (textprobe.py), also counted from PROBE_MIN
TEXT_ONLY_MIN = 0.3          # a paper without word evidence takes a topic the text probe gives this
PARALLEL_MIN = 20_000       # fewer papers than this: one process (forking costs more)
TEXT_CHUNK = 4_000          # papers a worker reads at once for the text probe


@dataclass(slots=True)
class Assignment:
    paper_id: str
    venue: str
    year: int
    topics: list[tuple[str, float]] = field(default_factory=list)   # (slug, 0..1), main first


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
        text_probe = _with_labelling(fit_text_probe(((d, c) for d, c in confirmations if c is not None),
                                                    len(a.tax.topics), cache=cache, mix=mix), labelling)
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
    starts = ids[::step]
    ranges = list(zip(starts, starts[1:] + [None], strict=True))      # [start, next start), the last one open
    parts = _forked(jobs, _evidence_range, ranges, (a, store.path, None))
    ev: list[Evidence] = [(TopicDoc(pid, venue, year, "", "", None), e, pin)
                          for part in parts for pid, venue, year, e, pin, _, _ in part]
    labelling = labelling_groups([(d.venue, d.year) for d, _, _ in ev],
                                 [r[5] for part in parts for r in part])
    mix = corpus_mix(len(a.tax.topics), ev, labelling)
    labelled = ((doc, c) for part in parts for *_, c, doc in part if c is not None)
    tp = _with_labelling(fit_text_probe(labelled, len(a.tax.topics), cache=cache, mix=mix), labelling)
    if tp is not None:
        _add_text_evidence(ev, [row for part in _forked(jobs, _text_range, ranges, (a, store.path, tp))
                                for row in part])
    probe = None
    if vectors is not None:
        probe = shift_towards(fit_probe(((r[0], r[5]) for part in parts for r in part), vectors,
                                        len(a.tax.topics)),
                              mix, labelling)
    return _choose_all(a, ev, vectors, probe)


def _with_labelling(tp: TextProbe | None, labelling: frozenset[tuple[str, int]]) -> TextProbe | None:
    """The text probe with today's labelling venue-years (its label-shift factors came with it:
    ``fit_text_probe``)."""
    if tp is not None:
        tp.labelling = labelling
    return tp


# (paper, topic index -> evidence, the topic its source's area names or None)
Evidence = tuple[TopicDoc, dict[int, float], int | None]


def _choose_all(a: Assigner, ev: list[Evidence], vectors: Any | None, probe: Probe | None,
                cent: Any | None = None) -> Iterator[Assignment]:
    if vectors is not None and len(vectors):
        _add_embedding_evidence(a, ev, vectors, probe,
                                cent if cent is not None else centroids(a, ev, vectors))
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
    for (_, s, _), row in zip(ev, rows, strict=True):
        floor = 0.0 if s else TEXT_GAIN * TEXT_ONLY_MIN
        for j, v in row:
            if v >= floor:
                s[j] = s.get(j, 0.0) + v


# What the forked workers use: the compiled assigner, the store's path and the text probe (set
# just before the fork).
_FORKED: tuple[Assigner, Path, TextProbe | None] | None = None


def _forked(jobs: int, fn: Callable[[tuple[str, str | None]], list[Any]],
            ranges: list[tuple[str, str | None]],
            state: tuple[Assigner, Path, TextProbe | None]) -> list[list[Any]]:
    """``fn`` over ``ranges`` in ``jobs`` processes forked with ``state`` (as ``_FORKED``)."""
    global _FORKED
    _FORKED = state
    # The parent's objects are shared with the workers copy-on-write; a garbage collection in a
    # worker would walk (and so copy) every one of them. Frozen, they are left alone: on the full
    # corpus the second round's workers grew by ~800 MB each without this.
    gc.freeze()
    try:
        with process_pool(jobs) as ex:
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
    assert _FORKED is not None
    _, path, tp = _FORKED
    assert tp is not None
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
        for n, (k, srow) in enumerate(zip(ks, sim, strict=True)):
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
