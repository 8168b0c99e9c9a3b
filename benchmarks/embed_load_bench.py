"""Search while the background embedding job runs (issue 23): is the site as fast as without it?

    .venv/bin/python benchmarks/embed_load_bench.py --home /tmp/h18 --seconds 20
    .venv/bin/python benchmarks/embed_load_bench.py --home HOME --seconds 2 --mixes vocab --json   # tests

The home is copied first (the store whole, the index as hard links, no vectors: the job starts
from nothing), so the home given is not changed. Then, in one run, wrk (8 connections, distinct
queries from ``distinct_bench``'s mixes) against ``paperlist serve --workers 2``:

1. ``alone``: the site without the job;
2. ``job``: ``serve --embed``, measured once the job is embedding (no vectors published yet:
   keyword search while both cores embed);
3. ``job+vectors``: the same server after the job's first partial generation (10% of the
   papers) is published: queries of four or more words and Chinese ones now run hybrid (the query
   encoded by MiniLM, vector candidates fused with BM25's) while the job goes on.

It prints req/s, p50 and p99 per phase and mix, and the job's rate (papers/s) in each phase.
With ``--url`` it measures a server that is already running instead (``./run.sh`` during its
job, say; the queries come from ``--home``, which is then only read), as one phase named by its
state ("job" or "job+vectors" while the job runs, "alone" otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from distinct_bench import LUA, queries  # noqa: E402
from load_bench import LUA_DONE, Server, wrk  # noqa: E402

MIXES = ("vocab", "titles", "zh")


def copy_home(src: Path, dst: Path) -> Path:
    """The store copied (the job writes topics into it), the index hard-linked (read-only)."""
    dst.mkdir(parents=True)
    for name in ("paperlist.db", "paperlist.db-wal", "paperlist.db-shm", "topics-textprobe.pickle"):
        if (src / name).exists():
            shutil.copy2(src / name, dst / name)
    shutil.copytree(src / "index", dst / "index", copy_function=os.link)
    return dst


def semantic(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url + "/api/v1/semantic", timeout=10) as r:
        return dict(json.loads(r.read()))


def wait_for(url: str, what: str, check: Any, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = semantic(url)
        if check(s):
            return s
        time.sleep(1.0)
    raise SystemExit(f"timed out waiting for {what}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--mixes", nargs="+", default=list(MIXES), choices=MIXES)
    ap.add_argument("--publish-timeout", type=float, default=1200,
                    help="seconds to wait for the first partial generation")
    ap.add_argument("--url", help="measure this running server (its home is --home) instead")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    rows: list[dict[str, Any]] = []
    exe = str(Path(sys.executable).parent / "paperlist")
    with tempfile.TemporaryDirectory() as tmp:
        home = a.home if a.url else copy_home(a.home, Path(tmp) / "home")
        rng = random.Random(23)
        lua: dict[str, Path] = {}
        for mix in a.mixes:
            f = Path(tmp) / f"{mix}.txt"
            f.write_text("\n".join(p for p, _ in queries(home, mix, rng)) + "\n")
            lua[mix] = Path(tmp) / f"{mix}.lua"
            lua[mix].write_text(LUA.replace("LUA_DONE", LUA_DONE).replace("FILE", str(f)))

        def measure(phase: str, url: str) -> None:
            for mix in a.mixes:
                before = semantic(url)
                r = wrk(url, a.connections, a.seconds, lua[mix])
                after = semantic(url)
                job_a, job_b = before.get("job") or {}, after.get("job") or {}
                r.update(phase=phase, mix=mix, share=after["share"],
                         job_rate=round((job_b.get("covered", 0) - job_a.get("covered", 0)) / a.seconds, 1)
                         if job_a else None,
                         non_2xx=sum(n for code, n in r["statuses"].items() if not code.startswith("2")))
                rows.append(r)
                if not a.json:
                    print(f"  {phase:<12} {mix:<7} {r['rps']:>7.0f} req/s  p50 {r['p50_ms']:6.1f} ms  "
                          f"p99 {r['p99_ms']:6.1f} ms  non-2xx {r['non_2xx']}  job {r['job_rate']} papers/s  "
                          f"meaning covers {r['share']:.0%}", flush=True)

        if a.url:
            s = semantic(a.url)
            running = bool((s.get("job") or {}).get("running"))
            measure(("job+vectors" if s["available"] else "job") if running else "alone", a.url)
        else:
            run_phases(home, exe, a.publish_timeout, measure)
    if a.json:
        print(json.dumps({"rows": rows}))
        return
    print("\n| mix | phase | req/s | p50 ms | p99 ms | job papers/s |")
    print("|---|---|---|---|---|---|")
    for mix in a.mixes:
        for r in (r for r in rows if r["mix"] == mix):
            print(f"| {mix} | {r['phase']} | {r['rps']:,.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
                  f"{r['job_rate'] if r['job_rate'] is not None else '–'} |")


def run_phases(home: Path, exe: str, publish_timeout: float, measure: Any) -> None:
    """The three phases on the copy: alone, then with the job, then with its first vectors."""
    alone = Server(home, 2, 10.0)
    try:
        measure("alone", alone.url)
    finally:
        alone.stop()
    cmd = [exe, "--home", str(home), "serve", "--embed", "--port", "{port}", "--workers", "2"]
    job = Server(home, 2, 10.0, cmd=cmd)
    try:
        wait_for(job.url, "the job to embed", lambda s: (s.get("job") or {}).get("covered", 0) > 0, 600)
        measure("job", job.url)
        wait_for(job.url, "a partial generation", lambda s: s["available"], publish_timeout)
        time.sleep(5)                       # the query model loads in each worker
        measure("job+vectors", job.url)
    finally:
        job.stop()


if __name__ == "__main__":
    main()
