"""The site's app factory: ``create_app(Settings(home=...))`` returns an ASGI app serving the pages
over a read-only store (and the search index when there is one).

Everything the app uses comes from Settings, so tests build hermetic apps over fixture stores and
fake or real searchers. Middleware, outermost first: security headers, language prefix, gzip.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware

from ..store import Store
from . import i18n
from .middleware import LanguagePrefix, SecurityHeaders
from .views.base import DataCache

log = logging.getLogger(__name__)
STORE_FILE = "paperlist.db"


@dataclass
class Settings:
    """How to run the site. ``store`` and ``searcher`` may be passed in (tests); otherwise they are
    opened read-only from ``home``."""

    home: Path = Path("data")
    store: Store | None = None
    searcher: Any | None = None
    open_searcher: bool = True          # look for <home>/index when no searcher is given
    cache_seconds: int = 300            # Cache-Control max-age of pages
    search_per_minute: int = 0          # per client address and worker; 0 = no limit


def open_searcher(home: Path) -> Any | None:
    """The search engine over <home>/index, or None (the site works without it; /search says so)."""
    try:
        from .. import search
        searcher_cls = getattr(search, "Searcher", None)
        if searcher_cls is None:
            return None
        opener = getattr(searcher_cls, "open", None)
        return opener(home) if opener else searcher_cls(home)
    except Exception as e:  # noqa: BLE001 - a missing or broken index must not take the site down
        log.warning("search unavailable: %s", e)
        return None


def create_app(settings: Settings | None = None) -> Starlette:
    """The site as an ASGI app."""
    from .pages import error_handlers, routes

    settings = settings or Settings()
    store = settings.store or Store(Path(settings.home) / STORE_FILE, readonly=True)
    searcher = settings.searcher
    if searcher is None and settings.open_searcher:
        searcher = open_searcher(Path(settings.home))
    for lang in i18n.LANGS:            # compile the catalogs now, not on the first request
        i18n.translations(lang)
    app = Starlette(routes=routes(), exception_handlers=error_handlers(), middleware=[
        Middleware(SecurityHeaders), Middleware(LanguagePrefix),
        Middleware(GZipMiddleware, minimum_size=800, compresslevel=6)])   # level 6: ~same size, 1/3 the time of 9
    app.router.redirect_slashes = False
    app.state.settings = settings
    app.state.store = store
    app.state.searcher = searcher
    app.state.searcher_tried = time.monotonic()
    app.state.cache = DataCache(store)
    app.state.rate = {}
    return app


def app_from_env() -> Starlette:
    """The app over $PAPERLIST_HOME (what `paperlist serve` hands each uvicorn worker)."""
    return create_app(Settings(home=Path(os.environ.get("PAPERLIST_HOME") or "data")))
