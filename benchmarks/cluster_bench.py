"""Serving from several machines on one: requests per second through HAProxy with one follower and
with two, beside one follower asked directly, and the time from a publish to both followers
serving it.

    .venv/bin/python benchmarks/cluster_bench.py --published /tmp/snapbench/published \
        --workdir /tmp/clusterbench --seconds 20 --connections 16

PUBLISHED is a directory `paperlist publish` wrote (snapshot_bench.py leaves one); it is served by
Python's http.server. Two followers (`paperlist serve --follow`, one worker each, their own homes
under WORKDIR, SQLite lists: this measures reads) take its newest snapshot, HAProxy runs
deploy/haproxy.cfg in front of them, and wrk (load_bench.py's mix: searches of two random words on
pages 1-3, the conference list, the English home page) runs ``--seconds`` against, one after the
other: follower 1 directly; HAProxy with follower 2 drained (`paperlist drain`: out of the
balancer); HAProxy with both. On this 2-core machine the second follower has only the cores the
first leaves idle, so the gain is bounded by them (and wrk and HAProxy share the same cores).

With ``--republish HOME`` (the builder's home that wrote PUBLISHED), it then publishes HOME again
and reports the seconds until both followers' /healthz name the new snapshot.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_bench import LUA, wrk  # noqa: E402

from paperlist.service import Home  # noqa: E402
from paperlist.service.replicas import publish  # noqa: E402
from paperlist.snapshots.manifest import LATEST_FILE, Latest  # noqa: E402
from tests.cluster import Follower, answers, free_port, haproxy, wait_for  # noqa: E402
from tests.conftest import serve_dir  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--published", type=Path, required=True)
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--republish", type=Path, default=None, metavar="HOME")
    a = ap.parse_args()
    if shutil.which("haproxy") is None or shutil.which("wrk") is None:
        raise SystemExit("needs haproxy and wrk (apt-get install haproxy wrk)")
    a.workdir.mkdir(parents=True, exist_ok=True)
    logs = a.workdir / "logs"
    logs.mkdir(exist_ok=True)
    out: dict[str, object] = {}
    with serve_dir(a.published) as url, tempfile.TemporaryDirectory() as tmp:
        lua = Path(tmp) / "mix.lua"
        lua.write_text(LUA)
        followers = [Follower(a.workdir / f"follower{i}", url, str(a.workdir / f"follower{i}" / "lists.db"),
                              logs / f"follower{i}.log", every="2s") for i in (1, 2)]
        newest = Latest.parse((a.published / LATEST_FILE).read_bytes()).id
        try:
            t0 = time.monotonic()
            for f in followers:
                f.start()
            wait_for("both followers serve", lambda: all(f.serving() == newest for f in followers), 3600)
            out["first_start_s"] = round(time.monotonic() - t0, 1)
            port = free_port()
            balancer = f"http://127.0.0.1:{port}"
            with haproxy(f"127.0.0.1:{port}", followers, logs / "haproxy.log"):
                wait_for("the balancer answers", lambda: answers(f"{balancer}/healthz"), 30)
                wrk(followers[0].base, a.connections, 5, lua)                    # warm both
                wrk(followers[1].base, a.connections, 5, lua)
                out["direct, one follower"] = wrk(followers[0].base, a.connections, a.seconds, lua)
                _drain(followers[1], True)
                time.sleep(3)                                                     # two checks fail
                out["haproxy, one follower"] = wrk(balancer, a.connections, a.seconds, lua)
                _drain(followers[1], False)
                time.sleep(3)
                out["haproxy, two followers"] = wrk(balancer, a.connections, a.seconds, lua)
                if a.republish is not None:
                    rep = publish(Home(a.republish), a.published)
                    took = wait_for("both followers serve the new snapshot",
                                    lambda: all(f.serving() == rep.id for f in followers), 600)
                    out["publish"] = {"id": rep.id, "publish_s": rep.seconds, "new_bytes": rep.new_bytes,
                                      "both_serving_s": round(took, 1)}
        finally:
            for f in followers:
                f.stop()
    print(json.dumps(out, indent=2))
    for k, v in out.items():
        if isinstance(v, dict) and "rps" in v:
            print(f"{k:>24}: {v['rps']:8.1f} req/s  p50 {v['p50_ms']:6.1f} ms  p99 {v['p99_ms']:7.1f} ms  "
                  f"errors {v['socket_errors'] + v['timeouts']}  statuses {v['statuses']}")


def _drain(f: Follower, on: bool) -> None:
    import subprocess

    cmd = [sys.executable, "-m", "paperlist", "--home", str(f.root), "drain", "--wait", "0"]
    subprocess.run(cmd + ([] if on else ["--undo"]), check=True)


if __name__ == "__main__":
    main()
