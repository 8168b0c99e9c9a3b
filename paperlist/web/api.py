"""The JSON API under /api/v1: search, papers, conferences, authors, corpus figures; exports
(BibTeX, CSV, JSON Lines) and Atom feeds of searches and lists.

Each route declares its parameters (FastAPI validates them and documents them in /openapi.json),
passes exactly those to one function of the service layer (``paperlist.service``: the resources
the pages, MCP and the CLI also read) and sends its dict with orjson. The service's errors are
turned into problem+json by ``problems``. To add an endpoint: a function in the service, a model in
``api_models``, and a route here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Path, Query
from starlette.requests import Request
from starlette.responses import Response

from .. import exports
from ..cite.ris import MEDIA_TYPE as RIS_MEDIA_TYPE
from ..models import STATUSES
from ..search.model import MAX_PER_PAGE, MAX_QUERY_CHARS, MAX_WINDOW, MODES, SORTS, SearchRequest
from ..service import Home, list_request, search_request
from ..service import authors as sa
from ..service import conference_stats as cs
from ..service import papers as sp
from ..service import search as ss
from ..service import topics as st
from ..service import venues as sv
from ..service.paths import API_ROOT
from ..service.requests import MAX_LIST_PAGE, YEAR_MAX, YEAR_MIN
from ..service.semantic_status import semantic_status
from . import api_models as m
from .api_exports import feed, stream
from .cache import ResponseCache
from .fastparams import FastQueryRoute
from .incoming import home
from .render import cached_response, render_json

router = APIRouter(prefix=API_ROOT, route_class=FastQueryRoute)

Sort = Literal[SORTS]                                    # type: ignore[valid-type]
Mode = Literal[MODES]                                    # type: ignore[valid-type]
Status = Literal[STATUSES]                               # type: ignore[valid-type]
ListStatus = Literal[STATUSES + ("unknown",)]            # type: ignore[valid-type]
ListFormat = Literal["json", "bib", "ris", "csv", "jsonl"]
SearchFormat = Literal["json", "atom", "bib", "ris", "csv", "jsonl"]
PaperFormat = Literal["json", "bib", "ris", "apa", "mla", "chicago", "ieee", "gbt7714"]

FEED_SIZE = 50
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": m.Problem, "description": desc}
    for code, desc in ((404, "Unknown id, venue or year."), (414, "The path or query string is too long."),
                       (422, "A parameter is invalid; `errors` says which."),
                       (429, "Too many requests from this client (see Retry-After)."))}
_EXPORT_CONTENT = {exports.MEDIA_TYPES[f].split(";")[0]: {"schema": {"type": "string"}}
                   for f in ("bib", "ris", "csv", "jsonl")}
_FEED_CONTENT = {"application/atom+xml": {"schema": {"type": "string"}}}
_MOVED: dict[int | str, dict[str, Any]] = {301: {"description": "An alias or another spelling: the canonical "
                                                                "address is in Location."}}

FormatParam = Annotated[ListFormat, Query(alias="format", description=(
    "`json` (default); or an export of the whole list, not only this page: `bib` (BibTeX), `ris`, `csv`, "
    "`jsonl` (one paper per line, the fields of /papers/{id} without HTML); streamed, at most "
    "`limit` rows."))]
LimitParam = Annotated[int, Query(ge=1, le=exports.MAX_ROWS,
                                  description="Rows in an export (at most 10,000).")]



def send(request: Request, data: Any) -> Response:
    """A JSON response with an ETag (304s) and the site's cache lifetime."""
    return render_json(request, data, max_age=int(request.app.state.settings.cache_seconds))


def _cache_key(h: Home, request: Request) -> tuple[str, str, str, str] | None:
    """The search cache's key: the snapshot (on a follower), the live index generation (checked
    with one stat) and the query."""
    searcher = h.searcher
    if searcher is None:
        return None
    searcher.reload()
    gen = searcher.generation
    return (h.snapshot, gen, request.url.path, request.url.query) if gen else None


def _json_body(request: Request, body: bytes, cache: str) -> Response:
    resp = cached_response(request, body, "application/json",
                           max_age=int(request.app.state.settings.cache_seconds))
    resp.headers["x-cache"] = cache
    return resp


