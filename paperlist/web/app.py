"""The site's app factory: ``create_app(Settings(home=...))`` returns an ASGI app serving the pages
over a read-only store (and the search index when there is one).

Everything the app uses comes from Settings, so tests build hermetic apps over fixture stores and
fake or real searchers. Middleware, outermost first: security headers (and one Vary), shedding
of requests that waited too long under overload (web/overload.py), the Host
allow-list when one is configured, request limits (sizes and a per-client token bucket), language
prefix, gzip. Absolute URLs (Atom feeds, the exports' `url`) come from ``Settings.base_url``,
never from the request's Host header. The connection-level limits (header sizes and timeouts,
connections, load shedding) are the server's: web/guard.py.

The app is a FastAPI app so that the JSON API (web/api.py) gets its parameters validated and its
OpenAPI document (/openapi.json) generated; the pages are plain Starlette routes in it, outside the
schema.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ..search.backend import SearchBackend
from ..service import Home
from ..service.serving import public_base_url
from ..store import Store
from . import i18n, problems
from .api import openapi_document, router
from .cache import ResponseCache
from .csrf import SameOrigin
from .limits import Limits, RateLimit
from .middleware import LanguagePrefix, SecurityHeaders
from .overload import ShedLate
from .pages import error_handlers, routes
from .privacy import install_log_filter
from .views.base import Ctx
from .views.topics import build_topics
from .views.venues import build_home

log = logging.getLogger(__name__)


DEFAULT_BASE_URL = "http://127.0.0.1:8000"


@dataclass
class Settings:
    """How to run the site. ``store`` and ``searcher`` may be passed in (tests); otherwise they are
    opened read-only from ``home``."""

    home: Path = Path("data")
    store: Store | None = None
    searcher: SearchBackend | None = None
    open_searcher: bool = True          # look for <home>/index when no searcher is given
    cache_seconds: int = 300            # Cache-Control max-age of pages
    # Per client address and worker: requests per second (0 = no limit), burst, and whether
    # loopback clients count (by default they are exempt).
    rate_limit: RateLimit = field(default_factory=lambda: RateLimit(rate=10.0, burst=120))
    search_cache: int = 2048            # search API responses kept per worker (0 = no cache)
    warm_pages: bool = True             # compute the home and topics pages' figures at start
    # The public address of the site, the root of every absolute URL it writes (never the Host
    # header, which any client can forge), and the Host names answered (None: any).
    base_url: str = DEFAULT_BASE_URL
    allowed_hosts: list[str] | None = None
    # Where reading lists live: an SQLite file (default <home>/lists.db) or a postgresql:// URL
    # ($PAPERLIST_LISTS_URL when not given). Never the paper store.
    lists_url: str | None = None
    # /healthz answers 503 "draining" while this file exists (`paperlist drain`); a follower's
    # home (its snapshots and state) and how often it looks for a new snapshot
    drain_file: Path | None = None
    follow_root: Path | None = None
    follow_every: float | None = None


API_DESCRIPTION = """The paperlist library as JSON: search (the site's query language, facets, highlights),
papers, conferences and their paper lists, authors, corpus figures. Searches and lists also come as
BibTeX, CSV and JSON Lines exports (`format=bib|csv|jsonl`) and as Atom feeds (`format=atom`).

Errors are RFC 9457 problem details (`application/problem+json`). Aliases (a DOI as a paper id,
`nips` as a venue) answer 301 to the canonical address. The library is read-only (GET and HEAD, and
POST /resolve, which matches a bibliography to the library and stores nothing); reading lists
(`/lists`, `/shared`) are the one state, changed with POST, PUT and DELETE behind a private link."""


def _in_background(what: str, work: Callable[[], object]) -> None:
    """Run a warm-up on a thread of its own; a failure is logged (the first request that needs
    the thing loads it again and says what is wrong)."""
    def run() -> None:
        try:
            work()
        except Exception as e:  # noqa: BLE001 - logged; the request path reports it properly
            log.warning("%s warm-up failed: %s", what, e)

    threading.Thread(target=run, name=f"{what.replace(' ', '-')}-warm", daemon=True).start()


def _warm(home: Home, pages: bool) -> None:
    """What the first requests after a start would otherwise wait for, loaded in the background:
    the spelling vocabulary (a worker's first query with a rare word waited ~0.4 s for it, and so
    did the requests behind it), the paper vectors and query model when vectors exist (seconds of
    torch), and the corpus-wide figures of the home and topics pages (1-3 s of SQL)."""
    searcher = home.searcher
    if searcher is not None:
        _in_background("search", searcher.warm)
        sem = searcher.semantic
        if sem is not None and sem.unavailable() is None:
            _in_background("semantic search", sem.warm)
    if pages:
        def figures() -> None:
            ctx = Ctx(home, "en")
            build_home(ctx)
            build_topics(ctx)
        _in_background("page", figures)


def _shared_writes(home: Home, settings: Settings) -> Callable[[str, float], float] | None:
    """The write bucket every serving machine sees, when the lists live in PostgreSQL."""
    if not home.lists_url.startswith(("postgresql://", "postgres://")):
        return None
    rate = settings.rate_limit
    return lambda client, cost: home.lists.take_writes(client, cost, rate.write_rate, rate.write_burst)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The site and its JSON API as an ASGI app."""
    settings = settings or Settings()
    settings.base_url = public_base_url(settings.base_url)
    home = Home(settings.home, store=settings.store, searcher=settings.searcher,
                find_searcher=settings.open_searcher, lists_url=settings.lists_url)
    install_log_filter()
    _ = home.store                     # a missing or unreadable store fails here, not on the first request
    for lang in i18n.LANGS:            # compile the catalogs now, not on the first request
        i18n.translations(lang)
    handlers: dict[Any, Any] = {**error_handlers(), **problems.VALIDATION_HANDLERS}
    app = FastAPI(
        title="paperlist API", version="1.0", description=API_DESCRIPTION, routes=list[Any](routes()),
        exception_handlers=handlers,
        openapi_url="/openapi.json", docs_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None,
        root_path_in_servers=False,       # /en/openapi.json must not rewrite the document's servers
        middleware=[Middleware(SecurityHeaders), Middleware(ShedLate),
                    *([Middleware(TrustedHostMiddleware, allowed_hosts=settings.allowed_hosts,
                                  www_redirect=False)] if settings.allowed_hosts else []),
                    Middleware(Limits, rate=settings.rate_limit,
                               shared_writes=_shared_writes(home, settings)),
                    Middleware(SameOrigin, base_url=settings.base_url),
                    Middleware(LanguagePrefix),
                    # level 6: ~same size, 1/3 the time of 9
                    Middleware(GZipMiddleware, minimum_size=800, compresslevel=6)])
    app.include_router(router)
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    app.router.redirect_slashes = False
    app.state.settings = settings
    app.state.home = home
    _warm(home, pages=settings.warm_pages)
    app.state.search_cache = ResponseCache(max_entries=settings.search_cache)
    return app


def app_from_env() -> FastAPI:
    """The app over $PAPERLIST_HOME (what `paperlist serve` hands each uvicorn worker); the rate
    limit comes from $PAPERLIST_RATE_LIMIT (requests per second, 0 = off), $PAPERLIST_RATE_BURST
    and $PAPERLIST_RATE_LOOPBACK (1: also limit loopback clients); $PAPERLIST_SEARCH_CACHE sets the
    search cache's size (0 turns it off); $PAPERLIST_BASE_URL is the public address and
    $PAPERLIST_ALLOWED_HOSTS (comma-separated) the Host names answered; $PAPERLIST_DRAIN_FILE and
    $PAPERLIST_FOLLOW (a follower's root, a tab, seconds between looks) feed /healthz."""
    env = os.environ
    base = Settings().rate_limit
    rate = RateLimit(rate=float(env.get("PAPERLIST_RATE_LIMIT") or base.rate),
                     burst=int(env.get("PAPERLIST_RATE_BURST") or base.burst),
                     loopback=env.get("PAPERLIST_RATE_LOOPBACK", "") in ("1", "true", "yes"))
    cache = int(env.get("PAPERLIST_SEARCH_CACHE") or Settings.search_cache)
    hosts = [h.strip() for h in env.get("PAPERLIST_ALLOWED_HOSTS", "").split(",") if h.strip()]
    drain = env.get("PAPERLIST_DRAIN_FILE")
    follow_root, _, every = env.get("PAPERLIST_FOLLOW", "").partition("\t")
    return create_app(Settings(home=Path(env.get("PAPERLIST_HOME") or "data"), rate_limit=rate,
                               search_cache=cache, base_url=env.get("PAPERLIST_BASE_URL") or DEFAULT_BASE_URL,
                               allowed_hosts=hosts or None, drain_file=Path(drain) if drain else None,
                               follow_root=Path(follow_root) if follow_root else None,
                               follow_every=float(every) if every else None))
