"""Turning a builder's dict into a response: the HTML page (Jinja2, autoescaped, one environment per
language with its gettext catalog) or its JSON twin, with ETag / Cache-Control and 304s."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlencode

import orjson
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import Response

from ..richtext import render_inline
from . import i18n, labels
from .tracks import track_label

STATIC_FILES = ("site.css", "site.js", "favicon.svg")


@cache
def static_version(name: str) -> str:
    """A short content hash, so static URLs can be cached forever and still change on deploy."""
    data = resources.files("paperlist.web").joinpath("static", name).read_bytes()
    return hashlib.blake2b(data, digest_size=5).hexdigest()


def static_url(name: str) -> str:
    return f"/static/{name}?v={static_version(name)}"


def _lang_href(path_qs: str, lang: str) -> str:
    return (i18n.prefix(lang) + path_qs if path_qs != "/" or lang == i18n.DEFAULT_LANG
            else i18n.prefix(lang) + "/")


@cache
def environment(lang: str) -> Environment:
    """The Jinja2 environment of one language (autoescape on for every template)."""
    env = Environment(loader=PackageLoader("paperlist.web", "templates"),
                      autoescape=select_autoescape(default=True), extensions=["jinja2.ext.i18n"],
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False)
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    pre = i18n.prefix(lang)
    env.globals.update(
        lang=lang, html_lang=i18n.HTML_LANG[lang], static=static_url,
        u=lambda path: pre + path if path != "/" else (pre + "/" if pre else "/"),
        num=lambda n: i18n.number(n, lang), compact=lambda n: i18n.compact(n, lang),
        tick=lambda n: i18n.tick(n, lang),
        date=lambda v: i18n.date(v, lang), share=lambda part, total: i18n.share(part, total, lang),
        dec=lambda x, digits=2: i18n.decimal(x, lang, digits),
        pct=lambda x, digits=1: i18n.percent(x, lang, digits),
        scores=lambda xs: " · ".join(i18n.number(x, lang) for x in xs),
    )
    env.globals.update(status_labels=labels.STATUS, status_series=labels.SERIES,
                       dimension=labels.dimension_label)
    more = i18n.translations(lang).gettext("and %(n)s more")

    def author_links(authors: list[dict[str, str]], limit: int = 14) -> Markup:
        """Linked author names (the hottest loop of list pages: plain Python, not a macro)."""
        parts = [f'<a href="{escape(pre + a["href"])}">{escape(a["name"])}</a>' for a in authors[:limit]]
        html = ", ".join(parts)
        if len(authors) > limit:
            html += ', <span class="more">' + str(escape(more % {"n": len(authors) - limit})) + "</span>"
        return Markup(html)

    env.globals["author_links"] = author_links
    env.globals["compact_rows"] = _compact_rows(lang)
    env.filters["num"] = lambda n: i18n.number(n, lang)
    # Translating a value (a label code from labels.py) as plain text: unlike _() in newstyle
    # gettext, the result is not marked safe, so even an unexpected value stays escaped.
    env.filters["tr"] = lambda s: str(i18n.translations(lang).gettext(str(s)))
    env.filters["track"] = lambda s: str(i18n.translations(lang).gettext(track_label(s)))
    return env


# How many authors a row of a whole conference-year list names before "+N" (issue 46 item 2: with
# three, NeurIPS 2025's 5,824 rows alone were 350 KB gzip; with two the page is about 315 KB).
COMPACT_AUTHORS = 2
# Rows per block of a whole list. Each block is an <ol> the browser lays out only near the screen
# (content-visibility: auto, site.css). On every row instead, Chromium kept one intersection
# observer target and fired one event per row: 5,824 of each on NeurIPS 2025, the load event at
# ~470 ms; in blocks of 100-400 it is ~260 ms (benchmarks/page_load_bench.py).
ROWS_BLOCK = 200


def _compact_rows(lang: str) -> Callable[[list[Mapping[str, Any]], bool, int], Markup]:
    """The rows of a whole conference-year list ("all"), in numbered blocks of ROWS_BLOCK: per paper
    its title linked to its page, the first authors and "+N" (all of them on that page), and short
    badges: no per-paper markup that repeats (no ids besides the link, no buttons: site.js builds
    the triage controls from the link). Plain Python for the 5,000-paper loop; every paper field is
    escaped."""
    pre = i18n.prefix(lang)
    gettext = i18n.translations(lang).gettext
    status = {k: str(escape(gettext(v))) for k, v in labels.STATUS.items()}
    award = str(escape(gettext("Award")))
    rating = gettext("Rating %(r)s")

    def rows(papers: list[Mapping[str, Any]], with_status: bool = True, start: int = 1) -> Markup:
        out = []
        for i, p in enumerate(papers):
            if i % ROWS_BLOCK == 0:
                out.append(("</ol>\n" if i else "") + f'<ol start="{start + i}">')
            authors = p["authors"]
            names = ", ".join(str(escape(a["name"])) for a in authors[:COMPACT_AUTHORS])
            if len(authors) > COMPACT_AUTHORS:
                names += f" +{len(authors) - COMPACT_AUTHORS}"
            badges = ""
            st = p.get("status")
            if with_status and st in status and st != "unknown":
                badges += f' <b class="st-{st}">{status[st]}</b>'
            if p.get("track") and p["track"] != "main":
                badges += f' <b class="track">{escape(gettext(track_label(p["track"])))}</b>'
            if p.get("award"):
                badges += f' <b class="award">{award}</b>'
            if isinstance(p.get("rating"), (int, float)):
                r = escape(rating % {"r": i18n.decimal(p["rating"], lang, 2)})
                badges += f' <b class="rating">★ {r}</b>'
            href = escape(pre + p["href"])
            out.append(f'<li><a href="{href}">{render_inline(p["title"])}</a> {names}{badges}</li>')
        return Markup("\n".join(out) + ("\n</ol>" if papers else ""))

    return rows


def _with_format(path: str, query: Mapping[str, Any] | list[tuple[str, str]], fmt: str) -> str:
    items = [(k, v) for k, v in (query.items() if isinstance(query, Mapping) else query) if k != "format"]
    return path + "?" + urlencode(items + [("format", fmt)])


def page_context(request: Request) -> dict[str, Any]:
    """What base.html needs about the request: the language switch keeps path and query."""
    lang = request.state.lang
    path = request.state.route_path
    items = list(request.query_params.multi_items())
    qs = ("?" + urlencode(items)) if items else ""
    other = [{"lang": lg, "href": _lang_href(path + qs, lg), "active": lg == lang} for lg in i18n.LANGS]
    # The canonical address drops parameters that only change the view of one resource.
    canonical = i18n.prefix(lang) + path if path.startswith(("/papers/", "/authors/")) \
        or path.count("/") == 2 and path.startswith("/conferences/") else None
    return {"path": path, "path_qs": path + qs, "languages": other, "canonical": canonical,
            "alternates": [{"hreflang": i18n.HTML_LANG[lg], "href": _lang_href(path + qs, lg)}
                           for lg in i18n.LANGS],
            "json_href": i18n.prefix(lang) + _with_format(path, items, "json")}


def cached_response(request: Request, body: bytes, media_type: str, status: int = 200,
                    max_age: int = 300) -> Response:
    """A response with a content ETag; 304 when the client already has it."""
    etag = '"' + hashlib.blake2b(body, digest_size=10).hexdigest() + '"'
    headers = {"etag": etag, "cache-control": f"public, max-age={max_age}" if status == 200 else "no-store",
               "vary": "Accept-Encoding"}
    if status == 200 and etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, status_code=status, media_type=media_type, headers=headers)


def render_html(request: Request, template: str, data: dict[str, Any], status: int = 200,
                max_age: int = 300) -> Response:
    env = environment(request.state.lang)
    html = env.get_template(template).render(data=data, **page_context(request))
    return cached_response(request, html.encode(), "text/html; charset=utf-8", status, max_age)


def render_json(request: Request, data: Any, status: int = 200, max_age: int = 300) -> Response:
    body = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    return cached_response(request, body, "application/json", status, max_age)


def wants_json(request: Request) -> bool:
    return request.query_params.get("format") == "json"


def render(request: Request, template: str, data: dict[str, Any], status: int = 200,
           max_age: int = 300) -> Response:
    """The page or, with ``?format=json``, its JSON twin — both from the same dict."""
    if wants_json(request):
        return render_json(request, data, status, max_age)
    return render_html(request, template, data, status, max_age)