# --- search -------------------------------------------------------------------------------------
# The search parameters, declared once here so the route's signature reads as a list of them.
QParam = Annotated[str, Query(max_length=MAX_QUERY_CHARS, description=(
    "The query language of the site's search box: words, `\"phrases\"`, `-exclusions`, `author:`, "
    "`title:`, `abstract:`, `keyword:`, `venue:`, `family:`, `year:2020..2024`, `status:oral`, `track:`, "
    "`rating:>=6` (mean review rating: `>6`, `<5`, `5..6`, `5.5..`; `rating:6` means at least 6). "
    "Empty with filters: every paper matching the filters (orals first, then by title)."))]
VenueParam = Annotated[list[str], Query(max_length=50, description=(
    "Venue keys or aliases (`nips`, `NeurIPS`); repeat or separate with commas; OR-ed."))]
YearParam = Annotated[int | None, Query(ge=YEAR_MIN, le=YEAR_MAX,
                                        description="One year (sets year_from and year_to).")]
YearBound = Annotated[int | None, Query(ge=YEAR_MIN, le=YEAR_MAX)]
StatusParam = Annotated[list[Status], Query(max_length=20, description="Decision statuses; OR-ed.")]
RatingMinParam = Annotated[float | None, Query(ge=0, le=100, allow_inf_nan=False, description=(
    "Papers whose mean review rating is at least this; papers without ratings never match."))]
RatingMaxParam = Annotated[float | None, Query(ge=0, le=100, allow_inf_nan=False, description=(
    "Papers whose mean review rating is at most this."))]
SortParam = Annotated[Sort, Query(description=(
    "`newest`/`oldest`: by year, then relevance; `citations`: most cited first; `rating`: highest "
    "mean review rating first, papers without ratings last; `listed`: in the most curated reading "
    "lists first (a hit's `lists`), papers in none last. `citations`, `rating` and `listed` list "
    "only papers with every query word (a hyphenated word as one), never a looser match."))]
ModeParam = Annotated[Mode, Query(description=(
    "`keyword` (BM25), `semantic` (by meaning: paper vectors), `hybrid` (both, fused by "
    "reciprocal rank), or `auto`: hybrid for natural-language queries when vectors exist. Without "
    "vectors, keyword results and a note in `interpreted.notes`."))]
TopicParam = Annotated[list[str], Query(max_length=20, description=(
    "Topic or area slugs (`diffusion-models`, `cv`; see /topics); OR-ed."))]
PageParam = Annotated[int, Query(ge=1, le=MAX_WINDOW, description="page × per_page ≤ 10,000.")]
PerPageParam = Annotated[int, Query(ge=1, le=MAX_PER_PAGE)]
FacetsParam = Annotated[bool, Query(description="Count venues, years and statuses over all matches.")]
FacetSizeParam = Annotated[int, Query(ge=1, le=500, description="Values per facet (busiest first).")]
SnippetsParam = Annotated[bool, Query(description="Highlight matches in titles and abstract passages.")]
SearchFormatParam = Annotated[SearchFormat, Query(alias="format", description=(
    "`json` (default); `atom`: a feed of this page of hits (subscribe with `sort=newest`); "
    "`bib`, `ris`, `csv`, `jsonl`: an export of every hit in this order, not only this page, at most "
    "`limit` rows."))]


@router.get("/search", response_model=m.SearchResponse, tags=["search"], summary="Search papers",
            responses={**_ERRORS, 200: {"content": {**_FEED_CONTENT, **_EXPORT_CONTENT}},
                       503: {"model": m.Problem, "description": "No search index yet."}})
async def search(
    request: Request, q: QParam = "", venue: VenueParam = [], year: YearParam = None,  # noqa: B006
    year_from: YearBound = None, year_to: YearBound = None, status: StatusParam = [],  # noqa: B006
    rating_min: RatingMinParam = None, rating_max: RatingMaxParam = None, sort: SortParam = "relevance",
    mode: ModeParam = "auto", topic: TopicParam = [], page: PageParam = 1,  # noqa: B006
    per_page: PerPageParam = 20, facets: FacetsParam = True,
    facet_size: FacetSizeParam = ss.DEFAULT_FACET_SIZE, snippets: SnippetsParam = True,
    fmt: SearchFormatParam = "json", limit: LimitParam = exports.MAX_ROWS,
) -> Response:
    """Search titles, authors, abstracts and keywords with the site's query language and filters:
    total, hits with highlighted snippets, facet counts, a did-you-mean suggestion."""
    h = home(request)
    key = _cache_key(h, request) if fmt == "json" else None
    cache: ResponseCache = request.app.state.search_cache
    body = cache.get(key) if key is not None else None
    if body is not None:
        return _json_body(request, body, "hit")
    r = search_request(q=q, venues=venue, year=year, year_from=year_from, year_to=year_to, statuses=status,
                       topics=topic, rating_min=rating_min, rating_max=rating_max, sort=sort, mode=mode,
                       page=page, per_page=per_page,
                       facets=facets and fmt == "json", snippets=snippets and fmt == "json")
    if fmt != "json":
        return _search_export(request, h, r, fmt, limit)
    body = orjson.dumps(ss.search(h, r, facet_size), option=orjson.OPT_NON_STR_KEYS)
    if key is not None:
        cache.put(key, body)
    return _json_body(request, body, "miss")


