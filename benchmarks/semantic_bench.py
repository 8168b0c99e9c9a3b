"""Semantic search figures: embedding throughput, query latency (encoding included), ANN recall.

    python benchmarks/semantic_bench.py --home /tmp/topics-home [--queries 200] [--embed-sample 256]

1. Embedding throughput: a random sample of papers (title + abstract) encoded at 64/128/256 tokens
   (docs/s) and titles alone, and what the full corpus would take at each budget.
2. Query latency on the published vectors: encoding the query, then exact float16 search and the
   HNSW graph (int8) with exact re-scoring; recall@10 of the graph against exact search.
3. The same at full-corpus size when fewer vectors are published: the published rows are tiled
   (with noise) up to the number of papers, so search costs are measured at 263k rows.
4. Searcher.search in hybrid mode end to end (BM25 + vectors + fusion + facets + snippets).

The encoder runs at ``--precision`` (default "auto", as the server and ``paperlist embed`` do);
when that is bfloat16, the query section also reports how many of each query's exact top 10 a
float32 encoding of the same query finds (agreement@10).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import numpy as np

from paperlist.index.encoder import Encoder
from paperlist.index.vectorindex import VectorIndex
from paperlist.index.vectors import embed_text
from paperlist.store import Store

QUERIES = [
    "learning robot manipulation skills from human videos", "diffusion models for text to image generation",
    "graph neural networks for molecular property prediction", "reinforcement learning from human feedback",
    "efficient attention for long context language models", "self-supervised learning of visual representations",
    "uncertainty estimation for deep neural networks", "federated learning with heterogeneous clients",
    "neural radiance fields for dynamic scenes", "chain of thought prompting for math word problems",
    "adversarial examples against image classifiers", "time series forecasting with transformers",
    "machine translation for low resource languages", "protein structure prediction with deep learning",
    "explaining the predictions of black box models", "sparse mixture of experts language models",
]


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def embed_throughput(store: Store, n: int, precision: str) -> None:
    items = [(t, a) for _, _, _, t, a in store.iter_embed_items()]
    with_abs = [embed_text(t, a) for t, a in items if a]
    titles = [embed_text(t, None) for t, _ in items]
    random.seed(3)
    sample = random.sample(with_abs, n)
    n_abs, n_all = len(with_abs), len(items)
    enc = Encoder(256, precision=precision)
    print(f"encoder precision: {enc.precision}")
    enc.encode(sample[:16])                     # warm up once; the budget is the model's max_seq_length
    for budget in (256, 128, 64):
        enc.model.max_seq_length = budget
        t = time.perf_counter()
        enc.encode(sample)
        rate = n / (time.perf_counter() - t)
        print(f"embed  title+abstract  max {budget:>3} tokens  {rate:6.1f} docs/s   all with abstract "
              f"({n_abs:,} with abstract) ~{n_abs / rate / 3600:5.2f} h")
    enc.model.max_seq_length = 128
    ts = random.sample(titles, n * 2)
    t = time.perf_counter()
    enc.encode(ts)
    rate = len(ts) / (time.perf_counter() - t)
    print(f"embed  titles only                    {rate:6.1f} docs/s   ({n_all - n_abs:,} papers without abstract"
          f" ~{(n_all - n_abs) / rate / 60:4.1f} min)")


def latency(vi: VectorIndex, enc: Encoder, queries: list[str], label: str, ref: Encoder | None = None) -> None:
    enc_ms, exact_ms, ann_ms, recall, agree = [], [], [], [], []
    ann = vi.ann
    for q in queries:
        t = time.perf_counter()
        qv = enc.encode_one(q)                      # the server's path, uncached: a new query each time
        enc_ms.append((time.perf_counter() - t) * 1000)
        vi.ann = None
        t = time.perf_counter()
        exact = vi.search(qv, 10)
        exact_ms.append((time.perf_counter() - t) * 1000)
        if ref is not None:
            agree.append(len({p for p, _ in vi.search(ref.encode_one(q), 10)} & {p for p, _ in exact}) / 10)
        vi.ann = ann
        if ann is not None:
            t = time.perf_counter()
            approx = vi.search(qv, 10)
            ann_ms.append((time.perf_counter() - t) * 1000)
            recall.append(len({p for p, _ in approx} & {p for p, _ in exact}) / 10)
    total = [e + (a if ann_ms else x) for e, a, x in zip(enc_ms, ann_ms or exact_ms, exact_ms)]
    print(f"{label}: {len(vi):,} vectors, {len(queries)} queries")
    print(f"  encode query ({enc.precision}) p50 {statistics.median(enc_ms):6.2f} ms  p95 {pct(enc_ms, .95):6.2f} ms"
          + (f"  exact top 10 shared with float32's: {statistics.mean(agree):.3f}" if agree else ""))
    print(f"  exact (float16)  p50 {statistics.median(exact_ms):6.2f} ms  p95 {pct(exact_ms, .95):6.2f} ms")
    if ann_ms:
        print(f"  HNSW int8 + rescore p50 {statistics.median(ann_ms):6.2f} ms  p95 {pct(ann_ms, .95):6.2f} ms"
              f"  recall@10 {statistics.mean(recall):.3f}")
    print(f"  query total (encode + search) p50 {statistics.median(total):6.2f} ms  p95 {pct(total, .95):6.2f} ms")


def tiled(vi: VectorIndex, n: int, tmp: Path) -> VectorIndex:
    """A copy of the published vectors tiled with noise to ``n`` rows, published under ``tmp``."""
    from paperlist.index.vectors import publish

    rng = np.random.default_rng(0)
    base = np.asarray(vi.mat, dtype=np.float32)
    reps = -(-n // len(base))
    rows, cache = [], {}
    for k in range(reps):
        block = base if k == 0 else base + rng.normal(scale=0.02, size=base.shape).astype(np.float32)
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        for i, v in enumerate(block):
            if len(rows) >= n:
                break
            h = f"{k}:{i}".encode().ljust(12, b"\0")[:12]
            rows.append((f"{vi.ids[i]}~{k}", "x", 2024, h))
            cache[h] = v
    publish(tmp, rows, cache, 128)
    out = VectorIndex.open(tmp)
    assert out is not None
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--home", type=Path, required=True)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--embed-sample", type=int, default=256)
    ap.add_argument("--skip-embed", action="store_true")
    ap.add_argument("--full-size", type=int, default=0, help="tile the vectors to this many rows (0: papers)")
    ap.add_argument("--precision", default="auto", choices=("auto", "float32", "bfloat16"))
    args = ap.parse_args()
    store = Store(args.home / "paperlist.db", readonly=True)
    if not args.skip_embed:
        embed_throughput(store, args.embed_sample, args.precision)
    vi = VectorIndex.open(args.home)
    if vi is None:
        print("no vectors published: run paperlist embed")
        return
    tokens = int(vi.info.get("max_tokens", 128))
    enc = Encoder(tokens, threads=1, precision=args.precision)     # as the server encodes queries
    ref = Encoder(tokens, threads=1, precision="float32") if enc.precision != "float32" else None
    titles = [t for _, t, _, _ in store.plain_titles()]
    random.seed(5)
    queries = [QUERIES[i % len(QUERIES)] + f" {w}" for i, w in enumerate(
        random.choice(titles).split()[0] for _ in range(args.queries))]     # distinct texts: no cache hits
    latency(vi, enc, queries, "published vectors", ref)
    n = args.full_size or store.count_papers()
    if len(vi) < n:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            t = time.perf_counter()
            big = tiled(vi, n, Path(d))
            print(f"(tiled to {n:,} rows and built the HNSW graph in {time.perf_counter() - t:.1f}s)")
            latency(big, enc, queries, "full-corpus size (tiled)")
    from paperlist.search import SearchRequest, Searcher

    s = Searcher.open(args.home)
    s.semantic.warm()
    ms = []
    for q in queries[:100]:
        t = time.perf_counter()
        s.search(SearchRequest(q=q, mode="hybrid"))
        ms.append((time.perf_counter() - t) * 1000)
    print(f"Searcher.search hybrid (BM25 top 100 + vectors top 300, score fusion, facets, snippets): "
          f"p50 {statistics.median(ms):.1f} ms  p95 {pct(ms, .95):.1f} ms")


if __name__ == "__main__":
    main()
