"""Queries nobody asked before: /api/v1/search side by side with the bare tantivy endpoint (issue 24).

    .venv/bin/python benchmarks/distinct_bench.py --home /tmp/h22 --seconds 20
    .venv/bin/python benchmarks/distinct_bench.py --home HOME --seconds 2 --mixes vocab --json   # tests

In one run, for each query mix (after ``--warmup`` seconds of other queries of the mix on every
server) and connection count, wrk (2 threads, keep-alive, 2 s timeout)
sends each server a stream of distinct queries read from a file (every connection walks the file
from its own random start, so repeats are rare), one server after the other:

- ``ours``: ``paperlist serve --workers 2``, ``/api/v1/search?q=…`` (20 hits, highlighted titles and
  snippets, total, facets, spelling check), with its per-worker result cache (``ours``) and
  without it (``ours-nocache``, PAPERLIST_SEARCH_CACHE=0);
- ``bare``: ``benchmarks/bare_endpoint.py`` under uvicorn with 2 workers, ``/search?q=…``: the
  query parsed by tantivy over title and text, the top 10 as JSON;
- ``bare-full``: the same server's ``/search_full?q=…``: the work our API shows done the plainest
  way (every word required, top 20 with the total, the four facets in one aggregation, titles
  and abstract passages escaped with the words marked), so the ratio to it is our overhead
  rather than the work the page needs.

Mixes (``--mixes``): ``vocab`` three random words of a 120-word ML vocabulary; ``titles`` real
titles from the store; ``refs`` pasted reference lines (authors, year, title, venue); ``zh``
Chinese topic queries (the glossary's terms, two at a time); ``filtered`` vocabulary queries with a
venue and a year; ``page2`` vocabulary queries, second page. The bare endpoint gets the same
words (it has no filters or pages). It prints req/s, p50, p99, non-2xx and our req/s over the
bare endpoint's, per mix and connection count.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from load_bench import LUA_DONE, Server, wrk  # noqa: E402
from soak_bench import VOCAB  # noqa: E402

from paperlist.search import glossary  # noqa: E402

MIXES = ("vocab", "titles", "refs", "zh", "filtered", "page2")
N_QUERIES = 20_000
VENUES = [("neurips", 2024), ("iclr", 2025), ("icml", 2024), ("cvpr", 2024), ("acl", 2024), ("emnlp", 2023)]

LUA = """
local paths = {}
for line in io.lines("FILE") do paths[#paths + 1] = line end
local counter = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {}; noretry = 0; math.randomseed(os.time() * 1000 + counter); counter = counter + 1;
  pos = math.random(#paths) end
request = function()
  pos = pos % #paths + 1
  return wrk.format("GET", paths[pos])
end
LUA_DONE"""


def queries(home: Path, mix: str, rng: random.Random) -> list[tuple[str, str]]:
    """(our path, the bare endpoint's path) for ``N_QUERIES`` queries of one mix."""
    def words(n: int = 3) -> str:
        return " ".join(rng.choice(VOCAB) for _ in range(n))

    out: list[tuple[str, dict[str, Any]]] = []
    if mix in ("titles", "refs"):
        db = sqlite3.connect(f"file:{home / 'paperlist.db'}?mode=ro", uri=True)
        every = db.execute("SELECT p.id, coalesce(p.title_plain, p.title), p.year, p.venue FROM papers p"
                           " ORDER BY p.id").fetchall()
        rows = rng.sample(every, min(N_QUERIES, len(every)))      # the same sample for the same seed
        names: dict[str, list[str]] = {}
        if mix == "refs":
            for pid, name in db.execute("SELECT paper_id, name FROM paper_authors WHERE position < 3"):
                names.setdefault(pid, []).append(name)
        for pid, title, year, venue in rows:
            if mix == "titles":
                out.append((title, {}))
            else:
                who = ", ".join(names.get(pid, [])[:3]) or "Anonymous"
                out.append((f"{who}. {year}. {title}. In Proceedings of {venue.upper()}.", {}))
    elif mix == "zh":
        terms = [k for k, v in glossary.glossary().items() if v and len(k) >= 2]
        out = [(f"{rng.choice(terms)} {rng.choice(terms)}", {}) for _ in range(N_QUERIES)]
    else:
        for _ in range(N_QUERIES):
            params: dict[str, Any] = {}
            if mix == "filtered":
                venue, year = rng.choice(VENUES)
                params = {"venue": venue, "year_from": year, "year_to": year}
            elif mix == "page2":
                params = {"page": 2}
            out.append((words(), params))
    paths = []
    for q, params in out:
        extra = "".join(f"&{k}={v}" for k, v in params.items())
        paths.append((f"/api/v1/search?q={quote_plus(q)}{extra}", f"/search?q={quote_plus(q)}"))
    return paths


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--connections", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--mixes", nargs="+", default=list(MIXES), choices=MIXES)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--warmup", type=int, default=3, help="seconds of other queries of each mix first, per server")
    ap.add_argument("--no-nocache", action="store_true", help="leave out ours without its cache")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    here = Path(__file__).resolve().parent
    bare_cmd = [sys.executable, "-m", "uvicorn", "bare_endpoint:app", "--app-dir", str(here), "--port", "{port}",
                "--workers", str(a.workers), "--no-access-log", "--log-level", "warning"]
    rng = random.Random(24)
    rows: list[dict[str, Any]] = []
    servers: dict[str, Server] = {}
    try:
        servers["ours"] = Server(a.home, a.workers, 10.0)
        if not a.no_nocache:
            servers["ours-nocache"] = Server(a.home, a.workers, 10.0, env={"PAPERLIST_SEARCH_CACHE": "0"})
        servers["bare"] = Server(a.home, a.workers, 10.0, cmd=bare_cmd, env={"PAPERLIST_HOME": str(a.home)})
        with tempfile.TemporaryDirectory() as tmp:
            for mix in a.mixes:
                files = {}
                for kind, paths in (("", queries(a.home, mix, rng)),
                                    ("warm-", queries(a.home, mix, random.Random(f"warm-{mix}")))):
                    for side, i in (("ours", 0), ("bare", 1), ("bare-full", 1)):
                        f = Path(tmp) / f"{kind}{mix}-{side}.txt"
                        lines = [p[i].replace("/search?", "/search_full?", 1) if side == "bare-full" else p[i]
                                 for p in paths]
                        f.write_text("\n".join(lines) + "\n")
                        lua = Path(tmp) / f"{kind}{mix}-{side}.lua"
                        lua.write_text(LUA.replace("LUA_DONE", LUA_DONE).replace("FILE", str(f)))
                        files[kind + side] = lua
                names = [*servers, "bare-full"]       # (bare-full: the bare server's other route)
                if a.warmup > 0:
                    # other queries of the mix first, on every server: the index pages its words
                    # need are read from disk by whichever server comes first otherwise, and that
                    # one alone would pay for them (a titles p99 of 145 ms against 15 ms)
                    for name in names:
                        server = servers["bare" if name == "bare-full" else name]
                        wrk(server.url, 8, a.warmup, files["warm-" + (name if name.startswith("bare") else "ours")])
                for c in a.connections:
                    # rotate the order so that no server is always measured first
                    k = (len(rows) // max(1, len(names))) % len(names)
                    for name in names[k:] + names[:k]:
                        server = servers["bare" if name == "bare-full" else name]
                        r = wrk(server.url, c, a.seconds, files[name if name.startswith("bare") else "ours"])
                        r.update(mix=mix, server=name)
                        r["non_2xx"] = sum(n for code, n in r["statuses"].items() if not code.startswith("2"))
                        rows.append(r)
                        if not a.json:
                            print(f"  {mix:<9} {c:>3} conn  {name:<13} {r['rps']:>7.0f} req/s  p50 {r['p50_ms']:6.1f} ms"
                                  f"  p99 {r['p99_ms']:6.1f} ms  non-2xx {r['non_2xx']}  timeouts {r['timeouts']}",
                                  flush=True)
    finally:
        for s in servers.values():
            s.stop()
    table = []
    for mix in a.mixes:
        for c in a.connections:
            got = {r["server"]: r for r in rows if r["mix"] == mix and r["connections"] == c}
            bare = got["bare"]["rps"] or 1.0
            table.append({"mix": mix, "connections": c, **{f"{n}_rps": g["rps"] for n, g in got.items()},
                          **{f"{n}_p99_ms": g["p99_ms"] for n, g in got.items()},
                          "ratio": round(got["ours"]["rps"] / bare, 2),
                          "ratio_full": round(got["ours"]["rps"] / (got["bare-full"]["rps"] or 1.0), 2),
                          **({"ratio_nocache": round(got["ours-nocache"]["rps"] / bare, 2)}
                             if "ours-nocache" in got else {})})
    if a.json:
        print(json.dumps({"rows": rows, "table": table}))
        return
    print("\n| mix | conn | ours req/s (p99) | no cache req/s (p99) | bare req/s (p99) | ratio | ratio, no cache "
          "| bare with facets and snippets req/s (p99) | ratio to it |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in table:
        nc = (f"{t['ours-nocache_rps']:,.0f} ({t['ours-nocache_p99_ms']:.1f} ms)" if "ours-nocache_rps" in t
              else "–")
        print(f"| {t['mix']} | {t['connections']} | {t['ours_rps']:,.0f} ({t['ours_p99_ms']:.1f} ms) | {nc} | "
              f"{t['bare_rps']:,.0f} ({t['bare_p99_ms']:.1f} ms) | {t['ratio']:.2f} | {t.get('ratio_nocache', '–')} | "
              f"{t['bare-full_rps']:,.0f} ({t['bare-full_p99_ms']:.1f} ms) | {t['ratio_full']:.2f} |")


if __name__ == "__main__":
    main()
