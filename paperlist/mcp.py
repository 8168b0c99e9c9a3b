"""paperlist as a Model Context Protocol server (``paperlist mcp``, stdio), with the official SDK.

The tools answer from the same service functions as the JSON API (``paperlist.service``), made
more compact for a language model: plain-text snippets instead of HTML, short author lists, and no
site-only fields. Errors a model can fix (unknown id, a parameter out of range) come back as tool
errors saying what to change. Aliases (a DOI for a paper, ``nips`` for NeurIPS) are followed. No
web framework is loaded.

To add a tool: a method on ``Tools`` (typed parameters and a docstring: they become its schema and
description) and its name in ``TOOL_NAMES``.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import unquote

from pydantic import Field

from .models import STATUSES
from .search.backend import SearchBackend
from .search.model import SORTS
from .service import Home, Moved, ServiceError, list_request, search_request
from .service import conference_stats as scs
from .service import lists as sl
from .service import papers as sp
from .service import resolve as sr
from .service import search as ss
from .service import topics as st
from .service import venues as sv
from .service.requests import YEAR_MAX, YEAR_MIN
from .store import Store

T = TypeVar("T")
TOOL_NAMES = ["search_papers", "get_paper", "list_conferences", "list_conference_papers",
              "find_similar_papers", "get_topic_stats", "get_conference_stats", "resolve_bibliography",
              "export_list"]
MAX_RESOLVE_CHARS = 500_000           # a bibliography handed to a tool (the API takes 2 MB)
_LIST_LINK = re.compile(r"/(lists|shared)/([A-Za-z0-9_-]{32})(?:/([0-9a-f]{16}))?")
LIST_FORMATS = ("bib", "ris", "csv", "jsonl", "apa", "mla", "chicago", "ieee", "gbt7714")
_TAG = re.compile(r"<[^>]+>")
_HTML_FIELDS = ("title_html", "abstract_html", "tldr_html", "summary_zh_html", "bib_href",
                "bibtex_from_source")
MAX_AUTHORS = 12

Status = Literal[STATUSES]  # type: ignore[valid-type]


def html_to_text(html_text: str) -> str:
    """A snippet's HTML (escaped text and <mark>) as plain text."""
    return html.unescape(_TAG.sub("", html_text or ""))


def _authors(authors: Sequence[Mapping[str, Any]]) -> list[str]:
    names = [a["name"] for a in authors[:MAX_AUTHORS]]
    return names + [f"… and {len(authors) - MAX_AUTHORS} more"] if len(authors) > MAX_AUTHORS else names


def _brief(p: Mapping[str, Any]) -> dict[str, Any]:
    """A paper summary for a list: id, title, authors, venue, year, status, mean review rating."""
    out = {"id": p["id"], "title": p.get("title_plain") or p["title"], "authors": _authors(p["authors"]),
           "venue": p.get("venue_short") or p["venue"], "year": p["year"], "status": p["status"],
           "track": p.get("track")}
    if p.get("rating") is not None:
        out["rating"] = p["rating"]
    if isinstance(p.get("lists"), int) and p["lists"] > 0:      # a search hit's curated lists
        out["lists"] = p["lists"]
    return out


def _search_reply(d: Mapping[str, Any], page: int) -> dict[str, Any]:
    """A search's answer for a model: brief hits with plain-text snippets, the facets' values and
    counts, and what the query was understood as (mode, translation)."""
    translated = d["interpreted"].get("translated")
    return {
        "total": d["total"], "page": page, "pages": d["pages"],
        "hits": [_brief(h) | {"snippet": html_to_text(h["snippet_html"])} for h in d["hits"]],
        "facets": {dim: [{"value": v["value"], "label": v["label"], "count": v["count"]} for v in vals]
                   for dim, vals in (("venue", d["facets"]["venue"]), ("year", d["facets"]["year"]),
                                     ("status", d["facets"]["status"]), ("topic", d["facets"]["topic"]))},
        "suggestion": d["suggestion"], "notes": d["interpreted"].get("notes", []),
        "mode": d["interpreted"].get("mode"),
        "translated": translated["to"] if translated else None,
        # Chinese the glossary lacks: English guessed from papers' Chinese summaries, and what
        # nothing translated (searched by the papers whose summary has it, when any: "seeded")
        "guessed": [{"zh": t["zh"], "en": t["en"], "summaries": t["summaries"]}
                    for t in (translated["terms"] if translated else []) if t["learned"]],
        "untranslated": translated["unknown"] if translated else [],
        "seeded": translated["seeded"] if translated else 0,
    }


