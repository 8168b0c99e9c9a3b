"""A topic probe on paper text, learned at assignment time from the papers their sources label.

The seed terms (``match.py``) give each topic a few dozen hand-picked words. This probe weighs
tens of thousands: a TF-IDF of the title (twice) and the abstract, words and word pairs, and a
multinomial logistic regression (scikit-learn) whose targets are the labelled papers' *confirmed*
topics, as for the vector probe (``probe.confirmed``). The assigner adds ``assign.TEXT_GAIN`` x its
probability per topic to the word evidence, so the ~30k papers whose authors or programme
committees filed them under an area or keyword teach the other ~230k which words mean which
topic. It needs no vectors: a fresh install without the semantic extra has it too.

``paperlist topics assign`` keeps the last fitted probe in the home (``CACHE_FILE``) with the
settings and the examples it was fitted on. It is fitted again when the settings change, when more
than ``REFIT_SHARE`` of today's examples are not among them (or of theirs are gone), or when it is
older than ``REFIT_DAYS``; otherwise it is kept. A refit moves every paper's scores a little and
changes the topics of a few percent of all papers, so refitting for each small update would
rewrite every topic row and most of the index, and each follower would download them again (the
several-machines issue); the new papers of a small update are assigned by the kept probe, as
they would be by a fresh one within the measured noise. The benchmark fits its probe on the
training side of ``source_labels.held_out`` only, with no cache.
"""

from __future__ import annotations

import hashlib
import pickle
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..files import write_atomic
from ..store import TopicDoc
from .evidence import Assigner
from .probe import confirmed, label_shift, shift_rows, shifted
from .source_labels import label

MIN_EXAMPLES = 200          # fewer labelled papers than this: no probe
C = 10.0                    # inverse L2 strength (picked on a split inside the training side)
MAX_FEATURES = 40_000       # the most frequent words and word pairs (80k measured the same)
MIN_DF = 5                  # ... that at least this many training papers use
MAX_ITER = 100             # lbfgs converges in ~150; 100 measured the same on the tuning split
BATCH = 4_000               # papers transformed at once when predicting
CACHE_FILE = "topics-textprobe.pickle"
REFIT_SHARE = 0.10          # new (or gone) examples beyond this share: fit again
REFIT_DAYS = 30.0           # ... and at least this often
CACHE_VERSION = 3           # the cache's layout: (settings, example hashes, fitted at, probe with its prior)


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
                   min_examples: int | None = None, cache: Path | None = None,
                   mix: list[int] | None = None) -> TextProbe | None:
    """A probe from (paper, confirmed topic or None) pairs; None when fewer than ``min_examples``
    (default ``MIN_EXAMPLES``) have a confirmed topic, or they all share one. Deterministic:
    examples are taken in id order. With ``cache`` (a file), a probe fitted earlier on the same
    examples with the same settings (or nearly: ``needs_refit``) is loaded from it, and a newly
    fitted one replaces it. With ``mix`` (the corpus's papers per topic), a newly fitted probe
    gets its label-shift factors (``probe.label_shift``) before it is kept: a kept probe brings
    the factors it was fitted with, so that a small update, which moves the mix a little, does
    not move every paper's scores either."""
    pairs = sorted((d.id, text_of(d), t) for d, t in examples if t is not None)
    if (len(pairs) < (MIN_EXAMPLES if min_examples is None else min_examples)
            or len({t for _, _, t in pairs}) < 2):
        return None
    fitted_on = _example_hashes(pairs)
    settings = _settings(n_topics)
    probe = _load(cache, settings, fitted_on) if cache is not None else None
    if probe is None:
        probe = _fit(pairs, n_topics)
        if probe is not None and mix is not None:
            probe.prior = label_shift(probe.targets, mix)
        if probe is not None and cache is not None:
            _save(cache, settings, fitted_on, probe)
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


def _settings(n_topics: int) -> str:
    import sklearn

    return repr((CACHE_VERSION, sklearn.__version__, n_topics, C, MAX_FEATURES, MIN_DF, MAX_ITER))


def _example_hashes(pairs: list[tuple[str, str, int]]) -> frozenset[bytes]:
    """Each example (id, topic, text) as 8 bytes of its sha256: what a cached probe was fitted on."""
    return frozenset(hashlib.sha256(f"{pid}\x00{t}\x00{text}".encode()).digest()[:8]
                     for pid, text, t in pairs)


def needs_refit(fitted: frozenset[bytes], today: frozenset[bytes], age_s: float) -> bool:
    """Whether a probe fitted on ``fitted`` ``age_s`` seconds ago should be fitted again on ``today``."""
    if not today or age_s > REFIT_DAYS * 86400 or age_s < 0:
        return True
    return len(today - fitted) > REFIT_SHARE * len(today) or len(fitted - today) > REFIT_SHARE * len(fitted)


def _load(path: Path, settings: str, examples: frozenset[bytes]) -> TextProbe | None:
    """The cached probe when it was fitted with these settings on (nearly) these examples, recently
    enough (``needs_refit``); None otherwise, or when the file is unreadable or of an older format."""
    try:
        with path.open("rb") as f:
            stored = pickle.load(f)      # our own file, written by _save below
        kept_settings, fitted, at, probe = stored
    except (OSError, pickle.PickleError, EOFError, ValueError, TypeError, AttributeError, ImportError):
        return None
    if kept_settings != settings or not isinstance(probe, TextProbe) or not isinstance(fitted, frozenset):
        return None
    return None if needs_refit(fitted, examples, time.time() - float(at)) else probe


def _save(path: Path, settings: str, examples: frozenset[bytes], probe: TextProbe) -> None:
    """Write the cache whole or not at all (a temporary file renamed over it); a failure to write
    only costs the next assignment a fit."""
    data = (settings, examples, time.time(), probe)
    try:
        write_atomic(path, lambda f: pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL), durable=False)
    except OSError:
        pass


def text_probe_from_docs(a: Assigner, docs: Iterable[TopicDoc],
                         keep: Callable[[str], bool] = lambda pid: True) -> TextProbe | None:
    """A text probe from the labelled papers among ``docs`` for which ``keep(id)`` holds."""
    return fit_text_probe(((d, confirmed(a, d, a.evidence(d))) for d in docs if keep(d.id) and label(d)),
                          len(a.tax.topics))
