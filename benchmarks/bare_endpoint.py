"""The baseline our search API is measured against: a bare Starlette endpoint over the project's
own tantivy index, doing the least a search endpoint can do (issues 22 and 24).

    PAPERLIST_HOME=/tmp/h22 .venv/bin/python -m uvicorn bare_endpoint:app --app-dir benchmarks \\
        --workers 2 --port 8799 --no-access-log
    curl 'http://127.0.0.1:8799/search?q=graph+attention'

``GET /search?q=…``: the query parsed by tantivy over ``title`` and ``text`` (every word
optional, BM25), the top 10 read from the stored documents, returned as JSON (id, title, venue,
year, score). No facets, snippets, fallback tiers, ranking prior, cache, limits or middleware.

``GET /search_full?q=…``: the same work our API shows, done the plainest way: every word required
(our first tier), BM25 over title and text, the top 20 with the total, the four facets counted in
one aggregation over the matches (venue, year, status, topic; our sizes), and each hit's title and
an abstract passage escaped with the query's words marked (one regex per query, the passage cut
around the first match). No fallback tiers, ranking extras, typo tolerance, cache or middleware.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import orjson
import tantivy
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from paperlist.index import fulltext

_HOME = Path(os.environ.get("PAPERLIST_HOME", "."))
_ROOT = fulltext.index_root(_HOME)
_name = fulltext.current_generation(_ROOT)
if _name is None:
    raise SystemExit(f"no search index in {_ROOT}")
_index = fulltext.open_index(_ROOT / _name)
_searcher = _index.searcher()


def _hit(score: float, addr: tantivy.DocAddress) -> dict[str, object]:
    blob = _searcher.doc(addr).get_first("doc")
    d = orjson.loads(blob) if blob else {}
    return {"id": d.get("id"), "title": d.get("title"), "venue": d.get("venue"), "year": d.get("year"),
            "score": score}


async def search(request: Request) -> Response:
    q = request.query_params.get("q", "")
    try:
        query = _index.parse_query(q, ["title", "text"])
    except ValueError:
        return Response(b'{"error":"bad query"}', 400, media_type="application/json")
    res = _searcher.search(query, 10)
    body = {"total": res.count, "hits": [_hit(s, a) for s, a in res.hits]}
    return Response(orjson.dumps(body), media_type="application/json")


_FACETS = {"venue": 500, "year": 300, "status": 20, "topic": 100}
_WORDS = re.compile(r"[^\W_]+")


def _marked(text: str, words: re.Pattern[str] | None, width: int | None = None) -> str:
    start = 0
    if width is not None and len(text) > width:
        m = words.search(text) if words else None
        start = max(0, m.start() - 40) if m else 0
        text = text[start:start + width]
    out, pos = [], 0
    for m in words.finditer(text) if words else ():
        out += [html.escape(text[pos:m.start()]), "<mark>", html.escape(m.group()), "</mark>"]
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return ("…" if start else "") + "".join(out)


async def search_full(request: Request) -> Response:
    q = request.query_params.get("q", "")
    words = [w.lower() for w in _WORDS.findall(q)]
    if not words:
        return Response(b'{"error":"no words"}', 400, media_type="application/json")
    try:
        query = _index.parse_query(" ".join(f"+{w}" for w in words), ["title", "text"])
    except ValueError:
        return Response(b'{"error":"bad query"}', 400, media_type="application/json")
    res = _searcher.search(query, 20)
    agg = _searcher.aggregate(query, {k: {"terms": {"field": k, "size": n}} for k, n in _FACETS.items()})
    pattern = re.compile(r"(?<![^\W_])(?:" + "|".join(map(re.escape, sorted(set(words), key=len, reverse=True)))
                         + r")[^\W_]*", re.IGNORECASE)
    hits = []
    for score, addr in res.hits:
        blob = _searcher.doc(addr).get_first("doc")
        d = orjson.loads(blob) if blob else {}
        hits.append({"id": d.get("id"), "title": d.get("title"), "authors": d.get("authors"), "venue": d.get("venue"),
                     "year": d.get("year"), "status": d.get("status"), "score": score,
                     "title_html": _marked(d.get("title_plain") or "", pattern),
                     "snippet_html": _marked(d.get("abstract") or "", pattern, 260)})
    facets = {k: [{"value": b["key"], "count": b["doc_count"]} for b in agg[k]["buckets"]] for k in _FACETS}
    return Response(orjson.dumps({"total": res.count, "hits": hits, "facets": facets}),
                    media_type="application/json")


async def healthz(request: Request) -> Response:
    return Response(b"ok")


app = Starlette(routes=[Route("/search", search), Route("/search_full", search_full),
                       Route("/healthz", healthz)])
