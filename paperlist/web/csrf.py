"""Cross-site request forgery: a state-changing request (POST, PUT, PATCH, DELETE) is refused with
403 when a browser says it comes from another site.

Browsers send ``Sec-Fetch-Site`` (all current ones) and ``Origin`` (on every POST, PUT, DELETE) and
a page cannot forge either: a request is accepted when ``Sec-Fetch-Site`` is ``same-origin`` or
``none`` (typed by the user), or, without it, when ``Origin`` is this site (the request's own
scheme and Host, or the configured public address). A request with neither header comes from no
browser (curl, a script): there is no ambient authority to abuse, since a list's token is in its
address and never in a cookie, so it is let through. Only reads are cross-origin (the API's CORS).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .middleware import HTTPMiddleware
from .problems import is_api_path, problem

UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def cross_site(scope: Scope, base_url: str) -> bool:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = headers.get("origin")
    if origin is None:
        return False
    own = {_origin(base_url)}
    if "host" in headers:
        own.add(f"{scope.get('scheme', 'http')}://{headers['host']}".lower())
    return origin.lower() not in own


class SameOrigin(HTTPMiddleware):
    def __init__(self, app: ASGIApp, base_url: str = "") -> None:
        super().__init__(app)
        self.base_url = base_url

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] in UNSAFE and cross_site(scope, self.base_url):
            detail = "a state-changing request from another site's page is refused"
            resp: Response
            if is_api_path(scope["path"]):
                resp = problem("cross-origin", detail, instance=scope["path"][:200])
            else:
                resp = PlainTextResponse(f"403: {detail}\n", status_code=403,
                                         headers={"cache-control": "no-store"})
            await resp(scope, receive, send)
            return
        await self.app(scope, receive, send)
