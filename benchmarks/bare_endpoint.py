"""The baseline our search API is measured against: a bare Starlette endpoint over the project's
own tantivy index, doing the least a search endpoint can do (issues 22 and 24).

    PAPERLIST_HOME=/tmp/h22 .venv/bin/python -m uvicorn bare_endpoint:app --app-dir benchmarks \\
        --workers 2 --port 8799 --no-access-log
    curl 'http://127.0.0.1:8799/search?q=graph+attention'

``GET /search?q=…``: the query parsed by tantivy over ``title`` and ``text`` (every word
optional, BM25), the top 10 read from the stored documents, returned as JSON (id, title, venue,
year, score). No facets, snippets, fallback tiers, ranking prior, cache, limits or middleware.
"""

from __future__ import annotations

import os
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


async def healthz(request: Request) -> Response:
    return Response(b"ok")


app = Starlette(routes=[Route("/search", search), Route("/healthz", healthz)])
