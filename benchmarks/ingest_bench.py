"""Ingest benchmark: wall time and peak memory of `paperlist ingest PATH` into an empty home.

    .venv/bin/python benchmarks/ingest_bench.py ../shared/data/papercopilot --runs 3

Peak memory is the largest sum over the process tree (the main process and its worker
processes), sampled every 50 ms from /proc: PSS, where a page shared by forked workers counts
once (split among them), and RSS, where it counts in every process that maps it. Also times a
second, no-change ingest.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script or imported by the tests
from proctree import children  # noqa: E402 - benchmarks/proctree.py


def _mem_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in kB. PSS divides each shared page among the processes sharing
    it, so a forked worker's copy-on-write pages are not counted twice."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            rss = next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
        with open(f"/proc/{pid}/smaps_rollup") as f:
            pss = next((int(line.split()[1]) for line in f if line.startswith("Pss:")), 0)
    except OSError:
        pass
    return rss, pss


def tree_mem_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) summed over a process and its descendants."""
    rss = pss = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        r, q = _mem_kb(p)
        rss, pss = rss + r, pss + q
        stack.extend(children(p))
    return rss, pss


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, tuple[int, int], str]:
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    peak = (0, 0)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            rss, pss = tree_mem_kb(proc.pid)
            peak = (max(peak[0], rss), max(peak[1], pss))
            time.sleep(0.05)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    out, _ = proc.communicate()
    done.set()
    th.join()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"ingest exited with {proc.returncode}")
    return time.perf_counter() - t0, peak, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--no-index", action="store_true", help="Do not build the search index after ingest.")
    args = ap.parse_args()
    exe = str(Path(sys.executable).with_name("paperlist"))
    times, peaks, again = [], [], []
    stats: dict[str, object] = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "PAPERLIST_HOME": home}
            cmd = [exe, "ingest", "-q", *args.paths] + (["--jobs", str(args.jobs)] if args.jobs else []) \
                + (["--no-index"] if args.no_index else [])
            t, peak, _ = run(cmd, env)
            times.append(t)
            peaks.append(peak)
            t2, _, _ = run(cmd, env)
            again.append(t2)
            stats = json.loads(subprocess.run([exe, "stats", "--json"], env=env, capture_output=True,
                                              text=True, check=True).stdout)
    what = "ingest" + (" (no index)" if args.no_index else " + search index")
    print(f"{what} {' '.join(args.paths)}  ({args.runs} runs, {os.cpu_count()} CPUs)")
    print(f"  papers {stats['papers']:,}  records {stats['records']:,}  venues {stats['venues']}"
          f"  with abstract {stats['with_abstract']:,}")
    print(f"  wall time   median {statistics.median(times):6.1f} s   max {max(times):6.1f} s")
    for i, name in ((1, "PSS"), (0, "RSS")):
        vals = [pk[i] for pk in peaks]
        print(f"  peak {name}    median {statistics.median(vals) / 1024:6.0f} MB  max {max(vals) / 1024:6.0f} MB"
              "  (process tree" + (", shared pages counted once)" if i else ", shared pages counted per process)"))
    print(f"  re-ingest   median {statistics.median(again):6.1f} s   (nothing changed)")
    rate = stats["records"] / statistics.median(times)  # type: ignore[operator]
    print(f"  throughput  {rate:,.0f} records/s")


if __name__ == "__main__":
    main()
