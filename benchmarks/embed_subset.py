"""Vectors for the papers the search benchmarks look at, where embedding the whole corpus takes too long.

On a machine whose CPU has no native bfloat16 the encoder runs in float32 at ~50 texts/s on two
cores: the full corpus takes two hours. The search benchmarks only read the vectors of the papers
near their queries (a topic's centre is the mean of its first keyword hits; landmarks come from
the pool of important papers). This embeds, into the home's vector cache as ``paperlist embed``
does, the landmark pool and every paper in the keyword top ``--top`` of each query of
topical_eval.py (queries and held-out) and search_bench.py, then publishes a partial generation
of everything cached (what the embedding job publishes on its way). ``paperlist embed``
continues from there; a later full generation replaces it.

Hybrid queries (4+ words) search the vector graph of the published papers only: their figures are
not the full corpus's. The topical figures on such a generation were those of full vectors
(BENCHMARKS.md).

    .venv/bin/python benchmarks/embed_subset.py --home /tmp/h1 [--top 100]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import search_bench  # noqa: E402
from topical_eval import HERE, read_tsv  # noqa: E402

from paperlist.index.encoder import DEFAULT_MAX_TOKENS, Encoder  # noqa: E402
from paperlist.index.vectors import VectorCache, iter_rows, publish  # noqa: E402
from paperlist.search import Searcher, SearchRequest  # noqa: E402
from paperlist.store import Store  # noqa: E402


def queries(store: Store) -> list[str]:
    """Every query of the topical evaluation and of search_bench.py."""
    qs = [q["query"] for f in ("queries.tsv", "heldout.tsv") for q in read_tsv(HERE / f)]
    return qs + (search_bench.TOPICAL + search_bench.AUTHORS + search_bench.titles(store, 20, 3)
                 + search_bench.FILTERED + [q for q, _ in search_bench.SORTED] + search_bench.TYPING)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", type=Path, default=Path("data"))
    ap.add_argument("--top", type=int, default=100, help="keyword hits per query embedded")
    ap.add_argument("--batch-size", type=int, default=256)
    args = ap.parse_args()
    store = Store(args.home / "paperlist.db", readonly=True)
    searcher = Searcher.open(args.home)
    pool = searcher._generation().landmarks       # the landmark pool (search/landmarks.py)
    want = set(pool.ids()) if pool is not None else set()
    n_pool = len(want)
    for q in dict.fromkeys(queries(store)):
        res = searcher.search(SearchRequest(q=q, per_page=args.top, mode="keyword", facets=False,
                                            snippets=False))
        want.update(h.id for h in res.hits)
    cache = VectorCache(args.home, DEFAULT_MAX_TOKENS)
    cached = cache.load()
    rows = list(iter_rows(store.iter_embed_items(), DEFAULT_MAX_TOKENS))
    todo: dict[bytes, str] = {}
    for pid, _venue, _year, h, text in rows:
        if pid in want and h not in cached:
            todo[h] = text
    order = sorted(todo, key=lambda h: len(todo[h]))      # similar lengths batch with little padding
    print(f"papers wanted: {len(want):,} (landmark pool {n_pool:,}); to embed {len(order):,}, "
          f"cached before {len(cached):,}", flush=True)
    t0 = time.perf_counter()
    if order:
        enc = Encoder(DEFAULT_MAX_TOKENS)
        for i in range(0, len(order), args.batch_size):
            chunk = order[i:i + args.batch_size]
            vecs = enc.encode([todo[h] for h in chunk])
            cache.append(chunk, vecs)
            cached.update(zip(chunk, vecs, strict=True))
    seconds = time.perf_counter() - t0
    gen, n = publish(args.home, ((r[0], r[1], r[2], r[3]) for r in rows), cached, DEFAULT_MAX_TOKENS,
                     partial=True)
    print(f"embedded {len(order):,} in {seconds:.0f} s; published {gen}: {n:,} of {len(rows):,} papers")
    store.close()


if __name__ == "__main__":
    main()
