"""The API's OpenAPI document: FastAPI's, with error responses filed as application/problem+json
and the tags described."""

from __future__ import annotations

from typing import Any

from .problems import PROBLEM_MEDIA_TYPE


def openapi_document(app: Any) -> dict[str, Any]:
    """FastAPI's OpenAPI document, with error responses declared as application/problem+json (FastAPI
    files every declared model under application/json). Cached on the app like FastAPI's own."""
    if app.openapi_schema:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes,
                      tags=[{"name": t, "description": d} for t, d in TAGS.items()])
    doc["info"]["license"] = {"name": "MIT"}
    for ops in doc["paths"].values():
        for op in ops.values():
            for code, resp in op.get("responses", {}).items():
                content = resp.get("content") or {}
                if code.isdigit() and int(code) >= 300 and "application/json" in content:
                    content.pop(PROBLEM_MEDIA_TYPE, None)
                    resp["content"] = {PROBLEM_MEDIA_TYPE: content.pop("application/json"), **content}
    app.openapi_schema = doc
    return doc


TAGS = {"lists": "Reading lists behind a private link: papers, notes, seen marks, import and export; "
                 "a read-only share link per list.",
        "search": "Full-text search with the site's query language; exports and feeds of any search.",
        "papers": "Papers by id or external id (DOI, arXiv, OpenReview, ACL Anthology).",
        "conferences": "Venues, their years, and each conference-year's complete list.",
        "authors": "Authors by key.", "corpus": "What the library holds and where it came from.",
        "topics": "Research topics: statistics per topic, venue and year, and each topic's papers.",
        "resolve": "Bibliographies: each entry matched to its paper and rewritten as the published version.",
        "meta": "The API itself."}
