"""What every page builder shares: its context, the errors and redirects it raises, parameter
parsing, the cached corpus figures, and paper cards.

A builder is a plain function ``build_x(ctx, ...) -> dict``. The dict is the page's JSON twin as is,
and the HTML template renders the same dict; paths in it carry no language prefix (the template
adds it). Builders raise ``NotFound`` / ``BadRequest`` / ``Redirect``; pages.py turns those into
responses."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from ... import venues
from ...store import Store
from ..i18n import N_
from ..labels import status_key
from ..richtext import render_inline


class PageError(Exception):
    """An error page: HTTP status, a short message (a catalog msgid) and an optional detail."""

    status = 500

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail


class NotFound(PageError):
    status = 404


class BadRequest(PageError):
    status = 400


class Redirect(Exception):
    """A redirect to a language-neutral path (permanent unless said otherwise)."""

    def __init__(self, location: str, permanent: bool = True) -> None:
        super().__init__(location)
        self.location = location
        self.permanent = permanent


class DataCache:
    """Values derived from the whole store (corpus figures, venue lists), recomputed only when the
    store's files change; the change check runs at most once a second."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._stamp = store.data_stamp()
        self._checked = time.monotonic()
        self._values: dict[Any, Any] = {}
        self._lock = threading.Lock()

    @property
    def stamp(self) -> str:
        now = time.monotonic()
        if now - self._checked > 1.0:
            self._checked = now
            stamp = self.store.data_stamp()
            if stamp != self._stamp:
                with self._lock:
                    self._stamp = stamp
                    self._values.clear()
        return self._stamp

    def __contains__(self, key: Any) -> bool:
        return key in self._values

    def get(self, key: Any, compute: Callable[[], Any]) -> Any:
        _ = self.stamp
        try:
            return self._values[key]
        except KeyError:
            value = self._values[key] = compute()
            return value


@dataclass
class Ctx:
    """What a builder may use: the store, the searcher (None when no index), the language."""

    store: Store
    lang: str
    cache: DataCache
    searcher: Any | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# --- parameters -----------------------------------------------------------------------------
def int_param(params: Mapping[str, str], name: str, default: int | None, lo: int, hi: int) -> int | None:
    """An integer query parameter within [lo, hi]; anything else is a 400."""
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(N_("A parameter has a value this page does not understand."),
                         f"{name}={raw[:40]}") from None
    if not lo <= value <= hi:
        raise BadRequest(N_("A parameter is out of range."), f"{name}={value} ({lo}–{hi})")
    return value


def choice_param(params: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    raw = params.get(name) or default
    if raw not in allowed:
        raise BadRequest(N_("A parameter has a value this page does not understand."), f"{name}={raw[:40]}")
    return raw


def href(path: str, params: Mapping[str, Any] | list[tuple[str, Any]] | None = None) -> str:
    """A language-neutral link: path plus the non-empty parameters, in the order given."""
    items = params.items() if isinstance(params, Mapping) else (params or [])
    q = [(k, v) for k, v in items if v not in (None, "", [])]
    return path + ("?" + urlencode(q) if q else "")


API_ROOT = "/api/v1"           # the JSON API mirrors the site's paths under this prefix
EXPORT_FORMATS = ("bib", "csv", "jsonl")


def format_links(path: str, params: list[tuple[str, Any]], paging: list[tuple[str, Any]] | None = None,
                 exports: bool = True, atom: str | None = None) -> dict[str, str | None]:
    """A resource in its other formats: the API's JSON and the page (with ``paging``), the exports
    (the whole list, no paging) and an Atom feed. Paths carry no language prefix."""
    paged = params + (paging or [])
    out: dict[str, str | None] = {"json": href(API_ROOT + path, paged), "html": href(path, paged), "atom": atom}
    for fmt in EXPORT_FORMATS:
        out[fmt] = href(API_ROOT + path, params + [("format", fmt)]) if exports else None
    return out


_PLAIN_SEGMENT = re.compile(r"[a-z0-9._-]+")


def _seg(s: str) -> str:
    """A URL path segment (keys and ids are almost always plain already: skip the quoting)."""
    return s if _PLAIN_SEGMENT.fullmatch(s) else quote(s, safe="")


def paper_path(pid: str) -> str:
    return "/papers/" + _seg(pid)


def author_path(key: str) -> str:
    return "/authors/" + _seg(key)


def venue_path(key: str, year: int | None = None) -> str:
    return f"/conferences/{_seg(key)}" + (f"/{year}" if year is not None else "")


# --- cards ----------------------------------------------------------------------------------
def card(c: dict[str, Any]) -> dict[str, Any]:
    """A store card shaped for lists: rendered title, venue name, links."""
    v = venues.get(c["venue"])
    abstract = (c.get("abstract_head") or "").strip()
    return {
        "id": c["id"],
        "href": paper_path(c["id"]),
        "title": c["title"],
        "title_plain": c.get("title_plain") or c["title"],
        "title_html": render_inline(c["title"]),
        "authors": [{"name": a["name"], "key": a["key"], "href": author_path(a["key"])} for a in c["authors"]],
        "venue": c["venue"],
        "venue_short": v.short,
        "venue_href": venue_path(c["venue"], c["year"]),
        "year": c["year"],
        "status": c.get("status"),
        "status_key": status_key(c.get("status")),
        "accepted": bool(c.get("accepted", True)),
        "track": c.get("track"),
        "award": c.get("award"),
        "citations": c.get("citations"),
        "abstract_head": abstract + ("…" if len(abstract) >= 420 else ""),
    }


def venue_stats(ctx: Ctx) -> dict[str, dict[str, Any]]:
    """Every venue with papers, keyed by venue key (cached)."""
    return ctx.cache.get("venue_rows", lambda: {r["key"]: r for r in ctx.store.venue_rows() if r["papers"]})


def corpus_stats(ctx: Ctx) -> dict[str, Any]:
    return ctx.cache.get("stats", ctx.store.stats)
