"""`paperlist update` against a local OpenReview stand-in: time and requests for a venue of N notes.

    .venv/bin/python benchmarks/update_bench.py --notes 10000 --runs 3

The stand-in (tests/standins.py, on pytest-httpserver) serves ICLR 2026's first 1,000 real notes from
../shared/data, re-homed to NeurIPS 2026 and copied with new ids up to N, with the reviews of the 100
the second file has, as ``GET /notes`` answers them (pages of at most 1,000). Each run updates an
empty home (`--no-index`: the fetch, the records and the merge; topics and the index are the same cost
as after any ingest), then a second run over the same notes (nothing changes). No pause between
requests (PAPERLIST_UPDATE_INTERVAL=0): the figures are our cost, not the politeness we owe OpenReview
(5 requests a second by default).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pytest_httpserver import HTTPServer  # noqa: E402

from tests.standins import OpenReviewStandIn, copies, real_notes, rehome  # noqa: E402

VENUE = "NeurIPS.cc/2026/Conference"


def run(home: Path, url: str) -> tuple[float, dict[str, object]]:
    env = {**os.environ, "PAPERLIST_OPENREVIEW_URL": url, "PAPERLIST_UPDATE_INTERVAL": "0"}
    exe = str(Path(sys.executable).parent / "paperlist")
    t0 = time.perf_counter()
    r = subprocess.run([exe, "--home", str(home), "update", "--venue", VENUE, "--no-index", "--json"],
                       capture_output=True, text=True, env=env, check=True)
    report: dict[str, object] = json.loads(r.stdout)
    return time.perf_counter() - t0, report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    base = rehome(real_notes(), VENUE, "NeurIPS 2026")
    for n in base:                        # one venue id: every note an accepted paper
        n["content"]["venueid"]["value"] = VENUE
    notes = base + copies(base, max(0, args.notes - len(base)), 0)
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    stand_in = OpenReviewStandIn(notes)
    url = stand_in.install(server)
    first, second, asked = [], [], []
    try:
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                before = stand_in.requests
                t, rep = run(Path(tmp) / "home", url)
                asked.append(stand_in.requests - before)
                first.append(t)
                t2, rep2 = run(Path(tmp) / "home", url)
                second.append(t2)
                papers = rep["papers"]
                assert isinstance(papers, dict) and papers["new"] == len(notes), papers
    finally:
        server.stop()
    print(f"notes: {len(notes):,} in one venue; requests per run: {asked[0]} (pages of 1,000 and the four "
          f"empty venue ids)")
    print(f"first run (empty home):  median {statistics.median(first):.1f} s  max {max(first):.1f} s  "
          f"({len(notes) / statistics.median(first):,.0f} notes/s)")
    print(f"second run (no change):  median {statistics.median(second):.1f} s  max {max(second):.1f} s")


if __name__ == "__main__":
    main()
