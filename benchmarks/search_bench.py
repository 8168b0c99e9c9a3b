"""Search latency and index build time on the full corpus.

Times a full library call — ``Searcher.search``: parse, rank, total, facets over the whole match
set, 20 hits with highlighted title and abstract snippet — over a fixed mix of topical, author,
title, filtered (venue, year, status, rating; two sorted by rating) and browse queries, and prints p50 / p95 / p99 of wall time and of the process's
CPU time (the machine is shared: CPU time shows our cost without other tenants' load; it counts
both threads when a page is ranked on a second core while the facets are counted).
``--sequential`` runs everything on the calling thread (what a fully loaded server gets).

    .venv/bin/python benchmarks/search_bench.py --home /tmp/search-home [--rounds 5] [--build 3] [--sequential]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paperlist.index import fulltext
from paperlist.search import Searcher, SearchRequest
from paperlist.store import Store

TOPICAL = [
    "diffusion models", "graph neural networks", "contrastive learning", "reinforcement learning from human feedback",
    "vision transformer", "neural radiance fields", "large language models reasoning", "federated learning privacy",
    "object detection", "point cloud segmentation", "knowledge distillation", "adversarial robustness",
    "few-shot learning", "domain adaptation", "causal inference", "bayesian optimization", "optimal transport",
    "speech recognition", "machine translation", "question answering", "robot grasping", "visual slam",
    "semantic segmentation", "image super-resolution", "video generation", "text-to-image", "meta learning",
    "continual learning", "model pruning", "differential privacy", "in-context learning", "mixture of experts",
    "self-supervised learning", "3d human pose estimation", "graph transformer", "multi-agent reinforcement learning",
    "sparse attention", "quadruped locomotion", "autonomous driving", "recommendation systems",
]
AUTHORS = [
    'author:"Yoshua Bengio"', "Kaiming He", 'author:"Sergey Levine"', "Pieter Abbeel", 'author:"Fei-Fei Li"',
    "Christopher D. Manning", 'author:"Percy Liang"', "Andrew Zisserman", 'author:"Jitendra Malik"',
    "Zhi-Hua Zhou", "Yann LeCun", 'author:"Luc Van Gool"',
]
FILTERED = [
    "diffusion venue:iclr", "transformer year:2023", "robot learning venue:corl year:2022..2024",
    "venue:neurips year:2023 status:oral", "status:spotlight language", "-survey large language models",
    '"graph neural network" year:>=2021', "family:acl", "venue:cvpr year:2024",
    "rating:>=6 venue:iclr year:2023", "diffusion rating:5..7",
]
# (query, sort): filtered queries under a sort other than relevance
SORTED = [("venue:iclr year:2023", "rating"), ("diffusion models", "rating")]
TYPING = ["graph neural netw", "diffusion mod", "reinforcment learning", "atention is all you need", "transfomer"]


def titles(store: Store, n: int, seed: int) -> list[str]:
    rows = [r[1] for r in store.plain_titles()]
    return [t.lower() for t in random.Random(seed).sample(rows, n)]


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", default="data")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--build", type=int, default=0, metavar="N", help="also time N full index builds")
    ap.add_argument("--sequential", action="store_true", help="one thread per search (no second core)")
    args = ap.parse_args()
    home = Path(args.home)
    store = Store(home / "paperlist.db", readonly=True)

    if args.build:
        walls, cpus = [], []
        for _ in range(args.build):
            c0, t0 = time.process_time(), time.perf_counter()
            rep = fulltext.build(store, home, force=True)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        print(f"index build ({rep.papers:,} papers, {args.build} runs): wall median {statistics.median(walls):.1f} s"
              f" (max {max(walls):.1f} s), CPU median {statistics.median(cpus):.1f} s")

    mix = ([("topical", q, "relevance") for q in TOPICAL] + [("author", q, "relevance") for q in AUTHORS]
           + [("title", q, "relevance") for q in titles(store, 20, 3)]
           + [("filtered", q, "relevance") for q in FILTERED] + [("filtered", q, s) for q, s in SORTED]
           + [("typing", q, "relevance") for q in TYPING])
    searcher = Searcher.open(home)
    searcher.parallel = not args.sequential
    searcher.warm()
    for _, q, sort in mix:                                 # warm caches (and the vocabulary)
        searcher.search(SearchRequest(q=q, sort=sort, per_page=20))
    rng = random.Random(1)
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        order = mix[:]
        rng.shuffle(order)
        for kind, q, sort in order:
            req = SearchRequest(q=q, sort=sort, per_page=20)
            c0, t0 = time.process_time(), time.perf_counter()
            searcher.search(req)
            w, c = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            for k in (kind, "all"):
                wall.setdefault(k, []).append(w)
                cpu.setdefault(k, []).append(c)
    print(f"search: {len(mix)} queries x {args.rounds} rounds, full call (20 hits, snippets, facets), "
          f"{'one thread' if args.sequential else 'page ranked on a second thread'}, index {searcher.generation}")
    print(f"{'kind':<10} {'n':>5} {'wall p50':>9} {'p95':>7} {'p99':>7}   {'CPU p50':>8} {'p95':>7} {'p99':>7}  (ms)")
    for k in ("topical", "author", "title", "filtered", "typing", "all"):
        w, c = wall[k], cpu[k]
        print(f"{k:<10} {len(w):>5} {pct(w, 50):>9.2f} {pct(w, 95):>7.2f} {pct(w, 99):>7.2f}   "
              f"{pct(c, 50):>8.2f} {pct(c, 95):>7.2f} {pct(c, 99):>7.2f}")


if __name__ == "__main__":
    main()
