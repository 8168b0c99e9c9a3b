"""The API's exports and feeds of any list of papers (a search, an author's papers, a
conference-year): a streamed export (BibTeX, RIS, CSV, JSON Lines) and an Atom feed, with their
absolute links rooted at the configured public address."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import anyio
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from .. import exports
from ..service import papers as sp
from ..service.paths import paper_path
from .incoming import home


def origin(request: Request) -> str:
    """The root of absolute URLs: the configured public address, never the request's Host."""
    return str(request.app.state.settings.base_url)


def base_url(request: Request) -> str:
    """The root of the request's language (``/en`` for English) at the public address."""
    return origin(request) + request.scope.get("root_path", "")


def stream(request: Request, ids: Iterable[str], fmt: str, name: str, total: int | None = None) -> Response:
    """An export, streamed as it is read. The store is read on the event loop's thread between
    yields (SQLite connections are per worker), ``exports.CHUNK`` papers at a time."""
    store = home(request).store
    base = base_url(request)
    chunks = exports.export(store, ids, fmt, record=sp.export_record(store),
                            paper_url=lambda pid: base + paper_path(pid))

    async def body() -> Any:
        for chunk in chunks:
            yield chunk.encode()
            await anyio.sleep(0)          # let other requests in between chunks

    headers = {"content-disposition": f'attachment; filename="{filename(name)}.{exports.EXTENSIONS[fmt]}"',
               "cache-control": "no-store"}
    if total is not None:
        headers["x-total-count"] = str(total)
        headers["x-export-rows"] = str(min(total, exports.MAX_ROWS))
    return StreamingResponse(body(), media_type=exports.MEDIA_TYPES[fmt], headers=headers)


def filename(name: str) -> str:
    return "paperlist-" + (re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:60] or "export")


def feed(request: Request, ids: list[str], title: str, html_path: str) -> Response:
    """An Atom feed of these papers (newest first as given)."""
    store = home(request).store
    base = base_url(request)
    papers = store.get_papers(ids)
    updated = store.updated_at(ids)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    newest = max(updated.values(), default=None) or store.last_ingest() or now
    entries = exports.feed_entries(papers, updated, lambda pid: base + paper_path(pid), newest)
    self_url = origin(request) + request.url.path + ("?" + request.url.query if request.url.query else "")
    body = exports.atom_feed(self_url, title, self_url, base + html_path, newest, entries)
    return Response(body, media_type=exports.MEDIA_TYPES["atom"],
                    headers={"cache-control": "public, "
                                              f"max-age={int(request.app.state.settings.cache_seconds)}"})
