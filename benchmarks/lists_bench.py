"""Reading lists: the latency of writes and reads, in the gateway and over HTTP, on SQLite and (with
``--pg-url``) PostgreSQL.

    .venv/bin/python benchmarks/lists_bench.py --home /tmp/h22
    .venv/bin/python benchmarks/lists_bench.py --home /tmp/h22 --pg-url 'postgresql://postgres@/postgres?host=/tmp/sock'

The server helper is the tests' (tests/listserver.py). The home's paper store is only read (paper
ids); lists go to a fresh SQLite file in a temporary directory, or to a fresh database made in the
given PostgreSQL server (and dropped after).

- ``gateway``: ``ListStore`` calls in one thread: add a paper with a note, set a note, remove it
  (each one committed, durable, transaction), and read a 1,000-paper list and a link's lists.
- ``http``: ``paperlist serve`` (2 workers) and ``--clients`` threads adding (PUT, with a note) and
  removing (DELETE) papers on one list for ``--seconds``, then GET of a 200-paper list with its
  cards: requests/s, median, p95 and p99 latency.
The machine is shared: compare the backends within one run, not absolute figures across runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paperlist.lists import open_lists  # noqa: E402
from tests.listserver import Server, paper_ids  # noqa: E402


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


def line(name: str, xs: list[float], extra: str = "") -> None:
    print(f"  {name:<28} n={len(xs):>6}  median {statistics.median(xs) * 1000:7.2f} ms  "
          f"p95 {pct(xs, .95):7.2f}  p99 {pct(xs, .99):7.2f}{extra}")


def timed(f: Callable[[], object]) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def gateway(url: str, ids: list[str], n: int) -> None:
    ls = open_lists(url)
    token, lid = ls.create_shelf("bench")
    sample = random.Random(1).sample(ids, n)
    line("add (with note)", [timed(lambda p=p: ls.add(token, lid, p, "a note")) for p in sample])
    line("set note", [timed(lambda p=p: ls.set_note(token, lid, p, "another note")) for p in sample[:500]])
    line("read 1,000-paper list", [timed(lambda: ls.items(lid)) for _ in range(50)])
    line("read a link's lists", [timed(lambda: ls.shelf(token)) for _ in range(200)])
    line("remove", [timed(lambda p=p: ls.remove(token, lid, p)) for p in sample[:500]])
    ls.close()


def http(home: Path, url: str, ids: list[str], clients: int, seconds: float) -> None:
    server = Server(home, url, start_timeout=300)
    try:
        status, s = server.request("POST", "/api/v1/lists", {"name": "bench"})
        token, lid = s["token"], s["lists"][0]["id"]
        lat: list[list[float]] = [[] for _ in range(clients)]
        stop = threading.Event()

        def client(i: int) -> None:
            rng = random.Random(i)
            mine = ids[i::clients][:200]
            while not stop.is_set():
                pid = rng.choice(mine)
                path = f"/api/v1/lists/{token}/lists/{lid}/papers/{pid}"
                t = time.perf_counter()
                code, _ = (server.request("PUT", path, {"note": f"n{i}"}) if rng.random() < .6
                           else server.request("DELETE", path))
                lat[i].append(time.perf_counter() - t)
                assert code == 200, code

        threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(seconds)
        stop.set()
        for t in threads:
            t.join()
        all_lat = [x for xs in lat for x in xs]
        rate = len(all_lat) / (time.perf_counter() - t0)
        line(f"PUT/DELETE, {clients} clients", all_lat, f"  {rate:6.0f} req/s")
        for pid in ids[:200]:
            server.request("PUT", f"/api/v1/lists/{token}/lists/{lid}/papers/{pid}")
        path = f"/api/v1/lists/{token}/lists/{lid}"
        reads = [timed(lambda: server.request("GET", path)) for _ in range(100)]
        line("GET a list (with cards)", reads)
    finally:
        server.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--pg-url", help="a PostgreSQL server to measure too (a fresh database, dropped after)")
    ap.add_argument("--papers", type=int, default=2000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10)
    a = ap.parse_args()
    ids = paper_ids(a.home)
    print(f"{len(ids):,} papers in {a.home}")
    backends: list[tuple[str, str, Callable[[], None]]] = []
    tmp = tempfile.TemporaryDirectory(prefix="lists-bench-")
    backends.append(("sqlite", str(Path(tmp.name) / "lists.db"), lambda: None))
    if a.pg_url:
        import psycopg

        name = "bench_" + uuid.uuid4().hex[:8]
        with psycopg.connect(a.pg_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

        def drop() -> None:
            with psycopg.connect(a.pg_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        backends.append(("postgresql", a.pg_url.replace("/postgres?", f"/{name}?", 1), drop))
    for kind, url, cleanup in backends:
        print(f"{kind}: gateway")
        gateway(url, ids, a.papers)
        print(f"{kind}: http")
        http(a.home, url, ids, a.clients, a.seconds)
        cleanup()
    tmp.cleanup()


if __name__ == "__main__":
    main()
