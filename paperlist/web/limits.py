"""Request limits: sizes (path, query string, body) and a per-client token bucket.

The bucket is per client address and per worker process (workers share nothing; with N workers a
client gets up to N times the rate, which is the honest price of not needing a shared store).
Loopback clients (127.0.0.0/8, ::1: IP addresses, never names) are exempt unless configured
otherwise, so local use and benchmarks are never throttled. The client is the connection's peer:
X-Forwarded-For is read by uvicorn only from the trusted proxies of `paperlist serve
--forwarded-allow-ips` (none by default), so a forged header from anyone else changes nothing.
An export costs ``EXPORT_COST`` tokens: it reads up to 10,000 papers.

Writes (POST, PUT, PATCH, DELETE: reading lists, the only state) also draw on a second, smaller
bucket per client (``write_rate``, ``write_burst``); creating a private link costs ``CREATE_COST``
of it, so one client cannot fill the lists store with empty links. When the lists live in
PostgreSQL (several machines behind a balancer), that bucket lives there too (``shared_writes``,
``ListStore.take_writes``): a client spread over N machines gets one budget, not N. Bodies may have at most
``MAX_BODY_BYTES``, an import (``…/import``) ``MAX_IMPORT_BYTES``.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..service.paths import API_ROOT
from ..service.resolve import MAX_BYTES as RESOLVE_MAX_BYTES
from . import i18n
from .middleware import HTTPMiddleware
from .problems import is_api_path, problem

MAX_PATH_BYTES = 2_048
MAX_QUERY_BYTES = 8_192        # a 1,000-character query, percent-encoded as UTF-8, plus filters
MAX_BODY_BYTES = 16_384        # a list's form or JSON body; anything bigger is refused early
MAX_IMPORT_BYTES = 2_000_000   # a BibTeX or RIS file imported into a list
CREATE_COST = 20               # write tokens a new private link costs
_EXPORTS = ("bib", "ris", "csv", "jsonl", "apa", "mla", "chicago", "ieee", "gbt7714")
_WRITES = ("POST", "PUT", "PATCH", "DELETE")
_CREATE = {"/api/v1/lists", "/lists/new"}
EXPORT_COST = 10
MAX_CLIENTS = 50_000           # buckets kept; the least recently seen are forgotten first
_EXEMPT = ("/static/", "/healthz", "/favicon.ico", "/robots.txt")
_CORS = (b"access-control-allow-origin", b"*")


@dataclass
class RateLimit:
    """``rate`` requests per second per client (0: off), bursts of up to ``burst``."""

    rate: float = 0.0
    burst: int = 60
    loopback: bool = False            # also limit clients on 127.0.0.0/8 and ::1
    write_rate: float = 5.0           # writes per second per client (0: no separate limit); triage is ~3/s
    write_burst: int = 120


class TokenBuckets:
    """Token buckets keyed by client, in an LRU so that many addresses cannot exhaust memory."""

    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self.buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, cost: float = 1.0, now: float | None = None) -> float:
        """Take ``cost`` tokens; 0.0 when allowed, else the seconds until they will be there."""
        now = time.monotonic() if now is None else now
        rate, burst = self.limit.rate, float(self.limit.burst)
        tokens, last = self.buckets.pop(client, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        cost = min(cost, burst)               # a costly request is still possible with a full bucket
        if tokens < cost:
            self.buckets[client] = (tokens, now)
            return (cost - tokens) / rate
        self.buckets[client] = (tokens - cost, now)
        while len(self.buckets) > MAX_CLIENTS:
            self.buckets.popitem(last=False)
        return 0.0


def is_loopback(host: str) -> bool:
    """True for a loopback IP address only (``127.0.0.1``, ``::1``, ``::ffff:127.0.0.1``): a name
    such as ``localhost.evil`` or anything that is not an address is not exempt."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return bool((mapped or ip).is_loopback)


