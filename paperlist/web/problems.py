"""API errors as RFC 9457 problem details (``application/problem+json``).

Every error the API answers has a ``type`` (a link to its explanation on the /api page), a fixed
``title``, the ``status`` and a ``detail`` that says what to change. The service's errors
(NotFound, BadRequest, Moved …) and FastAPI's parameter validation errors are turned into these
by the app's exception handlers, so routes never format an error themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson
from fastapi.exceptions import RequestValidationError
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from ..service import Moved, ServiceError
from ..service.paths import API_ROOT
from .i18n import split_lang

PROBLEM_MEDIA_TYPE = "application/problem+json"
DOCS_PATH = "/api"

# kind -> (status, title, what it means): the /api page lists these under their anchors.
PROBLEMS: dict[str, tuple[int, str, str]] = {
    "invalid-parameter": (422, "Invalid parameter",
                          "A query parameter has a malformed or out-of-range value; `errors` names "
                          "each one."),
    "not-found": (404, "Not found", "No paper, author, venue, year or endpoint has this address."),
    "ambiguous-id": (300, "Ambiguous id",
                     "An external id (DOI, arXiv …) names several papers; `candidates` lists their ids."),
    "method-not-allowed": (405, "Method not allowed",
                           "The library is read-only: use GET (or HEAD); only reading lists take POST, PUT "
                           "and DELETE."),
    "cross-origin": (403, "Cross-site request",
                     "A state-changing request from another site's page (Origin / Sec-Fetch-Site) is "
                     "refused."),
    "list-limit": (409, "Limit reached",
                   "A reading list holds as many papers, or a private link as many lists, as it may."),
    "rate-limited": (429, "Too many requests",
                     "This client sent more requests than its allowance; retry after `Retry-After` seconds."),
    "uri-too-long": (414, "URI too long", "The path or query string is longer than the server accepts."),
    "request-too-large": (413, "Request too large", "The request body is larger than the server accepts."),
    "headers-too-large": (431, "Request headers too large",
                          "The request line and headers are larger, or the headers more, than the server "
                          "accepts; the connection is closed."),
    "request-timeout": (408, "Request timeout",
                        "The request's headers did not arrive in time; the connection is closed."),
    "bad-request": (400, "Bad request", "The request is not valid HTTP/1.1; the connection is closed."),
    "search-unavailable": (503, "Search unavailable", "The search index has not been built yet."),
    "overloaded": (503, "Server busy",
                   "The server has more requests in progress than it takes on; retry after `Retry-After` "
                   "seconds."),
    "server-error": (500, "Server error", "Something failed on the server; the request may be retried."),
}
_BY_STATUS: dict[int, str] = {}
for _kind, (_status, _t, _d) in PROBLEMS.items():
    _BY_STATUS.setdefault(_status, _kind)          # the first kind of a status is its default


def is_api_path(path: str) -> bool:
    """Requests whose errors are problem+json (the API and its schema), not error pages."""
    _lang, route = split_lang(path)
    return route == API_ROOT or route.startswith(API_ROOT + "/") or route == "/openapi.json"


def problem(kind: str, detail: str, status: int | None = None, instance: str | None = None,
            headers: Mapping[str, str] | None = None, **extra: Any) -> Response:
    """A problem+json response of one of the PROBLEMS kinds."""
    code, title, _what = PROBLEMS[kind]
    body: dict[str, Any] = {"type": f"{DOCS_PATH}#problem-{kind}", "title": title, "status": status or code,
                            "detail": detail}
    if instance:
        body["instance"] = instance
    body.update({k: v for k, v in extra.items() if v is not None})
    return Response(orjson.dumps(body), status_code=status or code, media_type=PROBLEM_MEDIA_TYPE,
                    headers={"cache-control": "no-store", **(headers or {})})


def kind_for_status(status: int) -> str:
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    return "invalid-parameter" if 400 <= status < 500 else "server-error"


# --- exception handlers (registered by create_app) -------------------------------------------
async def validation_error(request: Request, exc: Exception) -> Response:
    """FastAPI's parameter validation: 422, one entry per bad parameter, saying what it must be."""
    errors = []
    for e in getattr(exc, "errors", lambda: [])():
        loc = [str(x) for x in e.get("loc", ())]
        where, name, rest = (loc[0], loc[1], loc[2:]) if len(loc) > 1 else ("query", "".join(loc), [])
        value = e.get("input")
        message = str(e.get("msg", "invalid")) + (f" (value {int(rest[0]) + 1})"
                                                  if rest and rest[0].isdigit() else "")
        errors.append({"parameter": name, "in": where, "message": message,
                       "value": (value if isinstance(value, (str, int, float, bool)) or value is None
                                 else str(value))})
    detail = "; ".join(f"{x['parameter']}: {x['message']}" + (f" (got {str(x['value'])[:60]!r})"
                                                              if x["value"] is not None else "")
                       for x in errors) or "a parameter is invalid"
    return problem("invalid-parameter", detail, instance=request.url.path, errors=errors)


async def service_error(request: Request, exc: Exception) -> Response:
    """A service error in an API route: 404, 422 (a page says 400), 503, or 300 with candidates."""
    assert isinstance(exc, ServiceError)
    detail = exc.message + (f" ({exc.detail})" if exc.detail else "")
    status = 422 if exc.status == 400 else exc.status
    ids = getattr(exc, "ids", None)
    if ids:
        return problem("ambiguous-id", detail, instance=request.url.path, candidates=list(ids)[:50])
    return problem(kind_for_status(status), detail, status=status, instance=request.url.path)


async def redirect(request: Request, exc: Exception) -> Response:
    """A resource that moved (an alias, another spelling) to the same resource's API address."""
    assert isinstance(exc, Moved)
    location = API_ROOT + exc.location
    if "?" not in location and request.url.query:
        location += "?" + request.url.query
    return RedirectResponse(location, status_code=301 if exc.permanent else 302,
                            headers={"cache-control": "public, max-age=3600"})


def allowed_methods(request: Request) -> list[str]:
    """The methods the OpenAPI document lists for the request's path (Starlette's 405 names only
    those of the first route whose path matches, and reading lists have several per path)."""
    _lang, path = split_lang(request.url.path)
    out: set[str] = set()
    for template, ops in request.app.openapi()["paths"].items():
        pattern = re.sub(r"\\{(\w+)\\}", lambda m: ".+" if m.group(1) == "ref" else "[^/]+",
                         re.escape(template))
        if re.fullmatch(pattern, path):
            out |= {m.upper() for m in ops}
    return sorted(out | ({"HEAD"} if "GET" in out else set()))


def http_problem(request: Request, status: int, headers: Mapping[str, str] | None = None) -> Response:
    """A routing-level error (no route, wrong method, a crash) on an API path."""
    kind = kind_for_status(status)
    allowed = allowed_methods(request) if status == 405 else []
    if allowed:
        kept = {k: v for k, v in (headers or {}).items() if k.lower() != "allow"}
        headers = {**kept, "allow": ", ".join(allowed)}
    detail = {404: f"no API endpoint at {request.url.path[:200]}; the endpoints are listed at /openapi.json",
              405: f"{request.method} is not allowed here; it answers {', '.join(allowed) or 'GET and HEAD'}",
              500: "the server failed on this request; please report it if it happens again"}.get(
        status, PROBLEMS[kind][2])
    return problem(kind, detail, status=status, instance=request.url.path, headers=headers)


VALIDATION_HANDLERS = {RequestValidationError: validation_error, ServiceError: service_error, Moved: redirect}
