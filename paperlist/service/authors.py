"""An author: their papers (newest year first; a page at a time, optionally at one venue or in one
group of a name several people share), the venues they publish at, frequent co-authors, the other
spellings of the name."""

from __future__ import annotations

import re
from collections import Counter

from .. import venues as venue_registry
from ..store.rows import Card
from ..text import fold
from .errors import N_, BadRequest, Moved, NotFound
from .home import Home
from .namesakes import Group
from .namesakes import groups as namesake_groups
from .papers import summary
from .paths import author_path, format_links, href
from .types import AuthorDetail, AuthorGroup, Pagination

AUTHOR_PAGE = 100                   # papers per page on the site (the API gives all unless asked)


def author_href(key: str, venue: str | None = None, page: int | None = None,
                group: str | None = None) -> str:
    return href(author_path(key), [("venue", venue), ("group", group),
                                   ("page", page if page and page > 1 else None)])


def author(home: Home, key: str, venue: str | None = None, page: int = 1,
           per_page: int | None = None, group: str | None = None) -> AuthorDetail:
    """An author: their papers newest year first (``venue``: only those at one venue; ``group``:
    only one group of a shared name; a page of ``per_page``, None for all), every venue they
    publish at with its count, co-authors, and the groups when the name likely covers several
    people."""
    if key != key.lower():
        raise Moved(author_path(key.lower()))
    store = home.store
    info = store.author(key)
    if info is None:
        raise NotFound(N_("There is no author with this name key."), key[:120])
    cards = store.author_cards(key)
    years = [c["year"] for c in cards]
    venue_counts = Counter(c["venue"] for c in cards)
    names = Counter(a["name"] for c in cards for a in c["authors"] if a["key"] == key)
    found = home.cache.get(("namesakes", key), lambda: namesake_groups(store.authorships(key)))
    in_group = _group_ids(found, key, venue, group)
    chosen = [c for c in cards if (venue is None or c["venue"] == venue)
              and (in_group is None or c["id"] in in_group)]
    pagination, shown = _page(chosen, key, venue, group, page, per_page)
    return {
        "key": key, "name": info["name"], "href": author_path(key),
        "spellings": _spellings(info["name"], names),
        "total": len(cards), "first_year": min(years) if years else None,
        "last_year": max(years) if years else None, "venue": venue, "matching": len(chosen),
        "group": group, "several_people": bool(found), "groups": _groups(found, cards, key, venue, group),
        "venues": [{"key": k, "short": venue_registry.get(k).short, "count": n,
                    "href": author_href(key, None if k == venue else k, None, group)}
                   for k, n in venue_counts.most_common()],
        "coauthors": [{"key": c["key"], "name": c["name"], "papers": c["papers"],
                       "href": author_path(c["key"])}
                      for c in store.coauthors(key)],
        "links": format_links(author_path(key), [("venue", venue), ("group", group)]),
        "pagination": pagination,
        "papers": [summary(c) for c in shown],
    }


def _group_ids(found: list[Group], key: str, venue: str | None, group: str | None) -> set[str] | None:
    """The papers of the group asked for (None: no group asked for, every paper)."""
    if group is None:
        return None
    in_group = next((set(g["ids"]) for g in found if g["key"] == group), None)
    if in_group is None:
        raise BadRequest(N_("This name has no such group of papers."), group[:120],
                         hints=[{"label": N_("All papers under this name"), "args": {},
                                 "href": author_href(key, venue)}])
    return in_group


def _page(chosen: list[Card], key: str, venue: str | None, group: str | None, page: int,
          per_page: int | None) -> tuple[Pagination, list[Card]]:
    """One page of an author's papers and the links to its neighbours (a page past the last is a
    BadRequest that links the last)."""
    pages = 1 if per_page is None else max(1, -(-len(chosen) // per_page))
    if page > pages:
        raise BadRequest(N_("This page number is past the last page."), f"page={page} (1–{pages})",
                         hints=[{"label": N_("The last page (%(page)s)"), "args": {"page": pages},
                                 "href": author_href(key, venue, pages, group)}])
    start = 0 if per_page is None else (page - 1) * per_page
    shown = chosen if per_page is None else chosen[start:start + per_page]
    pagination: Pagination = {
        "page": page, "pages": pages, "per_page": per_page, "first_index": start + 1,
        "prev": author_href(key, venue, page - 1, group) if page > 1 else None,
        "next": author_href(key, venue, page + 1, group) if page < pages else None}
    return pagination, shown


def _groups(found: list[Group], cards: list[Card], key: str, venue: str | None,
            group: str | None) -> list[AuthorGroup]:
    """The groups of a shared name as filters (the group shown links back to all papers)."""
    names_of = {a["key"]: a["name"] for c in cards for a in c["authors"]}
    return [{"key": g["key"], "papers": len(g["ids"]),
             "coauthors": [names_of.get(k, k) for k in g["coauthors"]],
             "affiliation": g["affiliation"], "first_year": g["first_year"], "last_year": g["last_year"],
             "href": author_href(key, venue, None, None if g["key"] == group else g["key"])}
            for g in found]


def author_ids(home: Home, key: str, venue: str | None, limit: int,
               group: str | None = None) -> list[str]:
    """Every paper id of an author (at one venue, in one group), newest first, up to ``limit``
    (an export)."""
    return [p["id"] for p in author(home, key, venue, group=group)["papers"][:limit]]


def _spellings(name: str, names: Counter[str]) -> list[str]:
    """The other ways sources write the name, most written first: not those that differ from it, or
    from each other, by case, accents or punctuation alone ("wei Wang", "Wei Wang." for Wei Wang)."""
    seen = {_letters(name)}
    out: list[str] = []
    for n, _ in names.most_common():
        k = _letters(n)
        if k not in seen:
            seen.add(k)
            out.append(n)
    return out[:5]


def _letters(name: str) -> str:
    return re.sub(r"[\W_]+", "", fold(name).casefold())
