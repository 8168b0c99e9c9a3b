"""What the rest of the library asks of a search engine: ``SearchBackend`` (``Searcher`` is the
one there is; tests and benchmarks may pass another), and of search by meaning."""

from __future__ import annotations

from typing import Protocol

from .model import SearchRequest, SearchResult
from .query import Filters


class SemanticBackend(Protocol):
    """Search by meaning (``semantic.SemanticRanker``)."""

    def unavailable(self) -> str | None: ...
    def warm(self) -> None: ...
    def similar(self, paper_id: str, limit: int) -> list[tuple[str, float]] | None: ...


class SearchBackend(Protocol):
    """A search engine over one home's index."""

    @property
    def semantic(self) -> SemanticBackend | None: ...
    @property
    def generation(self) -> str | None: ...
    def reload(self, force: bool = False) -> bool: ...
    def search(self, req: SearchRequest) -> SearchResult: ...
    def rank(self, q: str, filters: Filters | None = None, limit: int = 100) -> list[tuple[str, float]]: ...
    def more_like(self, title: str, keywords: list[str], abstract: str | None, limit: int = 10,
                  exclude: tuple[str, ...] = ()) -> list[tuple[str, float]]: ...
