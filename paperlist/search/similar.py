"""Similar papers: nearest neighbours by vector when the paper has one, else the papers that
share its most distinctive title, keyword and abstract words (``distinctive_terms``)."""

from __future__ import annotations

import math
from collections.abc import Callable

from ..index import analyzers
from ..models import Paper
from .backend import SearchBackend

METHODS = ("vectors", "text", "none")
MAX_TERMS = 25             # the paper's most distinctive words that make the text query
MIN_DF, MAX_DF = 2, 20_000  # a word only this paper has, or one in 8% of papers, says nothing
TITLE_TF = 3.0             # a title or keyword word counts as much as three abstract words


def distinctive_terms(title: str, keywords: list[str], abstract: str | None, df: Callable[[str], int],
                      n_docs: int) -> list[tuple[str, float]]:
    """The paper's most distinctive indexed words (stemmed, as in the index's text field) with a
    boost each: term frequency (title and keywords weigh more) times IDF picks them, ties by the
    word itself so that the same paper always gets the same query; the boost is 1 + log(tf)."""
    tf: dict[str, float] = {}
    for text, w in ((title, TITLE_TF), (" ; ".join(keywords), TITLE_TF), (abstract or "", 1.0)):
        for t in analyzers.en_tokens(text) if text else ():
            if len(t) >= 3 and not t.isdigit():
                tf[t] = tf.get(t, 0.0) + w
    scored = []
    for t, f in tf.items():
        d = df(t)
        if MIN_DF <= d <= MAX_DF:
            scored.append((f * math.log(1 + n_docs / d), t, f))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(t, 1.0 + math.log(f)) for _, t, f in scored[:MAX_TERMS]]


def similar_papers(searcher: SearchBackend | None, paper: Paper,
                   limit: int = 10) -> tuple[list[tuple[str, float]], str]:
    """([(paper_id, score)], method): ``vectors`` (cosine), ``text`` (BM25 of the shared words), or
    ``none`` when there is no search index."""
    if searcher is None:
        return [], "none"
    sem = searcher.semantic
    if sem is not None:
        try:
            got = sem.similar(paper.id, limit)
        except Exception:  # noqa: BLE001 - vectors unreadable: fall back to words
            got = None
        if got is not None:
            return got, "vectors"
    try:
        return searcher.more_like(paper.title_plain or paper.title, paper.keywords, paper.abstract_plain,
                                  limit, exclude=(paper.id,)), "text"
    except Exception:  # noqa: BLE001 - no index yet
        return [], "none"
