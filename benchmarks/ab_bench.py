"""Search latency of this code against another version of it, side by side in one run.

Two runs of ``search_bench.py`` on this shared, noisy machine differ by more than most changes
cost or save (the second of two back-to-back runs was 0.5 ms slower at the median whichever code
it ran). Here one worker process per code tree (this checkout, and ``--before``: a git worktree of
the other commit) opens the same home, and the two take turns: every round shuffles
search_bench.py's query mix and sends it to both, the first of the two alternating by round. Each
prints per kind p50 / p95 / p99 of wall time, and the ratio of the medians (after / before);
``--slowest N`` then lists the N queries slowest in this tree, with both medians (where the tail is).

    git worktree add /tmp/before <commit>
    .venv/bin/python benchmarks/ab_bench.py --home /tmp/h1 --before /tmp/before \
        [--rounds 5] [--sequential] [--slowest 8]

Both trees must read the home's index (the same index version), or ``--before-home`` names a home
the other tree built (an older index version): its store and index, the same corpus. The workers
use the Python that runs this script.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import search_bench  # noqa: E402

from paperlist.store import Store  # noqa: E402

HERE = Path(__file__).resolve().parents[1]
KINDS = ("topical", "author", "title", "filtered", "typing", "all")

# The worker: imports paperlist from its tree, opens the home, warms up on the mix, then times
# each batch of [query, sort] it reads (one JSON list a line) and answers with the wall times (ms).
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from paperlist.search import Searcher, SearchRequest
searcher = Searcher.open(sys.argv[2])
searcher.parallel = sys.argv[3] == "parallel"
searcher.warm()
for line in sys.stdin:
    out = []
    for q, sort in json.loads(line):
        t0 = time.perf_counter()
        searcher.search(SearchRequest(q=q, sort=sort, per_page=20))
        out.append((time.perf_counter() - t0) * 1000)
    print(json.dumps(out), flush=True)
"""


def mix(store: Store) -> list[tuple[str, str, str]]:
    """search_bench.py's queries: (kind, query, sort)."""
    sb = search_bench
    return ([("topical", q, "relevance") for q in sb.TOPICAL]
            + [("author", q, "relevance") for q in sb.AUTHORS]
            + [("title", q, "relevance") for q in sb.titles(store, 20, 3)]
            + [("filtered", q, "relevance") for q in sb.FILTERED] + [("filtered", q, s) for q, s in sb.SORTED]
            + [("typing", q, "relevance") for q in sb.TYPING])


class Worker:
    def __init__(self, tree: Path, home: Path, parallel: bool) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(tree), str(home),
                                      "parallel" if parallel else "sequential"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, batch: list[tuple[str, str, str]]) -> list[float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([[q, s] for _, q, s in batch]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"ab_bench: a worker stopped (exit {self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--before", type=Path, required=True, help="the other code tree (a git worktree)")
    ap.add_argument("--before-home", type=Path, help="the home the other tree reads (default: --home)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sequential", action="store_true", help="one thread per search (no second core)")
    ap.add_argument("--slowest", type=int, default=0, metavar="N",
                    help="also list the N queries slowest in this tree, with both medians")
    args = ap.parse_args()
    if not (args.before / "paperlist" / "__init__.py").exists():
        raise SystemExit(f"ab_bench: {args.before} is not a paperlist tree")
    for home in (args.home, args.before_home):
        if home is not None and not (home / "paperlist.db").exists():
            raise SystemExit(f"ab_bench: {home} is not a paperlist home (no paperlist.db)")
    queries = mix(Store(args.home / "paperlist.db", readonly=True))
    workers = {"before": Worker(args.before, args.before_home or args.home, not args.sequential),
               "after": Worker(HERE, args.home, not args.sequential)}
    for w in workers.values():          # warm caches (and the vocabulary)
        w.run(queries)
    times: dict[str, dict[str, list[float]]] = {name: {k: [] for k in KINDS} for name in workers}
    per_query: dict[str, dict[tuple[str, str], list[float]]] = {name: {} for name in workers}
    rng = random.Random(1)
    try:
        for r in range(args.rounds):
            batch = queries[:]
            rng.shuffle(batch)
            for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
                for (kind, q, sort), ms in zip(batch, workers[name].run(batch), strict=True):
                    times[name][kind].append(ms)
                    per_query[name].setdefault((q, sort), []).append(ms)
                    times[name]["all"].append(ms)
    finally:
        for w in workers.values():
            w.close()
    pct = search_bench.pct
    print(f"search, this tree against {args.before}: {len(queries)} queries x {args.rounds} rounds each, "
          f"turns taken, {'one thread' if args.sequential else 'page ranked on a second thread'}")
    print(f"{'kind':<10} {'n':>5}   {'before p50':>10} {'p95':>7} {'p99':>7}   {'after p50':>9} {'p95':>7} "
          f"{'p99':>7}   {'after/before p50':>16}  (ms)")
    for k in KINDS:
        b, a = times["before"][k], times["after"][k]
        print(f"{k:<10} {len(a):>5}   {pct(b, 50):>10.2f} {pct(b, 95):>7.2f} {pct(b, 99):>7.2f}   "
              f"{pct(a, 50):>9.2f} {pct(a, 95):>7.2f} {pct(a, 99):>7.2f}   {pct(a, 50) / pct(b, 50):>16.3f}")
    if args.slowest > 0:
        print_slowest(per_query, args.slowest)


def print_slowest(per_query: dict[str, dict[tuple[str, str], list[float]]], n: int) -> None:
    """The ``n`` queries with the highest median in this tree, and their median in the other."""
    pct = search_bench.pct
    med = {name: {key: pct(ms, 50) for key, ms in qs.items()} for name, qs in per_query.items()}
    print(f"\nthe {n} slowest here (median ms)   before    after   after/before")
    for q, sort in sorted(med["after"], key=lambda key: -med["after"][key])[:n]:
        b, a = med["before"][(q, sort)], med["after"][(q, sort)]
        label = q if sort == "relevance" else f"{q} [by {sort}]"
        print(f"  {label[:40]:<40} {b:>7.2f} {a:>8.2f} {a / b:>14.3f}")


if __name__ == "__main__":
    main()