def _search_export(request: Request, h: Home, r: SearchRequest, fmt: str, limit: int) -> Response:
    """A search as an Atom feed of its page of hits, or an export of every hit (streamed)."""
    if fmt == "atom":
        res = ss.run_search(h, replace(r, facets=False, snippets=False))
        title = f"paperlist: {r.q or 'papers'}" + (f" ({', '.join(r.venues)})" if r.venues else "")
        return feed(request, [x.id for x in res.hits], title, ss.search_links(r)["html"] or "/search")
    return stream(request, ss.search_ids(h, r, limit), fmt, r.q or "search", total=ss.total(h, r))


# --- papers and authors -------------------------------------------------------------------------
# (before /papers/{ref:path}, which would otherwise take "x/similar" for an id)
@router.get("/papers/{ref}/similar", response_model=m.SimilarPapers, tags=["papers"],
            summary="Similar papers", responses={**_ERRORS, **_MOVED})
async def similar(request: Request, ref: Annotated[str, Path(description="A paper id (or an external id).")],
                  limit: Annotated[int, Query(ge=1, le=50)] = 10) -> Response:
    """Papers like this one: nearest by meaning (title and abstract vectors) when it has a vector,
    else those sharing its most distinctive words (`method` says which)."""
    return send(request, sp.similar(home(request), ref, limit))


@router.get("/papers/{ref:path}", response_model=m.Paper, tags=["papers"], summary="One paper",
            responses={**_ERRORS, **_MOVED,
                       200: {"content": {"application/x-bibtex": {"schema": {"type": "string"}},
                                         RIS_MEDIA_TYPE.split(";")[0]: {"schema": {"type": "string"}},
                                         "text/plain": {"schema": {"type": "string"}}}},
                       300: {"model": m.Problem,
                             "description": "The id names several papers (`candidates`)."}})
async def paper(
    request: Request,
    ref: Annotated[str, Path(description=(
        "A paper id, or a DOI, arXiv, OpenReview, ACL Anthology or source id (301 to the paper's id)."))],
    fmt: Annotated[PaperFormat, Query(alias="format", description=(
        "`bib`: the BibTeX entry alone; `ris`: its RIS record; `apa`, `mla`, `chicago`, `ieee`, `gbt7714` "
        "(GB/T 7714-2015): the reference in that style, plain text (CSL styles rendered by citeproc-py)."))]
    = "json",
) -> Response:
    """A paper with its abstract (raw and rendered), authors, venue, status, links, external ids,
    BibTeX, its references in five citation styles and more papers by the same authors."""
    if fmt == "bib":
        return Response(sp.bibtex_entry(home(request), ref), media_type=exports.MEDIA_TYPES["bib"])
    if fmt == "ris":
        return Response(sp.citation(home(request), ref, "ris"), media_type=RIS_MEDIA_TYPE)
    if fmt != "json":
        return Response(sp.citation(home(request), ref, fmt), media_type="text/plain; charset=utf-8")
    return send(request, sp.paper(home(request), ref))


@router.get("/authors/{key:path}", response_model=m.AuthorDetail, tags=["authors"], summary="An author",
            responses={**_ERRORS, **_MOVED, 200: {"content": _EXPORT_CONTENT}})
