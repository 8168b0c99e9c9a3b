"""How long a 500-entry bibliography takes to resolve, the way a user runs it.

Two bibliographies of 500 entries each:

- ``real``: a bibliography written by researchers (../shared/data/bib/tuw_nlp.bib, 498 entries;
  its first two entries again under new keys make 500): most of its papers are not in the library
  (journals, books, workshops), so most entries cost a title search that finds nothing.
- ``library``: 500 papers drawn from the store (fixed seed), each written as a user would cite it
  (the paper's BibTeX with its ids, URL and pages removed and the title lower-cased): every entry is
  matched and rewritten, the path that reads papers and writes entries.

Each is resolved:

- ``cli``: ``paperlist --home HOME resolve FILE -o OUT`` as a new process (Python start-up, store and
  index opened, resolved, written), ``--runs`` times;
- ``api``: ``POST /api/v1/resolve`` to ``paperlist serve`` (one worker, a real uvicorn on
  127.0.0.1) over HTTP, ``--runs`` times after one warm-up request.

It prints the median, the slowest run and each entry's share for every path, and the counts of
one run (matched, ambiguous, not found, duplicates).

    .venv/bin/python benchmarks/resolve_bench.py --home /tmp/h22 [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from paperlist.citation import bibtex
from paperlist.refs.bib import read_bib, write_entry
from paperlist.store import Store

ROOT = Path(__file__).resolve().parents[1]
PAPERLIST = [sys.executable, "-m", "paperlist"]
REAL = ROOT.parent / "shared" / "data" / "bib" / "tuw_nlp.bib"
DROP = {"doi", "url", "eprint", "archiveprefix", "pages", "volume", "number"}


def real_bib() -> str:
    text = REAL.read_text("utf-8")
    blocks = [b for b in read_bib(text) if b.is_entry]
    extra = [write_entry(b.entry_type, b.key + "_again", b.fields) for b in blocks[:500 - len(blocks)]]
    return text + "\n\n" + "\n\n".join(extra) + "\n"


def library_bib(store: Store, n: int, seed: int) -> str:
    ids = [r[0] for r in store.db.execute("SELECT id FROM papers WHERE accepted = 1 ORDER BY id")]
    papers = store.get_papers(random.Random(seed).sample(ids, n))
    out = []
    for i, p in enumerate(papers):
        [b] = [x for x in read_bib(bibtex(p)) if x.is_entry]
        fields = [(k, v.lower() if k.lower() == "title" else v) for k, v in b.fields if k.lower() not in DROP]
        out.append(write_entry(b.entry_type, f"ref{i}", fields))
    return "\n\n".join(out) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cli_runs(home: str, path: Path, runs: int) -> tuple[list[float], str]:
    times, line = [], ""
    for _ in range(runs):
        t0 = time.perf_counter()
        r = subprocess.run([*PAPERLIST, "--home", home, "resolve", str(path), "-o", str(path) + ".out", "-q"],
                           capture_output=True, text=True, check=True, cwd=ROOT)
        times.append(time.perf_counter() - t0)
        line = r.stdout.strip().splitlines()[-1]
    return times, line


def api_runs(url: str, body: bytes, runs: int) -> tuple[list[float], dict[str, int]]:
    def post() -> dict[str, int]:
        req = urllib.request.Request(url + "/api/v1/resolve", data=body, method="POST",
                                     headers={"content-type": "application/x-bibtex"})
        with urllib.request.urlopen(req, timeout=120) as resp:
            counts: dict[str, int] = json.loads(resp.read())["counts"]
            return counts

    post()                                   # warm-up: the worker opens the index, the OS caches it
    times, counts = [], {}
    for _ in range(runs):
        t0 = time.perf_counter()
        counts = post()
        times.append(time.perf_counter() - t0)
    return times, counts


def figures(name: str, times: list[float]) -> str:
    med = statistics.median(times)
    return (f"  {name:14} median {med:.2f} s, slowest {max(times):.2f} s, fastest {min(times):.2f} s "
            f"({med / 500 * 1000:.1f} ms an entry; {len(times)} runs)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", required=True)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=19)
    args = ap.parse_args()
    store = Store(Path(args.home) / "paperlist.db", readonly=True)
    workdir = tempfile.TemporaryDirectory(prefix="resolve-bench-")
    tmp = Path(workdir.name)
    bibs = {"library": library_bib(store, 500, args.seed)}
    if REAL.exists():
        bibs = {"real": real_bib(), **bibs}
    port = free_port()
    server = subprocess.Popen([*PAPERLIST, "--home", args.home, "serve", "--port", str(port), "--workers", "1"],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url + "/healthz", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("paperlist serve did not start")
                time.sleep(0.3)
        for name, text in bibs.items():
            path = tmp / f"{name}.bib"
            path.write_text(text, "utf-8")
            n = len([b for b in read_bib(text) if b.is_entry])
            print(f"{name}: {n} entries, {len(text.encode()):,} bytes")
            times, line = cli_runs(args.home, path, args.runs)
            print(figures("cli (process)", times))
            print(f"    {line}")
            atimes, counts = api_runs(url, text.encode(), args.runs)
            print(figures("api (HTTP)", atimes))
            print("    " + ", ".join(f"{k} {v}" for k, v in counts.items()))
            assert re.search(r"\b500 entries\b", line), line
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        workdir.cleanup()


if __name__ == "__main__":
    main()