class Limits(HTTPMiddleware):
    """Refuses oversized requests (414, 413) and clients over their rate (429 with Retry-After).
    API paths answer problem+json; pages answer plain text in the request's language."""

    def __init__(self, app: ASGIApp, rate: RateLimit | None = None,
                 shared_writes: Callable[[str, float], float] | None = None) -> None:
        super().__init__(app)
        self.rate = rate or RateLimit()
        self.buckets = TokenBuckets(self.rate)
        self.writes = TokenBuckets(RateLimit(rate=self.rate.write_rate, burst=self.rate.write_burst))
        self.shared_writes = shared_writes

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"]
        query: bytes = scope.get("query_string", b"")
        refusal: Response | None = None
        if len(path.encode()) > MAX_PATH_BYTES or len(query) > MAX_QUERY_BYTES:
            refusal = _refuse(scope, 414, "uri-too-long",
                              f"path and query may have at most {MAX_PATH_BYTES} and {MAX_QUERY_BYTES} bytes")
        elif _content_length(scope) > (limit := body_limit(path)):
            refusal = _refuse(scope, 413, "request-too-large",
                              f"request bodies may have at most {limit} bytes")
        elif self.rate.rate > 0 and not path.startswith(_EXEMPT):
            host = (scope.get("client") or ("-", 0))[0] or "-"
            if self.rate.loopback or not is_loopback(host):
                refusal = self._take(scope, host, path, query)
                if refusal is None and self._limits_writes(scope) and self.shared_writes is not None:
                    wait = await anyio.to_thread.run_sync(self.shared_writes, host, _write_cost(path))
                    refusal = self._refusal(scope, wait, self._write_limit()) if wait else None
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        if is_api_path(path):
            await self._api(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _limits_writes(self, scope: Scope) -> bool:
        return scope["method"] in _WRITES and self.rate.write_rate > 0

    def _write_limit(self) -> str:
        return f"{self.rate.write_rate:g} writes per second (bursts of {self.rate.write_burst})"

    def _take(self, scope: Scope, host: str, path: str, query: bytes) -> Response | None:
        """The client's request bucket, then (a write, when the write bucket is this worker's)
        its write bucket: a 429 when either is empty."""
        wait = self.buckets.take(host, _cost(query))
        if wait:
            what = f"{self.rate.rate:g} requests per second (bursts of {self.rate.burst})"
            return self._refusal(scope, wait, what)
        if self._limits_writes(scope) and self.shared_writes is None:
            wait = self.writes.take(host, _write_cost(path))
            return self._refusal(scope, wait, self._write_limit()) if wait else None
        return None

    @staticmethod
    def _refusal(scope: Scope, wait: float, what: str) -> Response:
        retry = str(max(1, math.ceil(wait)))
        return _refuse(scope, 429, "rate-limited", f"more than {what}; retry in {retry} s",
                       {"retry-after": retry})

    async def _api(self, scope: Scope, receive: Receive, send: Send) -> None:
        """API responses may be read by scripts on any site (public, read-only data, no cookies),
        and HEAD is answered as GET without the body (FastAPI routes declare GET only; the page
        routes answer HEAD themselves)."""
        head = scope["method"] == "HEAD"

        async def api_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), _CORS]}
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"} if head else scope, receive, api_send)


def body_limit(path: str) -> int:
    """The largest body a path takes: a bibliography to resolve (the page's form and the API) may
    be large; nothing else reads a body."""
    _lang, route = i18n.split_lang(path)
    if route in ("/resolve", API_ROOT + "/resolve"):
        return RESOLVE_MAX_BYTES + 64 * 1024
    return MAX_IMPORT_BYTES if path.endswith("/import") else MAX_BODY_BYTES


def _write_cost(path: str) -> float:
    _lang, route = i18n.split_lang(path)
    return CREATE_COST if route in _CREATE else 1.0


def _cost(query: bytes) -> float:
    fmt = dict(parse_qsl(query.decode("latin-1"))).get("format") if b"format=" in query else None
    return EXPORT_COST if fmt in _EXPORTS else 1.0


def _content_length(scope: Scope) -> int:
    for k, v in scope.get("headers", []):
        if k == b"content-length":
            try:
                return int(v)
            except ValueError:
                return MAX_BODY_BYTES + 1
    return 0


_PAGE_MESSAGES = {
    429: i18n.N_("Too many requests from your address; please wait a little and try again."),
    414: i18n.N_("This address is too long."),
    413: i18n.N_("This request is too large."),
}


def _refuse(scope: Scope, status: int, kind: str, detail: str,
            headers: dict[str, str] | None = None) -> Response:
    request = Request(scope)
    if is_api_path(request.url.path):
        return problem(kind, detail, status=status, instance=request.url.path[:200], headers=headers)
    lang, _route = i18n.split_lang(request.url.path)
    text = i18n.translations(lang).gettext(_PAGE_MESSAGES[status])
    return Response(f"{status}: {text}\n", status_code=status, media_type="text/plain; charset=utf-8",
                    headers={"cache-control": "no-store", **(headers or {})})
