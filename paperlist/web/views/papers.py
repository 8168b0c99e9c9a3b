"""A paper's page and an author's page: the service's paper and author, with topic names in the
page's language and the papers of their lists as cards."""

from __future__ import annotations

from collections import Counter
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from ...service import papers as sp
from ..labels import status_key
from .base import Ctx, card


def _link_buttons(links: list[Any]) -> list[dict[str, Any]]:
    """The paper's links as buttons: where sources give several links of one kind (two PDFs, the
    proceedings page and the conference's), each says its site, so no two buttons read alike."""
    kinds = Counter(link["kind"] for link in links)
    return [{**link, "host": (urlsplit(link["url"]).hostname or "").removeprefix("www.")
             if kinds[link["kind"]] > 1 else ""} for link in links]


def build_paper(ctx: Ctx, ref: str) -> dict[str, Any]:
    """Everything the paper page shows: the paper's fields, their renderings, its topics, more by
    its authors, similar papers."""
    d = sp.paper(ctx.home, ref)
    return {
        "page": "paper", **d, "status_key": status_key(d["status"]),
        "link_buttons": _link_buttons(d["links"]),
        # the service's renderings are sanitized HTML: the templates insert them as they are
        **{k: Markup(d[k]) for k in ("title_html", "abstract_html", "tldr_html", "summary_zh_html")},
        "topics": [{**t, "name": t["zh"] if ctx.lang == "zh" else t["name"]} for t in d["topics"]],
        "more_by_authors": [card(p) for p in d["more_by_authors"]],
        "similar": [card(p) for p in d["similar"]],
    }


def build_author(ctx: Ctx, key: str) -> dict[str, Any]:
    """An author: papers by year with venues, frequent co-authors, venues they publish at."""
    d = sp.author(ctx.home, key)
    by_year: dict[int, list[dict[str, Any]]] = {}
    for p in d["papers"]:
        by_year.setdefault(p["year"], []).append(card(p))
    out = {"page": "author", **d, "years": [{"year": y, "papers": ps} for y, ps in by_year.items()]}
    out.pop("papers")
    return out
