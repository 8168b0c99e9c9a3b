"""The library's addresses: the language-neutral path of every resource (the site prefixes
``/en`` for English; the JSON API mirrors them under ``API_ROOT``), and a resource's links to its
other formats."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode

API_ROOT = "/api/v1"
EXPORT_FORMATS = ("bib", "ris", "csv", "jsonl")
_PLAIN_SEGMENT = re.compile(r"[a-z0-9._-]+")


def href(path: str, params: Mapping[str, Any] | list[tuple[str, Any]] | None = None) -> str:
    """A link: path plus the non-empty parameters, in the order given."""
    return _join(path, query_string(params))


def query_string(params: Mapping[str, Any] | list[tuple[str, Any]] | None) -> str:
    """The non-empty parameters, in the order given, URL-encoded ('' for none)."""
    items = params.items() if isinstance(params, Mapping) else (params or [])
    return urlencode([(k, v) for k, v in items if v not in (None, "", [])])


def _join(path: str, *queries: str) -> str:
    q = "&".join(x for x in queries if x)
    return path + ("?" + q if q else "")


def _seg(s: str) -> str:
    """A URL path segment (keys and ids are almost always plain already: skip the quoting)."""
    return s if _PLAIN_SEGMENT.fullmatch(s) else quote(s, safe="")


def list_path(token: str, list_id: str | None = None) -> str:
    """A private reading-list page (the token is the capability: never log or share it)."""
    return f"/lists/{token}" + (f"/{list_id}" if list_id else "")


def list_api_path(token: str, list_id: str | None = None) -> str:
    """A reading list in the API (its lists under ``/lists``, apart from ``/seen`` and ``/starred``)."""
    return f"{API_ROOT}/lists/{token}" + (f"/lists/{list_id}" if list_id else "")


def shared_path(share: str) -> str:
    return f"/shared/{share}"


def paper_path(pid: str) -> str:
    return "/papers/" + _seg(pid)


def author_path(key: str) -> str:
    return "/authors/" + _seg(key)


def venue_path(key: str, year: int | None = None) -> str:
    return f"/conferences/{_seg(key)}" + (f"/{year}" if year is not None else "")


def topic_path(slug: str, venue: str | None = None, year: int | None = None) -> str:
    return f"{venue_path(venue, year)}/topics/{slug}" if venue and year else f"/topics/{slug}"


def venue_feed(key: str) -> str:
    """The Atom feed of a venue's newest papers."""
    return href(API_ROOT + venue_path(key), [("format", "atom")])


def format_links(path: str, params: list[tuple[str, Any]], paging: list[tuple[str, Any]] | None = None,
                 exports: bool = True, atom: str | None = None) -> dict[str, str | None]:
    """A resource in its other formats: the API's JSON and the page (with ``paging``), the exports
    (the whole list, no paging) and an Atom feed."""
    base, page = query_string(params), query_string(paging)     # encoded once for the seven links
    out: dict[str, str | None] = {"json": _join(API_ROOT + path, base, page), "html": _join(path, base, page),
                                  "atom": atom}
    for fmt in EXPORT_FORMATS:
        out[fmt] = _join(API_ROOT + path, base, f"format={fmt}") if exports else None
    return out
