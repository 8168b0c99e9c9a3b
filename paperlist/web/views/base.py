"""What every page builder shares: its context (the home and the page's language) and the paper
card a list shows.

A builder is a plain function ``build_x(ctx, ...) -> dict``: it asks the service layer for the
resource and adds what a page shows on top of it (labels in the page's language, charts, rendered
titles, navigation links). The dict is the page's JSON twin as is, and the HTML template renders
the same dict; paths in it carry no language prefix (the template adds it). Builders raise the
service's errors (NotFound, BadRequest, Moved …); pages.py turns those into responses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...richtext import render_inline
from ...search.backend import SearchBackend
from ...service import Home
from ...service.home import DataCache
from ...service.paths import author_path, venue_path
from ...store import Store
from ...topics import taxonomy
from ..labels import status_key


@dataclass
class Ctx:
    """What a builder may use: the home (store, searcher, cached figures) and the page's language."""

    home: Home
    lang: str

    @property
    def store(self) -> Store:
        return self.home.store

    @property
    def cache(self) -> DataCache:
        return self.home.cache

    @property
    def searcher(self) -> SearchBackend | None:
        return self.home.searcher


def card(s: Mapping[str, Any]) -> dict[str, Any]:
    """A paper in a list as a page shows it: the summary plus the rendered title (MathML), links to
    the authors and the conference-year, and the status's label key."""
    return {**s, "title_html": render_inline(s["title"]),
            "authors": [{"name": a["name"], "key": a["key"], "href": author_path(a["key"])}
                        for a in s["authors"]],
            "venue_href": venue_path(s["venue"], s["year"]), "status_key": status_key(s.get("status"))}


def page_numbers(page: int, pages: int, around: int = 2) -> list[int]:
    """The page numbers a pager links: the first, the last, and ``around`` on each side of the
    current one; 0 where numbers are skipped (drawn as an ellipsis)."""
    if pages <= 1:
        return []
    keep = sorted({1, pages, *range(max(1, page - around), min(pages, page + around) + 1)})
    out: list[int] = []
    for n in keep:
        if out and n - out[-1] > 1:
            out.append(0)
        out.append(n)
    return out


def topic_name(slug: str, lang: str) -> str:
    """A topic's or area's name in the page's language (its slug when unknown)."""
    t = taxonomy().get(slug)
    return t.name(lang) if t else slug