async def author(request: Request, key: Annotated[str, Path(description="Author key, e.g. `yoshua-bengio`.")],
                 venue: Annotated[str | None, Query(max_length=100, description=(
                     "Only the papers at this venue (a key from `venues`)."))] = None,
                 group: Annotated[str | None, Query(max_length=200, description=(
                     "Only the papers of one group of a name several people share (a key from "
                     "`groups`)."))] = None,
                 page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                 per_page: Annotated[int | None, Query(ge=1, le=MAX_LIST_PAGE, description=(
                     "Papers per page; all of them when absent."))] = None,
                 fmt: FormatParam = "json", limit: LimitParam = exports.MAX_ROWS) -> Response:
    """An author's papers (newest first; optionally at one venue or in one group of a shared name,
    a page at a time), the venues they publish at, frequent co-authors, and when the name likely
    covers several people, its groups of papers."""
    if fmt != "json":
        ids = sa.author_ids(home(request), key, venue, limit, group)
        return stream(request, iter(ids), fmt, key, total=len(ids))
    return send(request, sa.author(home(request), key, venue=venue, page=page, per_page=per_page,
                                   group=group))


# --- conferences --------------------------------------------------------------------------------
@router.get("/conferences", response_model=m.VenueList, tags=["conferences"], summary="Every venue",
            responses={414: _ERRORS[414], 429: _ERRORS[429]})
async def conferences(request: Request) -> Response:
    """Every venue with papers: conferences, then journals and workshops, busiest first."""
    return send(request, sv.conferences(home(request)))


@router.get("/conferences/{venue}", response_model=m.VenueDetail, tags=["conferences"], summary="A venue",
            responses={**_ERRORS, **_MOVED, 200: {"content": _FEED_CONTENT}})
async def conference(
    request: Request, venue: Annotated[str, Path(description="Venue key or alias (`neurips`, `nips`).")],
    fmt: Annotated[Literal["json", "atom"], Query(alias="format", description=(
        "`atom`: a feed of the venue's newest papers (most recently added first)."))] = "json",
) -> Response:
    """A venue's years with paper and status counts, newest first, and its related venues."""
    h = home(request)
    d = sv.venue(h, venue)
    if fmt == "atom":
        key = d["venue"]["key"]
        ids = [r["id"] for r in h.store.recent_papers(key, FEED_SIZE)]
        return feed(request, ids, f"paperlist: {d['venue']['short']}", d["venue"]["href"])
    return send(request, d)


@router.get("/conferences/{venue}/{year}/stats", response_model=m.ConferenceStats, tags=["conferences"],
            summary="A conference-year's statistics", responses={**_ERRORS, **_MOVED})
async def conference_stats(
    request: Request, venue: Annotated[str, Path(description="Venue key or alias.")],
    year: Annotated[str, Path(description="Four-digit year.", pattern=r"^\d{4}$")],
) -> Response:
    """Submissions and decisions (acceptance rate where the sources list rejected papers); where
    reviews exist, mean ratings by decision, their histogram, the acceptance rate per rating bin
    and the rating-confidence correlation; top institutions, countries and authors."""
    return send(request, cs.conference_stats(home(request), venue, year))


@router.get("/conferences/{venue}/{year}", response_model=m.VenueYearList, tags=["conferences"],
            summary="A conference-year's papers",
            responses={**_ERRORS, **_MOVED, 200: {"content": _EXPORT_CONTENT}})
async def conference_year(
    request: Request, venue: Annotated[str, Path(description="Venue key or alias.")],
    year: Annotated[str, Path(description="Four-digit year.", pattern=r"^\d{4}$")],
    status: Annotated[list[ListStatus], Query(  # type: ignore[valid-type]
        max_length=20, description="Statuses; OR-ed.")] = [],  # noqa: B006
    track: Annotated[str | None, Query(max_length=100,
                                       description="One track (`main`, `datasets` …).")] = None,
    q: Annotated[str, Query(max_length=200,
                            description="Words that must all appear in the title, an author's "
                                        "name or the abstract.")] = "",
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_LIST_PAGE)] = 100,
    decision: Annotated[Literal["accepted", "not-accepted", "all"], Query(description=(
        "Accepted papers (the default), the others (rejected, withdrawn, desk-rejected), or every "
        "listed submission; `status` overrides it."))] = "accepted",
    sort: Annotated[Literal["decision", "title", "rating"], Query(description=(
        "Best decision first then title (the default), title, or mean review rating (unrated last)."))]
    = "decision",
    topic: Annotated[str | None, Query(max_length=100, description=(
        "A topic or area slug (see /topics): only its papers."))] = None,
    fmt: FormatParam = "json", limit: LimitParam = exports.MAX_ROWS,
) -> Response:
    """The papers of one conference-year (accepted ones unless asked otherwise), best status first
    then by title, a page at a time, with status, decision and track counts; or the whole
    (filtered) list as an export."""
    h = home(request)
    lr = list_request(statuses=status, track=track, q=q, page=page, per_page=per_page, decision=decision,
                      sort=sort, topic=topic)
    if fmt != "json":
        key, y, ids = sv.list_ids(h, venue, year, lr, limit)
        return stream(request, ids, fmt, f"{key}{y}", total=len(ids))
    return send(request, sv.conference_year(h, venue, year, lr))


