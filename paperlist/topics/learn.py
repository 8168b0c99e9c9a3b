"""Learning seed-term weights from the papers whose source labels them (weak supervision).

The assigner scores a topic by the seed terms a paper uses (``match.py``), each with a hand-set
weight. Here every term gets a learned multiplier ``exp(theta)``: papers whose primary area or
keywords map to acceptable topics (``source_labels.py``) are the supervision, and theta is fitted by
gradient descent (numpy) to put an acceptable topic first, with an L2 pull towards 1 so that terms
seldom seen keep their hand-set weight. The loss is the softmax likelihood of the acceptable set.
A topic that no label ever accepts (medical applications, say) is left out of it, and so are the
papers with evidence for such a topic: a label can neither confirm nor refute it, so neither its
terms nor its rivals' are pushed merely because no label names it.

Fitting sees the papers as the blind evaluation does (title and abstract only) and only the
training side of ``source_labels.held_out``; the held-out side measures the result. (The shipped
``weights.tsv`` was fitted with the earlier one-label mapping; refitting with the current labels
moved held-out precision by less than a point either way, so it was kept.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..store import STORE_FILE, Store, TopicDoc
from ..taxonomy import Taxonomy
from .evidence import WEIGHTS_FILE, Assigner
from .match import Matcher
from .source_labels import Label, blind, held_out, label

# A label accepts a whole set of topics (a "Computer Vision" track paper may be about any vision
# topic), so unbounded multipliers learn shortcuts such as "vision" -> vision-language, which the
# labels cannot refute but which would mislabel the unlabelled majority: a term may count at most
# BOUND-fold more or less than its hand-set weight, e ** 0.7 = 2.
BOUND = 0.7


@dataclass(slots=True)
class Features:
    """Term evidence of labelled papers as flat arrays: one row per (paper, term) occurrence."""

    paper: list[int]
    term: list[int]
    value: list[float]          # field weight x term weight x (1 + ln count) x generic factor
    ok: list[frozenset[int]]    # acceptable topic indexes, per paper


def features(assigner: Assigner, labelled: Iterable[tuple[TopicDoc, Label]]) -> Features:
    """Evidence rows for each labelled paper, its area and keywords hidden (as the blind
    evaluation sees it)."""
    f = Features([], [], [], [])
    idx = assigner.index
    for p, (doc, lab) in enumerate(labelled):
        for term, value in assigner.term_evidence(blind(doc)):
            f.paper.append(p)
            f.term.append(term)
            f.value.append(value)
        f.ok.append(frozenset(idx[s] for s in lab.ok if s in idx))
    return f


def fit(f: Features, terms_topic: Sequence[int], n_topics: int, l2: float = 0.05, epochs: int = 400,
        lr: float = 0.05, scale: float = 0.3, bound: float = BOUND,
        generic: Sequence[bool] | None = None) -> list[float]:
    """Per-term log multipliers theta maximising the likelihood of the acceptable topics, each
    kept within [-bound, bound]; the terms of ``generic`` topics may only lose weight (labels such
    as "foundation models" accept the generic LLM topic along with the specific ones, and would
    otherwise teach it to crowd them out: the taxonomy wants it to yield)."""
    import numpy as np

    n_papers, n_terms = len(f.ok), len(terms_topic)
    paper = np.asarray(f.paper, dtype=np.int64)
    term = np.asarray(f.term, dtype=np.int64)
    value = np.asarray(f.value, dtype=np.float64)
    topic_of = np.asarray(terms_topic, dtype=np.int64)
    cell = paper * n_topics + topic_of[term]
    ok, covered, has = _judged(f.ok, paper, topic_of[term], n_topics)
    theta = np.zeros(n_terms)
    upper = np.full(n_terms, bound)
    if generic is not None:
        upper[np.asarray(generic, dtype=bool)[topic_of]] = 0.0
    m, v = np.zeros(n_terms), np.zeros(n_terms)
    for step in range(1, epochs + 1):
        contrib = value * np.exp(theta[term])
        s = np.bincount(cell, weights=contrib, minlength=n_papers * n_topics).reshape(n_papers, n_topics)
        z = np.where(covered, scale * s, -np.inf)
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p_all = e / e.sum(axis=1, keepdims=True)
        e_ok = np.where(ok, e, 0.0)
        q = e_ok / np.maximum(e_ok.sum(axis=1, keepdims=True), 1e-300)
        g_s = scale * (p_all - q) * has[:, None] / max(1, int(has.sum()))
        grad = (np.bincount(term, weights=g_s.ravel()[cell] * contrib, minlength=n_terms)
                + 2 * l2 * theta / n_terms)
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        theta -= lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        np.clip(theta, -bound, upper, out=theta)
    # terms of unjudged topics move with the average term (weighted by evidence), keeping their
    # standing against the rest
    judged = covered[topic_of]
    mass = np.bincount(term, weights=value, minlength=n_terms)
    theta[~judged] = float((theta * mass)[judged].sum() / max(mass[judged].sum(), 1e-9))
    return [float(x) for x in theta]


def _judged(accepts: list[frozenset[int]], paper: Any, evidence_topic: Any,
            n_topics: int) -> tuple[Any, Any, Any]:
    """(ok, covered, has): the topics each paper's label accepts, the topics some label accepts,
    and the papers the fit learns from. A topic no label accepts is out of the softmax, and papers
    with evidence for it (``paper`` and ``evidence_topic``: per evidence row) are out of the fit:
    their labels can neither confirm nor refute it."""
    import numpy as np

    n_papers = len(accepts)
    ok = np.zeros((n_papers, n_topics), dtype=bool)
    for p, accepted in enumerate(accepts):
        ok[p, list(accepted)] = True
    covered = np.asarray(ok.any(axis=0))       # asarray: numpy's stubs type .any(axis=...) as maybe a scalar
    unjudged = np.zeros(n_papers, dtype=bool)
    unjudged[paper[~covered[evidence_topic]]] = True
    return ok, covered, ok.any(axis=1) & ~unjudged


def save(path: Path, matcher: Matcher, tax: Taxonomy, theta: Sequence[float],
         min_change: float = 0.02) -> int:
    """Write the multipliers that differ from 1 as ``term<TAB>topic<TAB>multiplier`` lines (read by
    ``evidence.parse_weights``)."""
    lines = []
    for t, th in zip(matcher.terms, theta, strict=True):
        mult = math.exp(th)
        if abs(mult - 1.0) >= min_change:
            lines.append(f"{' '.join(t.words)}\t{tax.topics[t.topic].slug}\t{mult:.3f}")
    lines.sort()
    path.write_text("# term\ttopic\tlearned weight multiplier (paperlist/topics/learn.py)\n"
                    + "\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def learn_weights(docs: Iterable[TopicDoc], out: Path, l2: float = 0.05, scale: float = 0.3,
                  epochs: int = 400) -> tuple[int, int]:
    """Fit multipliers on the training side of the labelled papers among ``docs`` and write them
    to ``out``; returns (papers learned from, multipliers written)."""
    base = Assigner(weights="")
    train = [(d, lab) for d in docs if (lab := label(d)) is not None and not held_out(d.id)]
    theta = fit(features(base, train), [t.topic for t in base.matcher.terms], len(base.tax.topics),
                l2=l2, epochs=epochs, scale=scale, generic=[t.generic for t in base.tax.topics])
    return len(train), save(out, base.matcher, base.tax, theta)


def main() -> None:
    import argparse

    ap = argparse.ArgumentParser(
        description="Learn seed-term weights from labelled papers (" + __name__ + ").")
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--out", type=Path,
                    default=Path(str(resources.files("paperlist.topics").joinpath(WEIGHTS_FILE))))
    args = ap.parse_args()
    store = Store(args.home / STORE_FILE, readonly=True)
    n, k = learn_weights(store.iter_topic_docs(), args.out)
    print(f"learned from {n:,} labelled papers (held-out side excluded): {k:,} multipliers -> {args.out}")


if __name__ == "__main__":
    main()
