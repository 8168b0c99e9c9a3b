"""Search: query language, ranking, filters, facets, highlights (one library call).

    from paperlist.search import Searcher, SearchRequest
    result = Searcher.open(home).search(SearchRequest(q='author:bengio "deep learning" year:2015..2020'))
"""

from .engine import NoIndex, Searcher
from .model import (
    MAX_PER_PAGE,
    MAX_QUERY_CHARS,
    MAX_WINDOW,
    MODES,
    SORTS,
    FacetValue,
    Hit,
    Interpreted,
    SearchRequest,
    SearchResult,
)
from .query import Filters, ParsedQuery, parse
from .request import InvalidRequest

__all__ = ["MAX_PER_PAGE", "MAX_QUERY_CHARS", "MAX_WINDOW", "MODES", "SORTS", "FacetValue", "Filters", "Hit",
           "Interpreted", "InvalidRequest", "NoIndex", "ParsedQuery", "SearchRequest", "SearchResult",
           "Searcher", "parse"]