# --- topics --------------------------------------------------------------------------------------
@router.get("/topics", response_model=m.TopicList, tags=["topics"], summary="Every topic with statistics",
            responses=_ERRORS)
async def topics(request: Request,
                 venue: Annotated[str | None, Query(max_length=100,
                                                    description="Count only this venue.")] = None,
                 year: Annotated[int | None, Query(ge=YEAR_MIN, le=YEAR_MAX,
                                                   description="Count only this year.")] = None,
                 ) -> Response:
    """Research areas and their topics: papers, papers per year and the busiest venues, overall or
    for one venue and/or year."""
    return send(request, st.topics(home(request), venue, year))


@router.get("/topics/{slug}", response_model=m.TopicDetail, tags=["topics"], summary="A topic",
            responses={**_ERRORS, **_MOVED})
async def topic(request: Request, slug: Annotated[str, Path(description="Topic or area slug.")],
                venue: Annotated[str | None, Query(max_length=100)] = None,
                year: Annotated[int | None, Query(ge=YEAR_MIN, le=YEAR_MAX)] = None,
                page: Annotated[int, Query(ge=1, le=10_000)] = 1) -> Response:
    """A topic (or area): papers per year and per venue and year, and its papers (newest year
    first, then those most clearly about it), 50 a page, filterable by venue and year."""
    return send(request, st.topic(home(request), slug, venue=venue, year=year, page=page))


# --- corpus -------------------------------------------------------------------------------------
@router.get("/stats", response_model=m.Stats, tags=["corpus"], summary="Corpus figures",
            responses={414: _ERRORS[414], 429: _ERRORS[429]})
async def stats(request: Request) -> Response:
    """Papers, accepted, with abstract, venues, authors, records and source files."""
    return send(request, sv.stats(home(request)))


@router.get("/coverage", response_model=m.Coverage, tags=["corpus"], summary="Coverage per venue and year",
            responses=_ERRORS)
async def coverage(request: Request, venue: Annotated[str | None, Query(
        max_length=100, description="Only this venue (key or alias).")] = None) -> Response:
    """Per venue and year: papers, accepted, with abstract, and each source file behind them."""
    return send(request, sv.coverage(home(request), venue))


@router.get("/semantic", response_model=m.SemanticStatus, tags=["corpus"],
            summary="Search by meaning: can it run, over how many papers", responses={429: _ERRORS[429]})
async def semantic(request: Request) -> Response:
    """Whether search by meaning and vector neighbours can run now, the share of papers whose vectors
    search uses (they are computed newest first, in the background, and published in steps), and the
    background job's state, rate and remaining time."""
    return Response(orjson.dumps(semantic_status(home(request))), media_type="application/json",
                    headers={"cache-control": "no-store"})


@router.get("", response_model=m.ApiIndex, tags=["meta"], summary="The API's entry points")
async def index(request: Request) -> Response:
    """Where things are: the OpenAPI document, its reference page and the endpoints."""
    eps = {"search": "/search?q={query}", "paper": "/papers/{id}", "conferences": "/conferences",
           "conference": "/conferences/{venue}", "conference_year": "/conferences/{venue}/{year}",
           "author": "/authors/{key}", "stats": "/stats", "coverage": "/coverage", "topics": "/topics",
           "topic": "/topics/{slug}", "similar": "/papers/{id}/similar", "semantic": "/semantic"}
    return send(request, {"name": "paperlist", "version": "v1", "openapi": "/openapi.json", "docs": "/api",
                          "endpoints": {k: API_ROOT + v for k, v in eps.items()}})


from .api_doc import openapi_document  # noqa: E402
from .api_lists import router as _lists_router  # noqa: E402 - its routes join the API's
from .api_resolve import router as _resolve_router  # noqa: E402

router.include_router(_resolve_router)
router.include_router(_lists_router)

__all__ = ["openapi_document", "router"]
