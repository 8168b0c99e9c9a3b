"""Routes: each parses the request, calls one builder (views/), and renders its dict as the page or
its JSON twin. Errors and redirects raised by builders become friendly pages in the request's
language. Handlers are ``async`` and call the service directly: every query is a few milliseconds, and one
SQLite connection per worker beats a thread hop per request."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ..cite.ris import MEDIA_TYPE as RIS_MEDIA_TYPE
from ..service import BadRequest, Home, Moved, ServiceError
from ..service.errors import N_
from ..service.papers import citation
from ..service.replicas import follow_status
from ..service.resolve import MAX_BYTES, decode_upload
from ..service.semantic_status import semantic_status
from . import i18n
from .error_page import error_page
from .list_forms import form_routes
from .problems import http_problem, is_api_path
from .render import STATIC_FILES, cached_response, render, static_version
from .views.apidocs import build_api_docs
from .views.base import Ctx
from .views.lists import build_list, build_shared, build_start
from .views.papers import build_author, build_paper
from .views.resolve import build_resolve
from .views.search import build_search
from .views.stats import build_conference_stats
from .views.topics import build_topic, build_topics, build_venue_year_topics
from .views.venues import build_conferences, build_coverage, build_home, build_venue, build_venue_year

Handler = Callable[[Request], Awaitable[Response]]


def ctx(request: Request) -> Ctx:
    """The page's context: the app's home and the request's language."""
    return Ctx(home=request.app.state.home, lang=request.state.lang)


def _max_age(request: Request) -> int:
    return int(request.app.state.settings.cache_seconds)


def page(template: str, build: Callable[[Request], dict[str, Any]]) -> Handler:
    """A route handler: build the dict, render it; builder errors become error pages."""
    async def handler(request: Request) -> Response:
        try:
            data = build(request)
        except Moved as r:
            return redirect(request, r)
        except ServiceError as e:
            return error_page(request, e)
        return render(request, template, data, max_age=_max_age(request))
    return handler


def redirect(request: Request, r: Moved) -> Response:
    """The redirect, in the request's language, keeping its query (filters survive an alias)."""
    location = i18n.prefix(request.state.lang) + r.location
    if "?" not in location and request.url.query:
        location += "?" + request.url.query
    return RedirectResponse(location, status_code=301 if r.permanent else 302)


# --- handlers -------------------------------------------------------------------------------
def _search(request: Request) -> dict[str, Any]:
    data = build_search(ctx(request), request.query_params)
    data["preview"] = request.query_params.get("preview") == "1"
    return data


_search_page = page("search.html", _search)
_search_fragment = page("search_results.html", _search)


async def search(request: Request) -> Response:
    """The search page, or with ``fragment=1`` only its results (what search-as-you-type swaps in)."""
    if request.query_params.get("fragment") == "1":
        return await _search_fragment(request)
    return await _search_page(request)


_DOWNLOADS = {".bib": ("bibtex", "application/x-bibtex; charset=utf-8", "inline"),
              ".ris": ("ris", RIS_MEDIA_TYPE, "attachment")}


async def paper_or_bib(request: Request) -> Response:
    ref = request.path_params["ref"]
    ext = ref[-4:]
    if ext in _DOWNLOADS:
        style, media_type, disposition = _DOWNLOADS[ext]
        try:
            text = citation(request.app.state.home, ref[:-4], style)
        except Moved as r:
            return RedirectResponse(i18n.prefix(request.state.lang) + r.location + ext, status_code=301)
        except ServiceError as e:
            return error_page(request, e)
        resp = cached_response(request, text.encode(), media_type, max_age=_max_age(request))
        name = re.sub(r"[^\w.-]", "_", ref)
        resp.headers["content-disposition"] = f'{disposition}; filename="{name}"'
        return resp
    if ref.endswith(".json"):
        return RedirectResponse(i18n.prefix(request.state.lang) + f"/papers/{ref[:-5]}?format=json", 301)
    return await page("paper.html", lambda r: build_paper(ctx(r), ref))(request)


async def resolve_page(request: Request) -> Response:
    """The resolve page: GET shows the form; POST (a pasted text or an uploaded file) resolves it
    and shows the report, or with ``format=bib`` sends the cleaned file."""
    if request.method != "POST":
        return await page("resolve.html", lambda r: build_resolve(ctx(r)))(request)
    text = ""
    try:
        async with request.form(max_files=1, max_fields=10, max_part_size=MAX_BYTES + 1) as form:
            upload = form.get("file")
            if isinstance(upload, UploadFile) and upload.filename:
                text = decode_upload(await upload.read(MAX_BYTES + 1))
            else:
                pasted = form.get("text")
                text = decode_upload((pasted if isinstance(pasted, str) else "").encode())
        data = build_resolve(ctx(request), text)
    except ServiceError as e:
        data = build_resolve(ctx(request)) | {"text": text, "error": e.message, "error_detail": e.detail}
        return render(request, "resolve.html", data, status=e.status)
    except MultiPartException as e:
        data = build_resolve(ctx(request)) | {"error": N_("This bibliography is too large."),
                                              "error_detail": str(e)}
        return render(request, "resolve.html", data, status=413)
    if request.query_params.get("format") == "bib":
        return Response(data["report"]["bibtex"], media_type="application/x-bibtex; charset=utf-8",
                        headers={"cache-control": "no-store",
                                 "content-disposition": 'attachment; filename="resolved.bib"'})
    return render(request, "resolve.html", data, max_age=0)


