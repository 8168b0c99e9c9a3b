"""What a follower downloads: a home's full snapshot, then the snapshot after a small update.

    .venv/bin/python benchmarks/snapshot_bench.py --home /work/h3 --workdir /tmp/snapbench --notes 1000

Copies HOME into WORKDIR/builder (HOME itself is not touched: the store through SQLite's backup),
publishes it into WORKDIR/published and has a follower take it over HTTP (Python's http.server);
then runs `paperlist update` of NeurIPS 2026 against the OpenReview stand-in (ICLR 2026's first
--notes real notes re-homed, as update_bench.py does: one venue-year changed, with its topics,
statistics and index brought up to date), publishes again, and has the follower take the new
snapshot. Prints each step's seconds and bytes, and the small update's download as a share of the
full one.

A home last built by older code first gets this code's state (``--settle``, on by default): the
topic probe's cache in its new form and an index generation with its build state, as every later
update leaves them; without it the first update refits topics and rebuilds the index whole.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from paperlist.index import fulltext  # noqa: E402
from paperlist.service import Home  # noqa: E402
from paperlist.service.replicas import follow_once, publish  # noqa: E402
from paperlist.snapshots.publish import backup  # noqa: E402
from paperlist.store import Store  # noqa: E402
from paperlist.topics.build import assign_topics  # noqa: E402
from tests.conftest import serve_dir  # noqa: E402
from tests.standins import OpenReviewStandIn, real_notes, rehome  # noqa: E402

VENUE = "NeurIPS.cc/2026/Conference"


def copy_home(src: Path, dst: Path) -> None:
    dst.mkdir(parents=True)
    backup(src / "paperlist.db", dst / "paperlist.db")
    for name in ("index", "reports", "vectors"):
        if (src / name).is_dir():
            shutil.copytree(src / name, dst / name, copy_function=os.link,
                            ignore=shutil.ignore_patterns("cache"))
    if (src / "topics-textprobe.pickle").exists():
        shutil.copy2(src / "topics-textprobe.pickle", dst / "topics-textprobe.pickle")


def settle(home: Path) -> dict[str, object]:
    """This code's build state: the probe's cache (a refit only if its examples changed) and an
    index generation with its per-paper state."""
    t0 = time.perf_counter()
    store = Store(home / "paperlist.db")
    topics = assign_topics(store, home, force=True)
    index = fulltext.build(store, home, full=True)
    store.close()
    return {"seconds": round(time.perf_counter() - t0, 1), "topics_rows": topics.rows, "papers": index.papers}


def update(home: Path, notes: int) -> dict[str, object]:
    base = rehome(real_notes()[:notes], VENUE, "NeurIPS 2026")
    for n in base:
        n["content"]["venueid"]["value"] = VENUE
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    try:
        url = OpenReviewStandIn(base).install(server)
        env = {**os.environ, "PAPERLIST_OPENREVIEW_URL": url, "PAPERLIST_UPDATE_INTERVAL": "0"}
        exe = str(Path(sys.executable).parent / "paperlist")
        t0 = time.perf_counter()
        r = subprocess.run([exe, "--home", str(home), "update", "--venue", VENUE, "--json"],
                           capture_output=True, text=True, env=env, check=True)
        report = json.loads(r.stdout)
    finally:
        server.stop()
    return {"seconds": round(time.perf_counter() - t0, 1), "papers": report.get("papers"),
            "index": report.get("index")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--no-settle", dest="settle", action="store_false")
    a = ap.parse_args()
    if a.workdir.exists():
        shutil.rmtree(a.workdir)
    builder, out, follower = a.workdir / "builder", a.workdir / "published", a.workdir / "follower"
    t0 = time.perf_counter()
    copy_home(a.home, builder)
    result: dict[str, object] = {"copy_s": round(time.perf_counter() - t0, 1)}
    if a.settle:
        result["settle"] = settle(builder)
    first = publish(Home(builder), out)
    result["publish_full"] = first.to_dict()
    with serve_dir(out) as url:
        took = follow_once(follower, url)
        result["follow_full"] = {"seconds": took.seconds, "downloaded": took.downloaded,
                                 "fetched": took.fetched}
        result["update"] = update(builder, a.notes)
        second = publish(Home(builder), out)
        result["publish_small"] = second.to_dict()
        took = follow_once(follower, url)
        result["follow_small"] = {"seconds": took.seconds, "downloaded": took.downloaded,
                                  "fetched": took.fetched, "reused": took.reused}
    result["small_share_of_full"] = round(took.downloaded / first.stored, 4) if first.stored else None
    manifest = max((out / "snapshots").glob("*.json.zst"), key=lambda p: p.stat().st_mtime)
    result["manifest_bytes"] = manifest.stat().st_size
    print(json.dumps(result, indent=2))
    print(f"full snapshot: {first.size / 1e9:.2f} GB in {first.chunk_count:,} chunks, "
          f"{first.stored / 1e6:,.0f} MB to download; after a {a.notes}-paper update: "
          f"{took.downloaded / 1e6:,.1f} MB "
          f"({100 * took.downloaded / first.stored:.1f}% of the full download)")


if __name__ == "__main__":
    main()
