"""A paper's page and an author's page: the service's paper and author, with topic names in the
page's language and the papers of their lists as cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from markupsafe import Markup

from ...service import authors as sa
from ...service import papers as sp
from ...service.requests import int_param
from ...sources import SOURCE_TITLES
from ..labels import status_key
from .base import Ctx, card, page_numbers


def _link_buttons(links: list[Any]) -> list[dict[str, Any]]:
    """The paper's links as buttons: where sources give several links of one kind (two PDFs, the
    proceedings page and the conference's), each says its site, so no two buttons read alike."""
    kinds = Counter(link["kind"] for link in links)
    return [{**link, "host": (urlsplit(link["url"]).hostname or "").removeprefix("www.")
             if kinds[link["kind"]] > 1 else ""} for link in links]


# What the page calls the source of a citation count (the API gives the source kind).
CITATION_SOURCES = {"papercopilot": "Paper Copilot (Google Scholar)", "openalex": "OpenAlex",
                    "semanticscholar": "Semantic Scholar"}


def citations_label(kind: str | None) -> str:
    """The name of the source a citation count comes from ("" for none)."""
    return "" if not kind else CITATION_SOURCES.get(kind) or SOURCE_TITLES.get(kind) or kind


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
        "citations_label": citations_label(d["citations_source"]),
    }


def build_author(ctx: Ctx, key: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """An author: papers by year with venues, frequent co-authors, venues they publish at."""
    group = (params.get("group") or None)
    d = sa.author(ctx.home, key, venue=params.get("venue") or None,
                  page=int_param(params, "page", 1, 1, 100_000) or 1, per_page=sa.AUTHOR_PAGE,
                  group=group[:200] if group else None)
    by_year: dict[int, list[dict[str, Any]]] = {}
    for p in d["papers"]:
        by_year.setdefault(p["year"], []).append(card(p))
    pg = d["pagination"]
    out = {"page": "author", **d, "years": [{"year": y, "papers": ps} for y, ps in by_year.items()],
           "page_links": [{"page": n, "current": n == pg["page"],
                           "href": sa.author_href(key, d["venue"], n, d["group"]) if n else None}
                          for n in page_numbers(pg["page"], pg["pages"])]}
    out.pop("papers")
    return out
