"""The service layer: what every interface serves (the site, the JSON API, MCP, the CLI).

``Home`` is a data directory (its store, its searcher, its cached figures); the modules answer
requests over it with language-neutral, typed data (``types``):

- ``requests``: the one place requests are made from user input (``search_request``, ``list_request``);
- ``search``: run a search, its hits, its URLs, every hit id (exports);
- ``papers``: a paper by any id, its fields and renderings, an author, similar papers;
- ``venues``: the venue directory, a venue, a conference-year's list, coverage, corpus figures;
- ``topics``: topics and their statistics;
- ``derived``: ingest, then topics and the index kept in step with the papers.

Errors are ``errors.ServiceError`` (NotFound, BadRequest, Unavailable, Ambiguous) and ``Moved``
(an alias: the canonical path); each interface says them its own way.
"""

from ..search.backend import SearchBackend
from .derived import DerivedReport, ingest, refresh
from .errors import Ambiguous, BadRequest, Moved, NotFound, ServiceError, Unavailable
from .home import STORE_FILE, DataCache, Home, open_searcher
from .requests import (
    ListRequest,
    list_request,
    list_request_from_params,
    search_request,
    search_request_from_params,
)

__all__ = ["STORE_FILE", "Ambiguous", "BadRequest", "DataCache", "DerivedReport", "Home", "ListRequest",
           "Moved", "NotFound", "SearchBackend", "ServiceError", "Unavailable", "ingest", "list_request",
           "list_request_from_params", "open_searcher", "refresh", "search_request",
           "search_request_from_params"]
