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
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..store import Store
from . import i18n
from .views.base import DataCache

log = logging.getLogger(__name__)
STORE_FILE = "paperlist.db"

# No inline script, style or handler may run; only our own files. MathML and SVG need no style.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), interest-cohort=()"),
]
_SECTIONS = ("conferences", "papers", "authors", "search", "healthz", "static")


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


class SecurityHeaders:
    """Adds the CSP and the other hardening headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


class LanguagePrefix:
    """``/en/...`` is the English site: the prefix becomes the root path and ``state.lang``.
    Also canonicalizes paths: ``/en`` -> ``/en/``, trailing slashes and upper-case sections -> 301."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        lang, route_path = i18n.split_lang(path)
        pre = i18n.prefix(lang)
        canonical = route_path
        if canonical != "/" and canonical.endswith("/"):
            canonical = canonical.rstrip("/") or "/"
        first = canonical.split("/")[1] if canonical.count("/") >= 1 else ""
        if first.lower() in _SECTIONS and first != first.lower():
            canonical = "/" + first.lower() + canonical[len(first) + 1:]
        if canonical != route_path or (pre and path == pre):
            qs = scope.get("query_string", b"").decode("latin-1")
            target = (pre + canonical if canonical != "/" else pre + "/") + (f"?{qs}" if qs else "")
            await RedirectResponse(target, status_code=301)(scope, receive, send)
            return
        scope = dict(scope)
        scope["root_path"] = scope.get("root_path", "") + pre
        state = dict(scope.get("state") or {})
        state["lang"] = lang
        state["route_path"] = route_path
        state["t0"] = time.perf_counter()
        scope["state"] = state
        await self.app(scope, receive, send)


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
        Middleware(SecurityHeaders), Middleware(LanguagePrefix), Middleware(GZipMiddleware, minimum_size=800)])
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
