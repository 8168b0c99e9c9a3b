"""How the site is served, as plain settings: its public address, the connection limits of each
worker, and the options uvicorn is started with. ``paperlist serve`` builds them; the web layer
(web/app.py, web/guard.py) reads them in each worker. This module names no part of that layer, not
even by import path: the service sits below the web (``paperlist serve`` names the app and its
protocol to uvicorn)."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def public_base_url(url: str) -> str:
    """``url`` checked as a site's public address (http or https, a host, an optional path; no
    query or fragment), without its trailing slash."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"not an http(s) base URL without query or fragment: {url!r}")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


LIMITS_ENV = "PAPERLIST_SERVER_LIMITS"


@dataclass(frozen=True)
class ServerLimits:
    """The connection-level limits (per worker process where it says so)."""

    max_head_bytes: int = 32 * 1024     # request line + headers
    max_headers: int = 100
    header_timeout: float = 10.0        # seconds from the head's first byte to its end
    keep_alive: int = 5                 # seconds an idle keep-alive connection stays open
    max_connections: int = 2048         # open connections per worker
    max_inflight: int = 64              # requests parsed and not yet answered, per worker
    max_queue_wait: float = 1.0         # seconds an admitted request may wait for its turn (0: any)
    retry_after: int = 1                # the Retry-After of a 503

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, raw: str | None) -> ServerLimits:
        if not raw:
            return cls()
        data = json.loads(raw)
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


def uvicorn_options(limits: ServerLimits, forwarded_allow_ips: list[str], http: str) -> dict[str, Any]:
    """What uvicorn.run / uvicorn.Config need to run with these limits, with ``http`` (the import
    path of the HTTP protocol class that enforces them) as uvicorn's ``http``; X-Forwarded-For is
    read only from the trusted proxies listed (none: it is never read).

    The event loop is asyncio's, not uvloop: under overload (1,000 connections) uvloop left new
    connections unserved for 7-9 s, until the load stopped, where asyncio served them in 0.4 s, at
    the same throughput under normal load (BENCHMARKS.md, "Hardened server")."""
    os.environ[LIMITS_ENV] = limits.to_env()
    return {"http": http, "loop": "asyncio", "timeout_keep_alive": limits.keep_alive,
            "server_header": False,
            "proxy_headers": bool(forwarded_allow_ips), "forwarded_allow_ips": forwarded_allow_ips or None}
