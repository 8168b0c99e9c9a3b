"""Search: query language, ranking, filters, facets, highlights (one library call)."""

from .model import (MAX_PER_PAGE, MAX_QUERY_CHARS, MAX_WINDOW, MODES, SORTS, FacetValue, Hit, SearchRequest,
                    SearchResult)

__all__ = ["MAX_PER_PAGE", "MAX_QUERY_CHARS", "MAX_WINDOW", "MODES", "SORTS", "FacetValue", "Hit",
           "SearchRequest", "SearchResult"]
