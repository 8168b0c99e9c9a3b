"""What paper vectors cost a search: the same index searched with and without them, in one process.

The machine is shared and noisy, and two runs of ``search_bench.py`` (one per home) differ by more
than the vectors cost. Here one process opens two searchers over the same store and index: one
over ``--home`` (with its published vectors: the topic centre, landmarks, hybrid ranking), one
over a twin home of links to the same store and index and no vectors. Every query runs on both,
back to back, in alternating order, one thread each (no second core), and the script prints per
kind the medians and tails of both and the difference of the medians. The query mix is
search_bench.py's (topical, author, title, filtered, typing).

    .venv/bin/python benchmarks/vector_cost.py --home /tmp/h1 [--rounds 7]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_bench import AUTHORS, FILTERED, SORTED, TOPICAL, TYPING, pct, titles  # noqa: E402

from paperlist.index import fulltext  # noqa: E402
from paperlist.search import Searcher, SearchRequest  # noqa: E402
from paperlist.store import Store  # noqa: E402


def twin(home: Path, into: Path) -> Path:
    """A home of links to ``home``'s store and index, without its vectors."""
    for name in ("paperlist.db", fulltext.index_root(home).name):
        (into / name).symlink_to((home / name).resolve())
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", default="data")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--titles", type=int, default=20, help="random titles typed (search_bench's seed)")
    args = ap.parse_args()
    home = Path(args.home)
    store = Store(home / "paperlist.db", readonly=True)
    mix = ([("topical", q, "relevance") for q in TOPICAL] + [("author", q, "relevance") for q in AUTHORS]
           + [("title", q, "relevance") for q in titles(store, args.titles, 3)]
           + [("filtered", q, "relevance") for q in FILTERED] + [("filtered", q, s) for q, s in SORTED]
           + [("typing", q, "relevance") for q in TYPING])
    store.close()
    with tempfile.TemporaryDirectory(prefix="vector-cost-") as tmp:
        sides = {"vectors": Searcher.open(home), "none": Searcher.open(twin(home, Path(tmp)))}
        for s in sides.values():
            s.parallel = False
            s.warm()
        reason = sides["vectors"].semantic.unavailable()
        if reason:
            sys.exit(f"vector_cost.py: {home} has no usable vectors ({reason})")
        assert sides["none"].semantic.unavailable() is not None
        for _, q, sort in mix:                       # warm caches, the vocabulary and the query model
            for s in sides.values():
                s.search(SearchRequest(q=q, sort=sort, per_page=20))
        wall: dict[str, dict[str, list[float]]] = {name: {} for name in sides}
        used = 0
        rng = random.Random(1)
        for r in range(args.rounds):
            order = mix[:]
            rng.shuffle(order)
            for kind, q, sort in order:
                names = ["vectors", "none"] if r % 2 else ["none", "vectors"]
                for name in names:
                    t0 = time.perf_counter()
                    res = sides[name].search(SearchRequest(q=q, sort=sort, per_page=20))
                    ms = (time.perf_counter() - t0) * 1000
                    if name == "vectors":
                        by_meaning = res.interpreted.get("mode") in ("hybrid", "semantic")
                        used += by_meaning or any(h.landmark for h in res.hits)
                    for k in (kind, "all"):
                        wall[name].setdefault(k, []).append(ms)
    n = len(mix) * args.rounds
    print(f"vector cost: {len(mix)} queries x {args.rounds} rounds, one thread, same store and index "
          f"({home}); with vectors, {used} of {n} searches showed landmarks or ranked by meaning")
    print(f"{'kind':<10} {'n':>5}   {'vectors p50':>11} {'p95':>7} {'p99':>7}   {'none p50':>8} {'p95':>7} "
          f"{'p99':>7}   {'p50 diff':>8}  (ms)")
    for k in ("topical", "author", "title", "filtered", "typing", "all"):
        v, o = wall["vectors"][k], wall["none"][k]
        print(f"{k:<10} {len(v):>5}   {pct(v, 50):>11.2f} {pct(v, 95):>7.2f} {pct(v, 99):>7.2f}   "
              f"{pct(o, 50):>8.2f} {pct(o, 95):>7.2f} {pct(o, 99):>7.2f}   "
              f"{pct(v, 50) - pct(o, 50):>+8.2f}")


if __name__ == "__main__":
    main()