async def healthz(request: Request) -> Response:
    """200 "ok" and a line per part while this server should get traffic; 503 when its store
    fails or it is draining (`paperlist drain`: the load balancer takes it out before a restart)."""
    home, settings = request.app.state.home, request.app.state.settings
    headers = {"cache-control": "no-store"}
    if settings.drain_file is not None and settings.drain_file.exists():
        return PlainTextResponse("draining\n", status_code=503, headers=headers)
    try:
        home.store.check()
    except Exception as e:  # noqa: BLE001 - a health check reports, it does not raise
        return PlainTextResponse(f"store error: {e}", status_code=503, headers=headers)
    body = f"ok\nsearch: {'ready' if home.searcher is not None else 'no index'}\n{semantic_lines(home)}"
    if settings.follow_root is not None:
        body += follow_status(settings.follow_root, settings.follow_every)[1] + "\n"
    return PlainTextResponse(body, headers=headers)


def semantic_lines(home: Home) -> str:
    """/healthz's lines on search by meaning: what search uses now, and the background job."""
    s = semantic_status(home)
    if s["available"]:
        out = (f"semantic: ready, {s['share']:.0%} of papers ({s['covered']:,} of {s['papers']:,}), "
               f"{s['model']}\n")
    else:
        out = f"semantic: unavailable ({s['unavailable']})\n"
    job = s["job"]
    if job is not None:
        out += (f"embedding: {job['state']}, {job['share']:.0%} of papers "
                f"({job['covered']:,} of {job['papers']:,})")
        if job["running"]:
            out += f", {job['rate']:.0f}/s"
            if job["eta_s"] is not None:
                out += f", about {max(1, round(job['eta_s'] / 60))} min left"
        out += "\n"
    return out


_STATIC_TYPES = {"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
                 "svg": "image/svg+xml"}


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC_FILES:
        raise HTTPException(404)
    data = resources.files("paperlist.web").joinpath("static", name).read_bytes()
    versioned = request.query_params.get("v") == static_version(name)
    resp = cached_response(request, data, _STATIC_TYPES[name.rsplit(".", 1)[1]],
                           max_age=31_536_000 if versioned else 3600)
    if versioned:
        resp.headers["cache-control"] += ", immutable"
    return resp


async def favicon(request: Request) -> Response:
    return RedirectResponse("/static/favicon.svg", status_code=301)


async def robots(request: Request) -> Response:
    return PlainTextResponse("User-agent: *\nDisallow: /search\nDisallow: /lists\nDisallow: /shared\n"
                             "Disallow: /en/lists\nDisallow: /en/shared\nAllow: /\n")


def routes() -> list[Route]:
    return [
        Route("/", page("home.html", lambda r: build_home(ctx(r)))),
        Route("/search", search),
        Route("/conferences", page("conferences.html", lambda r: build_conferences(ctx(r)))),
        Route("/coverage", page("coverage.html", lambda r: build_coverage(ctx(r)))),
        Route("/conferences/{venue}",
              page("venue.html", lambda r: build_venue(ctx(r), r.path_params["venue"]))),
        Route("/conferences/{venue}/{year}", page("venue_year.html", lambda r: build_venue_year(
            ctx(r), r.path_params["venue"], r.path_params["year"], r.query_params))),
        Route("/conferences/{venue}/{year}/stats", page("stats.html", lambda r: build_conference_stats(
            ctx(r), r.path_params["venue"], r.path_params["year"]))),
        Route("/conferences/{venue}/{year}/topics",
              page("venue_topics.html", lambda r: build_venue_year_topics(
                  ctx(r), r.path_params["venue"], r.path_params["year"]))),
        Route("/conferences/{venue}/{year}/topics/{slug}", page("topic.html", lambda r: build_topic(
            ctx(r), r.path_params["slug"], r.query_params, r.path_params["venue"], r.path_params["year"]))),
        Route("/topics", page("topics.html", lambda r: build_topics(ctx(r)))),
        Route("/topics/{slug}", page("topic.html", lambda r: build_topic(ctx(r), r.path_params["slug"],
                                                                        r.query_params))),
        Route("/papers/{ref:path}", paper_or_bib),
        Route("/authors/{key:path}",
              page("author.html", lambda r: build_author(ctx(r), r.path_params["key"], r.query_params))),
        Route("/resolve", resolve_page, methods=["GET", "HEAD", "POST"]),
        Route("/lists", page("lists.html", lambda r: build_start(ctx(r)))),
        Route("/lists/{token}",
              page("reading_list.html", lambda r: build_list(ctx(r), r.path_params["token"], None))),
        Route("/lists/{token}/{list_id}", page("reading_list.html", lambda r: build_list(
            ctx(r), r.path_params["token"], r.path_params["list_id"]))),
        Route("/shared/{share}",
              page("reading_list.html", lambda r: build_shared(ctx(r), r.path_params["share"]))),
        *form_routes(),
        Route("/api", page("api.html", lambda r: build_api_docs(ctx(r), r.app.openapi()))),
        Route("/healthz", healthz),
        Route("/static/{name}", static),
        Route("/favicon.ico", favicon),
        Route("/robots.txt", robots),
    ]


# --- errors outside the builders (no route, wrong method, crashes) --------------------------
async def _http_error(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    if is_api_path(request.url.path):
        return http_problem(request, status, getattr(exc, "headers", None))
    if not hasattr(request.state, "lang"):
        request.state.lang, request.state.route_path = i18n.split_lang(request.url.path)
    if status == 404:
        e: ServiceError = ServiceError(N_("There is no page at this address."),
                                       request.state.route_path[:120])
    elif status == 400:
        e = BadRequest(N_("A parameter has a value this page does not understand."))
    else:
        e = ServiceError(N_("Something went wrong on our side. Please try again."))
    e.status = status
    return error_page(request, e)


def error_handlers() -> dict[Any, Callable[..., Any]]:
    return {HTTPException: _http_error, 500: _http_error}
