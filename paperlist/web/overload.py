"""Load shedding inside the app: a request that waited too long for its turn is answered 503 +
Retry-After at once instead of being served late.

The app's handlers run on the event loop, one after the other, so under overload the requests a
worker has accepted wait in the loop's queue. The server's protocol (web/guard.py) bounds how many
may wait (``max_inflight``) and stamps each request with the time its headers arrived and how long
it may wait (``scope["extensions"]["paperlist"]``, ``time.monotonic()`` seconds); this middleware
compares the stamp with the time the request reaches the app. Without a stamp (another server,
tests) it lets every request through.
"""

from __future__ import annotations

import time
from collections.abc import MutableMapping
from typing import Any

from starlette.types import Receive, Scope, Send

from .middleware import HTTPMiddleware
from .problems import problem

EXTENSION = "paperlist"


def stamp(scope: MutableMapping[str, Any], arrived: float, max_wait: float, retry_after: int) -> None:
    """Record when the request's head arrived and how long it may wait (the server protocol)."""
    extensions = scope.get("extensions")
    if not isinstance(extensions, dict):
        extensions = scope["extensions"] = {}
    extensions[EXTENSION] = {"arrived": arrived, "max_wait": max_wait, "retry_after": retry_after}


def late(scope: Scope, now: float | None = None) -> tuple[float, int] | None:
    """(seconds waited, Retry-After) when the request waited longer than it may; else None."""
    mark = (scope.get("extensions") or {}).get(EXTENSION)
    if not mark or mark["max_wait"] <= 0:
        return None
    wait = (time.monotonic() if now is None else now) - mark["arrived"]
    return (wait, mark["retry_after"]) if wait > mark["max_wait"] else None


class ShedLate(HTTPMiddleware):
    """503 problem+json with Retry-After for requests that waited longer than their stamp allows."""

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        shed = late(scope)
        if shed is not None:
            wait, retry = shed
            response = problem("overloaded", f"the server is busy (this request waited {wait:.1f} s); "
                               "retry after Retry-After seconds", headers={"retry-after": str(retry)})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
