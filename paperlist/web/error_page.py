"""The page a service error answers with, in the request's language: its status, message and
hints, and for an ambiguous id the papers it may mean. Used by the page routes and the list forms."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..service import Ambiguous, ServiceError
from ..service.papers import summaries
from .render import render
from .views.base import card


def error_page(request: Request, e: ServiceError) -> Response:
    data = {"page": "error", "status": e.status, "message": e.message, "detail": e.detail,
            "ids": getattr(e, "ids", []), "hints": e.hints}
    if isinstance(e, Ambiguous):
        data["papers"] = [card(c) for c in summaries(request.app.state.home, e.ids[:50])]
    return render(request, "error.html", data, status=e.status)
