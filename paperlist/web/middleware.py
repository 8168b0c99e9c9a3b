"""The site's ASGI middleware: security headers on every response, and the language prefix."""

from __future__ import annotations

import time

from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import i18n
from .privacy import is_private

# No inline script, style or handler may run; only our own files. MathML and SVG need no style.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), interest-cohort=()"),
]
_SECTIONS = ("conferences", "papers", "authors", "search", "healthz", "static", "api", "openapi.json",
             "lists", "shared")
_PRIVATE_HEADERS = [(b"referrer-policy", b"no-referrer"), (b"cache-control", b"no-store")]
_PRIVATE_SECURITY = [h for h in SECURITY_HEADERS if h[0] != b"referrer-policy"]
_REPLACED = {b"referrer-policy", b"cache-control", b"etag", b"last-modified"}



class HTTPMiddleware:
    """A pure ASGI middleware that acts on HTTP requests only (lifespan and others pass through)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise NotImplementedError


def one_vary(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The headers with their Vary values merged into one header, each token once (the pages say
    ``Vary: Accept-Encoding`` and the gzip middleware adds it again)."""
    varies = [v for k, v in headers if k.lower() == b"vary"]
    if len(varies) <= 1 and not any(b"," in v for v in varies):
        return headers
    tokens: dict[bytes, bytes] = {}
    for value in varies:
        for token in value.split(b","):
            token = token.strip()
            if token:
                tokens.setdefault(token.lower(), token)
    return [(k, v) for k, v in headers if k.lower() != b"vary"] + [(b"vary", b", ".join(tokens.values()))]


class SecurityHeaders(HTTPMiddleware):
    """Adds the CSP and the other hardening headers to every response, a Server-Timing header
    with the time the app took (pages are built whole before they are sent, so this is all of it),
    and sends one Vary header."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        t0 = time.perf_counter()
        private = is_private(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                timing = f"app;dur={(time.perf_counter() - t0) * 1000:.1f}".encode()
                headers = one_vary(list(message.get("headers", [])))
                if private:      # a list's address is its capability (web/privacy.py)
                    headers = [(k, v) for k, v in headers if k.lower() not in _REPLACED] + _PRIVATE_HEADERS
                    message["headers"] = [*headers, *_PRIVATE_SECURITY, (b"server-timing", timing)]
                else:
                    message["headers"] = [*headers, *SECURITY_HEADERS, (b"server-timing", timing)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class LanguagePrefix(HTTPMiddleware):
    """``/en/...`` is the English site: the prefix becomes the root path and ``state.lang``.
    Also canonicalizes paths: ``/en`` -> ``/en/``, trailing slashes and upper-case sections -> 301."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
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
        scope["state"] = state
        await self.app(scope, receive, send)
