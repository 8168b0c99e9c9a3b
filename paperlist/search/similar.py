"""Similar papers: nearest neighbours by vector when the paper has one, else the papers that
share its most distinctive title, keyword and abstract words (tantivy more-like-this)."""

from __future__ import annotations

from typing import Any

from ..models import Paper

METHODS = ("vectors", "text", "none")


def similar_papers(searcher: Any | None, paper: Paper, limit: int = 10) -> tuple[list[tuple[str, float]], str]:
    """([(paper_id, score)], method): ``vectors`` (cosine), ``text`` (more-like-this score), or
    ``none`` when there is no search index."""
    if searcher is None:
        return [], "none"
    sem = getattr(searcher, "semantic", None)
    if sem is not None:
        try:
            got = sem.similar(paper.id, limit)
        except Exception:  # noqa: BLE001 - vectors unreadable: fall back to words
            got = None
        if got is not None:
            return got, "vectors"
    try:
        return searcher.more_like(paper.title_plain or paper.title, paper.keywords, paper.abstract_plain, limit,
                                  exclude=(paper.id,)), "text"
    except Exception:  # noqa: BLE001 - no index yet
        return [], "none"
