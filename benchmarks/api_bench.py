"""The search API under load, side by side with datasette over SQLite FTS5 on the same papers.

    apt-get install wrk        # the load generator (Debian package)
    .venv/bin/python benchmarks/api_bench.py --home /tmp/api-home --seconds 10

In one run, one after the other, wrk sends each query for ``--seconds`` over 8 keep-alive
connections (2 threads) to:

- ``datasette``: datasette serving a copy of the papers (id, title, authors, abstract, venue, year)
  in SQLite with an FTS5 index, built in a temporary directory from the store (our store is never
  modified), through its table search JSON: ``/papers/papers.json?_search=Q&_size=20``. datasette
  is installed in a virtualenv of its own (``--datasette-venv``, created on first use), never in
  paperlist's.
- ``ours``: ``paperlist serve`` (uvicorn, ``--workers``), ``/api/v1/search?q=Q``: 20 hits with
  highlighted titles and abstract snippets, total, venue / year / status facets over the whole
  match set, a spelling check; as configured by default, with its per-worker search cache.
- ``ours-nocache``: the same with the search cache off (PAPERLIST_SEARCH_CACHE=0): every request
  runs the search engine.

It prints requests/s, p50 and p99 latency, errors (non-2xx and socket errors) and our req/s over
datasette's for each query. The machine is shared: compare the ratios of one run, not absolutes.

``--baseline TREE`` also serves another checkout of paperlist (e.g. the previous commit:
``git worktree add /tmp/before HEAD~1``) over the same home, as ``before`` and ``before-nocache``,
and prints our req/s over its; ``--no-datasette`` leaves datasette out (then the ratios are to the
baseline only).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import quote_plus

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["kv cache compression", "diffusion model", "learning"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float = 120.0) -> None:
    t0 = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() - t0 > timeout:
            raise SystemExit(f"no answer from {url} after {timeout:.0f} s")
        time.sleep(0.3)


# --- the datasette side -----------------------------------------------------------------------------
def build_fts_copy(home: Path, out: Path) -> int:
    """A SQLite file with the papers and an FTS5 index on title, authors and abstract, read from
    the store through its gateway. Returns the number of papers."""
    sys.path.insert(0, str(ROOT))
    from paperlist.store import Store

    store = Store(home / "paperlist.db", readonly=True)
    db = sqlite3.connect(out)
    db.executescript("""
        CREATE TABLE papers (id TEXT PRIMARY KEY, title TEXT, authors TEXT, abstract TEXT, venue TEXT, year INTEGER);
        CREATE VIRTUAL TABLE papers_fts USING fts5(title, authors, abstract, content=[papers], content_rowid='rowid');
    """)
    n = 0
    batch: list[tuple[str, str, str, str, str, int]] = []
    for d in store.iter_index_docs():
        batch.append((d.id, d.title_plain, ", ".join(a for a, _k in d.authors), d.abstract_plain, d.venue, d.year))
        if len(batch) >= 5000:
            db.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?)", batch)
            n += len(batch)
            batch = []
    db.executemany("INSERT INTO papers VALUES (?,?,?,?,?,?)", batch)
    n += len(batch)
    db.execute("INSERT INTO papers_fts(rowid, title, authors, abstract) SELECT rowid, title, authors, abstract FROM papers")
    db.commit()
    db.execute("VACUUM")
    db.close()
    store.close()
    return n


def datasette_bin(venv: Path) -> Path:
    """datasette in its own virtualenv (created and installed on first use)."""
    exe = venv / "bin" / "datasette"
    if not exe.exists():
        print(f"installing datasette into {venv} …", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "datasette"], check=True)
    return exe


# --- load ----------------------------------------------------------------------------------------------
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text.strip())
    return float(m.group(1)) * _UNITS[m.group(2)] if m else float("nan")


def wrk(url: str, seconds: int, connections: int = 8, threads: int = 2) -> dict[str, float]:
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s",
                          url], capture_output=True, text=True, check=True).stdout
    res = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
           "requests": float(re.search(r"(\d+) requests in", out).group(1))}  # type: ignore[union-attr]
    for p in ("50", "99"):
        m = re.search(rf"^\s+{p}%\s+(\S+)", out, re.MULTILINE)
        res[f"p{p}"] = _ms(m.group(1)) if m else float("nan")
    errors = 0
    for pat in (r"Non-2xx or 3xx responses:\s+(\d+)", r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)"):
        m = re.search(pat, out)
        if m:
            errors += sum(int(x) for x in m.groups())
    res["errors"] = errors
    return res


def check_response(url: str, ours: bool) -> str:
    """What one response holds (and for ours: that it has facets and snippets)."""
    with urllib.request.urlopen(url, timeout=60) as r:
        d = json.loads(r.read())
    if ours:
        assert d["facets"]["venue"] and any("<mark>" in h["snippet_html"] for h in d["hits"]), url
        return f"total {d['total']:,}, {len(d['hits'])} hits, facets, snippets"
    return f"{len(d.get('rows', []))} rows, filtered_table_rows_count {d.get('filtered_table_rows_count')}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True, help="A paperlist home with its search index.")
    ap.add_argument("--seconds", type=int, default=20, help="wrk duration per query and server (datasette needs "
                    "several seconds per broad query).")
    ap.add_argument("--workers", type=int, default=2, help="uvicorn workers for our API (2 cores: 2).")
    ap.add_argument("--datasette-venv", type=Path, default=Path.home() / ".cache" / "paperlist-bench" / "datasette-venv")
    ap.add_argument("--workdir", type=Path, help="Keep the FTS5 copy here (reused when present); default: a temp dir.")
    ap.add_argument("--query", action="append", help="Queries (default: the three of issue 6).")
    ap.add_argument("--baseline", type=Path, help="Another paperlist checkout to serve side by side (`before`).")
    ap.add_argument("--no-datasette", action="store_true", help="Leave datasette out.")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    queries = args.query or QUERIES
    with ExitStack() as stack:
        work = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="paperlist-bench-")))
        work.mkdir(parents=True, exist_ok=True)
        fts = work / "papers.db"
        if not fts.exists() and not args.no_datasette:
            t0 = time.perf_counter()
            n = build_fts_copy(args.home, fts)
            print(f"FTS5 copy: {n:,} papers in {time.perf_counter() - t0:.0f} s ({fts.stat().st_size / 1e6:.0f} MB)")
        servers: dict[str, tuple[subprocess.Popen[bytes], str]] = {}

        def start(name: str, cmd: list[str], env: dict[str, str], url: str) -> None:
            proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            stack.callback(proc.wait, 30)
            stack.callback(proc.terminate)
            servers[name] = (proc, url)

        if not args.no_datasette:
            p = free_port()
            start("datasette", [str(datasette_bin(args.datasette_venv)), "serve", "-i", str(fts), "--port", str(p),
                                "--setting", "sql_time_limit_ms", "60000", "--setting", "max_returned_rows", "1000"],
                  {}, f"http://127.0.0.1:{p}/papers/papers.json?_size=20&_search={{q}}")
        trees: list[tuple[str, Path | None]] = [("ours", None)] + ([("before", args.baseline)] if args.baseline else [])
        for label, tree in trees:
            for name, cache in ((label, "2048"), (f"{label}-nocache", "0")):
                p = free_port()
                env = {"PAPERLIST_SEARCH_CACHE": cache} | ({"PYTHONPATH": str(tree.resolve())} if tree else {})
                start(name, [sys.executable, "-m", "paperlist", "--home", str(args.home), "serve", "--port", str(p),
                             "--workers", str(args.workers)], env, f"http://127.0.0.1:{p}/api/v1/search?q={{q}}")
        for name, (_proc, url) in servers.items():
            wait_http(url.format(q="warm"))
            print(f"{name:<13} {url}")
        # Whichever server is measured first under load ran ~25% slower in every run (cold code
        # paths, CPU frequency): load each one briefly before measuring, and rotate the order.
        for name, (_proc, url) in servers.items():
            if name != "datasette":
                wrk(url.format(q=quote_plus(queries[0])), min(3, args.seconds))
        rows = []
        names = list(servers)
        for i, q in enumerate(queries):
            for name in names[i % len(names):] + names[:i % len(names)]:
                url = servers[name][1]
                u = url.format(q=quote_plus(q))
                what = check_response(u, ours=name != "datasette")
                load = os.getloadavg()[0]
                r = wrk(u, args.seconds)
                rows.append((q, name, r))
                # A server may still be working through requests wrk gave up waiting for (datasette
                # takes seconds per broad query): let it finish before the next server is measured.
                time.sleep(min(30.0, max(2.0, 2 * r["p99"] / 1000)))
                print(f"  {q!r:<24} {name:<13} {r['rps']:>8.1f} req/s  p50 {r['p50']:>7.1f} ms  p99 {r['p99']:>7.1f} ms"
                      f"  errors {int(r['errors'])}  load {load:.1f}   ({what})", flush=True)
        print()
        if args.baseline:
            print("| query | ours req/s (p99) | before req/s (p99) | ratio | ours, no cache (p99) | before, no cache (p99) | ratio |")
            print("|---|---|---|---|---|---|---|")
            for q in queries:
                r = {name: res for qq, name, res in rows if qq == q}
                o, b, on, bn = r["ours"], r["before"], r["ours-nocache"], r["before-nocache"]
                print(f"| {q} | {o['rps']:,.0f} ({o['p99']:.1f} ms) | {b['rps']:,.0f} ({b['p99']:.1f} ms) | "
                      f"{o['rps'] / (b['rps'] or 1):.2f} | {on['rps']:,.0f} ({on['p99']:.1f} ms) | "
                      f"{bn['rps']:,.0f} ({bn['p99']:.1f} ms) | {on['rps'] / (bn['rps'] or 1):.2f} |")
        if args.no_datasette:
            return
        print(f"| query | datasette req/s (p99) | ours req/s (p99) | ratio | ours, no cache req/s (p99) | ratio |")
        print("|---|---|---|---|---|---|")
        for q in queries:
            r = {name: res for qq, name, res in rows if qq == q}
            d, o, n = r["datasette"], r["ours"], r["ours-nocache"]
            # datasette may finish no request at all in a short window: its rate is then below 1/seconds
            base = d["rps"] or 1.0 / args.seconds
            bound = "" if d["rps"] else ">"
            print(f"| {q} | {d['rps']:,.1f} ({d['p99']:.0f} ms) | {o['rps']:,.0f} ({o['p99']:.1f} ms) | "
                  f"{bound}{o['rps'] / base:.0f}x | {n['rps']:,.0f} ({n['p99']:.1f} ms) | {bound}{n['rps'] / base:.1f}x |")
        errors = sum(int(res["errors"]) for _q, _n, res in rows)
        print(f"\nerrors: {errors}  (wrk: {args.seconds} s per line, 8 connections, 2 threads; "
              f"our API with {args.workers} uvicorn workers)")


if __name__ == "__main__":
    main()
