"""A topic probe on paper text, learned at assignment time from the papers their sources label.

The seed terms (``match.py``) give each topic a few dozen hand-picked words. This probe weighs
tens of thousands: a TF-IDF of the title (twice) and the abstract, words and word pairs, and a
multinomial logistic regression (scikit-learn) whose targets are the labelled papers' *confirmed*
topics, as for the vector probe (``probe.confirmed``). The assigner adds ``assign.TEXT_GAIN`` x its
probability per topic to the word evidence, so the ~30k papers whose authors or programme
committees filed them under an area or keyword teach the other ~230k which words mean which
topic. It needs no vectors: a fresh install without the semantic extra has it too.

It is refitted whenever its training set changes (the benchmark fits it on the training side of
``source_labels.held_out`` only). ``paperlist topics assign`` keeps the last fitted probe in the home
(``CACHE_FILE``), keyed by a digest of its training set and settings, so that reassigning after
``paperlist embed`` (new vectors, same labelled papers) skips the fit (~45 s on the full corpus).
"""

from __future__ import annotations

import hashlib
import pickle
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomic
from ..store import TopicDoc
from .evidence import Assigner
from .probe import confirmed, shift_rows, shifted
from .source_labels import label

MIN_EXAMPLES = 200          # fewer labelled papers than this: no probe
C = 10.0                    # inverse L2 strength (picked on a split inside the training side)
MAX_FEATURES = 40_000       # the most frequent words and word pairs (80k measured the same)
MIN_DF = 5                  # ... that at least this many training papers use
MAX_ITER = 100             # lbfgs converges in ~150; 100 measured the same on the tuning split
BATCH = 4_000               # papers transformed at once when predicting
CACHE_FILE = "topics-textprobe.pickle"


def text_of(doc: TopicDoc) -> str:
    """What the probe reads: the title twice (it is the densest part) and the abstract."""
    return f"{doc.title} {doc.title} {doc.abstract or ''}"


@dataclass(slots=True)
class TextProbe:
    vectorizer: Any             # sklearn TfidfVectorizer, fitted
    model: Any                  # sklearn LogisticRegression, fitted
    columns: Any                # the topic index of each of the model's classes
    n_topics: int
    examples: int
    targets: Any = None         # training examples per topic
    prior: Any = None           # label-shift factors per topic (``probe.label_shift``), or None
    labelling: frozenset[tuple[str, int]] = frozenset()    # (venue, year)s the shift leaves alone

    def proba(self, docs: Sequence[TopicDoc]) -> Any:
        """(len(docs), n_topics) float32 topic probabilities (topics never confirmed get 0)."""
        import numpy as np

        out = np.zeros((len(docs), self.n_topics), dtype=np.float32)
        for start in range(0, len(docs), BATCH):
            x = self.vectorizer.transform([text_of(d) for d in docs[start:start + BATCH]])
            out[start:start + x.shape[0], self.columns] = self.model.predict_proba(x)
        return shifted(out, self.prior, shift_rows(self.labelling, docs))


def fit_text_probe(examples: Iterable[tuple[TopicDoc, int | None]], n_topics: int,
                   min_examples: int | None = None, cache: Path | None = None) -> TextProbe | None:
    """A probe from (paper, confirmed topic or None) pairs; None when fewer than ``min_examples``
    (default ``MIN_EXAMPLES``) have a confirmed topic, or they all share one. Deterministic:
    examples are taken in id order. With ``cache`` (a file), a probe fitted earlier on the same
    examples with the same settings is loaded from it, and a newly fitted one replaces it."""
    pairs = sorted((d.id, text_of(d), t) for d, t in examples if t is not None)
    if (len(pairs) < (MIN_EXAMPLES if min_examples is None else min_examples)
            or len({t for _, _, t in pairs}) < 2):
        return None
    digest = _digest(pairs, n_topics)
    probe = _load(cache, digest) if cache is not None else None
    if probe is None:
        probe = _fit(pairs, n_topics)
        if probe is not None and cache is not None:
            _save(cache, digest, probe)
    return probe


def _fit(pairs: list[tuple[str, str, int]], n_topics: int) -> TextProbe | None:
    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=MIN_DF, max_features=MAX_FEATURES,
                                 sublinear_tf=True, stop_words="english", dtype=np.float32)
    try:
        x = vectorizer.fit_transform([text for _, text, _ in pairs])
    except ValueError:          # no word is used by MIN_DF papers
        return None
    y = np.asarray([t for _, _, t in pairs])
    model = LogisticRegression(C=C, max_iter=MAX_ITER)
    with warnings.catch_warnings():
        # lbfgs stopping at MAX_ITER is fine (see MAX_ITER)
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(x, y)
    return TextProbe(vectorizer, model, np.asarray(model.classes_, dtype=np.int64), n_topics, len(pairs),
                     np.bincount(y, minlength=n_topics))


def _digest(pairs: list[tuple[str, str, int]], n_topics: int) -> str:
    import sklearn

    h = hashlib.sha256(repr((sklearn.__version__, n_topics, C, MAX_FEATURES, MIN_DF, MAX_ITER)).encode())
    for pid, text, t in pairs:
        h.update(f"{pid}\x00{t}\x00{text}\x01".encode())
    return h.hexdigest()


def _load(path: Path, digest: str) -> TextProbe | None:
    """The cached probe if it was fitted on the same examples; None otherwise (or unreadable)."""
    try:
        with path.open("rb") as f:
            stored, probe = pickle.load(f)      # our own file, written by _save below
    except (OSError, pickle.PickleError, EOFError, ValueError, TypeError, AttributeError, ImportError):
        return None
    return probe if stored == digest and isinstance(probe, TextProbe) else None


def _save(path: Path, digest: str, probe: TextProbe) -> None:
    """Write the cache whole or not at all (a temporary file renamed over it); a failure to write
    only costs the next assignment a fit."""
    try:
        write_atomic(path, lambda f: pickle.dump((digest, probe), f, protocol=pickle.HIGHEST_PROTOCOL),
                     durable=False)
    except OSError:
        pass


def text_probe_from_docs(a: Assigner, docs: Iterable[TopicDoc],
                         keep: Callable[[str], bool] = lambda pid: True) -> TextProbe | None:
    """A text probe from the labelled papers among ``docs`` for which ``keep(id)`` holds."""
    return fit_text_probe(((d, confirmed(a, d, a.evidence(d))) for d in docs if keep(d.id) and label(d)),
                          len(a.tax.topics))
