"""Site benchmark: server time of `/search` (HTML), `/papers/{id}`, a conference-year's statistics
page (`/conferences/iclr/2023/stats`, or the newest ICLR year with statistics), its full list, and
every topic's page on a full home.

    .venv/bin/python benchmarks/web_bench.py --home data --requests 400

"Server time" is the time the ASGI app takes from receiving a request to sending its last byte
(routing, the store or search engine, templates, gzip, headers), measured in-process so the shared
machine's network stack and client do not blur it. A second pass measures the same requests over
HTTP to a real uvicorn on 127.0.0.1 (one client, sequential), to show what a browser sees.
Paper ids are a fixed random sample of the store; queries are a fixed list of realistic searches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

QUERIES = [
    "diffusion model", "graph neural network", "large language model reasoning", "contrastive learning",
    "reinforcement learning from human feedback", "vision transformer", "federated learning privacy",
    "neural radiance fields", "in-context learning", "knowledge distillation", "Yoshua Bengio", "Sergey Levine",
    "speculative decoding", "retrieval augmented generation", "optimal transport", "bayesian optimization",
    "adversarial robustness", "mixture of experts", "3d object detection", "point cloud segmentation",
    "machine translation low resource", "causal inference", "graph transformer", "protein structure",
    "time series forecasting", "diffusion language model", "sparse attention", "continual learning",
    "meta learning few-shot", "self-supervised speech",
]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def summary(xs: list[float]) -> dict[str, float]:
    return {"n": len(xs), "p50": round(statistics.median(xs), 2), "p95": round(pct(xs, 95), 2),
            "p99": round(pct(xs, 99), 2), "max": round(max(xs), 2)}


async def asgi_get(app: Any, path: str) -> tuple[int, int, float]:
    """(status, body bytes, ms) of one GET through the whole ASGI stack."""
    raw_path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": raw_path, "raw_path": raw_path.encode(), "query_string": query.encode(),
             "root_path": "", "headers": [(b"host", b"bench"), (b"accept-encoding", b"gzip")],
             "client": ("127.0.0.1", 1), "server": ("bench", 80)}
    status = 0
    size = 0

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, size
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            size += len(message.get("body", b""))

    t0 = time.perf_counter()
    await app(scope, receive, send)
    return status, size, (time.perf_counter() - t0) * 1000


def in_process(app: Any, paths: list[str]) -> tuple[list[float], list[int]]:
    async def run() -> tuple[list[float], list[int]]:
        times, sizes = [], []
        for p in paths:
            status, size, ms = await asgi_get(app, p)
            if status != 200:
                raise SystemExit(f"{p}: HTTP {status}")
            times.append(ms)
            sizes.append(size)
        return times, sizes
    return asyncio.run(run())


def over_http(app: Any, paths: list[str]) -> list[float]:
    import http.client

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    while not srv.started:
        time.sleep(0.05)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    try:
        for p in paths:
            t0 = time.perf_counter()
            conn.request("GET", p, headers={"Accept-Encoding": "gzip"})
            r = conn.getresponse()
            r.read()
            times.append((time.perf_counter() - t0) * 1000)
            if r.status != 200:
                raise SystemExit(f"{p}: HTTP {r.status}")
    finally:
        conn.close()
        srv.should_exit = True
        t.join(timeout=10)
    return times


def _stats_path(store: Any) -> str | None:
    """The statistics page measured: ICLR 2023 (the figure BENCHMARKS.md quotes), else the newest
    ICLR year with statistics; None for a home without them (or an older checkout)."""
    if not hasattr(store, "venue_stats"):
        return None
    years = [y for y, _ in store.venue_stats("iclr")]
    if not years:
        return None
    year = 2023 if 2023 in years else years[-1]
    return f"/conferences/iclr/{year}/stats"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", default="data", help="a home with the full store and index")
    ap.add_argument("--requests", type=int, default=400, help="requests per route and pass")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    from paperlist.web.app import Settings, create_app

    app = create_app(Settings(home=Path(args.home)))
    # The service layer's Home holds the store and the searcher (app.state.store / .searcher before
    # it: kept so the benchmark also runs on an older checkout, for side-by-side figures).
    holder = getattr(app.state, "home", app.state)
    store, searcher = holder.store, holder.searcher
    rng = random.Random(args.seed)
    ids = store.paper_ids()
    n = args.requests
    routes: dict[str, list[str]] = {
        "/papers/{id}": [f"{'/en' if i % 2 else ''}/papers/{pid}" for i, pid in enumerate(rng.sample(ids, n))],
    }
    stats = _stats_path(store)
    if stats is not None:                                  # one page, both languages, as a reader rereads it
        routes["/conferences/{venue}/{year}/stats"] = [f"{'/en' if i % 2 else ''}{stats}" for i in range(n)]
    else:
        print("note: no conference-year statistics in this home; the stats page is not measured",
              file=sys.stderr)
    venue, year = store.db.execute(                        # the largest conference-year (ICLR 2025)
        "SELECT venue, year FROM papers GROUP BY venue, year ORDER BY count(*) DESC LIMIT 1").fetchone()
    routes["/conferences/{venue}/{year}"] = [f"{'/en' if i % 2 else ''}/conferences/{venue}/{year}"
                                             for i in range(n)]
    routes["/conferences/{venue}/{year}?per_page=all"] = [
        f"{'/en' if i % 2 else ''}/conferences/{venue}/{year}?per_page=all" for i in range(min(n, 20))]
    # every topic and area page, both languages (issue 46: ~1 s each before their statistics were
    # stored and their papers read in index order); the warm-up below covers the first 50 only, so
    # most of these are a slug's first visit
    from paperlist.taxonomy import taxonomy

    tax = taxonomy()
    slugs = [t.slug for t in (*tax.areas, *tax.topics)]
    routes["/topics/{slug}"] = [f"{'/en' if i % 2 else ''}/topics/{slugs[(i // 2) % len(slugs)]}"
                                for i in range(max(n, 2 * len(slugs)))]
    # later pages of the topics that have them (20 papers a page)
    deep = [s for s in slugs if store.topic_paper_count(tax.leaves(s)) >= 6 * 20]
    if deep:
        routes["/topics/{slug}?page=…"] = [f"/en/topics/{deep[i % len(deep)]}?page={2 + i % 5}" for i in range(n)]
    if searcher is not None:
        routes["/search?q=…"] = [f"{'/en' if i % 2 else ''}/search?q={quote(QUERIES[i % len(QUERIES)])}"
                                 for i in range(n)]
    else:
        print("note: no search index in this home; /search is not measured (run 'paperlist index')")
    out: dict[str, Any] = {"home": str(Path(args.home).resolve()), "papers": len(ids), "routes": {},
                           "stats_page": stats}
    for name, paths in routes.items():
        in_process(app, paths[: min(50, n)])                  # warm caches, templates, the index
        times, sizes = in_process(app, paths)
        http_times = over_http(app, paths)
        out["routes"][name] = {"server_ms": summary(times), "http_ms": summary(http_times),
                               "gzip_kb_median": round(statistics.median(sizes) / 1024, 1)}
    if searcher is not None:                               # the engine alone, for the same queries
        from paperlist.search import SearchRequest

        engine = []
        for i in range(n):
            t0 = time.perf_counter()
            searcher.search(SearchRequest(q=QUERIES[i % len(QUERIES)]))
            engine.append((time.perf_counter() - t0) * 1000)
        out["search_engine_ms"] = summary(engine)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['papers']:,} papers in {out['home']}" + (f"; stats page {stats}" if stats else ""))
    w = max(16, *(len(k) for k in out["routes"]))
    print(f"{'route':<{w}} {'server p50':>10} {'p95':>8} {'p99':>8} {'max':>8}   {'HTTP p50':>8} {'p95':>8}  gzip KB")
    for name, r in out["routes"].items():
        s, h = r["server_ms"], r["http_ms"]
        print(f"{name:<{w}} {s['p50']:>8.2f}ms {s['p95']:>6.2f}ms {s['p99']:>6.2f}ms {s['max']:>6.2f}ms   "
              f"{h['p50']:>6.2f}ms {h['p95']:>6.2f}ms  {r['gzip_kb_median']:>6}")
    if "search_engine_ms" in out:
        e = out["search_engine_ms"]
        print(f"{'(engine alone)':<{w}} {e['p50']:>8.2f}ms {e['p95']:>6.2f}ms {e['p99']:>6.2f}ms {e['max']:>6.2f}ms"
              "   Searcher.search() for the same queries, no page")


if __name__ == "__main__":
    main()
