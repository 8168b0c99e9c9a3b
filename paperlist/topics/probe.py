"""A topic probe on paper vectors, learned at assignment time from the papers their sources label.

Every paper whose primary area or keywords map to acceptable topics (``source_labels.py``) and that has a
vector is a training example; its target is the acceptable topic its own evidence (words and area)
ranks highest, its *confirmed* topic. A softmax regression over the vectors (numpy, full-batch
Adam, a few seconds for ~40k papers) then gives every paper with a vector a probability per topic,
which the assigner adds to the word evidence (``assign.PROBE_GAIN``). Labels thus reach the ~85%
of papers that have none, through meaning rather than shared words: a paper similar to those whose
authors filed them under reinforcement learning is likely about it.

Nothing is stored: the probe is refitted whenever topics are assigned, from the store's labelled
papers (the benchmark fits it on the training side of ``source_labels.held_out`` only).

The labelled papers are not a sample of the corpus: they come from OpenReview, AAAI and IJCAI,
where computer vision, robotics and medicine are rare, so a probe learns that those topics are
rare. ``label_shift`` corrects for it (both probes use it) for the papers of venue-years whose source
labels few papers: each topic's probability is multiplied by (its share of those papers / its share
of the training targets) ** ``PRIOR_ALPHA`` and renormalised, the share being that of the papers'
main topics by their words. The venue-years that supply the labels have the training mix already
and are left as they are. The tempered correction (0.5; the full one is 1) gives the topics that
labels seldom confirm their share back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..store import TopicDoc
from .evidence import Assigner
from .source_labels import label

MIN_EXAMPLES = 200          # fewer labelled papers with vectors than this: no probe
L2 = 1e-3
EPOCHS = 300
SCALE = 10.0                # unit vectors times this: cosines become logits of a useful range
PRIOR_ALPHA = 0.5           # strength of the label-shift correction (see above)
LABELLING_SHARE = 0.2       # a venue-year whose sources label this share of papers: no label shift


def confirmed(a: Assigner, doc: TopicDoc, evidence: dict[int, float]) -> int | None:
    """The acceptable topic (by the paper's source labels) its evidence ranks highest, or None
    (no label, or no evidence for any acceptable topic)."""
    lab = label(doc)
    if lab is None:
        return None
    ok = [i for i in evidence if a.tax.topics[i].slug in lab.ok]
    return max(ok, key=lambda i: (evidence[i], -i)) if ok else None


def label_shift(targets: Any, corpus: Any, alpha: float = PRIOR_ALPHA) -> Any:
    """Per topic, (corpus share / training-target share) ** alpha, from counts per topic; 1 where
    either is 0 (a topic never trained on gets no probability anyway)."""
    import numpy as np

    t = np.asarray(targets, dtype=np.float64)
    c = np.asarray(corpus, dtype=np.float64)
    if t.sum() <= 0 or c.sum() <= 0:
        return np.ones(len(t), dtype=np.float32)
    ratio = np.where((t > 0) & (c > 0), (c / c.sum()) / np.maximum(t / t.sum(), 1e-12), 1.0)
    return (ratio ** alpha).astype(np.float32)


def labelling_groups(groups: list[tuple[str, int]],
                     confirmed_topics: list[int | None]) -> frozenset[tuple[str, int]]:
    """The (venue, year)s (one per paper in ``groups``) where at least ``LABELLING_SHARE`` of the
    papers have a confirmed topic: the probes' training mix is theirs, so the label-shift
    correction leaves them alone."""
    n: dict[tuple[str, int], int] = {}
    lab: dict[tuple[str, int], int] = {}
    for g, c in zip(groups, confirmed_topics, strict=True):
        n[g] = n.get(g, 0) + 1
        lab[g] = lab.get(g, 0) + (c is not None)
    return frozenset(g for g in n if lab[g] >= LABELLING_SHARE * n[g])


def corpus_mix(n_topics: int, ev: Iterable[tuple[TopicDoc, dict[int, float], Any]],
               labelling: frozenset[tuple[str, int]] = frozenset()) -> list[int]:
    """Papers per topic that their words (and area) make the main one, outside the ``labelling``
    venue-years: the topic mix that the label shift is corrected to. ``ev``: (paper, evidence, _)."""
    counts = [0] * n_topics
    for d, s, _ in ev:
        if s and (d.venue, d.year) not in labelling:
            counts[max(s.items(), key=lambda kv: (kv[1], -kv[0]))[0]] += 1
    return counts


def shift_towards(probe: Any, mix: list[int], labelling: frozenset[tuple[str, int]]) -> Any:
    """``probe`` (a Probe, a TextProbe or None) corrected for label shift towards ``mix`` outside
    the ``labelling`` venue-years."""
    if probe is not None:
        probe.prior = label_shift(probe.targets, mix)
        probe.labelling = labelling
    return probe


def shift_rows(labelling: frozenset[tuple[str, int]], docs: Iterable[TopicDoc]) -> Any:
    """Boolean mask of the papers the label shift applies to: those outside ``labelling``."""
    import numpy as np

    return np.array([(d.venue, d.year) not in labelling for d in docs], dtype=bool)


def shifted(p: Any, prior: Any | None, rows: Any | None = None) -> Any:
    """Probabilities (rows) times the label-shift factors, renormalised; unchanged without them.
    Only the ``rows`` (a boolean mask) when given."""
    if prior is None:
        return p
    if rows is not None:
        p = p.copy()
        p[rows] = shifted(p[rows], prior)
        return p
    p = p * prior
    p /= p.sum(axis=1, keepdims=True).clip(min=1e-12)
    return p


@dataclass(slots=True)
class Probe:
    weights: Any                # (dim, topics) float32
    bias: Any                   # (topics,) float32
    examples: int
    targets: Any = None         # training examples per topic
    prior: Any = None           # label-shift factors per topic (``label_shift``), or None
    labelling: frozenset[tuple[str, int]] = frozenset()    # (venue, year)s the shift leaves alone

    def proba(self, vecs: Any, shift: Any | None = None) -> Any:
        """Topic probabilities for rows of unit vectors (float16 or float32), corrected for label
        shift in the ``shift`` rows (a boolean mask; default all)."""
        import numpy as np

        z = (np.asarray(vecs, dtype=np.float32) * SCALE) @ self.weights + self.bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        return shifted(p, self.prior, shift)


def fit(vecs: Any, targets: Any, n_topics: int, l2: float = L2, epochs: int = EPOCHS,
        lr: float = 0.05) -> Probe:
    """Softmax regression of ``targets`` (topic indexes) on ``vecs``, full-batch Adam from zero
    (deterministic)."""
    import numpy as np

    x = np.asarray(vecs, dtype=np.float32) * SCALE
    n, dim = x.shape
    y = np.zeros((n, n_topics), dtype=np.float32)
    y[np.arange(n), np.asarray(targets)] = 1.0
    params = [np.zeros((dim, n_topics), dtype=np.float32), np.zeros(n_topics, dtype=np.float32)]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    for step in range(1, epochs + 1):
        z = x @ params[0] + params[1]
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        g = (p - y) / n
        grads = [x.T @ g + l2 * params[0], g.sum(axis=0)]
        for par, gr, a, b in zip(params, grads, m1, m2, strict=True):
            a *= 0.9
            a += 0.1 * gr
            b *= 0.999
            b += 0.001 * gr * gr
            par -= lr * (a / (1 - 0.9 ** step)) / (np.sqrt(b / (1 - 0.999 ** step)) + 1e-8)
    return Probe(params[0], params[1], n, np.bincount(np.asarray(targets), minlength=n_topics))


def fit_probe(examples: Iterable[tuple[str, int | None]], vectors: Any, n_topics: int,
              min_examples: int = MIN_EXAMPLES) -> Probe | None:
    """A probe from (paper id, confirmed topic or None) pairs; None when too few of them have a
    vector and a confirmed topic."""
    import numpy as np

    rows, targets = [], []
    for pid, topic in examples:
        r = vectors.row.get(pid) if topic is not None else None
        if r is not None:
            rows.append(r)
            targets.append(topic)
    if len(rows) < min_examples:
        return None
    order = np.argsort(rows)                 # a sequential read of the memory-mapped matrix
    vecs = np.asarray(vectors.mat[np.asarray(rows)[order]], dtype=np.float32)
    return fit(vecs, np.asarray(targets)[order], n_topics)


def probe_from_docs(a: Assigner, docs: Iterable[TopicDoc], vectors: Any,
                    keep: Callable[[str], bool] = lambda pid: True) -> Probe | None:
    """A probe from the labelled papers among ``docs`` for which ``keep(id)`` holds."""
    return fit_probe(((d.id, confirmed(a, d, a.evidence(d))) for d in docs if keep(d.id) and label(d)),
                     vectors, len(a.tax.topics))
