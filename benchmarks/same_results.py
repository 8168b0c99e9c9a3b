"""Whether a speed-up changed any answer: the full JSON of ``/api/v1/search`` (hits, totals,
snippets, facets, suggestion, links; everything but ``took_ms``) on thousands of distinct queries
per mix of ``distinct_bench.py``, saved by one version of the code and compared by another (issue 24).

    # with the code before the change (e.g. a git worktree of it, this file copied in):
    .venv/bin/python benchmarks/same_results.py --home /tmp/h24 --save /tmp/before.jsonl
    # with the code after:
    .venv/bin/python benchmarks/same_results.py --home /tmp/h24 --check /tmp/before.jsonl

The requests go through the whole app in this process (ASGI calls, no sockets), without the
response cache. It prints, per mix, how many answers are the same, and the first differences; exit
status 1 if any differ.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from distinct_bench import MIXES, queries  # noqa: E402


async def answer(app: Any, path: str) -> tuple[int, bytes]:
    p, _, qs = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": p, "raw_path": p.encode(), "query_string": qs.encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1")], "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 80)}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def digest(status: int, body: bytes) -> str:
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return f"{status} {hashlib.sha1(body).hexdigest()}"
    if isinstance(data, dict):
        data.pop("took_ms", None)
    return f"{status} {hashlib.sha1(orjson.dumps(data, option=orjson.OPT_SORT_KEYS)).hexdigest()}"


async def run(home: Path, mixes: list[str], n: int) -> list[dict[str, Any]]:
    os.environ["PAPERLIST_HOME"] = str(home)
    os.environ["PAPERLIST_SEARCH_CACHE"] = "0"
    from paperlist.web.app import app_from_env
    app = app_from_env()
    out = []
    for mix in mixes:
        rng = random.Random(f"2024-{mix}")      # each mix's queries whichever mixes are run
        for path, _bare in queries(home, mix, rng)[:n]:
            status, body = await answer(app, path)
            out.append({"mix": mix, "path": path, "answer": digest(status, body)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--mixes", nargs="+", default=list(MIXES), choices=MIXES)
    ap.add_argument("--queries", type=int, default=2500, help="per mix")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path)
    group.add_argument("--check", type=Path)
    a = ap.parse_args()
    got = asyncio.run(run(a.home, a.mixes, a.queries))
    if a.save:
        a.save.write_text("".join(json.dumps(r) + "\n" for r in got))
        print(f"saved {len(got)} answers to {a.save}")
        return
    before = {(r["mix"], r["path"]): r["answer"] for r in map(json.loads, a.check.read_text().splitlines())}
    differ = 0
    for mix in a.mixes:
        rows = [r for r in got if r["mix"] == mix]
        missing = sum(1 for r in rows if (mix, r["path"]) not in before)
        bad = [r for r in rows if (mix, r["path"]) in before and before[(mix, r["path"])] != r["answer"]]
        differ += len(bad) + missing      # a query not compared proves nothing
        print(f"{mix:<9} {len(rows) - len(bad) - missing:>5} of {len(rows)} the same"
              + (f" ({missing} not in the saved run)" if missing else ""))
        for r in bad[:3]:
            print(f"    differs: {r['path'][:120]}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