class ToolFailure(Exception):
    """A call a model can correct (an unknown id, a value out of range): the server reports it as a
    tool error with this message."""


class Tools:
    """The MCP tools over one paperlist home (its store opened read-only, its search index)."""

    def __init__(self, home: Path, store: Store | None = None, searcher: SearchBackend | None = None) -> None:
        self.home = Home(home, store=store, searcher=searcher)
        _ = self.home.store                 # a missing store fails now, not on the first call

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A service call with its errors as tool errors; a move to another spelling or id is
        followed once (its path segments are the new arguments)."""
        try:
            try:
                return fn(*args, **kwargs)
            except Moved as r:           # args[0] is the Home; the path's segments replace those after it
                parts = [unquote(x) for x in r.location.split("?", 1)[0].strip("/").split("/")[1:]]
                k = min(len(parts), len(args) - 1)   # a sub-resource segment ("stats") is no argument
                return fn(args[0], *parts[:k], *args[1 + k:], **kwargs)
        except ServiceError as e:
            ids = getattr(e, "ids", None)
            extra = f" Candidates: {', '.join(ids[:20])}." if ids else ""
            raise ToolFailure(f"{e.message} ({e.detail}).{extra}" if e.detail
                              else e.message + extra) from None

    # --- the tools ------------------------------------------------------------------------------
    def search_papers(
        self,
        query: Annotated[str, Field(max_length=1000, description=(
            'Words, "phrases", -exclusions and filters: author:"Yoshua Bengio", title:, abstract:, '
            "venue:neurips,icml, year:2020..2024, status:oral. Empty with filters lists every matching "
            "paper."))] = "",
        venues: Annotated[list[str], Field(max_length=20,
                                           description="Venue keys or aliases (neurips, iclr, acl …).")]
        = [],  # noqa: B006 - pydantic copies defaults
        year_from: Annotated[int | None, Field(ge=YEAR_MIN, le=YEAR_MAX)] = None,
        year_to: Annotated[int | None, Field(ge=YEAR_MIN, le=YEAR_MAX)] = None,
        statuses: Annotated[list[Status], Field(max_length=8)] = [],  # noqa: B006
        topics: Annotated[list[str], Field(max_length=10, description=(
            "Topic or area slugs from get_topic_stats (diffusion-models, cv …); OR-ed."))] = [],  # noqa: B006
        rating_min: Annotated[float | None, Field(ge=0, le=100, description=(
            "Only papers whose mean review rating is at least this (papers without reviews never match)."))]
        = None,
        rating_max: Annotated[float | None, Field(ge=0, le=100, description=(
            "Only papers whose mean review rating is at most this."))] = None,
        mode: Annotated[Literal["auto", "keyword", "semantic", "hybrid"], Field(description=(
            "auto (default): also by meaning for natural-language queries when vectors exist; semantic: by "
            "meaning only; keyword: words only. Chinese AI terms are translated to English."))] = "auto",
        sort: Annotated[Literal[SORTS], Field(description=(  # type: ignore[valid-type]
            "relevance, newest, oldest, title, citations, rating (highest mean review rating "
            "first, papers without reviews last), or listed (in the most curated reading lists "
            "first: a hit's lists); citations, rating and listed list only papers with every "
            "query word."))] = "relevance",
        limit: Annotated[int, Field(ge=1, le=50, description="Hits per page.")] = 10,
        page: Annotated[int, Field(ge=1, le=200)] = 1,
    ) -> dict[str, Any]:
        """Search AI conference papers (NeurIPS, ICLR, ICML, CVPR, ACL …) by title, author,
        abstract and keywords. Returns the total, hits (id, title, authors, venue, year, status,
        mean review rating where known, how many curated reading lists include it when any, a
        passage of the abstract), the busiest venues, years and
        statuses, and a spelling suggestion. Use get_paper with a hit's id for the abstract and
        BibTeX. Filter by mean review rating with rating_min / rating_max or in the query:
        rating:>=6 (also >6, <5, 5..6, 5.5..; rating:6 means at least 6; papers without reviews
        never match), and sort="rating" for the best rated first."""
        r = self._call(search_request, q=query, venues=venues, year_from=year_from, year_to=year_to,
                       statuses=statuses, topics=topics, rating_min=rating_min, rating_max=rating_max,
                       sort=sort, mode=mode, page=page, per_page=limit)
        return _search_reply(self._call(ss.search, self.home, r, 10), page)

    def get_paper(self, paper_id: Annotated[str, Field(min_length=1, max_length=300, description=(
            "A paper id from search_papers, or a DOI, arXiv id, OpenReview id "
            "or ACL Anthology id."))]) -> dict[str, Any]:
        """One paper: title, all authors (with affiliations when known), venue, year, decision,
        abstract, TL;DR, keywords, links (PDF, OpenReview, code …), external ids, BibTeX, and a
        few more papers by the same authors."""
        d: dict[str, Any] = dict(self._call(sp.paper, self.home, paper_id.strip()))
        for k in _HTML_FIELDS:
            d.pop(k, None)
        d["authors"] = [{k: a[k] for k in ("name", "key", "affiliation") if a.get(k)} for a in d["authors"]]
        d["venue"] = {k: d["venue"][k] for k in ("key", "short", "name")}
        d["links"] = [{"kind": x["kind"], "url": x["url"]} for x in d["links"]]
        d["ids"] = {x["kind"]: x["value"] for x in d["ids"]}
        d["more_by_authors"] = [_brief(p) for p in d["more_by_authors"]]
        return d

    def list_conferences(
        self, kind: Annotated[Literal["conference", "journal", "workshop"] | None, Field(
            description="Only venues of this kind.")] = None,
    ) -> dict[str, Any]:
        """Every venue in the library (conferences, journals, workshops) with its key, names,
        field, paper count and the years it has papers for. Use a key and a year with
        list_conference_papers."""
        d = self._call(sv.conferences, self.home)
        venues = [{k: v[k] for k in ("key", "short", "name", "kind", "field", "parent", "papers", "years")}
                  for v in d["venues"] if kind is None or v["kind"] == kind]
        return {"venues": venues, "total": len(venues)}

    def list_conference_papers(
        self,
        venue: Annotated[str, Field(min_length=1, max_length=100,
                                    description="Venue key or alias (neurips, cvpr …).")],
        year: Annotated[int, Field(ge=YEAR_MIN, le=YEAR_MAX)],
        statuses: Annotated[list[Literal[STATUSES + ("unknown",)]], Field(max_length=9)] = [],  # type: ignore[valid-type]  # noqa: B006
        track: Annotated[str | None, Field(max_length=100)] = None,
        query: Annotated[str, Field(max_length=200, description=(
            "Words that must all appear in the title, an author's name or the abstract."))] = "",
        page: Annotated[int, Field(ge=1, le=10_000)] = 1,
        per_page: Annotated[int, Field(ge=1, le=200)] = 50,
        decision: Annotated[Literal["accepted", "not-accepted", "all"], Field(description=(
            "accepted papers (default), the others (rejected, withdrawn), or all listed submissions; "
            "statuses override it."))] = "accepted",
    ) -> dict[str, Any]:
        """The papers one conference accepted (or, with decision, received) in one year, best
        decision first (oral, spotlight, poster …) then by title, a page at a time, with counts
        per status."""
        lr = self._call(list_request, statuses=statuses, track=track, q=query, page=page, per_page=per_page,
                        decision=decision)
        d = self._call(sv.conference_year, self.home, venue.strip(), str(year), lr)
        return {"venue": d["venue"]["short"], "venue_key": d["venue"]["key"], "year": d["year"],
                "total": d["total"], "page": d["pagination"]["page"], "pages": d["pagination"]["pages"],
                "status_counts": {x["value"]: x["count"] for x in d["status_counts"]},
                "papers": [_brief(p) for p in d["papers"]]}


    def find_similar_papers(
        self,
        paper_id: Annotated[str, Field(min_length=1, max_length=300, description=(
            "A paper id from search_papers, or a DOI, arXiv, OpenReview or ACL Anthology id."))],
        limit: Annotated[int, Field(ge=1, le=30)] = 10,
    ) -> dict[str, Any]:
        """Papers similar to one paper: nearest by meaning (title and abstract embeddings) when the
        paper has a vector, else the papers sharing its most distinctive words. `method` says which."""
        d = self._call(sp.similar, self.home, paper_id.strip(), limit)
        return {"id": d["id"], "method": d["method"],
                "papers": [_brief(p) | {"score": p["score"]} for p in d["papers"]]}

    def get_topic_stats(
        self,
        topic: Annotated[str | None, Field(max_length=100, description=(
            "A topic or area slug for its details and papers; omit to list every topic."))] = None,
        venue: Annotated[str | None, Field(max_length=100,
                                           description="Count only this venue (key or alias).")] = None,
        year: Annotated[int | None, Field(ge=YEAR_MIN, le=YEAR_MAX,
                                          description="Count only this year.")] = None,
    ) -> dict[str, Any]:
        """Research topics (60 topics in 12 areas, e.g. diffusion-models in generative) with paper
        counts per year and venue. Without `topic`: every topic's count (optionally within one
        venue and/or year). With `topic`: its counts per year and per venue-year and its newest
        papers (filtered by venue/year). Use a slug as `topics` in search_papers."""
        if topic is None:
            d = self._call(st.topics, self.home, venue, year)
            return {"venue": d["venue"], "year": d["year"], "areas": [
                {"slug": a["slug"], "name": a["en"], "papers": a["papers"],
                 "topics": [{"slug": t["slug"], "name": t["en"], "zh": t["zh"], "papers": t["papers"],
                             "recent_years": dict(list(t["years"].items())[-5:])} for t in a["topics"]]}
                for a in d["areas"]]}
        d2 = self._call(st.topic, self.home, topic.strip().lower(), venue=venue, year=year)
        return {"slug": d2["slug"], "name": d2["en"], "zh": d2["zh"], "description": d2["desc"],
                "area": d2["parent"], "topics": d2["topics"], "papers": d2["papers"], "years": d2["years"],
                "venues": dict(list(d2["venues"].items())[:15]),
                "venue_years": d2["venue_years"][-60:], "matching": d2["total"],
                "papers_list": [_brief(p) for p in d2["list"][:20]]}

    def get_conference_stats(
        self,
        venue: Annotated[str, Field(min_length=1, max_length=100,
                                    description="Venue key or alias (iclr, neurips, nips …).")],
        year: Annotated[int, Field(ge=YEAR_MIN, le=YEAR_MAX)],
    ) -> dict[str, Any]:
        """A conference-year's numbers, as its statistics page shows them: submissions listed, accepted,
        counts by decision, the acceptance rate (null where the sources list accepted papers only;
        `listing` says what they list), and where reviews exist: mean and median rating per decision,
        the histogram of mean ratings (bins of 0.5, counts by decision, acceptance rate per bin: what
        score gets in), the rating-confidence correlation, other review dimensions, and the top
        institutions, countries and authors by accepted papers. `review_sources` names the files the
        figures count."""
        d: dict[str, Any] = dict(self._call(scs.conference_stats, self.home, venue.strip(), str(year)))
        for k in ("href", "year_href", "links", "coverage"):
            d.pop(k, None)
        d["venue"] = {k: d["venue"][k] for k in ("key", "short", "name")}
        for k in ("institutions", "countries", "authors"):
            d[k] = d[k][:10]
        return d

    def resolve_bibliography(
        self,
        bibtex: Annotated[str, Field(min_length=1, max_length=MAX_RESOLVE_CHARS, description=(
            "A BibTeX bibliography, or a list of references one per line (ACL, APA, IEEE, numbered …)."))],
        include_bibtex: Annotated[bool, Field(description=(
            "Also return the cleaned bibliography (matched entries rewritten as the published "
            "version, citation keys kept)."))] = True,
    ) -> dict[str, Any]:
        """Find the paper each entry of a bibliography cites: `matched` (the paper, a confidence
        and why: title similarity, authors, year, venue), `ambiguous` (the candidates it cannot
        tell apart), `not_found` (not in the library) or `error` (not valid BibTeX; the rest is
        still resolved). Entries citing one paper under two keys are listed in `duplicates`."""
        text = self._call(sr.decode_upload, bibtex.encode())
        report = self._call(sr.resolve, self.home, text)
        keep = ("id", "title", "venue_short", "year", "confidence", "title_similarity", "authors_agree",
                "year_agrees", "venue_agrees", "by_id")
        entries = []
        for e in report["entries"]:
            d: dict[str, Any] = {"key": e["key"], "status": e["status"], "title": e["title"]}
            if e["error"]:
                d["error"] = e["error"]
            if e["paper"]:
                d["paper"] = {k: e["paper"][k] for k in keep}  # type: ignore[literal-required]
                d["rewritten"] = e["rewritten"]
            if e["candidates"]:
                d["candidates"] = [{k: c[k] for k in keep} for c in e["candidates"]]  # type: ignore[literal-required]
            if e["duplicate_of"]:
                d["duplicate_of"] = e["duplicate_of"]
            entries.append(d)
        out: dict[str, Any] = {"counts": report["counts"], "entries": entries,
                               "duplicates": report["duplicates"]}
        if include_bibtex:
            out["bibtex"] = report["bibtex"]
        return out

    def export_list(
        self,
        link: Annotated[str, Field(min_length=30, max_length=500, description=(
            "A reading list's link as the site shows it: its read-only share link (…/shared/TOKEN) or its "
            "private link (…/lists/TOKEN/LIST_ID; without LIST_ID, the link's first list)."))],
        format: Annotated[Literal[LIST_FORMATS], Field(description=(  # type: ignore[valid-type]
            "bib (BibTeX, notes as annote), ris, csv, jsonl, or a bibliography in apa, mla, chicago, ieee "
            "or gbt7714 (GB/T 7714-2015)."))] = "bib",
    ) -> dict[str, Any]:
        """A reading list exported whole: its name, how many papers it holds, and the text of the
        export in the format asked (BibTeX, RIS, CSV, JSON Lines) or its bibliography in a citation
        style. Reads only; the list is not changed."""
        m = _LIST_LINK.search(link)
        if m is None:
            raise ToolFailure("Not a reading-list link: expected …/shared/TOKEN or …/lists/TOKEN[/LIST_ID].")
        kind, token, list_id = m.groups()
        if kind == "lists" and list_id is None:
            list_id = self._call(sl.shelf, self.home, token)["lists"][0]["id"]
        row, chunks = self._call(sl.list_export, self.home, token if kind == "lists" else None,
                                 list_id if kind == "lists" else token, format, lambda pid: f"/papers/{pid}")
        return {"name": row.name, "papers": row.count, "format": format, "text": self._call("".join, chunks)}


def build_server(tools: Tools) -> Any:
    """The MCP server (the official SDK's ``MCPServer``) with every tool in TOOL_NAMES, all
    read-only. The SDK is imported here: it brings an HTTP stack (Starlette) that the tools
    themselves do not need."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import ToolAnnotations

    server = MCPServer(
        "paperlist", title="paperlist: AI conference papers", version="1.0",
        instructions=("A library of AI top-conference papers (NeurIPS, ICLR, ICML, CVPR, ACL, AAAI "
                      "and 50 more, 320k+ papers, this year's proceedings included). Search with "
                      "search_papers, read one with get_paper (abstract, links, BibTeX), browse venues with "
                      "list_conferences and list_conference_papers, find related work with "
                      "find_similar_papers, follow research topics with get_topic_stats, and judge a "
                      "conference-year by its numbers (acceptance rate, review scores) with "
                      "get_conference_stats; match a bibliography to its papers (and clean it) with "
                      "resolve_bibliography; export a reading list by its link with export_list."))
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False, idempotent_hint=True)

    def tool(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except ToolFailure as e:
                raise ToolError(str(e)) from None
        return call

    for name in TOOL_NAMES:
        server.add_tool(tool(getattr(tools, name)), name=name, annotations=read_only)
    return server


def serve(home: Path) -> None:
    """Serve ``home`` over stdio until the client closes the pipe."""
    build_server(Tools(home)).run("stdio")
